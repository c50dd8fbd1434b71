# fp8-sdpa-stages: top-level build. `make help` lists every target.
# Each module has its own fragment under mk/ (and experiments/common.mk); a fragment adds to
#   BUILD_TARGETS  what `make build` produces
#   TEST_DEPS      what the test suites need built
#   TEST_SUITES    the suites `make test` runs (executables that speak TAP)
# and documents its targets with "## target: description" comments, which `make help` prints.

SHELL := /bin/bash
.DEFAULT_GOAL := build
.DELETE_ON_ERROR:
.SUFFIXES:

include mk/config.mk

BUILD_TARGETS :=
TEST_DEPS     :=
TEST_SUITES   :=

include mk/switches.mk
include mk/buildinfo.mk
include mk/host.mk
include mk/format.mk
-include mk/emu.mk
-include mk/kernels.mk
-include mk/peers.mk
-include mk/ptxas.mk
-include mk/bench.mk
-include mk/kernel-tests.mk
-include experiments/common.mk
-include mk/bundle.mk
-include mk/fuzz.mk
-include mk/sweep.mk

.PHONY: help build test deps clean FORCE

## help: list every target with a one-line description
help:
	@echo "fp8-sdpa-stages: make targets"
	@grep -hE '^## [A-Za-z0-9_.%/<>-]+:' $(MAKEFILE_LIST) | sed -E 's/^## ([^:]+): */  \1\t/' | \
	  awk -F'\t' '{printf "  %-28s %s\n", substr($$1,3), $$2}'
	@echo
	@echo "Variables: CUDA_HOME=$(CUDA_HOME) (nvcc: $(if $(NVCC),$(NVCC),not found)), CUDA_ARCHS='$(CUDA_ARCHS)', V=1 for commands,"
	@echo "  custom kernel variant: $(SWITCH_NAMES:%=%=0|1) (one list: kernels/switches.h; README, "How to add a stage")."

## deps: install missing Debian packages (apt-get update once, then one install); no-op when complete
deps: $(DEPS_STAMP)
$(DEPS_STAMP): FORCE
	$(Q)mkdir -p $(@D)
	$(Q)CUDA_INC=$(CUDA_INC) tools/deps.sh
	$(Q)touch $@

## build: build the host library, the emulator, every kernel variant and sdpa-bench (default)
build: $(BUILD_TARGETS)
	$(Q)$(if $(NVCC),true,echo "build: nvcc not found (PATH, CUDA_HOME=$(CUDA_HOME)): skipped the CUDA kernels, the CUDA backend and the ptxas gates")

## test: build and run every test suite; ends with "N passed, N failed, N skipped"
test: $(TEST_DEPS)
	$(Q)$(if $(NVCC),true,echo "test: nvcc not found: suites needing nvcc report SKIP")
	$(Q)tools/run-tests.sh $(BUILD)/test-logs $(TEST_SUITES)

## clean: remove build outputs (build/, paper/build/); never touches data/ or figures/ run directories
clean:
	rm -rf $(BUILD) paper/build

FORCE:
