# Host foundation library (host/lib/, README there): fp8/half codecs, RNG, inputs, fp64 reference,
# metrics, statistics, atomic file I/O, JSON results, .npy. Two flavours of one source list:
#   $(HOST_LIB)       plain, linked into the tools
#   $(HOST_ASAN_LIB)  AddressSanitizer + UBSan, linked into the sanitizer run of the unit tests
# plus one cmocka test binary per module in both flavours (tests/lib/), and the bit-exactness
# check against the CUDA toolkit's headers when they are installed.
# Objects go to their own directories (static pattern rules on an explicit list), so other
# fragments compiling other host/ files cannot collide with these rules.

HOST_SRCS := $(addprefix host/lib/,minifloat.c half.c fp8.c rng.c inputs.c row_jobs.c reference.c reference_fp8.c metrics.c stats.c \
             fileio.c json_file.c npy.c sha256.c)
HOST_LIB        := $(BUILD)/lib/libhost.a
HOST_ASAN_LIB   := $(BUILD)/lib/libhost-asan.a
HOST_OBJ_DIR    := $(BUILD)/obj/host/lib
HOST_ASAN_DIR   := $(BUILD)/obj/host/lib-asan
HOST_OBJS       := $(HOST_SRCS:host/lib/%.c=$(HOST_OBJ_DIR)/%.o)
HOST_ASAN_OBJS  := $(HOST_SRCS:host/lib/%.c=$(HOST_ASAN_DIR)/%.o)
# What a program linking libhost.a needs after it.
HOST_LDLIBS     := $(JSON_LIBS) $(MATH_LIBS) -pthread
AR              ?= ar

$(HOST_OBJS): $(HOST_OBJ_DIR)/%.o: host/lib/%.c | $(DEPS_STAMP)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

$(HOST_ASAN_OBJS): $(HOST_ASAN_DIR)/%.o: host/lib/%.c | $(DEPS_STAMP)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_ALL) $(SAN_FLAGS) -MMD -MP -c $< -o $@

# json_file.c embeds the build provenance (git SHA, compilers, flags).
$(HOST_OBJ_DIR)/json_file.o $(HOST_ASAN_DIR)/json_file.o: $(BUILD_INFO_H)

$(HOST_LIB): $(HOST_OBJS)
	$(Q)mkdir -p $(@D)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(HOST_ASAN_LIB): $(HOST_ASAN_OBJS)
	$(Q)mkdir -p $(@D)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

## host: build the host library, build/lib/libhost.a (and its sanitizer flavour)
host: $(HOST_LIB) $(HOST_ASAN_LIB)
.PHONY: host

BUILD_TARGETS += $(HOST_LIB)

# ---- unit tests ----------------------------------------------------------------------------
HOST_TESTS         := fp8 half rng inputs row_jobs reference reference_fp8 metrics stats fileio json_file npy sha256 exp2_poly
HOST_TEST_DIR      := $(BUILD)/tests/lib
HOST_TEST_ASAN_DIR := $(BUILD)/tests/lib-asan
HOST_TEST_BINS     := $(HOST_TESTS:%=$(HOST_TEST_DIR)/test_%)
HOST_TEST_ASAN_BINS := $(HOST_TESTS:%=$(HOST_TEST_ASAN_DIR)/test_%)
HOST_TEST_LIBS     := $(CMOCKA_LIBS) $(HOST_LDLIBS)

$(HOST_TEST_BINS): $(HOST_TEST_DIR)/%: tests/lib/%.c $(HOST_LIB) | $(DEPS_STAMP)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_ALL) -Itests/lib -MMD -MP $< $(HOST_LIB) $(HOST_TEST_LIBS) -o $@

$(HOST_TEST_ASAN_BINS): $(HOST_TEST_ASAN_DIR)/%: tests/lib/%.c $(HOST_ASAN_LIB) | $(DEPS_STAMP)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_ALL) $(SAN_FLAGS) -Itests/lib -MMD -MP $< $(HOST_ASAN_LIB) $(HOST_TEST_LIBS) -o $@

HOST_TEST_DEPS := $(HOST_TEST_BINS) $(HOST_TEST_ASAN_BINS)
HOST_SUITES    := $(HOST_TEST_BINS) $(HOST_TEST_ASAN_BINS)

# The threaded modules' tests under ThreadSanitizer too (inputs: Q, K and V on three threads;
# row_jobs: both references' threads), each compiled with the library's sources in one command (no
# third archive for four tests); a report makes the binary exit 66, a failure for the runner.
HOST_TSAN_TESTS     := inputs row_jobs reference reference_fp8
HOST_TEST_TSAN_DIR  := $(BUILD)/tests/lib-tsan
HOST_TEST_TSAN_BINS := $(HOST_TSAN_TESTS:%=$(HOST_TEST_TSAN_DIR)/test_%)
$(HOST_TEST_TSAN_BINS): $(HOST_TEST_TSAN_DIR)/%: tests/lib/%.c $(HOST_SRCS) $(wildcard host/lib/*.h tests/lib/*.h) | $(DEPS_STAMP)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_ALL) -O1 -fsanitize=thread -Itests/lib $< $(HOST_SRCS) $(HOST_TEST_LIBS) -o $@
HOST_TEST_DEPS += $(HOST_TEST_TSAN_BINS)
HOST_SUITES    += $(HOST_TEST_TSAN_BINS)

# Bit-exactness against cuda_fp8.h / cuda_fp16.h, whose host conversions compile in plain C++.
# Without the toolkit the suite reports a visible SKIP instead of disappearing.
HOST_CUDA_CHECK_OK := $(and $(filter 1,$(HAVE_NVCC)),$(wildcard $(CUDA_INC)/cuda_fp8.h))
HOST_CXXFLAGS := -std=c++17 $(WARN) $(HOST_CFLAGS) $(COMMON_CPPFLAGS) -isystem $(CUDA_INC)
ifneq ($(HOST_CUDA_CHECK_OK),)
HOST_CUDA_CHECK      := $(HOST_TEST_DIR)/fp8_cuda_check
HOST_CUDA_CHECK_ASAN := $(HOST_TEST_ASAN_DIR)/fp8_cuda_check
$(HOST_CUDA_CHECK): tests/lib/fp8_cuda_check.cpp $(HOST_LIB) | $(DEPS_STAMP)
	$(Q)mkdir -p $(@D)
	$(Q)$(HOST_CXX) $(HOST_CXXFLAGS) -MMD -MP $< $(HOST_LIB) $(MATH_LIBS) -o $@
$(HOST_CUDA_CHECK_ASAN): tests/lib/fp8_cuda_check.cpp $(HOST_ASAN_LIB) | $(DEPS_STAMP)
	$(Q)mkdir -p $(@D)
	$(Q)$(HOST_CXX) $(HOST_CXXFLAGS) $(SAN_FLAGS) -MMD -MP $< $(HOST_ASAN_LIB) $(MATH_LIBS) -o $@
HOST_TEST_DEPS += $(HOST_CUDA_CHECK) $(HOST_CUDA_CHECK_ASAN)
HOST_SUITES    += $(HOST_CUDA_CHECK) $(HOST_CUDA_CHECK_ASAN)
else
# Quoted: one suite with an argument (tools/run-tests.sh splits it), so no exec bit is needed.
HOST_SUITES    += "bash tests/lib/fp8_cuda_skip.sh"
endif

# A file system that refuses hard links (an LD_PRELOAD shim): fileio's fallbacks, tests/lib/nolink.sh.
# The writers (sdpa-bench, sdpa-report) run under it too: mk/bench.mk.
HOST_NOLINK_SHIM := $(HOST_TEST_DIR)/libnolink.so
$(HOST_NOLINK_SHIM): tests/lib/nolink_shim.c | $(DEPS_STAMP)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CSTD) $(WARN) -O2 -fPIC -shared $< -o $@ -ldl
HOST_TEST_DEPS += $(HOST_NOLINK_SHIM)
HOST_SUITES    += "bash tests/lib/nolink.sh $(HOST_NOLINK_SHIM) $(HOST_TEST_DIR)/test_fileio"

TEST_DEPS   += $(HOST_TEST_DEPS)
TEST_SUITES += $(HOST_SUITES)

## test-host: build and run the host library's unit tests only (both flavours)
test-host: $(HOST_TEST_DEPS)
	$(Q)tools/run-tests.sh $(BUILD)/test-logs/host $(HOST_SUITES)
.PHONY: test-host

-include $(HOST_OBJS:.o=.d) $(HOST_ASAN_OBJS:.o=.d) $(HOST_TEST_BINS:=.d) $(HOST_TEST_ASAN_BINS:=.d) \
         $(HOST_TEST_DIR)/fp8_cuda_check.d $(HOST_TEST_ASAN_DIR)/fp8_cuda_check.d
