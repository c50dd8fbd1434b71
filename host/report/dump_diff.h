/* sdpa-report dump-diff A B [--large F]: where two dumps of one problem differ (sdpa-bench --dump or
 * --dump-failed directories: o.npy and meta.json). A is examined, B is the yardstick: typically a
 * GPU's output of a variant whose check failed (--dump-failed, brought home by the short lease)
 * against the emulator's output of the same variant on the same inputs (--dump at the same shape,
 * seed, codec and dist). A wrong layout or index shows as a pattern: which query rows modulo the
 * fragments' 16 and the warpgroups' 64, which query tiles, which columns of the head dimension,
 * which heads hold the large differences. Prints, never judges: no exit status depends on it. */
#ifndef DUMP_DIFF_H
#define DUMP_DIFF_H

/* The default of --large: a difference counts as large above this fraction of the root mean square
 * of B over its (b,h) slice. Legitimate GPU-against-emulator differences of the FP8 line are about
 * 1e-2 in rel-L2 (the tensor core's accumulator, paper/methods.md#fp8-mirror), so an element a
 * few times the typical one stays near 0.05 of the slice's RMS; an element computed from the wrong
 * row, column or tile is off by about the RMS itself (a difference of two unrelated outputs: about
 * 1.4 of it). 0.25 lies between, a factor of four or more from either. */
#define DUMP_DIFF_LARGE 0.25

/* argv[1] is "dump-diff". Exit status 0 (compared), 1 when a dump is missing, unreadable or of
 * another problem (the message names the file and field), 2 on usage. */
int dump_diff_main(int argc, char **argv);

#endif
