/* sdpa-bench's command line (contract documented in cli_usage and the README). */
#include "cli.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <fcntl.h>
#include <libgen.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend_names.h"
#include "dump.h"
#include "fp8.h"
#include "throttle.h"

typedef enum {
    O_LIST_VARIANTS,
    O_LIST_SHAPES,
    O_VARIANT,
    O_VS,
    O_SHAPE,
    O_SEEDS,
    O_CODEC,
    O_DIST,
    O_BACKEND,
    O_CHECK_ONLY,
    O_WARMUP,
    O_ITERS,
    O_MIN_TIME,
    O_MAX_TIME,
    O_L2,
    O_ARM_ORDER,
    O_FORCE,
    O_OUT,
    O_DUMP,
    O_DUMP_FAILED,
    O_QUIET,
    O_HELP,
    O_VERSION,
    O_SCHEDULE,
    O_SCHEDULE_SEED,
    O_PTXAS,
    O_THROTTLE,
    O_NO_BLOCKING,
    O_DEVICE,
    O_PROBE,
    O_LIST_PEERS,
    O_PEER,
    O_CEILINGS,
    O_REF_ROWS,
    O_REF_THREADS,
    O_CAUSAL,
} opt_id_t;

typedef struct {
    const char *name;
    opt_id_t id;
    const char *value; /* what the value is, for messages; NULL for a flag without value */
} opt_t;

static const opt_t options[] = {
    {"--list-variants", O_LIST_VARIANTS, NULL},
    {"--list-shapes", O_LIST_SHAPES, NULL},
    {"--variant", O_VARIANT, "a variant id (--list-variants)"},
    {"--vs", O_VS, "the baseline variant id"},
    {"--shape", O_SHAPE, "a shape name (--list-shapes) or B,H,S,D"},
    {"--seeds", O_SEEDS, "comma-separated unsigned integers, e.g. 0,1,2"},
    {"--codec", O_CODEC, "e4m3 or seed-linear"},
    {"--dist", O_DIST, "normal, uniform or outliers"},
    {"--backend", O_BACKEND, BACKEND_NAMES_TEXT},
    {"--check-only", O_CHECK_ONLY, NULL},
    {"--warmup", O_WARMUP, "an integer >= 0"},
    {"--iters", O_ITERS, "an integer >= 1"},
    {"--min-time", O_MIN_TIME, "seconds >= 0"},
    {"--max-time", O_MAX_TIME, "seconds > 0"},
    {"--l2", O_L2, "cold or warm"},
    {"--arm-order", O_ARM_ORDER, "rotated or fixed"},
    {"--force", O_FORCE, NULL},
    {"--out", O_OUT, "a new .json file"},
    {"--dump", O_DUMP, "a directory"},
    {"--dump-failed", O_DUMP_FAILED, "a directory"},
    {"--quiet", O_QUIET, NULL},
    {"--help", O_HELP, NULL},
    {"-h", O_HELP, NULL},
    {"--version", O_VERSION, NULL},
    {"--schedule", O_SCHEDULE, "fwd, rev or rand"},
    {"--schedule-seed", O_SCHEDULE_SEED, "an unsigned integer"},
    {"--ptxas", O_PTXAS, "a ptxas-resources .json file"},
    {"--throttle-threshold", O_THROTTLE, "auto, or a fraction of the default SM clock, 0 (off) to 1"},
    {"--no-blocking-kernel", O_NO_BLOCKING, NULL},
    {"--device", O_DEVICE, "a CUDA device index (0 to the number visible - 1)"},
    {"--probe", O_PROBE, NULL},
    {"--list-peers", O_LIST_PEERS, NULL},
    {"--peer", O_PEER, "a peer name (--list-peers)"},
    {"--ceilings", O_CEILINGS, NULL},
    {"--ref-rows", O_REF_ROWS, "0 (every row) or a number of rows >= 2"},
    {"--ref-threads", O_REF_THREADS, "0 (every CPU this process may use) or a number of threads, up to 1024"},
    {"--causal", O_CAUSAL, NULL},
};
#define N_OPTIONS (sizeof options / sizeof options[0])

void cli_usage(FILE *f) {
    fprintf(
        f,
        "usage: sdpa-bench [options]\n"
        "Checks FP8 SDPA kernel variants against fp64 references, then times them.\n"
        "\n"
        "What to run:\n"
        "  --list-variants        print the variants (id, then description) and exit\n"
        "  --list-shapes          print the named shapes (name, then B,H,S,D and note) and exit\n"
        "  --list-peers           print the peers (name, then description) and exit\n"
        "  --variant ID           a variant to run (repeatable; default: every variant built)\n"
        "  --peer NAME            also run a peer (repeatable): another implementation, checked and\n"
        "                         timed interleaved like a variant; its id in the JSON is peer-NAME\n"
        "  --vs ID                interleaved A/B comparison of every --variant against baseline ID\n"
        "                         (--vs ID --variant ID alone: an A/A control, ID against itself)\n"
        "                         (a variant, or a peer: NAME or peer-NAME)\n"
        "                         (every round launches each arm once: A B B A ... by default, see\n"
        "                         --arm-order; ratio of medians, bootstrap CI over the rounds)\n"
        "  --shape NAME|B,H,S,D   a problem shape (repeatable; default " CLI_DEFAULT_SHAPE
        "; D = " SDPA_HEAD_DIMS_TEXT ")\n"
        "  --causal               mask every key after its query row, on every shape (register-resident\n"
        "                         variants, E4M3 codec; FLOPs counted as half)\n"
        "  --seeds LIST           input seeds, e.g. 0,1,2 (default " CLI_DEFAULT_SEEDS ")\n"
        "  --codec e4m3|seed-linear   8-bit codec of Q, K, V (default e4m3)\n"
        "  --dist normal|uniform|outliers  input distribution (default normal)\n"
        "  --backend auto|cuda|emu    auto: CUDA when a device is present, else the CPU emulator\n"
        "                         (default auto; the fallback is announced on stderr)\n"
        "  --device N             CUDA device index within CUDA_VISIBLE_DEVICES (default 0)\n"
        "  --ceilings             measure the roofline's ceilings instead (copy bandwidth, fp16 and FP8\n"
        "                         GEMM throughput with cuBLASLt) into --out (kind ceilings); skipped\n"
        "                         on the emulator\n"
        "  --probe                say which backend would run (and why not CUDA) and exit: 0 usable,\n"
        "                         2 not (with --backend cuda: no usable device)\n"
        "\n"
        "How to measure:\n"
        "  --check-only           correctness only, no timing\n"
        "  --warmup N             warm-up launches per variant before sampling (default %d)\n"
        "  --iters N              minimum number of samples (default %d)\n"
        "  --min-time S           minimum sampling time in seconds (default %g)\n"
        "  --max-time S           maximum sampling time in seconds (default %g)\n"
        "  --l2 cold|warm         cold: flush L2 before every sample (default); warm: no flush\n"
        "                         (the emulator has no L2: its samples are always recorded as warm)\n"
        "  --arm-order rotated|fixed  order of the arms (--vs, peers) within a round: rotated (default)\n"
        "                         starts round r at arm r mod k (A B, B A, ...), so no arm always runs\n"
        "                         first; fixed: A B A B ..., as the campaigns before schema 2.1.0\n"
        "  --force                also time variants that failed correctness\n"
        "  --ref-rows N           references of N query rows per (b,h) slice (one per stratum of S/N rows,\n"
        "                         both ends: host/lib/reference.h), for long sequences; metrics, gates\n"
        "                         and bounded cross-variant checks cover those rows (default 0: all)\n"
        "  --ref-threads N        threads computing the references (default 0: every CPU this process\n"
        "                         may use; the bits do not depend on it)\n"
        "  --throttle-threshold F|auto  discard samples of >= 20 us whose SM clock is under F x the\n"
        "                         default clock (0 disables the check); auto (default): $" THROTTLE_ENV "\n"
        "                         if set, else the device's row of a table (host/bench/throttle.c: L4 0.5,\n"
        "                         a power-capped board), else %g as NVBench\n"
        "  --no-blocking-kernel   do not hold the stream while a sample is enqueued (for profilers\n"
        "                         such as Nsight Compute, which serialise launches)\n"
        "  --schedule fwd|rev|rand  emulator fiber schedule (default: the emulator's SIMT_SCHED, else fwd)\n"
        "  --schedule-seed N      seed of --schedule rand (default: the emulator's SIMT_SEED, else 1)\n"
        "\n"
        "Output:\n"
        "  --out FILE.json        write the run (data/SCHEMA.md, kind sdpa-bench-run); never overwrites\n"
        "  --dump DIR             write inputs and output of the last variant/shape/seed as .npy files\n"
        "                         plus meta.json; never overwrites\n"
        "  --dump-failed DIR      write the output of each variant's first failing check, with its\n"
        "                         meta.json, into DIR/VARIANT-SHAPE-sSEED/ (the inputs regenerate from\n"
        "                         the seed; compare with sdpa-report dump-diff); never overwrites\n"
        "  --ptxas FILE           ptxas-resources JSON to embed (default build/ptxas/ptxas.json if present)\n"
        "  --quiet                no progress messages on stderr\n"
        "  --help, --version\n"
        "\n"
        "Exit status: 0 every correctness check passed; 1 a correctness check failed; 2 bad usage or\n"
        "input (the message names the flag); 3 a run-time failure (device error, result not written).\n"
        "Timings from the emulator are CPU times of the emulator, labelled \"emulated\", never GPU times.\n",
        CLI_DEFAULT_WARMUP, CLI_DEFAULT_ITERS, CLI_DEFAULT_MIN_S, CLI_DEFAULT_MAX_S, CLI_DEFAULT_THROTTLE);
}

static const opt_t *find_option(const char *arg, size_t len) {
    for (size_t i = 0; i < N_OPTIONS; i++)
        if (strlen(options[i].name) == len && strncmp(options[i].name, arg, len) == 0) return &options[i];
    return NULL;
}

/* Unsigned decimal integer, whole string, no sign. */
static int parse_u64(const char *s, uint64_t *out) {
    if (!s || *s < '0' || *s > '9') return -1;
    char *end;
    errno = 0;
    const unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end) return -1;
    *out = v;
    return 0;
}

static int parse_count(const char *s, size_t lo, size_t hi, size_t *out) {
    uint64_t v;
    if (parse_u64(s, &v) != 0 || v < lo || v > hi) return -1;
    *out = (size_t)v;
    return 0;
}

static int parse_seconds(const char *s, double lo, bool lo_open, double *out) {
    char *end;
    errno = 0;
    const double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v) || v < lo || (lo_open && v <= lo) || v > 86400.0) return -1;
    *out = v;
    return 0;
}

static int shape_error(const char *text, sdpa_status_t st, char *err, size_t errlen) {
    if (st == SDPA_ERR_HEAD_DIM)
        snprintf(err, errlen, "--shape %s: head dimension not supported; accepted: D = %s", text,
                 SDPA_HEAD_DIMS_TEXT);
    else
        snprintf(err, errlen, "--shape %s: %s", text, sdpa_status_str(st));
    return -1;
}

/* The FlashAttention benchmark grid (FlashAttention-2/3 publish on it): batch x S = 16384 tokens,
 * heads x D = 2048, S = 512 .. 16384, D 64 or 128, causal or not. A member is named
 * fa-s<S>-d<D>[-causal], or fa-t<T>-s<S>-d<D>[-causal] with T tokens in place of 16384 (a small
 * member, for the emulator): B = T / S and H = 2048 / D, both exact. */
#define FA_GRID_TOKENS 16384
#define FA_GRID_WIDTH 2048
int cli_shape_family(const char *text, cli_shape_t *out) {
    unsigned long long T = FA_GRID_TOKENS, S, D;
    int n = 0, m = 0;
    if (sscanf(text, "fa-t%llu-s%llu-d%llu%n", &T, &S, &D, &n) != 3 &&
        (T = FA_GRID_TOKENS, sscanf(text, "fa-s%llu-d%llu%n", &S, &D, &n) != 2))
        return -1;
    const char *rest = text + n;
    if (strcmp(rest, "-causal") == 0)
        m = 1;
    else if (*rest)
        return -1;
    if (S < 1 || D < 1 || T < S || T % S || D > FA_GRID_WIDTH || FA_GRID_WIDTH % D || T > INT32_MAX)
        return -1;
    if (strlen(text) >= sizeof out->name) return -1;
    snprintf(out->name, sizeof out->name, "%s", text);
    out->shape = (sdpa_shape_t){(int32_t)(T / S), (int32_t)(FA_GRID_WIDTH / D), (int32_t)S, (int32_t)D, m};
    return 0;
}

int cli_parse_shape(const char *text, cli_shape_t *out, char *err, size_t errlen) {
    const named_shape_t *ns = named_shape_find(text);
    if (ns) {
        snprintf(out->name, sizeof out->name, "%s", ns->name);
        out->shape = ns->shape;
        return 0;
    }
    if (cli_shape_family(text, out) == 0) {
        const sdpa_status_t st = sdpa_check_shape(out->shape.B, out->shape.H, out->shape.S, out->shape.D);
        return st == SDPA_OK ? 0 : shape_error(text, st, err, errlen);
    }
    int64_t dim[4];
    const char *p = text;
    for (int i = 0; i < 4; i++) {
        char *end;
        errno = 0;
        const long long v = (*p >= '0' && *p <= '9') ? strtoll(p, &end, 10) : (end = (char *)p, -1);
        const bool sep_ok = (i < 3) ? *end == ',' : *end == '\0';
        if (end == p || !sep_ok) {
            char names[256] = "";
            for (size_t k = 0; k < named_shapes_count; k++) {
                strncat(names, named_shapes[k].name, sizeof names - strlen(names) - 1);
                strncat(names, ", ", sizeof names - strlen(names) - 1);
            }
            snprintf(err, errlen,
                     "--shape: unknown shape '%s'; accepted: %sfa-s<S>-d<D>[-causal] (the FlashAttention "
                     "grid, --list-shapes), or B,H,S,D (integers, D = %s)",
                     text, names, SDPA_HEAD_DIMS_TEXT);
            return -1;
        }
        dim[i] = errno == ERANGE ? INT64_MAX : v; /* out of range is "too large", not a parse error */
        p = end + 1;
    }
    const sdpa_status_t st = sdpa_check_shape(dim[0], dim[1], dim[2], dim[3]);
    if (st != SDPA_OK) return shape_error(text, st, err, errlen);
    snprintf(out->name, sizeof out->name, "custom");
    out->shape = (sdpa_shape_t){(int32_t)dim[0], (int32_t)dim[1], (int32_t)dim[2], (int32_t)dim[3], 0};
    return 0;
}

static int parse_seeds(const char *text, cli_opts_t *o, char *err, size_t errlen) {
    o->n_seeds = 0;
    const char *p = text;
    for (;;) {
        const char *comma = strchr(p, ',');
        const size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char item[32];
        uint64_t v;
        if (len == 0 || len >= sizeof item) goto bad;
        memcpy(item, p, len);
        item[len] = '\0';
        if (parse_u64(item, &v) != 0) goto bad;
        for (size_t i = 0; i < o->n_seeds; i++)
            if (o->seeds[i] == v) {
                snprintf(err, errlen, "--seeds %s: seed %" PRIu64 " given twice", text, v);
                return -1;
            }
        if (o->n_seeds == CLI_MAX_SEEDS) {
            snprintf(err, errlen, "--seeds: at most %d seeds", CLI_MAX_SEEDS);
            return -1;
        }
        o->seeds[o->n_seeds++] = v;
        if (!comma) return 0;
        p = comma + 1;
    }
bad:
    snprintf(err, errlen, "--seeds %s: expected comma-separated unsigned integers, e.g. 0,1,2", text);
    return -1;
}

static int add_shape(const char *text, cli_opts_t *o, char *err, size_t errlen) {
    cli_shape_t s;
    if (cli_parse_shape(text, &s, err, errlen) != 0) return -1;
    for (size_t i = 0; i < o->n_shapes; i++) {
        const sdpa_shape_t *t = &o->shapes[i].shape;
        if (strcmp(o->shapes[i].name, s.name) == 0 && t->B == s.shape.B && t->H == s.shape.H &&
            t->S == s.shape.S && t->D == s.shape.D && t->causal == s.shape.causal) {
            snprintf(err, errlen, "--shape %s: given twice", text);
            return -1;
        }
    }
    if (o->n_shapes == CLI_MAX_SHAPES) {
        snprintf(err, errlen, "--shape: at most %d shapes", CLI_MAX_SHAPES);
        return -1;
    }
    o->shapes[o->n_shapes++] = s;
    return 0;
}

static int add_variant(const char *id, cli_opts_t *o, char *err, size_t errlen) {
    for (size_t i = 0; i < o->n_variants; i++)
        if (strcmp(o->variants[i], id) == 0) {
            snprintf(err, errlen, "--variant %s: given twice", id);
            return -1;
        }
    if (o->n_variants == CLI_MAX_VARIANTS) {
        snprintf(err, errlen, "--variant: at most %d variants", CLI_MAX_VARIANTS);
        return -1;
    }
    o->variants[o->n_variants++] = id;
    return 0;
}

static int add_peer(const char *name, cli_opts_t *o, char *err, size_t errlen) {
    for (size_t i = 0; i < o->n_peers; i++)
        if (strcmp(o->peers[i], name) == 0) {
            snprintf(err, errlen, "--peer %s: given twice", name);
            return -1;
        }
    if (o->n_peers == CLI_MAX_PEERS) {
        snprintf(err, errlen, "--peer: at most %d peers", CLI_MAX_PEERS);
        return -1;
    }
    o->peers[o->n_peers++] = name;
    return 0;
}

static int bad_value(const opt_t *opt, const char *v, char *err, size_t errlen) {
    snprintf(err, errlen, "%s: invalid value '%s'; accepted: %s", opt->name, v, opt->value);
    return -1;
}

/* Applies one option with its value (NULL for flags). 0 or -1 with err. */
static int apply(const opt_t *opt, const char *v, cli_opts_t *o, char *err, size_t errlen) {
    switch (opt->id) {
    case O_LIST_VARIANTS: o->action = CLI_LIST_VARIANTS; return 0;
    case O_LIST_SHAPES: o->action = CLI_LIST_SHAPES; return 0;
    case O_HELP: o->action = CLI_HELP; return 0;
    case O_VERSION: o->action = CLI_VERSION; return 0;
    case O_CHECK_ONLY: o->check_only = true; return 0;
    case O_CAUSAL: o->causal = true; return 0;
    case O_FORCE: o->force = true; return 0;
    case O_QUIET: o->quiet = true; return 0;
    case O_VARIANT: return *v ? add_variant(v, o, err, errlen) : bad_value(opt, v, err, errlen);
    case O_VS: o->baseline = v; return *v ? 0 : bad_value(opt, v, err, errlen);
    case O_SHAPE: return add_shape(v, o, err, errlen);
    case O_SEEDS: return parse_seeds(v, o, err, errlen);
    case O_CODEC: return codec_from_name(v, &o->codec) == 0 ? 0 : bad_value(opt, v, err, errlen);
    case O_DIST: return dist_from_name(v, &o->dist) == 0 ? 0 : bad_value(opt, v, err, errlen);
    case O_BACKEND: return backend_kind_from_name(v, &o->backend) == 0 ? 0 : bad_value(opt, v, err, errlen);
    case O_WARMUP: return parse_count(v, 0, 1000000, &o->warmup) == 0 ? 0 : bad_value(opt, v, err, errlen);
    case O_ITERS: return parse_count(v, 1, 10000000, &o->iters) == 0 ? 0 : bad_value(opt, v, err, errlen);
    case O_MIN_TIME:
        return parse_seconds(v, 0.0, false, &o->min_time_s) == 0 ? 0 : bad_value(opt, v, err, errlen);
    case O_MAX_TIME:
        return parse_seconds(v, 0.0, true, &o->max_time_s) == 0 ? 0 : bad_value(opt, v, err, errlen);
    case O_L2:
        if (strcmp(v, "cold") != 0 && strcmp(v, "warm") != 0) return bad_value(opt, v, err, errlen);
        o->l2_cold = strcmp(v, "cold") == 0;
        return 0;
    case O_ARM_ORDER:
        return bench_arm_order_from_name(v, &o->arm_order) == 0 ? 0 : bad_value(opt, v, err, errlen);
    case O_SCHEDULE:
        o->schedule_given = true;
        return emu_schedule_from_name(v, &o->schedule) == 0 ? 0 : bad_value(opt, v, err, errlen);
    case O_SCHEDULE_SEED:
        o->schedule_seed_given = true;
        return parse_u64(v, &o->schedule_seed) == 0 ? 0 : bad_value(opt, v, err, errlen);
    case O_OUT: o->out = v; return *v ? 0 : bad_value(opt, v, err, errlen);
    case O_DUMP: o->dump = v; return *v ? 0 : bad_value(opt, v, err, errlen);
    case O_DUMP_FAILED: o->dump_failed = v; return *v ? 0 : bad_value(opt, v, err, errlen);
    case O_PTXAS: o->ptxas = v; return *v ? 0 : bad_value(opt, v, err, errlen);
    case O_THROTTLE:
        return throttle_parse(v, &o->throttle_threshold) == 0 ? 0 : bad_value(opt, v, err, errlen);
    case O_NO_BLOCKING: o->blocking_kernel = false; return 0;
    case O_DEVICE: return parse_count(v, 0, 1023, &o->device) == 0 ? 0 : bad_value(opt, v, err, errlen);
    case O_PROBE: o->probe = true; return 0;
    case O_LIST_PEERS: o->action = CLI_LIST_PEERS; return 0;
    case O_PEER: return *v ? add_peer(v, o, err, errlen) : bad_value(opt, v, err, errlen);
    case O_CEILINGS: o->ceilings = true; return 0;
    case O_REF_ROWS:
        return parse_count(v, 0, (size_t)1 << 30, &o->ref_rows) == 0 && o->ref_rows != 1
                   ? 0
                   : bad_value(opt, v, err, errlen);
    case O_REF_THREADS:
        return parse_count(v, 0, 1024, &o->ref_threads) == 0 ? 0 : bad_value(opt, v, err, errlen);
    }
    return -1;
}

static void set_defaults(cli_opts_t *o) {
    memset(o, 0, sizeof *o);
    o->action = CLI_RUN;
    o->codec = SDPA_CODEC_E4M3;
    o->dist = DIST_NORMAL;
    o->backend = BACKEND_AUTO;
    o->l2_cold = true;
    o->arm_order = BENCH_ARMS_ROTATED;
    o->warmup = CLI_DEFAULT_WARMUP;
    o->iters = CLI_DEFAULT_ITERS;
    o->min_time_s = CLI_DEFAULT_MIN_S;
    o->max_time_s = CLI_DEFAULT_MAX_S;
    o->schedule = EMU_SCHED_FWD;
    o->throttle_threshold = NAN; /* auto (throttle.h) */
    o->blocking_kernel = true;
}

/* Cross-option rules, checked once everything is parsed. */
static int check_combination(cli_opts_t *o, char *err, size_t errlen) {
    if (o->max_time_s < o->min_time_s) {
        snprintf(err, errlen, "--max-time %g is below --min-time %g; accepted: --max-time >= --min-time",
                 o->max_time_s, o->min_time_s);
        return -1;
    }
    if (o->schedule_seed_given && !(o->schedule_given && o->schedule == EMU_SCHED_RAND)) {
        snprintf(err, errlen,
                 "--schedule-seed applies to the rand schedule only; accepted with --schedule rand");
        return -1;
    }
    /* The baseline as its own only candidate is an A/A control: the two arms' ratio calibrates the
     * SAME band (methodology: the noise floor of an interleaved comparison). */
    for (size_t i = 0; o->baseline && i < o->n_variants; i++)
        if (strcmp(o->variants[i], o->baseline) == 0) {
            if (o->n_variants == 1 && o->n_peers == 0) {
                o->aa_control = true;
                break;
            }
            snprintf(err, errlen,
                     "--vs %s: the baseline is also given as --variant; list only the candidates (or, for an "
                     "A/A control, --vs %s --variant %s alone)",
                     o->baseline, o->baseline, o->baseline);
            return -1;
        }
    if (o->ceilings && (o->n_variants || o->n_peers || o->baseline || o->check_only)) {
        snprintf(err, errlen,
                 "--ceilings measures the device, not variants; accepted without --variant, --peer, "
                 "--vs and --check-only");
        return -1;
    }
    if (o->ceilings && !o->out && !o->probe) {
        snprintf(err, errlen, "--ceilings needs --out FILE.json");
        return -1;
    }
    if (o->n_shapes == 0 && add_shape(CLI_DEFAULT_SHAPE, o, err, errlen) != 0) return -1;
    /* --causal masks every shape of the run; a shape's name says so (mission-causal is the same
     * problem whether named or given as --shape mission --causal). */
    for (size_t i = 0; o->causal && i < o->n_shapes; i++) {
        cli_shape_t *s = &o->shapes[i];
        if (s->shape.causal) continue;
        s->shape.causal = 1;
        const size_t len = strlen(s->name);
        if (len + sizeof "-causal" > sizeof s->name) {
            snprintf(err, errlen, "--causal: shape name '%s' too long to mark", s->name);
            return -1;
        }
        memcpy(s->name + len, "-causal", sizeof "-causal");
    }
    for (size_t i = 0; o->causal && i < o->n_shapes; i++)
        for (size_t j = 0; j < i; j++)
            if (strcmp(o->shapes[j].name, o->shapes[i].name) == 0 &&
                memcmp(&o->shapes[j].shape, &o->shapes[i].shape, sizeof o->shapes[i].shape) == 0) {
                snprintf(err, errlen, "--shape %s: given twice (with --causal)", o->shapes[i].name);
                return -1;
            }
    if (o->n_seeds == 0 && parse_seeds(CLI_DEFAULT_SEEDS, o, err, errlen) != 0) return -1;
    return 0;
}

int cli_parse(int argc, char **argv, cli_opts_t *o, char *err, size_t errlen) {
    set_defaults(o);
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
        const opt_t *opt = find_option(arg, eq ? (size_t)(eq - arg) : strlen(arg));
        if (!opt) {
            if (arg[0] == '-')
                snprintf(err, errlen, "unknown option '%s' (sdpa-bench --help lists the options)", arg);
            else
                snprintf(err, errlen, "unexpected argument '%s' (options start with --; see --help)", arg);
            return EXIT_USAGE;
        }
        const char *value = NULL;
        if (opt->value) {
            value = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
            if (!value) {
                snprintf(err, errlen, "%s needs a value: %s", opt->name, opt->value);
                return EXIT_USAGE;
            }
        } else if (eq) {
            snprintf(err, errlen, "%s takes no value", opt->name);
            return EXIT_USAGE;
        }
        if (apply(opt, value, o, err, errlen) != 0) return EXIT_USAGE;
        if (o->action != CLI_RUN) return 0;
    }
    return check_combination(o, err, errlen) == 0 ? 0 : EXIT_USAGE;
}

/* --out must be new, and its directory writable: tried for real with a probe file, because
 * access(2) says yes to root for any directory. */
static int check_out(const char *path, char *err, size_t errlen) {
    struct stat st;
    if (lstat(path, &st) == 0) {
        snprintf(err, errlen,
                 "--out %s: the file exists; sdpa-bench never overwrites results (choose a new name)", path);
        return -1;
    }
    char copy[4096], probe[4200];
    snprintf(copy, sizeof copy, "%s", path);
    const char *dir = dirname(copy);
    snprintf(probe, sizeof probe, "%s/.sdpa-bench-probe-XXXXXX", dir);
    const int fd = mkstemp(probe);
    if (fd < 0) {
        snprintf(err, errlen, "--out %s: cannot create a file in directory '%s': %s", path, dir,
                 strerror(errno));
        return -1;
    }
    close(fd);
    unlink(probe);
    return 0;
}

int cli_check_paths(const cli_opts_t *o, char *err, size_t errlen) {
    if (o->out && check_out(o->out, err, errlen) != 0) return EXIT_USAGE;
    if (o->dump && dump_check_new(o->dump, err, errlen) != 0) return EXIT_USAGE;
    if (o->ptxas) {
        FILE *f = fopen(o->ptxas, "r");
        if (!f) {
            snprintf(err, errlen, "--ptxas %s: cannot read: %s", o->ptxas, strerror(errno));
            return EXIT_USAGE;
        }
        fclose(f);
    }
    return 0;
}
