/* sdpa-bench's command line: parsing and validation, no side effects (the file-system checks of
 * --out, --dump and --ptxas are separate, in cli_check_paths). Every rejection names the flag
 * and the accepted values; the caller exits with status 2. */
#ifndef CLI_H
#define CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "backend.h"
#include "inputs.h"
#include "sampling.h"

#define CLI_MAX_VARIANTS 32
#define CLI_MAX_SHAPES 64
#define CLI_MAX_SEEDS 64
#define CLI_MAX_PEERS 4

/* Exit statuses (host/bench/README.md, "Command line"). */
enum { EXIT_PASS = 0, EXIT_CHECK_FAILED = 1, EXIT_USAGE = 2, EXIT_RUNTIME = 3 };

typedef enum {
    CLI_RUN,
    CLI_HELP,
    CLI_VERSION,
    CLI_LIST_VARIANTS,
    CLI_LIST_SHAPES,
    CLI_LIST_PEERS
} cli_action_t;

typedef struct {
    char name[40]; /* a named shape, a member of the FlashAttention grid, or "custom" for B,H,S,D;
                    * "-causal" appended by --causal */
    sdpa_shape_t shape;
} cli_shape_t;

typedef struct {
    cli_action_t action;
    const char *variants[CLI_MAX_VARIANTS]; /* --variant, in the order given (argv strings) */
    size_t n_variants;
    const char *peers[CLI_MAX_PEERS]; /* --peer, in the order given (names checked by main.c, peers.h) */
    size_t n_peers;
    const char *baseline; /* --vs, NULL without */
    bool aa_control;      /* --vs X --variant X: X timed against itself, interleaved (an A/A control) */
    cli_shape_t shapes[CLI_MAX_SHAPES];
    size_t n_shapes;
    uint64_t seeds[CLI_MAX_SEEDS];
    size_t n_seeds;
    sdpa_codec_t codec;
    dist_t dist;
    backend_kind_t backend;
    bool check_only, force, quiet, l2_cold;
    size_t warmup, iters;
    double min_time_s, max_time_s;
    bench_arm_order_t arm_order; /* --arm-order: the arms' order within a round (sampling.h) */
    emu_schedule_t schedule;
    bool schedule_given; /* --schedule (and with it --schedule-seed) */
    bool schedule_seed_given;
    uint64_t schedule_seed;
    const char *out, *dump, *ptxas; /* NULL when not given */
    const char *dump_failed;        /* --dump-failed DIR; NULL when not given */
    double throttle_threshold;      /* --throttle-threshold: fraction of the default clock, 0 = off;
                                     * NaN: auto, resolved per device (throttle.h) */
    bool blocking_kernel;           /* false with --no-blocking-kernel */
    size_t device;                  /* --device */
    bool probe;                     /* --probe: report the backend choice and exit */
    bool ceilings;                  /* --ceilings: measure the roofline's ceilings instead (ceilings.h) */
    size_t ref_rows;                /* --ref-rows: query rows per slice of the references; 0 = all */
    size_t ref_threads;             /* --ref-threads: threads of the references; 0 = every CPU */
    bool causal;                    /* --causal: every shape masked (cli_shape_t's shape.causal) */
} cli_opts_t;

/* Defaults (also printed by --help). */
#define CLI_DEFAULT_SHAPE "mission"
#define CLI_DEFAULT_SEEDS "0,1,2"
#define CLI_DEFAULT_WARMUP 2
#define CLI_DEFAULT_ITERS 10
#define CLI_DEFAULT_MIN_S 0.5
#define CLI_DEFAULT_MAX_S 15.0
#define CLI_DEFAULT_THROTTLE BENCH_DEFAULT_THROTTLE

/* Fills *o from argv. Returns 0, or EXIT_USAGE with the message in err. --help, --version and
 * the --list-* flags set the action and stop parsing the rest. */
int cli_parse(int argc, char **argv, cli_opts_t *o, char *err, size_t errlen);
/* File-system checks done before any work: --out must not exist and its directory must be
 * writable; --dump's files must not exist; --ptxas must be readable. 0 or EXIT_USAGE. */
int cli_check_paths(const cli_opts_t *o, char *err, size_t errlen);
void cli_usage(FILE *f);
/* Parses "B,H,S,D" or a named shape into *out; 0 or -1 with the reason (for --shape). */
int cli_parse_shape(const char *text, cli_shape_t *out, char *err, size_t errlen);
/* A member of the FlashAttention benchmark grid by name (fa-s<S>-d<D>[-causal], fa-t<T>-...): 0 and
 * *out filled, -1 when the name is not one (cli.c). */
int cli_shape_family(const char *text, cli_shape_t *out);

#endif
