/* The catalogue of planted bugs (tests/emu/kernels/bug_*.cu). Each runs in a child process
 * (`<self> --case NAME`: TSan must see the race in-process, not in a forked copy; ASan aborts at
 * the first error) and must be reported at the line marked EMU-BUG(marker) in its source, or -
 * where the build cannot name a line - give wrong results under at least one schedule. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "emu_check.h"
#include "emu_tests.h"
#include "half.h"

/* What a build must report. */
enum expect {
    SKIP,  /* not what this build catches */
    FAULT, /* a simt fault citing the marker line; the launch returns non-zero */
    WRONG, /* results differ from the reference under at least one schedule (no line to cite) */
    RACE,  /* a ThreadSanitizer data race citing the marker line (fwd) */
    RACE3, /* the same under each of fwd, rev and rand */
    ASAN,  /* an AddressSanitizer/UBSan error citing the marker line */
};

/* Exit status of a child: bits. */
enum { CHILD_FAULTED = 1, CHILD_WRONG = 2, CHILD_SOME_FAULTED = 4 };

#if defined(EMU_FLAVOUR_TSAN) || defined(EMU_FLAVOUR_ASAN)
enum { CHILD_SCHEDULES = 1 }; /* the sanitizers do not depend on the interleaving */
#else
enum { CHILD_SCHEDULES = EMU_N_SCHEDULES };
#endif

/* Runs `launch` under the child's schedules; returns CHILD_* bits: FAULTED when every launch
 * faulted, SOME_FAULTED when only some did. want may be NULL. */
static int run_schedules(int (*launch)(void *), void *ctx, const float *got, const float *want, size_t n) {
    int bits = 0, faults = 0;
    /* The sanitizer builds run one schedule per child: EMU_BUG_SCHEDULE (default fwd). */
    const char *pick = getenv("EMU_BUG_SCHEDULE");
    for (int s = 0; s < CHILD_SCHEDULES; s++) {
        emu_use_schedule(CHILD_SCHEDULES == 1 && pick ? atoi(pick) : s);
        faults += launch(ctx) != 0;
        if (want && emu_mismatches(got, want, n)) {
            bits |= CHILD_WRONG;
            printf("results differ from the reference under %s\n", emu_schedule_desc(s));
        }
    }
    if (faults) bits |= faults == CHILD_SCHEDULES ? CHILD_FAULTED : CHILD_SOME_FAULTED;
    return bits;
}

/* ---- the planted bugs, as run in the child --------------------------------------------------------- */
typedef struct {
    float *in, *out;
    int mode;
    uint16_t *a, *b;
} bug_ctx;

static bug_ctx make_ctx(size_t n, int mode) {
    bug_ctx c = {emu_alloc(n * 4), emu_alloc(n * 4), mode, NULL, NULL};
    for (size_t i = 0; i < n; i++) c.in[i] = (float)(i % 97) + 1.0f;
    return c;
}

static int launch_missing_sync(void *p) {
    return emut_bug_missing_sync(((bug_ctx *)p)->in, ((bug_ctx *)p)->out, 2);
}
static int case_missing_sync(void) {
    bug_ctx c = make_ctx(256, 0);
    float want[256];
    for (int i = 0; i < 256; i++) want[i] = 2.0f * c.in[i / 128 * 128 + (i % 128 + 1) % 128];
    return run_schedules(launch_missing_sync, &c, c.out, want, 256);
}

enum { COPY_TILES = 3, COPY_N = COPY_TILES * 128 * 4 };
static int launch_tiled_copy(void *p) {
    bug_ctx *c = p;
    return emut_bug_tiled_copy(c->in, c->out, COPY_TILES, c->mode);
}
static int run_tiled_copy(int mode) {
    bug_ctx c = make_ctx(COPY_N, mode);
    static float want[COPY_N];
    for (int i = 0; i < COPY_N; i++) want[i] = c.in[i / 512 * 512 + (i % 512 / 4 + 1) % 128 * 4 + i % 4];
    return run_schedules(launch_tiled_copy, &c, c.out, want, COPY_N);
}
static int case_cp_no_wait(void) { return run_tiled_copy(EMUT_CP_NO_WAIT); }
static int case_cp_no_sync(void) { return run_tiled_copy(EMUT_CP_NO_SYNC); }
static int case_cp_tail(void) { return run_tiled_copy(EMUT_CP_TAIL); }

/* A planted bug without a reference: the launch itself must fault. Buffers of 512 elements. */
static int run_faulting(int (*launch)(void *), int mode) {
    bug_ctx c = make_ctx(512, mode);
    c.a = emu_alloc(512 * 2);
    return run_schedules(launch, &c, NULL, NULL, 0);
}

static int launch_shfl(void *p) {
    bug_ctx *c = p;
    return emut_bug_shfl_divergent(c->in, c->out, c->mode);
}
static int launch_sync_divergent(void *p) { return emut_bug_sync_divergent(((bug_ctx *)p)->out); }
static int launch_sync_after_exit(void *p) { return emut_bug_sync_after_exit(((bug_ctx *)p)->out, 100); }
static int launch_smem_oob(void *p) { return emut_bug_smem_oob(((bug_ctx *)p)->out); }
static int launch_misaligned(void *p) { return emut_bug_misaligned(((bug_ctx *)p)->in, ((bug_ctx *)p)->out); }
static int launch_wmma_args(void *p) {
    bug_ctx *c = p;
    return emut_bug_wmma_args(c->a, c->out, c->mode);
}
static int launch_cp_misuse(void *p) {
    bug_ctx *c = p;
    return emut_bug_cp_async_misuse(c->in, c->out, c->mode);
}
static int case_shfl_exited(void) { return run_faulting(launch_shfl, 0); }
static int case_shfl_other(void) { return run_faulting(launch_shfl, 1); }
static int case_sync_divergent(void) { return run_faulting(launch_sync_divergent, 0); }
static int case_sync_after_exit(void) { return run_faulting(launch_sync_after_exit, 0); }
static int case_smem_oob(void) { return run_faulting(launch_smem_oob, 0); }
static int case_misaligned(void) { return run_faulting(launch_misaligned, 0); }
static int case_wmma_ldm(void) { return run_faulting(launch_wmma_args, 0); }
static int case_wmma_align(void) { return run_faulting(launch_wmma_args, 1); }
static int case_never_waited(void) { return run_faulting(launch_cp_misuse, 0); }
static int case_cp_size(void) { return run_faulting(launch_cp_misuse, 1); }
static int case_cp_direction(void) { return run_faulting(launch_cp_misuse, 2); }

/* S = A B with A = diag(1..16) and B[k][n] = 1 on the diagonal, 1/2 elsewhere: row r of S has
 * maximum r + 1, in column r. */
static int launch_wmma_layout(void *p) {
    bug_ctx *c = p;
    return emut_bug_wmma_layout(c->a, c->b, c->out);
}
static int case_wmma_layout(void) {
    bug_ctx c = make_ctx(256, 0);
    c.a = emu_alloc(256 * 2);
    c.b = emu_alloc(256 * 2);
    float want[16];
    for (int r = 0; r < 16; r++) {
        want[r] = (float)(r + 1);
        for (int k = 0; k < 16; k++) {
            c.a[r * 16 + k] = half_from_float(r == k ? (float)(r + 1) : 0.0f);
            c.b[r * 16 + k] = half_from_float(r == k ? 1.0f : 0.5f);
        }
    }
    return run_schedules(launch_wmma_layout, &c, c.out, want, 16);
}

/* D = A B for the f16 tile with small integers (exact); mode picks the planted bug. */
static int launch_mma_bug(void *p) {
    bug_ctx *c = p;
    return emut_bug_mma(c->a, c->b, c->out, c->mode);
}
static int run_mma_bug(int mode) {
    bug_ctx c = make_ctx(128, mode);
    c.a = emu_alloc(256 * 2);
    c.b = emu_alloc(128 * 2);
    float want[128] = {0};
    for (int i = 0; i < 256; i++) c.a[i] = half_from_float((float)(i % 7 - 3));
    for (int i = 0; i < 128; i++) c.b[i] = half_from_float((float)(i % 5 - 2));
    for (int r = 0; r < 16; r++)
        for (int n = 0; n < 8; n++)
            for (int k = 0; k < 16; k++)
                want[r * 8 + n] += (float)(((r * 16 + k) % 7 - 3) * ((k * 8 + n) % 5 - 2));
    return run_schedules(launch_mma_bug, &c, mode <= EMUT_LDSM_WRONG_LANES ? c.out : NULL,
                         mode <= EMUT_LDSM_WRONG_LANES ? want : NULL, 128);
}
static int case_mma_swapped(void) { return run_mma_bug(EMUT_MMA_SWAPPED_REG); }
static int case_ldsm_lanes(void) { return run_mma_bug(EMUT_LDSM_WRONG_LANES); }
static int case_ldsm_misaligned(void) { return run_mma_bug(EMUT_LDSM_MISALIGNED); }
static int case_ldsm_global(void) { return run_mma_bug(EMUT_LDSM_GLOBAL); }

static int launch_named(void *p) { return emut_bug_named_barrier(((bug_ctx *)p)->out, ((bug_ctx *)p)->mode); }
static int case_bar_never(void) { return run_faulting(launch_named, EMUT_BAR_NEVER_ARRIVES); }
static int case_bar_wrong_id(void) { return run_faulting(launch_named, EMUT_BAR_WRONG_ID); }
static int case_bar_count(void) { return run_faulting(launch_named, EMUT_BAR_COUNT_MISMATCH); }
static int case_bar_divergent(void) { return run_faulting(launch_named, EMUT_BAR_DIVERGENT); }

static int launch_tree(void *p) { return emut_bug_tree_reduce(((bug_ctx *)p)->in, ((bug_ctx *)p)->out, 2); }
static int case_tree_reduce(void) {
    bug_ctx c = make_ctx(512, 0);
    float want[2] = {0, 0};
    for (int i = 0; i < 512; i++) want[i / 256] += c.in[i];
    return run_schedules(launch_tree, &c, c.out, want, 2);
}

/* ---- the catalogue ------------------------------------------------------------------------------- */
typedef struct {
    const char *name;
    int (*run)(void);
    const char *file, *marker;
    const char *also; /* another marker the report must cite, or NULL */
    enum expect plain, tsan, asan;
} bug_case_t;

static const bug_case_t cases[] = {
    {"missing-sync", case_missing_sync, "bug_missing_sync.cu", "missing-sync", NULL, WRONG, RACE, SKIP},
    {"cp-missing-wait", case_cp_no_wait, "bug_cp_async_sync.cu", "cp-async-read", NULL, WRONG, RACE, SKIP},
    {"cp-no-barrier-after-wait", case_cp_no_sync, "bug_cp_async_sync.cu", "cp-async-read", NULL, WRONG, RACE,
     SKIP},
    {"cp-tail-wait-prior-1", case_cp_tail, "bug_cp_async_sync.cu", "cp-async-read", NULL, WRONG, RACE, SKIP},
    {"shfl-lanes-exited", case_shfl_exited, "bug_divergence.cu", "shfl-divergent", NULL, FAULT, FAULT, FAULT},
    {"shfl-lanes-elsewhere", case_shfl_other, "bug_divergence.cu", "shfl-divergent", "shfl-other", FAULT,
     FAULT, FAULT},
    {"syncthreads-divergent", case_sync_divergent, "bug_divergence.cu", "sync-divergent", NULL, FAULT, FAULT,
     FAULT},
    {"syncthreads-after-exit", case_sync_after_exit, "bug_divergence.cu", "sync-after-exit", NULL, FAULT,
     FAULT, FAULT},
    {"smem-out-of-bounds", case_smem_oob, "bug_memory.cu", "smem-oob", NULL, SKIP, SKIP, ASAN},
    {"misaligned-vector-load", case_misaligned, "bug_memory.cu", "misaligned", NULL, SKIP, SKIP, ASAN},
    {"wmma-accumulator-by-position", case_wmma_layout, "bug_wmma.cu", "wmma-layout", NULL, WRONG, SKIP, SKIP},
    {"wmma-bad-ldm", case_wmma_ldm, "bug_wmma.cu", "wmma-ldm", NULL, FAULT, FAULT, FAULT},
    {"wmma-misaligned-pointer", case_wmma_align, "bug_wmma.cu", "wmma-align", NULL, FAULT, FAULT, FAULT},
    {"cp-never-waited", case_never_waited, "bug_cp_async_misuse.cu", "never-waited", NULL, FAULT, FAULT,
     FAULT},
    {"cp-bad-size", case_cp_size, "bug_cp_async_misuse.cu", "cp-size", NULL, FAULT, FAULT, FAULT},
    {"cp-global-destination", case_cp_direction, "bug_cp_async_misuse.cu", "cp-direction", NULL, FAULT, FAULT,
     FAULT},
    {"mma-register-swapped", case_mma_swapped, "bug_mma.cu", "mma-swapped", NULL, WRONG, SKIP, SKIP},
    {"ldmatrix-wrong-lanes", case_ldsm_lanes, "bug_mma.cu", "ldsm-lanes", NULL, WRONG, SKIP, SKIP},
    {"ldmatrix-misaligned", case_ldsm_misaligned, "bug_mma.cu", "ldsm-misaligned", NULL, FAULT, FAULT, FAULT},
    /* ASan: static shared memory is ordinary storage there, so shared cannot be told from global */
    {"ldmatrix-global-address", case_ldsm_global, "bug_mma.cu", "ldsm-global", NULL, FAULT, FAULT, SKIP},
    {"bar-producer-never-arrives", case_bar_never, "bug_named_barrier.cu", "never-arrives", NULL, FAULT,
     FAULT, FAULT},
    {"bar-consumer-wrong-id", case_bar_wrong_id, "bug_named_barrier.cu", "wrong-id", NULL, FAULT, FAULT,
     FAULT},
    {"bar-mismatched-counts", case_bar_count, "bug_named_barrier.cu", "count-producer", "count-consumer",
     FAULT, FAULT, FAULT},
    {"bar-sync-divergent", case_bar_divergent, "bug_named_barrier.cu", "bar-divergent", NULL, FAULT, FAULT,
     FAULT},
    {"tree-reduce-no-barrier", case_tree_reduce, "bug_tree_reduce.cu", "tree-reduce", NULL, WRONG, RACE3,
     SKIP},
};
enum { N_CASES = sizeof cases / sizeof cases[0] };

static enum expect expected(const bug_case_t *c) {
#if defined(EMU_FLAVOUR_TSAN)
    return c->tsan;
#elif defined(EMU_FLAVOUR_ASAN)
    return c->asan;
#else
    return c->plain;
#endif
}

int emu_run_bug_case(const char *name) {
    for (int i = 0; i < N_CASES; i++)
        if (strcmp(cases[i].name, name) == 0) {
            int bits = cases[i].run();
            fprintf(stderr, "last_error: %s\n", simt_last_error());
            return bits;
        }
    fprintf(stderr, "unknown case %s\n", name);
    return 99;
}

static void expect_cited(const char *out, const bug_case_t *c, const char *marker) {
    int line = emu_marker_line(c->file, marker);
    if (!emu_cites(out, c->file, line)) fail_msg("the report does not cite %s:%d", c->file, line);
}

/* A data race must be reported under every schedule (TSan sees only the interleaving that ran):
 * one child per schedule, fwd, rev and rand. */
static void expect_race_everywhere(const bug_case_t *c) {
    for (int s = 0; s < 3; s++) {
        char pick[32], *out = NULL;
        snprintf(pick, sizeof pick, "EMU_BUG_SCHEDULE=%d", s);
        const char *env[] = {pick, NULL};
        emu_run_child(c->name, env, &out);
        if (!strstr(out, "WARNING: ThreadSanitizer: data race"))
            fail_msg("no data race reported under %s", emu_schedule_desc(s));
        expect_cited(out, c, c->marker);
        free(out);
    }
}

static void test_bug(void **state) {
    const bug_case_t *c = *state;
    char *out = NULL;
    if (expected(c) == RACE3) {
        expect_race_everywhere(c);
        return;
    }
    int status = emu_run_child(c->name, NULL, &out);
    switch (expected(c)) {
    case FAULT: {
        char head[256];
        snprintf(head, sizeof head, "last_error: simt: ");
        if (status != CHILD_FAULTED) fail_msg("exit status %d: want a fault under every schedule", status);
        if (!strstr(out, head) || !strstr(out, "(block (") || !strstr(out, ", thread ("))
            fail_msg("no fault message in simt_last_error()");
        expect_cited(strstr(out, head), c, c->marker);
        if (c->also) expect_cited(out, c, c->also);
        break;
    }
    case WRONG:
        if (status != CHILD_WRONG) fail_msg("exit status %d: want wrong results and no fault", status);
        break;
    case RACE:
        if (!strstr(out, "WARNING: ThreadSanitizer: data race")) fail_msg("no data race reported");
        expect_cited(out, c, c->marker);
        break;
    case RACE3: break; /* above */
    case ASAN:
        if (status == 0) fail_msg("exit status 0: the sanitizer did not stop the run");
        if (!strstr(out, "ERROR: AddressSanitizer") && !strstr(out, "runtime error:"))
            fail_msg("no AddressSanitizer/UBSan report");
        expect_cited(out, c, c->marker);
        break;
    case SKIP: break;
    }
    free(out);
}

int emu_run_bug_tests(void) {
    struct CMUnitTest tests[N_CASES];
    static char names[N_CASES][96];
    static const char *what[] = {"",
                                 "fault at its line",
                                 "wrong results",
                                 "data race at its line",
                                 "data race at its line",
                                 "sanitizer error at its line"};
    int n = 0;
    for (int i = 0; i < N_CASES; i++) {
        if (expected(&cases[i]) == SKIP) continue;
        snprintf(names[n], sizeof names[n], "planted bug %s: %s%s", cases[i].name, what[expected(&cases[i])],
                 expected(&cases[i]) == RACE3 ? " (fwd, rev, rand)" : "");
        tests[n] = (struct CMUnitTest){names[n], test_bug, NULL, NULL, (void *)&cases[i]};
        n++;
    }
    return _cmocka_run_group_tests("emulator: planted bugs", tests, (size_t)n, NULL, NULL);
}
