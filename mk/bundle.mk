# The relocatable measurement bundle (tools/campaign/README.md, "Measuring on a GPU node"): what a GPU node without
# a compiler, Debian packages, root or network needs to run the campaign.
#   $(BUNDLE_DIR)/            bin/sdpa-bench (cudart linked statically), bin/sdpa-report,
#                             bin/sdpa-probes (sm_90a; where nvcc builds it),
#                             lib/libcjson.so.1 (found through an rpath relative to the binary),
#                             ptxas.json, experiments/ (definitions, hypotheses, resolved
#                             parameters, run.sh), peers/ (the PyTorch peer script, its
#                             stdlib plumbing and schema-version, the version the build writes),
#                             campaign.sh with campaign-lib.sh, campaign-parts.sh and gpu-checks.sh, VERSION
#   $(BUILD)/sdpa-bundle-<sha>.tar.gz   the same directory, packed
# tools/campaign/campaign.sh is the campaign; tools/campaign/ingest.sh brings its tarball back.
BUNDLE_DIR := $(BUILD)/bundle
BUNDLE_SHA := $(shell git rev-parse --short HEAD 2>/dev/null || echo nogit)
BUNDLE_TGZ := $(BUILD)/sdpa-bundle-$(BUNDLE_SHA).tar.gz
# The shared libraries a bare node may lack, found where the linker found them (ldd of
# $(SDPA_REPORT), hence its place among the tarball's prerequisites: a fresh clone has none yet).
BUNDLE_LIBS = $(shell ldd $(BIN)/sdpa-report | awk '/libcjson/ {print $$3}')

ifneq ($(NVCC),)
# The bundle's sdpa-bench: the same objects, cudart linked statically (the node has the driver,
# not the toolkit); the driver must still be new enough for this runtime, which the probe checks.
BUNDLE_CUDA_LIBS := -L$(CUDA_LIB) -lcudart_static -lrt -lpthread -ldl -lstdc++
else
BUNDLE_CUDA_LIBS :=
endif
BUNDLE_RPATH := -Wl,-rpath,'$$ORIGIN/../lib'
BUNDLE_PEERS := tools/peers/torch_sdpa.py tools/peers/peerlib.py tools/peers/peertiming.py

$(BUNDLE_DIR)/bin/sdpa-bench: $(BENCH_CORE_OBJS) $(BENCH_EMU_OBJ) $(BENCH_CUDA_LINK) $(KERNELS_EMU_OBJS) \
                              $(KERNELS_CUDA_OBJS) $(SIMT_LIB) $(HOST_LIB)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_ALL) $^ -o $@ $(EMU_LINK_LIBS) $(BUNDLE_CUDA_LIBS) $(HOST_LDLIBS) $(BENCH_LDLIBS) $(BUNDLE_RPATH)
# The hardware probes (kernels/probes), the campaign's "probes" part: sm_90a, so only where nvcc
# builds it; cudart static as for sdpa-bench.
ifneq ($(PROBE_CUDA_OBJ),)
BUNDLE_PROBES := $(BUNDLE_DIR)/bin/sdpa-probes
$(BUNDLE_PROBES): $(PROBE_HOST_OBJS) $(PROBE_CUDA_OBJ) $(HOST_LIB)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_ALL) $^ -o $@ $(BUNDLE_CUDA_LIBS) $(HOST_LDLIBS) $(BUNDLE_RPATH)
endif
$(BUNDLE_DIR)/bin/sdpa-report: $(REPORT_OBJS) $(REPORT_SHARED_OBJS) $(HOST_LIB)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_ALL) $^ -o $@ $(HOST_LDLIBS) $(BUNDLE_RPATH)

# The parameters of each experiment as make resolves them (experiment.mk over common.mk's
# defaults), as shell assignments: the node has no make to evaluate experiment.mk.
BUNDLE_PARAMS := $(EXPERIMENTS:%=$(BUNDLE_DIR)/experiments/%/params.sh)
# Under make -n the sub-make is only printed (dry_run, mk/config.mk).
$(BUNDLE_DIR)/experiments/%/params.sh: experiments/%/experiment.mk experiments/common.mk
	$(Q)mkdir -p $(@D)
	$(Q)$(if $(dry_run),: make experiment-params EXPERIMENT=$* \> $@,$(MAKE) --no-print-directory -s experiment-params EXPERIMENT=$* > $@.tmp && mv $@.tmp $@)

ifneq ($(EXPERIMENT),)
experiment-params:
	@printf "%s='%s'\n" baseline '$(BASELINE)' candidate '$(CANDIDATE)' shapes '$(SHAPES)' seeds '$(SEEDS)' \
	  timing_shape '$(TIMING_SHAPE)' gpu '$(GPU_TIMING)' emu '$(EMU_TIMING)' l2 '$(L2)'
.PHONY: experiment-params
endif

## travel-size: what a device lease copies of this checkout (with HEAD's bundle tarball) against its 64 MiB cap; fails over it or without HEAD's bundle
travel-size:
	$(Q)tools/campaign/travel-size.sh $(wildcard $(BUNDLE_TGZ))
	$(Q)[ -e "$(BUNDLE_TGZ)" ] || { echo "travel-size: no bundle of HEAD ($(BUNDLE_TGZ)): make bundle first; an older build/sdpa-bundle-*.tar.gz holds older kernels" >&2; exit 1; }
.PHONY: travel-size

## bundle: build/bundle/ and build/sdpa-bundle-<sha>.tar.gz, the campaign for a GPU node (tools/campaign/README.md, "Measuring on a GPU node")
bundle: $(BUNDLE_TGZ)
$(BUNDLE_TGZ): $(BUNDLE_DIR)/bin/sdpa-bench $(BUNDLE_DIR)/bin/sdpa-report $(BUNDLE_PROBES) $(SDPA_REPORT) $(BUNDLE_PARAMS) $(PTXAS_JSON) \
               tools/campaign/campaign.sh experiments/run.sh experiments/new-run.sh $(wildcard experiments/*/*.md) \
               tools/campaign/gpu-checks.sh tools/campaign/campaign-lib.sh tools/campaign/campaign-parts.sh $(BUNDLE_PEERS)
	$(Q)mkdir -p $(BUNDLE_DIR)/lib $(BUNDLE_DIR)/experiments $(BUNDLE_DIR)/peers
	$(Q)cp $(BUNDLE_PEERS) $(BUNDLE_DIR)/peers/
	$(Q)$(SDPA_REPORT) schema-version > $(BUNDLE_DIR)/peers/schema-version
	$(Q)cp -L $(BUNDLE_LIBS) $(BUNDLE_DIR)/lib/
	$(Q)cp tools/campaign/campaign.sh tools/campaign/campaign-lib.sh tools/campaign/campaign-parts.sh tools/campaign/gpu-checks.sh $(BUNDLE_DIR)/
	$(Q)cp experiments/run.sh experiments/new-run.sh $(BUNDLE_DIR)/experiments/
	$(Q)for e in $(EXPERIMENTS); do cp experiments/$$e/experiment.mk experiments/$$e/hypothesis.md $(BUNDLE_DIR)/experiments/$$e/; done
	$(Q)$(if $(PTXAS_JSON),cp $(PTXAS_JSON) $(BUNDLE_DIR)/ptxas.json,rm -f $(BUNDLE_DIR)/ptxas.json)
	$(Q)echo "fp8-sdpa-stages $(BUNDLE_SHA) $(EXPERIMENTS)" > $(BUNDLE_DIR)/VERSION
	$(Q)rm -f $@.tmp && tar -C $(BUILD) -czf $@.tmp bundle && mv -f $@.tmp $@
	@echo "bundle: $@ (copy it to the GPU node, unpack, run bundle/campaign.sh)"
.PHONY: bundle

## campaign: the campaign in place, on this machine (the bundle built, then its campaign.sh; CAMPAIGN_ARGS, e.g. --quick --backend emu)
# Needs the toolkit to build, not pandoc or gnuplot: the campaign measures and packs; reports are
# rendered after make ingest, and this target says which of those steps it leaves out here.
CAMPAIGN_ARGS ?=
CAMPAIGN_OUT  ?= $(BUILD)/campaigns
campaign: $(BUNDLE_TGZ)
	$(Q)mkdir -p $(CAMPAIGN_OUT)
	$(Q)cd $(CAMPAIGN_OUT) && $(abspath $(BUNDLE_DIR))/campaign.sh $(CAMPAIGN_ARGS)
	@echo "campaign: the tarball is in $(CAMPAIGN_OUT)/; make ingest RESULTS=$(CAMPAIGN_OUT)/campaign-<id>.tar.gz"
	@for t in $(PANDOC) $(GNUPLOT); do command -v $$t >/dev/null 2>&1 || \
	  echo "campaign: $$t not found: the report steps (make report / make paper after make ingest) are skipped here; run them where $$t is installed"; done
.PHONY: campaign

## ingest: check a campaign tarball and unpack it under data/gpu/<device>/<campaign-id>/ (RESULTS=file.tar.gz)
ingest:
	$(Q)test -n "$(RESULTS)" || { echo "ingest: give the tarball, e.g. make ingest RESULTS=campaign-....tar.gz" >&2; exit 2; }
	$(Q)tools/campaign/ingest.sh "$(RESULTS)" "$(DATA_DIR)" $(SDPA_REPORT) $(INGEST_FLAGS)
	$(Q)t=$$(tools/campaign/travel-size.sh 2>&1) || echo "ingest: note: $$(echo "$$t" | head -n 1): over a device lease's cap now (make travel-size prints the way round)"
.PHONY: ingest
ingest: $(SDPA_REPORT)

TEST_DEPS   += $(BUNDLE_TGZ)
TEST_SUITES += "bash tests/campaign/campaign.sh $(BUNDLE_TGZ) $(SDPA_REPORT)"
TEST_DEPS   += $(SDPA_REPORT)
TEST_SUITES += "bash tests/campaign/ncu-json.sh $(SDPA_REPORT)"
TEST_DEPS   += $(BIN)/sdpa-bench
TEST_SUITES += "bash tests/campaign/torch-peer.sh $(BIN)/sdpa-bench $(SDPA_REPORT)"
TEST_SUITES += "python3 tests/campaign/torch_timing.py"
TEST_SUITES += "bash tests/campaign/gpu-checks.sh $(SDPA_REPORT)"
# The short lease's one command (tools/campaign/short-lease.sh) on a stand-in bundle.
TEST_SUITES += "bash tests/campaign/short-lease.sh"
# What a device lease would copy of the checkout, against its cap (tools/campaign/travel-size.sh).
TEST_SUITES += "bash tests/campaign/travel-size.sh"
# make ingest against hostile tarballs and faults (issue 20): nothing executed, the backend from evidence.
TEST_SUITES += "bash tests/campaign/ingest.sh $(BUNDLE_TGZ) $(SDPA_REPORT)"
# The campaign's fault scenarios (signals, a full disk, time limits, hung steps: ~2 minutes, mostly
# waiting): the long tier's (make test-long).
TEST_LONG_DEPS   += $(BUNDLE_TGZ) $(SDPA_REPORT)
TEST_LONG_SUITES += "bash tests/campaign/interrupt.sh $(BUNDLE_TGZ) $(SDPA_REPORT)"
# Two end-to-end suites that each run a whole emulated campaign over every variant (~45 and ~27 s on
# 2 cores in make test, growing with each stage): the scaling sweep, and make paper from an ingested
# campaign. In the long tier since stage 7m (make test then took 781 s on 2 cores with its packages
# installed); make test keeps a campaign run end to end (campaign.sh) and the ingest's refusals.
TEST_LONG_SUITES += "bash tests/campaign/scaling.sh $(BUNDLE_TGZ) $(SDPA_REPORT)"
TEST_LONG_SUITES += "bash tests/campaign/render-ingested.sh $(BUNDLE_TGZ) $(SDPA_REPORT)"
