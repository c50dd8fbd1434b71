#!/usr/bin/env bash
# Stands in for the nvcc-based kernel suites on a machine without the CUDA toolkit, so that the
# skipped checks are counted and named rather than silently absent.
. "$(dirname "$0")/../tap.sh"
tap_skip "static gates: ptxas resources of every kernel (sm_80/89/90)" "nvcc not found"
tap_skip "PTX properties per stage (cp.async, WMMA count, E4M3 cvt, no local memory, no fp64)" "nvcc not found"
tap_skip "each switch changes the generated PTX" "nvcc not found"
tap_done
