# Toolchain detection and flags shared by every fragment.
# Everything here is overridable from the command line (make CC=clang ...).

BUILD      ?= build
GEN        := $(BUILD)/gen
BIN        := $(BUILD)/bin

# Non-empty under make -n. A recipe line that names $(MAKE) runs even then (so that the sub-make can
# print its own commands): one that also measures or writes must test this and only print
# (`make -n stage2` ran the experiment; `make -n bundle` wrote into a directory -n never made).
dry_run = $(findstring n,$(firstword -$(MAKEFLAGS)))

CC         ?= gcc
ifeq ($(origin CC),default)
CC         := gcc
endif
# The emulator needs clang++: GCC 12 ignores section attributes on static locals of templates
# (observed with GCC 12; kernels/emu/README.md).
EMU_CXX    ?= clang++
HOST_CXX   ?= g++

# nvcc: from PATH, else $(CUDA_HOME)/bin. Absent nvcc is not an error: GPU builds are skipped and
# the test runner says so.
CUDA_HOME  ?= /usr/local/cuda
NVCC       ?= $(or $(shell command -v nvcc 2>/dev/null),$(wildcard $(CUDA_HOME)/bin/nvcc))
HAVE_NVCC  := $(if $(NVCC),1,0)
CUDA_ROOT  := $(if $(NVCC),$(patsubst %/bin/nvcc,%,$(realpath $(NVCC))),$(CUDA_HOME))
CUDA_INC   := $(CUDA_ROOT)/include
CUDA_LIB   := $(firstword $(wildcard $(CUDA_ROOT)/lib64 $(CUDA_ROOT)/lib))

# nvcc 13.0's front end (cicc) emits PTX that depends on the address-space layout: two identical
# compiles can differ in register numbering and instruction order (observed here; ptxas's register
# counts follow). With address-space randomisation off for the compiler (util-linux setarch -R),
# builds are reproducible, and so are the PTX comparisons and ptxas figures derived from them.
NVCC_DET   := $(if $(NVCC),$(if $(shell setarch -R true 2>/dev/null && echo y),setarch -R))

# The architectures every kernel is built for; PTX of the newest is embedded for forward compatibility.
CUDA_ARCHS ?= 80 89 90
# Architecture-specific targets: sm_90a has what Hopper's FP8 speed needs (wgmma with FP8 operands,
# setmaxnreg; nvcc refuses them for plain sm_90), and its code runs on compute capability 9.0 only,
# so it is never the PTX embedded for forward compatibility (that stays compute_90). Kept apart from
# CUDA_ARCHS, whose consumers compare numbers (the device probe, ptxas gates, PTX listings): the
# sources that use sm_90a instructions add $(NVCC_GENCODE_SPECIFIC) to their compile, and elsewhere
# those bodies trap (prims::has_sm90a, kernels/switches.h's ARCH column).
CUDA_ARCHS_SPECIFIC ?= 90a
NVCC_GENCODE_SPECIFIC := $(foreach a,$(CUDA_ARCHS_SPECIFIC),-gencode arch=compute_$(a),code=sm_$(a))

# Host code: C11, warnings are errors. -ffp-contract=off keeps the RNG and the fp64 reference
# bit-reproducible across compilers and machines (no silent FMA contraction).
CSTD       := -std=c11
WARN       := -Wall -Wextra -Werror
COMMON_CPPFLAGS := -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Ihost/lib -Ihost -Ikernels -I$(GEN)
HOST_CFLAGS ?= -O2 -g -ffp-contract=off
CFLAGS_ALL := $(CSTD) $(WARN) $(HOST_CFLAGS) $(COMMON_CPPFLAGS)

# AddressSanitizer + UBSan flavour of the host code, run in `make test`.
SAN_FLAGS  := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

JSON_LIBS  := -lcjson
CMOCKA_LIBS := -lcmocka
MATH_LIBS  := -lm

# Quiet rules by default; `make V=1` shows the commands.
ifeq ($(V),1)
Q :=
else
Q := @
endif

# Order-only prerequisite of every compile: installs the build role's missing Debian packages once
# per make run (the roles and their stamps: the top Makefile, tools/deps.sh).
DEPS_STAMP := $(BUILD)/.deps-checked-build
