/* Atomic, no-clobber writes (host/lib/fileio.c). */
#include "testutil.h"

#include <errno.h>
#include <sys/stat.h>

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

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_write_new_and_read),
        cmocka_unit_test(test_refuses_overwrite),
        cmocka_unit_test(test_errors_name_the_path),
        cmocka_unit_test(test_mkdir_p),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
