/* See gpu_probes.h. Every number comes from the record; what the probes are is kernels/probes/README.md. */
#include "gpu_probes.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fields.h"
#include "gpu_section.h"
#include "tables.h"

static int count(const cJSON *a) { return cJSON_IsArray(a) ? cJSON_GetArraySize(a) : 0; }

void gpu_probes_section(const gpu_campaign_t *c, rbuf_t *b) {
    rb_printf(b, "### Hardware probes {#sec:gpu-%s-probes}\n\n", c->tag);
    if (!c->probes) {
        rb_puts(b, "No probe record in this campaign (no probes/probes.json: its probes step was skipped; "
                   "the campaign's steps table says why).\n\n");
        return;
    }
    const cJSON *p = c->probes, *check = jo(p, "isa_check"), *inc = jo(p, "incomplete");
    const cJSON *acc = jo(jo(p, "wgmma_acc"), "values"), *ua = jo(p, "tma_unaligned");
    const double bad = jo_num(check, "mismatches");
    char n1[32], n2[32], n3[32], n4[32];
    snprintf(n1, sizeof n1, "%d", count(acc));
    snprintf(n2, sizeof n2, "%d", count(jo(jo(p, "wgmma_a"), "byte")));
    snprintf(n3, sizeof n3, "%d", count(jo(p, "wgmma_desc")));
    snprintf(n4, sizeof n4, "%d", count(jo(p, "tma")));
    rb_printf(b,
              "The sm_90a layout probes (`kernels/probes`) ran on %s (compute capability %s)%s. Their inputs "
              "encode their own coordinates, so the record shows where the hardware put each element; it "
              "is decoded against the PTX ISA's formulas (`probe_check_isa`) and compared, byte for byte, "
              "with the emulator's record by `make test`.\n\n",
              jo_str_or(jo(jo(p, "meta"), "device"), "name", "not recorded"),
              jo_str_or(jo(jo(p, "meta"), "device"), "cc", "not recorded"),
              inc ? " and STOPPED EARLY (a probe faulted: see below)" : "");
    static const md_col_t cols[] = {{"probe", 30, 'l'}, {"what it maps", 50, 'l'}, {"records", 8, 'r'}};
    md_table_head(b, cols, 3);
    md_row(b, 3, "wgmma accumulator (SS m64n256k32 e4m3)", "(thread, register) to (m, n)", n1);
    md_row(b, 3, "wgmma A fragment (RS m64n32k32)", "(thread, A byte) to (m, k)", n2);
    md_row(b, 3, "wgmma shared-memory descriptors", "(m, k) to the address read, per descriptor", n3);
    md_row(b, 3, "TMA boxes (2-D and 3-D, every swizzle)", "box element to shared-memory byte, per box", n4);
    const cJSON *x2 = jo(p, "exp2_poly"); /* records since 2026-11-28 */
    if (x2) {
        char n5[64];
        snprintf(n5, sizeof n5, "%.0f (%.0f differ)", jo_num(x2, "points"),
                 jo_num(x2, "host_twin_mismatches"));
        md_row(b, 3, "stage 7g's exponential (kernels/exp2_poly.h)", "x to its bits, against the host twin's",
               n5);
    }
    const cJSON *xf = jo(p, "exp_ftz"); /* records since 2026-11-29 */
    if (xf) {
        char n6[96];
        snprintf(n6, sizeof n6, "%.0f (%.0f codes, %.0f weights differ; %.0f flushed)", jo_num(xf, "points"),
                 jo_num(xf, "code_mismatches"), jo_num(xf, "weight_mismatches"), jo_num(xf, "flushed"));
        md_row(b, 3, "stage 7h's flushed exponential (prims::expf_ftz)",
               "x to the e4m3 code of 448 p, against __expf's on the device", n6);
    }
    const cJSON *sm = jo(jo(p, "stmatrix"), "halves"); /* records since 2026-11-29 */
    if (sm) {
        char n7[32];
        snprintf(n7, sizeof n7, "%d", count(sm));
        md_row(b, 3, "stage 7k's stmatrix (x4, shared b16)",
               "(lane, register, half) to (matrix, row, column)", n7);
    }
    const cJSON *sb = jo(p, "smem_base"); /* records since 2026-11-29 */
    /* As probe_check_isa reads it: a 32-bit whole number, one mismatch when off 1024 bytes. */
    const double sb_wa = jo_num(sb, "window_address");
    const long sb_at = sb_wa >= 0 && sb_wa < 4294967296.0 && sb_wa == floor(sb_wa) ? (long)sb_wa : -1;
    const int sb_off = sb_at >= 0 && sb_at % 1024 != 0;
    const double layout_bad = bad - sb_off; /* the layouts' own mismatches */
    if (sb) {
        char n8[64] = "not recorded";
        if (sb_at >= 0) snprintf(n8, sizeof n8, "0x%lx (%s 1024 bytes)", sb_at, sb_off ? "NOT on" : "on");
        md_row(b, 3, "stage 7's dynamic shared memory",
               "where it starts in the shared window (its 1024-byte aligned kernels stop off 1024 bytes)",
               n8);
    }
    char id[64], cap[512];
    snprintf(id, sizeof id, "tbl:gpu-%s-probes", c->tag);
    snprintf(cap, sizeof cap,
             "Hardware probes of campaign %s (probes/probes.json): %s mismatch%s with the PTX ISA's "
             "layouts%s%s%s.",
             c->id,
             cJSON_IsNumber(jo(check, "mismatches")) ? (layout_bad == 0 ? "no" : "SOME") : "no decoding:",
             layout_bad == 1 ? "" : "es", x2 ? " (the exponential: with its host twin's bits)" : "",
             layout_bad > 0 ? "; the first: " : "",
             layout_bad > 0 ? jo_str_or(check, "first", "not recorded") : "");
    gpu_caption(c, b, id, cap);
    if (layout_bad > 0)
        rb_printf(
            b,
            "The device DISAGREES with the ISA's layouts in %.0f places; the emulator follows the ISA, so "
            "its Hopper tests are not evidence for this device until it is changed to match.\n\n",
            layout_bad);
    if (sb_off)
        rb_printf(b,
                  "Its dynamic shared memory starts at shared-window address 0x%lx, not on the 1024 bytes "
                  "stage 7's 128-byte swizzled tiles need: stages 7e-7k, and 7b-7d at D = 128, stop at "
                  "their check (`prims::smem_check_aligned`) with this build on this device.\n\n",
                  sb_at);
    if (inc) rb_printf(b, "The record is incomplete: %s.\n\n", jo_str_or(inc, "error", "not recorded"));
    if (ua)
        rb_printf(b,
                  "A TMA tile load whose innermost coordinate is not a multiple of 16 bytes (%s), run in a "
                  "process of its own: **%s**. The emulator refuses such a load as a T1 fault%s.\n\n",
                  jo_str_or(ua, "what", "not recorded"), jo_str_or(ua, "result", "not recorded"),
                  strcmp(jo_str_or(ua, "result", "not recorded"), "loaded")
                      ? ", as this device does"
                      : "; this device LOADED it: the emulator is stricter here");
}

/* The campaigns on a GPU (not emulated) whose probe record holds key (NULL: any record), as
 * "2 campaigns on NVIDIA H100 80GB HBM3 (Sections @sec:gpu-c4-probes, @sec:gpu-c5-probes)" into b;
 * their count. The fixture's are counted apart in *fixtures. */
static int ran(const gpu_data_t *g, const char *key, rbuf_t *b, int *fixtures) {
    int k = 0;
    *fixtures = 0;
    rbuf_t devs = {0}, refs = {0};
    for (int i = 0; i < g->n; i++) {
        const gpu_campaign_t *c = g->c[i];
        if (!c->probes || c->emulated || (key && !jo(c->probes, key))) continue;
        if (c->fixture) {
            ++*fixtures;
            continue;
        }
        const char *d = jo_str_or(c->campaign, "device", "not recorded");
        bool seen = false;
        for (int j = 0; j < i && !seen; j++) {
            const gpu_campaign_t *e = g->c[j];
            seen = e->probes && !e->emulated && !e->fixture && (!key || jo(e->probes, key)) &&
                   !strcmp(jo_str_or(e->campaign, "device", "not recorded"), d);
        }
        if (!seen) rb_printf(&devs, "%s%s", devs.len ? ", " : "", d);
        rb_printf(&refs, "%s@sec:gpu-%s-probes", refs.len ? ", " : "", c->tag);
        k++;
    }
    if (k)
        rb_printf(b, "%d committed campaign%s on %s (Section%s %s)", k, k > 1 ? "s" : "", devs.s,
                  k > 1 ? "s" : "", refs.s);
    rb_free(&devs);
    rb_free(&refs);
    return k;
}

int gpu_probes_write(const gpu_data_t *g, const char *out, char *err, size_t n) {
    static const char fx[] = " (The SYNTHETIC test fixture's record is no measurement and is not counted.)";
    int fl, f2, ff;
    rbuf_t x = {0}, lim = {0}, layouts = {0}, exp2 = {0}, ftz = {0};
    const int nl = ran(g, NULL, &layouts, &fl), n2 = ran(g, "exp2_poly", &exp2, &f2),
              nf = ran(g, "exp_ftz", &ftz, &ff);
    if (n2)
        rb_printf(
            &x,
            "On a GPU, the hardware probes (`kernels/probes/`) compared its bits with the twin's in %s: "
            "their tables give the points and how many differ.",
            exp2.s);
    else
        rb_printf(
            &x,
            "On a GPU, the hardware probes (`kernels/probes/`) are to compare its bits on the device with "
            "the twin's; %s, so its bits have been checked on the CPU only.",
            nl ? "no committed campaign's probe record holds that probe yet"
               : "no committed campaign has run the probes on a GPU yet");
    if (f2) rb_puts(&x, fx);
    rb_puts(&x, "\n");
    rb_puts(&lim,
            "The hardware probes (`kernels/probes/`) test on the device the `wgmma` and TMA layouts, stage "
            "7g's exponential against its host twin and stage 7h's flushed one against `__expf`; ");
    if (!nl)
        rb_puts(&lim, "no committed campaign has run them on a GPU yet.");
    else {
        rb_printf(&lim, "the layouts ran in %s; stage 7g's exponential ", layouts.s);
        rb_puts(&lim, n2 ? "in " : "in none of them");
        if (n2) rb_puts(&lim, exp2.s);
        rb_puts(&lim, ", and stage 7h's ");
        rb_puts(&lim, nf ? "in " : "in none");
        if (nf) rb_puts(&lim, ftz.s);
        rb_puts(&lim, ". Each campaign that ran them reports what they found.");
    }
    if (fl || f2 || ff) rb_puts(&lim, fx);
    rb_puts(&lim, "\n");
    rb_free(&layouts);
    rb_free(&exp2);
    rb_free(&ftz);
    int rc = rb_save(&x, out, "gpu-exp-probes.md", err, n);
    if (rc == 0) rc = rb_save(&lim, out, "gpu-probes-limits.md", err, n);
    rb_free(&x);
    rb_free(&lim);
    return rc;
}
