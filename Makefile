# fp8-sdpa-stages: top-level build. `make help` lists every target.
# Each module has its own fragment under mk/ (and experiments/common.mk); a fragment adds to
#   BUILD_TARGETS  what `make build` produces
#   TEST_DEPS      what the test suites need built (TEST_DEPS_FIRST: its longest compiles, which
#                  make -j starts first so that they do not run alone at the end)
#   TEST_SUITES    the suites `make test` runs (executables that speak TAP)
#   TEST_LONG_DEPS, TEST_LONG_SUITES: the long tier's own builds and suites (`make test-long`; CI
#                  runs it after `make test`): the larger shapes, the tests of the tests (planted
#                  bugs, fuzzing, each switch changing the PTX), the rendered layout's pixel and
#                  browser checks, the campaign's fault scenarios and the Slurm sweep
# and documents its targets with "## target: description" comments, which `make help` prints.

SHELL := /bin/bash
.DEFAULT_GOAL := build
.DELETE_ON_ERROR:
.SUFFIXES:

include mk/config.mk

# Builds run on every CPU unless -j is given: `make test` compiles ~420 CPU-seconds of independent
# objects, make test-long ~260 more (2026-11-30; the rules are -j safe: one apt-get, stamps per
# role). The experiments, bundle and paper keep their serial order and readable output: only the
# build goals get it.
NPROC := $(shell nproc 2>/dev/null || echo 1)
ifneq ($(filter build test test-long test-full,$(or $(MAKECMDGOALS),build)),)
MAKEFLAGS += -j$(NPROC)
endif

BUILD_TARGETS :=
TEST_DEPS     :=
TEST_DEPS_FIRST :=
TEST_SUITES   :=
TEST_LONG_DEPS   :=
TEST_LONG_SUITES :=

include mk/switches.mk
include mk/buildinfo.mk
include mk/host.mk
include mk/format.mk
-include mk/emu.mk
-include mk/kernels.mk
-include mk/probes.mk
-include mk/peers.mk
-include mk/ptxas.mk
-include mk/bench.mk
-include mk/kernel-tests.mk
-include experiments/common.mk
-include mk/bundle.mk
-include mk/fuzz.mk
-include mk/sweep.mk

.PHONY: help build test test-long test-full deps deps-build deps-measure deps-render deps-test clean FORCE

## help: list every target with a one-line description
help:
	@echo "fp8-sdpa-stages: make targets"
	@grep -hE '^## [A-Za-z0-9_.%/<>-]+:' $(MAKEFILE_LIST) | sed -E 's/^## ([^:]+): */  \1\t/' | \
	  awk -F'\t' '{printf "  %-28s %s\n", substr($$1,3), $$2}'
	$(experiments_help)
	@echo
	@echo "Variables: CUDA_HOME=$(CUDA_HOME) (nvcc: $(if $(NVCC),$(NVCC),not found)), CUDA_ARCHS='$(CUDA_ARCHS)', V=1 for commands,"
	@echo "  custom kernel variant: $(SWITCH_NAMES:%=%=0|1) (one list: kernels/switches.h; kernels/README.md, "How to add a stage")."
	@echo "  experiments (make stageN VAR=...): BACKEND=auto|cuda|emu (auto), SHAPES, SEEDS, TIMING_SHAPE, EMU_TIMING_SHAPE,"
	@echo "  GPU_TIMING='WARMUP ITERS MIN_S MAX_S' ($(GPU_TIMING)), EMU_TIMING ($(EMU_TIMING)), L2=cold|warm, THROTTLE,"
	@echo "  DATA_DIR=$(DATA_DIR) (runs), REPORT_DIR=$(REPORT_DIR) (reports); each experiment's own values: experiments/<name>/experiment.mk."

# Debian packages by role (tools/deps.sh --list ROLE): build, measure, render, test. Each role has
# its own stamp, checked once per make run. Compiles need only build ($(DEPS_STAMP), mk/config.mk),
# so a GPU node without pandoc or TeX builds and measures; reports and the paper also need render;
# make test needs all.
DEPS_ROLES := build measure render test
deps_stamp = $(BUILD)/.deps-checked-$(1)

## deps: install every role's missing Debian packages (what make test needs; apt-get update once, then one install)
deps: $(call deps_stamp,build)
	$(Q)mkdir -p $(BUILD)
	$(Q)CUDA_INC=$(CUDA_INC) tools/deps.sh $(DEPS_ROLES)
	$(Q)touch $(foreach r,$(DEPS_ROLES),$(call deps_stamp,$(r)))
## deps-build: the packages the build needs (compilers, cJSON, cmocka); deps-measure, deps-render (gnuplot, pandoc, TeX, chromium), deps-test likewise
deps-build deps-measure deps-render deps-test: FORCE
	$(Q)mkdir -p $(BUILD)
	$(Q)CUDA_INC=$(CUDA_INC) tools/deps.sh $(@:deps-%=%)
	$(Q)touch $(call deps_stamp,$(@:deps-%=%))
# Checked on the way: the build role before every compile (it must be complete), the measure role
# before an experiment or the bundle, the render role
# before an experiment's report, a report's figures and the paper. Where render cannot be
# installed (no root: a GPU node), an experiment still measures and writes its tables, and says
# which report steps it skipped (render_missing); make report and make paper then stop at the
# first missing tool.
# make test and make deps need every role: the build stamp, which runs first, then asks for all
# of them, so that there is one apt-get (never two at once under make -j).
$(BUILD)/.deps-checked-build: FORCE
	$(Q)mkdir -p $(@D)
	$(Q)CUDA_INC=$(CUDA_INC) tools/deps.sh $(if $(filter test test-long test-full deps,$(MAKECMDGOALS)),$(DEPS_ROLES),build)
	$(Q)touch $@
$(BUILD)/.deps-checked-measure: FORCE
	$(Q)mkdir -p $(@D)
	$(Q)tools/deps.sh measure
	$(Q)touch $@
experiment bundle: | $(call deps_stamp,measure)
$(BUILD)/.deps-checked-render: FORCE
	$(Q)mkdir -p $(@D)
	$(Q)tools/deps.sh render || echo "deps: the render role is incomplete: report steps that need it will stop or be skipped" >&2
	$(Q)touch $@
experiment report-figures paper: | $(call deps_stamp,render)
# The programs the report steps run; those not on PATH when an experiment reaches its report.
RENDER_TOOLS := gnuplot pandoc pdflatex
render_missing = $(strip $(foreach t,$(RENDER_TOOLS),$(if $(shell command -v $(t) 2>/dev/null),,$(t))))
TEST_DEPS += deps
TEST_LONG_DEPS += deps
TEST_SUITES += "bash tests/style/deps.sh" "bash tests/style/citation.sh" "bash tests/tools/run-tests.sh" "bash tests/tools/ci-run.sh"
# Suites that mostly wait (tools/run-tests.sh): they run beside the TEST_JOBS slots.
TEST_BESIDE ?= tests/sweep/sweep.sh tests/campaign/interrupt.sh
# The longest suites take the first slots (tools/run-tests.sh), longest first.
TEST_FIRST ?= tests/kernels/correctness.sh tests/kernels/correctness-large.sh tests/kernels/ptx-switches.sh \
              tests/kernels/ptx-identity.sh tests/report/render.sh tests/report/layout.sh
run_tests = MAKEFLAGS="$(filter-out -j% --jobserver%,$(MAKEFLAGS))" TEST_BESIDE="$(TEST_BESIDE)" TEST_FIRST="$(TEST_FIRST)" \
  tools/run-tests.sh

## build: build the host library, the emulator, every kernel variant and sdpa-bench (default)
build: $(BUILD_TARGETS)
	$(Q)$(if $(NVCC),true,echo "build: nvcc not found (PATH, CUDA_HOME=$(CUDA_HOME)): skipped the CUDA kernels, the CUDA backend and the ptxas gates")

## test: build and run the test suites (under 15 minutes on 2 cores); ends with "N passed, N failed, N skipped"
test: $(TEST_DEPS_FIRST) $(TEST_DEPS)
	$(Q)$(if $(NVCC),true,echo "test: nvcc not found: suites needing nvcc report SKIP")
	$(Q)$(run_tests) $(BUILD)/test-logs $(TEST_SUITES)
## test-long: the long tier, which CI runs after make test (larger shapes, planted bugs, fuzzing, layout pixels, Slurm)
test-long: $(TEST_LONG_DEPS)
	$(Q)$(run_tests) $(BUILD)/test-logs-long $(TEST_LONG_SUITES)
## test-full: both tiers in one run (one closing line)
test-full: $(TEST_DEPS_FIRST) $(TEST_DEPS) $(TEST_LONG_DEPS)
	$(Q)$(run_tests) $(BUILD)/test-logs-full $(TEST_SUITES) $(TEST_LONG_SUITES)

## clean: remove build outputs (build/, paper/build/); never touches data/ or figures/ run directories
clean:
	rm -rf $(BUILD) paper/build

FORCE:
