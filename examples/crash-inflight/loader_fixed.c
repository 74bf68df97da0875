/* SPDX-License-Identifier: MIT */
/* The same loader, fixed: its command struct is its own. */
#include <pmsis.h>

struct loader {
	pi_cl_dma_cmd_t *cmd;
	uint8_t *l1;
};

static pi_cl_dma_cmd_t cmd_storage;
static struct loader ld;

void loader_init(uint8_t *l1)
{
	ld.l1 = l1;
	ld.cmd = &cmd_storage;
}

void loader_load(uint8_t *l2, uint32_t n)
{
	pi_cl_dma_cmd((uint32_t)l2, (uint32_t)ld.l1, n, PI_CL_DMA_DIR_EXT2LOC, ld.cmd);
	pi_cl_dma_cmd_wait(ld.cmd);
}
