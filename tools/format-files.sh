#!/usr/bin/env bash
# The sources that .clang-format governs: tracked C, C++ and CUDA files, one per line.
# Used by `make format` and tests/style/format.sh, so both see the same list.
cd "$(dirname "$0")/.." || exit 1
git ls-files -- '*.c' '*.h' '*.cu' '*.cuh' '*.cpp'
