/* The GPU campaigns of the paper: discovered under GPU_DATA_DIR (data/gpu/<device-slug>/<id>/, as
 * tools/campaign/ingest.sh unpacks them) and loaded once. Optional files (history, scaling,
 * ceilings, sanitizers, profile, profiles at the gate shapes, probes, matrix, peers) may be absent: the tables then
 * say so. A file that is present
 * but unreadable, of another schema major version or of the wrong kind stops the paper with the
 * file and field named. */
#ifndef GPU_CAMPAIGNS_H
#define GPU_CAMPAIGNS_H

#include <stdbool.h>
#include <cjson/cJSON.h>

#include "run.h"

#define GPU_MAX_CAMPAIGNS 64
#define GPU_MAX_SWEEPS 64
#define GPU_MAX_RUNS 32
#define GPU_MAX_POINTS 512
/* The correctness matrix's files (campaign part "matrix"): e4m3, seed-linear, outliers, and wide
 * (head dimension 128 and causal masks; campaigns before it have the first three). */
#define GPU_MATRIX_FILES 4
extern const char *const gpu_matrix_files[GPU_MATRIX_FILES];
/* The profiles at an experiment's gate shape (campaign part "profiles", steps profiles-gate...;
 * campaign.sh's gate_profiles): the Hopper line at stage 7f's (it decides stage 7g), at stage 7j's
 * (D = 128) and at stage 7m's (causal). gpu_gate_profiles[k] is the file's stem. */
enum { GPU_GATE_7F, GPU_GATE_7J, GPU_GATE_7M, GPU_GATE_PROFILES };
extern const char *const gpu_gate_profiles[GPU_GATE_PROFILES];
/* The peers' runs at one shape (campaign part "peers": peers/<peer>-<shape>.json, the cuBLAS peer
 * beside every variant and one file per PyTorch backend), at most this many. */
#define GPU_MAX_PEER_FILES 16

/* One point of the scaling sweep: a variant or a peer at one S, measured, skipped or failed. The
 * sweep's files: scaling/S<s>.json (one sdpa-bench process per S with every variant and peer), or
 * the older scaling/<series>-S<s>.json (one per series and S; the PyTorch peers' still are),
 * scaling/skipped.txt and scaling/failed.txt ("<series> S=<s> B=<b> H=<h> skipped|failed: <reason>"). */
typedef struct {
    char series[96]; /* variant id, or the peer's file stem ("peer-cublas-unfused") */
    bool peer;
    long S;
    double B, H, D;
    const char *status; /* "ok", "skipped", "failed" */
    char reason[256];   /* why it is not "ok" */
    char library[160];  /* a peer's libraries as its file records them ("library": torch, cuda, cudnn) */
    double median_us, ci_lo, ci_hi, tflops; /* tflops = 4*B*H*S*S*D / median */
    long ref_rows;                          /* rows of every slice its correctness check covered (fewer
                                             * than S: a sampled reference); 0 when not recorded */
    double n, noise;                        /* samples kept; their IQR over the median */
} gpu_point_t;

/* One experiment's latest complete run directory inside the campaign (runs/<experiment>/<id>/). */
typedef struct {
    char name[256], dir[REPORT_PATH_MAX];
    cJSON *summary; /* summary.json (sdpa-report experiment); NULL when missing */
    report_t r;     /* loaded when summary is */
    bool loaded;
    char note[256]; /* why it is not loaded */
} gpu_run_t;

typedef struct {
    char dir[REPORT_PATH_MAX], slug[256], id[256], tag[32]; /* tag: "c<k>", for file and table ids */
    cJSON *campaign, *device_run, *history, *ceilings, *sanitizers, *profile;
    cJSON *gate_profile[GPU_GATE_PROFILES]; /* <gpu_gate_profiles[k]>.json */
    cJSON *history_warm, *aa_control;       /* history-warm.json (--l2 warm), aa-control.json (A/A) */
    cJSON *probes;                          /* probes/probes.json (kernels/probes: sm_90a layouts) */
    cJSON *matrix[GPU_MATRIX_FILES];        /* matrix/<gpu_matrix_files[k]>.json: the correctness matrix */
    rj_t C, DR, H, CE, SA, PR, HW, AA, PB;  /* rj views (root NULL when the file is absent) */
    rj_t MX[GPU_MATRIX_FILES];
    rj_t GP[GPU_GATE_PROFILES];
    cJSON *peers[GPU_MAX_PEER_FILES]; /* peers/<peer>-<shape>.json in name order, kind sdpa-bench-run */
    rj_t PE[GPU_MAX_PEER_FILES];
    char peer_paths[GPU_MAX_PEER_FILES][REPORT_PATH_MAX + 216];
    int npeers;
    char paths[9 + GPU_GATE_PROFILES + GPU_MATRIX_FILES]
              [REPORT_PATH_MAX + 32]; /* one per F_* file of gpu_campaigns.c */
    bool emulated;                    /* backend is not cuda: ingested with --allow-emulated */
    bool fixture; /* meta.tool is "synthetic-fixture": a test fixture, not a measurement */
    gpu_point_t pts[GPU_MAX_POINTS];
    int npts;
    gpu_run_t runs[GPU_MAX_RUNS];
    int nruns;
} gpu_campaign_t;

#define GPU_MAX_EXPERIMENTS 32
typedef struct {
    gpu_campaign_t *c[GPU_MAX_CAMPAIGNS];
    int n;
    /* This checkout's experiments (sdpa-report paper's --stage names; not owned): a device's parts
     * table lists those none of its campaigns planned, added since they ran. */
    const char *experiments[GPU_MAX_EXPERIMENTS];
    int n_experiments;
    cJSON *sweeps[GPU_MAX_SWEEPS]; /* data/gpu/sweeps/<sweep>.json, kind sweep-summary */
    char sweep_paths[GPU_MAX_SWEEPS][REPORT_PATH_MAX];
    int nsweeps;
} gpu_data_t;

/* Whether dir/name under GPU_DATA_DIR is a finished campaign the paper may read: a valid id (not
 * a dot name, which an ingest in progress uses, nor one with ".tmp."), holding campaign.json. When
 * not, why says so. */
bool gpu_campaign_finished(const char *dir, const char *name, char *why, size_t n);
/* Loads every campaign under dir (sorted by slug, then id); a missing dir holds none.
 * published: data/published/seed-l4.json, for the runs' reports. 0 or -1 with err set. */
int gpu_data_load(gpu_data_t *g, const char *dir, const char *published, char *err, size_t n);
void gpu_data_free(gpu_data_t *g);

/* The experiment runs of every campaign (gpu_run_t entries, loaded or not). */
int gpu_data_runs(const gpu_data_t *g);
/* A run's performance gate in its summary.json (the first gate of group "performance"), or NULL. */
const cJSON *gpu_run_performance_gate(const gpu_run_t *r);
/* A ceiling's value by name ("gemm_fp16", ...) when its status is "ok"; NaN otherwise. */
double gpu_ceiling(const gpu_campaign_t *c, const char *name);
/* "SYNTHETIC (fixture)", "EMULATED (CPU), not a GPU timing" or "gpu": how the campaign's timings are labelled. */
const char *gpu_timing_label(const gpu_campaign_t *c);
/* The minimum-DRAM-bytes model of the roofline: Q, K, V codes 1 byte each, O fp16 2 bytes. */
#define GPU_BYTES_PER_ELT 5.0

#endif
