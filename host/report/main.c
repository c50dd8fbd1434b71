/* sdpa-report: turns the JSON of experiment runs into everything a report shows, so that no
 * number in a report is typed by hand (architecture: kernels -> harness -> JSON -> sdpa-report ->
 * TSV, Markdown fragments, YAML -> gnuplot, pandoc).
 *
 *   sdpa-report experiment --run DIR --experiment NAME --title TEXT --baseline ID --candidate ID
 *                          --gate-speedup X --published FILE [--make-target T]
 *                          [--static-budget REGISTERS,SPILL_BYTES,LOCAL_BYTES,SMEM_BYTES]
 *       reads DIR/run.json (+ run-timing.json, ptxas.json when present) and writes into DIR:
 *       tables/NAME.md, NAME.tsv, plot-vars.gp, meta.yaml and summary.json (kind experiment-summary).
 *   sdpa-report paper --published FILE --out DIR [--stage NAME RUNDIR|- FIGDIR ...]
 *       the whole study: history and published-vs-reproduced tables, TSV and per-stage sections.
 *   sdpa-report get FILE FIELD
 *       prints one scalar field of a result file (the pipeline reads meta.backend with it).
 *   sdpa-report manifest --run DIR
 *       writes DIR/manifest.json (kind run-manifest), last, once the run's files are all there.
 *   sdpa-report check-run DIR
 *       exit 0 when DIR is a complete run (its manifest matches its files), else 1 and why.
 *   sdpa-report latest-run EXPDIR
 *       prints the latest complete run under EXPDIR (data/<experiment>), or nothing; names each
 *       run it passes over on stderr (manifest_latest_run: make paper's pick).
 *   sdpa-report experiment ... --definition FILE
 *       the title, baseline, candidate, gate, static budget and make target from a run's copy of
 *       experiment.mk, parsed as data (params.h), each where it stands among the options: later
 *       options override it, earlier ones are overridden.
 *   sdpa-report ingest TARBALL DATA_DIR ...   (ingest.h: make ingest)
 *   sdpa-report params check|experiment|resume ...   (params.h: a run's parameters as data)
 *   sdpa-report sweep-summary --out FILE ...  (sweep_summary.h: the Slurm collector's summary)
 *   sdpa-report install SRC|- DST
 *       gives what gnuplot, pandoc or a script wrote (SRC, removed after; - for stdin) its final
 *       name DST with the atomic writer, after checking that a .png or .pdf is whole: those tools
 *       leave truncated files when a write fails, and some still exit 0.
 *   sdpa-report campaign-json OUT.json ...   (campaign_json.c: usage there)
 *   sdpa-report sanitizers-json OUT.json ... (sanitizers_json.c: usage there)
 *       the campaign's campaign.json and sanitizers.json, from what tools/campaign/ recorded.
 *   sdpa-report dump-diff A B [--large F]   (dump_diff.h)
 *       where two dumps of one problem differ (a GPU's failed output against the emulator's).
 *   sdpa-report schema-version
 *       prints the schema version every file is written with (the bundle ships it for the peers).
 *
 * Exit status: 0; 1 when an input is missing or corrupted (the message names the file and the
 * field); 2 on a usage error. The exit status does not depend on the verdict. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign_json.h"
#include "dump_diff.h"
#include "figures.h"
#include "gates.h"
#include "ingest.h"
#include "manifest.h"
#include "meta_yaml.h"
#include "ncu_csv.h"
#include "paper.h"
#include "params.h"
#include "published.h"
#include "correctness_tables.h"
#include "perf_tables.h"
#include "resource_tables.h"
#include "sanitizers_json.h"
#include "run.h"
#include "sweep_summary.h"
#include "tables.h"
#include "json_file.h"
#include "fileio.h"

static int usage(const char *msg) {
    fprintf(
        stderr,
        "sdpa-report: %s\n"
        "usage: sdpa-report experiment --run DIR --experiment NAME --title TEXT --baseline ID\n"
        "                              --candidate ID --gate-speedup X --published FILE [--make-target T]\n"
        "                              [--static-budget REGISTERS,SPILL_BYTES,LOCAL_BYTES,SMEM_BYTES]\n"
        "                              [--definition RUNDIR/experiment.mk]\n"
        "       sdpa-report paper --published FILE --out DIR [--stage NAME RUNDIR|- FIGDIR ...]\n"
        "       sdpa-report get FILE FIELD\n"
        "       sdpa-report manifest --run DIR\n"
        "       sdpa-report check-run DIR\n"
        "       sdpa-report latest-run EXPDIR\n"
        "       sdpa-report install SRC|- DST\n"
        "       sdpa-report campaign-json OUT.json ...   (campaign.json)\n"
        "       sdpa-report sanitizers-json OUT.json ... (sanitizers.json)\n"
        "       sdpa-report schema-version\n"
        "       sdpa-report ingest TARBALL DATA_DIR [--allow-emulated] ...\n"
        "       sdpa-report params check KEY=VALUE... | experiment FILE | resume RUNDIR\n"
        "       sdpa-report sweep-summary --out FILE ...\n",
        msg);
    return 2;
}

static const char *base_name(const char *path) {
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/') n--;
    static char buf[REPORT_PATH_MAX];
    snprintf(buf, sizeof buf, "%.*s", (int)n, path);
    const char *s = strrchr(buf, '/');
    return s ? s + 1 : buf;
}

/* Everything `sdpa-report experiment` writes into the run directory, in order: one writer per
 * output (NVBench's printer multiplexing), all reading the same loaded run and gates. */
typedef struct {
    const char *output;
    int (*write)(report_t *r, const gates_t *g);
} report_writer_t;
static const report_writer_t WRITERS[] = {
    {"summary.json", summary_write},
    {"meta.yaml", meta_yaml},
    {"tables/incomplete.md", table_incomplete},
    {"tables/banner.md", table_banner},
    {"tables/gates.md", table_gates},
    {"tables/verdict.md", table_verdict},
    {"tables/environment.md", table_environment},
    {"tables/reproduce.md", table_reproduce},
    {"tables/prereg.md", table_prereg},
    {"tables/correctness.md", table_correctness},
    {"tables/correctness-summary.md", table_correctness_summary},
    {"tables/cross.md", table_cross},
    {"tables/performance.md", table_performance},
    {"tables/ptxas.md", table_ptxas},
    {"tables/occupancy.md", table_occupancy},
    {"tables/published.md", table_published},
    {"figure inputs (*.tsv, plot-vars.gp, tables/fig-*.md)", figs_write},
};

/* --static-budget's value into r. */
static int static_budget(report_t *r, const char *v) {
    if (sscanf(v, "%lf,%lf,%lf,%lf", &r->budget[0], &r->budget[1], &r->budget[2], &r->budget[3]) != 4)
        return usage("--static-budget: REGISTERS,SPILL_BYTES,LOCAL_BYTES,SMEM_BYTES");
    r->have_budget = true;
    return 0;
}

/* --definition FILE: what the run's experiment.mk sets, read as data (never included by make). */
static int definition(report_t *r, const char *file, exp_def_t *d) {
    char err[1024];
    if (params_load_experiment(file, d, err, sizeof err) != 0) {
        fprintf(stderr, "sdpa-report: %s\n", err);
        return 1;
    }
    r->title = d->value[P_TITLE], r->baseline = d->value[P_BASELINE], r->candidate = d->value[P_CANDIDATE];
    r->make_target = d->value[P_MAKE_TARGET];
    r->gate_speedup = strtod(d->value[P_GATE_SPEEDUP], NULL);
    r->gate_tflops = d->set[P_GATE_TFLOPS] ? strtod(d->value[P_GATE_TFLOPS], NULL) : 0.0;
    return d->set[P_STATIC_BUDGET] ? static_budget(r, d->value[P_STATIC_BUDGET]) : 0;
}

static int cmd_experiment(int argc, char **argv) {
    report_t r = {.gate_speedup = -1, .make_target = "stage", .argc = argc, .argv = argv};
    const char *published = NULL;
    static exp_def_t def;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) return usage("an option lacks its value");
        if (!strcmp(a, "--run"))
            r.dir = v;
        else if (!strcmp(a, "--experiment"))
            r.experiment = v;
        else if (!strcmp(a, "--title"))
            r.title = v;
        else if (!strcmp(a, "--baseline"))
            r.baseline = v;
        else if (!strcmp(a, "--candidate"))
            r.candidate = v;
        else if (!strcmp(a, "--gate-speedup"))
            r.gate_speedup = strtod(v, NULL);
        else if (!strcmp(a, "--published"))
            published = v;
        else if (!strcmp(a, "--make-target"))
            r.make_target = v;
        else if (!strcmp(a, "--static-budget")) {
            if (static_budget(&r, v) != 0) return 2;
        } else if (!strcmp(a, "--definition")) {
            int rc = definition(&r, v, &def);
            if (rc != 0) return rc;
        } else
            return usage("unknown option");
        i++;
    }
    if (!r.dir || !r.experiment || !r.title || !r.baseline || !r.candidate || !published ||
        !(r.gate_speedup > 0))
        return usage(
            "experiment: --run, --experiment, --title, --baseline, --candidate, --gate-speedup (> 0) "
            "and --published are required");
    r.run_id = base_name(r.dir);
    gates_t g;
    int rc = report_load(&r, published);
    if (rc == 0) rc = gates_evaluate(&r, &g);
    const char *writing = NULL;
    for (size_t i = 0; rc == 0 && i < sizeof WRITERS / sizeof WRITERS[0]; i++) {
        writing = WRITERS[i].output;
        rc = WRITERS[i].write(&r, &g);
    }
    if (rc != 0)
        fprintf(stderr, "sdpa-report: %s%s%s%s\n", r.err, writing ? " (while writing " : "",
                writing ? writing : "", writing ? ")" : "");
    else
        printf("sdpa-report: %s/%s: verdict %s\n", r.experiment, r.run_id,
               verdict_kind_name(gates_verdict(&g)));
    report_free(&r);
    return rc == 0 ? 0 : 1;
}

static int cmd_get(int argc, char **argv) {
    if (argc != 4) return usage("get: FILE FIELD");
    char err[1024];
    cJSON *doc = results_load(argv[2], NULL, err, sizeof err);
    const cJSON *n = doc ? json_get(doc, argv[3], argv[2], err, sizeof err) : NULL;
    int rc = 1;
    if (n && cJSON_IsString(n))
        printf("%s\n", n->valuestring), rc = 0;
    else if (n && cJSON_IsNumber(n))
        printf("%.17g\n", n->valuedouble), rc = 0;
    else if (n && cJSON_IsBool(n))
        printf("%s\n", cJSON_IsTrue(n) ? "true" : "false"), rc = 0;
    else if (n && cJSON_IsNull(n))
        printf("null\n"), rc = 0;
    else if (n)
        snprintf(err, sizeof err, "%s: field '%s' is not a scalar", argv[2], argv[3]);
    if (rc) fprintf(stderr, "sdpa-report: %s\n", err);
    cJSON_Delete(doc);
    return rc;
}

static int cmd_manifest(int argc, char **argv) {
    if (argc != 4 || strcmp(argv[2], "--run") != 0) return usage("manifest: --run DIR");
    char err[2048];
    if (manifest_write(argv[3], argc, argv, err, sizeof err) != 0) {
        fprintf(stderr, "sdpa-report: manifest: %s\n", err);
        return 1;
    }
    return 0;
}

static int cmd_check_run(int argc, char **argv) {
    if (argc != 3) return usage("check-run: DIR");
    char why[2048];
    int rc = manifest_check(argv[2], why, sizeof why);
    if (rc != 0) fprintf(stderr, "%s: incomplete: %s\n", argv[2], why);
    return rc == 0 ? 0 : 1;
}

static int cmd_latest_run(int argc, char **argv) {
    if (argc != 3) return usage("latest-run: EXPDIR");
    char dir[REPORT_PATH_MAX];
    if (manifest_latest_run(argv[2], dir, sizeof dir, stderr)) puts(dir);
    return 0;
}

/* A file is whole when it ends as its format requires: PNG with the IEND chunk and its CRC, PDF
 * with %%EOF (and at most a line end). Other formats are taken as the tool wrote them. */
static const char *incomplete_format(const char *dst, const char *s, size_t n) {
    static const char iend[] = "IEND\xae\x42\x60\x82";
    size_t dl = strlen(dst);
    if (dl > 4 && !strcmp(dst + dl - 4, ".png") && (n < 8 || memcmp(s + n - 8, iend, 8) != 0))
        return "not a whole PNG (no IEND chunk at its end)";
    if (dl > 4 && !strcmp(dst + dl - 4, ".pdf")) {
        while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r')) n--;
        if (n < 5 || memcmp(s + n - 5, "%%EOF", 5) != 0) return "not a whole PDF (no %%EOF at its end)";
    }
    return NULL;
}

static int cmd_install(int argc, char **argv) {
    if (argc != 4) return usage("install: SRC|- DST");
    const char *src = argv[2], *dst = argv[3];
    size_t n = 0;
    char *s = strcmp(src, "-") ? file_read_all(src, &n) : file_read_stream(stdin, &n);
    char err[2048];
    const char *bad;
    int rc = 1;
    if (!s)
        fprintf(stderr, "sdpa-report: install: %s: cannot read: %s\n", src, strerror(errno));
    else if ((bad = incomplete_format(dst, s, n)))
        fprintf(stderr, "sdpa-report: install: %s: %s (a write failed?); %s left as it was\n", src, bad, dst);
    else if (file_write_replace(dst, s, n, err, sizeof err) != 0)
        fprintf(stderr, "sdpa-report: install: %s\n", err);
    else
        rc = 0;
    free(s);
    if (strcmp(src, "-")) unlink(src); /* a temporary of the caller's, whole or not */
    return rc;
}

int main(int argc, char **argv) {
    /* Interrupted (SIGINT/SIGTERM): no partial file, exit 130/143; a full disk is a write error. */
    if (file_signals_install() != 0) perror("sdpa-report: signal handlers");
    if (argc < 2) return usage("missing command");
    if (!strcmp(argv[1], "experiment")) return cmd_experiment(argc, argv);
    if (!strcmp(argv[1], "paper")) return report_paper_main(argc, argv);
    if (!strcmp(argv[1], "get")) return cmd_get(argc, argv);
    if (!strcmp(argv[1], "manifest")) return cmd_manifest(argc, argv);
    if (!strcmp(argv[1], "check-run")) return cmd_check_run(argc, argv);
    if (!strcmp(argv[1], "latest-run")) return cmd_latest_run(argc, argv);
    if (!strcmp(argv[1], "install")) return cmd_install(argc, argv);
    if (!strcmp(argv[1], "ncu-json")) return ncu_json_main(argc, argv); /* ncu_csv.c: usage there */
    if (!strcmp(argv[1], "campaign-json")) return campaign_json_main(argc, argv);
    if (!strcmp(argv[1], "sanitizers-json")) return sanitizers_json_main(argc, argv);
    if (!strcmp(argv[1], "schema-version") && argc == 2) return puts(RESULTS_SCHEMA_VERSION) < 0;
    if (!strcmp(argv[1], "ingest")) return ingest_main(argc, argv);               /* ingest.h */
    if (!strcmp(argv[1], "params")) return params_main(argc, argv);               /* params.h */
    if (!strcmp(argv[1], "sweep-summary")) return sweep_summary_main(argc, argv); /* sweep_summary.h */
    if (!strcmp(argv[1], "dump-diff")) return dump_diff_main(argc, argv);         /* dump_diff.h */
    char msg[160];
    snprintf(msg, sizeof msg, "unknown command '%.100s'", argv[1]);
    return usage(msg);
}
