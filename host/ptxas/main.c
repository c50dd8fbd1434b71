/* ptxas-json: turns the ptxas -v log of kernels/stages.cu into the `ptxas-resources` JSON of
 * data/SCHEMA.md (registers, spills, local memory, shared memory, barriers per variant, codec and
 * architecture; the static gates; occupancy), and prints the same as a table beside the original
 * study's published sm_89 figures.
 *
 * Usage: ptxas-json --log FILE --out FILE.json [--published data/published/seed-l4.json] [--print]
 * Exit status: 0 all kernels pass the gates, 1 a gate fails, 2 bad usage or input. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/variants.h"
#include "fileio.h"
#include "sdpa_api.h"
#include "occupancy.h"
#include "ptxas_log.h"
#include "json_file.h"

#define MAX_KERNELS 256

/* Kernel names are those of the kernel table (sdpa_api.h, one entry per variant, one geometry per
 * head dimension): the e4m3 kernel's name is the geometry's, the seed-linear one's has "_seedlin"
 * in place of "_e4m3". The table is the emulator build's of the same kernels/stages.cu, which
 * computes every geometry (rows per CTA, warps, shared memory) from the same Configs as nvcc's. */
typedef struct {
    const char *variant, *codec;
    const sdpa_geometry_t *geometry;
    int causal; /* the "_causal" instance of the geometry (e4m3 only; sdpa_geometry_t.causal) */
} kernel_id_t;

static int identify(const char *kernel, kernel_id_t *out) {
    static const char causal_tag[] = "_causal";
    const size_t len = strlen(kernel), tag_len = sizeof causal_tag - 1;
    const int causal = len > tag_len && strcmp(kernel + len - tag_len, causal_tag) == 0;
    for (const sdpa_kernel_entry_t *e = sdpa_kernels_emu; e->id; ++e)
        for (int32_t i = 0; i < e->n_geometry; ++i) {
            const char *name = e->geometry[i].kernel, *tag = strstr(name, "_e4m3");
            char seedlin[160], e4m3_causal[160];
            if (!tag) continue;
            snprintf(seedlin, sizeof seedlin, "%.*s_seedlin%s", (int)(tag - name), name, tag + 5);
            snprintf(e4m3_causal, sizeof e4m3_causal, "%s%s", name, causal_tag);
            const int is_e4m3 = strcmp(kernel, causal ? e4m3_causal : name) == 0,
                      is_seedlin = !causal && strcmp(kernel, seedlin) == 0;
            if ((!is_e4m3 && !is_seedlin) || (causal && !e->geometry[i].causal)) continue;
            out->variant = e->id;
            out->codec = is_e4m3 ? "e4m3" : "seed-linear";
            out->geometry = &e->geometry[i];
            out->causal = causal;
            return 0;
        }
    return -1;
}

/* The register gate of a kernel instance: its launch bounds' cap (kernels/geometry.h, SDPA_REG_CAP):
 * 128 at D = 64 (512 threads per SM, the original's), 255 at D = 128 (256 threads per SM), 168 for
 * a 384-thread block bounded (384, 1) (stage 7d, whose warpgroups then split the registers). */
static ptxas_gates_t gates_for(const sdpa_geometry_t *g) {
    ptxas_gates_t r = PTXAS_GATES;
    r.max_registers = SDPA_REG_CAP(32 * g->warps, g->head_dim);
    return r;
}

/* The occupancy object of a kernel or a published row (data/SCHEMA.md, ptxas-resources). */
static void add_occupancy(cJSON *o, const occupancy_t *occ, int occ_ok) {
    if (!occ_ok) {
        cJSON_AddNullToObject(o, "occupancy");
        return;
    }
    cJSON *oc = cJSON_AddObjectToObject(o, "occupancy");
    cJSON_AddNumberToObject(oc, "blocks_per_sm", occ->blocks_per_sm);
    cJSON_AddNumberToObject(oc, "warps_per_sm", occ->warps_per_sm);
    cJSON_AddNumberToObject(oc, "max_warps_per_sm", occ->max_warps_per_sm);
    cJSON_AddNumberToObject(oc, "occupancy", occ->occupancy);
    cJSON_AddStringToObject(oc, "limited_by", occ->limited_by);
}

static cJSON *kernel_json(const ptxas_kernel_t *k, const kernel_id_t *id, const occupancy_t *occ, int occ_ok,
                          ptxas_gate_result_t gate) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "variant", id->variant);
    cJSON_AddStringToObject(o, "codec", id->codec);
    char arch[16];
    snprintf(arch, sizeof arch, "sm_%d", k->arch);
    cJSON_AddStringToObject(o, "arch", arch);
    cJSON_AddStringToObject(o, "target", k->target);
    cJSON_AddStringToObject(o, "kernel", k->kernel);
    cJSON_AddBoolToObject(o, "causal", id->causal);
    const sdpa_geometry_t *g = id->geometry;
    cJSON *gj = cJSON_AddObjectToObject(o, "geometry");
    cJSON_AddNumberToObject(gj, "head_dim", g->head_dim);
    cJSON_AddNumberToObject(gj, "tile_m", g->tile_m);
    cJSON_AddNumberToObject(gj, "tile_n", g->tile_n);
    cJSON_AddNumberToObject(gj, "warps", g->warps);
    cJSON_AddNumberToObject(gj, "mma_warps", g->mma_warps);
    cJSON_AddNumberToObject(gj, "smem_bytes", g->smem_bytes);
    cJSON_AddNumberToObject(gj, "dynamic_smem_bytes", g->dynamic_smem ? g->smem_bytes : 0);
    cJSON_AddNumberToObject(o, "registers", k->registers);
    cJSON_AddNumberToObject(o, "barriers", k->barriers < 0 ? 0 : k->barriers);
    cJSON_AddNumberToObject(o, "static_smem_bytes", (double)(k->smem < 0 ? 0 : k->smem));
    if (k->cmem0 < 0)
        cJSON_AddNullToObject(o, "cmem0_bytes");
    else
        cJSON_AddNumberToObject(o, "cmem0_bytes", (double)k->cmem0);
    cJSON_AddNumberToObject(o, "stack_bytes", (double)(k->stack < 0 ? 0 : k->stack));
    cJSON_AddNumberToObject(o, "spill_store_bytes", (double)(k->spill_stores < 0 ? 0 : k->spill_stores));
    cJSON_AddNumberToObject(o, "spill_load_bytes", (double)(k->spill_loads < 0 ? 0 : k->spill_loads));
    cJSON_AddNumberToObject(o, "local_bytes", (double)ptxas_local_bytes(k));
    add_occupancy(o, occ, occ_ok);
    cJSON *gates = cJSON_AddObjectToObject(o, "gates");
    cJSON_AddBoolToObject(gates, "registers", gate.registers);
    cJSON_AddBoolToObject(gates, "spills", gate.spills);
    cJSON_AddBoolToObject(gates, "local", gate.local);
    cJSON_AddBoolToObject(gates, "smem", gate.smem);
    cJSON_AddBoolToObject(o, "pass", gate.pass);
    return o;
}

/* A field of a (possibly hand-written) JSON row for printing: "?" / -1 when absent. */
static const char *str_or(const cJSON *o, const char *k, const char *dflt) {
    const cJSON *v = cJSON_GetObjectItem(o, k);
    return cJSON_IsString(v) ? v->valuestring : dflt;
}
static int int_or(const cJSON *o, const char *k) {
    const cJSON *v = cJSON_GetObjectItem(o, k);
    return cJSON_IsNumber(v) ? v->valueint : -1;
}

/* Published ptxas figures of the original (kind published-figures, array "resources"), copied as-is.
 * A missing file is not an error (reported as null); a malformed one is. */
static int add_published(cJSON *doc, const char *path) {
    if (!path) {
        cJSON_AddNullToObject(doc, "published");
        return 0;
    }
    char err[512];
    cJSON *pub = results_load(path, "published-figures", err, sizeof err);
    if (!pub) {
        fprintf(stderr, "ptxas-json: %s\n", err);
        return -1;
    }
    const cJSON *rows = json_get(pub, "resources", path, err, sizeof err);
    if (!rows || !cJSON_IsArray(rows)) {
        fprintf(stderr, "ptxas-json: %s\n",
                rows ? "published figures: field 'resources' is not an array" : err);
        cJSON_Delete(pub);
        return -1;
    }
    /* Each row also gets the occupancy the same model gives the original's figures, so that a
     * faithful stage can be checked against the original's occupancy class (static-gates.sh). */
    cJSON *copy = cJSON_Duplicate(rows, 1);
    cJSON *row;
    cJSON_ArrayForEach(row, copy) {
        const cJSON *arch = cJSON_GetObjectItem(row, "arch");
        const int a =
            cJSON_IsString(arch) && !strncmp(arch->valuestring, "sm_", 3) ? atoi(arch->valuestring + 3) : 0;
        occupancy_t occ;
        const int ok = int_or(row, "registers") >= 0 && int_or(row, "static_smem_bytes") >= 0 &&
                       occupancy_compute(a, ORIGINAL_THREADS, int_or(row, "registers"),
                                         int_or(row, "static_smem_bytes"), ORIGINAL_BARRIERS, &occ) == 0;
        cJSON_DeleteItemFromObject(row, "occupancy");
        add_occupancy(row, &occ, ok);
    }
    cJSON_AddItemToObject(doc, "published", copy);
    cJSON_Delete(pub);
    return 0;
}

/* The table's order: architecture, then the registry's order of the variants (stage0 first, custom
 * and unknown ids last), head dimension, mask, codec; ptxas's log lists them as nvcc compiled them. */
static const char *target_of(const cJSON *k) { return str_or(k, "target", str_or(k, "arch", "")); }
static size_t registry_rank(const char *id) {
    const variant_info_t *v = id ? variants_find(id) : NULL;
    return v ? (size_t)(v - variants_registry) : variants_registry_count;
}
static int cmp_rows(const void *pa, const void *pb) {
    const cJSON *a = *(const cJSON *const *)pa, *b = *(const cJSON *const *)pb;
    int c = strcmp(target_of(a), target_of(b));
    if (c) return c;
    const size_t ra = registry_rank(str_or(a, "variant", NULL)),
                 rb = registry_rank(str_or(b, "variant", NULL));
    if (ra != rb) return ra < rb ? -1 : 1;
    const int da = int_or(cJSON_GetObjectItem(a, "geometry"), "head_dim"),
              db = int_or(cJSON_GetObjectItem(b, "geometry"), "head_dim");
    if (da != db) return da < db ? -1 : 1;
    const int ma = cJSON_IsTrue(cJSON_GetObjectItem(a, "causal")),
              mb = cJSON_IsTrue(cJSON_GetObjectItem(b, "causal"));
    if (ma != mb) return ma - mb;
    return strcmp(str_or(a, "codec", ""), str_or(b, "codec", ""));
}

static void print_table(const cJSON *kernels, const cJSON *published) {
    printf("%-12s %-11s %-6s %4s %-6s %4s %5s %5s %4s %7s %6s %6s %7s %-24s %s\n", "variant", "codec", "arch",
           "D", "mask", "rows", "warps", "regs", "bars", "smem_B", "stack", "spill", "occ", "limited by",
           "gates");
    const int n = cJSON_GetArraySize(kernels);
    const cJSON **rows = n > 0 ? malloc((size_t)n * sizeof *rows) : NULL;
    int m = 0;
    const cJSON *k;
    cJSON_ArrayForEach(k, kernels) if (rows) rows[m++] = k;
    if (m > 1) qsort(rows, (size_t)m, sizeof *rows, cmp_rows);
    for (int i = 0; i < m; i++) {
        k = rows[i];
        const cJSON *geo = cJSON_GetObjectItem(k, "geometry");
        char why[160], gates[192];
        const bool stub = variants_build_stub(str_or(k, "variant", NULL), str_or(k, "arch", NULL),
                                              str_or(k, "codec", NULL), why, sizeof why) != NULL;
        const cJSON *occ = stub ? NULL : cJSON_GetObjectItem(k, "occupancy");
        snprintf(gates, sizeof gates, "%s%s", stub ? "stub, " : "",
                 stub                                           ? why
                 : cJSON_IsTrue(cJSON_GetObjectItem(k, "pass")) ? "PASS"
                                                                : "FAIL");
        printf("%-12s %-11s %-6s %4d %-6s %4d %5d %5d %4d %7d %6d %6d %6.1f%% %-24s %s\n",
               cJSON_GetObjectItem(k, "variant")->valuestring, cJSON_GetObjectItem(k, "codec")->valuestring,
               str_or(k, "target", cJSON_GetObjectItem(k, "arch")->valuestring), int_or(geo, "head_dim"),
               cJSON_IsTrue(cJSON_GetObjectItem(k, "causal")) ? "causal" : "-", int_or(geo, "tile_m"),
               int_or(geo, "warps"), cJSON_GetObjectItem(k, "registers")->valueint,
               cJSON_GetObjectItem(k, "barriers")->valueint,
               cJSON_GetObjectItem(k, "static_smem_bytes")->valueint,
               cJSON_GetObjectItem(k, "stack_bytes")->valueint,
               cJSON_GetObjectItem(k, "spill_store_bytes")->valueint +
                   cJSON_GetObjectItem(k, "spill_load_bytes")->valueint,
               cJSON_IsObject(occ) ? 100.0 * cJSON_GetObjectItem(occ, "occupancy")->valuedouble : 0.0,
               cJSON_IsObject(occ) ? cJSON_GetObjectItem(occ, "limited_by")->valuestring : "-", gates);
    }
    free(rows);
    if (!cJSON_IsArray(published)) return;
    printf("published (original study, NVIDIA L4; data/published/seed-l4.json):\n");
    const cJSON *p;
    cJSON_ArrayForEach(p, published) {
        printf("%-12s %-11s %-6s %4d %-6s %4d %5d %5d %4s %7d %6d %6s %7s %-24s %s\n",
               str_or(p, "variant", "?"), "(linear)", str_or(p, "arch", "?"), ORIGINAL_HEAD_DIM, "-",
               ORIGINAL_TILE_M, ORIGINAL_THREADS / 32, int_or(p, "registers"), "-",
               int_or(p, "static_smem_bytes"), int_or(p, "stack_bytes"), "-", "-", "-",
               str_or(p, "source", ""));
    }
}

static int usage(const char *msg) {
    fprintf(stderr,
            "ptxas-json: %s\nusage: ptxas-json --log FILE --out FILE.json [--published FILE] [--print]\n",
            msg);
    return 2;
}

int main(int argc, char **argv) {
    const char *log_path = NULL, *out_path = NULL, *pub_path = NULL;
    int print = 0;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--print"))
            print = 1;
        else if (i + 1 < argc && !strcmp(argv[i], "--log"))
            log_path = argv[++i];
        else if (i + 1 < argc && !strcmp(argv[i], "--out"))
            out_path = argv[++i];
        else if (i + 1 < argc && !strcmp(argv[i], "--published"))
            pub_path = argv[++i];
        else {
            char msg[256];
            snprintf(msg, sizeof msg, "unknown or incomplete argument '%s'", argv[i]);
            return usage(msg);
        }
    }
    if (!log_path || !out_path) return usage("--log and --out are required");

    char *log = file_read_all(log_path, NULL);
    if (!log) {
        fprintf(stderr, "ptxas-json: %s: %s\n", log_path, strerror(errno));
        return 2;
    }
    static ptxas_kernel_t ks[MAX_KERNELS];
    char err[512];
    int n = ptxas_parse(log, ks, MAX_KERNELS, err, sizeof err);
    free(log);
    if (n < 0) {
        fprintf(stderr, "ptxas-json: %s: %s\n", log_path, err);
        return 2;
    }
    if (n == 0) {
        fprintf(stderr, "ptxas-json: %s: no kernel found (was it compiled with -Xptxas -v?)\n", log_path);
        return 2;
    }

    cJSON *doc = results_new("ptxas-resources", "ptxas-json", argc, argv);
    cJSON *gates = cJSON_AddObjectToObject(doc, "gates");
    cJSON_AddNumberToObject(gates, "max_registers", PTXAS_GATES.max_registers);
    cJSON_AddNumberToObject(gates, "max_registers_d128", PTXAS_MAX_REGISTERS_D128);
    cJSON_AddNumberToObject(gates, "max_spill_bytes", (double)PTXAS_GATES.max_spill_bytes);
    cJSON_AddNumberToObject(gates, "max_local_bytes", (double)PTXAS_GATES.max_local_bytes);
    cJSON_AddNumberToObject(gates, "max_static_smem_bytes", (double)PTXAS_GATES.max_static_smem);
    cJSON *arr = cJSON_AddArrayToObject(doc, "kernels");
    int all_pass = 1;
    for (int i = 0; i < n; ++i) {
        kernel_id_t id;
        if (identify(ks[i].kernel, &id) != 0) {
            fprintf(stderr,
                    "ptxas-json: %s: kernel '%s' is no kernel of the kernel table (kernels/variants.def; a "
                    "stale build?)\n",
                    log_path, ks[i].kernel);
            cJSON_Delete(doc);
            return 2;
        }
        /* Occupancy of the kernel's own block and shared memory: its static shared memory (ptxas)
         * plus the dynamic shared memory its launcher asks for (geometry). */
        const sdpa_geometry_t *geo = id.geometry;
        const long smem = (ks[i].smem < 0 ? 0 : ks[i].smem) + (geo->dynamic_smem ? geo->smem_bytes : 0);
        occupancy_t occ;
        const int occ_ok =
            occupancy_compute(ks[i].arch, 32 * geo->warps, ks[i].registers, smem, ks[i].barriers, &occ) == 0;
        const ptxas_gates_t gates_i = gates_for(geo);
        const ptxas_gate_result_t g = ptxas_gate(&ks[i], &gates_i);
        all_pass &= g.pass && occ_ok;
        cJSON_AddItemToArray(arr, kernel_json(&ks[i], &id, &occ, occ_ok, g));
    }
    if (add_published(doc, pub_path) != 0) {
        cJSON_Delete(doc);
        return 2;
    }
    if (print) print_table(arr, cJSON_GetObjectItem(doc, "published"));
    if (results_write(doc, out_path, err, sizeof err) != 0) {
        fprintf(stderr, "ptxas-json: %s\n", err);
        cJSON_Delete(doc);
        return 2;
    }
    cJSON_Delete(doc);
    return all_pass ? 0 : 1;
}
