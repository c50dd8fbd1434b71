/* Support for the emulator's test suite (tests/emu): buffers, schedules, marker lines, captured
 * output and child runs. */
#ifndef EMU_CHECK_H
#define EMU_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "emu/simt.h"

/* Which build of the emulator this binary is. */
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define EMU_FLAVOUR_TSAN 1
#endif
#if __has_feature(address_sanitizer)
#define EMU_FLAVOUR_ASAN 1
#endif
#endif

/* 256-byte aligned (as cudaMalloc), zeroed; freed with free(). */
void *emu_alloc(size_t bytes);

/* The schedules every correct kernel must agree under: fwd, rev, rand (seed 1), rand (seed 2). */
#define EMU_N_SCHEDULES 4
void emu_use_schedule(int i);
const char *emu_schedule_desc(int i);

/* Line of the comment "EMU-BUG(name)" in tests/emu/kernels/<file>; fails the test if absent. */
int emu_marker_line(const char *file, const char *name);
/* Whether text contains "<file>:<line>" not followed by a digit (simt faults, sanitizer frames). */
int emu_cites(const char *text, const char *file, int line);

/* Captures what this process writes to stderr (fd 2) between begin and end; end returns a
 * malloc'ed string (also copied to the real stderr, so the test log keeps it). */
void emu_capture_begin(void);
char *emu_capture_end(void);

/* Runs this test binary again as "<self> --case <name>", with the environment assignments in env
 * ("NAME=value", NULL-terminated; env itself may be NULL); returns its exit status (128 + signal
 * when killed) and stores its merged stdout and stderr (malloc'ed) in *output. */
int emu_run_child(const char *name, const char *const *env, char **output);

/* Runs run(ctx) under every schedule: each launch must succeed with no simt or ThreadSanitizer
 * report on stderr, and every schedule must give the same `bytes` of out as fwd (cmocka failures). */
typedef int (*emu_run_fn)(void *ctx);
void emu_run_everywhere(emu_run_fn run, void *ctx, void *out, size_t bytes);

/* Number of floats that differ (NaN never equals anything) between got and want. */
size_t emu_mismatches(const float *got, const float *want, size_t n);

#endif
