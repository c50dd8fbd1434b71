/* sdpa-bench's command line (host/bench/cli.c): defaults, every option, and every rejection, which must
 * return exit status 2 with a message naming the flag. The program-level behaviour (exit codes,
 * files left untouched) is tested again through the binary in tests/bench/cli.sh. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "bench/cli.h"
#include "bench/run_json.h"

#define MAX_ARGS 64

/* Parses a NULL-terminated list of arguments (argv[0] is added). */
static int parse(cli_opts_t *o, char *err, size_t errlen, const char *first, ...) {
    char *argv[MAX_ARGS] = {"sdpa-bench"};
    int argc = 1;
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a; a = va_arg(ap, const char *)) {
        if (argc == MAX_ARGS) fail_msg("parse: more than %d arguments", MAX_ARGS - 1);
        argv[argc++] = (char *)a;
    }
    va_end(ap);
    err[0] = '\0';
    return cli_parse(argc, argv, o, err, errlen);
}

/* Expects a rejection whose message contains every fragment given after the arguments' NULL. */
#define REJECT(frag, ...)                                                                                    \
    do {                                                                                                     \
        cli_opts_t o_;                                                                                       \
        char e_[1024];                                                                                       \
        assert_int_equal(parse(&o_, e_, sizeof e_, __VA_ARGS__, NULL), EXIT_USAGE);                          \
        if (!strstr(e_, frag)) fail_msg("message '%s' lacks '%s'", e_, frag);                                \
    } while (0)

static void test_defaults(void **state) {
    (void)state;
    cli_opts_t o;
    char err[512];
    assert_int_equal(parse(&o, err, sizeof err, NULL), 0);
    assert_int_equal(o.action, CLI_RUN);
    assert_int_equal(o.n_variants, 0);
    assert_null(o.baseline);
    assert_int_equal(o.n_shapes, 1);
    assert_string_equal(o.shapes[0].name, "mission");
    assert_int_equal(o.shapes[0].shape.S, 512);
    assert_int_equal(o.n_seeds, 3);
    assert_true(o.seeds[0] == 0 && o.seeds[1] == 1 && o.seeds[2] == 2);
    assert_int_equal(o.codec, SDPA_CODEC_E4M3);
    assert_int_equal(o.dist, DIST_NORMAL);
    assert_int_equal(o.backend, BACKEND_AUTO);
    assert_true(o.l2_cold);
    assert_int_equal(o.arm_order, BENCH_ARMS_ROTATED);
    assert_false(o.check_only || o.force || o.quiet || o.schedule_given);
    assert_int_equal(o.warmup, CLI_DEFAULT_WARMUP);
    assert_int_equal(o.iters, CLI_DEFAULT_ITERS);
    assert_true(o.min_time_s == CLI_DEFAULT_MIN_S && o.max_time_s == CLI_DEFAULT_MAX_S);
    assert_null(o.out);
    assert_null(o.dump);
    assert_null(o.ptxas);
    assert_true(isnan(o.throttle_threshold)); /* auto: resolved per device (host/bench/throttle.c) */
    assert_true(o.blocking_kernel);
    assert_int_equal(o.device, 0);
    assert_false(o.probe);
}

static void test_every_option(void **state) {
    (void)state;
    cli_opts_t o;
    char err[512];
    assert_int_equal(parse(&o, err, sizeof err, "--variant", "stage2", "--variant=stage3a", "--vs", "stage1",
                           "--shape", "small", "--shape", "2,4,100,64", "--seeds", "7,18446744073709551615",
                           "--codec", "seed-linear", "--dist", "outliers", "--backend", "emu", "--check-only",
                           "--warmup", "0", "--iters", "25", "--min-time", "0", "--max-time", "2.5", "--l2",
                           "warm", "--arm-order", "fixed", "--force", "--out", "x.json", "--dump", "d",
                           "--quiet", "--schedule", "rand", "--schedule-seed", "9", "--ptxas", "p.json",
                           "--throttle-threshold", "0.5", "--no-blocking-kernel", "--device", "3", "--probe",
                           NULL),
                     0);
    assert_true(o.throttle_threshold == 0.5);
    assert_false(o.blocking_kernel);
    assert_int_equal(o.device, 3);
    assert_true(o.probe);
    cli_opts_t off;
    assert_int_equal(parse(&off, err, sizeof err, "--throttle-threshold", "0", NULL), 0);
    assert_true(off.throttle_threshold == 0.0); /* 0 disables the check */
    assert_int_equal(parse(&off, err, sizeof err, "--throttle-threshold", "auto", NULL), 0);
    assert_true(isnan(off.throttle_threshold));
    assert_int_equal(o.n_variants, 2);
    assert_string_equal(o.variants[0], "stage2");
    assert_string_equal(o.variants[1], "stage3a");
    assert_string_equal(o.baseline, "stage1");
    assert_int_equal(o.n_shapes, 2);
    assert_string_equal(o.shapes[1].name, "custom");
    assert_int_equal(o.shapes[1].shape.B, 2);
    assert_int_equal(o.shapes[1].shape.H, 4);
    assert_int_equal(o.shapes[1].shape.S, 100);
    assert_int_equal(o.n_seeds, 2);
    assert_true(o.seeds[1] == UINT64_MAX);
    assert_int_equal(o.codec, SDPA_CODEC_SEED_LINEAR);
    assert_int_equal(o.dist, DIST_OUTLIERS);
    assert_int_equal(o.backend, BACKEND_EMU);
    assert_true(o.check_only && o.force && o.quiet && o.schedule_given);
    assert_false(o.l2_cold);
    assert_int_equal(o.arm_order, BENCH_ARMS_FIXED);
    assert_int_equal(o.warmup, 0);
    assert_int_equal(o.iters, 25);
    assert_true(o.min_time_s == 0.0 && o.max_time_s == 2.5);
    assert_string_equal(o.out, "x.json");
    assert_string_equal(o.dump, "d");
    assert_string_equal(o.ptxas, "p.json");
    assert_int_equal(o.schedule, EMU_SCHED_RAND);
    assert_true(o.schedule_seed == 9);
}

static void test_actions(void **state) {
    (void)state;
    static const struct {
        const char *flag;
        cli_action_t action;
    } cases[] = {
        {"--help", CLI_HELP},
        {"-h", CLI_HELP},
        {"--version", CLI_VERSION},
        {"--list-variants", CLI_LIST_VARIANTS},
        {"--list-shapes", CLI_LIST_SHAPES},
        {"--list-peers", CLI_LIST_PEERS},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cli_opts_t o;
        char err[512];
        assert_int_equal(parse(&o, err, sizeof err, cases[i].flag, NULL), 0);
        assert_int_equal(o.action, cases[i].action);
    }
}

static void test_rejections(void **state) {
    (void)state;
    REJECT("unknown option '--frobnicate'", "--frobnicate");
    REJECT("unexpected argument 'stage2'", "stage2");
    REJECT("--variant needs a value", "--variant");
    REJECT("--check-only takes no value", "--check-only=1");
    REJECT("--shape 1,1,32,32: head dimension", "--shape", "1,1,32,32");
    REJECT("accepted: D = 64, 128", "--shape", "1,1,32,32");
    REJECT("--shape 1,1,0,64: empty problem", "--shape", "1,1,0,64");
    REJECT("--shape 0,1,32,64: empty problem", "--shape", "0,1,32,64");
    REJECT("--shape 65535,65535,65535,64: problem too large", "--shape", "65535,65535,65535,64");
    REJECT("--shape 1,1,99999999999999999999,64: problem too large", "--shape",
           "1,1,99999999999999999999,64");
    REJECT("--shape 1,70000,32,64: problem too large", "--shape", "1,70000,32,64");
    REJECT("--shape: unknown shape 'huge'", "--shape", "huge");
    REJECT("mission", "--shape", "huge"); /* the accepted names are listed */
    REJECT("--shape: unknown shape '1,2,3'", "--shape", "1,2,3");
    REJECT("--shape: unknown shape '1,2,3,64,5'", "--shape", "1,2,3,64,5");
    REJECT("--shape: unknown shape '-1,2,3,64'", "--shape", "-1,2,3,64");
    REJECT("--shape small: given twice", "--shape", "small", "--shape", "small");
    REJECT("--codec: invalid value 'e5m2'; accepted: e4m3 or seed-linear", "--codec", "e5m2");
    REJECT("--dist: invalid value 'cauchy'; accepted: normal, uniform or outliers", "--dist", "cauchy");
    REJECT("--backend: invalid value 'opencl'; accepted: auto, cuda or emu", "--backend", "opencl");
    REJECT("--l2: invalid value 'hot'; accepted: cold or warm", "--l2", "hot");
    REJECT("--arm-order: invalid value 'random'; accepted: rotated or fixed", "--arm-order", "random");
    REJECT("--schedule: invalid value 'lifo'", "--schedule", "lifo");
    REJECT(
        "--throttle-threshold: invalid value '1.5'; accepted: auto, or a fraction of the default SM clock, 0 "
        "(off) to 1",
        "--throttle-threshold", "1.5");
    REJECT("--throttle-threshold: invalid value '-0.1'", "--throttle-threshold", "-0.1");
    REJECT("--throttle-threshold: invalid value 'x'", "--throttle-threshold", "x");
    REJECT("--device: invalid value '-1'; accepted: a CUDA device index", "--device", "-1");
    REJECT("--no-blocking-kernel takes no value", "--no-blocking-kernel=1");
    REJECT("--warmup: invalid value '-1'", "--warmup", "-1");
    REJECT("--iters: invalid value '0'; accepted: an integer >= 1", "--iters", "0");
    REJECT("--iters: invalid value '10x'", "--iters", "10x");
    REJECT("--min-time: invalid value '-1'", "--min-time", "-1");
    REJECT("--max-time: invalid value '0'", "--max-time", "0");
    REJECT("--max-time: invalid value 'nan'", "--max-time", "nan");
    REJECT("--max-time 1 is below --min-time 2", "--min-time", "2", "--max-time", "1");
    REJECT("--seeds : expected comma-separated unsigned integers", "--seeds", "");
    REJECT("--seeds 1,,2: expected", "--seeds", "1,,2");
    REJECT("--seeds -1: expected", "--seeds", "-1");
    REJECT("--seeds 1,2,1: seed 1 given twice", "--seeds", "1,2,1");
    REJECT("--seeds 99999999999999999999: expected", "--seeds", "99999999999999999999");
    REJECT("--variant stage2: given twice", "--variant", "stage2", "--variant", "stage2");
    REJECT("--vs stage2: the baseline is also given as --variant", "--vs", "stage2", "--variant", "stage2",
           "--variant", "stage3a");
    REJECT("--out: invalid value ''", "--out", "");
    REJECT("--schedule-seed applies to the rand schedule only", "--schedule-seed", "3");
    REJECT("--schedule-seed applies to the rand schedule only", "--schedule", "rev", "--schedule-seed", "3");
}

/* --vs X --variant X alone is an A/A control (X against itself, interleaved); with another candidate
 * or a peer beside it, the baseline listed as a candidate is still refused (above). */
static void test_aa_control(void **state) {
    (void)state;
    cli_opts_t o;
    char err[512];
    assert_int_equal(parse(&o, err, sizeof err, "--vs", "stage2", "--variant", "stage2", NULL), 0);
    assert_true(o.aa_control);
    assert_string_equal(o.baseline, "stage2");
    assert_int_equal(parse(&o, err, sizeof err, "--vs", "stage1", "--variant", "stage2", NULL), 0);
    assert_false(o.aa_control);
    REJECT("for an A/A control, --vs stage2 --variant stage2 alone", "--vs", "stage2", "--variant", "stage2",
           "--peer", "cublas-unfused");
}

/* --peer is repeatable (names are checked by main.c against peers.h); --ceilings is a mode of its own. */
static void test_peers_and_ceilings(void **state) {
    (void)state;
    cli_opts_t o;
    char err[512];
    assert_int_equal(parse(&o, err, sizeof err, "--peer", "a", "--peer=b", "--variant", "stage2", NULL), 0);
    assert_int_equal(o.n_peers, 2);
    assert_string_equal(o.peers[0], "a");
    assert_string_equal(o.peers[1], "b");
    assert_false(o.ceilings);
    assert_int_equal(parse(&o, err, sizeof err, "--ceilings", "--out", "c.json", "--backend", "emu", NULL),
                     0);
    assert_true(o.ceilings);
    assert_int_equal(o.n_peers, 0);
    REJECT("--peer a: given twice", "--peer", "a", "--peer", "a");
    REJECT("--peer: at most 4 peers", "--peer", "a", "--peer", "b", "--peer", "c", "--peer", "d", "--peer",
           "e");
    REJECT("--peer: invalid value ''", "--peer", "");
    REJECT("--ceilings needs --out", "--ceilings");
    REJECT("--ceilings measures the device", "--ceilings", "--out", "c.json", "--peer", "a");
    REJECT("--ceilings measures the device", "--ceilings", "--out", "c.json", "--vs", "stage2");
    REJECT("--ceilings measures the device", "--ceilings", "--out", "c.json", "--check-only");
}

static void test_shape_parser(void **state) {
    (void)state;
    cli_shape_t s;
    char err[512];
    assert_int_equal(cli_parse_shape("label-a", &s, err, sizeof err), 0);
    assert_string_equal(s.name, "label-a");
    assert_int_equal(s.shape.B, 2);
    assert_int_equal(cli_parse_shape("1,8,512,64", &s, err, sizeof err), 0);
    assert_string_equal(s.name, "custom");
    assert_int_equal(s.shape.H, 8);
    /* the largest problem sdpa_check_shape accepts passes, one more key does not */
    assert_int_equal(cli_parse_shape("1,1,33554431,64", &s, err, sizeof err), 0);
    assert_int_equal(cli_parse_shape("1,1,33554432,64", &s, err, sizeof err), -1);
    /* D = 128 and the named causal shapes */
    assert_int_equal(cli_parse_shape("2,3,77,128", &s, err, sizeof err), 0);
    assert_int_equal(s.shape.D, 128);
    assert_int_equal(s.shape.causal, 0);
    assert_int_equal(cli_parse_shape("mission-d128-causal", &s, err, sizeof err), 0);
    assert_int_equal(s.shape.D, 128);
    assert_int_equal(s.shape.causal, 1);
    /* the FlashAttention grid: B = tokens / S, H = 2048 / D, both exact */
    assert_int_equal(cli_parse_shape("fa-s2048-d128-causal", &s, err, sizeof err), 0);
    assert_string_equal(s.name, "fa-s2048-d128-causal");
    assert_true(s.shape.B == 8 && s.shape.H == 16 && s.shape.S == 2048 && s.shape.D == 128 && s.shape.causal);
    assert_int_equal(cli_parse_shape("fa-t96-s32-d64", &s, err, sizeof err), 0);
    assert_true(s.shape.B == 3 && s.shape.H == 32 && s.shape.S == 32 && s.shape.D == 64 && !s.shape.causal);
    assert_int_equal(cli_parse_shape("fa-t100-s32-d64", &s, err, sizeof err), -1);   /* 100 / 32 inexact */
    assert_int_equal(cli_parse_shape("fa-s512-d64-causl", &s, err, sizeof err), -1); /* not a member */
}

/* --causal marks every shape (its name too) and the run; FLOPs halve (run_json.h). */
static void test_causal(void **state) {
    (void)state;
    cli_opts_t o;
    char err[512];
    assert_int_equal(
        parse(&o, err, sizeof err, "--causal", "--shape", "mission", "--shape", "2,3,77,128", NULL), 0);
    assert_true(o.causal);
    assert_int_equal(o.n_shapes, 2);
    assert_string_equal(o.shapes[0].name, "mission-causal");
    assert_string_equal(o.shapes[1].name, "custom-causal");
    assert_true(o.shapes[0].shape.causal && o.shapes[1].shape.causal);
    /* two custom shapes stay two shapes */
    assert_int_equal(
        parse(&o, err, sizeof err, "--causal", "--shape", "1,1,1,64", "--shape", "1,1,2,64", NULL), 0);
    assert_int_equal(o.n_shapes, 2);
    assert_int_equal(parse(&o, err, sizeof err, "--shape", "mission", NULL), 0);
    assert_false(o.causal || o.shapes[0].shape.causal);
    const sdpa_shape_t full = {1, 8, 512, 64, 0}, half = {1, 8, 512, 64, 1};
    assert_int_equal(bench_flops(half) * 2, bench_flops(full));
}

/* The COMPARISON block (run_json.h): a verdict on GPU timings, AMBIGUOUS with too few rounds for a
 * CI; on emulated timings none (null), with or without the statistics (schema 2.1.0). */
static void test_comparison_verdicts(void **state) {
    (void)state;
    const double base[] = {10, 10.2, 9.9, 10.1, 10}, cand[] = {5, 5.1, 4.9, 5.05, 5};
    ab_result_t ab;
    assert_int_equal(stats_ab_compare(base, cand, 5, AB_DEFAULT_EPSILON, 2000, 7, &ab), 0);
    static const char *const timings[] = {"gpu", "emulated"};
    for (int t = 0; t < 2; t++)
        for (int have = 0; have < 2; have++) {
            const comparison_rec_t c = {"stage1", "stage2", "mission",    timings[t],       0,
                                        base,     cand,     have ? 5 : 1, have ? &ab : NULL};
            cJSON *o = bj_comparison(&c);
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "verdict");
            assert_non_null(v);
            if (t == 1) {
                assert_true(cJSON_IsNull(v));
            } else {
                assert_true(cJSON_IsString(v));
                assert_string_equal(v->valuestring, have ? "FASTER" : "AMBIGUOUS");
            }
            /* the statistics stand either way when there were rounds enough */
            assert_true(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(o, "speedup")) == (have != 0));
            cJSON_Delete(o);
        }
}

/* ---- file-system checks ---- */

static char tmpdir[256];

static int make_tmpdir(void **state) {
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/test_cli_XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_tmpdir(void **state) {
    (void)state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_paths(void **state) {
    (void)state;
    cli_opts_t o;
    char err[1024], path[512], sub[512];
    assert_int_equal(parse(&o, err, sizeof err, NULL), 0);
    snprintf(path, sizeof path, "%s/new.json", tmpdir);
    o.out = path;
    assert_int_equal(cli_check_paths(&o, err, sizeof err), 0);
    /* existing --out: refused, content untouched */
    write_file(path, "precious");
    assert_int_equal(cli_check_paths(&o, err, sizeof err), EXIT_USAGE);
    assert_non_null(strstr(err, "--out"));
    assert_non_null(strstr(err, "exists"));
    FILE *f = fopen(path, "r");
    char buf[16] = "";
    assert_non_null(fgets(buf, sizeof buf, f));
    fclose(f);
    assert_string_equal(buf, "precious");
    /* unwritable --out: a directory that does not exist, and a "directory" that is a file */
    snprintf(sub, sizeof sub, "%s/missing/run.json", tmpdir);
    o.out = sub;
    assert_int_equal(cli_check_paths(&o, err, sizeof err), EXIT_USAGE);
    assert_non_null(strstr(err, "--out"));
    snprintf(sub, sizeof sub, "%s/new.json/run.json", tmpdir);
    assert_int_equal(cli_check_paths(&o, err, sizeof err), EXIT_USAGE);
    o.out = NULL;
    /* --dump: a directory holding one of the dump files is refused */
    o.dump = tmpdir;
    assert_int_equal(cli_check_paths(&o, err, sizeof err), 0);
    snprintf(sub, sizeof sub, "%s/o.npy", tmpdir);
    write_file(sub, "x");
    assert_int_equal(cli_check_paths(&o, err, sizeof err), EXIT_USAGE);
    assert_non_null(strstr(err, "--dump"));
    o.dump = NULL;
    /* --ptxas must be readable */
    snprintf(sub, sizeof sub, "%s/none.json", tmpdir);
    o.ptxas = sub;
    assert_int_equal(cli_check_paths(&o, err, sizeof err), EXIT_USAGE);
    assert_non_null(strstr(err, "--ptxas"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_every_option),
        cmocka_unit_test(test_actions),
        cmocka_unit_test(test_rejections),
        cmocka_unit_test(test_aa_control),
        cmocka_unit_test(test_peers_and_ceilings),
        cmocka_unit_test(test_shape_parser),
        cmocka_unit_test(test_causal),
        cmocka_unit_test(test_comparison_verdicts),
        cmocka_unit_test_setup_teardown(test_paths, make_tmpdir, remove_tmpdir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
