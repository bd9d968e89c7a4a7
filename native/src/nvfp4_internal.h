/* Shared by the NVFP4 sources: the element and scale codecs (docs/kernels-nvfp4.md, Format) and shape checks. */
#ifndef SB_NVFP4_INTERNAL_H
#define SB_NVFP4_INTERNAL_H

#include "sb_internal.h"

/* E2M1 code (low 4 bits) to float; 0x8 is -0.0f. */
float nvfp4_e2m1_decode(unsigned code);

/* E4M3 ("e4m3fn") byte to float: no infinities, 0x7F/0xFF are NaN, subnormals m * 2^-9. */
float nvfp4_e4m3_decode(uint8_t bits);

/* rows >= 1, k a positive multiple of 16, and the fp32 output size representable in int64. */
int nvfp4_valid_shape(int64_t rows, int64_t k);

#endif
