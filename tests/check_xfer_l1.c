// SPDX-License-Identifier: MIT
/*
 * Unit tests of the N-d transfer adapter (runtime/xfer.c) on the L2<->L1
 * engines: the bytes every policy moves on mchan and idma for transfers of
 * rank 1 to 5 (against a naive gather/scatter written here), TID sharing
 * on mchan handles, the size guard that splits transfers of 2^17 bytes and
 * more (and the mchan-len-overflow switch that lets exactly 2^17 through
 * into the direction bit), the dummy transfer after every idma copy (and
 * the idma-no-dummy switch whose last wait hangs), and the local bytes a
 * handle takes.
 */
#include <assert.h>
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "ev_log.h"
#include "rt_fixture.h"

#include "xfer_ref.h"

/* ------------------------------------------------------------ fixtures */

static void start_run(const unsigned *v, unsigned n, uint32_t bugs,
		      uint32_t latency, uint32_t bandwidth, uint32_t wait_bound)
{
	struct dfz_rt_config cfg = {
		.latency = latency,
		.bandwidth = bandwidth,
		.wait_bound = wait_bound,
		.bugs = bugs,
		.sched = draw,
		.obs = { .fn = record },
	};

	sched_set(v, n);
	evlog_clear();
	ck_assert_int_eq(dfz_rt_reset(rt, &cfg), 0);
}

/* --------------------------------------------------------- test transfers */

struct xcase {
	uint8_t rank;
	uint8_t elem;
	uint32_t shape[DFZ_MAX_RANK];
	uint32_t ext[DFZ_MAX_RANK];
	uint32_t loc[DFZ_MAX_RANK];
};

static const struct xcase xcases[] = {
	/* Rank 1, contiguous. */
	{ 1, 4, { 20 }, { 4 }, { 4 } },
	/* Rank 1 with external gaps: a line per element. */
	{ 1, 2, { 9 }, { 6 }, { 2 } },
	/* Rank 2, one 2-D kernel call. */
	{ 2, 4, { 6, 7 }, { 100, 4 }, { 28, 4 } },
	/* Rank 3, gaps on both sides. */
	{ 3, 2, { 3, 4, 5 }, { 400, 40, 4 }, { 40, 10, 2 } },
	/* Rank 3, an NCHW -> NHWC permutation. */
	{ 3, 2, { 3, 4, 5 }, { 2, 80, 16 }, { 40, 10, 2 } },
	/* Rank 4, local rows with gaps. */
	{ 4, 1, { 2, 2, 3, 4 }, { 300, 100, 20, 1 }, { 40, 20, 6, 1 } },
	/* Rank 5, gaps everywhere. */
	{ 5, 2, { 2, 2, 3, 2, 3 }, { 1000, 400, 100, 30, 4 },
	  { 144, 72, 24, 12, 4 } },
};

static const unsigned engines[2] = { DFZ_ENGINE_MCHAN, DFZ_ENGINE_IDMA };

#define L2_BYTES 4096u
#define L1_BYTES 2048u

struct view {
	uint8_t *l2;
	uint8_t *l1;
	uint32_t l2_off;
	uint32_t l1_off;
};

static uint8_t *pattern_buffer(enum dfz_level level, uint32_t n, unsigned seed,
			       uint32_t *off)
{
	struct dfz_span s;
	void *p;

	ck_assert_int_eq(dfz_local_alloc(rt, level, n, &p), 0);
	for (uint32_t i = 0; i < n; i++)
		((uint8_t *)p)[i] = (uint8_t)(i * seed + 1);
	ck_assert(dfz_mem_locate(rt, p, 1, &s));
	*off = s.off;
	return p;
}

static struct view setup_memory(uint32_t l2_bytes, uint32_t l1_bytes)
{
	struct view v;

	v.l2 = pattern_buffer(DFZ_L2, l2_bytes, 7, &v.l2_off);
	v.l1 = pattern_buffer(DFZ_L1, l1_bytes, 13, &v.l1_off);
	return v;
}

static struct dfz_xfer xfer_of(const struct xcase *c, const struct view *v,
			       uint32_t ext_skip, uint32_t loc_skip, int ext2loc)
{
	struct dfz_xfer x = {
		.rank = c->rank,
		.elem = c->elem,
		.ext2loc = (uint8_t)ext2loc,
		.ext_level = DFZ_L2,
		.loc_level = DFZ_L1,
		.ext_off = v->l2_off + ext_skip,
		.loc_off = v->l1_off + loc_skip,
	};

	for (unsigned d = 0; d < c->rank; d++) {
		x.shape[d] = c->shape[d];
		x.ext_stride[d] = c->ext[d];
		x.loc_stride[d] = c->loc[d];
	}
	return x;
}

#define NCASES (sizeof(xcases) / sizeof(xcases[0]))
#define NPOLICY_RUNS (2 * NCASES * DFZ_POLICY_COUNT * 2 * NSCHED)

static_assert(NPOLICY_RUNS == 2 * 7 * 4 * 2 * 3,
	      "loop range of test_policy_bytes");

/* Events of @kind whose descriptor moves @size bytes. */
static size_t count_size(enum dfz_ev_kind kind, uint32_t size)
{
	size_t c = 0;

	for (size_t i = 0; i < evlog.n; i++)
		c += evlog.ev[i].kind == kind && evlog.ev[i].desc.size == size;
	return c;
}

/* What a clean run leaves of each engine's own bookkeeping. */
static void check_engine_state(unsigned engine)
{
	size_t issues = count_kind(DFZ_EV_ISSUE);

	if (engine == DFZ_ENGINE_IDMA) {
		/* A dummy after every copy. */
		ck_assert_uint_eq(issues % 2, 0);
		ck_assert_uint_ge(count_size(DFZ_EV_ISSUE, 1), issues / 2);
	} else {
		/* Every TID taken is given back. */
		ck_assert_uint_eq(count_kind(DFZ_EV_ID_ALLOC),
				  count_kind(DFZ_EV_ID_FREE));
		ck_assert_uint_eq(dfz_mchan_tids(dfz_mchan_get(rt)), 0);
	}
}

/*
 * Loop index -> (engine, case, policy, direction, schedule). Each run moves
 * one transfer, waits its handle, and compares both buffers with the naive
 * reference.
 */
START_TEST(test_policy_bytes)
{
	unsigned i = (unsigned)_i;
	unsigned engine = engines[i % 2];
	const struct xcase *c = &xcases[(i / 2) % NCASES];
	unsigned policy = (i / 2 / NCASES) % DFZ_POLICY_COUNT;
	int ext2loc = (i / 2 / NCASES / DFZ_POLICY_COUNT) % 2;
	const struct schedule *s =
		&schedules[i / 2 / NCASES / DFZ_POLICY_COUNT / 2];
	struct dfz_adapter ad = { .engine = (uint8_t)engine,
				  .policy = (uint8_t)policy, .pool_k = 3,
				  .req_level = DFZ_L1 };
	uint8_t want2[L2_BYTES], want1[L1_BYTES];
	struct dfz_handle h;
	struct view v;
	struct dfz_xfer x;
	size_t allocs;

	start_run(s->v, s->n, 0, 2, 8, 0);
	ad.rt = rt;
	v = setup_memory(L2_BYTES, L1_BYTES);
	allocs = count_kind(DFZ_EV_ALLOC);
	x = xfer_of(c, &v, 8, 4, ext2loc);
	memcpy(want2, v.l2, L2_BYTES);
	memcpy(want1, v.l1, L1_BYTES);
	naive_copy(&x, want2, v.l2_off, want1, v.l1_off);

	ck_assert_int_eq(dfz_handle_init(&ad, &h), 0);
	ck_assert_int_eq(dfz_xfer_issue(&ad, &x, &h), 0);
	ck_assert_int_eq(dfz_handle_wait(&ad, &h), 0);
	for (unsigned q = 0; q < h.nreq; q++)
		ck_assert_uint_eq(h.in_flight[q], 0);
	dfz_handle_fini(&ad, &h);
	ck_assert_uint_eq(count_kind(DFZ_EV_ALLOC) - allocs, count_kind(DFZ_EV_FREE));
	ck_assert_uint_eq(count_kind(DFZ_EV_FAULT), 0);
	ck_assert_uint_eq(count_kind(DFZ_EV_HANG), 0);
	ck_assert_mem_eq(v.l2, want2, L2_BYTES);
	ck_assert_mem_eq(v.l1, want1, L1_BYTES);
	check_engine_state(engine);
}
END_TEST

/* ------------------------------------------------------------------ mchan */

/* Issue case @c on @engine with @policy on a fresh handle. */
static void issue_case(struct dfz_adapter *ad, struct dfz_handle *h,
		       unsigned engine, const struct xcase *c, unsigned policy,
		       uint32_t bugs)
{
	struct view v;
	struct dfz_xfer x;

	start_run(sched_zero, 1, bugs, 2, 8, 200);
	*ad = (struct dfz_adapter){ .rt = rt, .engine = (uint8_t)engine,
				    .policy = (uint8_t)policy, .pool_k = 3,
				    .req_level = DFZ_L1 };
	v = setup_memory(L2_BYTES, L1_BYTES);
	x = xfer_of(c, &v, 0, 0, 1);
	ck_assert_int_eq(dfz_handle_init(ad, h), 0);
	evlog.n = 0;
	ck_assert_int_eq(dfz_xfer_issue(ad, &x, h), 0);
}

/* async-shared on mchan: every sub-transfer under one TID, no wait until
 * the handle's, then wait(tid); free(tid). */
START_TEST(test_mchan_shares_tid)
{
	struct dfz_adapter ad;
	struct dfz_handle h;

	issue_case(&ad, &h, DFZ_ENGINE_MCHAN, &xcases[3], DFZ_POLICY_ASYNC_SHARED, 0);
	ck_assert_uint_eq(count_kind(DFZ_EV_ISSUE), 12);
	ck_assert_uint_eq(count_kind(DFZ_EV_ID_ALLOC), 1);
	ck_assert_uint_eq(count_kind(DFZ_EV_WAIT), 0);
	for (size_t i = 0; i < evlog.n; i++)
		if (evlog.ev[i].kind == DFZ_EV_ISSUE)
			ck_assert_int_eq(evlog.ev[i].id, 0);
	ck_assert_int_eq(dfz_handle_wait(&ad, &h), 0);
	ck_assert_uint_eq(count_kind(DFZ_EV_WAITED), 1);
	ck_assert_uint_eq(count_kind(DFZ_EV_ID_FREE), 1);
	ck_assert_int_eq(nth_of(DFZ_EV_ID_FREE, 0)->id, 0);
	ck_assert_uint_eq(count_kind(DFZ_EV_COMPLETE), 12);
	dfz_handle_fini(&ad, &h);
}
END_TEST

/* pool:3 on mchan: one TID per request, round robin, each freed before its
 * request is reused; two handles hold different TIDs. */
START_TEST(test_mchan_pool_tids)
{
	struct dfz_adapter ad;
	struct dfz_handle h, h2;
	struct view v;
	struct dfz_xfer x;
	size_t j = 0;

	issue_case(&ad, &h, DFZ_ENGINE_MCHAN, &xcases[3], DFZ_POLICY_POOL, 0);
	for (size_t i = 0; i < evlog.n; i++)
		if (evlog.ev[i].kind == DFZ_EV_ISSUE)
			ck_assert_int_eq(evlog.ev[i].id, (int64_t)(j++ % 3));
	ck_assert_uint_eq(count_kind(DFZ_EV_ID_FREE), 9);
	ck_assert_uint_eq(dfz_mchan_tids(dfz_mchan_get(rt)), 0x7);
	ad.policy = DFZ_POLICY_ASYNC_SHARED;
	ck_assert_int_eq(dfz_handle_init(&ad, &h2), 0);
	v = setup_memory(L2_BYTES, L1_BYTES);
	x = xfer_of(&xcases[2], &v, 0, 0, 0);
	ck_assert_int_eq(dfz_xfer_issue(&ad, &x, &h2), 0);
	ck_assert_int_eq(nth_of(DFZ_EV_ISSUE, 12)->id, 3);
	ck_assert_int_eq(dfz_handle_wait(&ad, &h2), 0);
	ad.policy = DFZ_POLICY_POOL;
	ck_assert_int_eq(dfz_handle_wait(&ad, &h), 0);
	ck_assert_uint_eq(dfz_mchan_tids(dfz_mchan_get(rt)), 0);
	dfz_handle_fini(&ad, &h);
	ad.policy = DFZ_POLICY_ASYNC_SHARED;
	dfz_handle_fini(&ad, &h2);
}
END_TEST

/* mchan-tid-leak through the adapter: blocking waits leak a TID each, and
 * the 17th transfer finds none left. */
START_TEST(test_mchan_tid_leak)
{
	struct dfz_adapter ad;
	struct dfz_handle h;
	struct view v;
	struct dfz_xfer x;

	issue_case(&ad, &h, DFZ_ENGINE_MCHAN, &xcases[3], DFZ_POLICY_BLOCKING,
		   DFZ_BUG_BIT(MCHAN_TID_LEAK));
	/* 12 sub-transfers, each waited, none freed. */
	ck_assert_uint_eq(count_kind(DFZ_EV_WAITED), 12);
	ck_assert_uint_eq(count_kind(DFZ_EV_ID_FREE), 0);
	ck_assert_uint_eq(dfz_mchan_tids(dfz_mchan_get(rt)), 0xfff);
	v = setup_memory(L2_BYTES, L1_BYTES);
	x = xfer_of(&xcases[3], &v, 0, 0, 1);
	ck_assert_int_eq(dfz_xfer_issue(&ad, &x, &h), DFZ_EBUSY);
	ck_assert_uint_eq(count_kind(DFZ_EV_ID_ALLOC), 17);
	ck_assert_int_eq(nth_of(DFZ_EV_ID_ALLOC, 16)->aux, DFZ_EBUSY);
	dfz_handle_fini(&ad, &h);
}
END_TEST

/* ------------------------------------------------------------- size guard */

#define BIG (1u << 17)

struct guard_case {
	uint8_t rank;
	uint32_t shape[2];
	uint32_t ext[2];
	uint32_t bugs;
	unsigned pushes;                  /* ISSUE events */
	uint32_t first;                   /* size of the first push */
	bool correct;                     /* the data ends up right */
};

static const struct guard_case guard_cases[] = {
	/* Fixed: 2^17 + 1 and 2^17 split into a full push and the rest. */
	{ 1, { BIG + 1 }, { 1 }, 0, 2, BIG - 1, true },
	{ 1, { BIG }, { 1 }, 0, 2, BIG - 1, true },
	{ 1, { BIG - 1 }, { 1 }, 0, 1, BIG - 1, true },
	/* Fixed, 2-D: 40 lines of 4096 bytes, 31 lines per push. */
	{ 2, { 40, 4096 }, { 8192, 1 }, 0, 2, 31 * 4096, true },
	/* Fixed, 2-D of exactly 2^17: 31 lines, then 1. */
	{ 2, { 32, 4096 }, { 8192, 1 }, 0, 2, 31 * 4096, true },
	/* The switch: 2^17 passes the guard whole and moves nothing. */
	{ 1, { BIG }, { 1 }, DFZ_BUG_BIT(MCHAN_LEN_OVERFLOW), 1, BIG, false },
	{ 2, { 32, 4096 }, { 8192, 1 }, DFZ_BUG_BIT(MCHAN_LEN_OVERFLOW), 1,
	  BIG, false },
	/* The switch leaves 2^17 - 1 alone. */
	{ 1, { BIG - 1 }, { 1 }, DFZ_BUG_BIT(MCHAN_LEN_OVERFLOW), 1, BIG - 1,
	  true },
	/* The switch splits 2^17 + 1 into chunks of 2^17: one overflows. */
	{ 1, { BIG + 1 }, { 1 }, DFZ_BUG_BIT(MCHAN_LEN_OVERFLOW), 2, BIG,
	  false },
};

#define NGUARD (sizeof(guard_cases) / sizeof(guard_cases[0]))

#define GUARD_EXT (40 * 8192)
#define GUARD_LOC (40 * 4096)

/* The transfer of @g in fresh buffers @v; the local side contiguous. */
static struct dfz_xfer guard_xfer(const struct guard_case *g, int ext2loc,
				  struct view *v)
{
	struct dfz_xfer x = { .rank = g->rank, .elem = 1,
			      .ext2loc = (uint8_t)ext2loc,
			      .ext_level = DFZ_L2, .loc_level = DFZ_L1 };

	*v = setup_memory(GUARD_EXT, GUARD_LOC);
	x.ext_off = v->l2_off;
	x.loc_off = v->l1_off;
	for (unsigned d = 0; d < g->rank; d++) {
		x.shape[d] = g->shape[d];
		x.ext_stride[d] = g->ext[d];
		x.loc_stride[d] = d + 1 < g->rank ? g->shape[d + 1] : 1;
	}
	return x;
}

/* Loop index -> (case, direction). */
START_TEST(test_size_guard)
{
	const struct guard_case *g = &guard_cases[_i / 2];
	int ext2loc = _i % 2;
	struct dfz_adapter ad;
	struct dfz_handle h;
	struct dfz_xfer x;
	uint32_t ext_bytes = GUARD_EXT, loc_bytes = GUARD_LOC;
	static uint8_t want2[GUARD_EXT], want1[GUARD_LOC];
	const struct dfz_event *e;
	struct view v;
	bool same;

	start_run(sched_zero, 1, g->bugs, 1, 4096, 1u << 20);
	ad = (struct dfz_adapter){ .rt = rt, .engine = DFZ_ENGINE_MCHAN,
				   .policy = DFZ_POLICY_ASYNC_SHARED,
				   .req_level = DFZ_L1 };
	x = guard_xfer(g, ext2loc, &v);
	memcpy(want2, v.l2, ext_bytes);
	memcpy(want1, v.l1, loc_bytes);
	naive_copy(&x, want2, v.l2_off, want1, v.l1_off);

	ck_assert_int_eq(dfz_handle_init(&ad, &h), 0);
	ck_assert_int_eq(dfz_xfer_issue(&ad, &x, &h), 0);
	ck_assert_int_eq(dfz_handle_wait(&ad, &h), 0);
	dfz_handle_fini(&ad, &h);
	ck_assert_uint_eq(count_kind(DFZ_EV_ISSUE), g->pushes);
	e = nth_of(DFZ_EV_ISSUE, 0);
	ck_assert_uint_eq(e->desc.size, g->first);
	ck_assert_uint_eq(e->desc.ext2loc, ext2loc);
	/* The command's length field: the size, or 0 when it spilled. */
	ck_assert_uint_eq(e->aux & DFZ_MCHAN_LEN_MASK,
			  g->first == BIG ? 0 : g->first);
	ck_assert_uint_eq((e->aux >> DFZ_MCHAN_SHIFT_EXT2LOC) & 1,
			  g->first == BIG ? 1 : (unsigned)ext2loc);
	for (size_t i = 0; i < evlog.n; i++)
		if (evlog.ev[i].kind == DFZ_EV_ISSUE)
			ck_assert_uint_le(evlog.ev[i].desc.size,
					  g->bugs ? BIG : BIG - 1);
	same = memcmp(v.l2, want2, ext_bytes) == 0 &&
	       memcmp(v.l1, want1, loc_bytes) == 0;
	ck_assert_int_eq(same, g->correct);
}
END_TEST

/* ------------------------------------------------------------------- idma */

/* Fixed: a dummy follows every copy and every policy's waits resolve.
 * idma-no-dummy: the wait on the last copy hangs, though its bytes moved. */
START_TEST(test_idma_dummy)
{
	unsigned policy = (unsigned)_i % DFZ_POLICY_COUNT;
	bool bug = _i >= DFZ_POLICY_COUNT;
	struct dfz_adapter ad;
	struct dfz_handle h;
	struct view v;
	struct dfz_xfer x;
	size_t allocs;
	int rc;

	start_run(sched_mixed, 8, bug ? DFZ_BUG_BIT(IDMA_NO_DUMMY) : 0, 1, 8, 300);
	ad = (struct dfz_adapter){ .rt = rt, .engine = DFZ_ENGINE_IDMA,
				   .policy = (uint8_t)policy, .pool_k = 2,
				   .req_level = DFZ_L1 };
	v = setup_memory(L2_BYTES, L1_BYTES);
	allocs = count_kind(DFZ_EV_ALLOC);
	x = xfer_of(&xcases[3], &v, 0, 0, 1);
	ck_assert_int_eq(dfz_handle_init(&ad, &h), 0);
	rc = dfz_xfer_issue(&ad, &x, &h);
	if (rc == 0)
		rc = dfz_handle_wait(&ad, &h);
	if (!bug) {
		ck_assert_int_eq(rc, 0);
		ck_assert_uint_eq(count_kind(DFZ_EV_ISSUE), 24);
		ck_assert_uint_eq(count_size(DFZ_EV_ISSUE, 1), 12);
		ck_assert_uint_eq(count_kind(DFZ_EV_HANG), 0);
	} else {
		ck_assert_int_eq(rc, DFZ_EHANG);
		ck_assert_uint_eq(count_size(DFZ_EV_ISSUE, 1), 0);
		ck_assert_uint_eq(count_kind(DFZ_EV_HANG), 1);
		/* The hung wait is on the last txid issued. */
		ck_assert_int_eq(nth_of(DFZ_EV_HANG, 0)->id,
				 dfz_idma_last_id(dfz_idma_get(rt)));
		ck_assert_uint_eq(count_kind(DFZ_EV_COMPLETE),
				  count_kind(DFZ_EV_ISSUE));
	}
	dfz_handle_fini(&ad, &h);
	ck_assert_uint_eq(count_kind(DFZ_EV_ALLOC) - allocs, count_kind(DFZ_EV_FREE));
}
END_TEST

/* The dummy moves 0 over 0 between the handle's own scratch bytes. */
START_TEST(test_idma_dummy_scratch)
{
	struct dfz_adapter ad;
	struct dfz_handle h;
	const struct dfz_event *alloc2 = NULL, *alloc1 = NULL;
	struct dfz_desc dummy;

	issue_case(&ad, &h, DFZ_ENGINE_IDMA, &xcases[0], DFZ_POLICY_WAIT_EACH, 0);
	ck_assert_int_eq(dfz_handle_wait(&ad, &h), 0);
	ck_assert_uint_eq(count_kind(DFZ_EV_ISSUE), 2);
	dummy = nth_of(DFZ_EV_ISSUE, 1)->desc;
	ck_assert_uint_eq(dummy.size, 1);
	ck_assert_uint_eq(dummy.ext_level, DFZ_L2);
	ck_assert_uint_eq(dummy.loc_level, DFZ_L1);
	ck_assert_uint_eq(*dfz_mem_ptr(rt, DFZ_L2, dummy.ext_off), 0);
	ck_assert_uint_eq(*dfz_mem_ptr(rt, DFZ_L1, dummy.loc_off), 0);
	/* Marked as owed no wait; the copy is not. */
	ck_assert_int_eq(nth_of(DFZ_EV_ISSUE, 1)->aux, DFZ_IDMA_UNOWED);
	ck_assert_int_eq(nth_of(DFZ_EV_ISSUE, 0)->aux, 0);
	/* The dummy's last move lands on the L1 scratch byte. */
	ck_assert_uint_eq(nth_of(DFZ_EV_MOVE, count_kind(DFZ_EV_MOVE) - 1)->dst.off,
			  dummy.loc_off);
	evlog.n = 0;
	dfz_handle_fini(&ad, &h);
	ck_assert_uint_eq(count_kind(DFZ_EV_FREE), 3);
	for (size_t i = 0; i < evlog.n; i++) {
		const struct dfz_event *e = &evlog.ev[i];

		if (e->kind == DFZ_EV_FREE && e->dst.level == DFZ_L2)
			alloc2 = e;
		if (e->kind == DFZ_EV_FREE && e->dst.len == 1 &&
		    e->dst.level == DFZ_L1)
			alloc1 = e;
	}
	ck_assert_ptr_nonnull(alloc2);
	ck_assert_ptr_nonnull(alloc1);
	ck_assert_uint_eq(alloc2->dst.off, dummy.ext_off);
	ck_assert_uint_eq(alloc1->dst.off, dummy.loc_off);
}
END_TEST

/* ---------------------------------------------------------------- handles */

/* What one allocation of @size bytes takes from an arena. */
static uint64_t cost(uint32_t size)
{
	return ((size + 7u) & ~7u) + 2u * DFZ_REDZONE;
}

/* dfz__handle_bytes() matches what dfz_handle_init() allocates, per level,
 * for every engine and request level, single and pooled. */
START_TEST(test_handle_bytes)
{
	unsigned engine = (unsigned)_i % DFZ_ENGINE_COUNT;
	unsigned req_level = _i / DFZ_ENGINE_COUNT % 2 ? DFZ_L1 : DFZ_L2;
	unsigned policy = _i / DFZ_ENGINE_COUNT / 2 ? DFZ_POLICY_POOL
						    : DFZ_POLICY_BLOCKING;
	struct dfz_adapter ad = { .engine = (uint8_t)engine,
				  .policy = (uint8_t)policy, .pool_k = 5,
				  .req_level = (uint8_t)req_level };
	uint64_t used[DFZ_NLEVELS] = { 0 };
	struct dfz_handle h;

	start_run(NULL, 0, 0, 0, 0, 0);
	ad.rt = rt;
	ck_assert_int_eq(dfz_handle_init(&ad, &h), 0);
	for (size_t i = 0; i < evlog.n; i++) {
		const struct dfz_event *e = &evlog.ev[i];

		if (e->kind != DFZ_EV_ALLOC)
			continue;
		used[e->dst.level] += cost(e->dst.len);
		/* Request storage stays within a plan's DFZ_PLAN_REQ_BYTES. */
		ck_assert_uint_le(e->dst.len, 64);
	}
	for (unsigned l = 0; l < DFZ_NLEVELS; l++)
		ck_assert_uint_eq(dfz__handle_bytes(&ad, l), used[l]);
	ck_assert_uint_gt(used[req_level], 0);
	ck_assert_uint_eq(used[DFZ_L3], 0);
	ck_assert_uint_eq(used[DFZ_L1 + DFZ_L2 - req_level] > 0,
			  engine == DFZ_ENGINE_IDMA);
	dfz_handle_fini(&ad, &h);
	ck_assert_uint_eq(count_kind(DFZ_EV_ALLOC), count_kind(DFZ_EV_FREE));
	ad.engine = DFZ_ENGINE_COUNT;
	ck_assert_uint_eq(dfz__handle_bytes(&ad, DFZ_L1), 0);
	ck_assert_uint_eq(dfz__handle_bytes(NULL, DFZ_L1), 0);
}
END_TEST

/* Each allocation of an idma handle fails in turn (the scratch bytes
 * last); nothing stays live. */
START_TEST(test_handle_init_enomem)
{
	struct dfz_adapter ad = { .engine = DFZ_ENGINE_IDMA,
				  .policy = DFZ_POLICY_BLOCKING,
				  .req_level = DFZ_L1 };
	struct dfz_handle h;
	uint32_t l1_need, l2_need;

	start_run(NULL, 0, 0, 0, 0, 0);
	ad.rt = rt;
	l1_need = (uint32_t)dfz__handle_bytes(&ad, DFZ_L1);
	l2_need = (uint32_t)dfz__handle_bytes(&ad, DFZ_L2);
	/* Room for: nothing; the request; it and the L2 scratch; all. */
	for (unsigned fit = 0; fit < 4; fit++) {
		struct dfz_rt_config cfg = {
			.mem_size = { 0,
				      DFZ__MEM_RESERVED + (fit >= 2 ? l2_need : 0),
				      DFZ__MEM_RESERVED + (fit == 3 ? l1_need :
							   fit >= 1 ? l1_need - 8 : 0) },
			.obs = { .fn = record },
		};
		int rc;

		evlog.n = 0;
		ck_assert_int_eq(dfz_rt_reset(rt, &cfg), 0);
		ad.rt = rt;
		rc = dfz_handle_init(&ad, &h);
		ck_assert_int_eq(rc, fit == 3 ? 0 : DFZ_ENOMEM);
		ck_assert_uint_eq(count_kind(DFZ_EV_ALLOC), fit);
		if (rc == 0)
			dfz_handle_fini(&ad, &h);
		ck_assert_uint_eq(count_kind(DFZ_EV_ALLOC), count_kind(DFZ_EV_FREE));
	}
}
END_TEST

Suite *suite_xfer_l1(void)
{
	Suite *s = suite_create("xfer_l1");
	TCase *tc = tcase_create("adapter");

	tcase_add_unchecked_fixture(tc, rt_setup, rt_teardown);
	tcase_add_loop_test(tc, test_policy_bytes, 0, (int)NPOLICY_RUNS);
	tcase_add_test(tc, test_mchan_shares_tid);
	tcase_add_test(tc, test_mchan_pool_tids);
	tcase_add_test(tc, test_mchan_tid_leak);
	tcase_add_loop_test(tc, test_size_guard, 0, (int)(2 * NGUARD));
	tcase_add_loop_test(tc, test_idma_dummy, 0, 2 * DFZ_POLICY_COUNT);
	tcase_add_test(tc, test_idma_dummy_scratch);
	tcase_add_loop_test(tc, test_handle_bytes, 0, DFZ_ENGINE_COUNT * 4);
	tcase_add_test(tc, test_handle_init_enomem);
	suite_add_tcase(s, tc);
	return s;
}
