// Bit-exactness of host/lib/fp8.c and host/lib/half.c against the CUDA toolkit's own host conversions
// (cuda_fp8.h: __nv_cvt_float_to_fp8, __nv_cvt_fp8_to_halfraw; cuda_fp16.h: __float2half_rn,
// __half2float). Both headers compile as plain host C++, so no GPU and no nvcc are needed.
// Every comparison is on bits (NaN payloads and signs included); one differing bit fails its
// check. Output is TAP, one line per check, with the first few mismatches as diagnostics.
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <vector>

extern "C" {
#include "fp8.h"
#include "half.h"
#include "rng.h"
}

namespace {

int g_test = 0, g_failed = 0;
const long kRandom = 2000000; // random inputs per check

uint32_t bits_of(float x) {
    uint32_t b;
    std::memcpy(&b, &x, sizeof b);
    return b;
}
float float_of(uint32_t b) {
    float x;
    std::memcpy(&x, &b, sizeof x);
    return x;
}

void report(bool ok, const char *name) {
    ++g_test;
    if (!ok) ++g_failed;
    std::printf("%s %d - %s\n", ok ? "ok" : "not ok", g_test, name);
}

const fp8_format_t kFormats[2] = {FP8_E4M3, FP8_E5M2};
const fp8_saturation_t kSats[2] = {FP8_NOSAT, FP8_SATFINITE};
const char *fmt_name(fp8_format_t f) { return f == FP8_E4M3 ? "e4m3" : "e5m2"; }
const char *sat_name(fp8_saturation_t s) { return s == FP8_SATFINITE ? "satfinite" : "nosat"; }
__nv_fp8_interpretation_t cuda_fmt(fp8_format_t f) { return f == FP8_E4M3 ? __NV_E4M3 : __NV_E5M2; }
__nv_saturation_t cuda_sat(fp8_saturation_t s) { return s == FP8_SATFINITE ? __NV_SATFINITE : __NV_NOSAT; }

uint8_t cuda_encode(float x, fp8_format_t f, fp8_saturation_t s) {
    return (uint8_t)__nv_cvt_float_to_fp8(x, cuda_sat(s), cuda_fmt(f));
}
uint16_t cuda_decode(uint8_t c, fp8_format_t f) {
    return __nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)c, cuda_fmt(f)).x;
}
uint16_t cuda_f2h(float x) {
    __half_raw r = __float2half_rn(x);
    return r.x;
}
float cuda_h2f(uint16_t h) {
    __half_raw r;
    r.x = h;
    return __half2float(__half(r));
}

// Runs every input through ours and CUDA's encoder for all formats and saturation modes: one TAP
// line per (format, mode).
void check_encode(const char *what, const std::vector<float> &xs) {
    for (fp8_format_t f : kFormats) {
        for (fp8_saturation_t s : kSats) {
            long bad = 0;
            for (float x : xs) {
                uint8_t ours = fp8_from_float(x, f, s), theirs = cuda_encode(x, f, s);
                if (ours != theirs && ++bad <= 5)
                    std::printf("# %s %s: x=%a (0x%08x): ours 0x%02x, cuda 0x%02x\n", fmt_name(f),
                                sat_name(s), (double)x, bits_of(x), ours, theirs);
            }
            char name[160];
            std::snprintf(name, sizeof name,
                          "encode %s vs __nv_cvt_float_to_fp8 (%s, %s): %zu inputs, %ld differ", what,
                          fmt_name(f), sat_name(s), xs.size(), bad);
            report(bad == 0, name);
        }
    }
}

void check_decode() {
    for (fp8_format_t f : kFormats) {
        long bad = 0;
        for (int c = 0; c < 256; c++) {
            uint16_t ours = fp8_to_half_bits((uint8_t)c, f), theirs = cuda_decode((uint8_t)c, f);
            uint32_t of = bits_of(fp8_to_float((uint8_t)c, f)), tf = bits_of(cuda_h2f(theirs));
            if ((ours != theirs || of != tf) && ++bad <= 5)
                std::printf("# %s code 0x%02x: ours half 0x%04x float 0x%08x, cuda 0x%04x / 0x%08x\n",
                            fmt_name(f), c, ours, of, theirs, tf);
        }
        char name[128];
        std::snprintf(name, sizeof name, "decode all 256 %s codes vs __nv_cvt_fp8_to_halfraw", fmt_name(f));
        report(bad == 0, name);
    }
}

// Finite values of the positive codes in increasing order (0x00 .. largest finite).
std::vector<float> positive_values(fp8_format_t f) {
    std::vector<float> v;
    int last = f == FP8_E4M3 ? 0x7e : 0x7b;
    for (int c = 0; c <= last; c++) v.push_back(half_to_float(cuda_decode((uint8_t)c, f)));
    return v;
}

void push_signed_neighbours(std::vector<float> &xs, float x) {
    for (float s : {1.0f, -1.0f}) {
        xs.push_back(s * x);
        xs.push_back(s * std::nextafterf(x, 0.0f));
        xs.push_back(s * std::nextafterf(x, INFINITY));
    }
}

// Every code value, every midpoint between adjacent codes (subnormal ties and the tie between 0
// and the smallest subnormal included), the midpoint above the largest finite value (max plus
// half a step), each with both signs and one float ulp either side.
std::vector<float> code_and_tie_inputs() {
    std::vector<float> xs;
    for (fp8_format_t f : kFormats) {
        std::vector<float> v = positive_values(f);
        for (size_t i = 0; i < v.size(); i++) {
            push_signed_neighbours(xs, v[i]);
            if (i + 1 < v.size()) push_signed_neighbours(xs, (v[i] + v[i + 1]) / 2); // exact: <= 5 bits
        }
        float top = v.back(), step = v.back() - v[v.size() - 2];
        push_signed_neighbours(xs, top + step / 2);
        push_signed_neighbours(xs, top + step);
    }
    return xs;
}

std::vector<float> special_inputs() {
    std::vector<float> xs = {0.0f,      -0.0f,     INFINITY,      -INFINITY,      NAN,      -NAN,
                             448.0f,    464.0f,    480.0f,        57344.0f,       61440.0f, 65536.0f,
                             1e30f,     -1e30f,    3.4028235e38f, -3.4028235e38f, 0x1p-9f,  0x1p-10f,
                             0x1p-6f,   0x1p-7f,   0x1p-16f,      0x1p-17f,       0x1p-14f, 0x1p-15f,
                             0x1p-126f, 0x1p-149f, -0x1p-149f,    1e-30f,         -1e-30f};
    // NaN payloads of both signs, signalling and quiet.
    for (uint32_t b :
         {0x7f800001u, 0x7fc00000u, 0x7fffffffu, 0xff800001u, 0xffc00000u, 0xffffffffu, 0x7fa5a5a5u})
        xs.push_back(float_of(b));
    return xs;
}

std::vector<float> random_bits(uint64_t stream) {
    rng_t r;
    rng_seed(&r, 8, stream);
    std::vector<float> xs(kRandom);
    for (float &x : xs) x = float_of((uint32_t)(rng_next_u64(&r) >> 32));
    return xs;
}

// Random values in (and a little beyond) a format's range: a uniform exponent from well below the
// smallest subnormal to above the largest value, a uniform significand and a random sign.
std::vector<float> random_values(double lo_exp, double hi_exp, uint64_t stream) {
    rng_t r;
    rng_seed(&r, 9, stream);
    std::vector<float> xs(kRandom);
    for (float &x : xs) {
        double e = std::floor(rng_uniform(&r, lo_exp, hi_exp));
        double m = rng_uniform(&r, 1.0, 2.0);
        x = (float)std::ldexp(m, (int)e) * (rng_uniform01(&r) < 0.5 ? -1.0f : 1.0f);
    }
    return xs;
}

void check_half() {
    long bad = 0;
    for (uint32_t h = 0; h < 65536; h++) {
        uint32_t ours = bits_of(half_to_float((uint16_t)h)), theirs = bits_of(cuda_h2f((uint16_t)h));
        if (ours != theirs && ++bad <= 5)
            std::printf("# half 0x%04x: ours 0x%08x, cuda 0x%08x\n", h, ours, theirs);
    }
    report(bad == 0, "half_to_float vs __half2float on all 65536 halves");

    std::vector<float> xs;
    for (uint32_t h = 0; h < 0x7c00; h++) { // every finite half, midpoints, one ulp either side
        float a = half_to_float((uint16_t)h), b = half_to_float((uint16_t)(h + 1));
        push_signed_neighbours(xs, a);
        push_signed_neighbours(xs, (float)(((double)a + (double)b) / 2)); // exact: 12 bits
    }
    for (float x : special_inputs()) xs.push_back(x);
    for (float x : random_bits(3)) xs.push_back(x);
    for (float x : random_values(-30, 17, 4)) xs.push_back(x);
    bad = 0;
    for (float x : xs) {
        uint16_t ours = half_from_float(x), theirs = cuda_f2h(x);
        if (ours != theirs && ++bad <= 5)
            std::printf("# x=%a (0x%08x): ours 0x%04x, cuda 0x%04x\n", (double)x, bits_of(x), ours, theirs);
    }
    char name[160];
    std::snprintf(
        name, sizeof name,
        "half_from_float vs __float2half_rn: halves, ties, specials, random (%zu inputs, %ld differ)",
        xs.size(), bad);
    report(bad == 0, name);
}

} // namespace

int main() {
    check_decode();
    check_encode("codes and ties", code_and_tie_inputs());
    check_encode("specials", special_inputs());
    check_encode("random bit patterns", random_bits(1));
    check_encode("random values in range", random_values(-20, 17, 2));
    check_half();
    std::printf("1..%d\n", g_test);
    return g_failed ? 1 : 0;
}
