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
 * of B over its (b,h) slice. Legitimate differences stay well below it: the GPU's FP8 accumulator
 * puts about 1e-2 of rel-L2 between a GPU's and the emulator's output (paper/methods.md#fp8-mirror);
 * on the emulator at the mission shape, stage 6 against stage 5 (P as e4m3 against fp16, rel-L2
 * 2.3e-2) differs by at most 0.13 of the RMS, stage 7e against 6 (tiles of 128 keys against 32,
 * 1.4e-2) by at most 0.10. An element computed from the wrong row, column or tile is off by about
 * the RMS itself (two unrelated outputs: about 1.4 of it). 0.25 lies between. */
#define DUMP_DIFF_LARGE 0.25

/* argv[1] is "dump-diff". Exit status 0 (compared), 1 when a dump is missing, unreadable or of
 * another problem (the message names the file and field), 2 on usage. */
int dump_diff_main(int argc, char **argv);

#endif
