/* SPDX-License-Identifier: MIT */
/*
 * A PMSIS program with its own main whose only statics are a const
 * coefficient table (in L2, as on the chip): the cluster DMA copies the
 * table into L1, the core scales it, and the fabric controller checks
 * the result. With clang the table is the only object of the program's
 * L2 window, whose segment the linker then makes read-only; the drop-in
 * restores the statics before every run and must not fault there. Our
 * own writing.
 */
#include "pmsis.h"

#define N 64

static const uint8_t coeff[N] = {
	1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
	17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
	33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48,
	49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64,
};

struct job {
	uint8_t *out;                /* the result, in L2 */
};

static void cluster_entry(void *arg)
{
	struct job *job = arg;
	uint8_t *l1 = pmsis_l1_malloc(N);
	pi_cl_dma_cmd_t cmd;

	pi_cl_dma_cmd((uint32_t)coeff, (uint32_t)l1, N, PI_CL_DMA_DIR_EXT2LOC,
		      &cmd);
	pi_cl_dma_cmd_wait(&cmd);
	for (int i = 0; i < N; i++)
		l1[i] = (uint8_t)(l1[i] * 2);
	pi_cl_dma_cmd((uint32_t)job->out, (uint32_t)l1, N,
		      PI_CL_DMA_DIR_LOC2EXT, &cmd);
	pi_cl_dma_cmd_wait(&cmd);
	pmsis_l1_malloc_free(l1, N);
}

static void test_entry(void)
{
	struct pi_device cluster;
	struct pi_cluster_conf conf;
	struct pi_cluster_task task;
	struct job job = { pi_l2_malloc(N) };
	int errors = 0;

	pi_cluster_conf_init(&conf);
	pi_open_from_conf(&cluster, &conf);
	if (pi_cluster_open(&cluster))
		pmsis_exit(-1);
	pi_cluster_send_task_to_cl(&cluster,
				   pi_cluster_task(&task, cluster_entry, &job));
	for (int i = 0; i < N; i++)
		errors += job.out[i] != (uint8_t)(coeff[i] * 2);
	pi_cluster_close(&cluster);
	pi_l2_free(job.out, N);
	pmsis_exit(errors);
}

int main(void)
{
	return pmsis_kickoff((void *)test_entry);
}
