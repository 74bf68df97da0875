/* SPDX-License-Identifier: MIT */
/*
 * The test body: the weights' sum (9) through the L2 -> L1 load. The
 * statics are at the start of L2 and L1 (the drop-in's link flags), so the
 * cluster DMA moves them like any L2/L1 buffer. Built with weights.c
 * (flagged: the kernel reads the load before any wait) or weights_fixed.c.
 */
#include <pmsis.h>
#include <dmafuzz/dropin.h>

#include "weights.h"

static void body(void *arg)
{
	(void)arg;
	DFZ_DROPIN_CHECK(sum_weights() == 9);
}

DFZ_DROPIN_MAIN(body, NULL)
