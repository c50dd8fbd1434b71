/* The variant registry (host/bench/variants.c): built from kernels/variants.def, one switch per stage,
 * the cross-variant expectation rule, and the lookup / consistency check of kernel tables. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bench/variants.h"

static sdpa_status_t dummy_launch(const sdpa_args_t *a) {
    (void)a;
    return SDPA_OK;
}

static void test_registry_rows(void **state) {
    (void)state;
    static const char *const ids[] = {"stage0", "stage1", "stage2", "stage3a", "stage3a-swz"};
    assert_true(variants_registry_count >= 5);
    for (size_t i = 0; i < 5; i++) assert_string_equal(variants_registry[i].id, ids[i]);
    assert_string_equal(variants_registry[0].parent, "");
    assert_non_null(variants_find("stage2"));
    assert_null(variants_find("stage9"));
    assert_null(variants_find(NULL));
}

/* A stage differs from its parent by exactly one switch (the rule of the study). */
static void test_one_switch_per_stage(void **state) {
    (void)state;
    for (size_t i = 0; i < variants_registry_count; i++) {
        const variant_info_t *v = &variants_registry[i];
        if (!v->parent[0]) continue;
        const variant_info_t *p = variants_find(v->parent);
        assert_non_null(p);
        assert_int_equal(variants_switch_distance(v->sw, p->sw), 1);
    }
}

static void test_expect_identical_rule(void **state) {
    (void)state;
    const sdpa_switches_t s0 = variants_find("stage0")->sw, s1 = variants_find("stage1")->sw,
                          s2 = variants_find("stage2")->sw, s3 = variants_find("stage3a")->sw,
                          s4 = variants_find("stage3a-swz")->sw;
    assert_true(variants_expect_identical(s0, s1));  /* cp_async only */
    assert_true(variants_expect_identical(s2, s3));  /* fused only */
    assert_true(variants_expect_identical(s2, s4));  /* fused + pad */
    assert_true(variants_expect_identical(s3, s4));  /* pad only */
    assert_false(variants_expect_identical(s1, s2)); /* P fp32 -> fp16 */
    assert_false(variants_expect_identical(s0, s4));
    const sdpa_switches_t a = SDPA_SW(WMMA_PV), b = SDPA_SW(CP_ASYNC) | SDPA_SW(WMMA_PV) | SDPA_SW(SMEM_PAD);
    assert_false(variants_expect_identical(a, b)); /* cp_async and a layout switch */
    assert_true(variants_expect_identical(a, a));
    assert_int_equal(variants_switch_distance(a, b), 2);
}

static void test_table_lookup_and_check(void **state) {
    (void)state;
    const sdpa_kernel_entry_t good[] = {
        {"stage1", "stage0", SDPA_SW(CP_ASYNC), "s1", dummy_launch, 0, {{0}}},
        {"extra",
         "stage2",
         SDPA_SW(CP_ASYNC) | SDPA_SW(WMMA_PV),
         "not in the registry",
         dummy_launch,
         0,
         {{0}}},
        {NULL, NULL, 0, NULL, NULL, 0, {{0}}},
    };
    char err[256] = "";
    assert_int_equal(variants_table_count(good), 2);
    assert_int_equal(variants_table_count(NULL), 0);
    assert_ptr_equal(variants_kernel(good, "extra"), &good[1]);
    assert_null(variants_kernel(good, "stage2"));
    assert_null(variants_kernel(NULL, "stage1"));
    assert_int_equal(variants_check_table(good, err, sizeof err), 0);

    const sdpa_kernel_entry_t stale[] = {
        {"stage1", "stage0", SDPA_SW(CP_ASYNC) | SDPA_SW(WMMA_PV), "wrong switches", dummy_launch, 0, {{0}}},
        {NULL, NULL, 0, NULL, NULL, 0, {{0}}},
    };
    assert_int_equal(variants_check_table(stale, err, sizeof err), -1);
    assert_non_null(strstr(err, "stage1"));
    const sdpa_kernel_entry_t nolaunch[] = {
        {"stage1", "stage0", SDPA_SW(CP_ASYNC), "no launcher", NULL, 0, {{0}}},
        {NULL, NULL, 0, NULL, NULL, 0, {{0}}},
    };
    assert_int_equal(variants_check_table(nolaunch, err, sizeof err), -1);
    assert_non_null(strstr(err, "launcher"));
}

static void test_switches_str(void **state) {
    (void)state;
    char buf[24 * SDPA_SWITCH_COUNT]; /* as sdpa-bench's --list-variants */
    variants_switches_str(variants_find("stage3a")->sw, buf, sizeof buf);
    /* every switch of the list, in order: the four of the study first, then any added later */
    assert_memory_equal(buf, "cp_async=1 wmma_pv=1 fused_softmax_pv=1 smem_pad=0", 50);
    assert_true(buf[50] == '\0' || buf[50] == ' ');
    int keys = 0;
    for (const char *c = buf; (c = strchr(c, '=')) != NULL; c++) keys++;
    assert_int_equal(keys, SDPA_SWITCH_COUNT);
    variants_switches_str(0, buf, 12); /* truncated, still terminated */
    assert_int_equal(strlen(buf), 11);
}

/* stage6 (FP8_MMA): one switch from stage5, ARITH (identical to nothing but its 64-row variant and its TMA
 * variant, stage7a), needs sm_89, and cannot
 * compute on the seed-linear codes (not supported there, like an older device). */
static void test_stage6_rules(void **state) {
    (void)state;
    const variant_info_t *s6 = variants_find("stage6"), *s5 = variants_find("stage5");
    assert_non_null(s6);
    assert_string_equal(s6->parent, "stage5");
    assert_int_equal(s6->sw, s5->sw | SDPA_SW(FP8_MMA));
    assert_int_equal(variants_min_sm(s6->sw), 89);
    assert_int_equal(variants_min_sm(s5->sw), 80);
    /* identical to nothing but its own geometry variant (ROWS64: class LAYOUT, stage6-r64) and its
     * load variant (TMA_KV: class LOAD, stage7a) */
    for (size_t i = 0; i < variants_registry_count; i++)
        if (&variants_registry[i] != s6 && variants_registry[i].sw != (s6->sw | SDPA_SW(ROWS64)) &&
            variants_registry[i].sw != (s6->sw | SDPA_SW(TMA_KV)))
            assert_false(variants_expect_identical(s6->sw, variants_registry[i].sw));
    assert_true(variants_expect_identical(s6->sw, s6->sw | SDPA_SW(ROWS64)));
    assert_true(variants_expect_identical(s6->sw, s6->sw | SDPA_SW(TMA_KV)));
    assert_string_equal(variants_codec_unsupported(s6->sw, SDPA_CODEC_SEED_LINEAR),
                        sdpa_status_str(SDPA_ERR_UNSUPPORTED));
    assert_null(variants_codec_unsupported(s6->sw, SDPA_CODEC_E4M3));
    for (size_t i = 0; i < variants_registry_count; i++)
        if (!(variants_registry[i].sw & SDPA_SW(FP8_MMA)))
            assert_null(variants_codec_unsupported(variants_registry[i].sw, SDPA_CODEC_SEED_LINEAR));
}

/* stage7a (TMA_KV): one switch from stage6, LOAD (bit-identical to stage6), needs sm_90 but not sm_90a
 * (TMA and mbarrier transactions are portable sm_90 PTX), and refuses the seed-linear codes as stage6. */
static void test_stage7a_rules(void **state) {
    (void)state;
    const variant_info_t *s7 = variants_find("stage7a"), *s6 = variants_find("stage6");
    assert_non_null(s7);
    assert_string_equal(s7->parent, "stage6");
    assert_int_equal(s7->sw, s6->sw | SDPA_SW(TMA_KV));
    assert_int_equal(variants_min_sm(s7->sw), 90);
    assert_int_equal(variants_exact_sm(s7->sw), 0);
    assert_true(variants_expect_identical(s7->sw, s6->sw));
    assert_string_equal(variants_codec_unsupported(s7->sw, SDPA_CODEC_SEED_LINEAR),
                        sdpa_status_str(SDPA_ERR_UNSUPPORTED));
    char why[160];
    assert_non_null(variants_arch_unsupported(variants_min_sm(s7->sw), 0, 89, why, sizeof why));
    assert_null(variants_arch_unsupported(variants_min_sm(s7->sw), 0, 90, why, sizeof why));
}

/* stage7b (WGMMA_QK): one switch from stage7a, LAYOUT (bit-identical to stage7a), the first sm_90a-only
 * row: "not supported" on every device but compute capability 9.0, older or newer. */
static void test_stage7b_rules(void **state) {
    (void)state;
    const variant_info_t *s7b = variants_find("stage7b"), *s7a = variants_find("stage7a");
    assert_non_null(s7b);
    assert_string_equal(s7b->parent, "stage7a");
    assert_int_equal(s7b->sw, s7a->sw | SDPA_SW(WGMMA_QK));
    assert_int_equal(variants_min_sm(s7b->sw), 90);
    assert_int_equal(variants_exact_sm(s7b->sw), 90);
    assert_true(variants_expect_identical(s7b->sw, s7a->sw));
    char why[160];
    static const int ccs[] = {80, 89, 90, 100, 120};
    for (size_t i = 0; i < sizeof ccs / sizeof ccs[0]; i++) {
        const char *got = variants_arch_unsupported(variants_min_sm(s7b->sw), variants_exact_sm(s7b->sw),
                                                    ccs[i], why, sizeof why);
        if (ccs[i] == 90)
            assert_null(got);
        else
            assert_non_null(got);
    }
}

/* stage7c (WGMMA_PV): one switch from stage7b, LAYOUT (bit-identical to stage7b and, LAYOUT + LOAD
 * apart, "bounded" against stage 6), sm_90a only. */
static void test_stage7c_rules(void **state) {
    (void)state;
    const variant_info_t *s7c = variants_find("stage7c"), *s7b = variants_find("stage7b");
    assert_non_null(s7c);
    assert_string_equal(s7c->parent, "stage7b");
    assert_int_equal(s7c->sw, s7b->sw | SDPA_SW(WGMMA_PV));
    assert_int_equal(variants_exact_sm(s7c->sw), 90);
    assert_true(variants_expect_identical(s7c->sw, s7b->sw));
    assert_true(variants_expect_identical(s7c->sw, variants_find("stage7a")->sw));
    /* on a GPU, wgmma's FP8 accumulation is not mma.sync's: bounded there, identical on the emulator */
    const sdpa_switches_t s7a = variants_find("stage7a")->sw, s6 = variants_find("stage6")->sw;
    assert_true(variants_expect_identical_on(s7c->sw, s7b->sw, true));
    assert_false(variants_expect_identical_on(s7c->sw, s7b->sw, false));
    assert_false(variants_expect_identical_on(s7b->sw, s7a, false));
    assert_true(variants_expect_identical_on(s7a, s6, false)); /* TMA: the same mma.sync either way */
    assert_true(variants_expect_identical_on(s7a, s6, true));
}

/* stage7d (WG_SPEC): one switch from stage7c, LOAD: each row's arithmetic is 7c's, so bit-identical to
 * stage7c on the emulator and on a GPU (the same wgmma instructions on the same operands); sm_90a
 * only (setmaxnreg). */
static void test_stage7d_rules(void **state) {
    (void)state;
    const variant_info_t *s7d = variants_find("stage7d"), *s7c = variants_find("stage7c");
    assert_non_null(s7d);
    assert_string_equal(s7d->parent, "stage7c");
    assert_int_equal(s7d->sw, s7c->sw | SDPA_SW(WG_SPEC));
    assert_int_equal(variants_min_sm(s7d->sw), 90);
    assert_int_equal(variants_exact_sm(s7d->sw), 90);
    assert_true(variants_expect_identical(s7d->sw, s7c->sw));
    assert_true(variants_expect_identical_on(s7d->sw, s7c->sw, true));
    assert_true(variants_expect_identical_on(s7d->sw, s7c->sw, false));
    /* against 7a it differs by LAYOUT and LOAD switches: "bounded" by the one-class rule (the chain
     * 7a = 7b = 7c = 7d is checked pair by pair) */
    assert_false(variants_expect_identical(s7d->sw, variants_find("stage7a")->sw));
}

/* stage7e (KEYS128): one switch from stage7d, ARITH (another running maximum per tile, other codes):
 * never expected identical to stage7d, on the emulator or a GPU, but bounded by the FP8-P bars (its
 * geometry: 128 keys per tile, the mirror's tile); sm_90a only. */
static void test_stage7e_rules(void **state) {
    (void)state;
    const variant_info_t *s7e = variants_find("stage7e"), *s7d = variants_find("stage7d");
    assert_non_null(s7e);
    assert_string_equal(s7e->parent, "stage7d");
    assert_int_equal(s7e->sw, s7d->sw | SDPA_SW(KEYS128));
    assert_int_equal(variants_min_sm(s7e->sw), 90);
    assert_int_equal(variants_exact_sm(s7e->sw), 90);
    assert_false(variants_expect_identical(s7e->sw, s7d->sw));
    assert_false(variants_expect_identical_on(s7e->sw, s7d->sw, true));
    assert_false(variants_expect_identical_on(s7e->sw, s7d->sw, false));
    assert_int_equal(SDPA_TILE_N_OF(s7e->sw), 128);
    assert_int_equal(SDPA_TILE_N_OF(s7d->sw), 32);
    assert_int_equal(SDPA_TILE_M_OF(s7e->sw), SDPA_TILE_M_OF(s7d->sw));
    assert_int_equal(SDPA_WARPS_OF(s7e->sw), SDPA_WARPS_OF(s7d->sw));
}

/* stage7f (WG_OVERLAP): one switch from stage7e, LOAD: the same operations on the same operands, only
 * issued in another order: bit-identical to stage7e on the emulator and on a GPU (the same wgmma
 * instructions); sm_90a only; stage 7e's geometry. */
static void test_stage7f_rules(void **state) {
    (void)state;
    const variant_info_t *s7f = variants_find("stage7f"), *s7e = variants_find("stage7e");
    assert_non_null(s7f);
    assert_string_equal(s7f->parent, "stage7e");
    assert_int_equal(s7f->sw, s7e->sw | SDPA_SW(WG_OVERLAP));
    assert_int_equal(variants_exact_sm(s7f->sw), 90);
    assert_true(variants_expect_identical(s7f->sw, s7e->sw));
    assert_true(variants_expect_identical_on(s7f->sw, s7e->sw, true));
    assert_true(variants_expect_identical_on(s7f->sw, s7e->sw, false));
    assert_false(variants_expect_identical(s7f->sw, variants_find("stage7d")->sw)); /* 7e's ARITH */
    assert_int_equal(SDPA_TILE_N_OF(s7f->sw), 128);
    assert_int_equal(SDPA_WARPS_OF(s7f->sw), SDPA_WARPS_OF(s7e->sw));
}

/* stage7h (FTZ_EXP): one switch from stage7f, of the class FLUSH (paper/methods.md#prereg-stage7h):
 * it changes only weights that become e4m3 code 0 either way, so it is bit-identical to stage7f on
 * the emulator and on a GPU (not an instruction switch); a portable switch, sm_90a through its parent;
 * stage 7f's geometry. FLUSH with another class is not one class: no claim, as for LOAD and LAYOUT. */
static void test_stage7h_rules(void **state) {
    (void)state;
    const variant_info_t *s7h = variants_find("stage7h"), *s7f = variants_find("stage7f");
    assert_non_null(s7h);
    assert_string_equal(s7h->parent, "stage7f");
    assert_int_equal(s7h->sw, s7f->sw | SDPA_SW(FTZ_EXP));
    assert_int_equal(variants_switch_info[SDPA_SWBIT_FTZ_EXP].cls, SDPA_SWCLASS_FLUSH);
    assert_int_equal(variants_switch_info[SDPA_SWBIT_FTZ_EXP].min_sm, 0);
    assert_int_equal(variants_exact_sm(s7h->sw), 90);
    assert_true(variants_expect_identical(s7h->sw, s7f->sw));
    assert_true(variants_expect_identical_on(s7h->sw, s7f->sw, true));
    assert_true(variants_expect_identical_on(s7h->sw, s7f->sw, false));
    assert_false(variants_expect_identical(s7h->sw, variants_find("stage7e")->sw)); /* FLUSH + LOAD */
    const sdpa_switches_t s6 = variants_find("stage6")->sw;
    assert_true(variants_expect_identical(s6, s6 | SDPA_SW(FTZ_EXP)));
    assert_false(variants_expect_identical(s6, s6 | SDPA_SW(FTZ_EXP) | SDPA_SW(ROWS64))); /* FLUSH + LAYOUT */
    assert_int_equal(SDPA_TILE_N_OF(s7h->sw), SDPA_TILE_N_OF(s7f->sw));
    assert_int_equal(SDPA_TILE_M_OF(s7h->sw), SDPA_TILE_M_OF(s7f->sw));
    assert_int_equal(SDPA_WARPS_OF(s7h->sw), SDPA_WARPS_OF(s7f->sw));
}

/* stage7i (MASK_EDGE): one switch from stage7h, of the class LOAD (paper/methods.md#prereg-stage7i):
 * on a tile every row sees whole the key test would pass for every score, so it is bit-identical to
 * stage7h on the emulator and on a GPU (not an instruction switch); a portable switch, sm_90a through
 * its parent; stage 7h's geometry. Against stage 7f (FLUSH + LOAD) no claim, as for any two classes. */
static void test_stage7i_rules(void **state) {
    (void)state;
    const variant_info_t *s7i = variants_find("stage7i"), *s7h = variants_find("stage7h");
    assert_non_null(s7i);
    assert_string_equal(s7i->parent, "stage7h");
    assert_int_equal(s7i->sw, s7h->sw | SDPA_SW(MASK_EDGE));
    assert_int_equal(variants_switch_info[SDPA_SWBIT_MASK_EDGE].cls, SDPA_SWCLASS_LOAD);
    assert_int_equal(variants_switch_info[SDPA_SWBIT_MASK_EDGE].min_sm, 0);
    assert_int_equal(variants_exact_sm(s7i->sw), 90);
    assert_true(variants_expect_identical(s7i->sw, s7h->sw));
    assert_true(variants_expect_identical_on(s7i->sw, s7h->sw, true));
    assert_true(variants_expect_identical_on(s7i->sw, s7h->sw, false));
    assert_false(variants_expect_identical(s7i->sw, variants_find("stage7f")->sw)); /* LOAD + FLUSH */
    assert_int_equal(SDPA_TILE_N_OF(s7i->sw), SDPA_TILE_N_OF(s7h->sw));
    assert_int_equal(SDPA_TILE_M_OF(s7i->sw), SDPA_TILE_M_OF(s7h->sw));
    assert_int_equal(SDPA_WARPS_OF(s7i->sw), SDPA_WARPS_OF(s7h->sw));
}

/* A Hopper step of one LOAD switch (bit) from its parent, as stages 7j to 7m are: bit-identical
 * to the parent on the emulator and on a GPU, and to stage7h (only LOAD switches between them), not
 * to stage7f (7h's FLUSH between); sm_90a through its parent's switches; the parent's geometry. */
static void assert_load_step(const char *id, const char *parent, int bit) {
    const variant_info_t *v = variants_find(id), *p = variants_find(parent);
    assert_non_null(v);
    assert_non_null(p);
    assert_string_equal(v->parent, parent);
    assert_int_equal(v->sw, p->sw | (1u << bit));
    assert_int_equal(variants_switch_info[bit].cls, SDPA_SWCLASS_LOAD);
    assert_int_equal(variants_switch_info[bit].min_sm, 90);
    assert_int_equal(variants_exact_sm(v->sw), 90);
    assert_true(variants_expect_identical(v->sw, p->sw));
    assert_true(variants_expect_identical_on(v->sw, p->sw, true));
    assert_true(variants_expect_identical_on(v->sw, p->sw, false));
    assert_true(variants_expect_identical_on(v->sw, variants_find("stage7h")->sw, false)); /* LOADs */
    assert_false(variants_expect_identical(v->sw, variants_find("stage7f")->sw));          /* LOAD + FLUSH */
    assert_int_equal(SDPA_TILE_N_OF(v->sw), SDPA_TILE_N_OF(p->sw));
    assert_int_equal(SDPA_TILE_M_OF(v->sw), SDPA_TILE_M_OF(p->sw));
    assert_int_equal(SDPA_WARPS_OF(v->sw), SDPA_WARPS_OF(p->sw));
}

/* stage7j (WG_PINGPONG): one switch from stage7i, of the class LOAD (paper/methods.md#prereg-stage7j):
 * each consumer warpgroup computes its own rows with stage 7i's operations, only the order in which
 * the two issue them changes, so it is bit-identical to stage7i on the emulator and on a GPU (not an
 * instruction switch); an sm_90a switch (it orders wgmma issue; MIN_SM 90); stage 7i's geometry. */
static void test_stage7j_rules(void **state) {
    (void)state;
    assert_load_step("stage7j", "stage7i", SDPA_SWBIT_WG_PINGPONG);
    assert_int_equal(variants_switch_info[SDPA_SWBIT_WG_PINGPONG].exact_sm, SDPA_SWARCH_SM90A);
}

/* stage7k (VT_LDSM): one switch from stage7j, of the class LOAD (paper/methods.md#prereg-stage7k): the
 * producers put the same V^T bytes in the same places with other instructions (ldmatrix.trans, byte
 * permutes, stmatrix); an sm_90a switch (stmatrix and the 7e layout it writes; MIN_SM 90). */
static void test_stage7k_rules(void **state) {
    (void)state;
    assert_load_step("stage7k", "stage7j", SDPA_SWBIT_VT_LDSM);
    assert_int_equal(variants_switch_info[SDPA_SWBIT_VT_LDSM].exact_sm, SDPA_SWARCH_SM90A);
}

/* stage7l (WARP_RELEASE): one switch from stage7k, of the class LOAD (paper/methods.md#prereg-stage7l):
 * the TMA ring's slots are released by one arrival per warp after the same reads; a portable switch
 * (an mbarrier arrival and __syncwarp) that needs the TMA ring (MIN_SM 90), sm_90a through 7k's. */
static void test_stage7l_rules(void **state) {
    (void)state;
    assert_load_step("stage7l", "stage7k", SDPA_SWBIT_WARP_RELEASE);
    assert_int_equal(variants_switch_info[SDPA_SWBIT_WARP_RELEASE].exact_sm, SDPA_SWARCH_ANY);
}

/* stage7m (CAUSAL_LPT): one switch from stage7l, of the class LOAD (paper/methods.md#prereg-stage7m):
 * the causal D = 64 CTAs take their tiles in another order, each computed as before; a portable switch
 * (a grid and its reading) for the TMA rows' launcher (MIN_SM 90), sm_90a through 7l's. */
static void test_stage7m_rules(void **state) {
    (void)state;
    assert_load_step("stage7m", "stage7l", SDPA_SWBIT_CAUSAL_LPT);
    assert_int_equal(variants_switch_info[SDPA_SWBIT_CAUSAL_LPT].exact_sm, SDPA_SWARCH_ANY);
}

/* The ARCH column (kernels/switches.h): a portable switch runs from its MIN_SM on; an sm_90a one
 * (wgmma with FP8, setmaxnreg) only on compute capability 9.0. The rule on test-only rows as the
 * X-macro would give them, then the registry: WGMMA_QK, WGMMA_PV, WG_SPEC, KEYS128, WG_OVERLAP,
 * WG_PINGPONG and VT_LDSM are the sm_90a switches, and
 * exactly the rows that have one need sm_90a. */
static void test_arch_column(void **state) {
    (void)state;
    static const struct {
        int min_sm, exact_sm, cc;
        const char *want; /* NULL: supported */
    } rows[] = {
        {89, 0, 80, "needs sm_89 or newer; the device is sm_80"},
        {89, 0, 89, NULL},
        {89, 0, 90, NULL},
        {89, 0, 100, NULL},
        {90, SDPA_SWARCH_SM90A, 80, "architecture-specific sm_90a code; the device is sm_80"},
        {90, SDPA_SWARCH_SM90A, 89, "architecture-specific sm_90a code; the device is sm_89"},
        {90, SDPA_SWARCH_SM90A, 90, NULL},
        {90, SDPA_SWARCH_SM90A, 100, "architecture-specific sm_90a code; the device is sm_100"},
        {90, SDPA_SWARCH_SM90A, 120, "architecture-specific sm_90a code; the device is sm_120"},
    };
    assert_int_equal(SDPA_SWARCH_SM90A, 90);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char why[160];
        const char *got =
            variants_arch_unsupported(rows[i].min_sm, rows[i].exact_sm, rows[i].cc, why, sizeof why);
        if (!rows[i].want)
            assert_null(got);
        else {
            assert_non_null(got);
            assert_non_null(strstr(got, rows[i].want));
        }
    }
    for (int i = 0; i < SDPA_SWITCH_COUNT; i++)
        assert_int_equal(variants_switch_info[i].exact_sm,
                         i == SDPA_SWBIT_WGMMA_QK || i == SDPA_SWBIT_WGMMA_PV || i == SDPA_SWBIT_WG_SPEC ||
                                 i == SDPA_SWBIT_KEYS128 || i == SDPA_SWBIT_WG_OVERLAP ||
                                 i == SDPA_SWBIT_WG_PINGPONG || i == SDPA_SWBIT_VT_LDSM
                             ? SDPA_SWARCH_SM90A
                             : SDPA_SWARCH_ANY);
    for (size_t i = 0; i < variants_registry_count; i++)
        assert_int_equal(variants_exact_sm(variants_registry[i].sw),
                         (variants_registry[i].sw &
                          (SDPA_SW(WGMMA_QK) | SDPA_SW(WGMMA_PV) | SDPA_SW(WG_SPEC) | SDPA_SW(KEYS128) |
                           SDPA_SW(WG_OVERLAP) | SDPA_SW(WG_PINGPONG) | SDPA_SW(VT_LDSM)))
                             ? 90
                             : 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry_rows),         cmocka_unit_test(test_one_switch_per_stage),
        cmocka_unit_test(test_expect_identical_rule), cmocka_unit_test(test_table_lookup_and_check),
        cmocka_unit_test(test_switches_str),          cmocka_unit_test(test_stage6_rules),
        cmocka_unit_test(test_stage7a_rules),         cmocka_unit_test(test_stage7b_rules),
        cmocka_unit_test(test_stage7c_rules),         cmocka_unit_test(test_stage7d_rules),
        cmocka_unit_test(test_stage7e_rules),         cmocka_unit_test(test_stage7f_rules),
        cmocka_unit_test(test_stage7h_rules),         cmocka_unit_test(test_stage7i_rules),
        cmocka_unit_test(test_stage7j_rules),         cmocka_unit_test(test_stage7k_rules),
        cmocka_unit_test(test_stage7l_rules),         cmocka_unit_test(test_stage7m_rules),
        cmocka_unit_test(test_arch_column),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
