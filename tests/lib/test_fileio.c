/* Atomic, no-clobber writes (host/lib/fileio.c). */
#include "testutil.h"

#include <errno.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "fileio.h"

static void test_write_new_and_read(void **state) {
    (void)state;
    char *dir = test_tmpdir();
    char err[512] = "";
    const char *p = test_path(dir, "a.txt");
    assert_int_equal(file_write_new(p, "hello\n", 6, err, sizeof err), 0);
    size_t len = 0;
    char *text = file_read_all(p, &len);
    assert_non_null(text);
    assert_int_equal(len, 6);
    assert_string_equal(text, "hello\n");
    free(text);
    /* Empty file, and a file larger than the reader's first buffer. */
    assert_int_equal(file_write_new(test_path(dir, "empty"), NULL, 0, err, sizeof err), 0);
    text = file_read_all(test_path(dir, "empty"), &len);
    assert_non_null(text);
    assert_int_equal(len, 0);
    free(text);
    size_t big = 100000;
    char *data = malloc(big);
    assert_non_null(data);
    for (size_t i = 0; i < big; i++) data[i] = (char)('a' + i % 26);
    assert_int_equal(file_write_new(test_path(dir, "big"), data, big, err, sizeof err), 0);
    text = file_read_all(test_path(dir, "big"), &len);
    assert_int_equal(len, big);
    assert_memory_equal(text, data, big);
    free(text);
    free(data);
    assert_int_equal(test_count_entries(dir), 3); /* no temporary file left behind */
    test_rmdir(dir);
}

/* An existing file is never replaced: EEXIST, a message naming the path, old content intact,
 * and the temporary file gone. */
static void test_refuses_overwrite(void **state) {
    (void)state;
    char *dir = test_tmpdir();
    char err[512] = "", path[600];
    snprintf(path, sizeof path, "%s/run.json", dir);
    assert_int_equal(file_write_new(path, "old", 3, err, sizeof err), 0);
    errno = 0;
    assert_int_equal(file_write_new(path, "new content", 11, err, sizeof err), -1);
    assert_int_equal(errno, EEXIST);
    assert_contains(err, path);
    assert_contains(err, "exists");
    char *text = file_read_all(path, NULL);
    assert_string_equal(text, "old");
    free(text);
    assert_int_equal(test_count_entries(dir), 1);
    /* The replace variant does replace, atomically, and leaves nothing else either. */
    assert_int_equal(file_write_replace(path, "new", 3, err, sizeof err), 0);
    text = file_read_all(path, NULL);
    assert_string_equal(text, "new");
    free(text);
    assert_int_equal(file_write_replace(test_path(dir, "fresh"), "x", 1, err, sizeof err), 0);
    assert_int_equal(test_count_entries(dir), 2);
    test_rmdir(dir);
}

static void test_errors_name_the_path(void **state) {
    (void)state;
    char *dir = test_tmpdir();
    char err[512] = "", path[600];
    snprintf(path, sizeof path, "%s/no/such/dir/x.json", dir);
    errno = 0;
    assert_int_equal(file_write_new(path, "x", 1, err, sizeof err), -1);
    assert_int_equal(errno, ENOENT);
    assert_contains(err, path);
    errno = 0;
    assert_null(file_read_all(path, NULL));
    assert_int_equal(errno, ENOENT);
    assert_int_equal(file_write_new("", "x", 1, err, sizeof err), -1);
    assert_int_equal(errno, EINVAL);
    assert_int_equal(file_write_new(path, NULL, 5, NULL, 0), -1); /* err may be NULL */
    test_rmdir(dir);
}

static void test_mkdir_p(void **state) {
    (void)state;
    char *dir = test_tmpdir();
    char path[600];
    snprintf(path, sizeof path, "%s/a/b/c/", dir);
    assert_int_equal(mkdir_p(path), 0);
    assert_int_equal(mkdir_p(path), 0); /* already there: fine */
    struct stat st;
    snprintf(path, sizeof path, "%s/a/b/c", dir);
    assert_int_equal(stat(path, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    char err[256];
    snprintf(path, sizeof path, "%s/file", dir);
    assert_int_equal(file_write_new(path, "x", 1, err, sizeof err), 0);
    snprintf(path, sizeof path, "%s/file/sub", dir);
    errno = 0;
    assert_int_equal(mkdir_p(path), -1); /* a component is a file */
    assert_int_equal(errno, ENOTDIR);
    assert_int_equal(mkdir_p(""), -1);
    /* Clean up the nested directories by hand (test_rmdir is flat). */
    snprintf(path, sizeof path, "%s/a/b/c", dir);
    rmdir(path);
    snprintf(path, sizeof path, "%s/a/b", dir);
    rmdir(path);
    test_rmdir(dir);
}

/* Counts the temporary files ("*.tmp.*") in dir. */
static int count_temps(const char *dir) {
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));) n += strstr(e->d_name, ".tmp.") != NULL;
    if (d) closedir(d);
    return n;
}

/* SIGTERM in the middle of a write (file_signals_install): exit status 143 and no temporary file
 * left. The child writes large files in a loop; the signal is sent once a temporary file exists. */
static void test_signal_mid_write(void **state) {
    (void)state;
    char *dir = test_tmpdir();
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        size_t big = 32u << 20;
        char *buf = calloc(big, 1), err[512], path[600];
        if (!buf || file_signals_install() != 0) _exit(99);
        for (int i = 0;; i++) {
            snprintf(path, sizeof path, "%s/f%d", dir, i);
            if (file_write_new(path, buf, big, err, sizeof err) != 0) _exit(98);
        }
    }
    int seen = 0;
    for (int i = 0; i < 20000 && !seen; i++) {
        seen = count_temps(dir) > 0;
        if (!seen) nanosleep(&(struct timespec){0, 100000}, NULL);
    }
    assert_true(seen);
    kill(pid, SIGTERM);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 128 + SIGTERM);
    assert_int_equal(count_temps(dir), 0);
    test_rmdir(dir);
}

/* The note (file_signals_note): written to stderr, whole, by the handler before it exits, with how
 * long it had stood in whole seconds; cleared, nothing. The child's stderr is a pipe; it signals
 * itself sleep_ms after the note is set. */
static void signal_note_child(const char *note, int sleep_ms, char *got, size_t size) {
    int fd[2];
    assert_int_equal(pipe(fd), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fd[0]);
        if (dup2(fd[1], STDERR_FILENO) < 0 || file_signals_install() != 0) _exit(99);
        file_signals_note("sdpa-bench: an earlier note\n");
        file_signals_note(note);
        const struct timespec t = {sleep_ms / 1000, (long)(sleep_ms % 1000) * 1000000L};
        nanosleep(&t, NULL);
        raise(SIGTERM);
        _exit(98);
    }
    close(fd[1]);
    size_t n = 0;
    for (ssize_t k; n + 1 < size && (k = read(fd[0], got + n, size - 1 - n)) > 0;) n += (size_t)k;
    got[n] = '\0';
    close(fd[0]);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 128 + SIGTERM);
}

static void test_signal_note(void **state) {
    (void)state;
    char got[256];
    const char *note = "sdpa-bench: stopped by a signal while timing stage7b on mission, seed 0\n";
    signal_note_child(note, 0, got, sizeof got);
    assert_string_equal(got,
                        "sdpa-bench: stopped by a signal while timing stage7b on mission, seed 0, for 0 s\n");
    /* 1.05 s: whole seconds, truncated (1 until 2 s: 0.95 s for a loaded machine to run the handler) */
    signal_note_child(note, 1050, got, sizeof got);
    assert_string_equal(got,
                        "sdpa-bench: stopped by a signal while timing stage7b on mission, seed 0, for 1 s\n");
    signal_note_child(NULL, 0, got, sizeof got);
    assert_string_equal(got, "");
}

/* A full disk, simulated without root by a file-size limit: the write fails with EFBIG (SIGXFSZ
 * ignored by file_signals_install), the message names the path, the temporary file is removed and
 * the earlier file is untouched. */
static void test_file_size_limit(void **state) {
    (void)state;
    char *dir = test_tmpdir();
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        char err[512], path[600];
        snprintf(path, sizeof path, "%s/old", dir);
        if (file_signals_install() != 0 || file_write_new(path, "keep", 4, err, sizeof err) != 0) _exit(99);
        struct rlimit rl = {4096, 4096};
        if (setrlimit(RLIMIT_FSIZE, &rl) != 0) _exit(97);
        static char big[65536];
        snprintf(path, sizeof path, "%s/new", dir);
        int rc = file_write_new(path, big, sizeof big, err, sizeof err);
        if (rc == 0 || errno != EFBIG || !strstr(err, path) || !strstr(err, strerror(EFBIG))) _exit(1);
        if (file_write_replace(test_path(dir, "old"), big, sizeof big, err, sizeof err) == 0) _exit(2);
        _exit(0);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_int_equal(count_temps(dir), 0);
    assert_int_equal(test_count_entries(dir), 1);
    char *text = file_read_all(test_path(dir, "old"), NULL);
    assert_string_equal(text, "keep");
    free(text);
    test_rmdir(dir);
}

/* Writers racing for one name (also run under tests/lib/nolink.sh's shim, where link(2) is
 * refused and the fallbacks name the file): exactly one wins, the others get EEXIST, and the file
 * holds the winner's complete content. */
static void test_concurrent_writers(void **state) {
    (void)state;
    char *dir = test_tmpdir();
    char path[600];
    snprintf(path, sizeof path, "%s/race.json", dir);
    enum { WRITERS = 8, LEN = 1 << 16 };
    pid_t pids[WRITERS];
    for (int w = 0; w < WRITERS; w++) {
        pids[w] = fork();
        assert_true(pids[w] >= 0);
        if (pids[w] == 0) {
            static char buf[LEN];
            memset(buf, 'a' + w, sizeof buf);
            char err[512];
            const int rc = file_write_new(path, buf, sizeof buf, err, sizeof err);
            _exit(rc == 0 ? 0 : errno == EEXIST ? 1 : 2);
        }
    }
    int won = 0, refused = 0;
    for (int w = 0; w < WRITERS; w++) {
        int status = 0;
        assert_int_equal(waitpid(pids[w], &status, 0), pids[w]);
        assert_true(WIFEXITED(status));
        won += WEXITSTATUS(status) == 0;
        refused += WEXITSTATUS(status) == 1;
    }
    assert_int_equal(won, 1);
    assert_int_equal(refused, WRITERS - 1);
    size_t len = 0;
    char *text = file_read_all(path, &len);
    assert_non_null(text);
    assert_int_equal(len, LEN);
    for (size_t i = 1; i < len; i++) assert_int_equal(text[i], text[0]);
    free(text);
    assert_int_equal(count_temps(dir), 0);
    assert_int_equal(test_count_entries(dir), 1);
    test_rmdir(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_write_new_and_read),   cmocka_unit_test(test_refuses_overwrite),
        cmocka_unit_test(test_errors_name_the_path), cmocka_unit_test(test_mkdir_p),
        cmocka_unit_test(test_signal_mid_write),     cmocka_unit_test(test_signal_note),
        cmocka_unit_test(test_file_size_limit),      cmocka_unit_test(test_concurrent_writers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
