// SPDX-License-Identifier: MIT
/*
 * The 17th cluster-DMA command (dropin/cl_dma.c): with all 16 TIDs held by
 * commands not yet waited, pulpos's pi_cl_dma_cmd stalls in the TID
 * allocation with mutex 0 held. Under mchan-stall-no-tid the call stalls
 * until another core frees a TID (dma.hang at the call when none can);
 * otherwise the call is dma.hang at once, never a command dropped without
 * a finding.
 */
#include <check.h>
#include <string.h>

#include "dropin_fixture.h"
#include "dmafuzz/dropin/pmsis.h"

#define N 17

static pi_cl_dma_cmd_t cmds[N];
static uint8_t *l2, *l1;
static int want_line;
static uint32_t seen;

/* Command @i: 8 bytes at 8 * @i, L2 to L1, at the caller's line. */
#define start(i)                                                            \
	pi_cl_dma_cmd((uint32_t)(uintptr_t)(l2 + 8 * (i)),                 \
		      (uint32_t)(uintptr_t)(l1 + 8 * (i)), 8,              \
		      PI_CL_DMA_DIR_EXT2LOC, &cmds[i])

static void setup_bufs(void)
{
	l2 = pi_l2_malloc(8 * N);
	l1 = pmsis_l1_malloc(8 * N);
	fill(l2, 8 * N);
	memset(l1, 0, 8 * N);
	seen = 0;
}

/* Seventeen commands on one core, none waited before the 17th. */
static void body_one_core(void *arg)
{
	(void)arg;
	setup_bufs();
	for (unsigned i = 0; i < 16; i++)
		start(i);
	want_line = __LINE__ + 1;
	start(16);
}

START_TEST(test_17th_one_core)
{
	const char *quirks = _i ? "mchan-stall-no-tid" : "no-mchan-stall-no-tid";
	struct dfz__result r = run_with(body_one_core, quirks);

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_DMA_HANG);
	ck_assert_int_eq(r.site.line, want_line);
	ck_assert_ptr_nonnull(strstr(r.finding.msg, _i ? "stalls for ever" :
				     "would stall for ever"));
	ck_assert_uint_eq(r.xfers, 16);
}
END_TEST

/* Core 0 starts 16 commands, then a 17th; core 1 waits core 0's fourth
 * after the barrier, which frees its TID. */
static void two(void *arg)
{
	(void)arg;
	if (pi_core_id() == 0) {
		for (unsigned i = 0; i < 16; i++)
			start(i);
		pi_cl_team_barrier();
		want_line = __LINE__ + 1;
		start(16);
		for (unsigned i = 0; i < N; i++)
			if (i != 3)
				pi_cl_dma_cmd_wait(&cmds[i]);
		seen = !memcmp(l1, l2, 8 * N);
	} else {
		pi_cl_team_barrier();
		pi_cl_dma_cmd_wait(&cmds[3]);
	}
}

static void body_two_cores(void *arg)
{
	(void)arg;
	setup_bufs();
	pi_cl_team_fork(2, two, NULL);
}

START_TEST(test_17th_other_core_frees)
{
	struct dfz__result r = run_with(body_two_cores, "mchan-stall-no-tid");

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
	ck_assert_uint_eq(r.xfers, N);
	ck_assert_uint_eq(seen, 1);
	r = run_with(body_two_cores, "no-mchan-stall-no-tid");
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_DMA_HANG);
	ck_assert_int_eq(r.site.line, want_line);
}
END_TEST

Suite *suite_dropin_cldma(void)
{
	Suite *s = suite_create("dropin_cldma");
	TCase *tc = tcase_create("tids");

	tcase_add_loop_test(tc, test_17th_one_core, 0, 2);
	tcase_add_test(tc, test_17th_other_core_frees);
	suite_add_tcase(s, tc);
	return s;
}
