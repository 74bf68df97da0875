/* SPDX-License-Identifier: MIT */
/*
 * A slice of an L2 matrix copied into L1 row by row in the shape of the
 * DMASlice template of Deeploy's GAP9 target (written here from its
 * structure): the slice allocates a transfer counter and pushes the rows
 * under it and waits on it.
 */
#define MCHAN_VERSION 7 /* as the GAP9 build defines it */
#include <pmsis.h>
#include <mchan.h>

#include "slice.h"

void dma_slice(int8_t *l1, const int8_t *l2, int rows, int cols, int stride)
{
	int tid = mchan_transfer_get_id();

	for (int r = 0; r < rows; r++) {
		mchan_transfer_t trans = {
			.cmd = MCHAN_CMD(cols, MCHAN_DMA_TRANSFER_DIRECTION_EXT2LOC, MCHAN_CMD_FLAG_INCREMENTAL, 0, 0, 0, MCHAN_CMD_FLAG_EVENT_ENABLE, 0),
			.size = cols,
			.loc = l1 + r * cols,
			.ext = (void *)(l2 + r * stride),
		};
		mchan_transfer_push_1d(trans);
	}
	mchan_transfer_wait(tid);
	mchan_transfer_free(tid);
}
