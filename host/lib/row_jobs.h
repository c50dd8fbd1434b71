/* Rows of every (b,h) slice on several threads, for the references (reference.h, reference_fp8.h).
 * The work is cut into items of (slice, ROW_JOBS_CHUNK consecutive entries of a row list), handed
 * out through an atomic counter to `threads` threads (the caller's among them). Each item is run
 * exactly once, by one thread, with that thread's own scratch buffer; a caller whose items write
 * disjoint outputs, and whose arithmetic never spans two items, gets the same bits for any thread
 * count and any order in which the items ran. */
#ifndef ROW_JOBS_H
#define ROW_JOBS_H

#include <stdbool.h>
#include <stddef.h>

#define ROW_JOBS_CHUNK 16 /* rows per item: small enough to balance, large enough to amortise */

/* One item: entries [c0, c1) of the row list of slice `slice`; item is its index (< row_jobs_items),
 * scratch the running thread's buffer of the size given to row_jobs_run. */
typedef void (*row_jobs_fn)(void *ctx, size_t item, size_t slice, size_t c0, size_t c1, void *scratch);

/* A row list is ascending, without repeats, and below S (NULL: every row, always valid). */
bool row_jobs_list_ok(const size_t *rows, size_t n_rows, size_t S);

/* The CPUs this process may run on (its affinity mask: taskset, cgroups, Slurm), at least 1. */
unsigned row_jobs_cpus(void);

/* How many items `slices` slices of n_rows entries make: slices * ceil(n_rows / ROW_JOBS_CHUNK). */
size_t row_jobs_items(size_t slices, size_t n_rows);

/* Runs every item on `threads` threads (0: row_jobs_cpus(); never more than there are items), each
 * with its own scratch of scratch_bytes (> 0). Returns 0, or -1 with errno ENOMEM when items were
 * left because no thread could allocate its scratch (a thread that cannot takes no item; the others
 * take them all). */
int row_jobs_run(size_t slices, size_t n_rows, unsigned threads, size_t scratch_bytes, row_jobs_fn fn,
                 void *ctx);

#endif
