# Fuzzing (tests/fuzz/, README there): one libFuzzer harness per reader of outside input, built
# with clang's -fsanitize=fuzzer,address,undefined (the sources compiled once more, into their own
# objects under $(FUZZ_DIR)):
#   run-json   sdpa-report experiment and check-run on a fuzzed run.json / manifest.json
#   npy        the .npy header reader
#   ptxas-log  the ptxas -v log parser
#   cli        sdpa-bench's command line, argv split from the input at NUL bytes
#   ingest     make ingest's readers: the tar stream, campaign JSON heads and the backend's
#              evidence, the logs that record it, a run's parameters, SHA256SUMS; and
#              sdpa-report sweep-summary's command line
#   campaign-files  sdpa-report sanitizers-json (runs file, compute-sanitizer log) and campaign-json
#              (steps and checks files), the writers of the campaign's own files
# Each has a seed corpus in tests/fuzz/<name>/corpus (regression inputs included: a crash found
# is fixed and its input committed there).
#   make fuzz [FUZZ_SECONDS=60]   every harness for FUZZ_SECONDS, after replaying its corpus
#   make test-long                the same for FUZZ_TEST_SECONDS (5) each: a smoke run in the long tier (tests/fuzz/run.sh)
# Without clang or its libFuzzer runtime the suite reports SKIP.

FUZZ_CC      ?= $(or $(shell command -v clang-14 2>/dev/null),$(shell command -v clang 2>/dev/null))
FUZZ_SECONDS ?= 60
FUZZ_TEST_SECONDS ?= 5
FUZZ_DIR     := $(BUILD)/fuzz
FUZZ_NAMES   := run-json npy ptxas-log cli campaign-files ingest
FUZZ_BINS    := $(FUZZ_NAMES:%=$(FUZZ_DIR)/fuzz-%)
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# -Wno-for-loop-analysis: clang flags the option parsers' deliberate i++ past an option's value.
FUZZ_CFLAGS  := $(CSTD) $(WARN) -Wno-for-loop-analysis -O1 -g -ffp-contract=off $(COMMON_CPPFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer-no-link
# The libFuzzer runtime ships separately (libclang-rt-14-dev on Debian): clang prints the bare name
# when it lacks the file (a cheap probe: every make, sub-makes included, parses this).
FUZZ_OK := $(if $(FUZZ_CC),$(wildcard $(shell $(FUZZ_CC) -print-file-name=libclang_rt.fuzzer-$(shell uname -m).a)))

# What each harness links besides libhost (fuzz flavour).
fuzz_srcs_run-json  := $(REPORT_SRCS) $(REPORT_SHARED_SRCS)
fuzz_srcs_npy       :=
fuzz_srcs_ptxas-log := host/ptxas/ptxas_log.c
fuzz_srcs_cli       := $(addprefix host/bench/,cli.c sampling.c throttle.c backend.c backend_nocuda.c dump.c run_json.c roofline.c)
fuzz_srcs_campaign-files := $(REPORT_SRCS) $(REPORT_SHARED_SRCS)
fuzz_srcs_ingest    := $(addprefix host/report/,names.c tar_read.c ingest_check.c params.c sweep_summary.c)
FUZZ_LIB_OBJS := $(HOST_SRCS:%.c=$(FUZZ_DIR)/obj/%.o)
FUZZ_ALL_SRCS := $(sort $(HOST_SRCS) $(foreach n,$(FUZZ_NAMES),$(fuzz_srcs_$(n))))

$(FUZZ_ALL_SRCS:%.c=$(FUZZ_DIR)/obj/%.o): $(FUZZ_DIR)/obj/%.o: %.c | $(DEPS_STAMP) $(BUILD_INFO_H) $(SDPA_CUSTOM_H)
	$(Q)mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_EXTRA) -MMD -MP -c $< -o $@
$(FUZZ_DIR)/fuzz-ingest: FUZZ_CFLAGS += -Ihost/report
# sdpa-report's main becomes a function the harness calls.
$(FUZZ_DIR)/obj/host/report/main.o: FUZZ_EXTRA := -Dmain=sdpa_report_main

fuzz_objs = $(patsubst %.c,$(FUZZ_DIR)/obj/%.o,$(fuzz_srcs_$(1)))
.SECONDEXPANSION:
$(FUZZ_BINS): $(FUZZ_DIR)/fuzz-%: tests/fuzz/%/fuzz.c $$(call fuzz_objs,$$*) $(FUZZ_LIB_OBJS)
	@echo "  FUZZ    $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $^ -o $@ $(HOST_LDLIBS) -ldl

ifneq ($(FUZZ_OK),)
FUZZ_SUITE := "bash tests/fuzz/run.sh $(FUZZ_DIR) $(FUZZ_TEST_SECONDS)"
TEST_LONG_DEPS += $(FUZZ_BINS)
else
FUZZ_SUITE := "bash tests/fuzz/run.sh none 0"
endif
# The long tier's (make test-long): fuzzing tests the parsers with inputs no suite wrote.
TEST_LONG_SUITES += $(FUZZ_SUITE)

## fuzz: run every libFuzzer harness (run JSON, .npy, ptxas log, command line) for FUZZ_SECONDS (60) each
fuzz: $(if $(FUZZ_OK),$(FUZZ_BINS))
	$(Q)tools/run-tests.sh $(BUILD)/test-logs/fuzz "bash tests/fuzz/run.sh $(if $(FUZZ_OK),$(FUZZ_DIR),none) $(FUZZ_SECONDS)"
.PHONY: fuzz

-include $(FUZZ_ALL_SRCS:%.c=$(FUZZ_DIR)/obj/%.d)
