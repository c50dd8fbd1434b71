/* The speed-of-light model (host/bench/roofline.h): the known devices' peaks, the MUFU's exponential
 * rate, the format each variant's products run at per architecture, and the floor with the term
 * that sets it, at the shapes the study's gates use. Expected values are worked out by hand from
 * the datasheet figures (in the comments), not taken from the code. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bench/roofline.h"
#include "bench/variants.h"

#define assert_near(x, want) assert_true(fabs((x) - (want)) <= 1e-9 * fabs(want))

static void test_known_peaks(void **state) {
    (void)state;
    assert_near(roof_fp16_peak_tflops("NVIDIA H100 80GB HBM3"), 989.0);
    assert_near(roof_fp8_peak_tflops("NVIDIA H100 80GB HBM3"), 1979.0);
    assert_near(roof_fp8_peak_tflops("NVIDIA H200"), 1979.0);
    assert_near(roof_fp16_peak_tflops("NVIDIA L4"), 121.0);
    assert_near(roof_fp8_peak_tflops("NVIDIA L4"), 242.5);
    /* Datasheets' sparse figures halved: H100 PCIe 1513 / 3026, L40S 733 / 1466, A100 624 and no FP8. */
    assert_near(roof_fp16_peak_tflops("NVIDIA H100 PCIe"), 756.5);
    assert_near(roof_fp8_peak_tflops("NVIDIA H100 PCIe"), 1513.0);
    assert_near(roof_fp8_peak_tflops("NVIDIA L40S"), 733.0);
    assert_near(roof_fp16_peak_tflops("NVIDIA A100-SXM4-80GB"), 312.0);
    assert_near(roof_fp16_peak_tflops("NVIDIA A100 80GB PCIe"), 312.0);
    assert_true(isnan(roof_fp8_peak_tflops("NVIDIA A100-SXM4-40GB")));
    /* Similar names are other boards with other peaks; a MIG instance is a share of the chip. */
    assert_true(isnan(roof_fp8_peak_tflops("NVIDIA H100 NVL")));
    assert_true(isnan(roof_fp16_peak_tflops("NVIDIA L40")));
    assert_true(isnan(roof_fp8_peak_tflops("NVIDIA H200 NVL")));
    assert_true(isnan(roof_fp16_peak_tflops("NVIDIA H100 80GB HBM3 MIG 1g.10gb")));
    assert_true(isnan(roof_fp16_peak_tflops(NULL)));
}

static void test_exp2_rate(void **state) {
    (void)state;
    /* H100 SXM5: 16 x 132 SMs x 1980 MHz = 4.18176e12 per second (FlashAttention-3 quotes ~3.9 T/s
     * at 1830 MHz: 16 x 132 x 1.83e9 = 3.86e12). */
    assert_near(roof_exp2_tps(90, 132, 1980.0), 4.18176);
    assert_near(roof_exp2_tps(89, 58, 2040.0), 16.0 * 58 * 2040e6 / 1e12);
    assert_near(roof_exp2_tps(80, 108, 1410.0), 16.0 * 108 * 1410e6 / 1e12);
    assert_true(isnan(roof_exp2_tps(75, 40, 1590.0)));   /* outside the table's 8.0-9.0 */
    assert_true(isnan(roof_exp2_tps(100, 148, 1965.0))); /* not known here */
    assert_true(isnan(roof_exp2_tps(90, 132, NAN)));
    assert_true(isnan(roof_exp2_tps(90, 0, 1980.0)));
}

static roof_products_t of(const char *variant, int cc) {
    const variant_info_t *v = variants_find(variant);
    assert_non_null(v);
    return roof_products(v->sw, cc);
}

#define assert_fmt(p, q, v) (assert_int_equal((p).qk, (q)), assert_int_equal((p).pv, (v)))

static void test_product_formats(void **state) {
    (void)state;
    assert_fmt(of("stage2", 89), ROOF_FMT_FP16, ROOF_FMT_FP16);
    assert_fmt(of("stage5", 90), ROOF_FMT_FP16, ROOF_FMT_FP16);
    assert_fmt(of("stage6", 89), ROOF_FMT_FP8, ROOF_FMT_FP8);   /* QMMA on Ada */
    assert_fmt(of("stage6", 90), ROOF_FMT_FP16, ROOF_FMT_FP16); /* HMMA on Hopper */
    assert_fmt(of("stage6", 100), ROOF_FMT_UNKNOWN, ROOF_FMT_UNKNOWN);
    assert_fmt(of("stage7a", 90), ROOF_FMT_FP16, ROOF_FMT_FP16); /* still mma.sync */
    assert_fmt(of("stage7b", 90), ROOF_FMT_FP8, ROOF_FMT_FP16);  /* wgmma Q.K^T only */
    assert_fmt(of("stage7c", 90), ROOF_FMT_FP8, ROOF_FMT_FP8);
    assert_fmt(of("stage7f", 90), ROOF_FMT_FP8, ROOF_FMT_FP8);
    assert_fmt(roof_products(0, 90), ROOF_FMT_FP16, ROOF_FMT_FP16); /* a peer */
    assert_string_equal(roof_fmt_name(ROOF_FMT_FP8), "fp8");
    assert_string_equal(roof_fmt_name(ROOF_FMT_FP16), "fp16");
    assert_null(roof_fmt_name(ROOF_FMT_UNKNOWN));
}

/* An H100 80GB HBM3 as the first campaigns recorded it: 3352.32 GB/s, 132 SMs at 1980 MHz. */
static backend_device_t h100(void) {
    backend_device_t d;
    memset(&d, 0, sizeof d);
    d.peak_dram_gbs = 3352.32;
    d.peak_fp16_tensor_tflops = 989.0;
    d.peak_fp8_tensor_tflops = 1979.0;
    d.peak_exp2_tps = 4.18176;
    return d;
}

/* Stage 7f's gate shape (2, 32, 8192, 64): 1.0995e12 FLOPs, 4.295e9 exponentials, 167.8 MB. With
 * FP8 products the tensor term (556 us) is half the exponentials' (1027 us): D = 64 FP8 attention is
 * held to the MUFU, ~1.07 PFLOP/s. With fp16 products (stage 6 on sm_90) the tensor term rules. */
static void test_floor_gate_shape_d64(void **state) {
    (void)state;
    const backend_device_t d = h100();
    const sdpa_shape_t s = {2, 32, 8192, 64, 0};
    const double flops = 4.0 * 2 * 32 * 8192.0 * 8192 * 64, exps = 2.0 * 32 * 8192 * 8192;
    const double bytes = 5.0 * 2 * 32 * 8192 * 64;
    roof_t r = roof_floor(s, &d, of("stage7f", 90));
    assert_near(r.dram_us, bytes / 3352.32e3);
    assert_near(r.tensor_us, flops / 1979e6);
    assert_near(r.exp2_us, exps / 4.18176e6);
    assert_near(r.floor_us, exps / 4.18176e6);
    assert_string_equal(r.bound, "exp2");
    assert_true(r.floor_us > 1000 && r.floor_us < 1100); /* 1027 us */

    r = roof_floor(s, &d, of("stage6", 90));
    assert_near(r.tensor_us, flops / 989e6); /* 1112 us */
    assert_string_equal(r.bound, "tensor");

    r = roof_floor(s, &d, of("stage7b", 90)); /* half at each rate: 278 + 556 us, under exp2 */
    assert_near(r.tensor_us, flops / 2 / 1979e6 + flops / 2 / 989e6);
    assert_string_equal(r.bound, "exp2");
}

/* Stage 7f-d128's shape (2, 16, 8192, 128): the same FLOPs, half the exponentials: the tensor term
 * (556 us) rules over the MUFU (514 us). The fp16-only floor (1112 us) would have let an FP8
 * kernel at 1 PFLOP/s read 101 % of the speed of light. */
static void test_floor_gate_shape_d128(void **state) {
    (void)state;
    const backend_device_t d = h100();
    const sdpa_shape_t s = {2, 16, 8192, 128, 0};
    const roof_t r = roof_floor(s, &d, of("stage7f", 90));
    assert_string_equal(r.bound, "tensor");
    assert_near(r.floor_us, 4.0 * 2 * 16 * 8192.0 * 8192 * 128 / 1979e6);
    assert_near(r.exp2_us, 2.0 * 16 * 8192 * 8192 / 4.18176e6);
    const double at_1pflops_us = 4.0 * 2 * 16 * 8192.0 * 8192 * 128 / 1e6 / 1000.0;
    assert_true(at_1pflops_us > r.floor_us);
}

/* A causal mask halves the FLOPs and the exponentials, not the bytes. */
static void test_floor_causal(void **state) {
    (void)state;
    const backend_device_t d = h100();
    const sdpa_shape_t full = {2, 32, 8192, 64, 0}, half = {2, 32, 8192, 64, 1};
    const roof_t a = roof_floor(full, &d, of("stage7f", 90)), b = roof_floor(half, &d, of("stage7f", 90));
    assert_near(b.tensor_us * 2, a.tensor_us);
    assert_near(b.exp2_us * 2, a.exp2_us);
    assert_near(b.dram_us, a.dram_us);
    assert_int_equal(bench_exps(half) * 2, bench_exps(full));
}

/* The L4 at the original's mission shape (1, 8, 512, 64): 1.31 MB at 300 GB/s (4.37 us) outlasts
 * stage 6's FP8 products (2.21 us) and the exponentials (1.11 us). */
static void test_floor_l4_mission(void **state) {
    (void)state;
    backend_device_t d;
    memset(&d, 0, sizeof d);
    d.peak_dram_gbs = 300.0;
    d.peak_fp16_tensor_tflops = 121.0;
    d.peak_fp8_tensor_tflops = 242.5;
    d.peak_exp2_tps = roof_exp2_tps(89, 58, 2040.0);
    const sdpa_shape_t s = {1, 8, 512, 64, 0};
    const roof_t r = roof_floor(s, &d, of("stage6", 89));
    assert_near(r.tensor_us, 4.0 * 8 * 512 * 512 * 64 / 242.5e6);
    assert_near(r.floor_us, 5.0 * 8 * 512 * 64 / 300e3);
    assert_string_equal(r.bound, "dram");
}

/* What is unknown stays out: an unknown peak leaves its term NaN and the floor to the others; no
 * known term, no floor; no device (the emulator), nothing. */
static void test_floor_unknowns(void **state) {
    (void)state;
    const sdpa_shape_t s = {2, 32, 8192, 64, 0};
    backend_device_t d = h100();
    d.peak_fp16_tensor_tflops = d.peak_fp8_tensor_tflops = d.peak_exp2_tps = NAN;
    roof_t r = roof_floor(s, &d, of("stage7f", 90));
    assert_true(isnan(r.tensor_us) && isnan(r.exp2_us));
    assert_string_equal(r.bound, "dram");
    assert_near(r.floor_us, r.dram_us);

    d = h100();
    r = roof_floor(s, &d, of("stage6", 100)); /* unknown format: no tensor term, exp2 rules */
    assert_true(isnan(r.tensor_us));
    assert_string_equal(r.bound, "exp2");

    d.peak_dram_gbs = NAN;
    d.peak_exp2_tps = NAN;
    r = roof_floor(s, &d, of("stage6", 100));
    assert_true(isnan(r.floor_us));
    assert_null(r.bound);

    r = roof_floor(s, NULL, of("stage7f", 90));
    assert_true(isnan(r.floor_us) && isnan(r.dram_us) && isnan(r.tensor_us) && isnan(r.exp2_us));
    assert_null(r.bound);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_peaks),           cmocka_unit_test(test_exp2_rate),
        cmocka_unit_test(test_product_formats),       cmocka_unit_test(test_floor_gate_shape_d64),
        cmocka_unit_test(test_floor_gate_shape_d128), cmocka_unit_test(test_floor_causal),
        cmocka_unit_test(test_floor_l4_mission),      cmocka_unit_test(test_floor_unknowns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
