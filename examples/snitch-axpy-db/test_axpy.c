/* SPDX-License-Identifier: MIT */
/*
 * The test body of the double-buffered AXPY: x, y and z in the cluster's
 * main memory, the kernel run on the cluster's nine cores, z checked
 * against the host's own sum. Built with axpy_db.c (the runtime's
 * snrt_dma_wait_all()) or axpy_db_ids.c (a wait per transfer id).
 */
#include <snrt.h>
#include <dmafuzz/dropin.h>

#include "axpy.h"

static void body(void *arg)
{
	axpy_args_t a = { 3, snrt_l3alloc(ROWS * COLS * 4),
			  snrt_l3alloc(ROWS * COLS * 4),
			  snrt_l3alloc(ROWS * COLS * 4) };
	int bad = -1;

	(void)arg;
	for (int i = 0; i < ROWS * COLS; i++) {
		a.x[i] = (i * 37) % 201 - 100;
		a.y[i] = (i * 11) % 97;
		a.z[i] = -1;
	}
	dfz_snrt_spmd(axpy_db, &a);
	for (int i = 0; i < ROWS * COLS && bad < 0; i++)
		if (a.z[i] != a.alpha * a.x[i] + a.y[i])
			bad = i;
	DFZ_DROPIN_CHECK(bad < 0); /* dfz-expect: CHECK */
}

DFZ_DROPIN_MAIN(body, NULL)
