/* SPDX-License-Identifier: MIT */
/*
 * tilekit: a small int8 tiling kernel library in the PMSIS style, the
 * example project of `dmafuzz campaign` (docs/campaign.md). Each kernel
 * streams its vectors tile by tile between HyperRAM (L3) or L2 and the
 * cluster's L1 with the SDK's DMA calls, and the eight cluster cores
 * compute each tile's slices between team barriers; core 0 drives the
 * DMA. Our own writing.
 */
#ifndef TILEKIT_H
#define TILEKIT_H

#include <stdint.h>

#define TK_TILE 4096u /* bytes of one tile (of the output, for tk_dequant) */

/**
 * tk_slice() - the part of a tile of @len elements core @core of @ncores
 * computes.
 * @core: the core's id; @ncores: the team's size; @len: the elements.
 * @lo: set to the first element; @hi: set to one past the last.
 */
void tk_slice(unsigned core, unsigned ncores, uint32_t len, uint32_t *lo,
	      uint32_t *hi);

/**
 * tk_sat8() - @v clamped to the int8 range.
 * Return: the clamped value.
 */
int8_t tk_sat8(int32_t v);

/**
 * tk_dequant() - dst = (src - zero) * scale over @n values (a multiple of
 * TK_TILE / 4): src int8 in L3, dst int32 in L2. Double-buffered: the
 * next input tile loads while the team converts the current one, and
 * each output tile goes back to L2 while the next is computed.
 * @dst: the L2 output; @src: the L3 input; @n: values; @zero, @scale:
 * the quantization's zero point and scale.
 */
void tk_dequant(int32_t *dst, uint32_t src, uint32_t n, int8_t zero,
		int32_t scale);

/**
 * tk_scale() - dst = (src * mul) >> shift, saturated, over @n bytes (a
 * multiple of TK_TILE), both in L2; double-buffered on the cluster DMA.
 * @dst: the L2 output; @src: the L2 input; @n: bytes; @mul, @shift: the
 * fixed-point factor.
 */
void tk_scale(int8_t *dst, const int8_t *src, uint32_t n, int8_t mul,
	      unsigned shift);

/**
 * tk_relu() - buf = max(buf, 0) in place over @n bytes (a multiple of
 * TK_TILE) in L3, one L1 buffer.
 * @buf: the L3 vector; @n: bytes.
 */
void tk_relu(uint32_t buf, uint32_t n);

#endif /* TILEKIT_H */
