/* SPDX-License-Identifier: MIT */
/*
 * The test body: a 8x32 matrix and a bias row in L2, tile_sum() over its
 * left 16 columns in L1, checked against the sum computed here. Built
 * with kernel.c (flagged) or kernel_fixed.c (clean), with dma.c and the
 * register-level mchan.h next to it.
 */
#include <pmsis.h>
#include <dmafuzz/dropin.h>

#define ROWS 8
#define W 16
#define COLS 32

uint32_t tile_sum(uint8_t *l1, const uint8_t *mat, const uint8_t *bias);

static void body(void *arg)
{
	uint8_t *mat = pi_l2_malloc(ROWS * COLS), *bias = pi_l2_malloc(W);
	uint8_t *l1 = pmsis_l1_malloc(W + ROWS * W);
	uint32_t want = 0;

	(void)arg;
	for (int i = 0; i < ROWS * COLS; i++)
		mat[i] = (uint8_t)(i * 7 + 1);
	for (int c = 0; c < W; c++)
		bias[c] = (uint8_t)(c + 3);
	for (int r = 0; r < ROWS; r++)
		for (int c = 0; c < W; c++)
			want += (uint32_t)mat[r * COLS + c] + bias[c];
	DFZ_DROPIN_CHECK(tile_sum(l1, mat, bias) == want);
	pmsis_l1_malloc_free(l1, W + ROWS * W);
	pi_l2_free(bias, W);
	pi_l2_free(mat, ROWS * COLS);
}

DFZ_DROPIN_MAIN(body, NULL)
