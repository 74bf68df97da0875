/* SPDX-License-Identifier: MIT */
/*
 * The L2 -> L1 load of a rank-3 tile on the cluster DMA, decomposed the
 * Anydim way: one pi_cl_dma_cmd_2d per index of the outermost dimension,
 * all on one pi_cl_dma_cmd_t, one wait after the loop. Under pulpos each
 * command takes a TID of its own and stores it in the struct: the wait
 * frees only the last one, the others leak (16 exist).
 */
#include <pmsis.h>

void load_tile_l1(void *l1, void *l2, uint32_t d0, uint32_t d1, uint32_t d2,
		  uint32_t ext_d1, uint32_t ext_d2)
{
	pi_cl_dma_cmd_t cmd;

	for (uint32_t i = 0; i < d0; i++) {
		pi_cl_dma_cmd_2d((uint32_t)l2 + i * ext_d1 * ext_d2, (uint32_t)l1 + i * d1 * d2, d1 * d2, ext_d2, d2, PI_CL_DMA_DIR_EXT2LOC, &cmd); /* dfz-expect: AT */
	}
	pi_cl_dma_cmd_wait(&cmd);
}
