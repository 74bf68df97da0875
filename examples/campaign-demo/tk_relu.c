/* SPDX-License-Identifier: MIT */
/*
 * tk_relu(): the team clamps an int8 L3 vector at zero in place, one tile
 * at a time through a single L1 buffer: core 0 reads the tile from
 * HyperRAM and waits, the team computes between two barriers, core 0
 * writes the tile back and waits before the buffer is read into again.
 */
#include <pmsis.h>
#include <bsp/ram.h>

#include "tilekit.h"

struct relu_job {
	uint32_t buf, ntiles;
	int8_t *l1;
};

static void relu_core(void *arg)
{
	struct relu_job *j = arg;
	unsigned core = pi_core_id();
	pi_cl_ram_req_t req;
	uint32_t lo, hi;

	tk_slice(core, pi_cl_team_nb_cores(), TK_TILE, &lo, &hi);
	for (uint32_t t = 0; t < j->ntiles; t++) {
		if (core == 0) {
			pi_cl_ram_read(get_ram_ptr(), j->buf + t * TK_TILE, j->l1, TK_TILE, &req);
			pi_cl_ram_read_wait(&req);
		}
		pi_cl_team_barrier();
		for (uint32_t i = lo; i < hi; i++)
			if (j->l1[i] < 0)
				j->l1[i] = 0;
		pi_cl_team_barrier();
		if (core == 0) {
			pi_cl_ram_write(get_ram_ptr(), j->buf + t * TK_TILE, j->l1, TK_TILE, &req);
			pi_cl_ram_write_wait(&req);
		}
	}
}

void tk_relu(uint32_t buf, uint32_t n)
{
	struct relu_job j = { .buf = buf, .ntiles = n / TK_TILE };

	j.l1 = pmsis_l1_malloc(TK_TILE);
	pi_cl_team_fork(pi_cl_cluster_nb_cores(), relu_core, &j);
	pmsis_l1_malloc_free(j.l1, TK_TILE);
}
