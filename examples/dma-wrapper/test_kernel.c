/* SPDX-License-Identifier: MIT */
/*
 * The test body: a known L3 vector, the kernel's sum checked against the
 * host's. Built with kernel.c (flagged) or kernel_fixed.c (clean).
 */
#include <pmsis.h>
#include <bsp/ram.h>
#include <dmafuzz/dropin.h>

#include "kernel.h"

static void body(void *arg)
{
	uint8_t host[NTILES * TILE];
	uint32_t l3 = (uint32_t)cl_ram_malloc(sizeof(host));
	uint8_t *b0 = pi_l2_malloc(TILE), *b1 = pi_l2_malloc(TILE);
	uint32_t want = 0;

	(void)arg;
	for (unsigned i = 0; i < sizeof(host); i++) {
		host[i] = (uint8_t)(i * 7 + 3);
		want += host[i];
	}
	dfz_dropin_l3_write(l3, host, sizeof(host));
	DFZ_DROPIN_CHECK(kernel_sum(l3, b0, b1) == want);
	pi_l2_free(b1, TILE);
	pi_l2_free(b0, TILE);
	cl_ram_free((void *)(uintptr_t)l3, sizeof(host));
}

DFZ_DROPIN_MAIN(body, NULL)
