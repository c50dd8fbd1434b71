// The emulator's <cuda_pipeline_primitives.h>: the toolkit's does not compile for the host
// (inline PTX); this one is found first because kernels/emu/include precedes the CUDA folder.
#pragma once
#if !defined(SIMT_EMU)
#error                                                                                                       \
    "kernels/emu/include/cuda_pipeline_primitives.h is the CPU emulator's; compile with -include kernels/emu/simt_shim.h"
#endif
#include "../simt_pipeline.h"
