/* SPDX-License-Identifier: MIT */
/*
 * A tile kernel on the register-level library: a bias row (1-D) and an
 * 8x16 window of a 32-byte-wide matrix (2-D) into L1 under one counter,
 * then the sum of window + bias. Fixed: the wait comes before the sum.
 */
#include "dma.h"

#define ROWS 8
#define W 16
#define COLS 32

uint32_t tile_sum(uint8_t *l1, const uint8_t *mat, const uint8_t *bias)
{
	int tid = dma_start();
	uint32_t sum = 0;

	dma_copy((dma_conf_t){ .ext = (uint32_t)(uintptr_t)bias,
			       .loc = (uint32_t)(uintptr_t)l1, .rows = 1,
			       .row_bytes = W, .to_l1 = 1 });
	dma_copy((dma_conf_t){ .ext = (uint32_t)(uintptr_t)mat,
			       .loc = (uint32_t)(uintptr_t)(l1 + W),
			       .rows = ROWS, .row_bytes = W,
			       .ext_stride = COLS, .to_l1 = 1 });
	dma_finish(tid);
	for (int r = 0; r < ROWS; r++)
		for (int c = 0; c < W; c++)
			sum += (uint32_t)l1[W + r * W + c] + l1[c];
	return sum;
}
