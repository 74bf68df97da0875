/* SPDX-License-Identifier: MIT */
/*
 * The same loads but one, whose source is the host's heap (malloc): no
 * chip memory holds it, so the cluster DMA refuses it (dma.bad-address at
 * its line). On the chip such a buffer would be pi_l2_malloc's.
 */
#include <stdlib.h>

#include <pmsis.h>

#include "statics.h"

int8_t coeffs[N] = { 3, -1, 4, -1, 5, -9, 2, 6, 5, 3, -5, 8, 9, -7, 9, 3 };

static int32_t sum8(const int8_t *p, int n)
{
	int32_t s = 0;

	for (int i = 0; i < n; i++)
		s += p[i];
	return s;
}

int32_t load_sums(void)
{
	int8_t *l1 = pi_cl_l1_malloc(NULL, N);
	int8_t *heap = malloc(N);
	pi_cl_dma_cmd_t cmd;
	int32_t s;

	for (int i = 0; i < N; i++)
		heap[i] = coeffs[i];
	pi_cl_dma_cmd((uint32_t)(uintptr_t)heap, (uint32_t)l1, N, PI_CL_DMA_DIR_EXT2LOC, &cmd); /* dfz-expect: HEAP */
	pi_cl_dma_cmd_wait(&cmd);
	s = sum8(l1, N);
	free(heap);
	pi_cl_l1_free(NULL, l1, N);
	return s;
}

int32_t cpu_sums(void)
{
	return sum8(coeffs, N);
}
