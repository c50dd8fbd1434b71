# Kernel tests: static gates and PTX checks (nvcc), the switch plumbing, and the correctness
# matrix on the emulator through sdpa-bench (included after mk/bench.mk, whose objects it links).

KTEST_DIR := $(BUILD)/tests/kernels
# The launchers' argument checks, on the emulator build of every variant.
$(KTEST_DIR)/test_launch_args: tests/kernels/test_launch_args.c $(KERNELS_EMU_OBJS) $(SIMT_LIB) | $(DEPS_STAMP)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_ALL) -MMD -MP $(filter %.c %.o %.a,$^) -o $@ $(CMOCKA_LIBS) $(EMU_LINK_LIBS)
# Causal kernels ignore future keys (perturbation test on the emulator build of every causal instance).
$(KTEST_DIR)/test_causal: tests/kernels/test_causal.c $(KERNELS_EMU_OBJS) $(SIMT_LIB) | $(DEPS_STAMP)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_ALL) -MMD -MP $(filter %.c %.o %.a,$^) -o $@ $(CMOCKA_LIBS) $(EMU_LINK_LIBS)
# The bank model of stage 6's V^T (the kernel headers compiled as host code by the emulator's toolchain).
$(KTEST_DIR)/test_bank_model.o: tests/kernels/test_bank_model.cpp $(call emu_pch,plain) | $(DEPS_STAMP) $(SDPA_CUSTOM_H)
	$(Q)mkdir -p $(@D)
	$(Q)$(call EMU_COMPILE,plain) $(KERNEL_EMU_FLAGS) -MMD -MP -c $< -o $@
$(KTEST_DIR)/test_bank_model: $(KTEST_DIR)/test_bank_model.o $(SIMT_LIB)
	$(Q)$(EMU_CXX) $^ -o $@ $(CMOCKA_LIBS) $(EMU_LINK_LIBS)
$(KTEST_DIR)/check_matrix: tests/kernels/check_matrix.c $(HOST_LIB) | $(DEPS_STAMP)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_ALL) -MMD -MP $(filter %.c %.o %.a,$^) -o $@ $(HOST_LDLIBS)

# sdpa-bench with the sanitizer builds of the kernels and the emulator runtime (the harness's own
# objects stay uninstrumented: the point is the kernels' shared memory, barriers and accesses).
KBENCH_SAN_OBJS = $(BENCH_CORE_OBJS) $(BENCH_EMU_OBJ) $(BENCH_NOCUDA_OBJ) $(HOST_LIB)
$(KTEST_DIR)/sdpa-bench-tsan: $(KERNELS_EMU_TSAN_OBJS) $(SIMT_LIB_TSAN) $(KBENCH_SAN_OBJS)
	$(Q)mkdir -p $(@D)
	$(Q)$(EMU_CXX) -fsanitize=thread $^ -o $@ $(EMU_LINK_LIBS) $(HOST_LDLIBS) $(BENCH_LDLIBS)
$(KTEST_DIR)/sdpa-bench-asan: $(KERNELS_EMU_ASAN_OBJS) $(SIMT_LIB_ASAN) $(KBENCH_SAN_OBJS)
	$(Q)mkdir -p $(@D)
	$(Q)$(EMU_CXX) $(SAN_FLAGS) $^ -o $@ $(EMU_LINK_LIBS) $(HOST_LDLIBS) $(BENCH_LDLIBS)

# The harness and libhost at -O0 (kernels and emulator as in sdpa-bench), for the same-bits test:
# its dumps must equal the -O2 build's byte for byte.
KO0_DIR  := $(BUILD)/obj/O0
KO0_SRCS := $(HOST_SRCS) $(BENCH_CORE_SRCS) host/bench/backend_emu.c host/bench/backend_nocuda.c
KO0_OBJS := $(KO0_SRCS:%.c=$(KO0_DIR)/%.o)
$(KO0_OBJS): $(KO0_DIR)/%.o: %.c | $(DEPS_STAMP) $(BUILD_INFO_H) $(SDPA_CUSTOM_H)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CSTD) $(WARN) -O0 -g -ffp-contract=off $(COMMON_CPPFLAGS) $(KO0_EXTRA) -MMD -MP -c $< -o $@
$(KO0_DIR)/host/bench/main.o: KO0_EXTRA := -DSDPA_PTXAS_DEFAULT='"$(BENCH_PTXAS_DEFAULT)"'
$(KO0_DIR)/host/bench/backend_emu.o: KO0_EXTRA := -DSDPA_HAVE_SIMT=1
$(KTEST_DIR)/sdpa-bench-O0: $(KO0_OBJS) $(KERNELS_EMU_OBJS) $(SIMT_LIB)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $^ -o $@ $(EMU_LINK_LIBS) $(HOST_LDLIBS) $(BENCH_LDLIBS)
-include $(KO0_OBJS:.o=.d)
SAME_BITS_BINS := $(BIN)/sdpa-bench $(KTEST_DIR)/sdpa-bench-asan $(KTEST_DIR)/sdpa-bench-tsan $(KTEST_DIR)/sdpa-bench-O0

KCORRECT_DEPS := $(BIN)/sdpa-bench $(KTEST_DIR)/sdpa-bench-tsan $(KTEST_DIR)/sdpa-bench-asan \
                 $(KTEST_DIR)/check_matrix $(BENCH_TEST_DIR)/check_run_json
KERNEL_TEST_DEPS := $(KTEST_DIR)/test_launch_args $(KTEST_DIR)/test_causal $(KTEST_DIR)/test_bank_model $(KCORRECT_DEPS) $(SAME_BITS_BINS)
KERNEL_SUITES    := $(KTEST_DIR)/test_launch_args $(KTEST_DIR)/test_causal $(KTEST_DIR)/test_bank_model "bash tests/kernels/make-switches.sh" \
                    "bash tests/kernels/make-deps.sh $(BUILD) $(HAVE_NVCC) $(CUDA_ARCHS)" \
                    "bash tests/kernels/geometry.sh $(BIN)/sdpa-bench" \
                    "bash tests/kernels/smem-base.sh $(BIN)/sdpa-bench" \
                    "bash tests/kernels/same-bits.sh $(SAME_BITS_BINS)" \
                    "bash tests/kernels/correctness.sh $(KCORRECT_DEPS)" \
                    "bash tests/kernels/gpu-correctness.sh $(BIN)/sdpa-bench $(KTEST_DIR)/check_matrix \
                     $(BENCH_TEST_DIR)/check_run_json"
ifneq ($(NVCC),)
KERNEL_TEST_DEPS += $(PTXAS_LOG) $(KERNEL_PTX) $(BIN)/ptxas-json $(KERNELS_CUDA_OBJS)
# Each switch must change the PTX on sm_90 (and sm_90a for its rows). The kernels' source paths
# differ by architecture only in kernels/prims.cuh's tests: FP8 mma from sm_89, TMA and mbarrier
# from sm_90; sm_90 takes every path sm_89 takes and the TMA rows' too, and each further
# architecture's ~15 compiles cost ~30 CPU-seconds of make test.
# `bash tests/kernels/ptx-switches.sh nvcc 80 89` checks the others by hand.
PTX_SWITCH_ARCHS := $(or $(filter 90,$(CUDA_ARCHS)),$(lastword $(CUDA_ARCHS)))
KERNEL_SUITES    += "bash tests/kernels/static-gates.sh $(BIN)/ptxas-json $(PTXAS_LOG) $(KCUDA) $(CUDA_ARCHS)" \
                    "bash tests/kernels/ptx-identity.sh $(NVCC) 89" \
                    "bash tests/kernels/sass-gates.sh $(NVCC) $(KCUDA)/stages.o $(CUDA_ARCHS)" \
                    "bash tests/kernels/exp2-poly-sass.sh $(NVCC)" \
                    "bash tests/kernels/issue-slots.sh $(KCUDA)/stages_sm90a.o $(PTXAS_JSON) $(ISSUE_SLOTS_TSV)" \
                    "bash tests/kernels/wgmma-inflight.sh $(NVCC) $(KCUDA)/stages_sm90a.ptx $(GEN) $(KCUDA)/stages_sm90a.o"
else
KERNEL_SUITES    += "bash tests/kernels/skip-nvcc.sh" "bash tests/kernels/wgmma-inflight.sh"
endif
TEST_DEPS   += $(KERNEL_TEST_DEPS)
TEST_SUITES += $(KERNEL_SUITES)
# The long tier (make test-long): the correctness matrix's larger shapes, and each switch's PTX.
KLARGE_DEPS := $(BIN)/sdpa-bench $(KTEST_DIR)/check_matrix $(BENCH_TEST_DIR)/check_run_json
TEST_LONG_DEPS   += $(KLARGE_DEPS)
TEST_LONG_SUITES += "bash tests/kernels/correctness-large.sh $(KLARGE_DEPS)"
ifneq ($(NVCC),)
TEST_LONG_SUITES += "bash tests/kernels/ptx-switches.sh $(NVCC) $(PTX_SWITCH_ARCHS)"
endif

## test-kernels: run the kernel suites only (correctness matrix on the emulator, static gates)
test-kernels: $(KERNEL_TEST_DEPS)
	$(Q)tools/run-tests.sh $(BUILD)/test-logs/kernels $(KERNEL_SUITES)
.PHONY: test-kernels

-include $(KTEST_DIR)/check_matrix.d $(KTEST_DIR)/test_launch_args.d $(KTEST_DIR)/test_causal.d $(KTEST_DIR)/test_bank_model.d

# ---- planted regressions: the suite must catch the original's bugs ----------------------------------
# Each plant is a copy of the kernel sources with one line edited by sed (the edit, applied to every
# header of kernels/, must hit exactly one line in all, or the build stops: a refactor cannot
# silently disarm a plant), built for the emulator (plain and ThreadSanitizer) and linked into
# sdpa-bench. The copy's kernel table holds only the variant the plant breaks (plant_variant_NAME;
# tools/variants-only.awk): every kernel per plant would multiply each plant's compile (the whole
# table is ~23 CPU-seconds at -O2, one variant ~1.5).
# tests/kernels/planted.sh expects every one of them to fail the checks that the real kernels pass.
#   qk-barrier: the barrier between Q.K^T and the softmax removed (the original's c374200)
#   tail-race:  the last tile waited for with wait_prior(1), leaving it in flight (f686304:cudadent42/bench/kernels/sdpa_fp8_stage_c_wmma.cu:271)
#   end-barrier: the barrier closing a KV tile removed (the next tile's loads overwrite K, V and the
#                scores while other warps still read them)
#   ring-depth: the ring waits for one group fewer than tile t has newer ones (a wrong wait depth:
#               tile t, still in flight, is read; stage 4's 3-slot ring, stage 1's tail)
#   ws-early-signal: stage 5's producer decodes and signals FULL without waiting for its copies
#               (the consumers are released onto a tile whose copies have not landed)
#   fp8-unpermuted: stage 6's V transpose stores key r at position r instead of k32_pos(r): B of
#               P.V in natural key order while the P fragment's k is permuted (acc_to_a_e4m3), so
#               keys meet the wrong values (an arithmetic plant: no race, only wrong outputs)
#   fp8-pscale512: stage 6's P scale 512 instead of 448 (below); with fp8-unpermuted, it must fail the
#               mirror check itself (planted.sh), not only some check
#   tma-expect-short: stage 7a's full barrier expects one box's bytes instead of K's and V's (the
#               phase could complete with V still in flight: the emulator faults at the expect_tx)
#   tma-parity: stage 7a's producers wait on a full barrier with parity 0 every time, not flipped
#               when the ring wraps (from tile 3 on, a phase already passed: the tile's boxes are not
#               waited for; the emulator faults at the wait)
#   wg-wait-short: stage 7b's wgmma.wait_group 1 instead of 0 (the wait depth one short: S is read
#               with its wgmma still in flight; the emulator faults at the wait, W3)
#   wg-q-unfenced: stage 7b's Q stores not published to the async proxy (no fence.proxy.async
#               before the block barrier: wgmma may read stale bytes; the emulator faults, W7)
#   wg-early-release: stage 7b's consumers release K's slot right after committing the wgmma that
#               reads it, before its wait (the issuer may load the next tile over K while it is
#               read; the emulator faults at the TMA issue, W6/T4). A moved line: 3 diff lines.
#   wg-pv-unfenced: stage 7c's producer stores of V^T not published to the async proxy before the
#               FULL barrier (the consumers' wgmma may read stale bytes; the emulator faults, W7)
#   fp8-unpermuted-wgmma: fp8-unpermuted's edit in stage 7c, whose B operand of P.V is V^T in
#               wgmma's layout: the keys must still meet the P fragment's k order
#   wg-one-reader: stage 7d's staging slots released after the producers and one consumer warpgroup
#               (the empty barrier's count of stage 7c): the phase completes while the other
#               warpgroup's wgmma may still read K, and the next box lands on it (W6/T4)
#   wg-pool: stage 7d's consumers ask setmaxnreg.inc for 8 registers more than the producers freed:
#               the block's pool can never hold them, .inc waits for ever (R3, a deadlock report)
#   fp8-kstep-reversed: stage 7e's four P.V k steps read V^T's 32-key blocks in reverse order (the
#               descriptor of step kk at block 3 - kk): P's keys meet another block's values (at
#               S <= 32, the zeros past S)
#   fp8-vt-swizzle64: stage 7e's P.V descriptor names the 64-byte swizzle while the producers wrote V^T
#               in the 128-byte one (the swizzle of stage 7d's K, one span short): wgmma reads
#               other bytes than were written
#   wg-pv-wait-short: stage 7f's wait before O's update with depth 1 where 0 is needed (P(t-1).V(t-1),
#               the newest group, still in flight when its accumulator is read: W3 at the wait)
#   ws-vt-early-release: stage 7f's consumers release tile t-1's V^T buffer before the call that issues
#               its P.V instead of after it (the producers write tile t+1 over it while, or before,
#               the wgmma reads it: wrong outputs from 3 tiles on, and ThreadSanitizer's race between
#               the V^T stores and the wgmma's reads)
#   mask-edge-partial: stage 7i takes the sequence's partial last tile as whole (no key test there):
#               the keys past S get weights (the stage-7i split's off-by-one)
#   pp-turn-unstarted, pp-full-shared: stage 7j's turns and FULL barriers out of balance (below)
#   fp8-vt-ldsm-unswizzled, fp8-vt-ldsm-rows, wg-vt-ldsm-unfenced: stage 7k's transpose reading V as
#               if unswizzled, storing two rows of a pair in each other's place, or handing V^T over
#               without the proxy fence (below)
#   wr-every-lane, wr-thread-count, wr-unsynced: stage 7l's release with every lane arriving, the
#               per-thread count kept, or lane 0 arriving without the __syncwarp (below)
#   tma-no-empty-wait: stage 7a's issuer loading a slot without waiting on its empty barrier. Until
#               2026-11-30 not a plant: the plain emulator builds passed it (a thread yields at each
#               mbarrier arrive, and the other producers finished reading before the issuer ran on)
#               and only the TSan build reported it. The emulator now checks the PTX ISA's rule that
#               a phase is seen complete by a wait before an arrive-on in the next, which the slot's
#               next release breaks once the ring wraps (partial: 7 tiles over a ring of 3).
# plant_variant_NAME: the variant each plant's builds hold (default stage2); plant_tsan_shape_NAME
# the shape its TSan runs use (default ragged, 2 tiles; a plant that needs the ring to wrap names a longer one);
# plant_check_shapes_NAME the shapes of its plain build's checks (default small and ragged, ~0.01 s; a
# plant those pass adds the mission shape, ~0.4-1.4 s a run: planted.sh fails while any shape list
# misses the plant under a schedule). The original's other Stage-4
# bug, wait_prior(0) on every tile, is correct but serialising: no correctness check can see it;
# tests/kernels/sass-gates.sh plants it and requires the wait-depth gate to fail.
KPLANT := $(KTEST_DIR)/planted
PLANTS := qk-barrier tail-race end-barrier ring-depth ws-early-signal fp8-unpermuted fp8-pscale512 rows-shared \
          tma-expect-short tma-parity wg-wait-short wg-q-unfenced wg-early-release wg-pv-unfenced \
          fp8-unpermuted-wgmma wg-one-reader wg-pool fp8-kstep-reversed fp8-vt-swizzle64 \
          wg-pv-wait-short ws-vt-early-release fp8-flush-kept mask-edge-partial ws-vt-unwaited \
          pp-turn-unstarted pp-full-shared fp8-vt-ldsm-unswizzled fp8-vt-ldsm-rows wg-vt-ldsm-unfenced \
          wr-every-lane wr-thread-count tma-no-empty-wait lpt-from-nq lpt-heads-as-tiles
plant_sed_qk-barrier   := /__syncthreads(); \/\/ the softmax reads rows assembled by two warps/d
plant_sed_tail-race    := s/prims::cp_async_wait<0>();/prims::cp_async_wait<1>();/
plant_sed_end-barrier  := /__syncthreads(); \/\/ sS, sK, sV, U and the scratch are reused by the next tile/d
plant_sed_ring-depth   := s/(imin(R - 1, n_tiles - 1 - t));/(imin(R - 1, n_tiles - t));/
plant_sed_ws-early-signal := /kv_wait_tile<Cfg>(t, n_tiles); \/\/ producer: tile t/d
plant_sed_fp8-unpermuted := s/p = k32_pos(r);/p = r;/
# fp8-pscale512: stage 6's P codes are e4m3(512 p) while everything else assumes 448 (the codes of
# p > 7/8 saturate; every other code lands on another grid): the fp64 bar misses it at some shapes,
# the mirror reference (paper/methods.md#fp8-mirror) must not.
plant_sed_fp8-pscale512 := s/constexpr float kPScale = 448.0f;/constexpr float kPScale = 512.0f;/
# rows-shared: the original's Stage-3B failure in the one line where row ownership is stated here:
# both computing warps claim rows 0-15 of the CTA (as two of its warps shared 16 rows), so their
# results land on the same output rows and rows 16-31 are never written.
plant_sed_rows-shared := s/const int row = 16 \* warp + g + 8 \* h;/const int row = 16 * (warp >> 1) + g + 8 * h;/
# end-barrier: stage1, whose outputs go wrong at the plain checks' shapes (stage 2's stay right
# under the fwd and rev schedules: only TSan sees its race).
plant_variant_end-barrier := stage1
plant_sed_tma-expect-short := s/constexpr uint32_t kTxBytes = 2u \* TN \* Cfg::kD;/constexpr uint32_t kTxBytes = 1u * TN * Cfg::kD;/
plant_sed_tma-parity := s/const unsigned phase = (t \/ R) \& 1;/const unsigned phase = 0;/
plant_sed_wg-wait-short := s/prims::wgmma_wait<0>(d);/prims::wgmma_wait<1>(d);/
plant_sed_wg-q-unfenced := /if constexpr (Cfg::kWgmmaQk) prims::fence_proxy_async();/d
plant_sed_wg-early-release := s|prims::wgmma_commit(); // S = Q K^T in flight: K.s slot is read until the wait|prims::wgmma_commit(); tma_kv_release(sm, tile);|; /the wgmma has read K: the slot may be loaded again/d
plant_difflines_wg-early-release := 3
plant_sed_wg-pv-unfenced := /if constexpr (Cfg::kWgmmaPv) prims::fence_proxy_async();/d
plant_sed_fp8-unpermuted-wgmma := $(plant_sed_fp8-unpermuted)
plant_variant_wg-pv-unfenced := stage7c
# The emulator's fence model is lazier than the hardware (a fence publishes every thread's stores so far):
# under TSan at the ragged shape the rev schedule lets an unrelated fence cover the stores; partial (more
# tiles, the ring wrapping) shows it under every schedule.
plant_tsan_shape_wg-pv-unfenced := partial
plant_variant_fp8-unpermuted-wgmma := stage7c
plant_sed_wg-one-reader := s/static constexpr int kSlotReaders = kLoaders + (kWgmmaQk ? 32 \* kMmaWarps : 0);/static constexpr int kSlotReaders = kLoaders + (kWgmmaQk ? 128 : 0);/
plant_variant_wg-one-reader := stage7d
# The ring must wrap before a slot is loaded again: ragged's 2 tiles never reuse one.
plant_tsan_shape_wg-one-reader := partial
plant_sed_wg-pool := s/prims::setmaxnreg_inc<Cfg::kConsumerRegs>();/prims::setmaxnreg_inc<Cfg::kConsumerRegs + 8>();/
plant_variant_wg-pool := stage7d
plant_sed_fp8-kstep-reversed := s/prims::wgmma_desc(vt + 32 \* kk, /prims::wgmma_desc(vt + 32 * (TN \/ 32 - 1 - kk), /
plant_variant_fp8-kstep-reversed := stage7e
plant_sed_fp8-vt-swizzle64 := s/8 \* TN, Cfg::kVtSwizzle),/8 * TN, 64u),/
plant_variant_fp8-vt-swizzle64 := stage7e
plant_sed_wg-pv-wait-short := s/prims::wgmma_wait<0>(pv, pa);/prims::wgmma_wait<1>(pv, pa);/
plant_variant_wg-pv-wait-short := stage7f
plant_sed_ws-vt-early-release := /bar_arrive_buf<Cfg, kBarEmpty>((t - kLag)/d; s/Hooks::compute(sm, t, warp, lane, tile_mask<Cfg>(t, S, row0), qk_mult, st);/if (t >= kLag \&\& t - kLag + 2 < n_tiles) bar_arrive_buf<Cfg, kBarEmpty>((t - kLag) \& 1); Hooks::compute(sm, t, warp, lane, tile_mask<Cfg>(t, S, row0), qk_mult, st);/
plant_difflines_ws-vt-early-release := 3
plant_variant_ws-vt-early-release := stage7f
# ws-vt-unwaited: stage 7f's consumers no longer wait for the V^T buffer each compute reads (V^T(t-1),
# warp_spec.cuh's lagged FULL): its P.V reads a buffer the producers may still be transposing.
plant_sed_ws-vt-unwaited := /if (t >= kLag) full_sync<Cfg>(warp \/ 4, (t - kLag) \& 1);/d
plant_variant_ws-vt-unwaited := stage7f
plant_tsan_shape_ws-vt-unwaited := mission
# fp8-flush-kept: stage 7h's flush reaches weights that e4m3 keeps (below 2^-6: codes up to 7 of 448),
# as a flushing exponential of too little range would: the output leaves stage 7f's bits, and the
# mirror reference must see it (paper/methods.md#prereg-stage7h; on the emulator the flush is the
# twin's, prims::expf_ftz, the one place the threshold is written).
plant_sed_fp8-flush-kept := s/return y < 0x1p-126f ? 0.0f : y;/return y < 0x1p-6f ? 0.0f : y;/
plant_variant_fp8-flush-kept := stage7h
# mask-edge-partial: stage 7i counts the sequence's partial last tile among the whole ones (S / TN
# rounded up): that tile's softmax runs without the key test, the keys past S (TMA's zero fill, scores
# 0) take weights, and every row of a shape whose S is not a multiple of 128 goes wrong (small, ragged;
# mission's four whole tiles stay right). Arithmetic only: no race, no fault.
plant_sed_mask-edge-partial := s/: S \/ TN;/: (S + TN - 1) \/ TN;/
plant_variant_mask-edge-partial := stage7i
# pp-turn-unstarted: stage 7j's warpgroup 1 never gives warpgroup 0 its first turn (warp_spec.cuh,
# Turns::start): warpgroup 0 waits at TURN(0) for good, warpgroup 1 at TURN(1), the producers at
# EMPTY; the emulator reports the deadlock at the barriers' lines.
plant_sed_pp-turn-unstarted := s/if (wg) prims::bar_arrive<kBarTurn>(256);/if (wg < 0) prims::bar_arrive<kBarTurn>(256);/
plant_variant_pp-turn-unstarted := stage7j
# pp-full-shared: stage 7j's warpgroup 1 waits at warpgroup 0's FULL barrier (full_sync without its
# own): a phase there counts the producers and whichever warpgroup arrives first, warpgroup 1's own
# barriers collect the producers' arrivals alone: a deadlock the emulator reports.
plant_sed_pp-full-shared := s/if (Cfg::kWgPingpong \&\& wg)/if (Cfg::kWgPingpong \&\& wg < 0)/
plant_variant_pp-full-shared := stage7j
# fp8-vt-ldsm-unswizzled: stage 7k's producers read V's staging slot as if TMA had not swizzled it
# (loads.cuh, repack_vt_ldsm): every block's ldmatrix rows come from the wrong 16-byte units.
plant_sed_fp8-vt-ldsm-unswizzled := s/16 \* (mat >> 1)), Cfg::kVSwizzle);/16 * (mat >> 1)), 0u);/
plant_variant_fp8-vt-ldsm-unswizzled := stage7k
# fp8-vt-ldsm-rows: stage 7k's lanes of row groups 4-7 keep the even column first, as those of 0-3
# (the flip that spreads a stored matrix over eight bank groups): their rows of V^T trade places.
plant_sed_fp8-vt-ldsm-rows := s/const bool odd_first = lane \/ 4 >= 4;/const bool odd_first = false;/
plant_variant_fp8-vt-ldsm-rows := stage7k
# wg-vt-ldsm-unfenced: stage 7k's producers hand V^T over without the proxy fence after stmatrix:
# the consumers' wgmma reads stores the async proxy has not been shown.
plant_sed_wg-vt-ldsm-unfenced := /prims::fence_proxy_async(); \/\/ \[stage 7k\] stmatrix/d
plant_variant_wg-vt-ldsm-unfenced := stage7k
plant_tsan_shape_wg-vt-ldsm-unfenced := partial
# wr-every-lane: stage 7l's empty mbarriers count a warp's one arrival, and every lane arrives: a
# slot's phase completes after the first 12 of a tile's 384 arrivals, and the 13th (or, with the
# issuer already waiting, the 25th) arrives in a phase whose predecessor no wait has seen complete,
# which the PTX ISA forbids: the emulator's fault at the arrival, on every shape. (Before the emulator
# checked that rule, the plant passed the mission shape, its phases' parity lining up by chance, and
# faulted at (1,2,1024,64)'s eight tiles only, a copy landing in a slot a wgmma still read: W6/T4.)
plant_sed_wr-every-lane := s/if (threadIdx.x % 32 == 0) prims::mbar_arrive(/prims::mbar_arrive(/
plant_variant_wr-every-lane := stage7l
# wr-thread-count: stage 7l arrives once per warp on barriers that still count every thread (7k's
# 384): no slot is ever released, and the issuer waits for good; the emulator reports the deadlock.
plant_sed_wr-thread-count := s/kWarpRelease ? kSlotReaders \/ 32 : kSlotReaders;/kSlotReaders;/
plant_variant_wr-thread-count := stage7l
# The ring must wrap (a slot loaded a second time): mission's 4 tiles of 128 keys, a ring of 3.
plant_tsan_shape_wr-thread-count := mission
# Three tiles at least (partial's 2 release nothing a producer waits for), and CTAs enough: since the
# consumers wait for the buffer they read (V^T(t-1)), mission's 32 CTAs under the fwd schedule read
# a buffer refilled early with no race that TSan sees (the result is wrong, exit 1); stage5's 64 CTAs
# (2,8,512,64) show the race under every schedule.
plant_tsan_shape_ws-vt-early-release := stage5
plant_variant_wg-wait-short := stage7b
plant_variant_wg-q-unfenced := stage7b
plant_variant_wg-early-release := stage7b
plant_tsan_shape_wg-early-release := partial
plant_variant_tma-expect-short := stage7a
plant_variant_tma-parity := stage7a
plant_tsan_shape_tma-parity := partial
plant_sed_tma-no-empty-wait := /prims::mbar_wait(&sm.empty\[slot\], ((t \/ R) \& 1) ^ 1);/d
plant_variant_tma-no-empty-wait := stage7a
plant_tsan_shape_tma-no-empty-wait := partial
plant_check_shapes_tma-no-empty-wait := small ragged partial
plant_variant_ring-depth := stage4
plant_variant_fp8-unpermuted := stage6
plant_variant_fp8-pscale512 := stage6
plant_variant_rows-shared := stage3b
plant_variant_ws-early-signal := stage5

# [stage 7m] lpt-from-nq: a causal D = 64 CTA's query tile counted from nq (gridDim.y - blockIdx.y):
# tile 0 is never computed (its rows stay unwritten) and one CTA's rows lie past the sequence.
# lpt-heads-as-tiles: the query tile taken from blockIdx.x, the heads' index of stage 7m's grid: tiles
# computed twice or never. Both only in the causal D = 64 instances: their builds keep the wide
# instances (plant_wide_NAME) and check causal shapes (mission-causal: four query tiles of 8 heads).
plant_sed_lpt-from-nq := s/return {(int)gridDim.y - 1 - (int)blockIdx.y, /return {(int)gridDim.y - (int)blockIdx.y, /
plant_sed_lpt-heads-as-tiles := s/return {(int)gridDim.y - 1 - (int)blockIdx.y, /return {(int)gridDim.y - 1 - (int)blockIdx.x, /
$(foreach p,lpt-from-nq lpt-heads-as-tiles,$(eval plant_variant_$(p) := stage7m)$(eval plant_wide_$(p) := 1)\
  $(eval plant_check_shapes_$(p) := ragged-causal mission-causal)$(eval plant_tsan_shape_$(p) := mission-causal))

# The plants whose plain checks pass at small and ragged under some schedule (measured 2026-11-29):
# the ring must wrap, or the consumer run far enough ahead.
$(foreach p,tma-parity wg-early-release wg-one-reader wg-pv-unfenced ws-vt-early-release ws-vt-unwaited \
  wr-thread-count,\
  $(eval plant_check_shapes_$(p) := small ragged mission))

# The plants' checks run D = 64 non-causal problems: their copies leave out the D = 128 and causal
# instances (kernels/stages.cu, SDPA_NO_WIDE), which would double each plant's compile; a plant of a
# Hopper row's causal path keeps its row's (plant_wide_NAME := 1; SDPA_TMA_WIDE_ONLY).
PLANT_FLAGS := -DSDPA_NO_WIDE
plant_flags = $(if $(plant_wide_$(1)),-DSDPA_TMA_WIDE_ONLY,$(PLANT_FLAGS))
# A plant's plain build at -O1 and without debug information (KERNEL_EMU_PLAIN_FLAGS): its checks
# run a few small problems (planted.sh), and the 30 compiles were ~170 of make test's ~1000 build
# CPU-seconds at -O2 with line tables (a stage-7f plant: 6.6 -> 3.7 s; since __forceinline__ is a
# plain inline on the emulator, 2026-11-30, a plant's two builds take ~1.4 s each, and -O2 might cost
# little more: not measured). The arithmetic is the same at either level (-ffp-contract=off). Its
# ThreadSanitizer build keeps its line tables.
PLANT_PLAIN_FLAGS := -O1
# A plant's copy depends on this file too: its edit, variant and shapes are defined here.
define plant_rule
$(KPLANT)/$(1)/stages.cu: kernels/stages.cu $(KERNEL_HDRS) tools/variants-only.awk mk/kernel-tests.mk
	$$(Q)rm -rf $$(@D) && mkdir -p $$(@D) && cp kernels/stages.cu $(KERNEL_HDRS) $$(@D)/
	$$(Q)echo $(or $(plant_variant_$(1)),stage2) >$$(@D)/variant
	$$(Q)awk -v keep=$(or $(plant_variant_$(1)),stage2) -f tools/variants-only.awk kernels/variants.def >$$(@D)/variants.def
	$$(Q)echo $(or $(plant_tsan_shape_$(1)),ragged) >$$(@D)/tsan-shape
	$$(Q)echo $(or $(plant_check_shapes_$(1)),small ragged) >$$(@D)/check-shapes
	$$(Q)for f in $$(@D)/*.cuh; do sed -i '$(plant_sed_$(1))' $$$$f; done
	$$(Q)n=$$$$(for f in $$(@D)/*.cuh; do diff kernels/$$$$(basename $$$$f) $$$$f; done | grep -c '^[<>]'); \
	  [ "$$$$n" -ge 1 ] && [ "$$$$n" -le $(or $(plant_difflines_$(1)),2) ] || \
	  { echo "plant $(1): the edit must change exactly one line of kernels/*.cuh (changed $$$$n diff lines)" >&2; rm -rf $$(@D); exit 1; }
$(KPLANT)/$(1)/stages.o: $(KPLANT)/$(1)/stages.cu $(call emu_pch,plain) | $(SDPA_CUSTOM_H)
	$$(Q)$$(call EMU_COMPILE,plain) $$(KERNEL_EMU_PLAIN_FLAGS) $$(PLANT_PLAIN_FLAGS) $(call plant_flags,$(1)) -c $(KPLANT)/$(1)/stages.cu -o $$@
$(KPLANT)/$(1)/stages-tsan.o: $(KPLANT)/$(1)/stages.cu $(call emu_pch,ktsan) | $(SDPA_CUSTOM_H)
	$$(Q)$$(call EMU_COMPILE,ktsan) $$(KERNEL_EMU_FLAGS) $(call plant_flags,$(1)) -c $(KPLANT)/$(1)/stages.cu -o $$@
$(KPLANT)/$(1)/sdpa-bench: $(KPLANT)/$(1)/stages.o $(SIMT_LIB) $(KBENCH_SAN_OBJS)
	$$(Q)$$(CC) $$(CFLAGS_ALL) $$^ -o $$@ $$(EMU_LINK_LIBS) $$(HOST_LDLIBS) $$(BENCH_LDLIBS)
$(KPLANT)/$(1)/sdpa-bench-tsan: $(KPLANT)/$(1)/stages-tsan.o $(SIMT_LIB_TSAN) $(KBENCH_SAN_OBJS)
	$$(Q)$$(EMU_CXX) -fsanitize=thread $$^ -o $$@ $$(EMU_LINK_LIBS) $$(HOST_LDLIBS) $$(BENCH_LDLIBS)
endef
# ws-drain-unwaited: stage 7f's consumers without the wait for the last tile's V^T before drain
# (warp_spec.cuh): drain's P.V may read V^T(n-1) while the producers still transpose it. Under the
# fixed schedules the producers finish first and every result is right; only ThreadSanitizer under
# random schedules sees the race, so it has a suite of its own (tests/kernels/planted-rand.sh).
PLANTS_RAND := ws-drain-unwaited wr-unsynced
plant_sed_ws-drain-unwaited := /full_sync<Cfg>(warp \/ 4, (n_tiles - 1) \& 1); \/\/ the last tile/d
plant_variant_ws-drain-unwaited := stage7f
plant_tsan_shape_ws-drain-unwaited := mission
# wr-unsynced: stage 7l's lane 0 arrives without the __syncwarp: the other lanes' ldmatrix reads of V
# (a collective that orders nothing between lanes) are not ordered before the release, so the next
# TMA copy into the slot races with them. The results stay right (the emulator's lanes have all read
# the slot before lane 0 passes the warp's last stmatrix): ThreadSanitizer alone sees it, once the
# ring wraps (mission: 4 tiles of 128 keys over a ring of 3). In the nvcc build the static gates' PTX
# check (a bar.warp.sync right before each empty arrival) guards it.
plant_sed_wr-unsynced := /__syncwarp(); \/\/ \[stage 7l\]/d
plant_variant_wr-unsynced := stage7l
plant_tsan_shape_wr-unsynced := mission
$(foreach p,$(PLANTS) $(PLANTS_RAND),$(eval $(call plant_rule,$(p))))
# The plants the emulator itself faults on (a copy in flight read, an mbarrier or wgmma misused, an
# unfenced async read): planted.sh runs their three schedules on the plain build, and they get no
# ThreadSanitizer build (a compile each); the races and the arithmetic plants do.
PLANTS_EMU_FAULT := tail-race tma-expect-short tma-parity wg-wait-short wg-q-unfenced wg-early-release wg-pv-unfenced \
                    wg-one-reader wg-pool wg-pv-wait-short pp-turn-unstarted pp-full-shared wg-vt-ldsm-unfenced \
                    wr-every-lane wr-thread-count tma-no-empty-wait
PLANT_BINS := $(foreach p,$(PLANTS),$(KPLANT)/$(p)/sdpa-bench \
                $(if $(filter $(p),$(PLANTS_EMU_FAULT)),,$(KPLANT)/$(p)/sdpa-bench-tsan))
# The plants test the suites (each must fail them): the long tier's (make test-long), with their
# ~90 CPU-seconds of compiles.
TEST_LONG_DEPS   += $(PLANT_BINS)
TEST_LONG_SUITES += "bash tests/kernels/planted.sh $(KPLANT) $(PLANTS)"
# What sdpa-report dump-diff reads on two of them (the pattern the campaign README quotes).
TEST_LONG_DEPS   += $(BIN)/sdpa-bench $(BIN)/sdpa-report
TEST_LONG_SUITES += "bash tests/kernels/plant-patterns.sh $(KPLANT) $(BIN)/sdpa-bench $(BIN)/sdpa-report"
TEST_LONG_DEPS   += $(foreach p,$(PLANTS_RAND),$(KPLANT)/$(p)/sdpa-bench-tsan)
TEST_LONG_SUITES += "bash tests/kernels/planted-rand.sh $(KPLANT) $(PLANTS_RAND)"
