/* sdpa-report sweep-summary --out FILE [--out FILE]... --sweep NAME --collected STAMP --paper NOTE
 *                          [--row KIND PART STATUS SLURM_STATE TASK INGESTED REASON]... [--report PATH]...
 * The Slurm collector's summary (tools/sweep/collect.sh): kind sweep-summary, one "parts" entry per
 * --row (STATUS complete or missing; complete and missing counted from them), "reports" in the
 * order given. Each FILE is replaced atomically (a later collection of the same sweep replaces
 * it whole; a failed write leaves the earlier one). Exit 0, 1 on a write error, 2 on usage. */
#ifndef SWEEP_SUMMARY_H
#define SWEEP_SUMMARY_H

int sweep_summary_main(int argc, char **argv);

#endif
