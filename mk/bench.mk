# sdpa-bench, the measurement harness (host/bench/, README there): the command line (cli), the
# variant table (variants), correctness before timing (check), the sampling engine (sampling),
# the run (harness), its JSON (run_json), --dump (dump) and the backends behind backend.h.
#
# Link layout (host/bench/README.md, "Command line"):
#   without nvcc  core + backend_emu.o + backend_nocuda.o + emulator kernels + SIMT runtime
#   with nvcc     the same, but backend_cuda.o + device_probe.o (nvcc) for backend_nocuda.o,
#                 + $(KERNELS_CUDA_OBJS), -L$(CUDA_LIB) -lcudart -lstdc++
# The real program needs the emulator build of the kernels (KERNELS_EMU_OBJS, SIMT_LIB and
# EMU_LINK_LIBS from mk/kernels.mk and mk/emu.mk); until those exist only the test build exists:
# the same harness linked with a plain C kernel table (tests/bench/test_kernels.c) that has every
# variant of kernels/variants.def plus planted faults.

BENCH_OBJ_DIR  := $(BUILD)/obj/host/bench
BENCH_TEST_DIR := $(BUILD)/tests/bench
BENCH_CORE_SRCS := $(addprefix host/bench/,cli.c throttle.c variants.c sampling.c check.c dump.c run_json.c roofline.c harness.c \
                   backend.c arch.c nvml.c main.c) $(PEER_HOST_SRCS)
# NVML is loaded at run time (host/bench/nvml.c): libdl for dlopen on older glibc.
BENCH_LDLIBS := -ldl
BENCH_CORE_OBJS := $(BENCH_CORE_SRCS:host/bench/%.c=$(BENCH_OBJ_DIR)/%.o)
# The emulator backend twice: against the SIMT runtime (real) and without it (test build).
BENCH_EMU_OBJ      := $(BENCH_OBJ_DIR)/backend_emu.o
BENCH_EMU_TEST_OBJ := $(BENCH_OBJ_DIR)/test/backend_emu.o
BENCH_NOCUDA_OBJ   := $(BENCH_OBJ_DIR)/backend_nocuda.o
BENCH_CUDA_OBJS    := $(BENCH_OBJ_DIR)/backend_cuda.o $(BENCH_OBJ_DIR)/device_probe.o
BENCH_PTXAS_DEFAULT := $(or $(PTXAS_DIR),$(BUILD)/ptxas)/ptxas.json
# nvcc code for the backend's helper kernels (blocking, timestamps): the kernels' architectures.
BENCH_GENCODE := $(or $(NVCC_GENCODE),$(foreach a,$(CUDA_ARCHS),-gencode arch=compute_$(a),code=sm_$(a)))
# SDPA_CUDA_ARCHS: the architectures the kernels carry, for the device probe's compatibility check.
BENCH_NVCC_FLAGS := -std=c++17 -O2 -Ihost/lib -Ihost -Ikernels -I$(GEN) -Xcompiler -Wall,-Wextra,-Werror $(BENCH_GENCODE) \
                    -DSDPA_CUDA_ARCHS='"$(CUDA_ARCHS)"'
# The probe must be rebuilt when the architectures change.
BENCH_ARCHS_STAMP := $(BUILD)/gen/cuda-archs.txt
$(BENCH_ARCHS_STAMP): FORCE
	$(Q)mkdir -p $(@D) && echo '$(CUDA_ARCHS)' | tools/write-if-changed.sh $@

# $(1): extra flags. The emulator backend is compiled twice: against the SIMT runtime's C API
# (kernels/emu/simt.h) for the program, and without it for the test build.
bench_compile = $(Q)mkdir -p $(@D) && $(CC) $(CFLAGS_ALL) $(BENCH_CPPFLAGS) $(1) -MMD -MP -c $< -o $@
$(BENCH_CORE_OBJS) $(BENCH_NOCUDA_OBJ): $(BENCH_OBJ_DIR)/%.o: host/bench/%.c | $(DEPS_STAMP)
	$(call bench_compile)
$(BENCH_EMU_TEST_OBJ): host/bench/backend_emu.c | $(DEPS_STAMP)
	$(call bench_compile)
$(BENCH_EMU_OBJ): host/bench/backend_emu.c | $(DEPS_STAMP)
	$(call bench_compile,-DSDPA_HAVE_SIMT=1)
# variants.def includes the generated switch header; main.c prints the build provenance.
$(BENCH_OBJ_DIR)/variants.o: $(SDPA_CUSTOM_H)
$(BENCH_OBJ_DIR)/main.o: $(BUILD_INFO_H)
$(BENCH_OBJ_DIR)/main.o: BENCH_CPPFLAGS := -DSDPA_PTXAS_DEFAULT='"$(BENCH_PTXAS_DEFAULT)"'

ifneq ($(NVCC),)
$(BENCH_CUDA_OBJS): $(BENCH_OBJ_DIR)/%.o: host/bench/%.cu host/bench/device_probe.h host/bench/backend.h host/bench/arch.h \
                   kernels/sdpa_api.h $(BENCH_ARCHS_STAMP) | $(DEPS_STAMP)
	@echo "  NVCC    $<"
	$(Q)mkdir -p $(@D)
	$(Q)$(NVCC) $(BENCH_NVCC_FLAGS) -c $< -o $@
BENCH_CUDA_LINK := $(BENCH_CUDA_OBJS)
BENCH_CUDA_LIBS := -L$(CUDA_LIB) -Wl,-rpath,$(CUDA_LIB) -lcudart -lstdc++
else
BENCH_CUDA_LINK := $(BENCH_NOCUDA_OBJ)
BENCH_CUDA_LIBS :=
endif

# ---- the program ---------------------------------------------------------------------------------
ifdef KERNELS_EMU_OBJS
## sdpa-bench: build build/bin/sdpa-bench (the measurement harness; --help for its command line)
sdpa-bench: $(BIN)/sdpa-bench
$(BIN)/sdpa-bench: $(BENCH_CORE_OBJS) $(BENCH_EMU_OBJ) $(BENCH_CUDA_LINK) $(KERNELS_EMU_OBJS) \
                   $(KERNELS_CUDA_OBJS) $(SIMT_LIB) $(HOST_LIB)
	@echo "  LD      $@"
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_ALL) $^ -o $@ $(EMU_LINK_LIBS) $(BENCH_CUDA_LIBS) $(HOST_LDLIBS) $(BENCH_LDLIBS)
BUILD_TARGETS += $(BIN)/sdpa-bench
else
sdpa-bench:
	@echo "sdpa-bench: the emulator build of the kernels (KERNELS_EMU_OBJS) is not defined yet; only the test build exists ($(BENCH_TEST_DIR)/sdpa-bench-test)"
endif
.PHONY: sdpa-bench

# ---- tests -----------------------------------------------------------------------------------------
BENCH_TEST_BIN := $(BENCH_TEST_DIR)/sdpa-bench-test
BENCH_TEST_KERNELS := $(BENCH_OBJ_DIR)/test/test_kernels.o
$(BENCH_TEST_KERNELS): tests/bench/test_kernels.c tests/bench/test_attention.h $(SDPA_CUSTOM_H) | $(DEPS_STAMP)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_ALL) -Itests/bench -MMD -MP -c $< -o $@
ifneq ($(NVCC),)
BENCH_TEST_CUDA_KERNELS := $(BENCH_OBJ_DIR)/test/test_kernels_cuda.o
$(BENCH_TEST_CUDA_KERNELS): tests/bench/test_kernels_cuda.cu tests/bench/test_attention.h kernels/sdpa_api.h \
                            $(SDPA_CUSTOM_H) | $(DEPS_STAMP)
	$(Q)mkdir -p $(@D)
	$(Q)$(NVCC) $(BENCH_NVCC_FLAGS) -Itests/bench -c $< -o $@
endif

# The harness with test kernels (both backends' tables replaced; the backends themselves real).
$(BENCH_TEST_BIN): $(BENCH_CORE_OBJS) $(BENCH_EMU_TEST_OBJ) $(BENCH_CUDA_LINK) $(BENCH_TEST_KERNELS) \
                   $(BENCH_TEST_CUDA_KERNELS) $(HOST_LIB)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_ALL) $^ -o $@ $(BENCH_CUDA_LIBS) $(HOST_LDLIBS) $(BENCH_LDLIBS)

# cmocka unit tests: name -> the objects each links besides the test itself.
BENCH_UNIT_TESTS := bench cli variants check arch nvml throttle keep roofline
bench_test_objs_bench    := $(BENCH_OBJ_DIR)/sampling.o
bench_test_objs_variants := $(BENCH_OBJ_DIR)/variants.o
bench_test_objs_cli      := $(BENCH_OBJ_DIR)/cli.o $(BENCH_OBJ_DIR)/sampling.o $(BENCH_OBJ_DIR)/throttle.o $(BENCH_OBJ_DIR)/dump.o $(BENCH_OBJ_DIR)/run_json.o $(BENCH_OBJ_DIR)/roofline.o $(BENCH_OBJ_DIR)/backend.o \
                            $(BENCH_EMU_TEST_OBJ) $(BENCH_NOCUDA_OBJ) $(BENCH_TEST_KERNELS)
bench_test_objs_arch     := $(BENCH_OBJ_DIR)/arch.o
bench_test_objs_throttle := $(BENCH_OBJ_DIR)/throttle.o
bench_test_objs_keep     :=
bench_test_objs_roofline := $(BENCH_OBJ_DIR)/roofline.o $(BENCH_OBJ_DIR)/variants.o
bench_test_objs_nvml     := $(BENCH_OBJ_DIR)/nvml.o
bench_test_objs_check    := $(BENCH_OBJ_DIR)/check.o $(BENCH_OBJ_DIR)/variants.o $(BENCH_OBJ_DIR)/backend.o \
                            $(BENCH_EMU_TEST_OBJ) $(BENCH_NOCUDA_OBJ) $(BENCH_TEST_KERNELS)
BENCH_UNIT_BINS := $(BENCH_UNIT_TESTS:%=$(BENCH_TEST_DIR)/test_%)
define bench_unit_rule
$(BENCH_TEST_DIR)/test_$(1): tests/bench/test_$(1).c $(bench_test_objs_$(1)) $(HOST_LIB) | $(DEPS_STAMP)
	$$(Q)mkdir -p $$(@D)
	$$(Q)$$(CC) $$(CFLAGS_ALL) -Itests/bench -MMD -MP $$< $(bench_test_objs_$(1)) $$(HOST_LIB) $$(CMOCKA_LIBS) $$(HOST_LDLIBS) $$(BENCH_LDLIBS) -o $$@
endef
$(foreach t,$(BENCH_UNIT_TESTS),$(eval $(call bench_unit_rule,$(t))))

# AddressSanitizer + UBSan flavour of the test build (leaks, overflows, undefined behaviour in the
# harness), run through the same shell suites. The CUDA backend is left out: it cannot run here.
BENCH_ASAN_DIR  := $(BUILD)/obj/host/bench-asan
BENCH_ASAN_OBJS := $(patsubst host/bench/%.c,$(BENCH_ASAN_DIR)/%.o,$(BENCH_CORE_SRCS) host/bench/backend_emu.c host/bench/backend_nocuda.c)
BENCH_ASAN_BIN  := $(BUILD)/tests/bench-asan/sdpa-bench-test
$(BENCH_ASAN_OBJS): $(BENCH_ASAN_DIR)/%.o: host/bench/%.c | $(DEPS_STAMP)
	$(call bench_compile,$(SAN_FLAGS))
$(BENCH_ASAN_DIR)/test_kernels.o: tests/bench/test_kernels.c tests/bench/test_attention.h $(SDPA_CUSTOM_H) | $(DEPS_STAMP)
	$(call bench_compile,$(SAN_FLAGS) -Itests/bench)
$(BENCH_ASAN_DIR)/variants.o: $(SDPA_CUSTOM_H)
$(BENCH_ASAN_DIR)/main.o: $(BUILD_INFO_H)
$(BENCH_ASAN_DIR)/main.o: BENCH_CPPFLAGS := -DSDPA_PTXAS_DEFAULT='"$(BENCH_PTXAS_DEFAULT)"'
$(BENCH_ASAN_BIN): $(BENCH_ASAN_OBJS) $(BENCH_ASAN_DIR)/test_kernels.o $(HOST_ASAN_LIB)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_ALL) $(SAN_FLAGS) $^ -o $@ $(HOST_LDLIBS) $(BENCH_LDLIBS)

# Result-file and --dump validators used by the shell suites.
BENCH_CHECKERS := $(BENCH_TEST_DIR)/check_run_json $(BENCH_TEST_DIR)/check_dump
$(BENCH_CHECKERS): $(BENCH_TEST_DIR)/%: tests/bench/%.c $(HOST_LIB) | $(DEPS_STAMP)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_ALL) -MMD -MP $< $(HOST_LIB) $(HOST_LDLIBS) -o $@

# A stand-in for the driver's NVML with known answers (tests/bench/fake_nvml.c), for test_nvml.
BENCH_FAKE_NVML := $(BENCH_TEST_DIR)/libfake-nvml.so
$(BENCH_FAKE_NVML): tests/bench/fake_nvml.c | $(DEPS_STAMP)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CSTD) $(WARN) -O2 -fPIC -shared $< -o $@

BENCH_TEST_DEPS := $(PEER_TEST_DEPS) $(BENCH_TEST_BIN) $(BENCH_ASAN_BIN) $(BENCH_UNIT_BINS) $(BENCH_CHECKERS) $(BENCH_FAKE_NVML)
BENCH_SUITES := $(filter-out %/test_nvml,$(BENCH_UNIT_BINS)) "$(BENCH_TEST_DIR)/test_nvml $(BENCH_FAKE_NVML)" \
                "bash tests/bench/cli.sh $(BENCH_TEST_BIN)" "bash tests/bench/run.sh $(BENCH_TEST_BIN) $(BENCH_TEST_DIR)" \
                "bash tests/bench/cli.sh $(BENCH_ASAN_BIN)" "bash tests/bench/run.sh $(BENCH_ASAN_BIN) $(BENCH_TEST_DIR)" \
                "bash tests/bench/backend.sh $(BENCH_TEST_BIN) $(HAVE_NVCC)" \
                "bash tests/bench/readme-options.sh $(BENCH_TEST_BIN)" $(PEER_SUITES)
TEST_DEPS   += $(BENCH_TEST_DEPS)
TEST_SUITES += $(BENCH_SUITES)
# With the real program: the writers where hard links fail (host/lib/fileio.c's fallbacks; the
# shim: mk/host.mk).
ifdef KERNELS_EMU_OBJS
TEST_DEPS   += $(HOST_NOLINK_SHIM) $(BIN)/sdpa-bench $(BIN)/sdpa-report
TEST_SUITES += "bash tests/lib/nolink.sh $(HOST_NOLINK_SHIM) - $(BIN)/sdpa-bench $(BIN)/sdpa-report"
# experiments/run.sh's throttle= and SDPA_THROTTLE_THRESHOLD (host/bench/throttle.c), end to end.
TEST_SUITES += "bash tests/bench/experiment-throttle.sh $(BIN)/sdpa-bench $(BIN)/sdpa-report"
endif

## test-bench: build and run sdpa-bench's tests only (CLI, sampling engine, correctness, JSON, backends)
test-bench: $(BENCH_TEST_DEPS)
	$(Q)tools/run-tests.sh $(BUILD)/test-logs/bench $(BENCH_SUITES)
.PHONY: test-bench

-include $(BENCH_CORE_OBJS:.o=.d) $(BENCH_EMU_OBJ:.o=.d) $(BENCH_EMU_TEST_OBJ:.o=.d) $(BENCH_NOCUDA_OBJ:.o=.d) \
         $(BENCH_ASAN_OBJS:.o=.d) $(BENCH_ASAN_DIR)/test_kernels.d \
         $(BENCH_TEST_KERNELS:.o=.d) $(BENCH_UNIT_BINS:=.d) $(BENCH_CHECKERS:=.d)
