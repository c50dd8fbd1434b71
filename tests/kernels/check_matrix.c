/* Turns an sdpa-bench run (kind sdpa-bench-run) into TAP lines, one per checked launch and per
 * cross-variant comparison, so that a failure names the variant, shape and seed.
 *   check_matrix RUN.json EXPECTED_CHECKS [E2E_MEAN_LO E2E_MEAN_HI]
 * EXPECTED_CHECKS: the number of (variant, shape, seed) entries the run must hold (a run that
 * silently checked less fails). With the optional range, every entry's end-to-end mean abs error
 * must lie in [LO, HI] (the original's published 0.013-0.018 for its seed-linear codec).
 * With CHECK_FP8P_VARIANTS set (space-separated ids: the registry's FP8_MMA rows), every entry must
 * record the bars it was judged by, fp8p for those variants and fp16 for every other. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_file.h"

static int n_tap, n_fail;

__attribute__((format(printf, 2, 3))) static void tap(int ok, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    printf("%s %d - ", ok ? "ok" : "not ok", ++n_tap);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    n_fail += !ok;
}

static const char *str(const cJSON *o, const char *k) {
    const cJSON *v = cJSON_GetObjectItem(o, k);
    return cJSON_IsString(v) ? v->valuestring : "?";
}
static double num(const cJSON *o, const char *path) {
    double v = 0.0 / 0.0;
    char err[256];
    json_get_num(o, path, &v, "", err, sizeof err);
    return v;
}
static int flag(const cJSON *o, const char *path) {
    bool v = false;
    char err[256];
    return json_get_bool(o, path, &v, "", err, sizeof err) == 0 && v;
}

int main(int argc, char **argv) {
    if (argc != 3 && argc != 5) {
        fprintf(stderr, "usage: check_matrix RUN.json EXPECTED_CHECKS [E2E_MEAN_LO E2E_MEAN_HI]\n");
        return 2;
    }
    char err[512];
    cJSON *run = results_load(argv[1], "sdpa-bench-run", err, sizeof err);
    if (!run) {
        printf("not ok 1 - load %s: %s\n1..1\n", argv[1], err);
        return 1;
    }
    const int expected = atoi(argv[2]);
    const int ranged = argc == 5;
    const double lo = ranged ? atof(argv[3]) : 0, hi = ranged ? atof(argv[4]) : 0;

    const cJSON *c, *checks = cJSON_GetObjectItem(run, "correctness");
    int n = 0;
    cJSON_ArrayForEach(c, checks) {
        tap(flag(c, "pass") && flag(c, "gates.kernel_only"),
            "%s %s seed %s: kernel-only gate (rel-L2 %.2e, max|err| %.2e, %.0f bad, all written %s, inputs "
            "unmodified %s)",
            str(c, "variant"), str(c, "shape"), str(c, "seed"), num(c, "kernel_only.rel_l2"),
            num(c, "kernel_only.max_abs"), num(c, "kernel_only.n_bad"), flag(c, "all_written") ? "yes" : "NO",
            flag(c, "inputs_unmodified") ? "yes" : "NO");
        if (ranged) {
            const double m = num(c, "end_to_end.mean_abs");
            tap(m >= lo && m <= hi, "%s %s seed %s: end-to-end mean abs %.4f in [%.3f, %.3f]",
                str(c, "variant"), str(c, "shape"), str(c, "seed"), m, lo, hi);
        }
        const char *fp8p = getenv("CHECK_FP8P_VARIANTS");
        if (fp8p) {
            char id[80];
            snprintf(id, sizeof id, " %s ", str(c, "variant"));
            char list[1024];
            snprintf(list, sizeof list, " %s ", fp8p);
            const char *want = strstr(list, id) ? "fp8p" : "fp16";
            tap(strcmp(str(c, "tol_family"), want) == 0, "%s %s seed %s: judged by the %s bars (expected %s)",
                str(c, "variant"), str(c, "shape"), str(c, "seed"), str(c, "tol_family"), want);
        }
        ++n;
    }
    tap(n == expected, "checked launches: %d (expected %d)", n, expected);

    const cJSON *x, *cross = cJSON_GetObjectItem(run, "cross_variant");
    cJSON_ArrayForEach(x, cross) {
        tap(flag(x, "pass"), "cross %s vs %s, %s seed %s: %s, %.0f differ, max %.0f ulp", str(x, "a"),
            str(x, "b"), str(x, "shape"), str(x, "seed"), str(x, "expected"), num(x, "n_diff"),
            num(x, "max_ulp"));
    }
    printf("1..%d\n", n_tap);
    cJSON_Delete(run);
    return n_fail ? 1 : 0;
}
