// SPDX-License-Identifier: MIT
/*
 * Unit tests of the mchan engine (runtime/mchan.c): TID allocation, release
 * and exhaustion, busy and wait (one wait covers every push on a TID), the
 * bytes 1-D, 2-D, 2-D-local and non-incrementing commands move and when,
 * the command word's bit layout and its decoding (a 2^17 length spills
 * into the direction bit and the transfer changes), the silent wait/free of
 * TIDs the hardware ignores, faults, FIFO back-pressure, the event
 * contract, and the engine ops with the mchan-tid-leak switch and the
 * transfer groups (a fresh TID when another was taken since; the
 * mchan-push-latest switch pushes on the latest instead, and the first
 * request's wait returns before its second transfer landed).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "ev_log.h"
#include "rt_fixture.h"

/* ------------------------------------------------------------ fixtures */

static struct dfz_mchan *mc;
static unsigned sched_steps;

/* A fresh run: @steps at every yield point, @latency, bandwidth 16. */
static void start_run(unsigned steps, uint32_t latency, uint32_t wait_bound,
		      uint32_t bugs)
{
	struct dfz_rt_config cfg = {
		.latency = latency,
		.bandwidth = 16,
		.wait_bound = wait_bound,
		.bugs = bugs,
		.sched = draw,
		.obs = { .fn = record },
	};

	sched_steps = steps;
	sched_set(&sched_steps, 1);
	evlog_clear();
	ck_assert_int_eq(dfz_rt_reset(rt, &cfg), 0);
	mc = dfz_mchan_get(rt);
	ck_assert_ptr_nonnull(mc);
}

static struct dfz_mchan_transfer xfer_1d(void *ext, void *loc, uint32_t len,
					 int ext2loc)
{
	return (struct dfz_mchan_transfer){
		.cmd = dfz_mchan_cmd(len, (unsigned)ext2loc, 1, 0, 0, 0, 1, 0),
		.size = len,
		.ext = ext,
		.loc = loc,
	};
}

/* ---------------------------------------------------------------- TIDs */

START_TEST(test_alloc_free_busy_wait)
{
	uint8_t *l2, *l1;

	start_run(0, 2, 0, 0);
	l2 = buffer(DFZ_L2, 64, 3);
	l1 = buffer(DFZ_L1, 64, 5);
	ck_assert_int_eq(dfz_mchan_transfer_get_id(mc), 0);
	ck_assert_int_eq(dfz_mchan_transfer_get_id(mc), 1);
	ck_assert_int_eq(dfz_mchan_transfer_get_id(mc), 2);
	ck_assert_uint_eq(dfz_mchan_tids(mc), 0x7);
	ck_assert_int_eq(dfz_mchan_transfer_free(mc, 1), 0);
	ck_assert_uint_eq(dfz_mchan_tids(mc), 0x5);
	/* The lowest free TID comes back. */
	ck_assert_int_eq(dfz_mchan_transfer_get_id(mc), 1);
	ck_assert(!dfz_mchan_transfer_busy(mc, 1));
	ck_assert_int_eq(dfz_mchan_transfer_push_1d(mc, 1, xfer_1d(l2, l1, 64, 1)), 0);
	ck_assert(dfz_mchan_transfer_busy(mc, 1));
	ck_assert(!dfz_mchan_transfer_busy(mc, 0));
	ck_assert_int_eq(dfz_mchan_transfer_wait(mc, 1), 0);
	ck_assert(!dfz_mchan_transfer_busy(mc, 1));
	ck_assert_mem_eq(l1, l2, 64);
	/* Waiting does not free. */
	ck_assert_uint_eq(dfz_mchan_tids(mc), 0x7);
	ck_assert_uint_eq(count_kind(DFZ_EV_ID_ALLOC), 4);
	ck_assert_uint_eq(count_kind(DFZ_EV_ID_FREE), 1);
	/* A reset drops every TID and starts time over. */
	start_run(0, 0, 0, 0);
	ck_assert_uint_eq(dfz_mchan_tids(mc), 0);
	ck_assert_int_eq(dfz_mchan_transfer_get_id(mc), 0);
}
END_TEST

START_TEST(test_tid_exhaustion)
{
	const struct dfz_event *e;

	start_run(0, 0, 0, 0);
	for (int t = 0; t < DFZ_MCHAN_NTIDS; t++) {
		ck_assert_int_eq(dfz_mchan_transfer_get_id(mc), t);
		e = last_of(DFZ_EV_ID_ALLOC);
		ck_assert_int_eq(e->id, t);
		ck_assert_int_eq(e->aux, 0);
	}
	ck_assert_int_eq(dfz_mchan_transfer_get_id(mc), DFZ_EBUSY);
	e = last_of(DFZ_EV_ID_ALLOC);
	ck_assert_int_eq(e->id, -1);
	ck_assert_int_eq(e->aux, DFZ_EBUSY);
	ck_assert_uint_eq(dfz_mchan_tids(mc), 0xffff);
	ck_assert_int_eq(dfz_mchan_transfer_free(mc, 7), 0);
	ck_assert_int_eq(dfz_mchan_transfer_get_id(mc), 7);
	ck_assert_int_eq(dfz_mchan_transfer_get_id(mc), DFZ_EBUSY);
}
END_TEST

/* Several pushes on one TID: one wait covers them all; bytes move only
 * while the engine steps. */
START_TEST(test_shared_tid_one_wait)
{
	uint8_t *l2, *l1, before[96];
	int tid;

	start_run(0, 3, 0, 0);
	l2 = buffer(DFZ_L2, 96, 3);
	l1 = buffer(DFZ_L1, 96, 7);
	memcpy(before, l1, 96);
	tid = dfz_mchan_transfer_get_id(mc);
	for (unsigned k = 0; k < 3; k++)
		ck_assert_int_eq(dfz_mchan_transfer_push_1d(
			mc, tid, xfer_1d(l2 + 32 * k, l1 + 32 * k, 32, 1)), 0);
	ck_assert_uint_eq(dfz_mchan_queued(mc), 3);
	ck_assert_mem_eq(l1, before, 96);
	ck_assert_uint_eq(count_kind(DFZ_EV_MOVE), 0);
	ck_assert_int_eq(dfz_mchan_transfer_wait(mc, tid), 0);
	ck_assert_uint_eq(count_kind(DFZ_EV_COMPLETE), 3);
	ck_assert_uint_eq(count_kind(DFZ_EV_WAITED), 1);
	ck_assert_uint_eq(dfz_mchan_queued(mc), 0);
	ck_assert_mem_eq(l1, l2, 96);
	/* All three ran under the one TID. */
	for (size_t i = 0; i < evlog.n; i++)
		if (evlog.ev[i].kind == DFZ_EV_ISSUE ||
		    evlog.ev[i].kind == DFZ_EV_COMPLETE)
			ck_assert_int_eq(evlog.ev[i].id, tid);
}
END_TEST

/* ---------------------------------------------------------------- bytes */

/* Latency then bandwidth: nothing moves for @latency steps, then 16 bytes
 * per step; both directions; the bytes around stay. */
START_TEST(test_1d_bytes_and_time)
{
	int ext2loc = _i;
	uint8_t *l2, *l1, want2[80], want1[80];

	start_run(0, 2, 0, 0);
	l2 = buffer(DFZ_L2, 80, 3);
	l1 = buffer(DFZ_L1, 80, 11);
	memcpy(want2, l2, 80);
	memcpy(want1, l1, 80);
	if (ext2loc)
		memcpy(want1 + 8, l2 + 4, 40);
	else
		memcpy(want2 + 4, l1 + 8, 40);
	ck_assert_int_eq(dfz_mchan_transfer_push_1d(mc, 0,
		xfer_1d(l2 + 4, l1 + 8, 40, ext2loc)), 0);
	dfz__rt_step(rt);
	dfz__rt_step(rt);
	ck_assert_uint_eq(count_kind(DFZ_EV_MOVE), 0);
	dfz__rt_step(rt);
	ck_assert_uint_eq(count_kind(DFZ_EV_MOVE), 1);
	ck_assert_uint_eq(last_of(DFZ_EV_MOVE)->dst.len, 16);
	ck_assert(dfz_mchan_transfer_busy(mc, 0));
	dfz__rt_step(rt);
	dfz__rt_step(rt);
	ck_assert(!dfz_mchan_transfer_busy(mc, 0));
	ck_assert_uint_eq(count_kind(DFZ_EV_MOVE), 3);
	ck_assert_mem_eq(l2, want2, 80);
	ck_assert_mem_eq(l1, want1, 80);
}
END_TEST

/* 2-D external: lines of 12 bytes, 40 apart in L2, contiguous in L1. */
START_TEST(test_2d_bytes)
{
	int ext2loc = _i;
	uint8_t *l2, *l1, want2[256], want1[64];
	struct dfz_mchan_transfer t;

	start_run(1, 1, 0, 0);
	l2 = buffer(DFZ_L2, 256, 3);
	l1 = buffer(DFZ_L1, 64, 13);
	memcpy(want2, l2, 256);
	memcpy(want1, l1, 64);
	for (unsigned line = 0; line < 5; line++) {
		if (ext2loc)
			memcpy(want1 + 2 + 12 * line, l2 + 6 + 40 * line, 12);
		else
			memcpy(want2 + 6 + 40 * line, l1 + 2 + 12 * line, 12);
	}
	t = (struct dfz_mchan_transfer){
		.cmd = dfz_mchan_cmd(60, (unsigned)ext2loc, 1, 0, 1, 0, 1, 0),
		.size = 60, .ext = l2 + 6, .loc = l1 + 2,
		.ext_size_1d = 12, .ext_stride_1d = 40,
	};
	ck_assert_int_eq(dfz_mchan_transfer_push_2d(mc, 4, t), 0);
	ck_assert_int_eq(dfz_mchan_transfer_wait(mc, 4), 0);
	ck_assert_mem_eq(l2, want2, 256);
	ck_assert_mem_eq(l1, want1, 64);
	/* No move crosses a line. */
	for (size_t i = 0; i < evlog.n; i++)
		if (evlog.ev[i].kind == DFZ_EV_MOVE)
			ck_assert_uint_le(evlog.ev[i].dst.len, 12);
}
END_TEST

/*
 * rt.c's stretches: waits (which take them) and single steps (which never
 * do) reach the same step, bytes, services, completions and faults, for
 * external and local 2-D lines, a command without increment and one that
 * faults in its second line (the stretch falls back to steps), at
 * bandwidths that do and do not divide the lines; the waits in fewer
 * moves.
 */
START_TEST(test_burst_as_steps)
{
	static const uint32_t bws[] = { 1, 5, 16 };

	for (unsigned b = 0; b < 3; b++) {
		struct ev_summary sum[2];
		uint8_t got[2][128];

		for (unsigned mode = 0; mode < 2; mode++) {
			struct dfz_rt_config cfg = {
				.latency = 3, .bandwidth = bws[b], .sched = draw,
				.obs = { .fn = record },
			};
			struct dfz_mchan_transfer t[4];
			uint8_t *l2, *l1;

			sched_set(NULL, 0);
			evlog_clear();
			ck_assert_int_eq(dfz_rt_reset(rt, &cfg), 0);
			mc = dfz_mchan_get(rt);
			l2 = buffer(DFZ_L2, 512, 3);
			l1 = buffer(DFZ_L1, 128, 13);
			t[0] = (struct dfz_mchan_transfer){
				.cmd = dfz_mchan_cmd(60, 1, 1, 0, 1, 0, 1, 0),
				.size = 60, .ext = l2 + 6, .loc = l1 + 2,
				.ext_size_1d = 12, .ext_stride_1d = 40,
			};
			t[1] = (struct dfz_mchan_transfer){
				.cmd = dfz_mchan_cmd(20, 1, 1, 1, 0, 0, 0, 0),
				.size = 20, .ext = l2 + 300, .loc = l1 + 64,
				.ext_size_1d = 20, .loc_size_1d = 5,
				.loc_stride_1d = 8,
			};
			t[2] = xfer_1d(l2 + 400, l1 + 100, 16, 1);
			t[2].cmd = dfz_mchan_cmd(16, 1, 0, 0, 0, 0, 0, 0);
			t[3] = (struct dfz_mchan_transfer){
				.cmd = dfz_mchan_cmd(24, 1, 1, 0, 1, 0, 1, 0),
				.size = 24, .ext = l2 + 450, .loc = l1 + 40,
				.ext_size_1d = 12,
				.ext_stride_1d = dfz_mem_size(rt, DFZ_L2),
			};
			for (int k = 0; k < 4; k++) {
				ck_assert_int_eq(dfz_mchan_transfer_get_id(mc), k);
				ck_assert_int_eq(dfz_mchan_transfer_push(mc, k, t[k]), 0);
			}
			for (int k = 0; k < 4 && mode; k++)
				ck_assert_int_eq(dfz_mchan_transfer_wait(mc, k), 0);
			while (!mode && !dfz__rt_is_idle(rt))
				dfz__rt_step(rt);
			memcpy(got[mode], l1, 128);
			ev_summarize(dfz_rt_now(rt), &sum[mode]);
		}
		ck_assert_uint_eq(sum[1].now, sum[0].now);
		ck_assert_uint_eq(sum[1].bytes, sum[0].bytes);
		ck_assert_uint_eq(sum[1].bytes, 60 + 20 + 16 + 12);
		ck_assert_uint_eq(sum[0].n, 4 + 4 + 1);
		ck_assert_uint_eq(sum[1].n, sum[0].n);
		ck_assert_mem_eq(sum[1].key, sum[0].key,
				 sizeof(sum[0].key[0]) * 3 * sum[0].n);
		ck_assert_mem_eq(got[1], got[0], 128);
		if (bws[b] < 16)
			ck_assert_uint_lt(sum[1].moves, sum[0].moves);
	}
}
END_TEST

/* The generic push with local 2-D words: L1 lines 8 apart. */
START_TEST(test_2d_local)
{
	uint8_t *l2, *l1, want1[64];
	struct dfz_mchan_transfer t;

	start_run(0, 0, 0, 0);
	l2 = buffer(DFZ_L2, 64, 3);
	l1 = buffer(DFZ_L1, 64, 13);
	memcpy(want1, l1, 64);
	for (unsigned line = 0; line < 4; line++)
		memcpy(want1 + 8 * line, l2 + 5 * line, 5);
	t = (struct dfz_mchan_transfer){
		.cmd = dfz_mchan_cmd(20, 1, 1, 1, 0, 0, 0, 0),
		.size = 20, .ext = l2, .loc = l1,
		.ext_size_1d = 20, .loc_size_1d = 5, .loc_stride_1d = 8,
	};
	ck_assert_int_eq(dfz_mchan_transfer_push(mc, 0, t), 0);
	ck_assert_int_eq(dfz_mchan_transfer_wait(mc, 0), 0);
	ck_assert_mem_eq(l1, want1, 64);
	/* The plain push leaves the local words out: a 2-D local command
	 * then reads a 0-byte line and faults. */
	ck_assert_int_eq(dfz_mchan_transfer_push_1d(mc, 0, t), 0);
	ck_assert_int_eq(dfz_mchan_transfer_wait(mc, 0), 0);
	ck_assert_uint_eq(count_kind(DFZ_EV_FAULT), 1);
}
END_TEST

/* Increment clear: the external address stays on its first byte. */
START_TEST(test_no_increment)
{
	uint8_t *l2, *l1;

	start_run(0, 0, 0, 0);
	l2 = buffer(DFZ_L2, 16, 3);
	l1 = buffer(DFZ_L1, 16, 13);
	ck_assert_int_eq(dfz_mchan_transfer_push_1d(mc, 0,
		(struct dfz_mchan_transfer){
			.cmd = dfz_mchan_cmd(16, 1, 0, 0, 0, 0, 0, 0),
			.size = 16, .ext = l2, .loc = l1 }), 0);
	ck_assert_int_eq(dfz_mchan_transfer_wait(mc, 0), 0);
	for (unsigned i = 0; i < 16; i++)
		ck_assert_uint_eq(l1[i], l2[0]);
}
END_TEST

/* --------------------------------------------------------- command word */

START_TEST(test_cmd_bits)
{
	static const unsigned shift[7] = {
		DFZ_MCHAN_SHIFT_EXT2LOC, DFZ_MCHAN_SHIFT_INC,
		DFZ_MCHAN_SHIFT_LOC_2D, DFZ_MCHAN_SHIFT_EXT_2D,
		DFZ_MCHAN_SHIFT_IRQ, DFZ_MCHAN_SHIFT_EVENT,
		DFZ_MCHAN_SHIFT_BROADCAST,
	};
	unsigned f[7] = { 0 };
	struct dfz_mchan_cmd_fields d;
	uint32_t cmd;

	/* Each flag alone, in MCHAN_CMD() argument order, at its bit. */
	f[_i] = 1;
	cmd = dfz_mchan_cmd(0x1234, f[0], f[1], f[2], f[3], f[4], f[5], f[6]);
	ck_assert_uint_eq(cmd, 0x1234u | 1u << shift[_i]);
	dfz_mchan_cmd_decode(cmd, &d);
	ck_assert_uint_eq(d.len, 0x1234);
	ck_assert_uint_eq(d.ext2loc, _i == 0);
	ck_assert_uint_eq(d.inc, _i == 1);
	ck_assert_uint_eq(d.loc_2d, _i == 2);
	ck_assert_uint_eq(d.ext_2d, _i == 3);
	ck_assert_uint_eq(d.irq, _i == 4);
	ck_assert_uint_eq(d.event, _i == 5);
	ck_assert_uint_eq(d.broadcast, _i == 6);
}
END_TEST

START_TEST(test_cmd_layout)
{
	struct dfz_mchan_cmd_fields d;

	ck_assert_uint_eq(DFZ_MCHAN_LEN_MASK, 0x1FFFF);
	/* What Deeploy emits for a 7168-byte L2->L1 1-D copy. */
	ck_assert_uint_eq(dfz_mchan_cmd(7168, 1, 1, 0, 0, 0, 1, 0), 1448960);
	ck_assert_uint_eq(dfz_mchan_cmd(7, 2, 3, 4, 5, 6, 7, 8), 0xFE0007);
	/* The length is not masked: 2^17 lands on the direction bit. */
	ck_assert_uint_eq(dfz_mchan_cmd(1u << 17, 0, 1, 0, 0, 0, 0, 0),
			  (1u << 17) | (1u << 18));
	dfz_mchan_cmd_decode(dfz_mchan_cmd(1u << 17, 0, 1, 0, 0, 0, 0, 0), &d);
	ck_assert_uint_eq(d.len, 0);
	ck_assert(d.ext2loc);
	dfz_mchan_cmd_decode(dfz_mchan_cmd(131071, 0, 1, 0, 0, 0, 0, 0), &d);
	ck_assert_uint_eq(d.len, 131071);
	ck_assert(!d.ext2loc);
}
END_TEST

#define BIG (1u << 17)

/* 131071 bytes: decoded and moved exactly, in both directions. */
START_TEST(test_decode_max_len)
{
	int ext2loc = _i;
	uint8_t *l2, *l1;

	start_run(0, 0, 1u << 20, 0);
	l2 = buffer(DFZ_L2, BIG, 3);
	l1 = buffer(DFZ_L1, BIG, 7);
	ck_assert_int_eq(dfz_mchan_transfer_push_1d(mc, 0,
		xfer_1d(l2, l1, BIG - 1, ext2loc)), 0);
	ck_assert_int_eq(dfz_mchan_transfer_wait(mc, 0), 0);
	ck_assert_mem_eq(l1, l2, BIG - 1);
	ck_assert_uint_ne(l1[BIG - 1], l2[BIG - 1]);
	ck_assert_uint_eq(last_of(DFZ_EV_SERVICE)->desc.size, BIG - 1);
}
END_TEST

/*
 * A command built from a length of 2^17 (+ k) executes something else:
 * the length field holds k and bit 17 reads as L2->L1. An L1->L2 copy of
 * 131072 bytes moves nothing; one of 131072 + 16 copies 16 bytes the wrong
 * way, over the source.
 */
START_TEST(test_decode_spilled_len)
{
	uint8_t *l2, *l1, keep2[64], keep1[64];
	const struct dfz_event *iss, *svc;
	uint32_t cmd;

	start_run(0, 0, 1u << 20, 0);
	l2 = buffer(DFZ_L2, BIG + 16, 3);
	l1 = buffer(DFZ_L1, BIG + 16, 7);
	memcpy(keep2, l2, 64);
	memcpy(keep1, l1, 64);
	cmd = dfz_mchan_cmd(BIG, 0, 1, 0, 0, 0, 1, 0);
	ck_assert_int_eq(dfz_mchan_transfer_push_1d(mc, 0,
		xfer_1d(l2, l1, BIG, 0)), 0);
	iss = last_of(DFZ_EV_ISSUE);
	ck_assert_uint_eq(iss->aux, cmd);
	ck_assert_uint_eq(iss->desc.size, BIG);
	ck_assert_int_eq(dfz_mchan_transfer_wait(mc, 0), 0);
	svc = last_of(DFZ_EV_SERVICE);
	ck_assert_uint_eq(svc->desc.size, 0);
	ck_assert_uint_eq(svc->desc.ext2loc, 1);
	ck_assert_uint_eq(count_kind(DFZ_EV_MOVE), 0);
	ck_assert_uint_eq(count_kind(DFZ_EV_COMPLETE), 1);
	ck_assert_mem_eq(l2, keep2, 64);

	ck_assert_int_eq(dfz_mchan_transfer_push_1d(mc, 0,
		xfer_1d(l2, l1, BIG + 16, 0)), 0);
	ck_assert_int_eq(dfz_mchan_transfer_wait(mc, 0), 0);
	ck_assert_uint_eq(last_of(DFZ_EV_SERVICE)->desc.size, 16);
	ck_assert_mem_eq(l2, keep2, 64);
	ck_assert_mem_eq(l1, l2, 16);
	ck_assert_mem_ne(l1, keep1, 16);
	ck_assert_mem_eq(l1 + 16, keep1 + 16, 48);
}
END_TEST

/* A 0-length command completes after its latency without a move. */
START_TEST(test_zero_length)
{
	uint8_t *l2, *l1;

	start_run(0, 4, 0, 0);
	l2 = buffer(DFZ_L2, 8, 3);
	l1 = buffer(DFZ_L1, 8, 7);
	ck_assert_int_eq(dfz_mchan_transfer_push_1d(mc, 2, xfer_1d(l2, l1, 0, 1)), 0);
	ck_assert(dfz_mchan_transfer_busy(mc, 2));
	ck_assert_int_eq(dfz_mchan_transfer_wait(mc, 2), 0);
	ck_assert_uint_eq(dfz_rt_now(rt), 5);
	ck_assert_uint_eq(count_kind(DFZ_EV_MOVE), 0);
	ck_assert_uint_eq(count_kind(DFZ_EV_COMPLETE), 1);
}
END_TEST

/* --------------------------------------------------------------- misuse */

/* The hardware returns at once for these; every call still emits. */
START_TEST(test_stale_wait_free)
{
	static const int tids[] = { 5, 16, 100, -1 };
	uint8_t *l2, *l1;

	start_run(0, 0, 0, 0);
	for (unsigned k = 0; k < 4; k++) {
		evlog.n = 0;
		ck_assert_int_eq(dfz_mchan_transfer_wait(mc, tids[k]), 0);
		ck_assert_int_eq(dfz_mchan_transfer_free(mc, tids[k]), 0);
		ck_assert_uint_eq(evlog.n, 3);
		ck_assert_uint_eq(evlog.ev[0].kind, DFZ_EV_WAIT);
		ck_assert_uint_eq(evlog.ev[1].kind, DFZ_EV_WAITED);
		ck_assert_uint_eq(evlog.ev[2].kind, DFZ_EV_ID_FREE);
		for (unsigned i = 0; i < 3; i++) {
			ck_assert_int_eq(evlog.ev[i].id, tids[k]);
			ck_assert_int_eq(evlog.ev[i].aux, 0);
		}
	}
	ck_assert_uint_eq(dfz_mchan_tids(mc), 0);
	/* Already freed, with nothing pending: returns at once. */
	l2 = buffer(DFZ_L2, 8, 3);
	l1 = buffer(DFZ_L1, 8, 7);
	evlog.n = 0;
	ck_assert_int_eq(dfz_mchan_transfer_get_id(mc), 0);
	ck_assert_int_eq(dfz_mchan_transfer_push_1d(mc, 0, xfer_1d(l2, l1, 8, 1)), 0);
	ck_assert_int_eq(dfz_mchan_transfer_wait(mc, 0), 0);
	ck_assert_int_eq(dfz_mchan_transfer_free(mc, 0), 0);
	ck_assert_int_eq(dfz_mchan_transfer_free(mc, 0), 0);
	ck_assert_uint_eq(dfz_rt_now(rt), 1);
	ck_assert_int_eq(dfz_mchan_transfer_wait(mc, 0), 0);
	ck_assert_uint_eq(dfz_rt_now(rt), 1);
	ck_assert_uint_eq(count_kind(DFZ_EV_ID_FREE), 2);
	ck_assert_uint_eq(count_kind(DFZ_EV_WAITED), 2);
	ck_assert_uint_eq(dfz_mchan_tids(mc), 0);
}
END_TEST

START_TEST(test_bad_arguments)
{
	struct dfz_mchan_transfer t = { 0 };
	struct dfz_mchan_cmd_fields f;

	start_run(0, 0, 0, 0);
	ck_assert_ptr_null(dfz_mchan_get(NULL));
	ck_assert_int_eq(dfz_mchan_transfer_get_id(NULL), DFZ_EINVAL);
	ck_assert_int_eq(dfz_mchan_transfer_free(NULL, 0), DFZ_EINVAL);
	ck_assert_int_eq(dfz_mchan_transfer_wait(NULL, 0), DFZ_EINVAL);
	ck_assert_int_eq(dfz_mchan_transfer_push_1d(NULL, 0, t), DFZ_EINVAL);
	ck_assert_int_eq(dfz_mchan_transfer_push_1d(mc, 16, t), DFZ_EINVAL);
	ck_assert_int_eq(dfz_mchan_transfer_push_2d(mc, -1, t), DFZ_EINVAL);
	ck_assert_int_eq(dfz_mchan_transfer_push(mc, 99, t), DFZ_EINVAL);
	ck_assert(!dfz_mchan_transfer_busy(NULL, 0));
	ck_assert(!dfz_mchan_transfer_busy(mc, 16));
	ck_assert_uint_eq(dfz_mchan_tids(NULL), 0);
	ck_assert_uint_eq(dfz_mchan_queued(NULL), 0);
	ck_assert_uint_eq(evlog.n, 0);
	dfz_mchan_cmd_decode(0xFFFFFFFFu, &f);
	ck_assert_uint_eq(f.len, 0x1FFFF);
}
END_TEST

/* Sides outside their levels: fault, complete, nothing moved. */
START_TEST(test_fault)
{
	uint8_t *l2, *l1, *l2b, keep[32];
	const struct dfz_event *e;

	start_run(0, 0, 0, 0);
	l2 = buffer(DFZ_L2, 32, 3);
	l2b = buffer(DFZ_L2, 32, 9);
	l1 = buffer(DFZ_L1, 32, 7);
	memcpy(keep, l2b, 32);
	/* Local side in L2. */
	ck_assert_int_eq(dfz_mchan_transfer_push_1d(mc, 0, xfer_1d(l2, l2b, 32, 1)), 0);
	/* External side in L1. */
	ck_assert_int_eq(dfz_mchan_transfer_push_1d(mc, 1, xfer_1d(l1, l2b, 32, 0)), 0);
	/* External side running past the end of L2. */
	ck_assert_int_eq(dfz_mchan_transfer_push_1d(mc, 2, xfer_1d(
		dfz_mem_ptr(rt, DFZ_L2, dfz_mem_size(rt, DFZ_L2) - 8), l1, 32, 1)), 0);
	ck_assert_int_eq(dfz_mchan_transfer_wait(mc, 2), 0);
	ck_assert_uint_eq(count_kind(DFZ_EV_FAULT), 3);
	ck_assert_uint_eq(count_kind(DFZ_EV_COMPLETE), 3);
	ck_assert_uint_eq(count_kind(DFZ_EV_MOVE), 0);
	ck_assert_mem_eq(l2b, keep, 32);
	e = last_of(DFZ_EV_FAULT);
	ck_assert_int_eq(e->id, 2);
	ck_assert_uint_eq(e->engine, DFZ_ENGINE_MCHAN);
}
END_TEST

/* A full FIFO back-pressures the push; past the bound it is a hang. */
START_TEST(test_fifo_backpressure)
{
	uint8_t *l2, *l1;

	start_run(0, 10, 0, 0);
	l2 = buffer(DFZ_L2, 8, 3);
	l1 = buffer(DFZ_L1, 8, 7);
	for (unsigned k = 0; k < DFZ_MCHAN_FIFO; k++)
		ck_assert_int_eq(dfz_mchan_transfer_push_1d(mc, 0, xfer_1d(l2, l1, 8, 1)), 0);
	ck_assert_uint_eq(dfz_rt_now(rt), 0);
	ck_assert_uint_eq(dfz_mchan_queued(mc), DFZ_MCHAN_FIFO);
	/* The first step takes one command into the channel. */
	ck_assert_int_eq(dfz_mchan_transfer_push_1d(mc, 0, xfer_1d(l2, l1, 8, 1)), 0);
	ck_assert_uint_eq(dfz_rt_now(rt), 1);
	ck_assert_uint_eq(dfz_mchan_queued(mc), DFZ_MCHAN_FIFO + 1);
	ck_assert_uint_eq(count_kind(DFZ_EV_ISSUE), DFZ_MCHAN_FIFO + 1);
	/* Now full with the channel busy for 10 more steps: bound 5 hangs. */
	start_run(0, 1000, 5, 0);
	for (unsigned k = 0; k <= DFZ_MCHAN_FIFO; k++)
		ck_assert_int_eq(dfz_mchan_transfer_push_1d(mc, 3, xfer_1d(l2, l1, 8, 1)), 0);
	ck_assert_int_eq(dfz_mchan_transfer_push_1d(mc, 3, xfer_1d(l2, l1, 8, 1)),
			 DFZ_EHANG);
	ck_assert_uint_eq(count_kind(DFZ_EV_HANG), 1);
	ck_assert_int_eq(last_of(DFZ_EV_HANG)->id, 3);
	ck_assert_uint_eq(count_kind(DFZ_EV_ISSUE), DFZ_MCHAN_FIFO + 1);
}
END_TEST

/* A wait that outlives the bound: DFZ_EHANG, HANG then WAITED. */
START_TEST(test_wait_hang)
{
	uint8_t *l2, *l1;
	const struct dfz_event *e;

	start_run(0, 1000, 20, 0);
	l2 = buffer(DFZ_L2, 8, 3);
	l1 = buffer(DFZ_L1, 8, 7);
	ck_assert_int_eq(dfz_mchan_transfer_push_1d(mc, 9, xfer_1d(l2, l1, 8, 1)), 0);
	ck_assert_int_eq(dfz_mchan_transfer_wait(mc, 9), DFZ_EHANG);
	ck_assert_uint_eq(count_kind(DFZ_EV_HANG), 1);
	e = &evlog.ev[evlog.n - 1];
	ck_assert_uint_eq(e->kind, DFZ_EV_WAITED);
	ck_assert_int_eq(e->aux, DFZ_EHANG);
	ck_assert_int_eq(e->id, 9);
	ck_assert(dfz_mchan_transfer_busy(mc, 9));
}
END_TEST

/* Every event: engine mchan, handle NULL, id the TID; SERVICE shows the
 * decoded command, ISSUE the one asked for with the command word. */
START_TEST(test_event_contract)
{
	uint8_t *l2, *l1;
	struct dfz_span s2, s1;
	const struct dfz_event *e;
	int tid;

	start_run(2, 1, 0, 0);
	l2 = buffer(DFZ_L2, 100, 3);
	l1 = buffer(DFZ_L1, 100, 7);
	ck_assert(dfz_mem_locate(rt, l2, 1, &s2));
	ck_assert(dfz_mem_locate(rt, l1, 1, &s1));
	evlog.n = 0;
	tid = dfz_mchan_transfer_get_id(mc);
	tid = dfz_mchan_transfer_get_id(mc);
	ck_assert_int_eq(dfz_mchan_transfer_push_1d(mc, tid, xfer_1d(l2, l1, 100, 0)), 0);
	ck_assert_int_eq(dfz_mchan_transfer_wait(mc, tid), 0);
	ck_assert_int_eq(dfz_mchan_transfer_free(mc, tid), 0);
	for (size_t i = 0; i < evlog.n; i++) {
		ck_assert_uint_eq(evlog.ev[i].engine, DFZ_ENGINE_MCHAN);
		ck_assert_ptr_null(evlog.ev[i].handle);
		if (i >= 1)
			ck_assert_int_eq(evlog.ev[i].id, 1);
	}
	e = last_of(DFZ_EV_ISSUE);
	ck_assert_uint_eq(e->aux, dfz_mchan_cmd(100, 0, 1, 0, 0, 0, 1, 0));
	ck_assert_uint_eq(e->desc.ext_level, DFZ_L2);
	ck_assert_uint_eq(e->desc.ext_off, s2.off);
	ck_assert_uint_eq(e->desc.loc_level, DFZ_L1);
	ck_assert_uint_eq(e->desc.loc_off, s1.off);
	ck_assert_uint_eq(e->desc.size, 100);
	ck_assert_uint_eq(e->desc.ext2loc, 0);
	ck_assert_mem_eq(&last_of(DFZ_EV_SERVICE)->desc, &e->desc, sizeof(e->desc));
	e = last_of(DFZ_EV_MOVE);
	ck_assert_uint_eq(e->dst.level, DFZ_L2);
	ck_assert_uint_eq(e->src.level, DFZ_L1);
	ck_assert_mem_eq(l2, l1, 100);
}
END_TEST

/* ------------------------------------------------------------ engine ops */

static struct dfz_desc desc_1d(const void *l2, const void *l1, uint32_t n)
{
	struct dfz_span s2, s1;

	ck_assert(dfz_mem_locate(rt, l2, 1, &s2));
	ck_assert(dfz_mem_locate(rt, l1, 1, &s1));
	return (struct dfz_desc){
		.ext_level = DFZ_L2, .loc_level = DFZ_L1, .ext2loc = 1,
		.ext_off = s2.off, .loc_off = s1.off, .size = n, .length = n,
		.ext_stride = n, .loc_stride = n,
	};
}

/* wait(tid); free(tid): the same TID comes back every round; with
 * mchan-tid-leak the 17th issue finds every TID taken. */
START_TEST(test_ops_tid_leak)
{
	int leak = _i;
	const struct dfz_engine_ops *ops = dfz__engine_ops(DFZ_ENGINE_MCHAN);
	uint8_t *l2, *l1;
	void *req;
	struct dfz_desc d;

	start_run(0, 0, 0, leak ? DFZ_BUG_BIT(MCHAN_TID_LEAK) : 0);
	l2 = buffer(DFZ_L2, 8, 3);
	l1 = buffer(DFZ_L1, 8, 7);
	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L1, ops->req_size, &req), 0);
	memset(req, 0, ops->req_size);
	d = desc_1d(l2, l1, 8);
	for (unsigned round = 0; round < DFZ_MCHAN_NTIDS; round++) {
		ck_assert_int_eq(ops->issue(rt, req, &d), 0);
		ck_assert_int_eq(ops->issue(rt, req, &d), 0);
		ck_assert_int_eq(last_of(DFZ_EV_ISSUE)->id, leak ? (int)round : 0);
		ck_assert_int_eq(ops->wait(rt, req), 0);
	}
	ck_assert_uint_eq(count_kind(DFZ_EV_ID_ALLOC), DFZ_MCHAN_NTIDS);
	ck_assert_uint_eq(count_kind(DFZ_EV_ISSUE), 2 * DFZ_MCHAN_NTIDS);
	if (leak) {
		ck_assert_uint_eq(count_kind(DFZ_EV_ID_FREE), 0);
		ck_assert_uint_eq(dfz_mchan_tids(mc), 0xffff);
		ck_assert_int_eq(ops->issue(rt, req, &d), DFZ_EBUSY);
		ck_assert_int_eq(last_of(DFZ_EV_ID_ALLOC)->aux, DFZ_EBUSY);
	} else {
		ck_assert_uint_eq(count_kind(DFZ_EV_ID_FREE), DFZ_MCHAN_NTIDS);
		ck_assert_uint_eq(dfz_mchan_tids(mc), 0);
		ck_assert_int_eq(ops->issue(rt, req, &d), 0);
		ck_assert_int_eq(ops->wait(rt, req), 0);
	}
	ck_assert_uint_eq(count_kind(DFZ_EV_ISSUE), 2 * DFZ_MCHAN_NTIDS + !leak);
	/* A wait on storage without a TID does nothing. */
	evlog.n = 0;
	ck_assert_int_eq(ops->wait(rt, req), 0);
	ck_assert_uint_eq(evlog.n, 0);
}
END_TEST

/*
 * Two requests, A B A: the third push finds B's TID the latest. Fixed, A
 * takes a fresh TID for its second group and its wait waits both, oldest
 * first; mchan-push-latest pushes it on B's TID, so A's wait returns while
 * those bytes are still queued, and only B's wait sees them land.
 */
START_TEST(test_ops_groups)
{
	bool bug = _i == 1;
	const struct dfz_engine_ops *ops = dfz__engine_ops(DFZ_ENGINE_MCHAN);
	uint8_t *l2, *l1;
	void *a, *b;
	struct dfz_desc d[3];

	start_run(0, 3, 0, bug ? DFZ_BUG_BIT(MCHAN_PUSH_LATEST) : 0);
	l2 = buffer(DFZ_L2, 48, 3);
	l1 = buffer(DFZ_L1, 48, 7);
	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L1, ops->req_size, &a), 0);
	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L1, ops->req_size, &b), 0);
	memset(a, 0, ops->req_size);
	memset(b, 0, ops->req_size);
	for (unsigned k = 0; k < 3; k++)
		d[k] = desc_1d(l2 + 16 * k, l1 + 16 * k, 16);
	ck_assert_int_eq(ops->issue(rt, a, &d[0]), 0);
	ck_assert_int_eq(ops->issue(rt, b, &d[1]), 0);
	ck_assert_int_eq(ops->issue(rt, a, &d[2]), 0);
	ck_assert_uint_eq(count_kind(DFZ_EV_ID_ALLOC), bug ? 2 : 3);
	ck_assert_int_eq(last_of(DFZ_EV_ISSUE)->id, bug ? 1 : 2);
	evlog.n = 0;
	ck_assert_int_eq(ops->wait(rt, a), 0);
	ck_assert_uint_eq(count_kind(DFZ_EV_WAIT), bug ? 1 : 2);
	ck_assert_int_eq(evlog.ev[0].id, 0);
	ck_assert_int_eq(memcmp(l1 + 32, l2 + 32, 16) != 0, bug);
	ck_assert(dfz_mchan_transfer_busy(mc, 1) == bug);
	ck_assert_uint_eq(dfz_mchan_tids(mc), 2);
	ck_assert_int_eq(ops->wait(rt, b), 0);
	ck_assert_int_eq(memcmp(l1, l2, 48), 0);
	ck_assert_uint_eq(dfz_mchan_tids(mc), 0);
	ck_assert_uint_eq(dfz_mchan_queued(mc), 0);
}
END_TEST

START_TEST(test_ops_reject)
{
	const struct dfz_engine_ops *ops = dfz__engine_ops(DFZ_ENGINE_MCHAN);
	uint8_t *l2, *l1;
	void *req;
	struct dfz_desc d;

	start_run(0, 0, 0, 0);
	l2 = buffer(DFZ_L2, 8, 3);
	l1 = buffer(DFZ_L1, 8, 7);
	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L1, ops->req_size, &req), 0);
	memset(req, 0, ops->req_size);
	ck_assert(ops->can_share);
	ck_assert_uint_eq(ops->kernel_ranks, 6);
	ck_assert_uint_eq(ops->max_size, 0x1FFFF);
	d = desc_1d(l2, l1, 8);
	d.ext_level = DFZ_L3;
	ck_assert_int_eq(ops->issue(rt, req, &d), DFZ_EINVAL);
	d = desc_1d(l2, l1, 8);
	d.loc_level = DFZ_L2;
	ck_assert_int_eq(ops->issue(rt, req, &d), DFZ_EINVAL);
	d = desc_1d(l2, l1, 8);
	d.is_2d = 1;
	d.loc_stride = 16;
	ck_assert_int_eq(ops->issue(rt, req, &d), DFZ_EINVAL);
	d = desc_1d(l2, l1, 8);
	d.ext_off = DFZ_CAP_L2 + 8;
	ck_assert_int_eq(ops->issue(rt, req, &d), DFZ_EFAULT);
	ck_assert_int_eq(ops->issue(rt, NULL, &d), DFZ_EINVAL);
	ck_assert_uint_eq(count_kind(DFZ_EV_ISSUE), 0);
	ck_assert_uint_eq(dfz_mchan_tids(mc), 0);
}
END_TEST

Suite *suite_mchan(void)
{
	Suite *s = suite_create("mchan");
	TCase *tc = tcase_create("engine");

	tcase_add_unchecked_fixture(tc, rt_setup, rt_teardown);
	tcase_add_test(tc, test_alloc_free_busy_wait);
	tcase_add_test(tc, test_tid_exhaustion);
	tcase_add_test(tc, test_shared_tid_one_wait);
	tcase_add_loop_test(tc, test_1d_bytes_and_time, 0, 2);
	tcase_add_loop_test(tc, test_2d_bytes, 0, 2);
	tcase_add_test(tc, test_2d_local);
	tcase_add_test(tc, test_burst_as_steps);
	tcase_add_test(tc, test_no_increment);
	tcase_add_loop_test(tc, test_cmd_bits, 0, 7);
	tcase_add_test(tc, test_cmd_layout);
	tcase_add_loop_test(tc, test_decode_max_len, 0, 2);
	tcase_add_test(tc, test_decode_spilled_len);
	tcase_add_test(tc, test_zero_length);
	tcase_add_test(tc, test_stale_wait_free);
	tcase_add_test(tc, test_bad_arguments);
	tcase_add_test(tc, test_fault);
	tcase_add_test(tc, test_fifo_backpressure);
	tcase_add_test(tc, test_wait_hang);
	tcase_add_test(tc, test_event_contract);
	tcase_add_loop_test(tc, test_ops_tid_leak, 0, 2);
	tcase_add_loop_test(tc, test_ops_groups, 0, 2);
	tcase_add_test(tc, test_ops_reject);
	suite_add_tcase(s, tc);
	return s;
}
