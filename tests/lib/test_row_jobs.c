/* Rows of every slice on several threads (host/lib/row_jobs.c): every item runs exactly once, with
 * the (slice, entries) it names, on any thread count (more threads than items included); each
 * thread's scratch is its own and of the size asked; no item, no call; which row lists are valid. */
#include "testutil.h"

#include <pthread.h>

#include "row_jobs.h"

typedef struct {
    size_t slices, n_rows, scratch_bytes;
    unsigned *runs;    /* [items]: how often each item ran */
    unsigned *entries; /* [slices * n_rows]: how often each (slice, entry) was covered */
    int bad;           /* an item whose arguments disagree with its index, or a shared scratch */
    pthread_mutex_t lock;
} seen_t;

static void record(void *ctx, size_t item, size_t slice, size_t c0, size_t c1, void *scratch) {
    seen_t *s = ctx;
    const size_t per_slice = (s->n_rows + ROW_JOBS_CHUNK - 1) / ROW_JOBS_CHUNK;
    /* The scratch is this thread's alone: fill it with the item's index, then read it back. */
    unsigned char *b = scratch;
    memset(b, (int)(item & 0xff), s->scratch_bytes);
    pthread_mutex_lock(&s->lock);
    s->runs[item]++;
    s->bad |= slice != item / per_slice || c0 != (item % per_slice) * ROW_JOBS_CHUNK || c1 <= c0 ||
              c1 > s->n_rows || c1 - c0 > ROW_JOBS_CHUNK;
    for (size_t c = c0; c < c1 && c < s->n_rows && slice < s->slices; c++)
        s->entries[slice * s->n_rows + c]++;
    pthread_mutex_unlock(&s->lock);
    int shared = 0; /* another thread's item wrote this scratch meanwhile */
    for (size_t i = 0; i < s->scratch_bytes; i++) shared |= b[i] != (unsigned char)(item & 0xff);
    pthread_mutex_lock(&s->lock);
    s->bad |= shared;
    pthread_mutex_unlock(&s->lock);
}

static void test_every_item_once(void **state) {
    (void)state;
    const size_t slices_list[] = {1, 6, 64}, rows_list[] = {1, 16, 37, 512};
    const unsigned threads_list[] = {1, 2, 3, 7, 0, 100};
    for (size_t a = 0; a < 3; a++)
        for (size_t r = 0; r < 4; r++)
            for (size_t t = 0; t < 6; t++) {
                seen_t s = {.slices = slices_list[a], .n_rows = rows_list[r], .scratch_bytes = 4096};
                const size_t items = row_jobs_items(s.slices, s.n_rows);
                assert_int_equal(items, s.slices * ((s.n_rows + 15) / 16));
                s.runs = calloc(items, sizeof *s.runs);
                s.entries = calloc(s.slices * s.n_rows, sizeof *s.entries);
                assert_non_null(s.runs);
                assert_non_null(s.entries);
                pthread_mutex_init(&s.lock, NULL);
                assert_int_equal(
                    row_jobs_run(s.slices, s.n_rows, threads_list[t], s.scratch_bytes, record, &s), 0);
                assert_false(s.bad);
                for (size_t i = 0; i < items; i++) assert_int_equal(s.runs[i], 1);
                for (size_t i = 0; i < s.slices * s.n_rows; i++) assert_int_equal(s.entries[i], 1);
                pthread_mutex_destroy(&s.lock);
                free(s.runs), free(s.entries);
            }
}

static void never(void *ctx, size_t item, size_t slice, size_t c0, size_t c1, void *scratch) {
    (void)item, (void)slice, (void)c0, (void)c1, (void)scratch;
    (*(int *)ctx)++;
}

static void test_no_item_no_call(void **state) {
    (void)state;
    int calls = 0;
    assert_int_equal(row_jobs_items(0, 37), 0);
    assert_int_equal(row_jobs_items(6, 0), 0);
    assert_int_equal(row_jobs_run(0, 37, 4, 8, never, &calls), 0);
    assert_int_equal(row_jobs_run(6, 0, 4, 8, never, &calls), 0);
    assert_int_equal(calls, 0);
    assert_true(row_jobs_cpus() >= 1);
}

static void test_row_lists(void **state) {
    (void)state;
    const size_t good[3] = {0, 5, 36}, repeat[3] = {0, 5, 5}, down[3] = {5, 0, 36}, past[3] = {0, 5, 37};
    assert_true(row_jobs_list_ok(NULL, 99, 37));
    assert_true(row_jobs_list_ok(good, 3, 37));
    assert_true(row_jobs_list_ok(good, 0, 37));
    assert_false(row_jobs_list_ok(repeat, 3, 37));
    assert_false(row_jobs_list_ok(down, 3, 37));
    assert_false(row_jobs_list_ok(past, 3, 37));
    assert_true(row_jobs_list_ok(past, 2, 37)); /* only the first n_rows entries count */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_item_once),
        cmocka_unit_test(test_no_item_no_call),
        cmocka_unit_test(test_row_lists),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
