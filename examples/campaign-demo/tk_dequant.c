/* SPDX-License-Identifier: MIT */
/*
 * tk_dequant(): the team widens an int8 L3 vector into int32 values in L2,
 * tile by tile. Core 0 loads the next input tile from HyperRAM into the
 * other L1 input buffer (a cluster RAM read) while the team converts the
 * current one into one of two L1 output buffers, and writes each output
 * tile back to L2 on the cluster DMA while the next one is computed.
 *
 * The bug: an output buffer is written again two tiles later, and the
 * write-back still reading it must be over first. Core 0 waits for it
 * only after the barrier that lets the team start the tile, so a core
 * that runs before core 0 there writes its slice into a buffer the DMA is
 * still copying out: the wait is missing before the buffer is reused.
 * With the cores in order (core 0 first after each barrier: the empty
 * schedule) the wait comes first and the run is clean; fixed/tk_dequant.c
 * builds this file with TK_DEQUANT_FIXED: core 0 waits before the barrier.
 */
#include <pmsis.h>
#include <bsp/ram.h>

#include "tilekit.h"

#define VALS (TK_TILE / 4) /* values of one tile */

struct dq_job {
	int32_t *dst;
	uint32_t src, ntiles;
	int8_t zero;
	int32_t scale;
	int8_t *in[2];                   /* L1 input buffers */
	int32_t *out[2];                 /* L1 output buffers */
	pi_cl_ram_req_t rd[2];           /* the load of each input buffer */
	pi_cl_dma_cmd_t wb[2];           /* the write-back of each output */
};

/* Core 0: load input tile @t into input buffer @t % 2. */
static void load_tile(struct dq_job *j, uint32_t t)
{
	pi_cl_ram_read(get_ram_ptr(), j->src + t * VALS, j->in[t % 2], VALS, &j->rd[t % 2]);
}

static void dq_core(void *arg)
{
	struct dq_job *j = arg;
	unsigned core = pi_core_id();
	uint32_t lo, hi;

	tk_slice(core, pi_cl_team_nb_cores(), VALS, &lo, &hi);
	for (uint32_t t = 0; t < j->ntiles; t++) {
		unsigned p = t % 2;

		if (core == 0) {
			pi_cl_ram_read_wait(&j->rd[p]);
			if (t + 1 < j->ntiles)
				load_tile(j, t + 1);
#ifdef TK_DEQUANT_FIXED
			if (t >= 2)
				pi_cl_dma_cmd_wait(&j->wb[p]);
#endif
		}
		pi_cl_team_barrier();
#ifndef TK_DEQUANT_FIXED
		if (core == 0 && t >= 2)
			pi_cl_dma_cmd_wait(&j->wb[p]); /* dfz-expect: WAIT (too late: the team may be writing out[p]) */
#endif
		for (uint32_t i = lo; i < hi; i++)
			j->out[p][i] = (j->in[p][i] - j->zero) * j->scale;
		pi_cl_team_barrier();
		if (core == 0)
			pi_cl_dma_cmd((uint32_t)(j->dst + t * VALS), (uint32_t)j->out[p], TK_TILE, PI_CL_DMA_DIR_LOC2EXT, &j->wb[p]); /* dfz-expect: WB */
	}
	if (core == 0) {
		for (uint32_t t = j->ntiles > 2 ? j->ntiles - 2 : 0; t < j->ntiles; t++)
			pi_cl_dma_cmd_wait(&j->wb[t % 2]);
	}
}

void tk_dequant(int32_t *dst, uint32_t src, uint32_t n, int8_t zero,
		int32_t scale)
{
	struct dq_job j = { .dst = dst, .src = src, .ntiles = n / VALS,
			    .zero = zero, .scale = scale };

	for (unsigned p = 0; p < 2; p++) {
		j.in[p] = pmsis_l1_malloc(VALS);
		j.out[p] = pmsis_l1_malloc(TK_TILE);
	}
	load_tile(&j, 0);
	pi_cl_team_fork(pi_cl_cluster_nb_cores(), dq_core, &j);
	for (unsigned p = 0; p < 2; p++) {
		pmsis_l1_malloc_free(j.out[p], TK_TILE);
		pmsis_l1_malloc_free(j.in[p], VALS);
	}
}
