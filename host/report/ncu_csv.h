/* sdpa-report ncu-json: Nsight Compute's --csv export -> profile.json (kind "profile",
 * data/SCHEMA.md). The fixed metric set, each with the hypothesis of the study it tests, lives in
 * ncu_csv.c; the campaign asks for it with --list-metrics. */
#ifndef NCU_CSV_H
#define NCU_CSV_H

/* argv[1] is "ncu-json". Exit status 0, 1 when a file cannot be read or written, 2 on usage or a
 * malformed CSV (the message names the line). */
int ncu_json_main(int argc, char **argv);

#endif
