/* SPDX-License-Identifier: MIT */
/*
 * The test body: 256 bytes in L3, summed by sum_tile() into a golden
 * check. Built with tile.c (flagged: by ASan or valgrind at the reading
 * line, by the golden check elsewhere) or tile_fixed.c (clean).
 */
#include <pmsis.h>
#include <bsp/ram.h>
#include <dmafuzz/dropin.h>

#define N 256

uint32_t sum_tile(uint8_t *local, uint32_t ext, uint32_t n);

static void body(void *arg)
{
	uint8_t host[N];
	uint32_t l3 = (uint32_t)cl_ram_malloc(N);
	uint8_t *tile = pi_l2_malloc(N);
	uint32_t want = 0;

	(void)arg;
	for (unsigned i = 0; i < N; i++) {
		host[i] = (uint8_t)(i * 13 + 5);
		want += host[i];
	}
	dfz_dropin_l3_write(l3, host, N);
	for (unsigned i = 0; i < N; i++)
		tile[i] = 0;
	DFZ_DROPIN_CHECK(sum_tile(tile, l3, N) == want);
	pi_l2_free(tile, N);
	cl_ram_free((void *)(uintptr_t)l3, N);
}

DFZ_DROPIN_MAIN(body, NULL)
