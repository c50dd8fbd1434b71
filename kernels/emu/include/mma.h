// The emulator's <mma.h>: found before the CUDA toolkit's (whose mma.h is empty without
// __CUDACC__) because kernels/emu/include comes first on the include path.
#pragma once
#if !defined(SIMT_EMU)
#error "kernels/emu/include/mma.h is the CPU emulator's; compile with -include kernels/emu/simt_shim.h"
#endif
#include "../simt_wmma.h"
