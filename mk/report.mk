# Reports: sdpa-report (JSON -> tables, TSV, YAML, summary), gnuplot and pandoc.
# Data flows one way: run directory (JSON) -> sdpa-report -> gnuplot / pandoc; nothing reads a
# program's stdout. Included by experiments/common.mk.
#
#   make report RUN=data/<experiment>/<run-id>   re-render one run's report from its data
#   make paper                                   the whole study from the latest run of each
# Generated files: <run>/tables/, <run>/*.tsv, <run>/plot-vars.gp, <run>/meta.yaml,
# <run>/summary.json (derived, rebuilt identically); $(FIG_DIR)/<experiment>/<run-id>/*.png;
# $(REPORT_DIR)/<experiment>/<run-id>/report.{pdf,html,md}; $(REPORT_DIR)/paper.{pdf,html,md}.

# ---- sdpa-report ---------------------------------------------------------------------------
REPORT_SRCS := $(addprefix host/report/,main.c textbuf.c fields.c run.c gates.c tables.c correctness_tables.c perf_tables.c resource_tables.c \
               published.c figures.c meta_yaml.c paper.c manifest.c ncu_csv.c dump_diff.c)
# The paper's GPU part (GPU_DATA_DIR): discovery and loading, tables, figure inputs.
REPORT_SRCS += $(addprefix host/report/,gpu_campaigns.c gpu_section.c gpu_tables.c gpu_between.c gpu_history.c gpu_scaling.c gpu_sanitizers.c gpu_profile.c gpu_figdata.c gpu_parts.c gpu_probes.c gpu_peers.c gpu_matrix.c gpu_stage7g.c gpu_verdicts.c gpu_coverage.c issue_slots.c issue_measured.c)
# The campaign's own files (tools/campaign/): campaign.json, sanitizers.json.
REPORT_SRCS += $(addprefix host/report/,tsv_in.c campaign_json.c sanitizer_log.c sanitizers_json.c)
# Data that arrives from elsewhere: make ingest, run parameters as data, the sweep collector's summary.
REPORT_SRCS += $(addprefix host/report/,names.c tar_read.c ingest_check.c ingest.c params.c sweep_summary.c)
REPORT_OBJ_DIR := $(BUILD)/obj/host/report
REPORT_OBJS    := $(REPORT_SRCS:host/report/%.c=$(REPORT_OBJ_DIR)/%.o)
SDPA_REPORT    := $(BIN)/sdpa-report
$(REPORT_OBJS): $(REPORT_OBJ_DIR)/%.o: host/report/%.c | $(DEPS_STAMP)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@
# Shared with the other programs, compiled again here (also with the sanitizers): sdpa-bench's
# variant registry (host/bench/variants.c: which builds are stubs of a variant that cannot run on
# their architecture or codec) and ptxas-json's occupancy model (host/ptxas/occupancy.c: the
# original's published resources through the same model as this build's), and sdpa-bench's
# speed-of-light model (host/bench/roofline.c: the exponentials' roof of the GPU part's roofline)
# with its reading of a compute capability (host/bench/arch.c).
REPORT_SHARED_SRCS := host/bench/variants.c host/bench/roofline.c host/bench/arch.c host/ptxas/occupancy.c
report_shared_obj = $(addprefix $(1)/,$(subst /,-,$(REPORT_SHARED_SRCS:host/%.c=%.o)))
REPORT_SHARED_OBJS := $(call report_shared_obj,$(REPORT_OBJ_DIR))
$(REPORT_OBJ_DIR)/bench-variants.o: host/bench/variants.c $(SDPA_CUSTOM_H)
$(REPORT_OBJ_DIR)/bench-roofline.o: host/bench/roofline.c
$(REPORT_OBJ_DIR)/bench-arch.o: host/bench/arch.c
$(REPORT_OBJ_DIR)/ptxas-occupancy.o: host/ptxas/occupancy.c
$(REPORT_SHARED_OBJS): | $(DEPS_STAMP)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

$(SDPA_REPORT): $(REPORT_OBJS) $(REPORT_SHARED_OBJS) $(HOST_LIB)
	@echo "  LD      $@"
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_ALL) $^ -o $@ $(HOST_LDLIBS)

# The same program with AddressSanitizer + UBSan (and leak checks), run by the report tests.
REPORT_ASAN_DIR := $(BUILD)/obj/host/report-asan
REPORT_ASAN_OBJS := $(REPORT_SRCS:host/report/%.c=$(REPORT_ASAN_DIR)/%.o)
REPORT_ASAN_SHARED_OBJS := $(call report_shared_obj,$(REPORT_ASAN_DIR))
SDPA_REPORT_ASAN := $(BUILD)/tests/report/sdpa-report-asan
$(REPORT_ASAN_OBJS): $(REPORT_ASAN_DIR)/%.o: host/report/%.c | $(DEPS_STAMP)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_ALL) $(SAN_FLAGS) -MMD -MP -c $< -o $@
$(REPORT_ASAN_DIR)/bench-variants.o: host/bench/variants.c $(SDPA_CUSTOM_H)
$(REPORT_ASAN_DIR)/bench-roofline.o: host/bench/roofline.c
$(REPORT_ASAN_DIR)/bench-arch.o: host/bench/arch.c
$(REPORT_ASAN_DIR)/ptxas-occupancy.o: host/ptxas/occupancy.c
$(REPORT_ASAN_SHARED_OBJS): | $(DEPS_STAMP)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_ALL) $(SAN_FLAGS) -MMD -MP -c $< -o $@
$(SDPA_REPORT_ASAN): $(REPORT_ASAN_OBJS) $(REPORT_ASAN_SHARED_OBJS) $(HOST_ASAN_LIB)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_ALL) $(SAN_FLAGS) $^ -o $@ $(HOST_LDLIBS)

## sdpa-report: build build/bin/sdpa-report (run JSON -> report tables, TSV, YAML, summary.json)
sdpa-report: $(SDPA_REPORT)
.PHONY: sdpa-report
BUILD_TARGETS += $(SDPA_REPORT)
-include $(REPORT_OBJS:.o=.d) $(REPORT_ASAN_OBJS:.o=.d) $(REPORT_SHARED_OBJS:.o=.d) $(REPORT_ASAN_SHARED_OBJS:.o=.d)

# The pre-registration table (paper/prereg.sh), refreshed by make report and make paper; its key
# keeps it while history, experiments and script stand.
PREREG = PREREG_KEY=$(BUILD)/prereg.key paper/prereg.sh

# ---- rendering -----------------------------------------------------------------------------
PUBLISHED_JSON ?= data/published/seed-l4.json
GNUPLOT ?= gnuplot
PANDOC  ?= pandoc
# Byte-reproducible PDF and HTML: the date comes from the commit, never from the clock
# (pandoc 2.17 compiles in a randomly named directory, which changes the PDF /ID); each document also sets \pdftrailerid in its metadata.
SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null || echo 0)
PANDOC_ENV := SOURCE_DATE_EPOCH=$(SOURCE_DATE_EPOCH) FORCE_SOURCE_DATE=1 TZ=UTC
REPORT_FIGURES := latency speedup correctness ptxas
PANDOC_FORMATS := pdf html md
pandoc_defaults_pdf  := -d paper/defaults/common.yaml -d paper/defaults/pdf.yaml
pandoc_defaults_html := -d paper/defaults/common.yaml -d paper/defaults/html.yaml
pandoc_defaults_md   := -d paper/defaults/common.yaml -d paper/defaults/gfm.yaml
RENDER_DEPS := paper/report.md paper/methods.md paper/refs.bib paper/csl/numeric.csl paper/style.css \
               paper/latex/preamble.tex $(wildcard paper/filters/*.lua paper/defaults/*.yaml figures/*.gp)

# Every generated file gets its final name through `sdpa-report install` (fileio's atomic writer;
# a .png or .pdf must be whole): gnuplot and pandoc write temporary files (*.tmp.*), and a failed
# write (full disk, file-size limit) stops the step with the path and the error, leaving the
# earlier file as it was and no temporary file behind.

# $(call gnuplot_all,RUNDIR,FIGDIR[,SCRIPTS]): every figure script (default: a run's) whose TSV
# has data, rendered into a temporary directory, then installed.
define gnuplot_all
	$(Q)mkdir -p $(2) && t=$$(mktemp -d $(2)/figures.tmp.XXXXXX) && trap 'rm -rf "$$t"' EXIT && \
	for s in $(or $(3),$(REPORT_FIGURES)); do \
	  case $$s in latency) grep -q "^timed_shapes = '[^']" $(1)/plot-vars.gp || continue ;; \
	              speedup) grep -qv '^#' $(1)/speedup.tsv || continue ;; esac; \
	  $(GNUPLOT) -e "rundir='$(1)'; figdir='$$t'" figures/$$s.gp || { echo "gnuplot figures/$$s.gp: failed (exit status $$?)" >&2; exit 1; }; \
	done && for p in $$t/*.png; do [ -e "$$p" ] || continue; $(SDPA_REPORT) install $$p $(2)/$${p##*/} || exit 1; done
endef

# $(call pandoc_all,SOURCE,OUTDIR,BASENAME,PANDOC-ARGS,FIGDIR): PDF, standalone HTML, GitHub Markdown.
# The Markdown twin refers to the figures relative to its own directory: FIGDIR, and the checkout's
# root as {root} (the paper's stage fragments name their runs' figures from there). The trap removes
# the temporary file of an interrupted pandoc (SIGINT/SIGTERM end the shell through its EXIT trap).
define pandoc_all
	$(Q)trap 'rm -f "$$t"' EXIT; for f in $(PANDOC_FORMATS); do \
	  rt=.; case $$f in pdf) d="$(pandoc_defaults_pdf)"; fd='$(5)' ;; html) d="$(pandoc_defaults_html)"; fd='$(5)' ;; \
	              md) d="$(pandoc_defaults_md)"; fd=$$(realpath -m --relative-to=$(2) $(5)); rt=$$(realpath -m --relative-to=$(2) .) ;; esac; \
	  t=$(2)/$(3).tmp.$$$$.$$f; \
	  $(PANDOC_ENV) $(PANDOC) $(1) $$d $(4) -M figdir=$$fd -M root=$$rt -M out=$(2) -o $$t && $(SDPA_REPORT) install $$t $(2)/$(3).$$f \
	    || { rm -f $$t; echo "pandoc: $(2)/$(3).$$f not written" >&2; exit 1; }; done
endef

# $(call report_tables_cmd,RUNDIR,EXPERIMENT): sdpa-report experiment on a run directory, its
# title, variants, gate, static budget (over common.mk's default) and make target taken from the
# run's own experiment.mk by sdpa-report's strict parser (params.h): a run directory may have
# arrived in a campaign tarball, and make never includes, nor a shell sources, what arrived.
report_tables_cmd = $(SDPA_REPORT) experiment --run $(1) --experiment $(2) --static-budget $(STATIC_BUDGET) \
  --definition $(1)/experiment.mk --published $(PUBLISHED_JSON)

# ---- one run's report: make report RUN=data/<experiment>/<run-id> --------------------------
# RUN_GIVEN: set by experiments/common.mk when RUN=... is on the command line.
ifdef RUN_GIVEN
RUN_FIGS := $(FIG_DIR)/$(EXPERIMENT)/$(notdir $(RUN))
RUN_OUT  := $(REPORT_DIR)/$(EXPERIMENT)/$(notdir $(RUN))
RUN_PREFIX = [$(EXPERIMENT) $(1)/6]

## report: re-render a run's report from its data, nothing measured (RUN=data/<experiment>/<run-id>)
report: report-tables report-figures
	@echo "$(call RUN_PREFIX,6) pandoc: $(RUN_OUT)/report.{pdf,html,md}"
	$(Q)mkdir -p $(RUN_OUT)
	$(Q)set -o pipefail; experiments/inventory.sh run $(RUN) run.json run-timing.json ptxas.json experiment.mk hypothesis.md \
	  $$(cd $(RUN) && ls *.tsv) -- published $(dir $(PUBLISHED_JSON)) $(notdir $(PUBLISHED_JSON)) \
	  -- figures $(RUN_FIGS) $$(cd $(RUN_FIGS) && ls *.png) | $(SDPA_REPORT) install - $(RUN_OUT)/inventory.md
	$(call pandoc_all,paper/report.md,$(RUN_OUT),report,--metadata-file=$(RUN)/meta.yaml -M run=$(RUN),$(RUN_FIGS))
	@echo "report: $(RUN_OUT)/report.pdf"

# The tables and TSV are derived from the run's JSON only; a missing or corrupted file stops
# here with the file and field named (sdpa-report exits 1). The run's parameters come from its
# copy of experiment.mk read as data (report_tables_cmd), never from make including it.
report-tables: $(SDPA_REPORT) $(RENDER_DEPS)
	@test -d '$(RUN)' || { echo "report: RUN=$(RUN): no such run directory (RUN=data/<experiment>/<run-id>)" >&2; exit 2; }
	@echo "$(call RUN_PREFIX,4) sdpa-report: $(RUN) -> tables/, *.tsv, meta.yaml, summary.json"
	$(Q)$(PREREG)
	$(Q)$(SDPA_REPORT) params experiment '$(RUN)/experiment.mk' && \
	  { test -f '$(RUN)/run.json' || { echo "report: $(RUN)/run.json: no such file (RUN must be a run directory)" >&2; exit 1; }; }
	$(Q)$(call report_tables_cmd,'$(RUN)','$(EXPERIMENT)')

report-figures: report-tables
	@echo "$(call RUN_PREFIX,5) gnuplot: $(RUN_FIGS)/*.png"
	$(call gnuplot_all,$(RUN),$(RUN_FIGS))
.PHONY: report report-tables report-figures
else
report:
	@echo "report: give the run directory, e.g. make report RUN=data/stage2-wmma-pv/<run-id>" >&2; exit 2
.PHONY: report
endif

# ---- the paper's GPU part: the committed GPU campaigns ---------------------------------------
# GPU_DATA_DIR: the campaigns `make paper` reads, as `make ingest` unpacks them
# (<slug>/<campaign-id>/, plus sweeps/<sweep>.json); tests and the Slurm collector point it
# elsewhere. Without any campaign the paper's GPU part says that none is committed and no GPU
# figure is drawn.
GPU_DATA_DIR ?= $(DATA_DIR)/gpu
PAPER_GPU_ARGS = --gpu-data $(GPU_DATA_DIR)

# Each experiment's latest complete run in every ingested campaign (sdpa-report latest-run, the
# pick the GPU part reads) gets its derived tables and summary.json, which the GPU part's verdicts
# and ratios read (the same writer as `make report`, nothing measured). The paths go to
# sdpa-report as quoted words, never through make (a name would be expanded); dot names (an
# ingest being staged) and ".tmp." ones (unfinished) are not campaigns.
define paper_gpu_runs
	$(Q)for x in $(GPU_DATA_DIR)/*/*/runs/*/; do \
	  [ -d "$$x" ] || continue; x=$${x%/}; e=$${x##*/}; \
	  case $${x#$(GPU_DATA_DIR)/} in *.tmp.*) continue ;; esac; \
	  d=$$($(SDPA_REPORT) latest-run "$$x") || exit 1; [ -n "$$d" ] || continue; \
	  $(call report_tables_cmd,"$$d","$$e") >/dev/null || exit 1; done
endef

# $(call gnuplot_gpu,GEN,FIGDIR): the figures listed in GEN/gpu-figures.txt ("<tag> <script>", by
# sdpa-report paper), each from GEN/gpu/<tag>/ into FIGDIR/<tag>/<script>.png, installed atomically.
define gnuplot_gpu
	$(Q)grep -v '^#' $(1)/gpu-figures.txt | while read -r tag s; do \
	  mkdir -p $(2)/$$tag && t=$$(mktemp -d $(2)/$$tag/figures.tmp.XXXXXX) && \
	  { $(GNUPLOT) -e "rundir='$(1)/gpu/$$tag'; figdir='$$t'" figures/$$s.gp && \
	    $(SDPA_REPORT) install $$t/$$s.png $(2)/$$tag/$$s.png; rc=$$?; rm -rf "$$t"; [ $$rc -eq 0 ]; } || \
	  { echo "gnuplot figures/$$s.gp ($(1)/gpu/$$tag): failed" >&2; exit 1; }; done
endef

# Arguments of experiments/inventory.sh for the GPU part (shell text, expanded in the recipe): one
# group per campaign, "gpu/<slug>/<id>" with the files the paper read, and the GPU figures drawn.
paper_gpu_inventory = $$(for c in $(GPU_DATA_DIR)/*/*/campaign.json; do [ -f "$$c" ] || continue; \
  d=$${c%/campaign.json}; case $$d in *.tmp.*) continue ;; esac; printf -- ' -- gpu/%s %s ' "$${d\#$(GPU_DATA_DIR)/}" "$$d"; \
  (cd "$$d" && ls campaign.json device-run.json history.json ceilings.json sanitizers.json profile.json \
    scaling/*.json scaling/skipped.txt runs/*/*/run.json runs/*/*/run-timing.json 2>/dev/null) | tr '\n' ' '; done; \
  printf -- ' -- figures/gpu %s ' $(PAPER_FIGS)/gpu; \
  grep -v '^\#' $(PAPER_GEN)/gpu-figures.txt | while read -r t s; do printf '%s/%s.png ' "$$t" "$$s"; done)
