/* SPDX-License-Identifier: MIT */
/*
 * The test body of the Add closure: an int8 tensor in L2, the closure
 * sent to the cluster, every output byte its input plus one. Built with
 * closure.c (clean) or closure_leak.c (the counters it never frees).
 */
#include "pmsis.h"
#include <dmafuzz/dropin.h>

#include "closure.h"

#define N (TILE * NUM_TILES)

static void body(void *arg)
{
	static struct pi_device cluster;
	struct pi_cluster_task task;
	closure_args_t args = { pi_l2_malloc(N), pi_l2_malloc(N) };
	int ok = 1;

	(void)arg;
	for (int i = 0; i < N; i++)
		args.data_in[i] = (int8_t)(i * 5 - 60);
	pi_cluster_send_task_to_cl(&cluster,
		pi_cluster_task(&task, _closure_Add_0, &args));
	for (int i = 0; i < N; i++)
		ok &= args.data_out[i] == (int8_t)(args.data_in[i] + 1);
	DFZ_DROPIN_CHECK(ok);
	pi_l2_free(args.data_out, N);
	pi_l2_free(args.data_in, N);
}

DFZ_DROPIN_MAIN(body, NULL)
