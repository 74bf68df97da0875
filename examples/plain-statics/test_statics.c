/* SPDX-License-Identifier: MIT */
/*
 * The test body of plain-statics: what the loads brought into L1 must be
 * what the fabric controller reads from the sources. Built with
 * statics.c (clean: statics and stacks are chip memory) or statics_heap.c
 * (dma.bad-address: a source on the host's heap). Every run starts from
 * the statics as the program was loaded: the flag set by the run before
 * is clear again.
 */
#include <pmsis.h>
#include <dmafuzz/dropin.h>

#include "statics.h"

static int ran;

static void body(void *arg)
{
	(void)arg;
	DFZ_DROPIN_CHECK(ran == 0);
	ran = 1;
	DFZ_DROPIN_CHECK(load_sums() == cpu_sums());
}

DFZ_DROPIN_MAIN(body, NULL)
