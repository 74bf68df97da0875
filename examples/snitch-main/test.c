/* SPDX-License-Identifier: MIT */
/*
 * A Snitch test program with its own main, in the shape of the Snitch
 * runtime's DMA tests: every core runs main; the DM core copies a global
 * table into the TCDM and back out into a second global, the compute
 * cores check the TCDM copy between two cluster barriers, and main
 * returns the number of errors each core saw (the runtime ORs them into
 * the exit code). Built with pkg-config dmafuzz-dropin-snrt-main, nothing
 * else: the program's main is the test body, run on all nine cores.
 * test_nowait.c builds it with NOWAIT: the DM core's first wait left out,
 * so the cores read the TCDM and the store reads it while the load may
 * still be in flight.
 */
#include <snrt.h>

#define N 256

static uint32_t table[N];
static uint32_t back[N];

static void fill(void)
{
	for (uint32_t i = 0; i < N; i++)
		table[i] = i * 2654435761u;
}

int main(void)
{
	uint32_t *tcdm = (uint32_t *)snrt_l1_next();
	unsigned errors = 0;

	if (snrt_is_dm_core()) {
		fill();
		snrt_dma_start_1d(tcdm, table, sizeof(table)); /* dfz-expect: LOAD */
#ifndef NOWAIT
		snrt_dma_wait_all();
#endif
	}
	snrt_cluster_hw_barrier();
	if (snrt_is_compute_core()) {
		unsigned me = snrt_cluster_core_idx();

		for (uint32_t i = me; i < N; i += 8)
			errors += tcdm[i] != i * 2654435761u; /* dfz-expect: READ */
	}
	snrt_cluster_hw_barrier();
	if (snrt_is_dm_core()) {
		snrt_dma_start_1d(back, tcdm, sizeof(back)); /* dfz-expect: STORE */
		snrt_dma_wait_all();
		for (uint32_t i = 0; i < N; i++)
			errors += back[i] != table[i];
	}
	return (int)errors;
}
