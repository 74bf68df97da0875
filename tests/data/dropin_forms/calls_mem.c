/* SPDX-License-Identifier: MIT */
/*
 * A test body that only calls Deeploy's memory helpers (pmsis.h is its
 * one SDK include): linked alone it gets the drop-in's (libdmafuzz-sdk.a),
 * linked with defines_mem.c the user's, which count their calls. Built
 * with -DUSER_MEM=0 or 1, the body checks which one served it and that
 * an L2 tile round-trips through L3. Our own writing.
 */
#include "pmsis.h"
#include <dmafuzz/dropin.h>

extern int user_mem_calls __attribute__((weak));

static void body(void *arg)
{
	uint8_t *tile = pi_l2_malloc(64), *back = pi_l2_malloc(64);
	void *l3;
	int ok = 1;

	(void)arg;
	mem_init();
	l3 = cl_ram_malloc(64);
	for (int i = 0; i < 64; i++)
		tile[i] = (uint8_t)(i * 5 + 1);
	cl_ram_write(l3, tile, 64);
	ram_read(back, l3, 64);
	for (int i = 0; i < 64; i++)
		ok &= back[i] == tile[i];
	DFZ_DROPIN_CHECK(ok);
	DFZ_DROPIN_CHECK((&user_mem_calls != NULL &&
			  user_mem_calls > 0) == USER_MEM);
	cl_ram_free(l3, 64);
	DFZ_DROPIN_CHECK(get_ram_ptr() != NULL);
	pi_l2_free(back, 64);
	pi_l2_free(tile, 64);
}

DFZ_DROPIN_MAIN(body, NULL)
