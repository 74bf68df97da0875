/* SPDX-License-Identifier: MIT */
/*
 * The library over the register-level mchan.h next to it, in the shape
 * of DORY's GAP9 dory_dma.c: the register address from the SDK (or
 * spelled out under GAP_SDK), event-driven waits on the DMA's event
 * line, one counter per transfer, freed by its wait.
 */
#include "dma.h"
#include "pmsis.h"

#ifdef GAP_SDK
#define ARCHI_MCHAN_DEMUX_ADDR (0x00201800)
#endif
#define MCHAN_BASE_ADDR (ARCHI_MCHAN_DEMUX_ADDR)
#define MCHAN_EVENT
#define MCHAN_EVENT_BIT (CL_IRQ_DMA0)
#include "mchan.h"

#define FLAGS (MCHAN_INCREMENTAL | MCHAN_EVENT_EN)

int dma_start(void)
{
	return mchan_alloc();
}

void dma_copy(dma_conf_t c)
{
	int size = c.rows * c.row_bytes;
	int cmd = size | (c.to_l1 ? MCHAN_DIR_EXT2LOC : 0) | FLAGS;

	if (c.rows == 1) {
		mchan_push_1d((mchan_cmd_t){ .cmd = cmd,
					     .loc = (void *)(uintptr_t)c.loc,
					     .ext = (void *)(uintptr_t)c.ext });
		return;
	}
	mchan_push_2d((mchan_cmd_t){ .cmd = cmd | MCHAN_EXT_2D,
				     .loc = (void *)(uintptr_t)c.loc,
				     .ext = (void *)(uintptr_t)c.ext,
				     .ext_line = c.row_bytes,
				     .ext_stride = c.ext_stride });
}

void dma_finish(int tid)
{
	mchan_barrier(tid);
	mchan_release(tid);
}
