/* SPDX-License-Identifier: MIT */
/*
 * The test body of seed 000's loop: an L3 tensor of 4 x 8 x 16 bytes with
 * a known pattern, the tile [0..4) x [2..6) x [4..12) loaded into L2, and
 * the tile checked against the tensor. Built with loop.c (flagged) or
 * loop_fixed.c (clean).
 */
#include <pmsis.h>
#include <bsp/ram.h>
#include <dmafuzz/dropin.h>

#define E0 4
#define E1 8
#define E2 16
#define D0 4
#define D1 4
#define D2 8
#define O1 2
#define O2 4

void load_tile(void *local, uint32_t ext, uint32_t d0, uint32_t d1,
	       uint32_t d2, uint32_t ext_d1, uint32_t ext_d2);

static uint8_t at(unsigned i, unsigned j, unsigned k)
{
	return (uint8_t)(i * 61 + j * 7 + k * 3 + 1);
}

static void body(void *arg)
{
	uint8_t host[E0 * E1 * E2];
	uint32_t l3 = (uint32_t)cl_ram_malloc(sizeof(host));
	uint8_t *tile = pi_l2_malloc(D0 * D1 * D2);
	int ok = 1;

	(void)arg;
	for (unsigned i = 0; i < E0; i++)
		for (unsigned j = 0; j < E1; j++)
			for (unsigned k = 0; k < E2; k++)
				host[(i * E1 + j) * E2 + k] = at(i, j, k);
	dfz_dropin_l3_write(l3, host, sizeof(host));
	load_tile(tile, l3 + O1 * E2 + O2, D0, D1, D2, E1, E2);
	for (unsigned i = 0; i < D0; i++)
		for (unsigned j = 0; j < D1; j++)
			for (unsigned k = 0; k < D2; k++)
				ok &= tile[(i * D1 + j) * D2 + k] ==
				      at(i, O1 + j, O2 + k);
	DFZ_DROPIN_CHECK(ok);
	pi_l2_free(tile, D0 * D1 * D2);
	cl_ram_free((void *)(uintptr_t)l3, sizeof(host));
}

DFZ_DROPIN_MAIN(body, NULL)
