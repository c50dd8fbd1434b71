# $(GEN)/build_info.h: git SHA, dirty flag, compiler versions and flags, compiled into every
# program that writes results. Regenerated on every make run, rewritten only when it changes.
BUILD_INFO_H := $(GEN)/build_info.h
NVCC_FLAGS_DESC = $(NVCC_KERNEL_FLAGS)

$(BUILD_INFO_H): FORCE | $(DEPS_STAMP)
	$(Q)mkdir -p $(@D)
	$(Q)tools/gen-build-info.sh $@ "$(CC)" "$(NVCC)" "$(CFLAGS_ALL)" "$(NVCC_FLAGS_DESC)"
