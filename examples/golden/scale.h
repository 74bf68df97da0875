/* SPDX-License-Identifier: MIT */
/* The kernel's shape and entry (scale.c, scale_fixed.c). */
#ifndef SCALE_H
#define SCALE_H

#include <stdint.h>

#define TILE 128
#define NTILES 3

/* out = 3 * in + 1 (bytewise, modulo 256) over NTILES * TILE bytes in
 * L3, tile by tile through the L2 buffers @in_buf and @out_buf. */
void scale(uint32_t in, uint32_t out, uint8_t *in_buf, uint8_t *out_buf);

#endif
