/* SPDX-License-Identifier: MIT */
/*
 * A tile loader on the cluster DMA whose set-up forgets its command
 * struct: loader_init() takes the L1 buffer but never points `cmd` at
 * storage, so pi_cl_dma_cmd() is handed a NULL pi_cl_dma_cmd_t *. On a
 * board the SDK writes the transfer id through it (a fault, or a write to
 * address 0); under dmafuzz it is a finding at the call's line, never a
 * fault inside the drop-in.
 */
#include <pmsis.h>

struct loader {
	pi_cl_dma_cmd_t *cmd;
	uint8_t *l1;
};

static struct loader ld;

void loader_init(uint8_t *l1)
{
	ld.l1 = l1;
}

void loader_load(uint8_t *l2, uint32_t n)
{
	pi_cl_dma_cmd((uint32_t)l2, (uint32_t)ld.l1, n, PI_CL_DMA_DIR_EXT2LOC, ld.cmd); /* dfz-expect: AT */
	pi_cl_dma_cmd_wait(ld.cmd);
}
