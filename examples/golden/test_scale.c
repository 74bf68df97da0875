/* SPDX-License-Identifier: MIT */
/*
 * The test body, with no golden check of its own: an input vector in L3,
 * the kernel run, and its L3 output named. The harness's ideal run (every
 * transfer done at its call) computes the expected bytes; each
 * schedule's run must match them. Built with scale.c (flagged) or
 * scale_fixed.c (clean).
 */
#include <pmsis.h>
#include <bsp/ram.h>
#include <dmafuzz/dropin.h>

#include "scale.h"

#define N (NTILES * TILE)

static void body(void *arg)
{
	uint8_t host[N];
	uint32_t in = (uint32_t)cl_ram_malloc(N), out = (uint32_t)cl_ram_malloc(N);
	uint8_t *in_buf = pi_l2_malloc(TILE), *out_buf = pi_l2_malloc(TILE);

	(void)arg;
	for (unsigned i = 0; i < N; i++)
		host[i] = (uint8_t)(i * 13 + 5);
	dfz_dropin_l3_write(in, host, N);
	scale(in, out, in_buf, out_buf);
	DFZ_DROPIN_OUTPUT_L3(out, N); /* dfz-expect: AT */
	pi_l2_free(out_buf, TILE);
	pi_l2_free(in_buf, TILE);
	cl_ram_free((void *)(uintptr_t)out, N);
	cl_ram_free((void *)(uintptr_t)in, N);
}

DFZ_DROPIN_MAIN(body, NULL)
