/* SPDX-License-Identifier: MIT */
/*
 * A double-buffered AXPY in the shape of the Snitch runtime's BLAS/DNN
 * kernels (written here from the structure of sw/blas and sw/dnn, not
 * copied): every core runs it; the buffers are laid out by hand from
 * snrt_l1_next(); iteration i is a software pipeline in which the DM core
 * stores tile i - 2 and loads the x and y tiles of tile i, each a 2-D
 * transfer of TILE_R lines, then waits for all of them with
 * snrt_dma_wait_all(), while the compute cores work on tile i - 1; a
 * cluster barrier ends the iteration.
 *
 * IDS VARIANT: the DM core keeps the id of each transfer it starts and
 * waits on each (snrt_dma_wait(), the runtime from snitch_cluster #153
 * on), instead of snrt_dma_wait_all(). Right with exact ids; with iDMA's
 * ids handed out at the push the loads started behind the store's 2-D
 * transfer get the store's id, and the waits return with them in flight.
 */
#include <snrt.h>

#include "axpy.h"

static void axpy_rows(int32_t alpha, const int32_t *x, const int32_t *y,
		      int32_t *z)
{
	uint32_t r = snrt_cluster_core_idx();

	for (uint32_t c = 0; c < TILE_C; c++)
		z[r * TILE_C + c] = alpha * x[r * TILE_C + c] +
				    y[r * TILE_C + c]; /* dfz-expect: READ */
}

void axpy_db(void *args)
{
	axpy_args_t *a = args;
	int32_t *x[2], *y[2], *z[2];

	x[0] = snrt_l1_next();
	for (int b = 0; b < 2; b++) {
		if (b)
			x[1] = z[0] + TILE_R * TILE_C;
		y[b] = x[b] + TILE_R * TILE_C;
		z[b] = y[b] + TILE_R * TILE_C;
	}

	for (int i = 0; i < N_TILES + 2; i++) {
		int dma_in = i, comp = i - 1, dma_out = i - 2;

		if (snrt_is_dm_core()) {
			snrt_dma_txid_t t_z = 0, t_x = 0, t_y = 0;

			if (dma_out >= 0)
				t_z = snrt_dma_start_2d(axpy_tile(a->z, dma_out),
						  z[dma_out % 2],
						  TILE_C * sizeof(int32_t),
						  ROW_BYTES,
						  TILE_C * sizeof(int32_t),
						  TILE_R);
			if (dma_in < N_TILES) {
				t_x = snrt_dma_start_2d(x[dma_in % 2],
						  axpy_tile(a->x, dma_in),
						  TILE_C * sizeof(int32_t),
						  TILE_C * sizeof(int32_t),
						  ROW_BYTES, TILE_R);
				t_y = snrt_dma_start_2d(y[dma_in % 2],
						  axpy_tile(a->y, dma_in),
						  TILE_C * sizeof(int32_t),
						  TILE_C * sizeof(int32_t),
						  ROW_BYTES, TILE_R);
			}
			if (dma_out >= 0)
				snrt_dma_wait(t_z); /* dfz-expect: WAIT_Z */
			if (dma_in < N_TILES) {
				snrt_dma_wait(t_x); /* dfz-expect: WAIT_X */
				snrt_dma_wait(t_y); /* dfz-expect: WAIT_Y */
			}
		}
		if (snrt_is_compute_core() && comp >= 0 && comp < N_TILES)
			axpy_rows(a->alpha, x[comp % 2], y[comp % 2],
				  z[comp % 2]);
		snrt_fpu_fence();
		snrt_cluster_hw_barrier();
	}
}
