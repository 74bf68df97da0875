// SPDX-License-Identifier: MIT
/*
 * The Snitch runtime around the DMA under the drop-in: the allocators as
 * the runtime's bump pointers over one TCDM heap (the pinned names and
 * HEAD's, alloc_v2's per-core pointers), the zero memory, the cycle and
 * performance counters on virtual time, the team and sync names, the
 * tile helpers, snrt_dma_memset and the global reduction as each runtime
 * version does them, and the one-line refusal of SSR and interrupt calls.
 * Every name the drop-in gives is used here, so this file compiling at
 * the project's warnings with gcc and clang is that check.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dropin_fixture.h"
#include "dmafuzz/dropin/snrt.h"

static int want_line;
static uintptr_t got[DFZ_SNRT_CORES];
static uint32_t v[8];

/* --------------------------------------------------------------- heap */

static void body_heap(void *arg)
{
	uint8_t *a, *b;

	(void)arg;
	v[0] = (uint32_t)SNRT_TCDM_START_ADDR;
	v[1] = snrt_l1_start_addr();
	v[2] = (uint32_t)(uintptr_t)snrt_l1_next();
	a = snrt_l1alloc(10);                 /* 16 bytes: 8-byte chunks */
	b = snrt_l1_alloc(8);
	v[3] = (uint32_t)(b - a);
	v[4] = (uint32_t)(uintptr_t)snrt_l1_next() - (uint32_t)(uintptr_t)b;
	snrt_l1_update_next(a + 64);
	v[5] = (uint32_t)((uint8_t *)snrt_l1alloc(4) - a);
	v[6] = (uint32_t)SNRT_TCDM_SIZE;
	v[7] = snrt_l1_end_addr() - snrt_l1_start_addr();
	got[0] = (uintptr_t)a;
}

START_TEST(test_heap_bump)
{
	uintptr_t first;

	ck_assert_int_eq(run_with(body_heap, "").finding.cls, DFZ_CLASS_NONE);
	ck_assert_uint_ge(v[0], DFZ_DROPIN_L1_BASE);
	ck_assert_uint_lt(v[0], DFZ_DROPIN_L1_BASE + DFZ_DROPIN_L1_SIZE);
	ck_assert_uint_eq(v[1], v[0]);
	ck_assert_uint_eq(v[2], v[0]);
	ck_assert_uint_eq(got[0], v[0]);
	ck_assert_uint_eq(v[3], 16);
	ck_assert_uint_eq(v[4], 8);
	ck_assert_uint_eq(v[5], 64);
	ck_assert_uint_eq(v[6], 128u << 10);
	ck_assert_uint_eq(v[7], v[6]);
	/* The next run starts from a fresh heap. */
	first = got[0];
	ck_assert_int_eq(run_with(body_heap, "").finding.cls, DFZ_CLASS_NONE);
	ck_assert_uint_eq(got[0], first);
	ck_assert_uint_eq(v[5], 64);
}
END_TEST

static void body_heap_out(void *arg)
{
	(void)arg;
	snrt_l1alloc(1024);
	want_line = __LINE__ + 1;
	snrt_l1alloc(128u << 10);
}

START_TEST(test_heap_exhausted)
{
	struct dfz__result r = run_with(body_heap_out, "");

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_DEV_MISUSE);
	ck_assert_int_eq(r.site.line, want_line);
}
END_TEST

/* alloc_v2: every core's own pointer, advanced alike. */
static uintptr_t mine[DFZ_SNRT_CORES];

static void spmd_v2(void *arg)
{
	uint32_t me = snrt_cluster_core_idx();
	uint8_t *shared;

	(void)arg;
	shared = snrt_l1_alloc_cluster_local(24);
	mine[me] = (uintptr_t)snrt_l1_alloc_compute_core_local(16, 64);
	got[me] = (uintptr_t)shared;
	if (me == 0)
		v[0] = (uint32_t)((uintptr_t)snrt_l1_next_v2() -
				  (uintptr_t)shared);
	snrt_l1_update_next_v2(shared);
	if (snrt_l1_alloc_cluster_local(4) != shared)
		got[me] = 0;
	snrt_cluster_hw_barrier();
}

static void body_v2(void *arg)
{
	(void)arg;
	memset(got, 0, sizeof(got));
	dfz_snrt_spmd(spmd_v2, NULL);
}

START_TEST(test_heap_per_core)
{
	uintptr_t slice;

	ck_assert_int_eq(run_with(body_v2, "").finding.cls, DFZ_CLASS_NONE);
	/* shared at the heap's start on every core; each core's slice of
	 * 16 bytes after it, aligned to 64; 8 slices taken. */
	slice = (got[0] + 24 + 63) & ~(uintptr_t)63;
	for (unsigned i = 0; i < DFZ_SNRT_CORES; i++) {
		ck_assert_uint_eq(got[i], got[0]);
		ck_assert_uint_eq(mine[i], slice + 16 * i);
	}
	ck_assert_uint_eq(v[0], slice + 16 * 8 - got[0]);
}
END_TEST

/* Buffers laid out by hand from snrt_l1_next(), as the BLAS kernels do. */
static uint8_t *m_l3;

static void dm_next_layout(void *arg)
{
	uint8_t *x = snrt_l1_next(), *y = x + 64;

	(void)arg;
	if (snrt_is_dm_core()) {
		snrt_dma_start_1d(x, m_l3, 64);
		snrt_dma_start_1d(y, m_l3 + 64, 64);
		snrt_dma_wait_all();
		v[0] = same_bytes(x, m_l3, 128);
	}
	snrt_cluster_hw_barrier();
}

static void body_next_layout(void *arg)
{
	(void)arg;
	m_l3 = snrt_l3alloc(256);
	fill(m_l3, 256);
	v[0] = 0;
	v[1] = (uint32_t)(uintptr_t)snrt_l3_next() - (uint32_t)(uintptr_t)m_l3;
	dfz_snrt_spmd(dm_next_layout, NULL);
}

START_TEST(test_next_layout)
{
	ck_assert_int_eq(run_with(body_next_layout, "").finding.cls,
			 DFZ_CLASS_NONE);
	ck_assert_uint_eq(v[0], 1);
	ck_assert_uint_eq(v[1], 256);
	ck_assert_uint_ge((uintptr_t)m_l3, DFZ_DROPIN_L2_BASE);
}
END_TEST

/* ------------------------------------------- zero memory, memset, time */

static void body_zero(void *arg)
{
	uint8_t *l1 = snrt_l1alloc(256);

	(void)arg;
	memset(l1, 0x5a, 256);
	v[0] = snrt_mcycle();
	snrt_dma_start_1d(l1, (void *)snrt_zero_memory_ptr(), 256);
	snrt_dma_wait_all();
	v[1] = snrt_mcycle();
	v[2] = 1;
	for (int i = 0; i < 256; i++)
		v[2] &= l1[i] == 0;
	v[3] = (uintptr_t)snrt_cluster()->zeromem.mem ==
	       (uintptr_t)snrt_zero_memory_ptr();
	v[4] = (uintptr_t)snrt_cluster()->tcdm.mem == SNRT_TCDM_START_ADDR;
	/* Writes to the zero memory are ignored, by the DMA as on the chip. */
	memset(l1, 0x5a, 256);
	snrt_dma_start_2d((void *)snrt_zero_memory_ptr(), l1, 64, 64, 64, 4);
	snrt_dma_wait_all();
	snrt_dma_start_1d(l1 + 128, (void *)snrt_zero_memory_ptr(), 64);
	snrt_dma_wait_all();
	v[5] = snrt_zero_memory_ptr()[0] == 0 && snrt_zero_memory_ptr()[63] == 0 &&
	       l1[128] == 0 && l1[191] == 0 && l1[0] == 0x5a;
	v[6] = SNRT_TCDM_START_ADDR % 4096;
}

START_TEST(test_zero_memory_and_mcycle)
{
	ck_assert_int_eq(run_with(body_zero, "").finding.cls, DFZ_CLASS_NONE);
	ck_assert_uint_gt(v[1], v[0]);   /* the wait let time pass */
	ck_assert_uint_eq(v[2], 1);
	ck_assert_uint_eq(v[3], 1);
	ck_assert_uint_eq(v[4], 1);
	ck_assert_uint_eq(v[5], 1);
	ck_assert_uint_eq(v[6], 0);
}
END_TEST

/* The pinned memset waits for every transfer: an earlier load then
 * needs no wait of its own. HEAD's waits only when it uses the DMA. */
static uint32_t memset_len;

static void body_memset(void *arg)
{
	uint8_t *l1 = snrt_l1alloc(512), *l3 = snrt_l3alloc(256);

	(void)arg;
	fill(l3, 256);
	snrt_dma_start_1d(l1 + 256, l3, 256);
	snrt_dma_memset(l1, 7, memset_len);
	v[0] = l1[0] == 7 && l1[memset_len - 1] == 7 && l1[100] == 7;
	/* Whether the load is still in flight (its bytes unreadable). */
	v[1] = !dfz_idma_is_busy(dfz_idma_get(dfz__dropin_get()->rt));
	snrt_dma_wait_all();
	v[2] = l1[256 + 9] == l3[9];
}

START_TEST(test_memset_waits)
{
	memset_len = 256;
	ck_assert_int_eq(run_with(body_memset, "snrt-pinned").finding.cls,
			 DFZ_CLASS_NONE);
	ck_assert_uint_eq(v[0], 1);
	ck_assert_uint_eq(v[1], 1);
	ck_assert_uint_eq(v[2], 1);
	ck_assert_int_eq(run_with(body_memset, "snrt-head").finding.cls,
			 DFZ_CLASS_NONE);
	ck_assert_uint_eq(v[1], 1);   /* 256: a multiple of 64, by DMA */
	ck_assert_uint_eq(v[2], 1);
	/* 100 bytes: the pinned memset writes 64 (one row) and waits; HEAD
	 * writes 100 by the CPU and leaves the load in flight. */
	memset_len = 101;
	run_with(body_memset, "snrt-pinned");
	ck_assert_uint_eq(v[0], 0);
	ck_assert_uint_eq(v[1], 1);
	run_with(body_memset, "snrt-head");
	ck_assert_uint_eq(v[0], 1);
	ck_assert_uint_eq(v[1], 0);   /* still in flight */
	ck_assert_uint_eq(v[2], 1);
}
END_TEST

static void body_memset_host(void *arg)
{
	uint8_t *heap = malloc(256);

	(void)arg;
	want_line = __LINE__ + 1;
	snrt_dma_memset(heap, 0, 256);
	free(heap);
}

START_TEST(test_memset_bad_address)
{
	struct dfz__result r = run_with(body_memset_host, "");

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_DMA_BAD_ADDRESS);
	ck_assert_int_eq(r.site.line, want_line);
}
END_TEST

/* Performance counters: the cycle event counts virtual time. */
static void body_perf(void *arg)
{
	uint8_t *l1 = snrt_l1alloc(4096), *l3 = snrt_l3alloc(4096);

	(void)arg;
	fill(l3, 4096);
	snrt_reset_perf_counter(SNRT_PERF_CNT0);
	snrt_reset_perf_counter(SNRT_PERF_CNT1);
	snrt_start_perf_counter(SNRT_PERF_CNT0, SNRT_PERF_CNT_CYCLES, 0);
	snrt_cfg_perf_counter(1, PERF_METRIC__DMA_AR_DONE, 0);
	snrt_start_perf_counter(1);
	snrt_dma_start_1d(l1, l3, 4096);
	snrt_dma_wait_all();
	snrt_stop_perf_counter(SNRT_PERF_CNT0);
	v[0] = snrt_get_perf_counter(SNRT_PERF_CNT0);
	v[1] = snrt_get_perf_counter(1);
	snrt_dma_start_1d(l1, l3, 4096);
	snrt_dma_wait_all();
	v[2] = snrt_get_perf_counter(SNRT_PERF_CNT0);   /* stopped */
	/* A reset while running: the pin's disables, HEAD's clears. */
	snrt_start_perf_counter(SNRT_PERF_CNT0, SNRT_PERF_CNT_CYCLES, 0);
	snrt_reset_perf_counter(SNRT_PERF_CNT0);
	snrt_dma_start_1d(l1, l3, 4096);
	snrt_dma_wait_all();
	v[3] = snrt_get_perf_counter(SNRT_PERF_CNT0);
	want_line = __LINE__ + 1;
	snrt_start_perf_counter(SNRT_NUM_PERF_CNTS);
}

START_TEST(test_perf_counters)
{
	struct dfz__result r = run_with(body_perf, "snrt-pinned");

	ck_assert_uint_gt(v[0], 0);
	ck_assert_uint_eq(v[1], 0);
	ck_assert_uint_eq(v[2], v[0]);
	ck_assert_uint_eq(v[3], 0);
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_DEV_MISUSE);
	ck_assert_int_eq(r.site.line, want_line);
	run_with(body_perf, "snrt-head");
	ck_assert_uint_gt(v[3], 0);
	ck_assert_uint_le(v[3], v[0]);
}
END_TEST

/* --------------------------------------------------- team, sync, tiles */

static void spmd_team(void *arg)
{
	uint32_t me = snrt_cluster_core_idx();
	snrt_comm_t comm;

	(void)arg;
	got[me] = snrt_hartid() == me && snrt_global_core_idx() == me &&
		  snrt_global_core_base_hartid() == 0 &&
		  snrt_global_core_num() == 9 &&
		  snrt_global_compute_core_num() == 8 &&
		  snrt_cluster_dm_core_num() == 1 &&
		  snrt_cluster_dm_core_idx() == 8 &&
		  snrt_cluster_idx() == 0 && snrt_cluster_num() == 1 &&
		  snrt_cluster_core_num() == SNRT_CLUSTER_CORE_NUM &&
		  snrt_is_compute_core() == (me < 8) &&
		  snrt_cluster_is_last_compute_core() == (me == 7) &&
		  (me >= 8 || snrt_global_compute_core_idx() == me);
	snrt_fpu_fence();
	snrt_fence();
	snrt_global_barrier();
	snrt_comm_create(1, &comm);
	got[me] &= comm->size == 1 && comm->is_participant == 1;
	snrt_global_barrier(comm);
	snrt_inter_cluster_barrier();
	snrt_wait_writeback(me);
	DUMP(me);
	snrt_nop();
}

static void body_team(void *arg)
{
	(void)arg;
	memset(got, 0, sizeof(got));
	dfz_snrt_spmd(spmd_team, NULL);
}

START_TEST(test_team_and_sync)
{
	ck_assert_int_eq(run_with(body_team, "").finding.cls, DFZ_CLASS_NONE);
	for (unsigned i = 0; i < DFZ_SNRT_CORES; i++)
		ck_assert_uint_eq(got[i], 1);
}
END_TEST

static void spmd_no_global(void *arg)
{
	(void)arg;
	if (snrt_is_dm_core())
		return;
	snrt_global_barrier();
}

static void body_no_global(void *arg)
{
	(void)arg;
	want_line = __LINE__ + 1;
	dfz_snrt_spmd(spmd_no_global, NULL);
}

START_TEST(test_global_barrier_hang)
{
	struct dfz__result r = run_with(body_no_global, "");

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_DMA_HANG);
	ck_assert_int_eq(r.site.line, want_line);
}
END_TEST

/* A 4x8 tile (x1 2, x0 1) of a 16x32 int8 matrix, both helper forms. */
static void body_tiles(void *arg)
{
	uint8_t *m = snrt_l3alloc(512), *t = snrt_l1alloc(128);
	uint8_t *back = snrt_l3alloc(512);
	snrt_dma_txid_t one;

	(void)arg;
	fill(m, 256);
	fill(m + 256, 256);
	snrt_dma_load_2d_tile(t, m, 2, 1, 4, 8, 32, 1);
	snrt_dma_load_2d_tile(t + 32, m, 2, 1, 4, 8, 32, 1, 16);
	snrt_dma_wait_all();
	v[0] = v[1] = 1;
	for (int r = 0; r < 4; r++)
		for (int c = 0; c < 8; c++) {
			v[0] &= t[r * 8 + c] == m[(8 + r) * 32 + 8 + c];
			v[1] &= t[32 + r * 16 + c] == m[(8 + r) * 32 + 8 + c];
		}
	memset(back, 0, 512);
	snrt_dma_store_2d_tile(back, t, 2, 1, 4, 8, 32, 1);
	snrt_dma_load_1d_tile(t + 96, m, 3, 8, 1);
	snrt_dma_wait_all();
	v[2] = back[8 * 32 + 8] == t[0] && back[11 * 32 + 15] == t[31] &&
	       t[96] == m[24];
	snrt_dma_store_1d_tile(back, t, 1, 8, 1);
	snrt_dma_wait_all(0);
	snrt_dma_1d_to_2d(back + 256, t, 32, 8, 32);
	snrt_dma_wait_all();
	snrt_dma_2d_to_1d(t, back + 256, 32, 8, 32);
	one = snrt_dma_start_1d(t + 64, m, 8, 0);
	snrt_dma_start_1d(t + 72, m, 8);
	snrt_dma_wait(one, 0);
	snrt_dma_wait_all_channels(1);
	snrt_dma_start_tracking();
	snrt_dma_stop_tracking();
	v[3] = back[8] == t[0] && back[256 + 32] == t[8];
}

START_TEST(test_tile_helpers)
{
	/* Exact ids: with idma-id-at-push the two 1-D starts behind the
	 * 2-D one share its id, and the wait on the first is taken to
	 * cover the second (the oracle cannot tell which start's id the
	 * caller holds). */
	ck_assert_int_eq(run_with(body_tiles, "no-idma-id-at-push").finding.cls,
			 DFZ_CLASS_NONE);
	ck_assert_uint_eq(v[0], 1);
	ck_assert_uint_eq(v[1], 1);
	ck_assert_uint_eq(v[2], 1);
	ck_assert_uint_eq(v[3], 1);
}
END_TEST

/* The pinned reduction of one cluster copies src to dst; HEAD's does
 * nothing for a communicator of one. */
static double *r_dst, *r_src;

static void spmd_reduce(void *arg)
{
	(void)arg;
	snrt_global_reduction_dma(r_dst, r_src, 16);
	if (snrt_is_dm_core())
		v[0] = r_dst[5] == r_src[5];
}

static void body_reduce(void *arg)
{
	(void)arg;
	r_dst = snrt_l1alloc(16 * sizeof(double));
	r_src = snrt_l1alloc(16 * sizeof(double));
	for (int i = 0; i < 16; i++) {
		r_dst[i] = 0;
		r_src[i] = i + 0.5;
	}
	dfz_snrt_spmd(spmd_reduce, NULL);
}

START_TEST(test_global_reduction)
{
	ck_assert_int_eq(run_with(body_reduce, "snrt-pinned").finding.cls,
			 DFZ_CLASS_NONE);
	ck_assert_uint_eq(v[0], 1);
	ck_assert_int_eq(run_with(body_reduce, "snrt-head").finding.cls,
			 DFZ_CLASS_NONE);
	ck_assert_uint_eq(v[0], 0);
}
END_TEST

/* HEAD's overloads: a pointer stays a pointer, an integer an integer. */
START_TEST(test_align_up)
{
	void *p = snrt_align_up((void *)0x1001, 8);
	uint32_t *q = snrt_align_up((uint32_t *)0x1004, 64, 0x1000);
	uintptr_t i = snrt_align_up((uintptr_t)13, 8);
	size_t n = snrt_align_up((size_t)17, 16, 1);

	ck_assert_ptr_eq(p, (void *)0x1008);
	ck_assert_ptr_eq(q, (void *)0x1040);
	ck_assert_uint_eq(i, 16);
	ck_assert_uint_eq(n, 17);
	ck_assert_uint_eq(SNRT_TCDM_HYPERBANK_WIDTH, 256);
	ck_assert_uint_eq(SNRT_TCDM_BANK_PER_HYPERBANK_NUM, 32);
	ck_assert_ptr_eq(snrt_remote_l1_ptr(p, 0, 0), p);
	ck_assert_ptr_eq(snrt_compute_core_local_ptr(p, 2, 8),
			 (void *)0x1018);
}
END_TEST

static void body_hyperbank(void *arg)
{
	(void)arg;
	snrt_l1_alloc_cluster_local(3);
	v[0] = (uint32_t)((uintptr_t)snrt_l1_next_aligned_hyperbank() -
			  SNRT_TCDM_START_ADDR);
	v[1] = (uint32_t)(snrt_align_up_hyperbank(SNRT_TCDM_START_ADDR + 1) -
			  SNRT_TCDM_START_ADDR);
}

START_TEST(test_hyperbank)
{
	ck_assert_int_eq(run_with(body_hyperbank, "").finding.cls,
			 DFZ_CLASS_NONE);
	ck_assert_uint_eq(v[0], SNRT_TCDM_HYPERBANK_WIDTH);
	ck_assert_uint_eq(v[1], SNRT_TCDM_HYPERBANK_WIDTH);
}
END_TEST

/* A program's own main on every core: a nonzero code is a failed check. */
static int prog_main_rc(void)
{
	snrt_cluster_hw_barrier();
	return snrt_cluster_core_idx() == 3 ? 4 : 0;
}

static int prog_main_ok(void)
{
	snrt_cluster_hw_barrier();
	return 0;
}

static void body_main(void *arg)
{
	want_line = __LINE__ + 1;
	v[0] = (uint32_t)dfz_snrt_main(arg ? prog_main_rc : prog_main_ok);
}

START_TEST(test_program_main)
{
	struct dfz_dropin_test t = { body_main, (void *)1, __FILE__ };
	struct dfz__result r;

	ck_assert_int_eq(run_with(body_main, "").finding.cls, DFZ_CLASS_NONE);
	ck_assert_uint_eq(v[0], 0);
	dfz__dropin_run(&t, NULL, 0, &r);
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_DATA_MISMATCH);
	ck_assert_int_eq(r.site.line, want_line);
	ck_assert_uint_eq(v[0], 4);
}
END_TEST

/* ------------------------------------------------------------ refused */

static const int ssr_line = __LINE__ + 8;

static void body_ssr(void *arg)
{
	double *x = snrt_l1alloc(64);
	size_t n = 8;

	(void)arg;
	snrt_ssr_loop_1d(SNRT_SSR_DM0, n, sizeof(double));
	snrt_ssr_read(SNRT_SSR_DM0, SNRT_SSR_1D, x);
	snrt_ssr_enable();
}

static const int irq_line = __LINE__ + 5;

static void body_irq(void *arg)
{
	(void)arg;
	snrt_interrupt_enable(3);
}

/* Run @body in a child with stderr to a pipe: its exit status and what
 * it wrote there. */
static int refused(void (*body)(void *), char *line, size_t n)
{
	int fd[2], st = 0;
	ssize_t got_n;
	pid_t pid;

	ck_assert_int_eq(pipe(fd), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		dup2(fd[1], 2);
		close(fd[0]);
		run_with(body, "");
		_exit(0);
	}
	close(fd[1]);
	got_n = read(fd[0], line, n - 1);
	line[got_n > 0 ? got_n : 0] = '\0';
	close(fd[0]);
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

START_TEST(test_refused_lines)
{
	char line[512], want[96];

	ck_assert_int_eq(refused(body_ssr, line, sizeof(line)), 2);
	snprintf(want, sizeof(want), "%s:%d: snrt_ssr_loop_1d: refused: SSR",
		 __FILE__, ssr_line);
	ck_assert_msg(strstr(line, want), "got '%s'", line);
	/* One line, and the first refused call ends the run. */
	ck_assert_ptr_eq(strchr(line, '\n'), line + strlen(line) - 1);
	ck_assert_int_eq(refused(body_irq, line, sizeof(line)), 2);
	snprintf(want, sizeof(want), ":%d: snrt_interrupt_enable: refused",
		 irq_line);
	ck_assert_msg(strstr(line, want), "got '%s'", line);
}
END_TEST

/*
 * Every refused name in each call form the runtime's code uses, as a
 * statement and for its value: compiled here (at the project's warnings,
 * gcc and clang), never called.
 */
static volatile uint32_t sink;

static void eu_task(void *a, uint32_t n)
{
	(void)a;
	(void)n;
}

void dfz__snrt_refused_forms(double *x, uint32_t n);
void dfz__snrt_refused_forms(double *x, uint32_t n)
{
	snrt_ssr_enable();
	snrt_ssr_disable();
	snrt_ssr_loop_1d(SNRT_SSR_DM0, n, 8);
	snrt_ssr_loop_2d(SNRT_SSR_DM1, n, n, 8, 8);
	snrt_ssr_loop_3d(SNRT_SSR_DM2, n, n, n, 8, 8, 8);
	snrt_ssr_loop_4d(SNRT_SSR_DM_ALL, n, n, n, n, 8, 8, 8, 8);
	snrt_ssr_repeat(SNRT_SSR_DM0, 2);
	snrt_ssr_read(SNRT_SSR_DM0, SNRT_SSR_1D, x);
	snrt_ssr_write(SNRT_SSR_DM1, SNRT_SSR_4D, x);
	snrt_issr_read(SNRT_SSR_DM0, x, n);
	snrt_issr_set_idx_cfg(SNRT_SSR_DM0, SNRT_SSR_IDXSIZE_U16, 0);
	snrt_issr_set_bound(SNRT_SSR_DM0, n);
	snrt_issr_set_ptrs(SNRT_SSR_DM0, x, x);
	snrt_sc_enable(1);
	snrt_sc_disable(SNRT_SSR_IDXSIZE_U8);
	snrt_wfi();
	snrt_interrupt_enable(3);
	snrt_interrupt_disable(3);
	snrt_interrupt_global_enable();
	snrt_interrupt_global_disable();
	sink = snrt_interrupt_cause();
	snrt_interrupt_cause();
	snrt_int_sw_set(1);
	snrt_int_sw_clear(1);
	sink = snrt_int_sw_get(1);
	snrt_int_sw_get(1);
	snrt_int_cluster_set(1, 0);
	snrt_int_cluster_clr(1);
	dm_init();
	dm_main();
	dm_exit();
	dm_wait_ready();
	dm_wait();
	dm_start();
	dm_memcpy_async(x, x, 8);
	dm_memcpy2d_async(x, x, 8, 8, 8, 2);
	__snrt_omp_bootstrap(n);
	sink = __snrt_omp_bootstrap(n);
	__snrt_omp_destroy(n);
	eu_init();
	eu_exit(1);
	eu_event_loop(1);
	eu_dispatch_push(eu_task, 1, x, 8);
	eu_run_empty(1);
	while (eu_get_workers_in_wfi() != 7)
		;
	snrt_cluster_alias();
	x = snrt_cluster_alias();
	(void)x;
}

Suite *suite_dropin_snrt_rt(void)
{
	Suite *s = suite_create("dropin_snrt_rt");
	TCase *tc = tcase_create("snrt_rt");

	tcase_add_test(tc, test_heap_bump);
	tcase_add_test(tc, test_heap_exhausted);
	tcase_add_test(tc, test_heap_per_core);
	tcase_add_test(tc, test_next_layout);
	tcase_add_test(tc, test_zero_memory_and_mcycle);
	tcase_add_test(tc, test_memset_waits);
	tcase_add_test(tc, test_memset_bad_address);
	tcase_add_test(tc, test_perf_counters);
	tcase_add_test(tc, test_team_and_sync);
	tcase_add_test(tc, test_global_barrier_hang);
	tcase_add_test(tc, test_tile_helpers);
	tcase_add_test(tc, test_global_reduction);
	tcase_add_test(tc, test_align_up);
	tcase_add_test(tc, test_hyperbank);
	tcase_add_test(tc, test_program_main);
	tcase_add_test(tc, test_refused_lines);
	suite_add_tcase(s, tc);
	return s;
}
