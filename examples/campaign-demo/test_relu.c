/* SPDX-License-Identifier: MIT */
/*
 * The test body of tk_relu(): a known int8 vector of three tiles in L3,
 * clamped in place and read back against the host's.
 */
#include <pmsis.h>
#include <bsp/ram.h>
#include <dmafuzz/dropin.h>

#include "tilekit.h"

#define N (3 * TK_TILE)

static int8_t host[N], back[N];

static void body(void *arg)
{
	uint32_t buf = (uint32_t)cl_ram_malloc(N);
	int bad = 0;

	(void)arg;
	for (uint32_t i = 0; i < N; i++)
		host[i] = (int8_t)(i * 37 + (i >> 8) + 11);
	dfz_dropin_l3_write(buf, host, N);
	tk_relu(buf, N);
	dfz_dropin_l3_read(buf, back, N);
	for (uint32_t i = 0; i < N; i++)
		bad += back[i] != (host[i] < 0 ? 0 : host[i]);
	DFZ_DROPIN_CHECK(bad == 0);
	cl_ram_free((void *)(uintptr_t)buf, N);
}

DFZ_DROPIN_MAIN(body, NULL)
