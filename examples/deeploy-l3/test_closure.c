/* SPDX-License-Identifier: MIT */
/*
 * The test body of the Transpose closure: an NCHW int8 tensor in L3, the
 * closure sent to the cluster, the NHWC result read back and compared.
 * Built with closure.c (flagged) or closure_fixed.c (clean).
 */
#include <pmsis.h>
#include <bsp/ram.h>
#include <dmafuzz/dropin.h>

#include "closure.h"

#define N (DIM_C * DIM_H * DIM_W)

static void body(void *arg)
{
	static struct pi_device cluster;
	struct pi_cluster_task task;
	int8_t host_in[N], host_out[N];
	closure_args_t args = {
		.data_in = cl_ram_malloc(N),
		.data_out = cl_ram_malloc(N),
		.tile_in = pi_l2_malloc(TILE_C * TILE_H * TILE_W),
		.tile_out = pi_l2_malloc(TILE_C * TILE_H * TILE_W),
	};
	int ok = 1;

	(void)arg;
	for (int i = 0; i < N; i++)
		host_in[i] = (int8_t)(i * 7 - 50);
	dfz_dropin_l3_write((uint32_t)args.data_in, host_in, N);
	pi_cluster_send_task_to_cl(&cluster,
		pi_cluster_task(&task, _closure_Transpose_0, &args));
	dfz_dropin_l3_read((uint32_t)args.data_out, host_out, N);
	for (int c = 0; c < DIM_C; c++)
		for (int h = 0; h < DIM_H; h++)
			for (int w = 0; w < DIM_W; w++)
				ok &= host_out[(h * DIM_W + w) * DIM_C + c] ==
				      host_in[(c * DIM_H + h) * DIM_W + w];
	DFZ_DROPIN_CHECK(ok);
	pi_l2_free(args.tile_out, TILE_C * TILE_H * TILE_W);
	pi_l2_free(args.tile_in, TILE_C * TILE_H * TILE_W);
	cl_ram_free(args.data_out, N);
	cl_ram_free(args.data_in, N);
}

DFZ_DROPIN_MAIN(body, NULL)
