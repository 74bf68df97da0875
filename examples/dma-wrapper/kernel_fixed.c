/* SPDX-License-Identifier: MIT */
/*
 * kernel.c fixed: tile i + 1 loads on job (i + 1) % 2, the job of its
 * buffer, and each tile's job is waited before the tile is summed.
 */
#include "dma_wrap.h"
#include "kernel.h"

static uint32_t sum_tile(const uint8_t *t)
{
	uint32_t s = 0;

	for (unsigned i = 0; i < TILE; i++)
		s += t[i];
	return s;
}

uint32_t kernel_sum(uint32_t l3, uint8_t *buf0, uint8_t *buf1)
{
	dw_job_t job[2] = { { .busy = 0 }, { .busy = 0 } };
	uint8_t *buf[2] = { buf0, buf1 };
	uint32_t s = 0;

	dw_load(&job[0], buf[0], l3, TILE);
	for (unsigned i = 0; i < NTILES; i++) {
		if (i + 1 < NTILES)
			dw_load(&job[(i + 1) % 2], buf[(i + 1) % 2],
				l3 + (i + 1) * TILE, TILE);
		dw_wait(&job[i % 2]);
		s += sum_tile(buf[i % 2]);
	}
	return s;
}
