/* SPDX-License-Identifier: MIT */
/* The same tile loads, fixed: every tile has its DMA_copy. */
#include <pmsis.h>
#include <dory_dma.h>

#define TILES 4

static DMA_copy copies[TILES];
static DMA_copy *table[TILES];

void tiles_setup(uint8_t *l2, uint8_t *l1, uint32_t tile)
{
	for (int t = 0; t < TILES; t++) {
		copies[t] = (DMA_copy){
			.ext = l2 + t * tile, .loc = l1 + t * tile,
			.number_of_2d_copies = 1, .number_of_1d_copies = 1,
			.length_1d_copy = tile, .dir = 1,
		};
		table[t] = &copies[t];
	}
}

void tiles_load(void)
{
	int tid = dory_dma_allocate();

	for (int t = 0; t < TILES; t++) {
		table[t]->tid = tid;
		dory_dma_memcpy_async(table[t]);
	}
	dory_dma_barrier(table[0]);
	dory_dma_free(table[0]);
}
