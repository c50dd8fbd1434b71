/* sdpa-report sanitizers-json: sanitizers.json (kind "sanitizers", data/SCHEMA.md) from the logs of
 * tools/campaign/gpu-checks.sh's compute-sanitizer runs (sanitizer_log.h), written once through the
 * library's atomic, never-overwriting writer. */
#ifndef SANITIZERS_JSON_H
#define SANITIZERS_JSON_H

/* argv[1] is "sanitizers-json". Exit 0 written, every entry pass or not run; 3 written, and some
 * entry failed (a finding, a tool error, or a finding outside the variants' kernels); 1 when a
 * file cannot be read or written; 2 on usage or a malformed record. */
int sanitizers_json_main(int argc, char **argv);

#endif
