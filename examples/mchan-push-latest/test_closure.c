/* SPDX-License-Identifier: MIT */
/*
 * The test body: an 8 x 64 int8 matrix A and a 64-byte bias in L2, an L1
 * arena for the closure's buffers, the closure run on the cluster, and
 * each output column compared with the column sum plus bias computed
 * here. Built with closure.c (the second row block of A pushed after
 * transfer_B was taken) or closure_fixed.c.
 */
#include <pmsis.h>
#include <dmafuzz/dropin.h>

#include "closure.h"

static void body(void *arg)
{
	int8_t *a = pi_l2_malloc(ROWS * WIDTH), *bias = pi_l2_malloc(WIDTH);
	int32_t *out = pi_l2_malloc(WIDTH * sizeof(int32_t));
	int8_t *l1 = pmsis_l1_malloc(L1_SIZE);
	closure_args_t args = { l1, a, bias, out };

	(void)arg;
	for (int i = 0; i < ROWS * WIDTH; i++)
		a[i] = (int8_t)(i * 7 + 3);
	for (int i = 0; i < WIDTH; i++)
		bias[i] = (int8_t)(100 - 3 * i);
	_closure_ColSumBias_0(&args);
	for (int c = 0; c < WIDTH; c++) {
		int32_t want = bias[c];

		for (int r = 0; r < ROWS; r++)
			want += a[r * WIDTH + c];
		DFZ_DROPIN_CHECK(out[c] == want); /* dfz-expect: CHECK */
	}
	pmsis_l1_malloc_free(l1, L1_SIZE);
	pi_l2_free(out, WIDTH * sizeof(int32_t));
	pi_l2_free(bias, WIDTH);
	pi_l2_free(a, ROWS * WIDTH);
}

DFZ_DROPIN_MAIN(body, NULL)
