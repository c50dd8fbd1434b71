/* Rows of every slice on several threads (row_jobs.h). */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "row_jobs.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

unsigned row_jobs_cpus(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return (unsigned)CPU_COUNT(&set);
    return 1;
}

bool row_jobs_list_ok(const size_t *rows, size_t n_rows, size_t S) {
    for (size_t i = 0; rows && i < n_rows; i++)
        if (rows[i] >= S || (i && rows[i] <= rows[i - 1])) return false;
    return true;
}

size_t row_jobs_items(size_t slices, size_t n_rows) {
    return slices * ((n_rows + ROW_JOBS_CHUNK - 1) / ROW_JOBS_CHUNK);
}

typedef struct {
    size_t n_rows, chunks_per_slice, items, scratch_bytes;
    row_jobs_fn fn;
    void *ctx;
    atomic_size_t next;
} job_t;

/* Runs items until none is left. */
static void *worker(void *arg) {
    job_t *j = arg;
    void *scratch = malloc(j->scratch_bytes);
    if (!scratch) return NULL;
    for (size_t it; (it = atomic_fetch_add(&j->next, 1)) < j->items;) {
        const size_t slice = it / j->chunks_per_slice, c0 = (it % j->chunks_per_slice) * ROW_JOBS_CHUNK;
        j->fn(j->ctx, it, slice, c0, c0 + ROW_JOBS_CHUNK < j->n_rows ? c0 + ROW_JOBS_CHUNK : j->n_rows,
              scratch);
    }
    free(scratch);
    return NULL;
}

int row_jobs_run(size_t slices, size_t n_rows, unsigned threads, size_t scratch_bytes, row_jobs_fn fn,
                 void *ctx) {
    job_t j = {.n_rows = n_rows,
               .chunks_per_slice = (n_rows + ROW_JOBS_CHUNK - 1) / ROW_JOBS_CHUNK,
               .items = row_jobs_items(slices, n_rows),
               .scratch_bytes = scratch_bytes ? scratch_bytes : 1,
               .fn = fn,
               .ctx = ctx};
    atomic_init(&j.next, 0);
    if (j.items == 0) return 0;
    if (threads == 0) threads = row_jobs_cpus();
    if (threads > j.items) threads = (unsigned)j.items;
    pthread_t *tid = threads > 1 ? malloc((threads - 1) * sizeof *tid) : NULL;
    unsigned started = 0;
    while (tid && started + 1 < threads && pthread_create(&tid[started], NULL, worker, &j) == 0) started++;
    worker(&j); /* this thread too; with no helper started it does everything */
    for (unsigned t = 0; t < started; t++) pthread_join(tid[t], NULL);
    free(tid);
    if (atomic_load(&j.next) < j.items) {
        errno = ENOMEM;
        return -1;
    }
    return 0;
}
