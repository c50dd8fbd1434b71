#!/usr/bin/env bash
# Stands in for test_ceilings where the toolkit's cuBLAS headers are missing (mk/peers.mk): the
# stand-in cuBLAS needs their prototypes, so the check shows up as a SKIP instead of vanishing.
. "$(dirname "$0")/../tap.sh"
tap_skip "the GEMM ceilings' cuBLASLt configuration against a stand-in cuBLAS" "cublasLt.h not found (CUDA toolkit headers)"
tap_done
