/* SPDX-License-Identifier: MIT */
/*
 * The test body of the tile loads: four 32-byte tiles from L2 to L1,
 * checked. Built with tiles.c (a NULL DMA_copy: a finding at the call)
 * or tiles_fixed.c (clean).
 */
#include <pmsis.h>
#include <dmafuzz/dropin.h>

#define TILE 32
#define N (4 * TILE)

void tiles_setup(uint8_t *l2, uint8_t *l1, uint32_t tile);
void tiles_load(void);

static void body(void *arg)
{
	uint8_t *l2 = pi_l2_malloc(N);
	uint8_t *l1 = pmsis_l1_malloc(N);
	int ok = 1;

	(void)arg;
	for (unsigned i = 0; i < N; i++)
		l2[i] = (uint8_t)(i * 11 + 5);
	tiles_setup(l2, l1, TILE);
	tiles_load();
	for (unsigned i = 0; i < N; i++)
		ok &= l1[i] == (uint8_t)(i * 11 + 5);
	DFZ_DROPIN_CHECK(ok);
	pmsis_l1_malloc_free(l1, N);
	pi_l2_free(l2, N);
}

DFZ_DROPIN_MAIN(body, NULL)
