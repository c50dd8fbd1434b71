/* sdpa-report ncu-json: Nsight Compute's --csv export -> profile.json (kind "profile",
 * data/SCHEMA.md). The fixed metric set, each with the hypothesis of the study it tests, lives in
 * ncu_csv.c; the campaign asks for it with --list-metrics. */
#ifndef NCU_CSV_H
#define NCU_CSV_H

/* Names of the set that the paper's profile sections read by name (gpu_profile.c): the DRAM bytes
 * read, the L2 bytes, and the SMs' mean and busiest busy share of the elapsed cycles (the tail of a
 * launch; stage 7m's failure reading). */
#define NCU_DRAM_READ "dram__bytes_read.sum"
#define NCU_L2_BYTES "lts__t_bytes.sum"
#define NCU_SM_BUSY "sm__cycles_active.avg.pct_of_peak_sustained_elapsed"
#define NCU_SM_BUSY_MAX "sm__cycles_active.max.pct_of_peak_sustained_elapsed"

/* argv[1] is "ncu-json". Exit status 0, 1 when a file cannot be read or written, 2 on usage or a
 * malformed CSV (the message names the line). */
int ncu_json_main(int argc, char **argv);

#endif
