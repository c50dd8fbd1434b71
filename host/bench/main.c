/* sdpa-bench: parse, validate, select the backend, check, time, write one JSON file.
 * The command line is a contract (cli_usage, README "sdpa-bench command line"). */
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "sampling.h"
#include "harness.h"
#include "run_json.h"
#include "build_info.h"
#include "cli.h"
#include "inputs.h"
#include "json_file.h"
#include "fileio.h"
#include "arch.h"
#include "nvml.h"
#include "ceilings.h"
#include "peers.h"
#include "throttle.h"
#include "variants.h"

_Static_assert(HARNESS_MAX_RUN <= BENCH_MAX_ARMS, "every run variant must fit one interleaved run");

/* Where the build leaves the ptxas resources of the kernels (mk/kernels.mk). */
#ifndef SDPA_PTXAS_DEFAULT
#define SDPA_PTXAS_DEFAULT "build/ptxas/ptxas.json"
#endif

static int usage_error(const char *msg) {
    fprintf(stderr, "sdpa-bench: %s\n", msg);
    return EXIT_USAGE;
}

static const sdpa_kernel_entry_t *tables[2];

static void load_tables(void) {
    tables[0] = backend_kernels(BACKEND_EMU);
    tables[1] = backend_kernels(BACKEND_CUDA);
}

static bool in_tables(const char *id) {
    return variants_kernel(tables[0], id) || variants_kernel(tables[1], id);
}

/* Every id this build knows: the registry, then table-only entries (e.g. "custom", test kernels). */
static void known_ids(char *buf, size_t len) {
    buf[0] = '\0';
    for (size_t i = 0; i < variants_registry_count; i++)
        snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? ", " : "", variants_registry[i].id);
    for (size_t t = 0; t < 2; t++)
        for (const sdpa_kernel_entry_t *e = tables[t]; e && e->id; e++)
            if (!variants_find(e->id) && !(t == 1 && variants_kernel(tables[0], e->id)))
                snprintf(buf + strlen(buf), len - strlen(buf), ", %s", e->id);
}

static int check_known(const char *flag, const char *id) {
    if (variants_find(id) || in_tables(id) || (strcmp(flag, "--vs") == 0 && peers_find(id))) return 0;
    char ids[2048], peers[256], msg[2600];
    known_ids(ids, sizeof ids);
    peers_names(peers, sizeof peers);
    snprintf(msg, sizeof msg, "%s: unknown variant '%s'; accepted: %s%s%s", flag, id, ids,
             strcmp(flag, "--vs") == 0 ? "; or a peer: " : "", strcmp(flag, "--vs") == 0 ? peers : "");
    return usage_error(msg);
}

static int check_peer(const char *name) {
    if (peers_find(name)) return 0;
    char peers[256], msg[512];
    peers_names(peers, sizeof peers);
    snprintf(msg, sizeof msg, "--peer: unknown peer '%s'; accepted: %s (--list-peers)", name, peers);
    return usage_error(msg);
}

static void list_peers(void) {
    for (size_t i = 0; i < peers_count; i++)
        printf("%-14s %s\n", peers_registry[i].name, peers_registry[i].summary);
}

static void list_variants(void) {
    for (size_t i = 0; i < variants_registry_count; i++) {
        const variant_info_t *v = &variants_registry[i];
        char sw[24 * SDPA_SWITCH_COUNT], geo[256]; /* a switch: its key, "=0" and a space */
        variants_switches_str(v->sw, sw, sizeof sw);
        const sdpa_kernel_entry_t *k = variants_kernel(tables[0], v->id);
        variants_geometry_str(k ? k : variants_kernel(tables[1], v->id), geo, sizeof geo);
        printf("%-12s %s [parent: %s; %s; %s; built for:%s%s]\n", v->id, v->summary,
               v->parent[0] ? v->parent : "-", sw, geo, k ? " emu" : "",
               variants_kernel(tables[1], v->id) ? " cuda" : "");
    }
    for (size_t t = 0; t < 2; t++)
        for (const sdpa_kernel_entry_t *e = tables[t]; e && e->id; e++)
            if (!variants_find(e->id) && !(t == 1 && variants_kernel(tables[0], e->id)))
                printf("%-12s %s [not in kernels/variants.def; built for: %s]\n", e->id,
                       e->summary ? e->summary : "", t == 0 ? "emu" : "cuda");
}

static void list_shapes(void) {
    for (size_t i = 0; i < named_shapes_count; i++) {
        const named_shape_t *s = &named_shapes[i];
        printf("%-10s %d,%d,%d,%d%s  %s\n", s->name, s->shape.B, s->shape.H, s->shape.S, s->shape.D,
               s->shape.causal ? " causal" : "", s->note);
    }
    /* The FlashAttention benchmark grid (cli_shape_family): S = 512 .. 16384, D 64 and 128, causal or
     * not; fa-t<T>-s<S>-d<D>[-causal] names a smaller member with T tokens. */
    for (int causal = 0; causal < 2; causal++)
        for (int D = 64; D <= 128; D *= 2)
            for (int S = 512; S <= 16384; S *= 2) {
                char name[40];
                cli_shape_t f;
                snprintf(name, sizeof name, "fa-s%d-d%d%s", S, D, causal ? "-causal" : "");
                if (cli_shape_family(name, &f) != 0) continue;
                printf(
                    "%-10s %d,%d,%d,%d%s  the FlashAttention benchmark grid (16384 tokens, H x D = 2048)\n",
                    f.name, f.shape.B, f.shape.H, f.shape.S, f.shape.D, causal ? " causal" : "");
            }
}

/* A peer joins the run when it can run here; otherwise it is "not supported" (its library or kernel
 * missing: never a failure), which stops the run only when it is the --vs baseline. */
static int add_peer(harness_t *h, const peer_def_t *d, bool baseline) {
    char why[512];
    peer_session_t *s = peer_session_open(d, h->be, why, sizeof why);
    if (!s && baseline) {
        snprintf(h->err, sizeof h->err, "--vs %s: not supported here: %s", d->name, why);
        return usage_error(h->err);
    }
    if (!s) {
        cJSON_AddItemToArray(h->not_supported, bj_not_timed(d->id, why));
        printf("skip    %-12s %s\n", d->id, why);
        return 0;
    }
    h->peer[h->n_run] = s;
    h->run[h->n_run++] = &d->entry;
    return 0;
}

/* The variants to run, baseline first, then the peers; each variant must be built into the selected
 * backend. */
static int build_run_list(harness_t *h, const cli_opts_t *o, const sdpa_kernel_entry_t *table,
                          const char **config_ids, size_t *n_config) {
    char msg[2400];
    if (variants_check_table(table, msg, sizeof msg) != 0) {
        fprintf(stderr, "sdpa-bench: %s\n", msg);
        return EXIT_RUNTIME;
    }
    const char *ids[HARNESS_MAX_RUN];
    size_t n = 0;
    const peer_def_t *base_peer = o->baseline ? peers_find(o->baseline) : NULL;
    if (base_peer) {
        const int rc = add_peer(h, base_peer, true);
        if (rc != 0) return rc;
    } else if (o->baseline) {
        ids[n++] = o->baseline;
    }
    for (size_t i = 0; i < o->n_variants; i++) ids[n++] = o->variants[i];
    for (const sdpa_kernel_entry_t *e = table; o->n_variants == 0 && e && e->id && n < HARNESS_MAX_RUN; e++)
        if (!o->baseline || strcmp(e->id, o->baseline) != 0) ids[n++] = e->id;
    *n_config = 0;
    for (size_t i = 0; i < n; i++) {
        const bool is_base = o->baseline && !base_peer && i == 0;
        const sdpa_kernel_entry_t *k = variants_kernel(table, ids[i]);
        if (!k) {
            snprintf(msg, sizeof msg, "%s %s: not built into the %s backend (--list-variants shows what is)",
                     is_base ? "--vs" : "--variant", ids[i], h->be->ops->name);
            return usage_error(msg);
        }
        h->run[h->n_run++] = k;
        if (!is_base) config_ids[(*n_config)++] = k->id;
    }
    for (size_t i = 0; i < o->n_peers; i++) {
        const peer_def_t *d = peers_find(o->peers[i]);
        if (d == base_peer) continue;
        const int rc = add_peer(h, d, false);
        if (rc != 0) return rc;
    }
    if (h->n_run == 0) return usage_error("--variant: the selected backend has no variant built");
    return 0;
}

/* ptxas resources: --ptxas FILE must load (else exit 2); the default file is optional. */
static int load_ptxas(const cli_opts_t *o, cJSON **out, char *source, size_t srclen) {
    char err[1024];
    const char *path = o->ptxas ? o->ptxas : SDPA_PTXAS_DEFAULT;
    FILE *f = fopen(path, "r");
    if (!f && !o->ptxas) {
        snprintf(source, srclen, "not embedded: %s not found (built without nvcc, or the kernels not built)",
                 path);
        *out = NULL;
        return 0;
    }
    if (f) fclose(f);
    *out = results_load(path, "ptxas-resources", err, sizeof err);
    if (!*out) {
        char msg[1200];
        snprintf(msg, sizeof msg, "--ptxas: %s", err);
        return usage_error(msg);
    }
    snprintf(source, srclen, "%s", path);
    return 0;
}

static int select_backend(const cli_opts_t *o, backend_t *be) {
    char err[1024];
    if (o->schedule_given && o->backend == BACKEND_CUDA)
        return usage_error(
            "--schedule/--schedule-seed apply to the emulator only; accepted with --backend emu or auto");
    const backend_options_t bo = {.l2_cold = o->l2_cold,
                                  .blocking_kernel = o->blocking_kernel,
                                  .device = (int)o->device,
                                  .schedule_given = o->schedule_given,
                                  .schedule = o->schedule,
                                  .schedule_seed_given = o->schedule_seed_given,
                                  .schedule_seed = o->schedule_seed};
    const int rc = backend_select(o->backend, &bo, be, err, sizeof err);
    if (rc != 0) {
        fprintf(stderr, "sdpa-bench: %s\n", err);
        return rc;
    }
    const bool emu = strcmp(be->ops->name, "emu") == 0;
    if (o->schedule_given && !emu && !o->quiet)
        fprintf(stderr, "sdpa-bench: --schedule ignored: running on the CUDA backend\n");
    if (o->l2_cold && emu && !o->check_only && !o->quiet)
        fprintf(stderr, "sdpa-bench: the emulator has no L2 cache to flush: its samples run back to back "
                        "(recorded as l2 \"warm\")\n");
    return 0;
}

/* NVML's view of the device (nvml.h), when the driver offers it: the driver release and power limit
 * once, the SM clock at the start and again at the end of the run. */
static void device_nvml(backend_device_t *d, bool at_end) {
    nvml_info_t n;
    const int rc = nvml_query(d->pci_bus_id, &n);
    if (at_end) {
        d->sm_clock_end_mhz = n.sm_clock_mhz;
        return;
    }
    d->sm_clock_start_mhz = n.sm_clock_mhz;
    d->power_limit_w = n.power_limit_w;
    if (n.mig_mode >= 0 && d->mig < 0) d->mig = n.mig_mode;
    snprintf(d->nvml_why, sizeof d->nvml_why, "%s", rc == 0 ? "" : n.why);
    if (n.driver_release[0])
        snprintf(d->driver_release, sizeof d->driver_release, "%s", n.driver_release);
    else
        (void)nvml_driver_release_from_proc("/proc/driver/nvidia/version", d->driver_release,
                                            sizeof d->driver_release);
}

/* --backend auto used the emulator although a GPU is visible: said at the end of the run, framed,
 * where it is not lost among make's output (it is also in meta.backend_fallback and the report). */
static void warn_fallback(const backend_t *be) {
    if (!be->fell_back || !be->gpu_visible) return;
    fprintf(stderr,
            "sdpa-bench: ==============================================================================\n"
            "sdpa-bench: A GPU is visible on this machine, but this run used the CPU EMULATOR:\n"
            "sdpa-bench:   %s\n"
            "sdpa-bench: Its timings are emulator timings, not GPU timings. Fix the cause, or run with\n"
            "sdpa-bench: --backend cuda (make ... BACKEND=cuda) to stop instead of falling back.\n"
            "sdpa-bench: ==============================================================================\n",
            be->fallback_reason);
}

/* --probe: which backend --backend would use, and why not CUDA; nothing is run. Exit 0 when that
 * backend is usable, 2 when --backend cuda has no usable device (make's BACKEND=cuda stops here,
 * before it creates a run directory). */
static int probe(const cli_opts_t *o) {
    char why[512] = "";
    const backend_options_t bo = {.device = (int)o->device};
    const bool cuda = o->backend != BACKEND_EMU && backend_cuda_ops.probe(&bo, why, sizeof why);
    if (cuda) {
        printf("cuda: usable (device %zu)\n", o->device);
        return EXIT_PASS;
    }
    if (o->backend == BACKEND_CUDA) {
        fprintf(stderr, "sdpa-bench: --backend cuda: %s\n", why);
        return EXIT_USAGE;
    }
    const char *dev_dir = getenv("SDPA_DEV_DIR");
    printf("emu: the CPU emulator%s%s%s\n", o->backend == BACKEND_AUTO ? " (CUDA unavailable: " : "",
           o->backend == BACKEND_AUTO ? why : "", o->backend == BACKEND_AUTO ? ")" : "");
    if (o->backend == BACKEND_AUTO && backend_gpu_visible(dev_dir && *dev_dir ? dev_dir : "/dev"))
        printf("warning: a GPU is visible on this machine but CUDA cannot use it\n");
    return EXIT_PASS;
}

static void fill_meta(cJSON *doc, const cli_opts_t *o, harness_t *h, cJSON **device_json) {
    cJSON *meta = results_meta(doc);
    backend_emulator_t emu;
    cJSON_AddStringToObject(meta, "backend", h->be->ops->name);
    cJSON_AddStringToObject(meta, "timing", o->check_only ? "none" : h->be->ops->timing);
    if (h->be->fell_back) {
        cJSON *f = cJSON_AddObjectToObject(meta, "backend_fallback");
        cJSON_AddStringToObject(f, "reason", h->be->fallback_reason);
        cJSON_AddBoolToObject(f, "gpu_visible", h->be->gpu_visible);
    }
    h->have_device = h->be->ops->device(h->be->self, &h->dev) == 0;
    if (h->have_device) device_nvml(&h->dev, false);
    *device_json = h->have_device ? bj_device(&h->dev) : NULL;
    cJSON_AddItemToObject(meta, "device", h->have_device ? *device_json : cJSON_CreateNull());
    cJSON_AddItemToObject(meta, "emulator",
                          h->be->ops->emulator(h->be->self, &emu) == 0 ? bj_emulator(&emu)
                                                                       : cJSON_CreateNull());
}

/* Variants whose switches need a newer architecture than the device (kernels/switches.h, MIN_SM) or
 * another one (ARCH SM90A: compute capability 9.0 only),
 * or that cannot compute on the codec's codes (variants_codec_unsupported), are "not supported":
 * listed in not_supported, never run, never failed. */
static int drop_unsupported(harness_t *h, cJSON *not_supported) {
    const int cc = h->have_device ? arch_cc_from_string(h->dev.cc) : -1;
    size_t kept = 0;
    for (size_t i = 0; i < h->n_run; i++) {
        const char *codec_why = h->peer[i] ? NULL : variants_codec_unsupported(h->run[i]->sw, h->opt->codec);
        char why[160];
        const char *arch_why =
            cc < 0 ? NULL
                   : variants_arch_unsupported(variants_min_sm(h->run[i]->sw),
                                               variants_exact_sm(h->run[i]->sw), cc, why, sizeof why);
        if (!codec_why && !arch_why) {
            h->peer[kept] = h->peer[i];
            h->run[kept++] = h->run[i];
            continue;
        }
        if (codec_why) snprintf(why, sizeof why, "not supported with --codec seed-linear (%s)", codec_why);
        if (i == 0 && h->opt->baseline) {
            snprintf(h->err, sizeof h->err, "--vs %s: %s", h->run[i]->id, why);
            return EXIT_USAGE;
        }
        cJSON_AddItemToArray(not_supported, bj_not_timed(h->run[i]->id, why));
        printf("skip    %-12s %s\n", h->run[i]->id, why);
    }
    h->n_run = kept;
    if (kept == 0) {
        snprintf(h->err, sizeof h->err,
                 "--variant: no variant given is supported on this device (sm_%d) with this --codec", cc);
        return EXIT_USAGE;
    }
    return 0;
}

static void close_peers(harness_t *h) {
    for (size_t i = 0; i < HARNESS_MAX_RUN; i++) {
        peer_session_close(h->peer[i]);
        h->peer[i] = NULL;
    }
}

/* --ceilings: the device's measured ceilings (ceilings.h) into --out, kind "ceilings". Exit 0 when
 * the file was written, skipped and failed ceilings included. */
static int ceilings(int argc, char **argv, const cli_opts_t *o, backend_t *be) {
    harness_t h;
    memset(&h, 0, sizeof h);
    h.opt = o;
    h.be = be;
    cJSON *doc = results_new("ceilings", "sdpa-bench", argc, argv), *device_json = NULL;
    if (!doc) {
        fprintf(stderr, "sdpa-bench: out of memory\n");
        return EXIT_RUNTIME;
    }
    fill_meta(doc, o, &h, &device_json);
    ceilings_measure(be, h.have_device ? &h.dev : NULL, o->quiet, cJSON_AddArrayToObject(doc, "ceilings"));
    if (h.have_device) {
        device_nvml(&h.dev, true);
        bj_set_device_num(device_json, "sm_clock_end_mhz", h.dev.sm_clock_end_mhz);
    }
    int rc = EXIT_PASS;
    if (results_write(doc, o->out, h.err, sizeof h.err) != 0) {
        fprintf(stderr, "sdpa-bench: --out: %s\n", h.err);
        rc = EXIT_RUNTIME;
    } else if (!o->quiet) {
        fprintf(stderr, "sdpa-bench: wrote %s\n", o->out);
    }
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(doc, "ceilings")) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(c, "value"),
                    *r = cJSON_GetObjectItemCaseSensitive(c, "reason");
        printf("ceiling %-14s %-8s", cJSON_GetObjectItemCaseSensitive(c, "name")->valuestring,
               cJSON_GetObjectItemCaseSensitive(c, "status")->valuestring);
        if (cJSON_IsNumber(v))
            printf(" %.1f %s", v->valuedouble, cJSON_GetObjectItemCaseSensitive(c, "unit")->valuestring);
        if (cJSON_IsString(r)) printf(" (%s)", r->valuestring);
        printf("\n");
    }
    cJSON_Delete(doc);
    warn_fallback(be);
    return rc;
}

static int run(int argc, char **argv, const cli_opts_t *o, backend_t *be, cJSON *ptxas,
               const char *ptxas_source) {
    harness_t h;
    memset(&h, 0, sizeof h);
    h.opt = o;
    h.be = be;
    const char *config_ids[HARNESS_MAX_RUN];
    size_t n_config = 0;
    cJSON *doc = results_new("sdpa-bench-run", "sdpa-bench", argc, argv), *device_json = NULL;
    cJSON *not_supported = cJSON_CreateArray();
    if (!doc || !not_supported) {
        cJSON_Delete(doc);
        cJSON_Delete(not_supported);
        fprintf(stderr, "sdpa-bench: out of memory\n");
        return EXIT_RUNTIME;
    }
    h.not_supported = not_supported;
    int rc = build_run_list(&h, o, be->ops->kernels ? be->ops->kernels() : NULL, config_ids, &n_config);
    if (rc != 0) {
        close_peers(&h);
        cJSON_Delete(doc);
        cJSON_Delete(not_supported);
        return rc;
    }
    fill_meta(doc, o, &h, &device_json);
    char err[600];
    if (throttle_resolve(o->throttle_threshold, getenv(THROTTLE_ENV), h.have_device ? h.dev.name : NULL,
                         &h.throttle, h.throttle_source, sizeof h.throttle_source, err, sizeof err) != 0) {
        close_peers(&h);
        cJSON_Delete(doc);
        cJSON_Delete(not_supported);
        return usage_error(err);
    }
    cJSON_AddItemToObject(
        doc, "config",
        bj_config(o, config_ids, n_config, BENCH_DEFAULT_MAX_SAMPLES, h.throttle, h.throttle_source));
    cJSON_AddItemToObject(cJSON_GetObjectItem(doc, "config"), "geometry", bj_geometry(h.run, h.n_run));
    h.correctness = cJSON_AddArrayToObject(doc, "correctness");
    h.cross = cJSON_AddArrayToObject(doc, "cross_variant");
    h.timing = cJSON_AddArrayToObject(doc, "timing");
    h.comparisons = cJSON_AddArrayToObject(doc, "comparisons");
    h.not_timed = cJSON_AddArrayToObject(doc, "not_timed");
    cJSON_AddItemToObject(doc, "not_supported", not_supported);
    rc = drop_unsupported(&h, not_supported);
    if (rc == 0) rc = harness_correctness(&h);
    if (rc == 0) rc = harness_timing(&h);
    bj_set_device_num(device_json, "sm_clock_measured_mhz", harness_measured_clock(&h));
    if (h.have_device) {
        device_nvml(&h.dev, true);
        bj_set_device_num(device_json, "sm_clock_end_mhz", h.dev.sm_clock_end_mhz);
    }
    cJSON_AddItemToObject(doc, "ptxas", ptxas ? cJSON_Duplicate(ptxas, 1) : cJSON_CreateNull());
    cJSON_AddStringToObject(doc, "ptxas_source", ptxas_source);
    if (rc != 0) {
        fprintf(stderr, "sdpa-bench: %s\nsdpa-bench: stopped; no result file written\n", h.err);
    } else if (o->out && results_write(doc, o->out, h.err, sizeof h.err) != 0) {
        fprintf(stderr, "sdpa-bench: --out: %s\n", h.err);
        rc = EXIT_RUNTIME;
    } else if (o->out && !o->quiet) {
        fprintf(stderr, "sdpa-bench: wrote %s\n", o->out);
    }
    /* A run whose every case was skipped (a shape or head dimension the variants do not support)
     * checked nothing: it says so rather than PASS. It still exits 0, as the skips are recorded
     * (not_supported) and the reports read them as NOT EVALUATED. */
    const bool ran_any = cJSON_GetArraySize(h.correctness) > 0 || cJSON_GetArraySize(h.timing) > 0;
    harness_free(&h);
    close_peers(&h);
    cJSON_Delete(doc);
    warn_fallback(be);
    if (rc != 0) return rc;
    if (h.any_failed)
        printf("result: FAIL (a correctness check failed)\n");
    else if (!ran_any)
        printf("result: NOTHING CHECKED (every case was skipped: see the lines above)\n");
    else
        printf("result: PASS (every correctness check passed)\n");
    return h.any_failed ? EXIT_CHECK_FAILED : EXIT_PASS;
}

int main(int argc, char **argv) {
    cli_opts_t o;
    char err[2048];
    /* Line by line into a file too: a log that takes stdout and stderr together keeps their order
     * (block buffering put stderr's lines inside stdout's). */
    setvbuf(stdout, NULL, _IOLBF, 0);
    /* Interrupted (SIGINT/SIGTERM): no partial file, exit 130/143; a full disk is a write error. */
    if (file_signals_install() != 0) perror("sdpa-bench: signal handlers");
    if (cli_parse(argc, argv, &o, err, sizeof err) != 0) return usage_error(err);
    load_tables();
    switch (o.action) {
    case CLI_HELP: cli_usage(stdout); return 0;
    case CLI_VERSION:
        printf("sdpa-bench %s (git %s%s; schema %s)\n", RESULTS_TOOL_VERSION, BUILD_GIT_SHA,
               BUILD_GIT_DIRTY > 0 ? ", dirty" : "", RESULTS_SCHEMA_VERSION);
        return 0;
    case CLI_LIST_VARIANTS: list_variants(); return 0;
    case CLI_LIST_SHAPES: list_shapes(); return 0;
    case CLI_LIST_PEERS: list_peers(); return 0;
    case CLI_RUN: break;
    }
    if (o.baseline && check_known("--vs", o.baseline)) return EXIT_USAGE;
    for (size_t i = 0; i < o.n_peers; i++)
        if (check_peer(o.peers[i])) return EXIT_USAGE;
    /* A peer baseline is recorded by its id, as its comparisons name it. */
    if (o.baseline && !in_tables(o.baseline) && peers_find(o.baseline))
        o.baseline = peers_find(o.baseline)->id;
    for (size_t i = 0; o.baseline && i < o.n_peers; i++)
        if (peers_find(o.peers[i]) == peers_find(o.baseline)) {
            snprintf(err, sizeof err,
                     "--vs %s: the baseline is also given as --peer; list only the candidates", o.baseline);
            return usage_error(err);
        }
    for (size_t i = 0; i < o.n_variants; i++)
        if (check_known("--variant", o.variants[i])) return EXIT_USAGE;
    if (cli_check_paths(&o, err, sizeof err) != 0) return usage_error(err);
    cJSON *ptxas = NULL;
    char ptxas_source[1200];
    int rc = load_ptxas(&o, &ptxas, ptxas_source, sizeof ptxas_source);
    if (rc != 0) return rc;
    backend_t be;
    if (o.probe) {
        cJSON_Delete(ptxas);
        return probe(&o);
    }
    rc = select_backend(&o, &be);
    if (rc == 0)
        rc = o.ceilings ? ceilings(argc, argv, &o, &be) : run(argc, argv, &o, &be, ptxas, ptxas_source);
    backend_close(&be);
    cJSON_Delete(ptxas);
    return rc;
}
