# Experiments: the pipeline behind each experiment's target (`make stage1` ... `make stage7c`),
# `make report`, `make paper`, `make all` and `make kick-the-tires` (included by the top Makefile).
#
#   1 build      the variants, $(BIN)/sdpa-bench, $(BIN)/sdpa-report and, with nvcc, $(PTXAS_JSON)
#   2 run dir    $(DATA_DIR)/<experiment>/<run-id>/ (new; never reused; earlier runs untouched)
#   3 harness    correctness on every shape and seed (run.json), then timing (run-timing.json)
#   4 tables     sdpa-report: tables/*.md, *.tsv, meta.yaml, summary.json in the run directory
#   5 figures    gnuplot -> $(FIG_DIR)/<experiment>/<run-id>/*.png
#   6 report     pandoc -> $(REPORT_DIR)/<experiment>/<run-id>/report.{pdf,html,md}
# Steps 2-3 are experiments/run.sh, steps 4-6 mk/report.mk. Each experiment is declared in
# experiments/<name>/experiment.mk (variants, shapes, seeds, gates) with its hypothesis.md; both
# are copied into the run directory, and `make report RUN=...` reads the copies as data
# (sdpa-report's strict parser, host/report/params.h): a run directory may come from a campaign
# tarball, so make never includes anything from it.
#
# Variables (command line or environment):
#   DATA_DIR, FIG_DIR, REPORT_DIR   where runs, figures and reports go (tests redirect all three)
#   GPU_DATA_DIR                    the GPU campaigns `make paper` reads (default $(DATA_DIR)/gpu)
#   RUN_ID                          force the run id (refused if that directory exists)
#   RUN                             the run directory of `make report`
#   SHAPES, SEEDS, TIMING_SHAPE, EMU_TIMING_SHAPE, GPU_TIMING, EMU_TIMING, ...  override an
#                                   experiment's parameters (EMU_TIMING_SHAPE: the shape timed on
#                                   the emulator, default TIMING_SHAPE)
#   THROTTLE                        the timing's --throttle-threshold: auto (default: the device's
#                                   row of sdpa-bench's table, host/bench/throttle.c) or a fraction
#   BACKEND                         auto (default: the GPU when usable, else the emulator, said
#                                   loudly), cuda (stop with the reason, before any run directory
#                                   exists, when no usable GPU) or emu

DATA_DIR   ?= data
FIG_DIR    ?= figures
REPORT_DIR ?= paper/build
# Every directory with an experiment.mk is an experiment, in name order (the order of `make all`
# and of the paper's tables; the names sorted, not their paths, so that stage7f-overlap comes
# before stage7f-overlap-d128); its MAKE_TARGET (one per directory, unique) is its target.
EXPERIMENTS := $(sort $(patsubst experiments/%/experiment.mk,%,$(wildcard experiments/*/experiment.mk)))
# "<experiment>=<target>" per directory, read once (a KEY := VALUE line; sdpa-report's parser checks
# the rest of the file when the experiment runs).
EXPERIMENT_TARGET_PAIRS := $(shell for e in $(EXPERIMENTS); do \
  printf '%s=%s\n' "$$e" "$$(sed -n 's/^MAKE_TARGET *:= *//p' experiments/$$e/experiment.mk)"; done)
experiment_target = $(patsubst $(1)=%,%,$(filter $(1)=%,$(EXPERIMENT_TARGET_PAIRS)))
EXPERIMENT_TARGETS := $(foreach e,$(EXPERIMENTS),$(call experiment_target,$(e)))
$(foreach e,$(EXPERIMENTS),$(if $(filter-out 1,$(words $(call experiment_target,$(e)))),\
  $(error experiments/$(e)/experiment.mk: one MAKE_TARGET := NAME line expected)))
$(if $(filter-out $(words $(EXPERIMENTS)),$(words $(sort $(EXPERIMENT_TARGETS)))),\
  $(error experiments/*/experiment.mk: two experiments share a MAKE_TARGET ($(EXPERIMENT_TARGETS))))
SDPA_BENCH := $(BIN)/sdpa-bench

# Defaults of the parameters an experiment.mk may override.
# Static budgets: registers, spill bytes, local-memory bytes, static shared memory bytes
# (48 KiB: the most a block may use without opting in to dynamic shared memory). The register
# count is the D = 64 builds' budget; a D = 128 build is judged at the cap of its own launch bounds
# (kernels/geometry.h, SDPA_REG_CAP: 255, or 168 for a 384-thread block), as ptxas-json gates it and
# paper/methods.md fixes it (sdpa-report, report_register_budget).
STATIC_BUDGET ?= 128,0,0,49152
# Timing budgets, "WARMUP ITERS MIN_TIME_S MAX_TIME_S", chosen by the backend the harness picked.
# GPU: at least 200 interleaved rounds and 2 s, at most 30 s per variant.
GPU_TIMING ?= 20 200 2 30
# CPU emulator: a mission-shape launch takes seconds, so a few samples keep `make stage2` within
# minutes on 2 cores; they are labelled emulated and decide no gate.
EMU_TIMING ?= 1 6 0 40
L2 ?= cold
THROTTLE ?= auto
# Checked where it is used, against the one list (host/lib/backend_names.h): experiments/run.sh
# (sdpa-report params check, before a run directory exists) and sdpa-bench --backend.
BACKEND ?= auto

# The experiment being run (sub-make of a stage target) or reported (RUN=...). Only a RUN given
# on the command line counts: a RUN variable in the user's environment must not hijack `make`.
ifneq ($(filter command line,$(origin RUN)),)
ifeq ($(RUN),)
$(error RUN is empty: give a run directory, e.g. make report RUN=data/stage2-wmma-pv/<run-id>)
endif
override RUN := $(patsubst %/,%,$(RUN))
RUN_GIVEN := 1
EXPERIMENT := $(notdir $(patsubst %/,%,$(dir $(RUN))))
else ifneq ($(EXPERIMENT),)
include experiments/$(EXPERIMENT)/experiment.mk
endif

include mk/report.mk

# One rule per experiment directory, named by its MAKE_TARGET: a new run directory and its report
# (`make help` lists them with their TITLE).
define experiment_rule
$(call experiment_target,$(1)):
	$$(Q)$$(MAKE) --no-print-directory experiment EXPERIMENT=$(1)
.PHONY: $(call experiment_target,$(1))
endef
$(foreach e,$(EXPERIMENTS),$(eval $(call experiment_rule,$(e))))
# For `make help`: "  <target>  run <TITLE> into a new run directory and build its report".
define experiments_help
	@for e in $(EXPERIMENTS); do \
	  printf '  %-28s run %s into a new run directory and build its report\n' \
	    "$$(sed -n 's/^MAKE_TARGET *:= *//p' experiments/$$e/experiment.mk)" \
	    "$$(sed -n 's/^TITLE *:= *//p' experiments/$$e/experiment.mk)"; done
endef

ifneq ($(EXPERIMENT),)
ifndef RUN_GIVEN
# Steps 1-3, then the report of the new run directory (steps 4-6) in a sub-make.
experiment: $(SDPA_BENCH) $(SDPA_REPORT) $(PTXAS_JSON)
	@echo "[$(EXPERIMENT) 1/6] build: $(SDPA_BENCH), $(SDPA_REPORT)$(if $(PTXAS_JSON), and $(PTXAS_JSON),; nvcc not found: no ptxas.json)"
	$(Q)$(if $(dry_run),echo "[$(EXPERIMENT)] make -n: nothing measured; steps 1-3 would write a new run directory under \
	  $(DATA_DIR)/$(EXPERIMENT)/ (experiments/run.sh) and steps 4-6 its report (make report RUN=<it>)",\
	dir=$$(experiments/run.sh exp=$(EXPERIMENT) data=$(DATA_DIR) bench=$(SDPA_BENCH) report=$(SDPA_REPORT) \
	  ptxas=$(PTXAS_JSON) baseline=$(BASELINE) candidate=$(CANDIDATE) shapes='$(SHAPES)' seeds=$(SEEDS) \
	  timing_shape=$(TIMING_SHAPE) emu_timing_shape=$(or $(EMU_TIMING_SHAPE),$(TIMING_SHAPE)) \
	  gpu='$(GPU_TIMING)' emu='$(EMU_TIMING)' l2=$(L2) run_id=$(RUN_ID) \
	  backend=$(BACKEND) throttle=$(THROTTLE)) && \
	  $(MAKE) --no-print-directory $(if $(render_missing),report-tables,report) RUN=$$dir \
	  $(if $(render_missing),&& echo "[$(EXPERIMENT) 5-6/6] skipped: figures and report ($(render_missing) not installed; make deps-render then make report RUN=$$dir)"))
.PHONY: experiment
endif
endif

ifdef RUN_GIVEN
## resume: finish an interrupted or failed run's missing steps, then its report (RUN=data/<experiment>/<run-id>)
resume: $(SDPA_BENCH) $(SDPA_REPORT)
	$(Q)$(if $(dry_run),echo "resume: make -n: nothing run; experiments/run.sh would finish the missing steps of $(RUN) and then its report",\
	experiments/run.sh resume=$(RUN) exp=$(EXPERIMENT) data=$(DATA_DIR) bench=$(SDPA_BENCH) report=$(SDPA_REPORT) \
	  ptxas= baseline= candidate= shapes= seeds= timing_shape= gpu= emu= l2= run_id= backend= >/dev/null && \
	  $(MAKE) --no-print-directory report RUN=$(RUN))
else
resume:
	@echo "resume: give the run directory, e.g. make resume RUN=data/stage2-wmma-pv/<run-id>" >&2; exit 2
endif
.PHONY: resume

# The latest complete run directory of an experiment (run ids sort by their UTC time), or empty;
# incomplete ones are skipped and named on stderr (sdpa-report latest-run: the one definition,
# which the paper's GPU part also uses). Computed once per experiment, when a recipe first needs
# it (sdpa-report is built by then).
latest_run = $(if $(filter undefined,$(origin LATEST_RUN_$(1))),$(eval LATEST_RUN_$(1) := \
  $(shell $(SDPA_REPORT) latest-run $(DATA_DIR)/$(1))))$(LATEST_RUN_$(1))

## all: run every experiment and the seed-linear codec check, then assemble the paper
# The programs are built on every CPU (-j; they are -j safe); then the experiments and the
# seed-linear check run NPROC at a time, each on one core (the emulator is single-threaded; every
# run has its own run directory and report, and concurrent runs are tested: tests/experiments/
# reliability.sh), each one's output kept together; then the paper.
all:
	$(Q)$(MAKE) --no-print-directory -j$(NPROC) $(SDPA_BENCH) $(SDPA_REPORT) $(PTXAS_JSON)
	$(Q)$(MAKE) --no-print-directory -j$(NPROC) --output-sync=recurse seed-linear $(EXPERIMENT_TARGETS)
	$(Q)$(MAKE) --no-print-directory paper
.PHONY: all

# The original's codec (--codec seed-linear, its biased encoder) on its published shapes and seeds,
# correctness only, into a new run directory: the end-to-end errors the paper sets beside the
# correctness the original published (stage1: every stage of stages 1-3A gives the same errors
# to the digits shown, which the codec, not the kernel, makes). Exit status 1 (a check failed) is
# a result. The paper reads the latest one (SEED_LINEAR_RUN).
SEED_LINEAR_ARGS := --check-only --codec seed-linear --variant stage1 --shape small --shape mission --shape long --seeds 0,1,2
SEED_LINEAR_RUN = $(lastword $(sort $(wildcard $(DATA_DIR)/seed-linear-codec/*/run.json)))
## seed-linear: the original's codec on its published shapes and seeds (a new run directory, ~50 s on the emulator)
seed-linear: $(SDPA_BENCH)
	$(Q)d=$$(experiments/new-run.sh $(DATA_DIR) seed-linear-codec) && echo "[seed-linear] $(SDPA_BENCH) $(SEED_LINEAR_ARGS) -> $$d/run.json" && \
	  { $(SDPA_BENCH) --backend $(BACKEND) $(SEED_LINEAR_ARGS) --quiet --out $$d/run.json; rc=$$?; [ $$rc -le 1 ]; } || \
	  { echo "seed-linear: the harness failed; $$d has no run.json" >&2; exit 1; }
.PHONY: seed-linear

## check-layout: no text outside the text area or overprinted, no duplicate HTML id, in the paper and each experiment's latest report
check-layout:
	$(Q)bash tests/report/layout-check.sh $(wildcard $(REPORT_DIR)/paper.pdf $(REPORT_DIR)/paper.html) \
	  $(foreach e,$(EXPERIMENTS),$(if $(call latest_run,$(e)),$(wildcard $(addprefix $(REPORT_DIR)/$(e)/$(notdir $(call latest_run,$(e)))/report.,pdf html))))
.PHONY: check-layout

# ---- the paper -----------------------------------------------------------------------------
PAPER_GEN  := $(REPORT_DIR)/gen
PAPER_FIGS := $(FIG_DIR)/paper
PAPER_FIGURES := history published

## paper: assemble the whole study from the latest run of each experiment into paper/build/paper.{pdf,html,md}
paper: $(SDPA_REPORT)
	$(Q)$(foreach e,$(EXPERIMENTS),$(if $(call latest_run,$(e)),\
	  $(MAKE) --no-print-directory report-figures RUN=$(call latest_run,$(e)) || exit 1;,\
	  echo "[paper] $(e): no complete run under $(DATA_DIR)/$(e)/ (make all runs it)";)) true
	@echo "[paper] sdpa-report paper -> $(PAPER_GEN) (GPU campaigns: $(GPU_DATA_DIR))"
	$(Q)$(PREREG)
	$(paper_gpu_runs)
	$(Q)$(SDPA_REPORT) paper --published $(PUBLISHED_JSON) --out $(PAPER_GEN) $(PAPER_GPU_ARGS) \
	  $(if $(SEED_LINEAR_RUN),--seed-linear $(SEED_LINEAR_RUN)) \
	  $(foreach e,$(EXPERIMENTS),--stage $(e) $(or $(call latest_run,$(e)),-) $(FIG_DIR)/$(e)/$(notdir $(call latest_run,$(e))))
	@echo "[paper] gnuplot -> $(PAPER_FIGS)"
	$(call gnuplot_all,$(PAPER_GEN),$(PAPER_FIGS),$(PAPER_FIGURES))
	$(call gnuplot_gpu,$(PAPER_GEN),$(PAPER_FIGS)/gpu)
	$(Q)set -o pipefail; experiments/inventory.sh published $(dir $(PUBLISHED_JSON)) $(notdir $(PUBLISHED_JSON)) \
	  $(foreach e,$(EXPERIMENTS),$(if $(call latest_run,$(e)),-- $(e) $(call latest_run,$(e)) run.json run-timing.json ptxas.json experiment.mk hypothesis.md)) \
	  $(if $(SEED_LINEAR_RUN),-- seed-linear-codec $(dir $(SEED_LINEAR_RUN)) run.json) \
	  -- figures $(PAPER_FIGS) $(PAPER_FIGURES:=.png) $(paper_gpu_inventory) | $(SDPA_REPORT) install - $(PAPER_GEN)/inventory.md
	@echo "[paper] pandoc -> $(REPORT_DIR)/paper.{pdf,html,md}"
	$(call pandoc_all,paper/paper.md,$(REPORT_DIR),paper,-M gen=$(PAPER_GEN) -M date=$$(date -u -d @$(SOURCE_DATE_EPOCH) +%Y-%m-%d),$(PAPER_FIGS))
	@echo "paper: $(REPORT_DIR)/paper.pdf"
.PHONY: paper

# The kick-the-tires experiment: stage2 on the small shape only (every seed), a few emulated
# samples; its run directory and report are real (data/stage2-wmma-pv/<run-id>/), only smaller.
KICK_ARGS := SHAPES=small TIMING_SHAPE=small EMU_TIMING='1 6 0 10'

## kick-the-tires: CPU only, minutes: build, the host and report test suites, one small Stage-2 run and its report
kick-the-tires:
	@echo "[kick-the-tires 1/3] build"
	$(Q)$(MAKE) --no-print-directory $(SDPA_BENCH) $(SDPA_REPORT) $(PTXAS_JSON)
	@echo "[kick-the-tires 2/3] tests: host library, report pipeline and experiments' pipeline"
	$(Q)$(MAKE) --no-print-directory test-host test-report test-experiments
	@echo "[kick-the-tires 3/3] make stage2 $(KICK_ARGS)"
	$(Q)$(MAKE) --no-print-directory stage2 $(KICK_ARGS)
	@echo "kick-the-tires: ok (the build, the host, report and experiment suites, a small Stage-2 run and its report;" \
	  "make test runs the kernels' correctness matrix too, make test-long the long tier)"
.PHONY: kick-the-tires

# ---- tests ---------------------------------------------------------------------------------
REPORT_SUITES_QUICK := "bash tests/report/report-tool.sh $(SDPA_REPORT)" \
                       "bash tests/report/report-tool.sh $(SDPA_REPORT_ASAN)" \
                       "bash tests/report/render.sh $(SDPA_REPORT)" \
                       "bash tests/report/run-dir.sh $(SDPA_REPORT)" \
                       "bash tests/report/paper-gpu.sh $(SDPA_REPORT) $(SDPA_REPORT_ASAN)" \
                       "bash tests/report/prereg.sh" \
                       "bash tests/report/stage7g.sh $(SDPA_REPORT) $(SDPA_REPORT_ASAN)" \
                       "bash tests/report/issue-slots.sh $(SDPA_REPORT) $(SDPA_REPORT_ASAN)" \
                       "bash tests/report/coverage.sh $(SDPA_REPORT) $(SDPA_REPORT_ASAN)"
# The rendered documents' looks (make test-long): the watermark's pixels, every page's layout, the
# HTML in a browser (~140 CPU-seconds).
REPORT_SUITES_LONG := "bash tests/report/watermark.sh $(SDPA_REPORT)" \
                      "bash tests/report/layout.sh $(SDPA_REPORT)" \
                      "bash tests/report/browser.sh $(SDPA_REPORT) $(BUILD)/test-logs"
REPORT_SUITES := $(REPORT_SUITES_QUICK) $(REPORT_SUITES_LONG)
# The experiments' pipeline (tests/experiments/): concurrent runs, manifests, interruption and
# resume; a run's inputs checked; the "How to add an experiment" steps of experiments/README.md, in a
# temporary copy of the checkout.
EXPERIMENT_SUITES := "bash tests/experiments/reliability.sh $(SDPA_REPORT)" \
                     "bash tests/experiments/run-inputs.sh $(SDPA_REPORT)" \
                     "bash tests/experiments/add-experiment.sh"
TEST_DEPS   += $(SDPA_REPORT) $(SDPA_REPORT_ASAN)
# The real pipeline end to end (harness, kernels, emulator, pandoc), on reduced shapes.
TEST_SUITES += "bash tests/experiments/e2e-stage2.sh" "bash tests/experiments/backend-choice.sh $(SDPA_BENCH)"
TEST_SUITES += $(EXPERIMENT_SUITES)
# Every writer under a full disk, and signals to a long emulated run.
TEST_DEPS   += $(SDPA_BENCH)
TEST_SUITES += "bash tests/report/write-failures.sh $(SDPA_BENCH) $(SDPA_REPORT)"
# sdpa-report dump-diff on emulator dumps (sdpa-bench --dump) edited into known patterns.
TEST_SUITES += "bash tests/report/dump-diff.sh $(SDPA_BENCH) $(SDPA_REPORT) $(SDPA_REPORT_ASAN)"
TEST_SUITES += $(REPORT_SUITES_QUICK)
TEST_LONG_DEPS   += $(SDPA_REPORT)
TEST_LONG_SUITES += $(REPORT_SUITES_LONG)

## test-report: build and run the report pipeline's tests only (sdpa-report, figures, pandoc, run directories)
test-report: $(SDPA_REPORT) $(SDPA_REPORT_ASAN)
	$(Q)tools/run-tests.sh $(BUILD)/test-logs/report $(REPORT_SUITES)
.PHONY: test-report

## test-experiments: build and run the experiments' pipeline tests only (run directories, manifests, resume, adding an experiment)
test-experiments: $(SDPA_REPORT)
	$(Q)tools/run-tests.sh $(BUILD)/test-logs/experiments $(EXPERIMENT_SUITES)
.PHONY: test-experiments
