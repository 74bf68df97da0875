/* SPDX-License-Identifier: MIT */
/*
 * A single-buffered L3 tiling closure in the shape Deeploy's PULPOpen
 * target generates (written here from the structure of its L3Dma,
 * AnydimAsyncDmaTransferAdapter and single-buffering templates, not
 * copied): a Transpose node, NCHW -> NHWC, int8, its tensors in L3 and its
 * tiles in L2. Each tile transfer is rank 3; the engine's kernel is 2-D
 * (pi_cl_ram_copy_2d), so the outermost dimension becomes a loop with one
 * 2-D copy per index, all on the tensor's future, and one guarded wait
 * after the loop. The kernel runs on the cluster's cores.
 */
#include <pmsis.h>
#include <bsp/ram.h>

#include "closure.h"

static void transpose_kernel(void *_args)
{
	transpose_tile_args_t *args = _args;
	uint32_t n = args->th * args->tw;
	uint32_t chunk = (n + pi_cl_cluster_nb_cores() - 1) / pi_cl_cluster_nb_cores();
	uint32_t lo = pi_core_id() * chunk;
	uint32_t hi = lo + chunk < n ? lo + chunk : n;

	for (uint32_t p = lo; p < hi; p++)
		for (uint32_t c = 0; c < args->tc; c++)
			args->out[p * args->tc + c] = args->in[c * n + p];
}

void _closure_Transpose_0(void *_args)
{
	closure_args_t *args = _args;
	void *data_in = args->data_in;       /* L3 */
	void *data_out = args->data_out;     /* L3 */
	int8_t *in_l2 = args->tile_in;       /* L2 */
	int8_t *out_l2 = args->tile_out;     /* L2 */
	pi_cl_ram_req_t data_in_future = {0};
	pi_cl_ram_req_t data_out_future = {0};

	for (int TILING_I = 0; TILING_I < NUM_TILES; TILING_I++) {
		const uint32_t c0 = TILE_C * (TILING_I / (TILES_H * TILES_W));
		const uint32_t h0 = TILE_H * (TILING_I / TILES_W % TILES_H);
		const uint32_t w0 = TILE_W * (TILING_I % TILES_W);
		void *in_tile = (void *)data_in + (c0 * DIM_H + h0) * DIM_W + w0;
		void *out_tile = (void *)data_out + (h0 * DIM_W + w0) * DIM_C + c0;
		transpose_tile_args_t kargs = { in_l2, out_l2, TILE_C, TILE_H, TILE_W };

		// IMPORT TILE in_l2 from data_in
		for (uint32_t i_0 = 0; i_0 < TILE_C; i_0++) {
			const uint32_t ext_offset = i_0 * (DIM_H * DIM_W);
			const uint32_t loc_offset = i_0 * (TILE_H * TILE_W);
			void *const local_buffer_offsetted = (void *)in_l2 + loc_offset;
			void *const external_buffer_offsetted = (void *)in_tile + ext_offset;
			pi_cl_ram_copy_2d(get_ram_ptr(), external_buffer_offsetted, local_buffer_offsetted, TILE_H * TILE_W, DIM_W, TILE_W, 1, &data_in_future); /* dfz-expect: AT */
		}
		if (data_in_future.size != 0) {
			pi_cl_ram_copy_wait(&data_in_future);
			data_in_future.size = 0;
		}

		pi_cl_team_fork(NUM_CORES, transpose_kernel, &kargs);

		// EXPORT TILE out_l2 to data_out
		for (uint32_t i_0 = 0; i_0 < TILE_H; i_0++) {
			const uint32_t ext_offset = i_0 * (DIM_W * DIM_C);
			const uint32_t loc_offset = i_0 * (TILE_W * TILE_C);
			void *const local_buffer_offsetted = (void *)out_l2 + loc_offset;
			void *const external_buffer_offsetted = (void *)out_tile + ext_offset;
			pi_cl_ram_copy_2d(get_ram_ptr(), external_buffer_offsetted,
					  local_buffer_offsetted, TILE_W * TILE_C, DIM_C,
					  TILE_C, 0, &data_out_future);
		}
		if (data_out_future.size != 0) {
			pi_cl_ram_copy_wait(&data_out_future);
			data_out_future.size = 0;
		}
	}
}
