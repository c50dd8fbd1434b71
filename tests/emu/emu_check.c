/* Support for the emulator's test suite (emu_check.h). */
#include "emu_check.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#ifndef EMU_KERNEL_DIR
#define EMU_KERNEL_DIR "tests/emu/kernels"
#endif

void *emu_alloc(size_t bytes) {
    size_t rounded = (bytes + 255) / 256 * 256;
    void *p = aligned_alloc(256, rounded ? rounded : 256);
    assert_non_null(p);
    memset(p, 0, rounded ? rounded : 256);
    return p;
}

static const struct {
    simt_sched_t policy;
    uint64_t seed;
    const char *desc;
} schedules[EMU_N_SCHEDULES] = {{SIMT_SCHED_FWD, 1, "fwd"},
                                {SIMT_SCHED_REV, 1, "rev"},
                                {SIMT_SCHED_RAND, 1, "rand seed 1"},
                                {SIMT_SCHED_RAND, 2, "rand seed 2"}};

void emu_use_schedule(int i) { simt_set_schedule(schedules[i].policy, schedules[i].seed); }
const char *emu_schedule_desc(int i) { return schedules[i].desc; }

int emu_marker_line(const char *file, const char *name) {
    char path[512], tag[128], line[1024];
    snprintf(path, sizeof path, "%s/%s", EMU_KERNEL_DIR, file);
    snprintf(tag, sizeof tag, "EMU-BUG(%s)", name);
    FILE *f = fopen(path, "r");
    if (!f) fail_msg("cannot open %s", path);
    int n = 0, found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        n++;
        found = strstr(line, tag) != NULL;
    }
    fclose(f);
    if (!found) fail_msg("%s: no marker %s", path, tag);
    return n;
}

int emu_cites(const char *text, const char *file, int line) {
    char want[256];
    snprintf(want, sizeof want, "%s:%d", file, line);
    for (const char *p = text; p && (p = strstr(p, want)) != NULL; p++)
        if (p[strlen(want)] < '0' || p[strlen(want)] > '9') return 1;
    return 0;
}

static char *read_all(FILE *f) {
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *s = malloc((size_t)n + 1);
    assert_non_null(s);
    s[fread(s, 1, (size_t)n, f)] = 0;
    return s;
}

static FILE *capture_file;
static int saved_stderr = -1;

void emu_capture_begin(void) {
    fflush(stderr);
    capture_file = tmpfile();
    assert_non_null(capture_file);
    saved_stderr = dup(2);
    dup2(fileno(capture_file), 2);
}

char *emu_capture_end(void) {
    fflush(stderr);
    dup2(saved_stderr, 2);
    close(saved_stderr);
    char *s = read_all(capture_file);
    fclose(capture_file);
    fputs(s, stderr);
    return s;
}

int emu_run_child(const char *name, const char *const *env, char **output) {
    FILE *out = tmpfile();
    assert_non_null(out);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fileno(out), 1);
        dup2(fileno(out), 2);
        for (; env && *env; env++) putenv((char *)*env);
        execl("/proc/self/exe", "emu-tests", "--case", name, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    *output = read_all(out);
    fclose(out);
    fprintf(stderr, "---- child --case %s:\n%s----\n", name, *output);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

size_t emu_mismatches(const float *got, const float *want, size_t n) {
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) bad += !(got[i] == want[i]);
    return bad;
}

void emu_run_everywhere(emu_run_fn run, void *ctx, void *out, size_t bytes) {
    unsigned char *first = malloc(bytes);
    assert_non_null(first);
    for (int s = 0; s < EMU_N_SCHEDULES; s++) {
        emu_use_schedule(s);
        memset(out, 0xcd, bytes);
        emu_capture_begin();
        int rc = run(ctx);
        char *err = emu_capture_end();
        if (rc != 0) fail_msg("launch failed under %s: %s", emu_schedule_desc(s), simt_last_error());
        if (strstr(err, "ThreadSanitizer") || strstr(err, "simt:"))
            fail_msg("unexpected report under %s", emu_schedule_desc(s));
        free(err);
        if (s == 0)
            memcpy(first, out, bytes);
        else if (memcmp(first, out, bytes) != 0)
            fail_msg("results under %s differ from those under fwd", emu_schedule_desc(s));
    }
    free(first);
}
