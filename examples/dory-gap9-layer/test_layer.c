/* SPDX-License-Identifier: MIT */
/*
 * The test body: the layer's input and output in L2, its L1 buffer, and
 * the output against a golden. Built with layer.c (flagged) or
 * layer_fixed.c (clean), with pkg-config --cflags --libs
 * dmafuzz-dropin-dory, which resolves "dory_dma.h" to DORY's GAP9
 * library.
 */
#include <string.h>

#include <pmsis.h>
#include <dmafuzz/dropin.h>

#include "layer.h"

#define N (ROW * TILE_H * NTILES)

static void body(void *arg)
{
	uint8_t *x = pi_l2_malloc(N), *y = pi_l2_malloc(N);
	uint8_t *l1 = pmsis_l1_malloc(4 * TILE_H * ROW);
	static uint8_t want[N];

	(void)arg;
	for (unsigned i = 0; i < N; i++) {
		x[i] = (uint8_t)(i * 5 + 3);
		want[i] = (uint8_t)(x[i] + 1);
	}
	layer((uint32_t)(uintptr_t)x, (uint32_t)(uintptr_t)y,
	      (uint32_t)(uintptr_t)l1);
	DFZ_DROPIN_CHECK(memcmp(y, want, N) == 0);
	pmsis_l1_malloc_free(l1, 4 * TILE_H * ROW);
	pi_l2_free(y, N);
	pi_l2_free(x, N);
}

DFZ_DROPIN_MAIN(body, NULL)
