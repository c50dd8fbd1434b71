/* IEEE binary16 on the host, without CUDA headers: the kernels' output type.
 * Conversions are bit-exact with cuda_fp16.h's __float2half_rn / __half2float (tested). */
#ifndef HALF_H
#define HALF_H

#include <stdint.h>

uint16_t half_from_float(float x); /* round to nearest even; overflow -> inf; NaN stays NaN */
float half_to_float(uint16_t h);   /* exact */
/* Distance in units in the last place between two halves, on the ordered integer line
 * (+0 and -0 are 0 apart). Either NaN -> UINT32_MAX. */
uint32_t half_ulp_distance(uint16_t a, uint16_t b);

#endif
