/* SPDX-License-Identifier: MIT */
/*
 * The test body of the scale-bias-ReLU layer: the tensors in the
 * cluster's main memory, the layer run on the cluster's nine cores, the
 * output checked against a reference on the host. Built with
 * relu_db_fixed.c, relu_db_nowait.c or relu_db_waitin.c.
 */
#include <snrt.h>
#include <dmafuzz/dropin.h>

#include "layer.h"

static void body(void *arg)
{
	relu_args_t a = { snrt_l3alloc(ROWS * COLS * 4),
			  snrt_l3alloc(ROWS * COLS * 4), snrt_l3alloc(ROWS * 4),
			  snrt_l3alloc(ROWS * 4) };
	int bad = -1;

	(void)arg;
	for (int i = 0; i < ROWS * COLS; i++) {
		a.x[i] = (i * 37) % 201 - 100;
		a.y[i] = -1;
	}
	for (int r = 0; r < ROWS; r++) {
		a.scale[r] = r % 5 + 1;
		a.bias[r] = r * 3 - 40;
	}
	dfz_snrt_spmd(relu_layer, &a);
	for (int i = 0; i < ROWS * COLS && bad < 0; i++) {
		int32_t v = a.x[i] * a.scale[i / COLS] + a.bias[i / COLS];

		if (a.y[i] != (v > 0 ? v : 0))
			bad = i;
	}
	DFZ_DROPIN_CHECK(bad < 0); /* dfz-expect: CHECK */
}

DFZ_DROPIN_MAIN(body, NULL)
