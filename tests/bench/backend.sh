#!/usr/bin/env bash
# The backends as the user meets them. Usage: backend.sh SDPA_BENCH_BINARY HAVE_NVCC(0|1)
#   - with nvcc, the CUDA backend was compiled and linked (libcudart, the backend's helper kernels);
#   - on a machine without a GPU: --backend cuda exits 2 with a clear reason, --backend auto falls
#     back to the emulator and announces it on stderr with the documented sentence (even --quiet);
#   - on a machine with a GPU: a short cuda run (naive test kernels) passes and records GPU
#     timing, device metadata and SM clocks.
. "$(dirname "$0")/../tap.sh"
bin=$1
have_nvcc=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check=$(dirname "$bin")/check_run_json
announce="no CUDA device: running on the CPU emulator; timings are emulator timings, not GPU timings"
small=(--check-only --shape small --seeds 0 --variant stage2)

if [ "$have_nvcc" = 1 ]; then
  tap_ok "the CUDA backend is linked (libcudart)" bash -c 'ldd "$1" | grep -q libcudart' _ "$bin"
  tap_ok "the CUDA backend's helper kernels are in the binary" bash -c 'nm -C "$1" | grep -q block_stream_kernel' _ "$bin"
else
  tap_skip "the CUDA backend compiles and links" "nvcc not found at build time"
  tap_skip "the CUDA backend's helper kernels are in the binary" "nvcc not found at build time"
fi

# Read without a GPU (compute-sanitizer's initcheck would report it on one): every device buffer
# open_device allocates and a helper kernel of backend_cuda.cu reads is cleared in open_device
# before preload_helpers launches anything (d_stamps was not: the first timestamps launch read
# its never-written `claimed` words).
src=$(dirname "$0")/../../host/bench/backend_cuda.cu
uncleared=$(awk '
  /<<<.*>>>\(b->/ { s = $0; sub(/.*>>>\(b->/, "", s); sub(/[,)].*/, "", s); read[s] = 1 }
  /^int open_device\(/ { body = 1 }
  body && /cudaMalloc\(.*&b->/ { s = $0; sub(/.*&b->/, "", s); sub(/[,)].*/, "", s); alloc[s] = 1 }
  body && /cudaMemset\(b->/ { s = $0; sub(/.*cudaMemset\(b->/, "", s); sub(/[,)].*/, "", s); if (!launched) cleared[s] = 1 }
  body && /preload_helpers\(/ { launched = 1 }
  body && /^}/ { body = 0 }
  END { for (b in alloc) if (read[b] && !cleared[b]) print b }' "$src")
tap_ok "backend_cuda.cu: every allocated buffer a helper kernel reads is cleared before the first launch${uncleared:+ (not: $uncleared)}" \
  test -z "$uncleared" -a -s "$src"

"$bin" --backend cuda "${small[@]}" --quiet >"$tmp/cuda.out" 2>"$tmp/cuda.err"
cuda_rc=$?
if [ $cuda_rc -eq 2 ]; then
  tap_ok "--backend cuda without a GPU: exit 2" true
  tap_ok "--backend cuda: the message names the flag" grep -q "^sdpa-bench: --backend cuda: " "$tmp/cuda.err"
  if [ "$have_nvcc" = 1 ]; then
    tap_ok "--backend cuda: the message says there is no usable device" grep -q "no usable CUDA device\|no CUDA device" "$tmp/cuda.err"
  else
    tap_ok "--backend cuda: the message says CUDA was not built" grep -qF "built without CUDA (nvcc not found at build time)" "$tmp/cuda.err"
  fi
  tap_ok "--backend cuda: nothing on stdout" test ! -s "$tmp/cuda.out"

  "$bin" --backend auto "${small[@]}" --out "$tmp/auto.json" >"$tmp/auto.out" 2>"$tmp/auto.err"
  tap_ok "--backend auto without a GPU: runs (exit 0)" test $? -eq 0
  tap_ok "--backend auto: the fallback is announced exactly" grep -qxF "$announce" "$tmp/auto.err"
  tap_ok "--backend auto: the result says emu" bash -c '[ "$("$1" "$2" meta.backend)" = emu ]' _ "$check" "$tmp/auto.json"
  "$bin" "${small[@]}" --quiet >/dev/null 2>"$tmp/quiet.err"
  tap_ok "auto is the default, and --quiet does not hide the announcement" grep -qxF "$announce" "$tmp/quiet.err"
  v() { "$check" "$1" "$2"; }
  # A machine whose GPU CUDA cannot use (old driver, missing libcuda): a device node is visible.
  # SDPA_DEV_DIR stands in for /dev, here with and without an nvidia0 node.
  mkdir -p "$tmp/dev-gpu" "$tmp/dev-none" && touch "$tmp/dev-gpu/nvidia0" "$tmp/dev-gpu/nvidiactl"
  SDPA_DEV_DIR=$tmp/dev-gpu "$bin" --backend auto "${small[@]}" --out "$tmp/vis.json" >/dev/null 2>"$tmp/vis.err"
  tap_ok "fallback with a visible GPU: the run still completes on the emulator" test "$(v "$tmp/vis.json" meta.backend)" = emu
  tap_ok "  ... meta.backend_fallback records that a GPU was visible" test "$(v "$tmp/vis.json" meta.backend_fallback.gpu_visible)" = true
  tap_ok "  ... and why CUDA was not used" test "$(v "$tmp/vis.json" meta.backend_fallback.reason)" != missing
  tap_ok "  ... a framed warning closes the run (last line of stderr is the frame)" \
    bash -c 'tail -n 1 "$1" | grep -q "^sdpa-bench: =====" && grep -q "A GPU is visible on this machine, but this run used the CPU EMULATOR" "$1"' _ "$tmp/vis.err"
  SDPA_DEV_DIR=$tmp/dev-none "$bin" --backend auto "${small[@]}" --out "$tmp/novis.json" >/dev/null 2>"$tmp/novis.err"
  tap_ok "fallback without a GPU: gpu_visible is false" test "$(v "$tmp/novis.json" meta.backend_fallback.gpu_visible)" = false
  tap_fail "  ... and no framed warning" grep -q "A GPU is visible" "$tmp/novis.err"
  SDPA_DEV_DIR=$tmp/dev-gpu "$bin" --probe >"$tmp/probe.out" 2>&1
  tap_ok "--probe (auto): exit 0, names the emulator and the reason" bash -c '[ $2 -eq 0 ] && grep -q "^emu: the CPU emulator (CUDA unavailable: " "$1"' _ "$tmp/probe.out" $?
  tap_ok "  ... and warns of the visible GPU" grep -q "^warning: a GPU is visible" "$tmp/probe.out"
  "$bin" --backend cuda --probe >"$tmp/probe-cuda.out" 2>"$tmp/probe-cuda.err"
  tap_ok "--backend cuda --probe without a GPU: exit 2 with a one-line reason" \
    bash -c '[ $1 -eq 2 ] && [ "$(wc -l <"$2")" -eq 1 ] && grep -q "^sdpa-bench: --backend cuda: " "$2"' _ $? "$tmp/probe-cuda.err"
  tap_skip "--backend cuda on a GPU: checks and timing" "no GPU on this machine"
else
  # A GPU is present: the fallback cannot be observed; the CUDA path is exercised instead.
  tap_ok "--backend cuda with a GPU: the check passes" test $cuda_rc -eq 0
  tap_skip "--backend auto falls back to the emulator" "a GPU is present"
  "$bin" --backend cuda --shape small --seeds 0 --vs stage1 --variant stage2 --variant stage3a --iters 20 \
    --min-time 0.2 --out "$tmp/gpu.json" >"$tmp/gpu.out" 2>"$tmp/gpu.err"
  tap_ok "--backend cuda: --vs run passes" test $? -eq 0
  tap_ok "--backend cuda: the JSON validates" "$check" "$tmp/gpu.json"
  v() { "$check" "$tmp/gpu.json" "$1"; }
  tap_ok "--backend cuda: meta.timing is gpu" test "$(v meta.timing)" = gpu
  tap_ok "--backend cuda: device metadata" test "$(v meta.device.sm_count)" != null
  tap_ok "--backend cuda: L2 flush buffer sized from the device" test "$(v meta.device.l2_flush_bytes)" != 0
  tap_ok "--backend cuda: an SM clock per kept sample" bash -c '[ "$("$1" "$2" timing.0.sm_clock_mhz | cut -d" " -f1)" = array ]' _ "$check" "$tmp/gpu.json"
  tap_ok "--backend cuda: cold L2 recorded" test "$(v timing.0.l2)" = cold
  tap_ok "--backend cuda: a roofline floor" test "$(v timing.0.roofline_floor_us)" != null
  tap_ok "--backend cuda: comparisons" test "$(v comparisons)" = "array 2"
fi
tap_done
