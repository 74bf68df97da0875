/* SPDX-License-Identifier: MIT */
/*
 * A wild DMA: the same load as statics_heap.c, aimed at the harness's own
 * state (what dfz__dropin_make() returns; user code has no business with
 * it, a test of the harness does). No chip memory holds it: the DMA is
 * dma.bad-address at its line, and the harness's state stays as it was.
 */
#include <pmsis.h>
#include <snrt.h>

#include "statics.h"

void *dfz__dropin_make(void);

int8_t coeffs[N] = { 3, -1, 4, -1, 5, -9, 2, 6, 5, 3, -5, 8, 9, -7, 9, 3 };

int32_t load_sums(void)
{
	snrt_dma_start_1d(dfz__dropin_make(), coeffs, N); /* dfz-expect: HARNESS */
	snrt_dma_wait_all();
	return 0;
}

int32_t cpu_sums(void)
{
	return 0;
}
