# Peers and ceilings of sdpa-bench (host/bench/peers.h, ceilings.h; kernels/peers/README.md).
# Included right after mk/kernels.mk: the softmax kernel of the unfused cuBLAS peer joins the
# kernel objects there (KERNELS_EMU_OBJS and its sanitizer flavours, KERNELS_CUDA_OBJS), so every
# program linking the kernels links it too; the host sources join sdpa-bench's core objects in
# mk/bench.mk (PEER_HOST_SRCS). cuBLAS and cuBLASLt are never linked: host/bench/cublas_dl.c
# loads them at run time; only their headers are needed to compile (-I$(CUDA_INC)).

PEER_KERNEL_SRC  := kernels/peers/softmax.cu
PEER_KERNEL_HDRS := kernels/peers/peer_softmax.h kernels/prims.cuh kernels/sdpa_api.h
PEER_HOST_SRCS   := $(addprefix host/bench/,peers.c peer_unfused.c peer_tolerance.c gemm_cpu.c gemm_cublas.c \
                    cublas_dl.c ceilings.c)
# The sources that include the cuBLAS headers (cublas_dl.h); compiled without them, cuBLAS reports
# itself unavailable instead.
PEER_CUBLAS_OBJS := $(addprefix $(BUILD)/obj/host/bench/,cublas_dl.o gemm_cublas.o ceilings.o)
$(PEER_CUBLAS_OBJS): BENCH_CPPFLAGS := -I$(CUDA_INC)

# ---- the softmax kernel: emulator flavours (as kernels/stages.cu) and nvcc ------------------------
PEER_KEMU := $(BUILD)/kernels/emu/peers
$(PEER_KEMU)/softmax.o: $(PEER_KERNEL_SRC) $(call emu_pch,plain) | $(DEPS_STAMP)
	@echo "  EMU     $<"
	$(Q)mkdir -p $(@D)
	$(Q)$(call EMU_COMPILE,plain) $(KERNEL_EMU_FLAGS) -MMD -MP -c $< -o $@
$(PEER_KEMU)/softmax-tsan.o: $(PEER_KERNEL_SRC) $(call emu_pch,tsan) | $(DEPS_STAMP)
	$(Q)mkdir -p $(@D)
	$(Q)$(call EMU_COMPILE,tsan) $(KERNEL_EMU_FLAGS) -MMD -MP -c $< -o $@
$(PEER_KEMU)/softmax-asan.o: $(PEER_KERNEL_SRC) $(call emu_pch,asan) | $(DEPS_STAMP)
	$(Q)mkdir -p $(@D)
	$(Q)$(call EMU_COMPILE,asan) $(KERNEL_EMU_FLAGS) -MMD -MP -c $< -o $@
KERNELS_EMU_OBJS      += $(PEER_KEMU)/softmax.o
KERNELS_EMU_TSAN_OBJS += $(PEER_KEMU)/softmax-tsan.o
KERNELS_EMU_ASAN_OBJS += $(PEER_KEMU)/softmax-asan.o
BUILD_TARGETS         += $(PEER_KEMU)/softmax.o
-include $(PEER_KEMU)/softmax.d $(PEER_KEMU)/softmax-tsan.d $(PEER_KEMU)/softmax-asan.d

ifneq ($(NVCC),)
PEER_KCUDA := $(BUILD)/kernels/cuda/peers
$(PEER_KCUDA)/softmax.o: $(PEER_KERNEL_SRC) $(PEER_KERNEL_HDRS) | $(DEPS_STAMP)
	@echo "  NVCC    $< [$(CUDA_ARCHS:%=sm_%)]"
	$(Q)mkdir -p $(@D)
	$(Q)$(NVCC_DET) $(NVCC) -std=c++17 -O3 -lineinfo -Ikernels -I$(GEN) -Xcompiler -Wall,-Wextra,-Werror \
	    $(NVCC_GENCODE) -c $< -o $@
KERNELS_CUDA_OBJS += $(PEER_KCUDA)/softmax.o
BUILD_TARGETS     += $(PEER_KCUDA)/softmax.o
endif

# ---- tests (tests/bench): the CPU GEMM table against a naive reference; the peer end to end on the
# emulator and --ceilings on the emulator, through the real sdpa-bench -------------------------------
PEER_TEST_DIR := $(BUILD)/tests/bench
PEER_TEST_OBJS := $(addprefix $(BUILD)/obj/host/bench/,gemm_cpu.o peer_tolerance.o cublas_dl.o)
$(PEER_TEST_DIR)/test_peers: tests/bench/test_peers.c $(PEER_TEST_OBJS) $(HOST_LIB) | $(DEPS_STAMP)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_ALL) -I$(CUDA_INC) -MMD -MP $(filter %.c %.o %.a,$^) $(CMOCKA_LIBS) $(HOST_LDLIBS) -ldl -o $@
-include $(PEER_TEST_DIR)/test_peers.d

# The GEMM ceilings' configuration of cuBLASLt (FP8 fast accumulation, ...) against a stand-in
# cuBLAS (tests/bench/fake_cublas.c) in <test>/../lib, where cublas_dl.c looks first. Needs the
# toolkit's cuBLAS headers (the fake has their prototypes); without them: a SKIP.
CEIL_TEST_DIR := $(BUILD)/tests/ceilings
ifneq ($(wildcard $(CUDA_INC)/cublasLt.h),)
CEIL_FAKE_LIBS := $(CEIL_TEST_DIR)/lib/libcublasLt.so.13 $(CEIL_TEST_DIR)/lib/libcublas.so.13
$(CEIL_FAKE_LIBS): tests/bench/fake_cublas.c | $(DEPS_STAMP)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CSTD) $(WARN) -O2 -fPIC -shared -isystem $(CUDA_INC) $< -o $@
$(CEIL_TEST_DIR)/bin/test_ceilings: tests/bench/test_ceilings.c $(addprefix $(BUILD)/obj/host/bench/,ceilings.o \
                                    cublas_dl.o arch.o) $(HOST_LIB) | $(DEPS_STAMP)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_ALL) -I$(CUDA_INC) -MMD -MP $(filter %.c %.o %.a,$^) $(CMOCKA_LIBS) $(HOST_LDLIBS) -ldl -o $@
-include $(CEIL_TEST_DIR)/bin/test_ceilings.d
CEIL_TEST_DEPS := $(CEIL_FAKE_LIBS) $(CEIL_TEST_DIR)/bin/test_ceilings
CEIL_SUITES    := $(CEIL_TEST_DIR)/bin/test_ceilings
else
CEIL_TEST_DEPS :=
CEIL_SUITES    := "bash tests/bench/ceilings_skip.sh"
endif

# The emulator's sanitizer builds of sdpa-bench (mk/kernel-tests.mk) run the peer's kernel too.
PEER_SAN_BINS  := $(BUILD)/tests/kernels/sdpa-bench-asan $(BUILD)/tests/kernels/sdpa-bench-tsan
PEER_TEST_DEPS := $(PEER_TEST_DIR)/test_peers $(BIN)/sdpa-bench $(PEER_TEST_DIR)/check_run_json $(PEER_SAN_BINS) \
                  $(CEIL_TEST_DEPS)
PEER_SUITES    := $(PEER_TEST_DIR)/test_peers $(CEIL_SUITES) \
                  "bash tests/bench/peers.sh $(BIN)/sdpa-bench $(PEER_TEST_DIR) $(PEER_SAN_BINS)"

## test-peers: build and run the peer and ceiling tests only (CPU GEMM table, cublas-unfused and --ceilings on the emulator)
test-peers: $(PEER_TEST_DEPS)
	$(Q)tools/run-tests.sh $(BUILD)/test-logs/peers $(PEER_SUITES)
.PHONY: test-peers
