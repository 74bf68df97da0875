/* SPDX-License-Identifier: MIT */
/*
 * A double-buffered sum over N tiles of an L3 vector, on the wrapper: two
 * jobs, two L2 buffers, tile i + 1 loading while tile i is summed. The
 * bug: job 0 loads every tile, job 1 only tile 1, so from tile 2 on the
 * load of tile i + 1 runs on job 0 into the buffer job 1 is still
 * filling (tile 1's load, never waited): two loads in flight write the
 * same bytes.
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
	dw_load(&job[1], buf[1], l3 + TILE, TILE); /* dfz-expect: PRIOR */
	for (unsigned i = 0; i < NTILES; i++) {
		dw_wait(&job[0]);
		if (i + 1 < NTILES && i > 0)
			dw_load(&job[0], buf[(i + 1) % 2], l3 + (i + 1) * TILE, TILE); /* dfz-expect: CALL */
		s += sum_tile(buf[i % 2]);
	}
	return s;
}
