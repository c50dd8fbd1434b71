# The hardware probes (kernels/probes, README there): three tiny sm_90a kernels whose output shows
# where an H100 puts each element (TMA boxes, wgmma fragments, the wgmma descriptor's address
# function). `make probes` runs them on the GPU (compute capability 9.0) and writes one JSON record
# (a local look; nothing ingests it). What is committed comes from the campaign: its part "probes"
# runs the bundle's bin/sdpa-probes (mk/bundle.mk) into probes/probes.json, and `make ingest` commits
# it as data/gpu/<device>/<id>/probes/probes.json, which the emulator's tests compare themselves with.
#
#   make probes [PROBES_OUT=DIR]   build/bin/sdpa-probes --out DIR/probes-<UTC time>.json

PROBE_DIR   := kernels/probes
PROBE_HOST_SRCS := $(PROBE_DIR)/probe_main.c $(PROBE_DIR)/probe_run.c
PROBE_CFLAGS = $(CFLAGS_ALL) -I$(PROBE_DIR) -I$(CUDA_INC)
PROBES_OUT ?= $(BUILD)/probes

# The emulator build of the driver (its JSON path is tested without a GPU: tests/emu/probes.sh, run by
# mk/emu.mk's suites).
PROBE_EMU_BIN := $(EMU_PROBE_BIN)
$(BUILD)/obj/probes/%.o: $(PROBE_DIR)/%.c $(PROBE_DIR)/probes.h $(PROBE_DIR)/probe_run.h | $(DEPS_STAMP) $(BUILD_INFO_H)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(PROBE_CFLAGS) -MMD -MP -c $< -o $@
PROBE_HOST_OBJS := $(PROBE_HOST_SRCS:$(PROBE_DIR)/%.c=$(BUILD)/obj/probes/%.o)
$(PROBE_EMU_BIN): $(PROBE_HOST_OBJS) $(EMU_OBJ)/plain/probes/probes.o $(SIMT_LIB) $(HOST_LIB)
	$(Q)mkdir -p $(@D)
	$(Q)$(EMU_CXX) $^ -o $@ $(HOST_LDLIBS) $(EMU_LINK_LIBS)
-include $(PROBE_HOST_OBJS:.o=.d)

ifneq ($(NVCC),)
PROBE_CUDA_OBJ := $(BUILD)/kernels/probes/probes.o
$(PROBE_CUDA_OBJ): $(PROBE_DIR)/probes.cu $(PROBE_DIR)/probes.h kernels/prims.cuh kernels/tensor_map.h kernels/exp2_poly.h \
                   kernels/wgmma_layout.h | $(DEPS_STAMP)
	@echo "  NVCC    $< [$(CUDA_ARCHS_SPECIFIC:%=sm_%)]"
	$(Q)mkdir -p $(@D)
	$(Q)$(NVCC) -std=c++17 -O3 -lineinfo -Werror all-warnings -Ikernels -I$(PROBE_DIR) $(NVCC_GENCODE_SPECIFIC) \
	  -c $< -o $@ 2>$@.log || { cat $@.log >&2; exit 1; }
	$(Q)! grep -E 'C75[0-9][0-9]' $@.log >&2 || { echo "probes.cu: ptxas serialised a wgmma (above)" >&2; exit 1; }
$(BIN)/sdpa-probes: $(PROBE_HOST_OBJS) $(PROBE_CUDA_OBJ) $(HOST_LIB)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_ALL) $^ -o $@ $(BENCH_CUDA_LIBS) $(HOST_LDLIBS)
BUILD_TARGETS += $(BIN)/sdpa-probes

## probes: run the hardware probes on the GPU (sm_90a, an H100/H200) into PROBES_OUT (default build/probes)
probes: $(BIN)/sdpa-probes
	$(Q)mkdir -p $(PROBES_OUT)
	$(Q)$(BIN)/sdpa-probes --out $(PROBES_OUT)/probes-$$(date -u +%Y%m%dT%H%M%SZ).json
else
probes:
	@echo "make probes: nvcc not found (PATH, CUDA_HOME=$(CUDA_HOME)); the probes need the CUDA build and an H100" >&2; exit 2
endif
.PHONY: probes
