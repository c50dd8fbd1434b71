/* sdpa-report ncu-json (ncu_csv.h): Nsight Compute's --csv export of a --metrics run, turned into
 * profile.json, so that profiles are data (never screenshots) and the bundle needs no Python.
 *
 *   sdpa-report ncu-json --list-metrics
 *   sdpa-report ncu-json CSV OUT.json [--tool TEXT] [--shape NAME] [--variant ID]... [--unavailable METRIC]...
 *                        [--rejected METRIC]...
 *   sdpa-report ncu-json --skipped REASON OUT.json [--tool TEXT] [--shape NAME] [--variant ID]...
 *   sdpa-report ncu-json --tool-unavailable REASON OUT.json [--tool TEXT] [--shape NAME] [--variant ID]...
 * --skipped: the profile was not attempted (no GPU, ncu not installed, no counter permission);
 * --tool-unavailable: ncu ran but produced no CSV (REASON: its first error line).
 * --unavailable: a metric ncu --query-metrics does not offer (never requested); --rejected: one ncu
 * refused by name ("Failed to find metric"; gpu-checks.sh runs ncu again without it).
 *
 * The CSV is what `ncu --csv --metrics ...` prints: "==PROF==" lines and the application's own
 * output may come first, then a header of quoted column names ("ID","Process ID",...,"Kernel
 * Name",...,"Metric Name","Metric Unit","Metric Value") and one row per (launch, metric). Values
 * carry thousands separators ("1,048,576") unless --print-units base and a locale without them
 * were used; "n/a" (a metric the device lacks) becomes null. Columns are found by name, so the
 * optional ones (Block Size, Device, CC, ...) of other ncu versions do not matter. A row whose
 * field count differs from the header's, an unterminated quote or a value that is not a number
 * stops the parse with exit 2 and the line number: a profile is never half-read. */
#include "ncu_csv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "issue_slots.h"
#include "json_file.h"

typedef struct {
    const char *name, *label, *unit, *hypothesis;
} ncu_metric_t;

/* The fixed set (names as the Nsight Compute metrics reference spells them; the campaign drops
 * those `ncu --query-metrics` does not offer on the device and passes them as --unavailable). */
static const ncu_metric_t METRICS[] = {
    {NCU_DRAM_READ, "DRAM bytes read", "byte",
     "the fp8 inputs stream from DRAM about once (3 B H S D bytes): the byte floor of the roofline"},
    {"dram__bytes_write.sum", "DRAM bytes written", "byte",
     "only the fp16 output is written (2 B H S D bytes)"},
    {NCU_L2_BYTES, "L2 bytes (all requests)", "byte",
     "every query block re-reads K and V: L2 traffic grows as S/32 times the K/V bytes, served by L2 "
     "rather than DRAM"},
    {"sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active", "tensor pipe active", "%",
     "WMMA P.V (stage2) and mma.sync (stage3b on) move work to the tensor pipe; a low share means the "
     "kernel is bound by memory, softmax or barriers"},
    {"sm__warps_active.avg.pct_of_peak_sustained_active", "achieved occupancy", "%",
     "the static occupancy model (ptxas.json) predicts the resident warps; a gap is a tail or imbalance"},
    {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "shared-memory bank conflicts (loads)", "",
     "WMMA fragment loads conflict on unpadded rows (the original's Stage-3A); padded rows (stage3a-swz) "
     "should remove most of them"},
    {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "shared-memory bank conflicts (stores)", "",
     "score and P stores into the shared score buffer (stages 0-3a) conflict; registers (stage3b) avoid "
     "them"},
    {"smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio", "stall: barrier", "",
     "the fused softmax's extra barriers (3a) and the named barriers of warp specialisation (stage5)"},
    {"smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio",
     "stall: long scoreboard (global memory)", "",
     "cp.async staging (stage1) and the 3-slot ring (stage4) hide global-load latency: these stalls fall"},
    {"smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio",
     "stall: short scoreboard (shared memory, MUFU)", "",
     "round trips of scores and P through shared memory (stages 0-3a) against registers (stage3b on)"},
    {"smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio", "stall: MIO throttle", "",
     "pressure on the shared-memory instruction queue"},
    {"smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio",
     "stall: math pipe throttle", "", "a saturated math pipe: the kernel is compute bound"},
    {"sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active", "tensor pipe active (all tensor ops)",
     "%",
     "stage6's e4m3 mma.sync (m16n8k32) is not an HMMA: its tensor work shows here, not in the HMMA pipe's "
     "share"},
    {"sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active", "XU (MUFU) pipe busy", "%",
     "the exponentials' unit: stage 7g (a polynomial exp2 on the FMA pipe) is built only if stage 7f "
     "keeps it at least 85 % busy at its gate shape (profile-gate.json; paper/methods.md#prereg-stage7g)"},
    {ISSUE_METRIC, "issue slots busy", "%",
     "the static issue-slot model (paper/methods.md#prereg-stage7g-slots): stage 7f's softmax issues many "
     "instructions per exponential, so its issue slots, not the XU pipe, should be the busy resource"},
    {"sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum",
     "shared-memory bank conflicts (ldmatrix)", "",
     "fragment loads with ldmatrix from padded rows should not conflict; a count here is a layout to fix"},
    {"launch__occupancy_limit_registers", "CTAs per SM allowed by registers", "block",
     "the static occupancy model (ptxas.json) names the limiter; ncu's launch limits say which one the "
     "device applied"},
    {"launch__occupancy_limit_shared_mem", "CTAs per SM allowed by shared memory", "block",
     "stage 1's larger static shared memory lowers this limit on sm_89 (the original had 3 CTAs per SM)"},
    {"launch__occupancy_limit_warps", "CTAs per SM allowed by warps", "block",
     "four warps per CTA: the warp limit is never the binding one"},
    {"launch__occupancy_limit_blocks", "CTAs per SM allowed by the block limit", "block",
     "the per-SM block limit (24 on sm_89, 32 on sm_90) binds only for very small CTAs"},
    {NCU_SM_BUSY, "SMs busy (mean)", "%",
     "a launch's tail leaves SMs idle while its last CTAs run: with the causal mask, stage 7m's "
     "longest-first order of the CTAs should raise the mean toward the busiest SM's share"},
    {NCU_SM_BUSY_MAX, "busiest SM busy", "%",
     "the busiest SM's share of the elapsed cycles: the mean's ceiling when the CTAs are spread evenly"},
    {"gpu__time_duration.sum", "duration under the profiler", "nsecond",
     "context for the counters only: ncu serialises and replays launches, so this is not a timing result"},
};
#define N_METRICS (sizeof METRICS / sizeof METRICS[0])

/* Scaled units ncu prints without --print-units base, and their factor to the base unit. */
static const struct {
    const char *unit, *base;
    double factor;
} UNITS[] = {
    {"Kbyte", "byte", 1e3},     {"Mbyte", "byte", 1e6},      {"Gbyte", "byte", 1e9},
    {"Tbyte", "byte", 1e12},    {"usecond", "nsecond", 1e3}, {"msecond", "nsecond", 1e6},
    {"second", "nsecond", 1e9},
};

typedef struct {
    char *name;               /* kernel name up to '(' */
    char *first_id, *last_id; /* the launch whose values are kept; the latest launch seen */
    int launches;
    bool seen[N_METRICS];
    double value[N_METRICS];
    char unit[N_METRICS][32];
} ncu_kernel_t;

typedef struct {
    ncu_kernel_t *k;
    size_t n, cap;
    bool metric_seen[N_METRICS];
    char unit[N_METRICS][32];
} ncu_table_t;

static int usage(const char *msg) {
    fprintf(stderr,
            "sdpa-report ncu-json: %s\n"
            "usage: sdpa-report ncu-json --list-metrics\n"
            "       sdpa-report ncu-json CSV OUT.json [--tool TEXT] [--shape NAME] [--variant ID]... "
            "[--unavailable METRIC]... [--rejected METRIC]...\n"
            "       sdpa-report ncu-json --skipped|--tool-unavailable REASON OUT.json [--tool TEXT] [--shape "
            "NAME] [--variant ID]...\n",
            msg);
    return 2;
}

/* Splits one CSV line in place into at most max fields (quotes removed, "" unescaped). Returns the
 * field count, or -1 for an unterminated quote or text after a closing quote. */
static int csv_split(char *s, char **f, int max) {
    int n = 0;
    for (;;) {
        if (n == max) return -1;
        if (*s == '"') {
            char *w = ++s;
            f[n++] = w;
            for (;;) {
                if (*s == '\0') return -1;
                if (*s == '"' && s[1] == '"') {
                    *w++ = '"';
                    s += 2;
                } else if (*s == '"') {
                    s++;
                    break;
                } else
                    *w++ = *s++;
            }
            if (*s != ',' && *s != '\0') return -1;
            const char sep = *s;
            *w = '\0';
            if (sep == '\0') return n;
            s++;
        } else {
            f[n++] = s;
            char *c = strchr(s, ',');
            if (!c) return n;
            *c = '\0';
            s = c + 1;
        }
    }
}

/* "1,234.5" -> 1234.5; "n/a" or "" -> NaN. Returns -1 when the text is not a number. */
static int parse_value(const char *text, double *out) {
    char buf[128];
    size_t j = 0;
    if (!strcmp(text, "") || !strcmp(text, "n/a") || !strcmp(text, "N/A")) {
        *out = NAN;
        return 0;
    }
    for (const char *p = text; *p; p++) {
        if (*p == ',') continue; /* thousands separators */
        if (j + 1 >= sizeof buf) return -1;
        buf[j++] = *p;
    }
    buf[j] = '\0';
    char *end;
    errno = 0;
    double v = strtod(buf, &end);
    if (end == buf || *end != '\0' || errno == ERANGE) return -1;
    *out = v;
    return 0;
}

static int metric_index(const char *name) {
    for (size_t i = 0; i < N_METRICS; i++)
        if (!strcmp(METRICS[i].name, name)) return (int)i;
    return -1;
}

static ncu_kernel_t *kernel_get(ncu_table_t *t, const char *name, size_t name_len) {
    for (size_t i = 0; i < t->n; i++)
        if (strlen(t->k[i].name) == name_len && !strncmp(t->k[i].name, name, name_len)) return &t->k[i];
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 16;
        ncu_kernel_t *k = realloc(t->k, cap * sizeof *k);
        if (!k) return NULL;
        t->k = k, t->cap = cap;
    }
    ncu_kernel_t *k = &t->k[t->n];
    memset(k, 0, sizeof *k);
    k->name = strndup(name, name_len);
    if (!k->name) return NULL;
    for (size_t m = 0; m < N_METRICS; m++) k->value[m] = NAN;
    t->n++;
    return k;
}

static void table_free(ncu_table_t *t) {
    for (size_t i = 0; i < t->n; i++) free(t->k[i].name), free(t->k[i].first_id), free(t->k[i].last_id);
    free(t->k);
}

#define MAX_COLS 64
enum { COL_ID, COL_KERNEL, COL_METRIC, COL_UNIT, COL_VALUE, N_COLS };
static const char *const COL_NAMES[N_COLS] = {"ID", "Kernel Name", "Metric Name", "Metric Unit",
                                              "Metric Value"};

/* One data row: the first launch (ID) of each sdpa_ kernel gives its values; later launches only
 * count. A metric reported in different units by different rows is normalised to the base unit. */
static int add_row(ncu_table_t *t, char **f, const int *col, const char *csv, size_t line) {
    const char *kname = f[col[COL_KERNEL]];
    if (strncmp(kname, "sdpa_", 5) != 0) return 0; /* the L2 flush, the blocking kernel */
    const int m = metric_index(f[col[COL_METRIC]]);
    double v;
    if (parse_value(f[col[COL_VALUE]], &v) != 0) {
        fprintf(stderr, "sdpa-report ncu-json: %s:%zu: metric value '%s' is not a number\n", csv, line,
                f[col[COL_VALUE]]);
        return 2;
    }
    ncu_kernel_t *k = kernel_get(t, kname, strcspn(kname, "("));
    if (!k) return 1;
    /* Rows of one launch are consecutive: a new ID is a new launch; the first one's values count. */
    const char *id = f[col[COL_ID]];
    if (!k->last_id || strcmp(k->last_id, id) != 0) {
        free(k->last_id);
        k->last_id = strdup(id);
        if (!k->last_id) return 1;
        k->launches++;
    }
    if (!k->first_id) {
        k->first_id = strdup(id);
        if (!k->first_id) return 1;
    }
    if (strcmp(k->first_id, id) != 0) return 0;
    if (m < 0) return 0; /* a metric outside the set (ncu adds none with --metrics; tolerated) */
    const char *unit = f[col[COL_UNIT]];
    for (size_t u = 0; u < sizeof UNITS / sizeof UNITS[0]; u++)
        if (!strcmp(unit, UNITS[u].unit)) {
            v *= UNITS[u].factor;
            unit = UNITS[u].base;
            break;
        }
    k->seen[m] = true;
    k->value[m] = v;
    snprintf(k->unit[m], sizeof k->unit[m], "%s", unit);
    if (!t->metric_seen[m]) snprintf(t->unit[m], sizeof t->unit[m], "%s", unit);
    t->metric_seen[m] = true;
    return 0;
}

static int parse_csv(const char *csv, ncu_table_t *t) {
    size_t len;
    char *text = file_read_all(csv, &len);
    if (!text) {
        fprintf(stderr, "sdpa-report ncu-json: %s: cannot read: %s\n", csv, strerror(errno));
        return 1;
    }
    int col[N_COLS], ncols = 0, rc = 0;
    size_t line = 0;
    char *f[MAX_COLS];
    for (char *s = text, *next; rc == 0 && s && *s; s = next) {
        line++;
        next = strchr(s, '\n');
        if (next) *next++ = '\0';
        size_t n = strlen(s);
        if (n && s[n - 1] == '\r') s[--n] = '\0';
        if (n == 0 || !strncmp(s, "==", 2)) continue; /* blank, ==PROF==, ==WARNING== */
        if (ncols == 0) {
            /* Before the header: the application's own output. */
            if (strncmp(s, "\"ID\",", 5) != 0) continue;
            ncols = csv_split(s, f, MAX_COLS);
            for (int c = 0; c < N_COLS; c++) {
                col[c] = -1;
                for (int i = 0; i < ncols; i++)
                    if (!strcmp(f[i], COL_NAMES[c])) col[c] = i;
                if (col[c] < 0) {
                    fprintf(stderr, "sdpa-report ncu-json: %s:%zu: the header has no \"%s\" column\n", csv,
                            line, COL_NAMES[c]);
                    rc = 2;
                    break;
                }
            }
            continue;
        }
        int got = csv_split(s, f, MAX_COLS);
        if (got != ncols) {
            if (got < 0)
                fprintf(stderr, "sdpa-report ncu-json: %s:%zu: malformed CSV (unbalanced quotes)\n", csv,
                        line);
            else
                fprintf(stderr, "sdpa-report ncu-json: %s:%zu: malformed CSV: %d fields, the header has %d\n",
                        csv, line, got, ncols);
            rc = 2;
            break;
        }
        rc = add_row(t, f, col, csv, line);
    }
    if (rc == 0 && ncols == 0) {
        fprintf(
            stderr,
            "sdpa-report ncu-json: %s: no header line (\"ID\",...,\"Metric Value\"): not ncu --csv output\n",
            csv);
        rc = 2;
    }
    free(text);
    return rc;
}

/* sdpa_<variant with '-' as '_'>_<codec tag>, the kernel names of kernels/stages.cu. */
static ncu_kernel_t *kernel_of_variant(ncu_table_t *t, const char *variant) {
    char want[256];
    snprintf(want, sizeof want, "sdpa_%s_", variant);
    for (char *p = want; *p; p++)
        if (*p == '-') *p = '_';
    for (size_t i = 0; i < t->n; i++) {
        const char *k = t->k[i].name;
        if (!strncmp(k, want, strlen(want)) &&
            (!strcmp(k + strlen(want), "e4m3") || !strcmp(k + strlen(want), "seedlin")))
            return &t->k[i];
    }
    return NULL;
}

/* The variant id of a kernel name (no --variant given): sdpa_stage3a_swz_e4m3 -> stage3a-swz. */
static void variant_of_kernel(const char *kernel, char *out, size_t outlen) {
    snprintf(out, outlen, "%s", kernel + 5);
    char *tag = strrchr(out, '_');
    if (tag && (!strcmp(tag, "_e4m3") || !strcmp(tag, "_seedlin"))) *tag = '\0';
    for (char *p = out; *p; p++)
        if (*p == '_') *p = '-';
}

typedef struct {
    const char *csv, *out, *skipped, *tool, *shape;
    const char
        *status; /* of a profile with no values: "skipped" (not attempted) or "unavailable" (ncu failed) */
    const char *variants[64], *unavailable[N_METRICS], *rejected[N_METRICS];
    int n_variants, n_unavailable, n_rejected;
} ncu_args_t;

static bool listed(const char *const *list, int n, const char *s) {
    for (int i = 0; i < n; i++)
        if (!strcmp(list[i], s)) return true;
    return false;
}

static cJSON *variant_entry(const char *variant, const ncu_kernel_t *k, const ncu_table_t *t,
                            const ncu_args_t *a, const bool *avail) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "variant", variant);
    if (a->skipped) {
        cJSON_AddNullToObject(o, "kernel");
        cJSON_AddStringToObject(o, "status", a->status);
        cJSON_AddStringToObject(o, "reason", a->skipped);
        cJSON_AddNullToObject(o, "launches");
        cJSON_AddNullToObject(o, "values");
        return o;
    }
    if (!k) {
        cJSON_AddNullToObject(o, "kernel");
        cJSON_AddStringToObject(o, "status", "failed");
        cJSON_AddStringToObject(o, "reason", "no launch of its kernel in ncu's CSV (see logs/profiles.log)");
        cJSON_AddNullToObject(o, "launches");
        cJSON_AddNullToObject(o, "values");
        return o;
    }
    cJSON_AddStringToObject(o, "kernel", k->name);
    cJSON_AddStringToObject(o, "status", "ok");
    cJSON_AddNullToObject(o, "reason");
    cJSON_AddNumberToObject(o, "launches", k->launches);
    cJSON *v = cJSON_AddObjectToObject(o, "values");
    for (size_t m = 0; m < N_METRICS; m++) {
        if (!avail[m]) continue;
        /* A value in another unit than the metric's (scaled units are normalised above) would be
         * mislabelled: null instead. */
        const bool same_unit = !strcmp(k->unit[m], t->unit[m]);
        json_add_num(v, METRICS[m].name, k->seen[m] && same_unit ? k->value[m] : NAN);
    }
    return o;
}

static int write_profile(const ncu_args_t *a, ncu_table_t *t, int argc, char **argv) {
    cJSON *doc = results_new("profile", "sdpa-report", argc, argv);
    if (!doc) return 1;
    cJSON_AddStringToObject(doc, "shape", a->shape);
    cJSON_AddStringToObject(doc, "tool", a->tool);
    if (a->skipped)
        cJSON_AddStringToObject(doc, "status", a->status);
    else
        cJSON_AddStringToObject(doc, "status", "ok");
    if (a->skipped)
        cJSON_AddStringToObject(doc, "reason", a->skipped);
    else
        cJSON_AddNullToObject(doc, "reason");
    bool avail[N_METRICS];
    cJSON *ms = cJSON_AddArrayToObject(doc, "metrics");
    for (size_t m = 0; m < N_METRICS; m++) {
        const char *why = NULL;
        if (a->skipped)
            why = a->skipped;
        else if (listed(a->unavailable, a->n_unavailable, METRICS[m].name))
            why = "not offered on this device (ncu --query-metrics)";
        else if (listed(a->rejected, a->n_rejected, METRICS[m].name))
            why = "rejected by ncu (\"Failed to find metric\"), left out of its next run";
        else if (!t->metric_seen[m])
            why = "not in ncu's output";
        avail[m] = why == NULL;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", METRICS[m].name);
        cJSON_AddStringToObject(o, "label", METRICS[m].label);
        cJSON_AddStringToObject(o, "unit", t->metric_seen[m] ? t->unit[m] : METRICS[m].unit);
        cJSON_AddStringToObject(o, "hypothesis", METRICS[m].hypothesis);
        cJSON_AddBoolToObject(o, "available", avail[m]);
        if (why)
            cJSON_AddStringToObject(o, "reason", why);
        else
            cJSON_AddNullToObject(o, "reason");
        cJSON_AddItemToArray(ms, o);
    }
    cJSON *vs = cJSON_AddArrayToObject(doc, "variants");
    char id[256];
    if (a->n_variants > 0)
        for (int i = 0; i < a->n_variants; i++)
            cJSON_AddItemToArray(vs, variant_entry(a->variants[i],
                                                   a->skipped ? NULL : kernel_of_variant(t, a->variants[i]),
                                                   t, a, avail));
    else
        for (size_t i = 0; i < t->n; i++) {
            variant_of_kernel(t->k[i].name, id, sizeof id);
            cJSON_AddItemToArray(vs, variant_entry(id, &t->k[i], t, a, avail));
        }
    char err[2048];
    int rc = results_write(doc, a->out, err, sizeof err);
    if (rc != 0) fprintf(stderr, "sdpa-report ncu-json: %s\n", err);
    cJSON_Delete(doc);
    return rc == 0 ? 0 : 1;
}

int ncu_json_main(int argc, char **argv) {
    if (argc == 3 && !strcmp(argv[2], "--list-metrics")) {
        for (size_t m = 0; m < N_METRICS; m++) printf("%s\n", METRICS[m].name);
        return 0;
    }
    ncu_args_t a = {.tool = "ncu", .shape = "mission"};
    int pos = 0;
    for (int i = 2; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (o[0] != '-' || !strcmp(o, "-")) {
            if (pos == 0 && !a.skipped)
                a.csv = o;
            else if (!a.out)
                a.out = o;
            else
                return usage("too many arguments");
            pos++;
            continue;
        }
        if (!v) return usage("an option lacks its value");
        if (!strcmp(o, "--skipped") || !strcmp(o, "--tool-unavailable")) {
            if (a.skipped) return usage("--skipped and --tool-unavailable: give one");
            a.skipped = v;
            a.status = o[2] == 's' ? "skipped" : "unavailable";
        } else if (!strcmp(o, "--tool"))
            a.tool = v;
        else if (!strcmp(o, "--shape"))
            a.shape = v;
        else if (!strcmp(o, "--variant")) {
            if (a.n_variants == (int)(sizeof a.variants / sizeof a.variants[0]))
                return usage("too many --variant");
            a.variants[a.n_variants++] = v;
        } else if (!strcmp(o, "--unavailable") || !strcmp(o, "--rejected")) {
            const bool rej = o[2] == 'r';
            const char **list = rej ? a.rejected : a.unavailable;
            int *n = rej ? &a.n_rejected : &a.n_unavailable;
            if (*n == N_METRICS) return usage(rej ? "too many --rejected" : "too many --unavailable");
            if (metric_index(v) < 0) {
                fprintf(stderr, "sdpa-report ncu-json: %s %s: not a metric of the set (--list-metrics)\n", o,
                        v);
                return 2;
            }
            list[(*n)++] = v;
        } else
            return usage("unknown option");
        i++;
    }
    if (!a.out || (!a.csv && !a.skipped))
        return usage("give CSV and OUT.json (or --skipped|--tool-unavailable REASON OUT.json)");
    if (a.skipped && a.csv) return usage("--skipped and --tool-unavailable take no CSV");
    ncu_table_t t = {0};
    int rc = a.skipped ? 0 : parse_csv(a.csv, &t);
    if (rc == 0) rc = write_profile(&a, &t, argc, argv);
    table_free(&t);
    return rc;
}
