# The CPU SIMT emulator (kernels/emu, README there) and its tests (tests/emu).
#
# Four flavours of the runtime library:
#   $(SIMT_LIB)           plain, -O2, hand-written fiber switch: what sdpa-bench links
#   $(SIMT_LIB_TSAN)      ThreadSanitizer: missing barriers reported as data races
#   $(SIMT_LIB_ASAN)      AddressSanitizer + UBSan: out-of-bounds and misaligned accesses
#   $(SIMT_LIB_UCONTEXT)  plain with the portable ucontext fiber switch (tested once)
# A kernel object must be compiled with the flags of the flavour it is linked with (a mismatch
# fails to link: simt_rt.h, SIMT_FLAVOUR_SYMBOL).
#
# Compiling a CUDA source for the emulator (what mk/kernels.mk uses), FLAVOUR one of
# $(EMU_FLAVOURS) below (its optimisation level and sanitizer):
#   target: kernel.cu $(call emu_pch,FLAVOUR)
#   	$(call EMU_COMPILE,FLAVOUR) -c kernel.cu -o kernel.o
# and linking, with $(CC) or $(EMU_CXX) (sanitizer flavours: $(EMU_CXX) with the same flags):
#   ... kernel.o $(SIMT_LIB) $(EMU_LINK_LIBS)

EMU_DIR      := kernels/emu
EMU_CPPFLAGS := -I$(EMU_DIR)/include -I$(CUDA_INC) -Ikernels
# -ffp-contract=off: no FMA contraction, so results do not depend on the host architecture.
EMU_CXXFLAGS := -std=c++17 -O2 -g -ffp-contract=off -fno-omit-frame-pointer -Wall -Wextra
EMU_TSAN_FLAGS := -O1 -fsanitize=thread
EMU_ASAN_FLAGS := -O1 $(SAN_FLAGS)
# The flavours of kernel compiles: plain (-O2), tsan and asan (-O1, the tests' kernels), ktsan and
# kasan (-O0, the big kernel sources: mk/kernels.mk).
EMU_FLAVOURS := plain tsan asan ktsan kasan
emu_flags_plain :=
emu_flags_tsan   = $(EMU_TSAN_FLAGS)
emu_flags_asan   = $(EMU_ASAN_FLAGS)
emu_flags_ktsan  = $(KERNEL_EMU_TSAN_FLAGS)
emu_flags_kasan  = $(KERNEL_EMU_ASAN_FLAGS)
# Every kernel source includes the shim (simt_shim.h: the CUDA headers, the runtime's API), whose
# parse was ~1 of the ~1.1 CPU-seconds of a test kernel's compile, in ~130 compiles: it is
# precompiled once per flavour (clang refuses a PCH built at another optimisation level).
EMU_PCH_DIR := $(BUILD)/pch
emu_pch = $(EMU_PCH_DIR)/$(1)/simt_shim.h.pch
EMU_COMPILE = $(EMU_CXX) $(EMU_CXXFLAGS) $(EMU_CPPFLAGS) $(emu_flags_$(1)) -include-pch $(call emu_pch,$(1)) -x c++
$(EMU_PCH_DIR)/%/simt_shim.h.pch: $(EMU_DIR)/simt_shim.h | $(DEPS_STAMP)
	$(Q)mkdir -p $(@D)
	$(Q)$(EMU_CXX) $(EMU_CXXFLAGS) $(EMU_CPPFLAGS) $(emu_flags_$*) $(EMU_WERROR) -MMD -MP -MF $(@:.pch=.d) \
	  -x c++-header $< -o $@
-include $(EMU_FLAVOURS:%=$(EMU_PCH_DIR)/%/simt_shim.h.d)
EMU_LINK_LIBS  := -lstdc++ -lm -lpthread
EMU_WERROR     := -Werror

SIMT_LIB          := $(BUILD)/lib/libsimt.a
SIMT_LIB_TSAN     := $(BUILD)/lib/libsimt-tsan.a
SIMT_LIB_ASAN     := $(BUILD)/lib/libsimt-asan.a
SIMT_LIB_UCONTEXT := $(BUILD)/lib/libsimt-ucontext.a

EMU_RT_SRCS := $(wildcard $(EMU_DIR)/rt/*.cpp)
EMU_RT_ASM  := $(wildcard $(EMU_DIR)/rt/*.S)
EMU_OBJ     := $(BUILD)/obj/emu
EMU_RT_FLAGS = $(EMU_CXXFLAGS) $(EMU_WERROR) -I$(CUDA_INC)

# $(1) flavour, $(2) extra flags, $(3) library, $(4) sources: objects and the archive.
define emu_rt_flavour
EMU_RT_OBJS_$(1) := $$(patsubst $(EMU_DIR)/rt/%,$(EMU_OBJ)/$(1)/rt/%.o,$(4))
$$(filter %.cpp.o,$$(EMU_RT_OBJS_$(1))): $(EMU_OBJ)/$(1)/rt/%.cpp.o: $(EMU_DIR)/rt/%.cpp | $(DEPS_STAMP)
	$$(Q)mkdir -p $$(@D)
	$$(Q)$$(EMU_CXX) $$(EMU_RT_FLAGS) $(2) -MMD -MP -c $$< -o $$@
$$(filter %.S.o,$$(EMU_RT_OBJS_$(1))): $(EMU_OBJ)/$(1)/rt/%.S.o: $(EMU_DIR)/rt/%.S | $(DEPS_STAMP)
	$$(Q)mkdir -p $$(@D)
	$$(Q)$$(EMU_CXX) $(2) -c $$< -o $$@
$(3): $$(EMU_RT_OBJS_$(1))
	$$(Q)mkdir -p $$(@D)
	$$(Q)rm -f $$@ && $$(AR) rcs $$@ $$^
-include $$(EMU_RT_OBJS_$(1):.o=.d)
endef
$(eval $(call emu_rt_flavour,plain,,$(SIMT_LIB),$(EMU_RT_SRCS) $(EMU_RT_ASM)))
# The TSan runtime is not instrumented (simt_rt.h, SIMT_TSAN_RUNTIME): only the kernels are.
$(eval $(call emu_rt_flavour,tsan,-DSIMT_TSAN_RUNTIME,$(SIMT_LIB_TSAN),$(EMU_RT_SRCS) $(EMU_RT_ASM)))
$(eval $(call emu_rt_flavour,asan,$(EMU_ASAN_FLAGS),$(SIMT_LIB_ASAN),$(EMU_RT_SRCS) $(EMU_RT_ASM)))
$(eval $(call emu_rt_flavour,ucontext,-DSIMT_FIBER_UCONTEXT,$(SIMT_LIB_UCONTEXT),$(EMU_RT_SRCS)))

## emu: build the CPU SIMT emulator's runtime libraries (build/lib/libsimt*.a)
emu: $(SIMT_LIB) $(SIMT_LIB_TSAN) $(SIMT_LIB_ASAN)
.PHONY: emu
BUILD_TARGETS += $(SIMT_LIB) $(SIMT_LIB_TSAN) $(SIMT_LIB_ASAN)


# ---- tests (tests/emu): one suite binary per flavour, plus the nvcc build of the test kernels ----
EMU_TEST_DIR  := $(BUILD)/tests/emu
EMU_CC        ?= clang
EMU_TEST_KERNELS := $(wildcard tests/emu/kernels/*.cu)
EMU_TEST_CSRCS   := $(wildcard tests/emu/*.c)
EMU_TEST_CFLAGS   = -std=c11 $(WARN) -O2 -g $(COMMON_CPPFLAGS) -Itests/emu -Itests/emu/kernels -Ikernels/probes -I$(CUDA_INC) \
                    -DEMU_KERNEL_DIR='"$(abspath tests/emu/kernels)"' -DEMU_DATA_DIR='"$(abspath data)"'

# The hardware probes' kernels (kernels/probes) run in the suites too: the emulator's own answer.
EMU_PROBE_SRC := kernels/probes/probes.cu

# $(1) flavour, $(2) sanitizer flags, $(3) runtime library: the suite's objects and binary.
define emu_test_flavour
EMU_TEST_OBJS_$(1) := $$(EMU_TEST_KERNELS:tests/emu/kernels/%.cu=$(EMU_OBJ)/$(1)/tests/%.o) \
                      $$(EMU_TEST_CSRCS:tests/emu/%.c=$(EMU_OBJ)/$(1)/tests/%.c.o) $(EMU_OBJ)/$(1)/probes/probes.o \
                      $(EMU_OBJ)/$(1)/probes/probe_run.c.o
$(EMU_OBJ)/$(1)/probes/probes.o: $(EMU_PROBE_SRC) $(call emu_pch,$(1)) | $(DEPS_STAMP)
	$$(Q)mkdir -p $$(@D)
	$$(Q)$$(call EMU_COMPILE,$(1)) $$(EMU_WERROR) -Ikernels/probes -MMD -MP -c $$< -o $$@
$(EMU_OBJ)/$(1)/probes/probe_run.c.o: kernels/probes/probe_run.c | $(DEPS_STAMP)
	$$(Q)mkdir -p $$(@D)
	$$(Q)$$(EMU_CC) $$(EMU_TEST_CFLAGS) $(2) -MMD -MP -c $$< -o $$@
$(EMU_OBJ)/$(1)/tests/%.o: tests/emu/kernels/%.cu $(call emu_pch,$(1)) | $(DEPS_STAMP)
	$$(Q)mkdir -p $$(@D)
	$$(Q)$$(call EMU_COMPILE,$(1)) $$(EMU_WERROR) -Itests/emu/kernels -MMD -MP -c $$< -o $$@
$(EMU_OBJ)/$(1)/tests/%.c.o: tests/emu/%.c | $(DEPS_STAMP)
	$$(Q)mkdir -p $$(@D)
	$$(Q)$$(EMU_CC) $$(EMU_TEST_CFLAGS) $(2) -MMD -MP -c $$< -o $$@
$(EMU_TEST_DIR)/emu-tests$(if $(filter plain,$(1)),,-$(1)): $$(EMU_TEST_OBJS_$(1)) $(3) $$(HOST_LIB)
	$$(Q)mkdir -p $$(@D)
	$$(Q)$$(EMU_CXX) $(2) $$(EMU_TEST_OBJS_$(1)) $(3) $$(HOST_LIB) $$(CMOCKA_LIBS) $$(JSON_LIBS) $$(EMU_LINK_LIBS) -o $$@
-include $$(EMU_TEST_OBJS_$(1):.o=.d)
endef
$(eval $(call emu_test_flavour,plain,,$(SIMT_LIB)))
$(eval $(call emu_test_flavour,tsan,$(EMU_TSAN_FLAGS),$(SIMT_LIB_TSAN)))
$(eval $(call emu_test_flavour,asan,$(EMU_ASAN_FLAGS),$(SIMT_LIB_ASAN)))
# The portable fiber switch: the plain objects linked with the ucontext runtime.
$(EMU_TEST_DIR)/emu-tests-ucontext: $(EMU_TEST_OBJS_plain) $(SIMT_LIB_UCONTEXT) $(HOST_LIB)
	$(Q)mkdir -p $(@D)
	$(Q)$(EMU_CXX) $(EMU_TEST_OBJS_plain) $(SIMT_LIB_UCONTEXT) $(HOST_LIB) $(CMOCKA_LIBS) $(JSON_LIBS) $(EMU_LINK_LIBS) -o $@

EMU_TEST_BINS := $(EMU_TEST_DIR)/emu-tests $(EMU_TEST_DIR)/emu-tests-ucontext $(EMU_TEST_DIR)/emu-tests-tsan \
                 $(EMU_TEST_DIR)/emu-tests-asan

# The same kernel sources through nvcc, every architecture, warnings as errors. A failed compile
# is recorded (.rc, .log) for the suite to report, not a build error. Device code only (-fatbin:
# the SASS and PTX of each architecture, which tests/emu/sass-check.sh reads with cuobjdump): the
# host compile of a file was ~2.5 of its ~5 CPU-seconds, and the emulator's build compiles the
# same files as host code, warnings as errors.
ifneq ($(NVCC),)
EMU_NVCC_DIR     := $(EMU_TEST_DIR)/nvcc
EMU_NVCC_RCS     := $(EMU_TEST_KERNELS:tests/emu/kernels/%.cu=$(EMU_NVCC_DIR)/%.rc)
# A kernel file may restrict its architectures with a first-lines comment "// NVCC-ARCHS: 89 90"
# (FP8 mma.sync needs sm_89+); tests/emu/nvcc-kernels.sh reads the same comment.
# "90a" there names the architecture-specific target (CUDA_ARCHS_SPECIFIC, mk/config.mk).
EMU_NVCC_ARCHS := $(CUDA_ARCHS) $(CUDA_ARCHS_SPECIFIC)
# Without the line: every architecture, the sm_90a target included.
emu_nvcc_archs = $(filter $(or $(shell sed -n 's|^// NVCC-ARCHS: *||p' $(1)),$(EMU_NVCC_ARCHS)),$(EMU_NVCC_ARCHS))
EMU_NVCC_FLAGS := -std=c++17 -Werror all-warnings -Ikernels -Itests/emu/kernels
# The architecture list as a file: changing it rebuilds the objects.
$(EMU_NVCC_DIR)/archs: FORCE
	$(Q)mkdir -p $(@D) && echo '$(EMU_NVCC_ARCHS)' | tools/write-if-changed.sh $@
$(EMU_NVCC_DIR)/%.rc: tests/emu/kernels/%.cu tests/emu/kernels/emu_tests.h kernels/prims.cuh kernels/tensor_map.h \
                      kernels/wgmma_layout.h $(EMU_NVCC_DIR)/archs mk/emu.mk | $(DEPS_STAMP)
	@echo "  NVCC    $< [$(patsubst %,sm_%,$(call emu_nvcc_archs,$<))]"
	$(Q)mkdir -p $(@D)
	$(Q)$(NVCC) $(EMU_NVCC_FLAGS) $(foreach a,$(call emu_nvcc_archs,$<),-gencode arch=compute_$(a),code=sm_$(a)) \
	    -fatbin $< -o $(@:.rc=.fatbin) >$(@:.rc=.log) 2>&1; echo $$? >$@
# The FP8 wrapper must refuse an architecture without FP8 mma.sync at compile time.
EMU_NVCC_RCS += $(EMU_NVCC_DIR)/mma_fp8-sm80.rc
$(EMU_NVCC_DIR)/mma_fp8-sm80.rc: tests/emu/kernels/mma_fp8.cu kernels/prims.cuh | $(DEPS_STAMP)
	$(Q)mkdir -p $(@D)
	$(Q)$(NVCC) $(EMU_NVCC_FLAGS) -gencode arch=compute_80,code=sm_80 -fatbin $< -o $(@:.rc=.fatbin) >$(@:.rc=.log) 2>&1; \
	    echo $$? >$@
# The sm_90a gate: the same kernel's PTX for compute_90 (must trap) and compute_90a (the body).
EMU_NVCC_RCS += $(EMU_NVCC_DIR)/arch_gate-ptx.rc
$(EMU_NVCC_DIR)/arch_gate-ptx.rc: tests/emu/kernels/arch_gate.cu kernels/prims.cuh | $(DEPS_STAMP)
	$(Q)mkdir -p $(@D)
	$(Q){ $(NVCC) $(EMU_NVCC_FLAGS) -arch=compute_90 -ptx $< -o $(@:.rc=-sm90.ptx) && \
	  $(NVCC) $(EMU_NVCC_FLAGS) -arch=compute_90a -ptx $< -o $(@:.rc=-sm90a.ptx); } >$(@:.rc=.log) 2>&1; echo $$? >$@
EMU_NVCC_SUITE := tests/emu/nvcc-kernels.sh $(EMU_NVCC_DIR) $(EMU_NVCC_ARCHS)
EMU_SASS_SUITE := bash tests/emu/sass-check.sh $(EMU_NVCC_DIR)
else
EMU_NVCC_RCS   :=
EMU_NVCC_SUITE := tests/emu/nvcc-kernels.sh none $(CUDA_ARCHS) $(CUDA_ARCHS_SPECIFIC)
EMU_SASS_SUITE := bash tests/emu/sass-check.sh none
endif

# The wgmma layouts against NVIDIA CuTe on the host (SKIP without PyPI's nvidia-cutlass); the hardware
# probes' driver on the emulator (mk/probes.mk builds it).
EMU_CUTE_SUITE   := bash tests/emu/cute-check.sh $(HOST_CXX) $(CUDA_INC)
EMU_PROBE_BIN    := $(BUILD)/tests/probes/sdpa-probes-emu
EMU_PROBES_SUITE := bash tests/emu/probes.sh $(EMU_PROBE_BIN)

# make test: the three flavours; the long tier: the portable fiber switch, and the test kernels
# through nvcc with their SASS (~130 CPU-seconds of compiles: a check of the tests themselves).
EMU_TEST_BINS_QUICK := $(filter-out %-ucontext,$(EMU_TEST_BINS))
TEST_DEPS   += $(EMU_TEST_BINS_QUICK) $(EMU_PROBE_BIN)
TEST_SUITES += $(EMU_TEST_BINS_QUICK) "$(EMU_CUTE_SUITE)" "$(EMU_PROBES_SUITE)"
TEST_LONG_DEPS   += $(EMU_TEST_DIR)/emu-tests-ucontext $(EMU_NVCC_RCS)
TEST_LONG_SUITES += $(EMU_TEST_DIR)/emu-tests-ucontext "$(EMU_NVCC_SUITE)" "$(EMU_SASS_SUITE)"

## emu-test: build and run only the emulator's test suites
emu-test: $(EMU_TEST_BINS) $(EMU_NVCC_RCS) $(EMU_PROBE_BIN)
	$(Q)tools/run-tests.sh $(BUILD)/test-logs/emu $(EMU_TEST_BINS) "$(EMU_NVCC_SUITE)" "$(EMU_SASS_SUITE)" \
	  "$(EMU_CUTE_SUITE)" "$(EMU_PROBES_SUITE)"
.PHONY: emu-test

# ---- micro-benchmark ---------------------------------------------------------------------------
EMU_BENCH_KOBJ := $(EMU_OBJ)/bench/bench_kernels.o
$(EMU_BENCH_KOBJ): tests/emu/bench/bench_kernels.cu $(call emu_pch,plain) | $(DEPS_STAMP)
	$(Q)mkdir -p $(@D)
	$(Q)$(call EMU_COMPILE,plain) $(EMU_WERROR) -MMD -MP -c $< -o $@
# $(1) suffix, $(2) runtime library, $(3) extra flags
define emu_bench
$(EMU_TEST_DIR)/emu-bench$(1): tests/emu/bench/emu_bench.cpp $(EMU_BENCH_KOBJ) $(2) | $(DEPS_STAMP)
	$$(Q)mkdir -p $$(@D)
	$$(Q)$$(EMU_CXX) $$(EMU_CXXFLAGS) $$(EMU_WERROR) $(3) -Ikernels -I$$(CUDA_INC) $$< $(EMU_BENCH_KOBJ) $(2) \
	    $$(EMU_LINK_LIBS) -o $$@
endef
$(eval $(call emu_bench,,$(SIMT_LIB),))
$(eval $(call emu_bench,-ucontext,$(SIMT_LIB_UCONTEXT),-DSIMT_FIBER_UCONTEXT))
-include $(EMU_BENCH_KOBJ:.o=.d)

## emu-bench: print the emulator's fiber switches per second (bar: 20 M/s on one core) and SDPA-shaped timings
emu-bench: $(EMU_TEST_DIR)/emu-bench $(EMU_TEST_DIR)/emu-bench-ucontext
	$(Q)$(EMU_TEST_DIR)/emu-bench
	$(Q)$(EMU_TEST_DIR)/emu-bench-ucontext
.PHONY: emu-bench
