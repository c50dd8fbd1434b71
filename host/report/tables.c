/* See tables.h. */
#include "tables.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "textbuf.h"
#include "bench/variants.h"

int tables_save(report_t *r, rbuf_t *b, const char *name) {
    char dir[REPORT_PATH_MAX + 16];
    snprintf(dir, sizeof dir, "%s/tables", r->dir);
    return rb_save(b, dir, name, r->err, sizeof r->err);
}

const char *fmt_us(char *dst, size_t n, double us) {
    return fmt_num(dst, n, fabs(us) >= 1e5 ? "%.0f" : "%.2f", us);
}

const char *verdict_rule(char *dst, size_t n, double eps) {
    snprintf(dst, n,
             "Verdict on the speedup ratio's 95 %% CI $[\\text{lo}, \\text{hi}]$: SAME if "
             "$1/%g \\le \\text{lo}$ and $\\text{hi} \\le 1/%g$ (the latency ratio within ±%g %% of 1), else "
             "FASTER if $\\text{lo} > 1$, SLOWER if $\\text{hi} < 1$, AMBIGUOUS if the CI contains 1.",
             1 + eps, 1 - eps, 100 * eps);
    return dst;
}

const char *fmt_pct(char *dst, size_t n, double x) {
    char v[32];
    fmt_num(v, sizeof v, x < 0.01 ? "%.2f" : "%.1f", 100 * x);
    snprintf(dst, n, "%s%s", v, isfinite(x) ? " %" : "");
    return dst;
}

const char *fmt_ci(char *dst, size_t n, const char *fmt, double lo, double hi) {
    if (!isfinite(lo) || !isfinite(hi)) {
        snprintf(dst, n, "%s", NA_MARK);
        return dst;
    }
    char a[32], b[32];
    snprintf(dst, n, "[%s, %s]", fmt_num(a, sizeof a, fmt, lo), fmt_num(b, sizeof b, fmt, hi));
    return dst;
}

/* When sdpa-bench --backend auto fell back to the emulator although it saw a GPU
 * (meta.backend_fallback of either run; older files do not record it), the banner says so on a
 * line of its own (a Markdown hard line break keeps it inside the banner's paragraph). */
static void fallback_line(const report_t *r, rbuf_t *b) {
    const rj_t *docs[2] = {&r->T, &r->R};
    for (int k = 0; k < 2; k++) {
        const cJSON *fb = jo(jo(docs[k]->root, "meta"), "backend_fallback");
        if (!cJSON_IsTrue(jo(fb, "gpu_visible"))) continue;
        const char *why = jo_str(fb, "reason") ? jo_str(fb, "reason") : "no reason recorded";
        size_t n = strlen(why);
        while (n > 0 && why[n - 1] == '.') n--; /* the sentence brings its own full stop */
        rb_printf(b, "\\\n**A GPU is visible on this machine but was not used: %.*s.**", (int)n, why);
        return;
    }
}

int table_banner(report_t *r, const gates_t *g) {
    (void)g;
    rbuf_t b = {0};
    const char *kind = report_timing_kind(r);
    char dev[256];
    report_device_label(r, dev, sizeof dev);
    if (strcmp(kind, "gpu") == 0) {
        const cJSON *d = jo(jo(r->T.root, "meta"), "device");
        const cJSON *locked = jo(d, "clocks_locked");
        const char *l2 = jo_str(jo(r->T.root, "config"), "l2");
        rb_printf(
            &b,
            "::: {.banner .gpu}\n**GPU run.** Timed on %s: one launch per sample with CUDA events, "
            "%s L2, clocks locked: %s. Performance gates are judged on the lower bound of the speedup's "
            "95 %% confidence interval.",
            dev, l2 ? l2 : NA_MARK,
            cJSON_IsTrue(locked)    ? "yes"
            : cJSON_IsFalse(locked) ? "no"
                                    : "unknown");
    } else if (strcmp(kind, "emulated") == 0) {
        rb_printf(
            &b,
            "::: {.banner .emulated}\n**EMULATED (CPU) RUN: NO GPU TIMINGS.** This run had no GPU; the "
            "kernels executed on the CPU SIMT emulator (%s). Correctness and static gates were evaluated "
            "for real. The performance gates read **NOT EVALUATED: %s**. Emulated wall-clock times appear "
            "only in tables and figures labelled \"emulated (CPU) timings, not GPU timings\".",
            dev, REASON_NO_GPU);
    } else {
        rb_printf(&b,
                  "::: {.banner .emulated}\n**NO TIMINGS.** This run has correctness results only "
                  "(backend %s, %s); the performance gates read NOT EVALUATED.",
                  rj_str(&r->R, "meta.backend"), dev);
    }
    fallback_line(r, &b);
    rb_puts(&b, "\n:::\n");
    return tables_save(r, &b, "banner.md");
}

int table_gates(report_t *r, const gates_t *g) {
    rbuf_t b = {0};
    static const md_col_t cols[] = {
        {"gate", 22, 'l'}, {"group", 10, 'l'}, {"target", 26, 'l'}, {"value", 22, 'l'}, {"status", 20, 'l'},
    };
    md_table_head(&b, cols, 5);
    for (size_t i = 0; i < g->n; i++) {
        const gate_t *x = &g->g[i];
        char status[640];
        snprintf(status, sizeof status, "**%s**%s%s", gate_status_name(x->status), x->reason[0] ? ": " : "",
                 x->reason);
        md_row(&b, 5, x->name, x->group, x->target, x->value, status);
    }
    md_table_caption(&b, "tbl:gates",
                     "Gates of this run. Only the groups correctness, cross-variant, static and "
                     "performance decide the verdict; end-to-end and legacy rows are information.");
    return tables_save(r, &b, "gates.md");
}

static void list_gates(rbuf_t *b, const gates_t *g, gate_status_t which) {
    for (size_t i = 0; i < g->n; i++) {
        const gate_t *x = &g->g[i];
        if (!x->decides || x->status != which) continue;
        rb_printf(b, "- **%s** (%s): target %s; measured %s%s%s.\n", x->name, x->group, x->target, x->value,
                  x->reason[0] ? "; " : "", x->reason);
    }
}

int table_verdict(report_t *r, const gates_t *g) {
    rbuf_t b = {0};
    verdict_kind_t v = gates_verdict(g);
    rb_printf(&b, "**Verdict: %s.** ", verdict_kind_name(v));
    if (v == V_READY) {
        rb_printf(&b, "Every deciding gate passed (Table @tbl:gates): %s may replace %s.\n", r->candidate,
                  r->baseline);
    } else if (v == V_NOT_EVALUATED) {
        rb_puts(&b, "No deciding gate failed, but these could not be evaluated, so this run can neither "
                    "accept nor reject the hypothesis:\n\n");
        list_gates(&b, g, GS_NOT_EVALUATED);
    } else {
        rb_printf(&b,
                  "At least one deciding gate failed; %s stays the reference and this run is reported as a "
                  "negative result.\n\n",
                  r->baseline);
        rb_puts(&b, "## Negative result {#sec:negative-result}\n\n"
                    "**Hypothesis.** The prediction written before the run (Section @sec:hypothesis):\n\n"
                    "::: {.include src=\"{run}/hypothesis.md\" section=\"prediction\"}\n:::\n\n"
                    "**What was measured, and why it failed.** The gates that failed:\n\n");
        list_gates(&b, g, GS_FAIL);
        bool ne = false;
        for (size_t i = 0; i < g->n; i++) ne |= g->g[i].decides && g->g[i].status == GS_NOT_EVALUATED;
        if (ne) {
            rb_puts(&b, "\nNot evaluated:\n\n");
            list_gates(&b, g, GS_NOT_EVALUATED);
        }
        rb_puts(&b, "\n**What it rules out.** As stated before the run:\n\n"
                    "::: {.include src=\"{run}/hypothesis.md\" section=\"rules-out\"}\n:::\n");
    }
    return tables_save(r, &b, "verdict.md");
}

/* Text of a scalar JSON value for a table cell. */
static const char *scalar_text(const cJSON *n, char *dst, size_t len) {
    if (!n || cJSON_IsNull(n))
        snprintf(dst, len, "%s", NA_MARK);
    else if (cJSON_IsString(n))
        snprintf(dst, len, "%s", n->valuestring);
    else if (cJSON_IsBool(n))
        snprintf(dst, len, "%s", cJSON_IsTrue(n) ? "yes" : "no");
    else if (cJSON_IsNumber(n))
        snprintf(dst, len, "%.10g", n->valuedouble);
    else if (cJSON_IsArray(n)) {
        size_t k = 0;
        const cJSON *e;
        dst[0] = '\0';
        cJSON_ArrayForEach(e, n) {
            char item[256];
            if (cJSON_IsObject(e))
                snprintf(item, sizeof item, "%s", jo_str(e, "name") ? jo_str(e, "name") : "{...}");
            else
                scalar_text(e, item, sizeof item);
            if (k < len) k += (size_t)snprintf(dst + k, len - k, "%s%s", k ? " " : "", item);
        }
    } else
        snprintf(dst, len, "{...}");
    return dst;
}

/* Walks a dotted path leniently (missing -> NULL). */
static const cJSON *lookup(const cJSON *root, const char *path) {
    char buf[128];
    snprintf(buf, sizeof buf, "%s", path);
    const cJSON *n = root;
    for (char *save = NULL, *t = strtok_r(buf, ".", &save); t && n; t = strtok_r(NULL, ".", &save))
        n = jo(n, t);
    return n;
}

static const char *blocking_text(const cJSON *n, char *dst, size_t len) {
    if (!cJSON_IsFalse(n)) return scalar_text(n, dst, len);
    snprintf(dst, len, "no (--no-blocking-kernel)"); /* the flag that turned it off */
    return dst;
}

static const char *throttle_text(const cJSON *n, char *dst, size_t len) {
    if (!cJSON_IsNumber(n)) return scalar_text(n, dst, len);
    if (n->valuedouble == 0) /* sdpa-bench's way to switch the check off */
        snprintf(dst, len, "throttle detection: disabled (--throttle-threshold 0)");
    else
        snprintf(dst, len, "%.10g x default SM clock", n->valuedouble);
    return dst;
}

static const char *mig_text(const cJSON *n, char *dst, size_t len) {
    if (!cJSON_IsObject(n)) return scalar_text(n, dst, len);
    const char *mode = jo_str(n, "mode"), *profile = jo_str(n, "profile");
    snprintf(dst, len, "%s, profile %s", mode ? mode : NA_MARK, profile ? profile : NA_MARK);
    return dst;
}

typedef struct {
    const char *label, *path;
} env_row_t;
/* Fields that read better than their scalar text; with null_text, a field recorded as null reads
 * null_text instead of leaving its row out (there, null says something). */
typedef struct {
    const char *path;
    const char *(*text)(const cJSON *n, char *dst, size_t len);
    const char *null_text;
} env_format_t;
static const env_format_t ENV_FORMATS[] = {
    {"meta.device.mig", mig_text, "no (not a MIG instance)"},
    {"meta.device.power_limit_w", scalar_text, "not available"},
    {"meta.device.sm_clock_start_mhz", scalar_text, "not measured"},
    {"meta.device.sm_clock_end_mhz", scalar_text, "not measured"},
    {"meta.device.cuda_visible_devices", scalar_text, "unset"},
    {"config.throttle_threshold", throttle_text, NULL},
    {"config.blocking_kernel", blocking_text, NULL},
    {"config.reference.rows_per_slice", scalar_text, "every row"},
};
static const env_format_t *env_format(const char *path) {
    static const env_format_t plain = {NULL, scalar_text, NULL};
    for (size_t i = 0; i < sizeof ENV_FORMATS / sizeof ENV_FORMATS[0]; i++)
        if (strcmp(ENV_FORMATS[i].path, path) == 0) return &ENV_FORMATS[i];
    return &plain;
}
static const env_row_t ENV_ROWS[] = {
    {"backend", "meta.backend"},
    {"timing", "meta.timing"},
    {"device", "meta.device.name"},
    {"compute capability", "meta.device.cc"},
    {"SMs", "meta.device.sm_count"},
    {"SM clock, default (MHz)", "meta.device.sm_clock_default_mhz"},
    {"SM clock, measured median (MHz)", "meta.device.sm_clock_measured_mhz"},
    {"clocks locked", "meta.device.clocks_locked"},
    {"L2 (bytes)", "meta.device.l2_bytes"},
    {"memory clock (MHz)", "meta.device.mem_clock_mhz"},
    {"memory bus (bits)", "meta.device.mem_bus_bits"},
    {"peak DRAM (GB/s)", "meta.device.peak_dram_gbs"},
    {"peak FP16 tensor (TFLOP/s, dense)", "meta.device.peak_fp16_tensor_tflops"},
    {"peak FP8 tensor (TFLOP/s, dense)", "meta.device.peak_fp8_tensor_tflops"},
    {"peak exp2 (10^12/s, 16 per clock per SM)", "meta.device.peak_exp2_tps"},
    {"L2 flush buffer (bytes)", "meta.device.l2_flush_bytes"},
    {"ECC", "meta.device.ecc"},
    {"driver", "meta.device.driver_version"},
    {"driver release", "meta.device.driver_release"},
    {"CUDA runtime", "meta.device.runtime_version"},
    {"device UUID", "meta.device.uuid"},
    {"PCI bus id", "meta.device.pci_bus_id"},
    {"MIG", "meta.device.mig"},
    {"power limit (W)", "meta.device.power_limit_w"},
    {"SM clock at start (MHz)", "meta.device.sm_clock_start_mhz"},
    {"SM clock at end (MHz)", "meta.device.sm_clock_end_mhz"},
    {"CUDA_VISIBLE_DEVICES", "meta.device.cuda_visible_devices"},
    {"emulator schedule", "meta.emulator.schedule"},
    {"emulator schedule seed", "meta.emulator.schedule_seed"},
    {"emulator build", "meta.emulator.build"},
    {"git commit", "meta.git_sha"},
    {"uncommitted changes", "meta.git_dirty"},
    {"C compiler", "meta.cc"},
    {"nvcc", "meta.nvcc"},
    {"C flags", "meta.cflags"},
    {"nvcc flags", "meta.nvcc_flags"},
    {"host", "meta.host.hostname"},
    {"OS", "meta.host.os"},
    {"CPU", "meta.host.cpu"},
    {"CPUs online", "meta.host.cpus"},
    {"started (UTC)", "meta.utc_time"},
    {"variants", "config.variants"},
    {"shapes", "config.shapes"},
    {"seeds", "config.seeds"},
    {"codec", "config.codec"},
    {"input distribution", "config.dist"},
    {"softmax scale", "config.softmax_scale"},
    {"L2 mode", "config.l2"},
    {"warm-up launches", "config.warmup"},
    {"minimum samples", "config.iters"},
    {"minimum time (s)", "config.min_time_s"},
    {"maximum time (s)", "config.max_time_s"},
    {"maximum samples", "config.max_samples"},
    {"throttle threshold", "config.throttle_threshold"},
    {"blocking kernel", "config.blocking_kernel"},
    {"device index", "config.device_index"},
    {"time failing variants", "config.force"},
    {"reference rows per slice (sampled above)", "config.reference.rows_per_slice"},
    {"ptxas resources embedded from", "ptxas_source"},
};

int table_environment(report_t *r, const gates_t *g) {
    (void)g;
    rbuf_t b = {0};
    bool two = r->timing != NULL;
    md_col_t cols[] = {{"field", 12, 'l'},
                       {"correctness run (run.json)", 30, 'l'},
                       {"timing run (run-timing.json)", 30, 'l'}};
    md_table_head(&b, cols, two ? 3 : 2);
    for (size_t i = 0; i < sizeof ENV_ROWS / sizeof ENV_ROWS[0]; i++) {
        const env_row_t *row = &ENV_ROWS[i];
        const cJSON *a = lookup(r->R.root, row->path), *t = two ? lookup(r->T.root, row->path) : NULL;
        /* rows of a block that does not apply to this run (device on the emulator, ...) are left out,
         * as are fields that older result files do not record */
        const env_format_t *fmt = env_format(row->path);
        bool shown_null = fmt->null_text != NULL;
        if ((!a || (cJSON_IsNull(a) && !shown_null)) && (!t || (cJSON_IsNull(t) && !shown_null))) continue;
        char va[1024], vt[1024];
        for (int k = 0; k < 2; k++) {
            const cJSON *n = k ? t : a;
            char *dst = k ? vt : va;
            if (n && cJSON_IsNull(n) && shown_null)
                snprintf(dst, sizeof va, "%s", fmt->null_text);
            else
                fmt->text(n, dst, sizeof va);
        }
        if (two)
            md_row(&b, 3, row->label, va, vt);
        else
            md_row(&b, 2, row->label, va);
    }
    md_table_caption(&b, "tbl:environment",
                     "Device, emulator, build and host, as recorded by the harness in the "
                     "meta and config blocks of each result file.");
    return tables_save(r, &b, "environment.md");
}

/* A code line of a report holds this many characters (a PDF page of 10 pt monospace, 2 cm
 * margins: 91); longer commands continue on the next line after a backslash. */
#define CMD_WIDTH 84

/* One argv word, quoted for a POSIX shell when it needs it; the run directory reads "$RUN": a path
 * whose components <experiment>/<run-id> (rundir, "data/" removed) name this run, whatever data
 * directory it was written under (a run made with DATA_DIR=/elsewhere/data: its --out would
 * otherwise be one long unbreakable word on the page). */
static void shell_word(rbuf_t *b, const char *a, const char *rundir) {
    const char *tail = strncmp(rundir, "data/", 5) == 0 ? rundir + 5 : rundir;
    const size_t tl = strlen(tail);
    for (const char *at = a; tl && (at = strstr(at, tail)) != NULL; at++)
        if ((at == a || at[-1] == '/') && (at[tl] == '/' || !at[tl])) {
            rb_printf(b, "$RUN%s", at + tl);
            return;
        }
    bool plain =
        a[0] != '\0' &&
        strspn(a, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-./,=:+@") == strlen(a);
    if (plain) {
        rb_puts(b, a);
        return;
    }
    rb_puts(b, "'");
    for (const char *c = a; *c; c++) rb_puts(b, *c == '\'' ? "'\\''" : (char[2]){*c, 0});
    rb_puts(b, "'");
}

/* One argv as a shell command (a code block line), wrapped with backslash continuations before an
 * option, an option and its value kept together: copied as it stands, it runs. */
static int command_line(rbuf_t *b, const rj_t *d, const char *rundir) {
    int n = rj_len(d, "meta.command_line");
    TRY(n);
    size_t col = 0;
    rb_puts(b, "    ");
    for (int i = 0; i < n; i++) {
        const char *a = rj_str(d, "meta.command_line.%d", i);
        if (!a) return -1;
        /* the unit: an option with its value, or one word */
        rbuf_t u = {0};
        shell_word(&u, a, rundir);
        const char *next = i + 1 < n ? rj_str(d, "meta.command_line.%d", i + 1) : NULL;
        if (a[0] == '-' && next && next[0] != '-') {
            rb_puts(&u, " ");
            shell_word(&u, next, rundir);
            i++;
        }
        if (u.oom) {
            rb_free(&u);
            b->oom = true;
            return 0;
        }
        if (col > 0 && col + 1 + u.len + 2 > CMD_WIDTH) {
            rb_puts(b, " \\\n      ");
            col = 2;
        } else if (col > 0) {
            rb_puts(b, " ");
            col++;
        }
        rb_puts(b, u.s ? u.s : "");
        col += u.len;
        rb_free(&u);
    }
    rb_puts(b, "\n");
    return 0;
}

int prereg_each(const char *kind, void (*fn)(const prereg_row_t row, void *ctx), void *ctx, char *err,
                size_t n) {
    FILE *f = fopen(PREREG_TSV, "r");
    if (!f) {
        snprintf(err, n, "%s: cannot read (paper/prereg.sh writes it from git)", PREREG_TSV);
        return -1;
    }
    char line[2048];
    bool header = true;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        if (header) { /* the column names */
            header = false;
            continue;
        }
        line[strcspn(line, "\n")] = '\0';
        prereg_row_t row = {{0}};
        char *tok = line;
        for (int k = 0; k < PREREG_COLS && tok; k++) { /* empty fields stay empty: split by hand */
            char *tab = strchr(tok, '\t');
            size_t len = tab ? (size_t)(tab - tok) : strlen(tok);
            if (len >= sizeof row[k]) len = sizeof row[k] - 1;
            memcpy(row[k], tok, len);
            tok = tab ? tab + 1 : NULL;
        }
        if (!*kind || !strcmp(row[0], kind)) fn((const char(*)[256])row, ctx);
    }
    fclose(f);
    return 0;
}

const char *prereg_bar_family(const char *variant) {
    const variant_info_t *v = variants_find(variant);
    if (v && (v->sw & SDPA_SW(FP8_MMA))) return "fp8p family";
    if (v && (v->sw & SDPA_SW(REG_MMA))) return "stages 3b-5";
    return "fp16 family";
}

typedef struct {
    report_t *r;
    rbuf_t *b;
    const char *families[2];
} prereg_ctx_t;

/* "commit 04eeccd (2026-11-22)" */
static void prereg_commit(rbuf_t *b, const char *sha, const char *date) {
    if (*sha)
        rb_printf(b, "commit %s (%s)", sha, date);
    else
        rb_puts(b, "no commit found");
}

static void prereg_line(const prereg_row_t row, void *vctx) {
    prereg_ctx_t *c = vctx;
    bool hyp = !strcmp(row[0], "hypothesis") && !strcmp(row[1], c->r->experiment);
    bool bars =
        !strcmp(row[0], "bars") && (!strcmp(row[1], c->families[0]) || !strcmp(row[1], c->families[1]));
    if (!hyp && !bars) return;
    if (hyp)
        rb_printf(c->b, "- The hypothesis was first stated in ");
    else
        rb_printf(c->b, "- The %s bars were fixed in ", row[1]);
    prereg_commit(c->b, row[3], row[4]);
    rb_printf(c->b, " (%s); the first kernel %s judged: ", row[2], hyp ? "it" : "they");
    prereg_commit(c->b, row[5], row[6]);
    rb_printf(c->b, ". Order: **%s**.\n", row[7]);
}

int table_prereg(report_t *r, const gates_t *g) {
    (void)g;
    rbuf_t b = {0};
    prereg_ctx_t ctx = {r, &b, {prereg_bar_family(r->baseline), prereg_bar_family(r->candidate)}};
    rb_puts(&b,
            "**Pre-registration, from git** (`paper/prereg.sh`; the order of the commits, not a claim):\n\n");
    char why[512];
    if (prereg_each("", prereg_line, &ctx, why, sizeof why) < 0) {
        rb_free(&b);
        rb_printf(&b, "**Pre-registration not shown: %s.**\n", why);
    }
    return tables_save(r, &b, "prereg.md");
}

int table_reproduce(report_t *r, const gates_t *g) {
    (void)g;
    rbuf_t b = {0};
    char rundir[REPORT_PATH_MAX];
    snprintf(rundir, sizeof rundir, "data/%s/%s", r->experiment, r->run_id);
    rb_printf(
        &b,
        "Rebuild this report from the data of this run (nothing is measured again):\n\n"
        "    RUN=%s\n    make report RUN=$RUN\n\n"
        "Repeat the experiment: a new run directory `data/%s/<run-id>/` is created and earlier runs are "
        "left untouched:\n\n    make %s\n\n"
        "The pipeline invoked the harness as follows (`meta.command_line` of each result file; the run "
        "directory written `$RUN`, as set above):\n\n",
        rundir, r->experiment, r->make_target);
    if (command_line(&b, &r->R, rundir) < 0) {
        rb_free(&b);
        return -1;
    }
    if (r->timing) {
        rb_puts(&b, "\n");
        if (command_line(&b, &r->T, rundir) < 0) {
            rb_free(&b);
            return -1;
        }
    }
    return tables_save(r, &b, "reproduce.md");
}
