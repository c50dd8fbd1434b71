# ptxas-json (host/ptxas/, README there): the ptxas -v log of kernels/stages.cu -> the
# `ptxas-resources` JSON (+ the published figures of the original), also a readable table; and
# its unit tests (tests/ptxas/). The log itself and `make ptxas` are in mk/kernels.mk.
PTXAS_SRCS      := host/ptxas/ptxas_log.c host/ptxas/occupancy.c
PTXAS_OBJ_DIR   := $(BUILD)/obj/host/ptxas
PTXAS_OBJS      := $(PTXAS_SRCS:host/ptxas/%.c=$(PTXAS_OBJ_DIR)/%.o)
PTXAS_TOOL_OBJS := $(PTXAS_OBJS) $(PTXAS_OBJ_DIR)/main.o
$(PTXAS_TOOL_OBJS): $(PTXAS_OBJ_DIR)/%.o: host/ptxas/%.c | $(DEPS_STAMP) $(SDPA_CUSTOM_H)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@
# Linked with the emulator build's kernel table: every kernel's geometry (block, rows per CTA,
# dynamic shared memory) comes from the Configs of kernels/stages.cu, not from a constant; and with
# the variant registry (host/bench/variants.c), which tells --print's table a stub from a build.
$(BIN)/ptxas-json: $(PTXAS_TOOL_OBJS) $(BUILD)/obj/host/bench/variants.o $(HOST_LIB) $(KERNELS_EMU_OBJS) $(SIMT_LIB)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_ALL) $^ -o $@ $(EMU_LINK_LIBS) $(HOST_LDLIBS)
BUILD_TARGETS += $(BIN)/ptxas-json

PTXAS_TEST := $(BUILD)/tests/ptxas/test_ptxas
$(PTXAS_TEST): tests/ptxas/test_ptxas.c $(PTXAS_OBJS) | $(DEPS_STAMP)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_ALL) -MMD -MP $(filter %.c %.o %.a,$^) -o $@ $(CMOCKA_LIBS)
TEST_DEPS   += $(PTXAS_TEST)
TEST_SUITES += $(PTXAS_TEST)

-include $(PTXAS_TOOL_OBJS:.o=.d) $(PTXAS_TEST).d
