/* SPDX-License-Identifier: MIT */
/*
 * The same closure, fixed: each transfer group is pushed whole before the
 * next id is taken. Both row blocks of A follow mchan_transfer_get_id()
 * for transfer_A, and only then is transfer_B taken for the bias, so every
 * push lands on the id the code waits for it (MCHAN sends a push to the
 * id its core allocated last). The kernel still starts on A while B is on
 * its way.
 */
#define MCHAN_VERSION 7 /* as the GAP9 build defines it */
#include <pmsis.h>
#include <mchan.h>

#include "closure.h"

void _closure_ColSumBias_0(void *_args)
{
	closure_args_t *args = _args;
	int8_t *a_l1 = (int8_t *)(args->l1 + L1_A);
	int8_t *bias_l1 = (int8_t *)(args->l1 + L1_BIAS);
	int32_t *out_l1 = (int32_t *)(args->l1 + L1_OUT);

	for (int TILING_I = 0; TILING_I < NUM_TILES; TILING_I++) {
		// Initialize DMA futures
		int transfer_A = -1;
		int transfer_B = -1;
		int transfer_out = -1;

		// IMPORT TILE a_l1 from a: first row block
		transfer_A = mchan_transfer_get_id();
		{ mchan_transfer_t __mchan_tmp = { .cmd = 1966144, .size = HALF * COLS, .loc = a_l1, .ext = (void *)(args->a + TILING_I * COLS), .ext_size_1d = COLS, .ext_stride_1d = WIDTH }; mchan_transfer_push_2d(__mchan_tmp); }
		// IMPORT TILE a_l1 from a: second row block
		{ mchan_transfer_t __mchan_tmp = { .cmd = 1966144, .size = HALF * COLS, .loc = a_l1 + HALF * COLS, .ext = (void *)(args->a + HALF * WIDTH + TILING_I * COLS), .ext_size_1d = COLS, .ext_stride_1d = WIDTH }; mchan_transfer_push_2d(__mchan_tmp); }
		// IMPORT TILE bias_l1 from bias
		transfer_B = mchan_transfer_get_id();
		{ mchan_transfer_t __mchan_tmp = { .cmd = 1441808, .size = COLS, .loc = bias_l1, .ext = (void *)(args->bias + TILING_I * COLS) }; mchan_transfer_push_1d(__mchan_tmp); }

		// Wait for A, sum its columns while B lands
		if (transfer_A >= 0) {
			mchan_transfer_wait(transfer_A);
			mchan_transfer_free(transfer_A);
		}
		for (int c = 0; c < COLS; c++) {
			int32_t acc = 0;

			for (int r = 0; r < ROWS; r++)
				acc += a_l1[r * COLS + c];
			out_l1[c] = acc;
		}

		// Wait for B, add the bias
		if (transfer_B >= 0) {
			mchan_transfer_wait(transfer_B);
			mchan_transfer_free(transfer_B);
		}
		for (int c = 0; c < COLS; c++)
			out_l1[c] += bias_l1[c];

		// EXPORT TILE out_l1 to out
		transfer_out = mchan_transfer_get_id();
		{ mchan_transfer_t __mchan_tmp = { .cmd = 1310784, .size = COLS * 4, .loc = out_l1, .ext = args->out + TILING_I * COLS }; mchan_transfer_push_1d(__mchan_tmp); }
		if (transfer_out >= 0) {
			mchan_transfer_wait(transfer_out);
			mchan_transfer_free(transfer_out);
		}
	}
}
