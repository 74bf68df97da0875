/* SPDX-License-Identifier: MIT */
/*
 * Loads over the cluster DMA from memory the program never allocated, as
 * PULP code does on the chip: a global array and a const table (the
 * program's statics are L2), an array on the fabric controller's stack
 * (L2 too), and on each core of a team an array on its own stack (L1,
 * the TCDM). Each load is waited before its bytes are read.
 */
#include <pmsis.h>

#include "statics.h"

int8_t coeffs[N] = { 3, -1, 4, -1, 5, -9, 2, 6, 5, 3, -5, 8, 9, -7, 9, 3 };
static const uint8_t lut[N] = { 1, 2, 4, 8, 16, 32, 64, 128, 3, 5, 7, 11 };
static int8_t out[N];           /* .bss: the write-back's destination */
static int32_t core_sum[CORES];

static int32_t sum8(const int8_t *p, int n)
{
	int32_t s = 0;

	for (int i = 0; i < n; i++)
		s += p[i];
	return s;
}

/* @n bytes from L2 at @ext into L1 at @loc (or back with @dir), waited. */
static void load(const void *ext, void *loc, int n, int dir)
{
	pi_cl_dma_cmd_t cmd;

	pi_cl_dma_cmd((uint32_t)ext, (uint32_t)loc, n, dir, &cmd);
	pi_cl_dma_cmd_wait(&cmd);
}

/* Each core: its slice of the global array into its own stack. */
static void core_load(void *arg)
{
	int8_t mine[N / CORES];
	int id = pi_core_id();

	(void)arg;
	load(&coeffs[id * (N / CORES)], mine, N / CORES, PI_CL_DMA_DIR_EXT2LOC);
	core_sum[id] = sum8(mine, N / CORES);
}

int32_t load_sums(void)
{
	int8_t *l1 = pi_cl_l1_malloc(NULL, N);
	int8_t on_fc[N];
	int32_t s = 0;

	for (int i = 0; i < N; i++)
		on_fc[i] = (int8_t)(i * 5 - 7);
	load(coeffs, l1, N, PI_CL_DMA_DIR_EXT2LOC);       /* .data */
	load(out, l1, N, PI_CL_DMA_DIR_LOC2EXT);          /* into .bss */
	s += sum8(out, N);
	load(lut, l1, N, PI_CL_DMA_DIR_EXT2LOC);          /* .rodata */
	s += sum8(l1, N);
	load(on_fc, l1, N, PI_CL_DMA_DIR_EXT2LOC);        /* the FC's stack */
	s += sum8(l1, N);
	pi_cl_team_fork(CORES, core_load, NULL);          /* the cores' */
	for (int c = 0; c < CORES; c++)
		s += core_sum[c];
	pi_cl_l1_free(NULL, l1, N);
	return s;
}

int32_t cpu_sums(void)
{
	int32_t s = 2 * sum8(coeffs, N) + sum8((const int8_t *)lut, N);

	for (int i = 0; i < N; i++)
		s += (int8_t)(i * 5 - 7);
	return s;
}
