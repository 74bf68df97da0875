/* SPDX-License-Identifier: MIT */
/*
 * One memory fault a PULP program makes, per build: the fault table of
 * docs/porting/sanitizer.md. Each variant file defines FAULT and includes
 * this one; FAULT 0 (fixed.c) makes none of them and is clean. The
 * buffers are what a tiled kernel has: a 4096-byte L2 block, a 1024-byte
 * L1 block, a 4096-byte L3 block, and a PI_L2 table of 64 words next to
 * another one. Our own writing.
 *
 * DMA faults (found at the call, every build):
 *   1 pi_cl_ram_copy L2 -> L3 of 4096 bytes from offset 100 of the L2 block
 *   2 pi_cl_ram_copy L3 -> L2 of 4096 bytes from offset 4000 of the L3 block
 *   3 pi_cl_ram_copy L2 -> L3 into offset 100 of the L3 block (writes past)
 *   4 a DMA from the L3 block after cl_ram_free
 *   5 a DMA from the L2 block after pi_l2_free
 *   6 the cluster DMA L1 -> L2 of 1024 bytes from offset 64 of the L1 block
 *   7 the cluster DMA L2 -> L1 into the L1 block after pmsis_l1_malloc_free
 *   8 the cluster DMA of 64 words from the 33rd word of a PI_L2 table
 *   9 pi_cl_ram_copy_2d L3 -> L2 whose last row runs past the L3 block
 * CPU faults (ASan and valgrind builds; a plain build cannot see a load):
 *  10 a read one past the end of the L2 block
 *  11 a read of the L2 block after pi_l2_free
 *  12 a read one past the end of the L1 block
 *  13 a read of the L1 block after pmsis_l1_malloc_free
 * Allocator misuse:
 *  14 pi_l2_free of the L2 block twice
 * Bytes never written (fresh blocks hold the fill pattern; valgrind sees
 * them undefined):
 *  15 a tile loaded from a second L3 block no one wrote, then summed
 *  16 the cluster DMA stores an L1 output the kernel never wrote
 *  17 an L1 accumulator never cleared: acc[i] += in[i], stored and checked
 */
#include <pmsis.h>
#include <bsp/ram.h>
#include <dmafuzz/dropin.h>

#ifndef FAULT
#define FAULT 0
#endif

#define L2_N 4096
#define L1_N 1024
#define L3_N 4096
#define WORDS 64

PI_L2 uint32_t table_a[WORDS];
PI_L2 uint32_t table_b[WORDS];
volatile uint8_t sink;

static void ram_copy(uint32_t l3, void *l2, uint32_t n, int ext2loc)
{
	pi_cl_ram_req_t req;

	pi_cl_ram_copy(get_ram_ptr(), l3, l2, n, ext2loc, &req); /* dfz-expect: RAM */
	pi_cl_ram_copy_wait(&req);
}

static void cl_dma(void *l2, void *l1, uint32_t n, int dir)
{
	pi_cl_dma_cmd_t cmd;

	pi_cl_dma_cmd((uint32_t)l2, (uint32_t)l1, n, dir, &cmd); /* dfz-expect: DMA */
	pi_cl_dma_cmd_wait(&cmd);
}

static void dma_faults(uint8_t *l2, uint8_t *l1, uint32_t l3)
{
	switch (FAULT) {
	case 1: ram_copy(l3, l2 + 100, L2_N, 0); break;
	case 2: ram_copy(l3 + 4000, l2, L2_N, 1); break;
	case 3: ram_copy(l3 + 100, l2, L3_N, 0); break;
	case 6: cl_dma(l2, l1 + 64, L1_N, PI_CL_DMA_DIR_LOC2EXT); break;
	case 8: cl_dma(&table_a[33], l1, WORDS * 4, PI_CL_DMA_DIR_EXT2LOC); break;
	case 9: {
		pi_cl_ram_req_t req;

		/* 8 rows of 512 bytes, 520 apart: the last ends at 4152. */
		pi_cl_ram_copy_2d(get_ram_ptr(), l3, l2, 8 * 512, 520, 512, 1, &req); /* dfz-expect: RAM2D */
		pi_cl_ram_copy_wait(&req);
		break;
	}
	default: break;
	}
}

static void cpu_faults(uint8_t *l2, uint8_t *l1)
{
	switch (FAULT) {
	case 10: sink = l2[L2_N]; break;        /* dfz-expect: CPU_L2 */
	case 12: sink = l1[L1_N]; break;        /* dfz-expect: CPU_L1 */
	default: break;
	}
}

/* Faults 15-17: @l2 holds 256 known bytes, @l1 is free for a result. */
static void undefined_faults(uint8_t *l2, uint8_t *l1)
{
	uint32_t sum = 0, want = 0;

	if (FAULT == 15) {
		uint32_t fresh = (uint32_t)cl_ram_malloc(256);

		ram_copy(fresh, l2, 256, 1);
		for (unsigned i = 0; i < 256; i++)
			sum += l2[i];
		DFZ_DROPIN_CHECK(sum != 12345);   /* dfz-expect: SUM */
		cl_ram_free((void *)(uintptr_t)fresh, 256);
	}
	if (FAULT == 16 || FAULT == 17) {
		uint8_t *acc = pmsis_l1_malloc(256); /* dfz-expect: ACC */

		for (unsigned i = 0; i < 256 && FAULT == 17; i++) {
			acc[i] = (uint8_t)(acc[i] + l1[i]);
			want += l1[i];
		}
		cl_dma(l2, acc, 256, PI_CL_DMA_DIR_LOC2EXT);
		for (unsigned i = 0; i < 256; i++)
			sum += l2[i];
		DFZ_DROPIN_CHECK(sum == want || FAULT == 16); /* dfz-expect: CHECK */
		pmsis_l1_malloc_free(acc, 256);
	}
}

static void body(void *arg)
{
	uint8_t *l2 = pi_l2_malloc(L2_N);         /* dfz-expect: ALLOC_L2 */
	uint8_t *l1 = pmsis_l1_malloc(L1_N);      /* dfz-expect: ALLOC_L1 */
	uint32_t l3 = (uint32_t)cl_ram_malloc(L3_N); /* dfz-expect: ALLOC_L3 */

	(void)arg;
	for (unsigned i = 0; i < L2_N; i++)
		l2[i] = (uint8_t)(i * 7 + 1);
	for (unsigned i = 0; i < WORDS; i++)
		table_a[i] = table_b[i] = i;
	ram_copy(l3, l2, L3_N, 0);                /* fills the L3 block */
	cl_dma(l2, l1, L1_N, PI_CL_DMA_DIR_EXT2LOC); /* and the L1 block */
	dma_faults(l2, l1, l3);
	cpu_faults(l2, l1);
	undefined_faults(l2, l1);
	if (FAULT == 4) {
		cl_ram_free((void *)(uintptr_t)l3, L3_N); /* dfz-expect: FREE_L3 */
		ram_copy(l3, l2, L3_N, 1);
		return;
	}
	if (FAULT == 7 || FAULT == 13) {
		pmsis_l1_malloc_free(l1, L1_N);   /* dfz-expect: FREE_L1 */
		if (FAULT == 7)
			cl_dma(l2, l1, L1_N, PI_CL_DMA_DIR_EXT2LOC);
		else
			sink = l1[8];             /* dfz-expect: UAF_L1 */
		l1 = NULL;
	}
	if (FAULT == 5 || FAULT == 11 || FAULT == 14) {
		pi_l2_free(l2, L2_N);             /* dfz-expect: FREE_L2 */
		if (FAULT == 5)
			ram_copy(l3, l2, 64, 0);
		else if (FAULT == 11)
			sink = l2[8];             /* dfz-expect: UAF_L2 */
		else
			pi_l2_free(l2, L2_N);     /* dfz-expect: FREE2 */
		l2 = NULL;
	}
	cl_ram_free((void *)(uintptr_t)l3, L3_N);
	if (l1)
		pmsis_l1_malloc_free(l1, L1_N);
	if (l2)
		pi_l2_free(l2, L2_N);
}

DFZ_DROPIN_MAIN(body, NULL)
