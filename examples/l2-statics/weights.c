/* SPDX-License-Identifier: MIT */
/*
 * Weights kept as statics in L2 (PI_L2) and a staging buffer in the
 * cluster's L1 (PI_CL_L1), as generated code declares them, loaded over
 * the cluster DMA before a kernel sums them. The load is never waited.
 */
#include <pmsis.h>

#include "weights.h"

PI_L2 int8_t weights_l2[WEIGHTS] = { 3, -1, 4, -1, 5, -9, 2, 6 };
PI_CL_L1 int8_t weights_l1[WEIGHTS];

int32_t sum_weights(void)
{
	pi_cl_dma_cmd_t cmd;
	int32_t sum = 0;

	pi_cl_dma_cmd((uint32_t)weights_l2, (uint32_t)weights_l1, WEIGHTS, PI_CL_DMA_DIR_EXT2LOC, &cmd);
	for (int i = 0; i < WEIGHTS; i++)
		sum += weights_l1[i]; /* dfz-expect: READ */
	return sum;
}
