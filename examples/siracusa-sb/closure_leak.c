/* SPDX-License-Identifier: MIT */
/*
 * A single-buffered L2 -> L1 tiling closure in the shape Deeploy's
 * PULPOpen target generates for Siracusa with its MchanDma (written here
 * from the template's structure, not copied): per tile, a channel
 * allocated, the tile pushed as two mchan_transfer_1d under it with
 * literal command words, waited and freed; the kernel on the cluster's
 * cores; the result pushed back the same way. Its L1 buffers are PI_CL_L1
 * statics.
 *
 * LEAKING VARIANT: the channels are waited but never freed: each tile
 * takes two more of the 16 transfer counters, and the 17th allocation
 * (tile 8's import) finds none: it fails, or under mchan-stall-no-tid (the
 * MCHAN RTL and GVSoC) the core stalls there for ever.
 */
#include "pmsis.h"
#include "mchan_siracusa.h"

#include "closure.h"

PI_CL_L1 static int8_t in_l1[TILE];
PI_CL_L1 static int8_t out_l1[TILE];

static void add1_kernel(void *_args)
{
	add_args_t *args = _args;
	uint32_t chunk = (args->n + pi_cl_cluster_nb_cores() - 1) / pi_cl_cluster_nb_cores();
	uint32_t lo = pi_core_id() * chunk;
	uint32_t hi = lo + chunk < args->n ? lo + chunk : args->n;

	for (uint32_t i = lo; i < hi; i++)
		args->out[i] = (int8_t)(args->in[i] + 1);
}

void _closure_Add_0(void *_args)
{
	closure_args_t *args = _args;
	add_args_t kargs = { in_l1, out_l1, TILE };

	for (int TILING_I = 0; TILING_I < NUM_TILES; TILING_I++) {
		int8_t *in_tile = args->data_in + TILING_I * TILE;
		int8_t *out_tile = args->data_out + TILING_I * TILE;

		// IMPORT TILE in_l1 from data_in
		uint32_t channel_id_future = mchan_channel_alloc(); /* dfz-expect: ALLOC */
		mchan_transfer_1d(1441824, in_l1, in_tile);
		mchan_transfer_1d(1441824, in_l1 + 32, in_tile + 32);
		mchan_channel_wait(channel_id_future);

		pi_cl_team_fork(NUM_CORES, add1_kernel, &kargs);

		// EXPORT TILE out_l1 to data_out
		uint32_t channel_id_future_0 = mchan_channel_alloc();
		mchan_transfer_1d(1310784, out_l1, out_tile);
		mchan_channel_wait(channel_id_future_0);
	}
}
