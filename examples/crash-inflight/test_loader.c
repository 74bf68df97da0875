/* SPDX-License-Identifier: MIT */
/*
 * The test body of the loader: 128 bytes from L2 to L1, checked. Built
 * with loader.c (a NULL command pointer: a finding at the call) or
 * loader_fixed.c (clean).
 */
#include <pmsis.h>
#include <dmafuzz/dropin.h>

#define N 128

void loader_init(uint8_t *l1);
void loader_load(uint8_t *l2, uint32_t n);

static void body(void *arg)
{
	uint8_t *l2 = pi_l2_malloc(N);
	uint8_t *l1 = pmsis_l1_malloc(N);
	int ok = 1;

	(void)arg;
	for (unsigned i = 0; i < N; i++)
		l2[i] = (uint8_t)(i * 3 + 1);
	loader_init(l1);
	loader_load(l2, N);
	for (unsigned i = 0; i < N; i++)
		ok &= l1[i] == (uint8_t)(i * 3 + 1);
	DFZ_DROPIN_CHECK(ok);
	pmsis_l1_malloc_free(l1, N);
	pi_l2_free(l2, N);
}

DFZ_DROPIN_MAIN(body, NULL)
