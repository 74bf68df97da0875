// SPDX-License-Identifier: MIT
/*
 * Unit tests of the idma engine (runtime/idma.c): transaction ids from 1
 * per run, the completed id as a count of retired transfers, the lagging
 * wait (a wait on the last id alone hangs and resolves once another
 * transfer follows), the wait without lag, zero-work transfers retiring
 * ahead of older ones (DFZ_RTQ_IDMA_ZERO_RETIRES), ids handed out at the
 * push and counted at the pop (DFZ_RTQ_IDMA_ID_AT_PUSH), wait_all, never-issued ids,
 * strided 2-D transfers on both sides in both directions, time, faults,
 * queue back-pressure, the event contract and the engine ops.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "ev_log.h"
#include "rt_fixture.h"

/* ------------------------------------------------------------ fixtures */

static struct dfz_idma *dma;
static unsigned sched_steps;

static uint32_t run_quirks;

static void start_run(unsigned steps, uint32_t latency, uint32_t wait_bound)
{
	struct dfz_rt_config cfg = {
		.quirks = run_quirks,
		.latency = latency,
		.bandwidth = 16,
		.wait_bound = wait_bound,
		.sched = draw,
		.obs = { .fn = record },
	};

	sched_steps = steps;
	sched_set(&sched_steps, 1);
	evlog_clear();
	ck_assert_int_eq(dfz_rt_reset(rt, &cfg), 0);
	dma = dfz_idma_get(rt);
	ck_assert_ptr_nonnull(dma);
}

/* ------------------------------------------------------------------ ids */

START_TEST(test_ids_from_one)
{
	uint8_t *l2, *l1;

	for (unsigned run = 0; run < 2; run++) {
		start_run(run, 0, 0);
		l2 = buffer(DFZ_L2, 32, 3);
		l1 = buffer(DFZ_L1, 32, 7);
		ck_assert_uint_eq(dfz_idma_last_id(dma), 0);
		for (int k = 1; k <= 5; k++) {
			ck_assert_int_eq(dfz_idma_start_1d(dma, l1, l2, 32), k);
			ck_assert_int_eq(last_of(DFZ_EV_ISSUE)->id, k);
		}
		ck_assert_uint_eq(dfz_idma_last_id(dma), 5);
		ck_assert_int_eq(dfz_idma_wait_all(dma), 0);
		/* Five completions, counted by the completed id. */
		ck_assert_uint_eq(count_kind(DFZ_EV_COMPLETE), 5);
		ck_assert_uint_eq(dfz_idma_completed_id(dma), 5);
	}
}
END_TEST

/*
 * The lag: the copy completes and moves its bytes, but the reported id
 * stays behind it, so a wait on it alone hangs (bounded). One more
 * transfer resolves it; that one is then the unresolvable last.
 */
START_TEST(test_lag)
{
	uint8_t *l2, *l1;
	int a, b;

	start_run(0, 1, 50);
	l2 = buffer(DFZ_L2, 32, 3);
	l1 = buffer(DFZ_L1, 32, 7);
	a = dfz_idma_start_1d(dma, l1, l2, 32);
	ck_assert_int_eq(a, 1);
	ck_assert_int_eq(dfz_idma_wait(dma, (uint32_t)a), DFZ_EHANG);
	ck_assert_mem_eq(l1, l2, 32);
	ck_assert_uint_eq(count_kind(DFZ_EV_COMPLETE), 1);
	ck_assert_uint_eq(dfz_idma_completed_id(dma), 1);
	ck_assert_uint_eq(count_kind(DFZ_EV_HANG), 1);
	ck_assert_int_eq(last_of(DFZ_EV_HANG)->id, a);
	ck_assert_int_eq(last_of(DFZ_EV_WAITED)->aux, DFZ_EHANG);

	b = dfz_idma_start_1d(dma, l2, l1, 1);
	ck_assert_int_eq(b, 2);
	ck_assert_int_eq(dfz_idma_wait(dma, (uint32_t)a), 0);
	ck_assert_uint_eq(dfz_idma_completed_id(dma), 2);
	ck_assert_int_eq(dfz_idma_wait(dma, (uint32_t)b), DFZ_EHANG);
	ck_assert_uint_eq(count_kind(DFZ_EV_HANG), 2);
	/* wait_all polls the busy status: it returns. */
	ck_assert_int_eq(dfz_idma_wait_all(dma), 0);
	ck_assert(!dfz_idma_is_busy(dma));
	/* A txid already reported, and 0, return at once. */
	ck_assert_int_eq(dfz_idma_wait(dma, 1), 0);
	ck_assert_int_eq(dfz_idma_wait(dma, 0), 0);
}
END_TEST

/* A wait on an id resolves as soon as the next transfer completes, not
 * before: the time of the wait's return is the second completion. */
/* The later runtime's wait (completed >= txid) resolves the last id
 * alone: no lag. */
START_TEST(test_wait_reached)
{
	uint8_t *l2, *l1;
	int a;

	start_run(0, 1, 50);
	l2 = buffer(DFZ_L2, 32, 3);
	l1 = buffer(DFZ_L1, 32, 7);
	a = dfz_idma_start_1d(dma, l1, l2, 32);
	ck_assert_int_eq(dfz_idma_wait_reached(dma, (uint32_t)a), 0);
	ck_assert_mem_eq(l1, l2, 32);
	ck_assert_uint_eq(dfz_idma_completed_id(dma), 1);
	ck_assert_uint_eq(count_kind(DFZ_EV_HANG), 0);
	ck_assert_int_eq(dfz_idma_wait_reached(dma, 2), DFZ_EHANG);
	ck_assert_int_eq(dfz_idma_wait_reached(NULL, 1), DFZ_EINVAL);
}
END_TEST

/*
 * DFZ_RTQ_IDMA_ZERO_RETIRES: a repeat-0 dummy retires as it is accepted,
 * so the completed id counts past a copy still in flight, and the pinned
 * wait on the copy returns before its bytes moved. In order (quirk off)
 * the same wait returns only after the copy.
 */
START_TEST(test_zero_work_retires)
{
	for (int quirk = 0; quirk < 2; quirk++) {
		uint8_t *l2, *l1;
		int a, b;

		run_quirks = quirk ? DFZ_RTQ_IDMA_ZERO_RETIRES : 0;
		start_run(0, 40, 1000);
		run_quirks = 0;
		l2 = buffer(DFZ_L2, 32, 3);
		l1 = buffer(DFZ_L1, 32, 7);
		a = dfz_idma_start_1d(dma, l1, l2, 32);
		b = dfz_idma_start_2d(dma, l1, l1, 1, 0, 0, 0);
		ck_assert_int_eq(b, a + 1);
		ck_assert_uint_eq(count_kind(DFZ_EV_COMPLETE), quirk ? 1 : 0);
		ck_assert_uint_eq(dfz_idma_completed_id(dma), quirk ? 1 : 0);
		/* A second copy and its dummy: the count passes the first. */
		dfz_idma_start_1d(dma, l1 + 16, l2, 16);
		dfz_idma_start_2d(dma, l1, l1, 1, 0, 0, 0);
		ck_assert_uint_eq(dfz_idma_completed_id(dma), quirk ? 2 : 0);
		ck_assert_int_eq(dfz_idma_wait(dma, (uint32_t)a), 0);
		if (quirk)
			ck_assert(memcmp(l1, l2, 32) != 0);
		else
			ck_assert_mem_eq(l1, l2, 32);
		ck_assert_int_eq(dfz_idma_wait_all(dma), 0);
		ck_assert_uint_eq(dfz_idma_completed_id(dma), 4);
	}
}
END_TEST

/*
 * DFZ_RTQ_IDMA_ID_AT_PUSH: behind a 2-D transfer of more lines than the
 * backend's window (32 lines of 4 bytes against NumAxInFlight + 1 = 25),
 * back-to-back starts return the id it will retire under; the wait on
 * the last of them returns as the 2-D one retires, before their bytes
 * move. Exact ids (quirk off): 1, 2, 3 and the wait covers all three.
 */
START_TEST(test_id_at_push_duplicates)
{
	for (int quirk = 0; quirk < 2; quirk++) {
		uint8_t *l2, *l1;
		int a, b, c;

		run_quirks = quirk ? DFZ_RTQ_IDMA_ID_AT_PUSH : 0;
		start_run(0, 0, 1000);
		run_quirks = 0;
		ck_assert_uint_eq(dfz_idma_ax_inflight(dma), DFZ_IDMA_AX_INFLIGHT);
		l2 = buffer(DFZ_L2, 160, 3);
		l1 = buffer(DFZ_L1, 160, 7);
		a = dfz_idma_start_2d(dma, l1, l2, 4, 4, 4, 32);
		b = dfz_idma_start_1d(dma, l1 + 128, l2 + 128, 16);
		c = dfz_idma_start_1d(dma, l1 + 144, l2 + 144, 16);
		ck_assert_int_eq(a, 1);
		ck_assert_int_eq(b, quirk ? 1 : 2);
		ck_assert_int_eq(c, quirk ? 1 : 3);
		ck_assert_int_eq(last_of(DFZ_EV_ISSUE)->id, c);
		ck_assert_uint_eq(dfz_idma_next_id(dma), quirk ? 1 : 4);
		ck_assert_uint_eq(dfz_idma_last_id(dma), (uint32_t)c);
		ck_assert_int_eq(dfz_idma_wait_reached(dma, (uint32_t)c), 0);
		ck_assert_mem_eq(l1, l2, 128);
		if (quirk) {
			ck_assert_uint_eq(dfz_idma_completed_id(dma), 1);
			ck_assert(memcmp(l1 + 128, l2 + 128, 16) != 0);
			ck_assert(memcmp(l1 + 144, l2 + 144, 16) != 0);
			/* a's last lines moving made room: b and c popped */
			ck_assert_uint_eq(dfz_idma_next_id(dma), 4);
			ck_assert_int_eq(dfz_idma_start_1d(dma, l1, l2, 16), 4);
		} else {
			ck_assert_mem_eq(l1 + 128, l2 + 128, 32);
		}
		ck_assert_int_eq(dfz_idma_wait_all(dma), 0);
		ck_assert_uint_eq(dfz_idma_completed_id(dma), quirk ? 4 : 3);
		ck_assert_uint_eq(dfz_idma_next_id(dma), quirk ? 5 : 4);
	}
}
END_TEST

/*
 * The backend accepts lines ahead of the data: on an idle engine a 1-D
 * start pops at its push and gets its exact id, and so does a 2-D one of
 * at most NumAxInFlight + 1 lines (25), with nothing moved yet; one line
 * more and the next start shares its id. Without a step, 1-D starts get
 * exact ids until their lines fill the window, then share one.
 */
START_TEST(test_id_at_push_window)
{
	uint8_t *l2, *l1;
	uint32_t w = DFZ_IDMA_AX_INFLIGHT + 1;

	run_quirks = DFZ_RTQ_IDMA_ID_AT_PUSH | DFZ_RTQ_IDMA_ZERO_RETIRES;
	start_run(0, 5, 1000);
	run_quirks = 0;
	l2 = buffer(DFZ_L2, 256, 3);
	l1 = buffer(DFZ_L1, 256, 7);
	ck_assert_int_eq(dfz_idma_start_1d(dma, l1, l2, 64), 1);
	ck_assert_uint_eq(dfz_idma_next_id(dma), 2);
	ck_assert_int_eq(dfz_idma_wait_all(dma), 0);
	for (uint32_t lines = w; lines <= w + 1; lines++) {
		size_t moves = count_kind(DFZ_EV_MOVE);
		int a = dfz_idma_start_2d(dma, l1, l2, 4, 4, 4, lines);

		ck_assert_int_eq(dfz_idma_start_1d(dma, l1 + 128, l2, 8),
				 lines == w ? a + 1 : a);
		ck_assert_uint_eq(count_kind(DFZ_EV_MOVE), moves);
		ck_assert_int_eq(dfz_idma_wait_all(dma), 0);
	}
	/* A zero-work start on an idle engine retires at its push. */
	ck_assert_int_eq(dfz_idma_start_2d(dma, l1, l1, 1, 0, 0, 0), 6);
	ck_assert_uint_eq(dfz_idma_completed_id(dma), 6);
	for (uint32_t k = 1; k <= w + 2; k++)
		ck_assert_int_eq(dfz_idma_start_1d(dma, l1 + k, l2, 1),
				 (int)(6 + (k <= w ? k : w + 1)));
	ck_assert_int_eq(dfz_idma_wait_all(dma), 0);
	ck_assert_uint_eq(dfz_idma_completed_id(dma), 6 + w + 2);
	ck_assert_uint_eq(dfz_idma_next_id(dma), 6 + w + 3);
}
END_TEST

/*
 * The pop follows the window (NumAxInFlight 2: 3 lines): a 2-D transfer
 * of 4 lines leaves the queue once its first line moved and its last was
 * accepted; a transfer without work behind it is popped when the backend
 * has room for a line again (its second line moved) and retires there,
 * ahead of the lines still moving (with DFZ_RTQ_IDMA_ZERO_RETIRES; in
 * exact-id mode it retires at its start instead). A 1-D start of
 * three pages is three bursts and fills that window alone.
 */
START_TEST(test_id_at_push_pop_timing)
{
	uint8_t *l2, *l1;

	ck_assert_int_eq(dfz_idma_set_ax_inflight(dfz_idma_get(rt), 2), 0);
	run_quirks = DFZ_RTQ_IDMA_ID_AT_PUSH | DFZ_RTQ_IDMA_ZERO_RETIRES;
	start_run(0, 0, 1000);
	run_quirks = 0;
	ck_assert_uint_eq(dfz_idma_ax_inflight(dma), 2); /* held over reset */
	l2 = buffer(DFZ_L2, 3 * 4096, 3);
	l1 = buffer(DFZ_L1, 3 * 4096, 7);
	ck_assert_int_eq(dfz_idma_start_2d(dma, l1, l2, 32, 32, 32, 4), 1);
	ck_assert_int_eq(dfz_idma_start_2d(dma, l1, l1, 1, 0, 0, 0), 1);
	ck_assert_uint_eq(count_kind(DFZ_EV_COMPLETE), 0);
	sched_steps = 1;                 /* 16 bytes a step: half a line */
	dfz_rt_yield(rt, DFZ_YIELD_ISSUE);
	ck_assert_uint_eq(dfz_idma_next_id(dma), 1);
	sched_steps = 1;                 /* line 1 moved: line 4 taken */
	dfz_rt_yield(rt, DFZ_YIELD_ISSUE);
	ck_assert_uint_eq(dfz_idma_next_id(dma), 2);
	ck_assert_uint_eq(dfz_idma_completed_id(dma), 0);
	sched_steps = 2;                 /* line 2 moved: room for the next */
	dfz_rt_yield(rt, DFZ_YIELD_ISSUE);
	ck_assert_uint_eq(dfz_idma_next_id(dma), 3);
	ck_assert_uint_eq(dfz_idma_completed_id(dma), 1); /* the zero one */
	ck_assert(memcmp(l1 + 64, l2 + 64, 64) != 0);
	ck_assert_int_eq(dfz_idma_wait_all(dma), 0);
	ck_assert_uint_eq(dfz_idma_completed_id(dma), 2);
	ck_assert_mem_eq(l1, l2, 128);
	ck_assert_int_eq(dfz_idma_start_1d(dma, l1, l2, 3 * 4096), 3);
	ck_assert_int_eq(dfz_idma_start_1d(dma, l1, l2, 8), 4);
	ck_assert_int_eq(dfz_idma_start_1d(dma, l1, l2, 8), 4);
	ck_assert_int_eq(dfz_idma_wait_all(dma), 0);
	ck_assert_uint_eq(dfz_idma_next_id(NULL), 0);
	ck_assert_uint_eq(dfz_idma_ax_inflight(NULL), 0);
	ck_assert_int_eq(dfz_idma_set_ax_inflight(dma, 1), DFZ_EINVAL);
	ck_assert_int_eq(dfz_idma_set_ax_inflight(dma,
		DFZ_IDMA_AX_INFLIGHT_MAX + 1), DFZ_EINVAL);
	ck_assert_int_eq(dfz_idma_set_ax_inflight(NULL, 2), DFZ_EINVAL);
	ck_assert_int_eq(dfz_idma_set_ax_inflight(dma, 0), 0);
	ck_assert_uint_eq(dfz_idma_ax_inflight(dma), DFZ_IDMA_AX_INFLIGHT);
}
END_TEST

/* After dfz_rt_cut() (a verdict is decided) a wait that cannot finish
 * gives up within a few steps instead of the run's bound; the next reset
 * restores the bound. */
START_TEST(test_cut_bounds_waits)
{
	uint8_t *l2, *l1;
	uint64_t t0;
	int a;

	start_run(0, 1, 100000);
	l2 = buffer(DFZ_L2, 32, 3);
	l1 = buffer(DFZ_L1, 32, 7);
	a = dfz_idma_start_1d(dma, l1, l2, 32);
	dfz_rt_cut(rt);
	t0 = dfz_rt_now(rt);
	ck_assert_int_eq(dfz_idma_wait(dma, (uint32_t)a), DFZ_EHANG);
	ck_assert_uint_le(dfz_rt_now(rt) - t0, 64);
	start_run(0, 1, 100000);
	l2 = buffer(DFZ_L2, 32, 3);
	l1 = buffer(DFZ_L1, 32, 7);
	a = dfz_idma_start_1d(dma, l1, l2, 32);
	t0 = dfz_rt_now(rt);
	ck_assert_int_eq(dfz_idma_wait(dma, (uint32_t)a), DFZ_EHANG);
	ck_assert_uint_ge(dfz_rt_now(rt) - t0, 100000);
}
END_TEST

START_TEST(test_lag_timing)
{
	uint8_t *l2, *l1;
	uint64_t done2 = 0;

	start_run(0, 3, 0);
	l2 = buffer(DFZ_L2, 16, 3);
	l1 = buffer(DFZ_L1, 16, 7);
	ck_assert_int_eq(dfz_idma_start_1d(dma, l1, l2, 16), 1);
	ck_assert_int_eq(dfz_idma_start_1d(dma, l1, l2, 16), 2);
	ck_assert_int_eq(dfz_idma_wait(dma, 1), 0);
	for (size_t i = 0; i < evlog.n; i++)
		if (evlog.ev[i].kind == DFZ_EV_COMPLETE && evlog.ev[i].id == 2)
			done2 = evlog.ev[i].step;
	ck_assert_uint_eq(done2, 8);
	ck_assert_uint_eq(dfz_rt_now(rt), 8);
}
END_TEST

START_TEST(test_wait_all)
{
	uint8_t *l2, *l1;
	const struct dfz_event *e;

	start_run(0, 2, 0);
	l2 = buffer(DFZ_L2, 64, 3);
	l1 = buffer(DFZ_L1, 64, 7);
	/* Idle: returns at once. */
	ck_assert_int_eq(dfz_idma_wait_all(dma), 0);
	ck_assert_uint_eq(dfz_rt_now(rt), 0);
	ck_assert_int_eq(dfz_idma_start_1d(dma, l1, l2, 64), 1);
	ck_assert(dfz_idma_is_busy(dma));
	ck_assert_int_eq(dfz_idma_wait_all(dma), 0);
	ck_assert(!dfz_idma_is_busy(dma));
	ck_assert_mem_eq(l1, l2, 64);
	e = last_of(DFZ_EV_WAIT);
	ck_assert_int_eq(e->id, -1);
	e = last_of(DFZ_EV_WAITED);
	ck_assert_int_eq(e->id, -1);
	ck_assert_int_eq(e->aux, 0);
	/* Past the bound: a hang, id -1. */
	start_run(0, 1000, 10);
	ck_assert_int_eq(dfz_idma_start_1d(dma, l1, l2, 64), 1);
	ck_assert_int_eq(dfz_idma_wait_all(dma), DFZ_EHANG);
	ck_assert_int_eq(last_of(DFZ_EV_HANG)->id, -1);
}
END_TEST

/* A txid never issued: the hardware spins, the model hangs (bounded, and
 * without spinning once the engine is idle). */
START_TEST(test_never_issued)
{
	uint8_t *l2, *l1;

	start_run(0, 0, 1000);
	l2 = buffer(DFZ_L2, 16, 3);
	l1 = buffer(DFZ_L1, 16, 7);
	ck_assert_int_eq(dfz_idma_start_1d(dma, l1, l2, 16), 1);
	ck_assert_int_eq(dfz_idma_start_1d(dma, l1, l2, 16), 2);
	ck_assert_int_eq(dfz_idma_wait(dma, 7), DFZ_EHANG);
	ck_assert_int_eq(last_of(DFZ_EV_HANG)->id, 7);
	ck_assert_uint_eq(dfz_rt_now(rt), 1000);
	ck_assert_uint_eq(count_kind(DFZ_EV_COMPLETE), 2);
}
END_TEST

/* ---------------------------------------------------------------- bytes */

/* 5 lines of 6 bytes: source lines 20 apart, destination lines 9 apart,
 * L2 -> L1 and L1 -> L2; nothing else changes; nothing moves before the
 * engine steps. */
START_TEST(test_2d_strided_both_sides)
{
	int load = _i;
	uint8_t *l2, *l1, want2[128], want1[64], keep1[64], keep2[128];
	uint8_t *dst, *src;
	uint32_t ds = load ? 9 : 20, ss = load ? 20 : 9;

	start_run(0, 1, 0);
	l2 = buffer(DFZ_L2, 128, 3);
	l1 = buffer(DFZ_L1, 64, 7);
	memcpy(want2, l2, 128);
	memcpy(want1, l1, 64);
	memcpy(keep2, l2, 128);
	memcpy(keep1, l1, 64);
	dst = load ? l1 + 1 : l2 + 3;
	src = load ? l2 + 3 : l1 + 1;
	for (unsigned line = 0; line < 5; line++) {
		if (load)
			memcpy(want1 + 1 + 9 * line, l2 + 3 + 20 * line, 6);
		else
			memcpy(want2 + 3 + 20 * line, l1 + 1 + 9 * line, 6);
	}
	ck_assert_int_eq(dfz_idma_start_2d(dma, dst, src, 6, ds, ss, 5), 1);
	ck_assert_mem_eq(l1, keep1, 64);
	ck_assert_mem_eq(l2, keep2, 128);
	ck_assert_int_eq(dfz_idma_wait_all(dma), 0);
	ck_assert_mem_eq(l1, want1, 64);
	ck_assert_mem_eq(l2, want2, 128);
	for (size_t i = 0; i < evlog.n; i++)
		if (evlog.ev[i].kind == DFZ_EV_MOVE)
			ck_assert_uint_le(evlog.ev[i].dst.len, 6);
	ck_assert_uint_eq(last_of(DFZ_EV_ISSUE)->desc.ext2loc, load);
	ck_assert_uint_eq(last_of(DFZ_EV_ISSUE)->desc.ext_level, DFZ_L2);
	ck_assert_uint_eq(last_of(DFZ_EV_ISSUE)->desc.ext_stride, 20);
	ck_assert_uint_eq(last_of(DFZ_EV_ISSUE)->desc.loc_stride, 9);
	ck_assert_uint_eq(last_of(DFZ_EV_ISSUE)->desc.size, 30);
}
END_TEST

/* Latency then 16 bytes per step. */
START_TEST(test_time)
{
	uint8_t *l2, *l1;

	start_run(0, 2, 0);
	l2 = buffer(DFZ_L2, 40, 3);
	l1 = buffer(DFZ_L1, 40, 7);
	ck_assert_int_eq(dfz_idma_start_1d(dma, l2, l1, 40), 1);
	dfz__rt_step(rt);
	dfz__rt_step(rt);
	ck_assert_uint_eq(count_kind(DFZ_EV_MOVE), 0);
	dfz__rt_step(rt);
	ck_assert_uint_eq(count_kind(DFZ_EV_SERVICE), 1);
	ck_assert_uint_eq(last_of(DFZ_EV_MOVE)->dst.len, 16);
	ck_assert_mem_eq(l2, l1, 16);
	ck_assert_mem_ne(l2 + 16, l1 + 16, 24);
	dfz__rt_step(rt);
	dfz__rt_step(rt);
	ck_assert(!dfz_idma_is_busy(dma));
	ck_assert_mem_eq(l2, l1, 40);
}
END_TEST

/* L2 -> L2 and L1 -> L1 are legal; a 0-byte transfer completes unmoved. */
START_TEST(test_same_level_and_empty)
{
	uint8_t *a, *b, *c, *d;

	start_run(0, 0, 0);
	a = buffer(DFZ_L2, 16, 3);
	b = buffer(DFZ_L2, 16, 5);
	c = buffer(DFZ_L1, 16, 7);
	d = buffer(DFZ_L1, 16, 9);
	ck_assert_int_eq(dfz_idma_start_1d(dma, b, a, 16), 1);
	ck_assert_int_eq(dfz_idma_start_1d(dma, d, c, 16), 2);
	ck_assert_int_eq(dfz_idma_wait_all(dma), 0);
	ck_assert_mem_eq(a, b, 16);
	ck_assert_mem_eq(c, d, 16);
	evlog.n = 0;
	ck_assert_int_eq(dfz_idma_start_2d(dma, d, a, 0, 0, 0, 4), 3);
	ck_assert_int_eq(dfz_idma_start_2d(dma, d, a, 8, 8, 8, 0), 4);
	ck_assert_int_eq(dfz_idma_wait_all(dma), 0);
	ck_assert_uint_eq(count_kind(DFZ_EV_COMPLETE), 2);
	ck_assert_uint_eq(count_kind(DFZ_EV_MOVE), 0);
	ck_assert_mem_eq(c, d, 16);
	ck_assert_uint_eq(dfz_idma_completed_id(dma), 4);
}
END_TEST

START_TEST(test_fault)
{
	uint8_t *l2, *l1, keep[32];
	uint8_t local[32];

	start_run(0, 0, 0);
	l2 = buffer(DFZ_L2, 32, 3);
	l1 = buffer(DFZ_L1, 32, 7);
	memcpy(keep, l1, 32);
	/* A host pointer, and a line running off the end of L1. */
	ck_assert_int_eq(dfz_idma_start_1d(dma, l1, local, 32), 1);
	ck_assert_int_eq(dfz_idma_start_2d(dma, l1, l2, 8, 8,
		dfz_mem_size(rt, DFZ_L2), 2), 2);
	ck_assert_int_eq(dfz_idma_start_1d(dma, NULL, l2, 4), 3);
	ck_assert_int_eq(dfz_idma_wait_all(dma), 0);
	ck_assert_uint_eq(count_kind(DFZ_EV_FAULT), 3);
	ck_assert_uint_eq(count_kind(DFZ_EV_COMPLETE), 3);
	/* The first line of the second transfer moved before its fault. */
	ck_assert_uint_eq(count_kind(DFZ_EV_MOVE), 1);
	ck_assert_mem_eq(l1, l2, 8);
	ck_assert_mem_eq(l1 + 8, keep + 8, 24);
	ck_assert_int_eq(last_of(DFZ_EV_FAULT)->id, 3);
}
END_TEST

/*
 * rt.c's stretches: a wait (which takes them) and single steps (which
 * never do) reach the same step, destination bytes, services, completions
 * and faults, with ids at the start and at the push, at bandwidths that
 * do and do not divide the lines; the wait in fewer moves. The third
 * transfer faults in its second line, the fourth reads bytes it writes
 * (L1 to L1, 4 bytes on): the stretch falls back to steps.
 */
START_TEST(test_burst_as_steps)
{
	static const uint32_t quirks[] = { 0, DFZ_RTQ_IDMA_ID_AT_PUSH };
	static const uint32_t bws[] = { 1, 5, 16, 64 };

	for (unsigned q = 0; q < 2; q++)
		for (unsigned b = 0; b < 4; b++) {
			struct ev_summary sum[2];
			uint8_t got[2][256];

			for (unsigned mode = 0; mode < 2; mode++) {
				struct dfz_rt_config cfg = {
					.quirks = quirks[q], .latency = 3,
					.bandwidth = bws[b], .sched = draw,
					.obs = { .fn = record },
				};
				uint8_t *l2, *l1;

				sched_set(NULL, 0);
				evlog_clear();
				ck_assert_int_eq(dfz_rt_reset(rt, &cfg), 0);
				dma = dfz_idma_get(rt);
				l2 = buffer(DFZ_L2, 512, 3);
				l1 = buffer(DFZ_L1, 256, 7);
				dfz_idma_start_2d(dma, l1, l2, 24, 40, 32, 4);
				dfz_idma_start_1d(dma, l1 + 170, l2 + 300, 50);
				dfz_idma_start_2d(dma, l1 + 230, l2 + 400, 12, 12,
						  dfz_mem_size(rt, DFZ_L2), 2);
				dfz_idma_start_1d(dma, l1 + 104, l1 + 100, 40);
				if (mode)
					ck_assert_int_eq(dfz_idma_wait_all(dma), 0);
				else
					while (!dfz__rt_is_idle(rt))
						dfz__rt_step(rt);
				memcpy(got[mode], l1, 256);
				ev_summarize(dfz_rt_now(rt), &sum[mode]);
			}
			ck_assert_uint_eq(sum[1].now, sum[0].now);
			ck_assert_uint_eq(sum[1].bytes, sum[0].bytes);
			ck_assert_uint_eq(sum[1].bytes, 4 * 24 + 50 + 12 + 40);
			ck_assert_uint_eq(sum[1].n, sum[0].n);
			ck_assert_uint_eq(sum[0].n, 4 + 4 + 1);
			ck_assert_mem_eq(sum[1].key, sum[0].key,
					 sizeof(sum[0].key[0]) * 3 * sum[0].n);
			ck_assert_mem_eq(got[1], got[0], 256);
			ck_assert_uint_lt(sum[1].moves, sum[0].moves);
			/* a stretch's lines go out as one MOVE */
			ck_assert_uint_lt(sum[1].moves, sum[1].lines);
		}
}
END_TEST

/*
 * A stretch ends where a line end can pop a queued request: with ids at
 * the push, a start held by a full queue, behind a transfer of more lines
 * than the backend's window takes, gets its slot while that transfer
 * still moves (its 16th of 40 lines, two a step), not at its end.
 */
START_TEST(test_burst_stops_at_pop)
{
	struct dfz_rt_config cfg = {
		.quirks = DFZ_RTQ_IDMA_ID_AT_PUSH, .bandwidth = 128,
		.sched = draw, .obs = { .fn = record },
	};
	uint8_t *l2, *l1;

	sched_set(NULL, 0);
	evlog_clear();
	ck_assert_int_eq(dfz_rt_reset(rt, &cfg), 0);
	dma = dfz_idma_get(rt);
	l2 = buffer(DFZ_L2, 40 * 64, 3);
	l1 = buffer(DFZ_L1, 41 * 64, 7);
	ck_assert_int_eq(dfz_idma_start_2d(dma, l1, l2, 64, 64, 64, 40), 1);
	for (int k = 0; k < DFZ_IDMA_FIFO; k++)
		ck_assert_int_gt(dfz_idma_start_1d(dma, l1 + 40 * 64, l2, 8), 0);
	/* The last of those waited a step, for the channel to take the first. */
	ck_assert_uint_eq(dfz_rt_now(rt), 1);
	ck_assert_int_gt(dfz_idma_start_1d(dma, l1 + 40 * 64 + 8, l2, 8), 0);
	ck_assert_uint_eq(count_kind(DFZ_EV_COMPLETE), 0);
	ck_assert_uint_eq(dfz_rt_now(rt), 8);
	ck_assert_int_eq(dfz_idma_wait_all(dma), 0);
	ck_assert_uint_eq(count_kind(DFZ_EV_COMPLETE), DFZ_IDMA_FIFO + 2);
	ck_assert_mem_eq(l1, l2, 40 * 64);
}
END_TEST

START_TEST(test_backpressure_and_args)
{
	uint8_t *l2, *l1;

	start_run(0, 1000, 5);
	l2 = buffer(DFZ_L2, 8, 3);
	l1 = buffer(DFZ_L1, 8, 7);
	for (int k = 1; k <= DFZ_IDMA_FIFO + 1; k++)
		ck_assert_int_eq(dfz_idma_start_1d(dma, l1, l2, 8), k);
	ck_assert_uint_eq(dfz_rt_now(rt), 1);
	ck_assert_int_eq(dfz_idma_start_1d(dma, l1, l2, 8), DFZ_EHANG);
	ck_assert_int_eq(last_of(DFZ_EV_HANG)->id, DFZ_IDMA_FIFO + 2);
	ck_assert_uint_eq(dfz_idma_last_id(dma), DFZ_IDMA_FIFO + 1);
	ck_assert_int_eq(dfz_idma_start_1d(NULL, l1, l2, 8), DFZ_EINVAL);
	ck_assert_int_eq(dfz_idma_start_2d(NULL, l1, l2, 8, 8, 8, 1), DFZ_EINVAL);
	ck_assert_int_eq(dfz_idma_wait(NULL, 1), DFZ_EINVAL);
	ck_assert_int_eq(dfz_idma_wait_all(NULL), DFZ_EINVAL);
	ck_assert_ptr_null(dfz_idma_get(NULL));
	ck_assert_uint_eq(dfz_idma_completed_id(NULL), 0);
	ck_assert_uint_eq(dfz_idma_last_id(NULL), 0);
	ck_assert(!dfz_idma_is_busy(NULL));
}
END_TEST

/* Every event: engine idma, handle NULL, id the txid; SERVICE and ISSUE
 * agree for a plain transfer. */
START_TEST(test_event_contract)
{
	uint8_t *l2, *l1;
	const struct dfz_event *svc = NULL;

	start_run(1, 1, 0);
	l2 = buffer(DFZ_L2, 48, 3);
	l1 = buffer(DFZ_L1, 48, 7);
	evlog.n = 0;
	ck_assert_int_eq(dfz_idma_start_2d(dma, l2, l1, 16, 16, 16, 3), 1);
	ck_assert_int_eq(dfz_idma_start_1d(dma, l1, l2, 1), 2);
	ck_assert_int_eq(dfz_idma_wait(dma, 1), 0);
	for (size_t i = 0; i < evlog.n; i++) {
		ck_assert_uint_eq(evlog.ev[i].engine, DFZ_ENGINE_IDMA);
		ck_assert_ptr_null(evlog.ev[i].handle);
		if (evlog.ev[i].kind == DFZ_EV_MOVE && evlog.ev[i].dst.level == DFZ_L2)
			ck_assert_int_eq(evlog.ev[i].id, 1);
		if (evlog.ev[i].kind == DFZ_EV_SERVICE && evlog.ev[i].id == 1)
			svc = &evlog.ev[i];
	}
	ck_assert_ptr_nonnull(svc);
	ck_assert_uint_eq(evlog.ev[0].kind, DFZ_EV_ISSUE);
	ck_assert_mem_eq(&evlog.ev[0].desc, &svc->desc, sizeof(struct dfz_desc));
	ck_assert_uint_eq(evlog.ev[0].desc.ext2loc, 0);
	ck_assert_int_eq(evlog.ev[0].aux, 0);
	ck_assert_uint_eq(evlog.ev[0].desc.is_2d, 1);
	ck_assert_int_eq(last_of(DFZ_EV_WAITED)->id, 1);
}
END_TEST

/* ------------------------------------------------------------ engine ops */

/* A 2-D load through the engine ops: 4 lines of 8 bytes, 16 apart in
 * @l2, contiguous in @l1. */
static struct dfz_desc ops_desc(const uint8_t *l2, const uint8_t *l1)
{
	struct dfz_span s2, s1;

	ck_assert(dfz_mem_locate(rt, l2, 1, &s2));
	ck_assert(dfz_mem_locate(rt, l1, 1, &s1));
	return (struct dfz_desc){ .ext_level = DFZ_L2, .loc_level = DFZ_L1,
				  .ext2loc = 1, .is_2d = 1, .ext_off = s2.off,
				  .loc_off = s1.off, .size = 32, .length = 8,
				  .ext_stride = 16, .loc_stride = 8 };
}

START_TEST(test_ops)
{
	const struct dfz_engine_ops *ops = dfz__engine_ops(DFZ_ENGINE_IDMA);
	uint8_t *l2, *l1;
	uint32_t *req;
	struct dfz_desc d;

	start_run(0, 0, 100);
	ck_assert(ops->can_share);
	ck_assert(ops->lagging_id);
	ck_assert_uint_eq(ops->kernel_ranks, 6);
	ck_assert_uint_eq(ops->max_size, 0);
	l2 = buffer(DFZ_L2, 64, 3);
	l1 = buffer(DFZ_L1, 64, 7);
	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L1, ops->req_size, (void **)&req), 0);
	d = ops_desc(l2, l1);
	ck_assert_int_eq(ops->issue(rt, req, &d), 0);
	ck_assert_uint_eq(*req, 1);
	ck_assert_mem_eq(&last_of(DFZ_EV_ISSUE)->desc, &d, sizeof(d));
	ck_assert_int_eq(last_of(DFZ_EV_ISSUE)->aux, 0);
	/* Its wait alone hangs; after a request-less transfer it resolves. */
	ck_assert_int_eq(ops->wait(rt, req), DFZ_EHANG);
	d.size = 1;
	d.is_2d = 0;
	d.length = d.ext_stride = d.loc_stride = 1;
	d.loc_off += 40;
	ck_assert_int_eq(ops->issue(rt, NULL, &d), 0);
	ck_assert_int_eq(last_of(DFZ_EV_ISSUE)->aux, DFZ_IDMA_UNOWED);
	ck_assert_uint_eq(*req, 1);
	ck_assert_int_eq(ops->wait(rt, req), 0);
	for (unsigned line = 0; line < 4; line++)
		ck_assert_mem_eq(l1 + 8 * line, l2 + 16 * line, 8);
	ck_assert_uint_eq(l1[40], l2[0]);
	d.ext_level = DFZ_L3;
	ck_assert_int_eq(ops->issue(rt, req, &d), DFZ_EINVAL);
	d.ext_level = DFZ_L2;
	d.is_2d = 1;
	d.size = 7;
	d.length = 2;
	ck_assert_int_eq(ops->issue(rt, req, &d), DFZ_EINVAL);
	d.is_2d = 0;
	d.loc_off = DFZ_CAP_L1;
	ck_assert_int_eq(ops->issue(rt, req, &d), DFZ_EFAULT);
	ck_assert_uint_eq(*req, 1);
	ck_assert_uint_eq(dfz_idma_last_id(dma), 2);
}
END_TEST

Suite *suite_idma(void)
{
	Suite *s = suite_create("idma");
	TCase *tc = tcase_create("engine");

	tcase_add_unchecked_fixture(tc, rt_setup, rt_teardown);
	tcase_add_test(tc, test_ids_from_one);
	tcase_add_test(tc, test_lag);
	tcase_add_test(tc, test_wait_reached);
	tcase_add_test(tc, test_zero_work_retires);
	tcase_add_test(tc, test_id_at_push_duplicates);
	tcase_add_test(tc, test_id_at_push_window);
	tcase_add_test(tc, test_id_at_push_pop_timing);
	tcase_add_test(tc, test_cut_bounds_waits);
	tcase_add_test(tc, test_lag_timing);
	tcase_add_test(tc, test_wait_all);
	tcase_add_test(tc, test_never_issued);
	tcase_add_loop_test(tc, test_2d_strided_both_sides, 0, 2);
	tcase_add_test(tc, test_time);
	tcase_add_test(tc, test_same_level_and_empty);
	tcase_add_test(tc, test_fault);
	tcase_add_test(tc, test_burst_as_steps);
	tcase_add_test(tc, test_burst_stops_at_pop);
	tcase_add_test(tc, test_backpressure_and_args);
	tcase_add_test(tc, test_event_contract);
	tcase_add_test(tc, test_ops);
	suite_add_tcase(s, tc);
	return s;
}
