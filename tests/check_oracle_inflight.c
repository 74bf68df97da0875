// SPDX-License-Identifier: MIT
/*
 * The inflight oracle (oracles/inflight.c) against the real engines:
 * dma.early-wait (a wait that returns while a transfer it covers is still
 * in flight) and hazard.race from a source changed while in flight. Each
 * is shown clean on a correct run and firing on a sabotaged one, alone in
 * its set so that no earlier oracle decides the run first.
 */
#include <check.h>
#include <string.h>

#include "oracle_fixture.h"

#define INFLIGHT (1u << DFZ_ORACLE_INFLIGHT)

static struct dfz_ram_req *req_a, *req_b;
static uint8_t *l2;
static uint32_t l3;

/* A run with latency 4 and nothing stepped but by the waits. */
static void start(void)
{
	struct dfz_rt_config cfg = {
		.latency = 4, .bandwidth = 16, .wait_bound = 1000,
		.sched = step_sched,
	};

	oracles_run(INFLIGHT, &cfg);
	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L2, sizeof(*req_a),
					 (void **)&req_a), 0);
	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L2, sizeof(*req_b),
					 (void **)&req_b), 0);
	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L2, 256, (void **)&l2), 0);
	ck_assert_int_eq(dfz_l3_alloc(rt, 256, &l3), 0);
}

START_TEST(test_waits_clean)
{
	struct dfz_ram *ram;

	start();
	ram = dfz_ram_get(rt);
	ck_assert_int_eq(dfz_ram_copy(ram, l3, l2, 64, 1, req_a), 0);
	ck_assert_int_eq(dfz_ram_copy(ram, l3 + 64, l2 + 64, 64, 1, req_b), 0);
	ck_assert_int_eq(dfz_ram_copy_wait(req_a), 0);
	ck_assert_int_eq(dfz_ram_copy_wait(req_b), 0);
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);
}
END_TEST

/* The first bug's mechanism: the request re-issued while queued; the
 * first completion sets done, so the wait returns with the second copy
 * still in flight. */
START_TEST(test_early_wait_fires)
{
	struct dfz_ram *ram;

	start();
	ram = dfz_ram_get(rt);
	ck_assert_int_eq(dfz_ram_copy(ram, l3, l2, 64, 1, req_a), 0);
	step(6);
	ck_assert_int_eq(dfz_ram_copy(ram, l3 + 64, l2 + 64, 64, 1, req_a), 0);
	ck_assert_int_eq(dfz_ram_copy_wait(req_a), 0);
	ck_class(DFZ_CLASS_DMA_EARLY_WAIT);
	ck_msg_has("still in flight");
	ck_assert_int_eq(set->finding.ev.xfer, 1);
}
END_TEST

/* An mchan wait covers its TID only: another TID in flight is fine. */
START_TEST(test_mchan_wait_covers_tid)
{
	struct dfz_mchan *m;
	uint8_t *l1;
	struct dfz_mchan_transfer t = { 0 };
	int a, b;

	start();
	m = dfz_mchan_get(rt);
	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L1, 128, (void **)&l1), 0);
	a = dfz_mchan_transfer_get_id(m);
	b = dfz_mchan_transfer_get_id(m);
	t.cmd = dfz_mchan_cmd(64, 1, 1, 0, 0, 0, 1, 0);
	t.size = 64;
	t.ext = l2;
	t.loc = l1;
	ck_assert_int_eq(dfz_mchan_transfer_push_1d(m, a, t), 0);
	t.ext = l2 + 64;
	t.loc = l1 + 64;
	ck_assert_int_eq(dfz_mchan_transfer_push_1d(m, b, t), 0);
	ck_assert_int_eq(dfz_mchan_transfer_wait(m, a), 0);
	ck_class(DFZ_CLASS_NONE);
	ck_assert_int_eq(dfz_mchan_transfer_wait(m, b), 0);
	ck_class(DFZ_CLASS_NONE);
}
END_TEST

/* A store whose L2 source the CPU writes while it is in flight. */
START_TEST(test_source_race_fires)
{
	struct dfz_ram *ram;

	start();
	ram = dfz_ram_get(rt);
	memset(l2, 3, 128);
	ck_assert_int_eq(dfz_ram_copy(ram, l3, l2, 128, 0, req_a), 0);
	l2[100] = 4;
	ck_assert_int_eq(dfz_ram_copy_wait(req_a), 0);
	ck_class(DFZ_CLASS_HAZARD_RACE);
	ck_msg_has("changed before the engine finished");
}
END_TEST

START_TEST(test_source_still_clean)
{
	struct dfz_ram *ram;

	start();
	ram = dfz_ram_get(rt);
	memset(l2, 3, 128);
	ck_assert_int_eq(dfz_ram_copy(ram, l3, l2, 128, 0, req_a), 0);
	ck_assert_int_eq(dfz_ram_copy_wait(req_a), 0);
	l2[100] = 4;                 /* after the wait: the CPU's again */
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);
}
END_TEST

/* 2-D sources changed in flight: lines of one word (8 bytes every 16,
 * the last one 8 of a partial 16) and of two (16 every 24). A change in a
 * line fires, the first and the last one too; one in a stride gap (the
 * engine reads none of it) is clean. */
START_TEST(test_source_lines)
{
	static const struct {
		uint32_t len, stride, lines;
		unsigned at;
		enum dfz_class cls;
	} c[] = {
		{ 8, 16, 5, 64, DFZ_CLASS_HAZARD_RACE },
		{ 8, 16, 5, 60, DFZ_CLASS_NONE },
		{ 8, 16, 5, 3, DFZ_CLASS_HAZARD_RACE },
		{ 16, 24, 4, 80, DFZ_CLASS_HAZARD_RACE },
		{ 16, 24, 4, 44, DFZ_CLASS_NONE },
		{ 16, 24, 4, 30, DFZ_CLASS_HAZARD_RACE },
	};
	struct dfz_idma *dma;
	uint8_t *l1;

	start();
	dma = dfz_idma_get(rt);
	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L1, 64, (void **)&l1), 0);
	memset(l2, 3, 128);
	ck_assert_int_ge(dfz_idma_start_2d(dma, l1, l2, c[_i].len, c[_i].len,
					   c[_i].stride, c[_i].lines), 0);
	l2[c[_i].at] = 4;
	ck_assert_int_eq(dfz_idma_wait_all(dma), 0);
	dfz_oracles_end(set);
	ck_class(c[_i].cls);
}
END_TEST

Suite *suite_oracle_inflight(void)
{
	Suite *s = suite_create("oracle_inflight");
	TCase *tc = tcase_create("inflight");

	tcase_add_checked_fixture(tc, rt_setup, rt_teardown);
	tcase_add_test(tc, test_waits_clean);
	tcase_add_test(tc, test_early_wait_fires);
	tcase_add_test(tc, test_mchan_wait_covers_tid);
	tcase_add_test(tc, test_source_race_fires);
	tcase_add_test(tc, test_source_still_clean);
	tcase_add_loop_test(tc, test_source_lines, 0, 6);
	suite_add_tcase(s, tc);
	return s;
}
