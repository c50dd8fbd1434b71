# Kernels: the nvcc build (every variant for every architecture in CUDA_ARCHS, plus PTX of the
# newest for forward compatibility), its ptxas resources as JSON, and PTX listings for the static
# checks. The emulator build of the same source is further down.

KERNEL_SRC  := kernels/stages.cu
# Every header of the kernel source (the planted regressions copy them all). The compiles
# themselves depend on what they actually include, through their dependency files (-MMD): an
# output without its .d file (a build from before they existed) is remade once.
KERNEL_HDRS := $(sort $(wildcard kernels/*.cuh kernels/*.h)) kernels/variants.def
kernel_depfile_or_force = $(if $(wildcard $(1)),,FORCE)
KCUDA       := $(BUILD)/kernels/cuda
PTXAS_DIR   := $(BUILD)/ptxas
PTXAS_LOG   := $(PTXAS_DIR)/stages.log
# Empty without nvcc: consumers (sdpa-bench, experiments) then record "not evaluated: nvcc not found".
PTXAS_JSON  := $(if $(NVCC),$(PTXAS_DIR)/ptxas.json)
PUBLISHED_JSON := data/published/seed-l4.json

_newest_arch   := $(lastword $(CUDA_ARCHS))
NVCC_GENCODE   := $(foreach a,$(CUDA_ARCHS),-gencode arch=compute_$(a),code=sm_$(a)) \
                  -gencode arch=compute_$(_newest_arch),code=compute_$(_newest_arch)
# No --use_fast_math: the kernels call the fast intrinsics they mean (__expf) explicitly, and
# nothing else (division, denormals) changes behind the source's back.
NVCC_KERNEL_FLAGS := -std=c++17 -O3 -lineinfo -Ikernels -I$(GEN) \
                     -Xptxas -v,--warn-on-spills,--warn-on-local-memory-usage

ifneq ($(NVCC),)
# Two compiles of the one source (kernels/stages.cu, "Which kernels this compile defines"): every
# kernel for CUDA_ARCHS, but those of the rows with an sm_90a-only switch, which the second compile
# (SDPA_PART_SM90A) builds for sm_90a alone. The ptxas log is both reports, one after the other.
KERNELS_CUDA_OBJS := $(KCUDA)/stages.o $(KCUDA)/stages_sm90a.o
KERNEL_PTX_MAIN   := $(foreach a,$(CUDA_ARCHS),$(KCUDA)/stages_sm$(a).ptx)
KERNEL_PTX_SM90A  := $(foreach a,$(CUDA_ARCHS_SPECIFIC),$(KCUDA)/stages_sm$(a).ptx)
KERNEL_PTX        := $(KERNEL_PTX_MAIN) $(KERNEL_PTX_SM90A)
BUILD_TARGETS     += $(KERNELS_CUDA_OBJS) $(KERNEL_PTX) $(PTXAS_JSON)

# One compile gives the fat object, the ptxas report (stderr, kept as a log for ptxas-json) and the
# PTX listings of the static checks: nvcc keeps the PTX of each architecture it compiled (-keep;
# tools/kept-ptx.sh), so a listing is the PTX the build compiled (with -lineinfo's .loc lines),
# not one more compile of the source per architecture (four of them took ~70 CPU-seconds of make
# test). Its dependency file names the listings with the object (tests/kernels/make-deps.sh).
# nvcc_kernels OBJ LOG FLAGS ARCHS: that compile; the PTX of ARCH becomes $(KCUDA)/stages_smARCH.ptx.
define nvcc_kernels
	$(Q)mkdir -p $(KCUDA) $(PTXAS_DIR)
	$(Q)rm -rf $(1).keep && mkdir -p $(1).keep
	$(Q)$(NVCC_DET) $(NVCC) $(NVCC_KERNEL_FLAGS) $(3) -keep -keep-dir $(1).keep -MMD -MP -MF $(1:.o=.d) -MT $(1) \
	  -c $(KERNEL_SRC) -o $(1) 2> $(2).tmp \
	  || { cat $(2).tmp >&2; rm -f $(2).tmp; rm -rf $(1).keep; exit 1; }
	$(Q)grep -iE 'warning|error' $(2).tmp >&2 || true
	$(Q)tools/kept-ptx.sh $(1).keep $(KCUDA) $(4) && rm -rf $(1).keep
	$(Q)sed -i '1s#^$(1) *:#$(1) $(foreach a,$(4),$(KCUDA)/stages_sm$(a).ptx):#' $(1:.o=.d)
	$(Q)mv -f $(2).tmp $(2)
endef
$(KCUDA)/stages.o $(PTXAS_DIR)/stages-main.log $(KERNEL_PTX_MAIN) &: $(KERNEL_SRC) $(SDPA_CUSTOM_H) \
                                 $(call kernel_depfile_or_force,$(KCUDA)/stages.d) | $(DEPS_STAMP)
	@echo "  NVCC    $(KERNEL_SRC) [$(CUDA_ARCHS:%=sm_%)]"
	$(call nvcc_kernels,$(KCUDA)/stages.o,$(PTXAS_DIR)/stages-main.log,$(NVCC_GENCODE),$(CUDA_ARCHS))
$(KCUDA)/stages_sm90a.o $(PTXAS_DIR)/stages-sm90a.log $(KERNEL_PTX_SM90A) &: $(KERNEL_SRC) $(SDPA_CUSTOM_H) \
                                 $(call kernel_depfile_or_force,$(KCUDA)/stages_sm90a.d) | $(DEPS_STAMP)
	@echo "  NVCC    $(KERNEL_SRC) [sm_90a rows: $(CUDA_ARCHS_SPECIFIC:%=sm_%)]"
	$(call nvcc_kernels,$(KCUDA)/stages_sm90a.o,$(PTXAS_DIR)/stages-sm90a.log,-DSDPA_PART_SM90A $(NVCC_GENCODE_SPECIFIC),$(CUDA_ARCHS_SPECIFIC))
$(PTXAS_LOG): $(PTXAS_DIR)/stages-main.log $(PTXAS_DIR)/stages-sm90a.log
	$(Q)cat $^ > $@.tmp && mv -f $@.tmp $@

# What each nvcc output includes (kernels/switches.h, every header of the kernel): editing any of
# them rebuilds the CUDA kernels, as it does the emulator's (tests/kernels/make-deps.sh).
-include $(KCUDA)/stages.d $(KCUDA)/stages_sm90a.d
endif

ifneq ($(NVCC),)
# The build output is derived data: replaced on every rebuild of the log (results_write never
# overwrites, so the old file is removed first).
$(PTXAS_JSON): $(PTXAS_LOG) $(BIN)/ptxas-json $(wildcard $(PUBLISHED_JSON))
	$(Q)rm -f $@
	$(Q)$(BIN)/ptxas-json --log $(PTXAS_LOG) --out $@ $(if $(wildcard $(PUBLISHED_JSON)),--published $(PUBLISHED_JSON)) \
	  || [ $$? -eq 1 ]   # a failing gate is reported by the static-gate tests, not by the build

endif

## ptxas: print registers, spills, shared memory and occupancy of every kernel beside the original's published figures
ptxas: $(PTXAS_JSON)
	$(Q)$(if $(NVCC),rm -f $(PTXAS_DIR)/.print.json && $(BIN)/ptxas-json --log $(PTXAS_LOG) --out $(PTXAS_DIR)/.print.json \
	  --print $(if $(wildcard $(PUBLISHED_JSON)),--published $(PUBLISHED_JSON)); rm -f $(PTXAS_DIR)/.print.json,\
	  echo "ptxas: nvcc not found (PATH, CUDA_HOME=$(CUDA_HOME))")
.PHONY: ptxas

# ---- the emulator build of the same source (kernels/emu, mk/emu.mk) ---------------------------
# Three flavours, matching the emulator runtime's: plain (-O2, what sdpa-bench links), ThreadSanitizer
# and AddressSanitizer+UBSan (the kernel tests run small shapes under both). -fno-strict-aliasing:
# the kernels move fp16 data through 16-byte vector accesses of shared memory, the usual CUDA
# idiom, which C++'s aliasing rules would let clang reorder.
KEMU := $(BUILD)/kernels/emu
# The plain build in three compiles (kernels/stages.cu, "Which kernels this compile defines"): the
# table and every kernel but the sm_90a rows' (stages.o), and those rows' D = 64 and D = 128 kernels.
# As one compile it took ~330 CPU-seconds at -O2 and, started late by make -j2, ran alone on one
# core for the last ~3.5 minutes of make test's build; the parts took 79, 121 and 132 (2026-11-29),
# and 7, 8 and 8 once __forceinline__ no longer forced every helper inline (kernels/emu/simt_shim.h).
KEMU_SM90A_PARTS      := $(KEMU)/stages-sm90a-d64.o $(KEMU)/stages-sm90a-d128.o
KERNELS_EMU_OBJS      := $(KEMU)/stages.o $(KEMU_SM90A_PARTS)
KERNELS_EMU_TSAN_OBJS := $(KEMU)/stages-tsan.o
KERNELS_EMU_ASAN_OBJS := $(KEMU)/stages-asan.o
# Line tables only (after EMU_CXXFLAGS' -g): sanitizer reports and backtraces keep file and line,
# at ~30 % less CPU a compile than full debug information (85 -> 60 s, when the plain build had them).
KERNEL_EMU_FLAGS = $(EMU_WERROR) -fno-strict-aliasing -I$(GEN) -gline-tables-only
# The plain build without them (-g0): nothing reads its debug information (a kernel's fault names
# its source line through the emulator's call sites, simt_rt.h; the sanitizer builds keep their
# line tables), and they cost ~16 % of its compiles (the sm_90a rows at D = 64: 103 -> 87 CPU-s,
# 2026-11-29). KERNEL_EMU_DEBUG=-gline-tables-only puts them back, for a debugger or a profile.
KERNEL_EMU_DEBUG ?= -g0
KERNEL_EMU_PLAIN_FLAGS = $(KERNEL_EMU_FLAGS) $(KERNEL_EMU_DEBUG)
# The kernels' ASan+UBSan build at -O0 (the runtime's stays -O1): at -O1 this one translation unit
# took ~300 CPU-seconds to compile, and its runs are the small shapes (a few seconds slower); -O0
# also keeps every access the source makes for ASan to check. Without UBSan's `function` check
# (an indirect call through a pointer of another function type): it puts type data before every
# function, and at -O0, where every inlined helper stays a function, that was ~40 of the ~60
# CPU-seconds of this compile (object 74 -> 12 MB); the kernels' only function pointers are the
# launch tables' (kernels/stages.cu), which C++ already types exactly (no cast).
KERNEL_EMU_ASAN_FLAGS := -O0 $(SAN_FLAGS) -fno-sanitize=function
# The ThreadSanitizer build likewise at -O0 (the runtime's stays -O1): ~5 CPU-seconds of compile
# against ~52 at -O1, for runs of the small shapes ~1 s slower each (six in the correctness
# matrix). TSan instruments every access at either level; -O0 leaves none out.
KERNEL_EMU_TSAN_FLAGS := -O0 -fsanitize=thread
# emu_kernels OBJ DEFINES LABEL: one compile of the plain build, defining what DEFINES select.
define emu_kernels
$(1): $(KERNEL_SRC) $(call emu_pch,plain) $(call kernel_depfile_or_force,$(1:.o=.d)) | $(DEPS_STAMP) $(SDPA_CUSTOM_H)
	@echo "  EMU     $(KERNEL_SRC)$(if $(3), [$(3)])"
	$$(Q)mkdir -p $$(@D)
	$$(Q)$$(call EMU_COMPILE,plain) $$(KERNEL_EMU_PLAIN_FLAGS) $(2) -MMD -MP -c $$< -o $$@
endef
$(eval $(call emu_kernels,$(KEMU)/stages.o,-DSDPA_EMU_MAIN))
$(eval $(call emu_kernels,$(KEMU)/stages-sm90a-d64.o,-DSDPA_PART_SM90A -DSDPA_EMU_PASS=4,sm_90a rows at D = 64))
$(eval $(call emu_kernels,$(KEMU)/stages-sm90a-d128.o,-DSDPA_PART_SM90A -DSDPA_EMU_PASS=5,sm_90a rows at D = 128))
$(KEMU)/stages-tsan.o: $(KERNEL_SRC) $(call emu_pch,ktsan) $(call kernel_depfile_or_force,$(KEMU)/stages-tsan.d) | $(DEPS_STAMP) $(SDPA_CUSTOM_H)
	$(Q)mkdir -p $(@D)
	$(Q)$(call EMU_COMPILE,ktsan) $(KERNEL_EMU_FLAGS) -MMD -MP -c $< -o $@
$(KEMU)/stages-asan.o: $(KERNEL_SRC) $(call emu_pch,kasan) $(call kernel_depfile_or_force,$(KEMU)/stages-asan.d) | $(DEPS_STAMP) $(SDPA_CUSTOM_H)
	$(Q)mkdir -p $(@D)
	$(Q)$(call EMU_COMPILE,kasan) $(KERNEL_EMU_FLAGS) -MMD -MP -c $< -o $@
BUILD_TARGETS += $(KERNELS_EMU_OBJS)
# The longest single compiles of make test (nvcc's ~40-70 CPU-seconds, the emulator's ~8-14;
# 2026-11-30): started first.
TEST_DEPS_FIRST += $(KERNELS_EMU_OBJS) $(KERNELS_EMU_TSAN_OBJS) $(KERNELS_CUDA_OBJS) $(KERNELS_EMU_ASAN_OBJS) $(KERNEL_PTX)
-include $(KEMU)/stages.d $(KEMU_SM90A_PARTS:.o=.d) $(KEMU)/stages-tsan.d $(KEMU)/stages-asan.d


## sass: print the SASS instruction mix of one variant (VARIANT=stage3b ARCH=sm_89; SKIP without cuobjdump)
VARIANT ?= stage3b
ARCH    ?= sm_89
sass: $(if $(NVCC),$(KCUDA)/stages.o)
	$(Q)$(if $(NVCC),tools/sass-mix.sh $(KCUDA)/stages.o sdpa_$(subst -,_,$(VARIANT))_e4m3 $(ARCH),\
	  echo "sass: nvcc not found (PATH, CUDA_HOME=$(CUDA_HOME))")
.PHONY: sass

## issue-slots: rewrite paper/derivation/issue-slots.tsv (the issue-slot model's counts) from the sm_90a SASS
# tools/issue-slots.sh; commit the file: the paper reads it, and tests/kernels/issue-slots.sh fails
# while it differs from the build.
ISSUE_SLOTS_TSV     := paper/derivation/issue-slots.tsv
ISSUE_SLOTS_KERNELS := $(foreach s,7b 7c 7d 7e 7f 7h 7i 7j 7k 7l,sdpa_stage$(s)_e4m3 sdpa_stage$(s)_e4m3_d128)
issue-slots: $(if $(NVCC),$(KCUDA)/stages_sm90a.o $(PTXAS_JSON))
	$(Q)$(if $(NVCC),tools/issue-slots.sh $(KCUDA)/stages_sm90a.o $(PTXAS_JSON) sm_90a $(ISSUE_SLOTS_KERNELS) \
	  >$(ISSUE_SLOTS_TSV).tmp && mv -f $(ISSUE_SLOTS_TSV).tmp $(ISSUE_SLOTS_TSV) && echo "issue-slots: $(ISSUE_SLOTS_TSV)",\
	  echo "issue-slots: nvcc not found (PATH, CUDA_HOME=$(CUDA_HOME))" >&2; exit 2)
.PHONY: issue-slots
