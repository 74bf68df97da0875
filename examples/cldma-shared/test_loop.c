/* SPDX-License-Identifier: MIT */
/*
 * The test body: a 4 x 8 x 16-byte tensor in L2, the tile
 * [0..4) x [2..6) x [4..12) loaded into L1 by load_tile_l1(), checked
 * against the tensor. Built with loop.c (TIDs leaked) or loop_fixed.c.
 */
#include <pmsis.h>
#include <dmafuzz/dropin.h>

#define E0 4
#define E1 8
#define E2 16
#define D0 4
#define D1 4
#define D2 8
#define O1 2
#define O2 4

void load_tile_l1(void *l1, void *l2, uint32_t d0, uint32_t d1, uint32_t d2,
		  uint32_t ext_d1, uint32_t ext_d2);

static void body(void *arg)
{
	uint8_t *l2 = pi_l2_malloc(E0 * E1 * E2);
	uint8_t *l1 = pmsis_l1_malloc(D0 * D1 * D2);
	int ok = 1;

	(void)arg;
	for (unsigned x = 0; x < E0 * E1 * E2; x++)
		l2[x] = (uint8_t)(x * 29 + 3);
	load_tile_l1(l1, l2 + O1 * E2 + O2, D0, D1, D2, E1, E2);
	for (unsigned i = 0; i < D0; i++)
		for (unsigned j = 0; j < D1; j++)
			for (unsigned k = 0; k < D2; k++)
				ok &= l1[(i * D1 + j) * D2 + k] ==
				      l2[(i * E1 + O1 + j) * E2 + O2 + k];
	DFZ_DROPIN_CHECK(ok);
	pmsis_l1_malloc_free(l1, D0 * D1 * D2);
	pi_l2_free(l2, E0 * E1 * E2);
}

DFZ_DROPIN_MAIN(body, NULL)
