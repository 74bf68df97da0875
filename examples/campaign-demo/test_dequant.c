/* SPDX-License-Identifier: MIT */
/*
 * The test body of tk_dequant(): a known int8 vector of four tiles in L3,
 * the kernel's int32 output in L2 checked against the host's.
 */
#include <pmsis.h>
#include <bsp/ram.h>
#include <dmafuzz/dropin.h>

#include "tilekit.h"

#define N (4 * TK_TILE / 4) /* values */

static int8_t host[N];

static void body(void *arg)
{
	uint32_t src = (uint32_t)cl_ram_malloc(N);
	int32_t *dst = pi_l2_malloc(N * sizeof(int32_t));
	int bad = 0;

	(void)arg;
	for (uint32_t i = 0; i < N; i++)
		host[i] = (int8_t)(i * 37 + (i >> 8) + 11); /* no two tiles alike */
	dfz_dropin_l3_write(src, host, N);
	tk_dequant(dst, src, N, 3, 1000);
	for (uint32_t i = 0; i < N; i++)
		bad += dst[i] != (host[i] - 3) * 1000;
	DFZ_DROPIN_CHECK(bad == 0);
	pi_l2_free(dst, N * sizeof(int32_t));
	cl_ram_free((void *)(uintptr_t)src, N);
}

DFZ_DROPIN_MAIN(body, NULL)
