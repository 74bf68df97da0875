/* SPDX-License-Identifier: MIT */
/*
 * A kernel that wants its L1 input 64-byte aligned (a vector load's
 * width) allocates ALIGN - 1 bytes more than it needs and rounds the
 * pointer up, as hand-written PULP kernels do; it loads a tile from L2
 * over the cluster DMA, scales it, and frees the block. Our own writing.
 * Clean as it is: it frees the pointer the allocator returned.
 *
 * ALIGNED (test_aligned.c) frees the rounded pointer instead: an interior
 * pointer of the block, which pmsis_l1_malloc_free takes for a block of
 * its own (dev.misuse at the free, naming the block it lies in and the
 * line that allocated it).
 */
#include <pmsis.h>
#include <dmafuzz/dropin.h>

#define N 96
#define ALIGN 64

static uint8_t *align_up(uint8_t *p)
{
	return (uint8_t *)(((uintptr_t)p + ALIGN - 1) & ~(uintptr_t)(ALIGN - 1));
}

static void scale(const uint8_t *src_l2, uint8_t *dst_l2)
{
	uint8_t *raw = pmsis_l1_malloc(N + ALIGN - 1); /* dfz-expect: ALLOC */
	uint8_t *in = align_up(raw);
	pi_cl_dma_cmd_t cmd;

	pi_cl_dma_cmd((uint32_t)src_l2, (uint32_t)in, N, PI_CL_DMA_DIR_EXT2LOC, &cmd);
	pi_cl_dma_cmd_wait(&cmd);
	for (int i = 0; i < N; i++)
		in[i] = (uint8_t)(in[i] * 3);
	pi_cl_dma_cmd((uint32_t)dst_l2, (uint32_t)in, N, PI_CL_DMA_DIR_LOC2EXT, &cmd);
	pi_cl_dma_cmd_wait(&cmd);
#ifdef ALIGNED
	pmsis_l1_malloc_free(in, N + ALIGN - 1); /* dfz-expect: FREE */
#else
	pmsis_l1_malloc_free(raw, N + ALIGN - 1);
#endif
}

static void body(void *arg)
{
	uint8_t *src = pi_l2_malloc(N), *dst = pi_l2_malloc(N);
	int ok = 1;

	(void)arg;
	for (int i = 0; i < N; i++)
		src[i] = (uint8_t)(i * 5 + 1);
	scale(src, dst);
	for (int i = 0; i < N; i++)
		ok &= dst[i] == (uint8_t)(src[i] * 3);
	DFZ_DROPIN_CHECK(ok);
	pi_l2_free(dst, N);
	pi_l2_free(src, N);
}

DFZ_DROPIN_MAIN(body, NULL)
