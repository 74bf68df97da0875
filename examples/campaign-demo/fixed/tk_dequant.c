/* SPDX-License-Identifier: MIT */
/*
 * tk_dequant() fixed: core 0 waits for the write-back that still reads an
 * output buffer before the barrier that lets the team write it again.
 * Otherwise ../tk_dequant.c.
 */
#include <pmsis.h>
#include <bsp/ram.h>

#include "../tilekit.h"

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
			if (t >= 2)
				pi_cl_dma_cmd_wait(&j->wb[p]);
		}
		pi_cl_team_barrier();
		for (uint32_t i = lo; i < hi; i++)
			j->out[p][i] = (j->in[p][i] - j->zero) * j->scale;
		pi_cl_team_barrier();
		if (core == 0)
			pi_cl_dma_cmd((uint32_t)(j->dst + t * VALS), (uint32_t)j->out[p], TK_TILE, PI_CL_DMA_DIR_LOC2EXT, &j->wb[p]);
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
