/* SPDX-License-Identifier: MIT */
/* The same load, fixed: each command is waited (and its TID freed). */
#include <pmsis.h>

void load_tile_l1(void *l1, void *l2, uint32_t d0, uint32_t d1, uint32_t d2,
		  uint32_t ext_d1, uint32_t ext_d2)
{
	pi_cl_dma_cmd_t cmd;

	for (uint32_t i = 0; i < d0; i++) {
		pi_cl_dma_cmd_2d((uint32_t)l2 + i * ext_d1 * ext_d2, (uint32_t)l1 + i * d1 * d2, d1 * d2, ext_d2, d2, PI_CL_DMA_DIR_EXT2LOC, &cmd);
		pi_cl_dma_cmd_wait(&cmd);
	}
}
