/* SPDX-License-Identifier: MIT */
/* A small DMA library in the shape of DORY's GAP9 dory_dma.h. */
#ifndef EXAMPLE_DMA_H
#define EXAMPLE_DMA_H

#include "pmsis.h"

typedef struct {
	uint32_t ext, loc;
	int rows, row_bytes, ext_stride;
	int to_l1;
} dma_conf_t;

int dma_start(void);
void dma_copy(dma_conf_t c);
void dma_finish(int tid);

#endif
