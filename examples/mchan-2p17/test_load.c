/* SPDX-License-Identifier: MIT */
/*
 * The test body: 128 KiB of weights in L2 loaded into L1 and compared.
 * Built with load.c (the 2^17-byte command: cmd.encoding at the push) or
 * load_fixed.c (clean).
 */
#include <string.h>

#include <pmsis.h>
#include <dmafuzz/dropin.h>

#include "load.h"

static void body(void *arg)
{
	int8_t *l2 = pi_l2_malloc(SIZE), *l1 = pmsis_l1_malloc(SIZE);

	(void)arg;
	for (int i = 0; i < SIZE; i++)
		l2[i] = (int8_t)(i * 11 + 7);
	load_weights(l1, l2);
	DFZ_DROPIN_CHECK(memcmp(l1, l2, SIZE) == 0);
	pmsis_l1_malloc_free(l1, SIZE);
	pi_l2_free(l2, SIZE);
}

DFZ_DROPIN_MAIN(body, NULL)
