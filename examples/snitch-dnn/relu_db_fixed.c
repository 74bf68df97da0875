/* SPDX-License-Identifier: MIT */
/*
 * A double-buffered scale-bias-ReLU layer in the shape of the Snitch
 * runtime's BLAS/DNN kernels (written here from the structure of
 * sw/blas/gemm and sw/dnn at the commit Deeploy pins and at HEAD, not
 * copied): every core runs it; the buffers are laid out by hand from
 * snrt_l1_next(); iteration i is a software pipeline in which the DM core
 * stores tile i - 2 and loads tile i, then waits for both, while the
 * compute cores work on tile i - 1; a cluster barrier ends the iteration.
 *
 * FIXED VARIANT: the DM core waits for every transfer it issued in the
 * iteration before it joins the barrier.
 */
#include <snrt.h>

#include "layer.h"

#define TILE_BYTES (TILE_R * TILE_C * sizeof(int32_t))

static void relu_tile(const int32_t *in, int32_t *out, const int32_t *scale,
		      const int32_t *bias, uint32_t row0)
{
	uint32_t r = snrt_cluster_core_idx();

	for (uint32_t c = 0; c < TILE_C; c++) {
		int32_t v = in[r * TILE_C + c] * scale[row0 + r] +
			    bias[row0 + r];

		out[r * TILE_C + c] = v > 0 ? v : 0;
	}
}

void relu_layer(void *args)
{
	relu_args_t *a = args;
	int32_t *base = snrt_l1_next();
	int32_t *scale = base, *bias = base + ROWS;
	int32_t *in[2], *out[2];

	in[0] = bias + ROWS;
	in[1] = in[0] + TILE_R * TILE_C;
	out[0] = in[1] + TILE_R * TILE_C;
	out[1] = out[0] + TILE_R * TILE_C;

	if (snrt_is_dm_core()) {
		snrt_dma_start_1d(scale, a->scale, ROWS * sizeof(int32_t));
		snrt_dma_start_1d(bias, a->bias, ROWS * sizeof(int32_t));
		snrt_dma_wait_all();
	}
	snrt_cluster_hw_barrier();

	for (int i = 0; i < N_TILES + 2; i++) {
		int dma_in = i, comp = i - 1, dma_out = i - 2;

		if (snrt_is_dm_core()) {
			if (dma_out >= 0)
				snrt_dma_store_2d_tile(a->y, out[dma_out % 2],
						       dma_out / (COLS / TILE_C),
						       dma_out % (COLS / TILE_C),
						       TILE_R, TILE_C, COLS,
						       sizeof(int32_t));
			if (dma_in < N_TILES)
				snrt_dma_load_2d_tile(in[dma_in % 2], a->x,
						      dma_in / (COLS / TILE_C),
						      dma_in % (COLS / TILE_C),
						      TILE_R, TILE_C, COLS,
						      sizeof(int32_t));
			snrt_dma_wait_all();
		}
		if (snrt_is_compute_core() && comp >= 0 && comp < N_TILES)
			relu_tile(in[comp % 2], out[comp % 2], scale, bias,
				  comp / (COLS / TILE_C) * TILE_R);
		snrt_fpu_fence();
		snrt_cluster_hw_barrier();
	}
}
