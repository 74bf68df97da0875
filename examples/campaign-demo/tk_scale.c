/* SPDX-License-Identifier: MIT */
/*
 * tk_scale(): the team scales an int8 L2 vector into another, tile by
 * tile, through two L1 input and two L1 output buffers on the cluster
 * DMA. Core 0 waits for a tile's load, starts the next one, and waits for
 * the write-back that last read the output buffer, all before the
 * barrier that lets the team compute the tile; after the next barrier it
 * writes the tile back.
 */
#include <pmsis.h>

#include "tilekit.h"

struct sc_job {
	int8_t *dst;
	const int8_t *src;
	uint32_t ntiles;
	int8_t mul;
	unsigned shift;
	int8_t *in[2], *out[2];          /* L1 buffers */
	pi_cl_dma_cmd_t rd[2], wb[2];    /* each buffer's transfer */
};

/* Core 0: load tile @t into input buffer @t % 2. */
static void load_tile(struct sc_job *j, uint32_t t)
{
	pi_cl_dma_cmd((uint32_t)(j->src + t * TK_TILE), (uint32_t)j->in[t % 2], TK_TILE, PI_CL_DMA_DIR_EXT2LOC, &j->rd[t % 2]);
}

static void sc_core(void *arg)
{
	struct sc_job *j = arg;
	unsigned core = pi_core_id();
	uint32_t lo, hi;

	tk_slice(core, pi_cl_team_nb_cores(), TK_TILE, &lo, &hi);
	for (uint32_t t = 0; t < j->ntiles; t++) {
		unsigned p = t % 2;

		if (core == 0) {
			pi_cl_dma_cmd_wait(&j->rd[p]);
			if (t + 1 < j->ntiles)
				load_tile(j, t + 1);
			if (t >= 2)
				pi_cl_dma_cmd_wait(&j->wb[p]);
		}
		pi_cl_team_barrier();
		for (uint32_t i = lo; i < hi; i++)
			j->out[p][i] = tk_sat8((j->in[p][i] * j->mul) >> j->shift);
		pi_cl_team_barrier();
		if (core == 0)
			pi_cl_dma_cmd((uint32_t)(j->dst + t * TK_TILE), (uint32_t)j->out[p], TK_TILE, PI_CL_DMA_DIR_LOC2EXT, &j->wb[p]);
	}
	if (core == 0) {
		for (uint32_t t = j->ntiles > 2 ? j->ntiles - 2 : 0; t < j->ntiles; t++)
			pi_cl_dma_cmd_wait(&j->wb[t % 2]);
	}
}

void tk_scale(int8_t *dst, const int8_t *src, uint32_t n, int8_t mul,
	      unsigned shift)
{
	struct sc_job j = { .dst = dst, .src = src, .ntiles = n / TK_TILE,
			    .mul = mul, .shift = shift };

	for (unsigned p = 0; p < 2; p++) {
		j.in[p] = pmsis_l1_malloc(TK_TILE);
		j.out[p] = pmsis_l1_malloc(TK_TILE);
	}
	load_tile(&j, 0);
	pi_cl_team_fork(pi_cl_cluster_nb_cores(), sc_core, &j);
	for (unsigned p = 0; p < 2; p++) {
		pmsis_l1_malloc_free(j.out[p], TK_TILE);
		pmsis_l1_malloc_free(j.in[p], TK_TILE);
	}
}
