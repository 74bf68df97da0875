/* SPDX-License-Identifier: MIT */
/*
 * The test body: a tile of L3 loaded by start_load(), a checksum of the
 * previous tile computed meanwhile, then finish_load() and a golden check
 * of the loaded tile. Built with loader.c (clean) or test_frame.c (the
 * request on start_load()'s stack).
 */
#include <pmsis.h>
#include <bsp/ram.h>
#include <dmafuzz/dropin.h>

#include "loader.h"

#define N 256

void remember(struct loader *ld, pi_cl_ram_req_t *r)
{
	ld->req = r;
}

static void body(void *arg)
{
	uint8_t host[N];
	uint32_t l3 = (uint32_t)cl_ram_malloc(N);
	uint8_t *tile = pi_l2_malloc(N);
	struct loader ld;
	uint32_t sum = 0, want = 0;

	(void)arg;
	for (unsigned i = 0; i < N; i++) {
		host[i] = (uint8_t)(i * 13 + 5);
		want += host[i];
	}
	dfz_dropin_l3_write(l3, host, N);
	start_load(&ld, l3, tile, N);
	for (unsigned i = 0; i < N; i++)
		sum += host[i];
	finish_load(&ld);
	for (unsigned i = 0; i < N; i++)
		sum -= tile[i];
	DFZ_DROPIN_CHECK(sum == 0 && want != 0);
	pi_l2_free(tile, N);
	cl_ram_free((void *)(uintptr_t)l3, N);
}

DFZ_DROPIN_MAIN(body, NULL)
