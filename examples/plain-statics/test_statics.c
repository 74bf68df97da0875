/* SPDX-License-Identifier: MIT */
/*
 * The test body of plain-statics: what the loads brought into L1 must be
 * what the fabric controller reads from the sources. Built with
 * statics.c (clean: statics and stacks are chip memory) or statics_heap.c
 * (dma.bad-address: a source on the host's heap).
 */
#include <pmsis.h>
#include <dmafuzz/dropin.h>

#include "statics.h"

static void body(void *arg)
{
	(void)arg;
	DFZ_DROPIN_CHECK(load_sums() == cpu_sums());
}

DFZ_DROPIN_MAIN(body, NULL)
