/* An experiment's parameters as data: the run directory's copy of experiment.mk and its run.args
 * are parsed here, strictly, never included by make or sourced by a shell (a run directory may have
 * arrived in a campaign tarball). One grammar per key, shared by both files and by the parameters
 * `make stageN` passes before it creates a run directory:
 *   experiment.mk  comments, blank lines and "KEY := VALUE" (or ?=, =) with KEY one of
 *                  TITLE MAKE_TARGET BASELINE CANDIDATE SHAPES SEEDS TIMING_SHAPE GATE_SPEEDUP
 *                  STATIC_BUDGET GPU_TIMING EMU_TIMING L2 EMU_TIMING_SHAPE GATE_TFLOPS, each at
 *                  most once, the first eight
 *                  required; no '$', '#' or '\' in a value, the file ends with a newline.
 *   run.args       "key=value" lines: exp baseline candidate shapes seeds timing_shape gpu emu l2
 *                  backend (each once, all required); throttle (auto or a fraction), and
 *                  experiment_sha256, hypothesis_sha256 (the digests of the copies, recorded
 *                  before they were made), each optional (absent in runs made before them).
 *   sdpa-report params check KEY=VALUE...   the run.args keys given (a new run's parameters)
 *   sdpa-report params experiment FILE      an experiment definition
 *   sdpa-report params resume DIR           run.args, experiment.mk and hypothesis.md of a run
 *                                           directory (with their recorded digests): intact?
 * Exit 0, or 1 with a message naming the file, line and key; 2 on usage. */
#ifndef PARAMS_H
#define PARAMS_H

#include <stdbool.h>
#include <stddef.h>

enum {
    P_TITLE,
    P_MAKE_TARGET,
    P_BASELINE,
    P_CANDIDATE,
    P_SHAPES,
    P_SEEDS,
    P_TIMING_SHAPE,
    P_GATE_SPEEDUP,
    P_STATIC_BUDGET,
    P_GPU_TIMING,
    P_EMU_TIMING,
    P_L2,
    P_EMU_TIMING_SHAPE,
    P_GATE_TFLOPS,
    P_NKEYS
};

/* The values an experiment.mk sets; set[k] says whether key k was given. */
typedef struct {
    char value[P_NKEYS][256];
    bool set[P_NKEYS];
} exp_def_t;

/* Parses text (len bytes, the file named file in messages). 0, or -1 with err set. */
int params_parse_experiment(const char *text, size_t len, const char *file, exp_def_t *d, char *err,
                            size_t n);
/* The same for a file: a regular file of at most 64 KiB. */
int params_load_experiment(const char *path, exp_def_t *d, char *err, size_t n);
/* Whether v is a list of shapes as SHAPES takes it: names or B,H,S,D tuples, single spaces. */
bool params_shapes_ok(const char *v);
/* What run.args records that its readers compare with other evidence ("" when not recorded). */
typedef struct {
    char exp[129], backend[8], experiment_sha256[65], hypothesis_sha256[65];
} run_args_t;

/* Checks run.args text: every key known and valid, each once, the required ones present. 0, or -1
 * with err set. */
int params_check_run_args(const char *text, size_t len, const char *file, run_args_t *a, char *err, size_t n);
/* Reads a file of at most max bytes that must be a regular file (a fifo or device is refused
 * without blocking). A new NUL-terminated buffer, or NULL with err set. */
char *params_read_small(const char *path, size_t max, size_t *len, char *err, size_t n);
/* sdpa-report params ... */
int params_main(int argc, char **argv);

#endif
