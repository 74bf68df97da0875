/* SPDX-License-Identifier: MIT */
/*
 * A whole PMSIS test program with its own main, in the shape of the SDK's
 * tests (main -> pmsis_kickoff -> test_entry -> pmsis_exit): the fabric
 * controller puts a tensor in HyperRAM, brings the cluster up and sends
 * it a task; the cluster streams the tensor through two L1 buffers
 * (pi_cl_ram_read, double-buffered: the next tile's read is issued before
 * the current one is used), the team adds one to every byte, and the
 * cluster DMA writes each tile back to L2; the fabric controller checks
 * the result and exits with the number of errors. Our own writing. Built
 * with `pkg-config dmafuzz-dropin-main`, unchanged: clean.
 *
 * Two bugs, each built by a file that defines its name and includes this
 * one. REUSE (test_reuse.c): one request for the tile in use and the
 * prefetch; the next tile's read re-issues it while the current tile's
 * read is still queued on it (handle.reuse at the prefetch). EARLY
 * (test_early.c): the wait on a tile's read comes after the team used
 * the tile (an invalid read at the kernel's line under ASan and valgrind;
 * in plain builds the program's own check fails at pmsis_exit).
 */
#include "pmsis.h"
#include "bsp/bsp.h"

#define TILE 256
#define NB_TILES 8
#define SIZE (TILE * NB_TILES)

struct job {
	uint32_t l3;                 /* the input, in HyperRAM */
	uint8_t *out;                /* the result, in L2 */
};

struct tile {
	uint8_t *in;
	uint8_t *out;
};

static struct pi_device ram;
static int nb_tasks_done;

static void pe_add_one(void *arg)
{
	struct tile *t = arg;
	int chunk = TILE / pi_cl_team_nb_cores();
	int lo = pi_core_id() * chunk;

	for (int i = lo; i < lo + chunk; i++)
		t->out[i] = (uint8_t)(t->in[i] + 1); /* dfz-expect: READ */
	pi_cl_team_barrier();
}

static void cluster_entry(void *arg)
{
	struct job *job = arg;
	uint8_t *in[2] = { pmsis_l1_malloc(TILE), pmsis_l1_malloc(TILE) };
	uint8_t *out = pmsis_l1_malloc(TILE);
	pi_cl_ram_req_t req[2];
	pi_cl_dma_cmd_t cmd;
#ifdef REUSE
#define REQ(i) (&req[0])
#else
#define REQ(i) (&req[(i) % 2])
#endif

	pi_cl_ram_read(&ram, job->l3, in[0], TILE, REQ(0));
	for (int t = 0; t < NB_TILES; t++) {
		struct tile tile = { in[t % 2], out };

		if (t + 1 < NB_TILES)
			pi_cl_ram_read(&ram, job->l3 + (t + 1) * TILE, in[(t + 1) % 2], TILE, REQ(t + 1)); /* dfz-expect: AT */
#ifndef EARLY
		pi_cl_ram_read_wait(REQ(t));
#endif
		pi_cl_team_fork(pi_cl_cluster_nb_cores(), pe_add_one, &tile);
#ifdef EARLY
		pi_cl_ram_read_wait(REQ(t));
#endif
		pi_cl_dma_cmd((uint32_t)(job->out + t * TILE), (uint32_t)out, TILE, PI_CL_DMA_DIR_LOC2EXT, &cmd);
		pi_cl_dma_cmd_wait(&cmd);
	}
	pmsis_l1_malloc_free(out, TILE);
	pmsis_l1_malloc_free(in[1], TILE);
	pmsis_l1_malloc_free(in[0], TILE);
	nb_tasks_done++;
}

static int test_entry(void)
{
	struct pi_hyperram_conf conf;
	struct pi_cluster_conf cl_conf;
	struct pi_device cluster_dev;
	struct pi_cluster_task task;
	struct job job;
	uint8_t *in = pmsis_l2_malloc(SIZE);
	int errors = 0;

	printf("Entering main controller\n");
	job.out = pmsis_l2_malloc(SIZE);
	if (in == NULL || job.out == NULL)
		return -1;
	pi_hyperram_conf_init(&conf);
	pi_open_from_conf(&ram, &conf);
	if (pi_ram_open(&ram))
		return -2;
	if (pi_ram_alloc(&ram, &job.l3, SIZE))
		return -3;
	for (int i = 0; i < SIZE; i++)
		in[i] = (uint8_t)(i * 7 + 3);
	pi_ram_write(&ram, job.l3, in, SIZE);

	pi_cluster_conf_init(&cl_conf);
	pi_open_from_conf(&cluster_dev, &cl_conf);
	if (pi_cluster_open(&cluster_dev))
		return -4;
	pi_cluster_send_task_to_cl(&cluster_dev, pi_cluster_task(&task, cluster_entry, &job));
	pi_cluster_close(&cluster_dev);

	for (int i = 0; i < SIZE; i++) {
		if (job.out[i] != (uint8_t)(in[i] + 1)) {
			if (errors++ == 0)
				printf("Error at %d: expected 0x%x, got 0x%x\n", i, (uint8_t)(in[i] + 1), job.out[i]);
		}
	}
	if (nb_tasks_done != 1)
		errors++;
	pi_ram_free(&ram, job.l3, SIZE);
	pi_ram_close(&ram);
	pmsis_l2_malloc_free(job.out, SIZE);
	pmsis_l2_malloc_free(in, SIZE);
	printf("Test %s (%d errors)\n", errors ? "failure" : "success", errors);
	return errors;
}

static void test_kickoff(void *arg)
{
	int ret = test_entry();

	(void)arg;
	pmsis_exit(ret); /* dfz-expect: EXIT */
}

int main(void)
{
	return pmsis_kickoff((void *)test_kickoff);
}
