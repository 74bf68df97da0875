/* SPDX-License-Identifier: MIT */
/*
 * The test body of tk_scale(): a known int8 vector of four tiles in L2
 * scaled by 3/2 (saturating both ways), checked against the host's.
 */
#include <pmsis.h>
#include <dmafuzz/dropin.h>

#include "tilekit.h"

#define N (4 * TK_TILE)

static void body(void *arg)
{
	int8_t *src = pi_l2_malloc(N), *dst = pi_l2_malloc(N);
	int bad = 0;

	(void)arg;
	for (uint32_t i = 0; i < N; i++)
		src[i] = (int8_t)(i * 37 + (i >> 8) + 11);
	tk_scale(dst, src, N, 3, 1);
	for (uint32_t i = 0; i < N; i++)
		bad += dst[i] != tk_sat8((src[i] * 3) >> 1);
	DFZ_DROPIN_CHECK(bad == 0);
	pi_l2_free(dst, N);
	pi_l2_free(src, N);
}

DFZ_DROPIN_MAIN(body, NULL)
