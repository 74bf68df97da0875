// SPDX-License-Identifier: MIT
/*
 * Unit tests of the N-d transfer adapter (runtime/xfer.c): normalisation
 * ranks, decomposition into kernel calls, the bytes every policy moves
 * (against a naive gather/scatter written here), the request use of each
 * policy, the reuse guard and the shared-handle switch that removes it,
 * handle allocation failures and error propagation.
 */
#include <assert.h>
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "ev_log.h"
#include "rt_fixture.h"

#include "xfer_ref.h"

/* ------------------------------------------------------------ fixtures */

/* A fresh run: schedule @v[0..n) (n 0: no steps), bug mask @bugs. */
static void start_run(const unsigned *v, unsigned n, uint32_t bugs,
		      uint32_t latency, uint32_t wait_bound)
{
	struct dfz_rt_config cfg = {
		.latency = latency,
		.bandwidth = 8,
		.wait_bound = wait_bound,
		.bugs = bugs,
		.sched = draw,
		.obs = { .fn = record },
	};

	sched_set(v, n);
	evlog_clear();
	ck_assert_int_eq(dfz_rt_reset(rt, &cfg), 0);
}

/* True when some request was issued again before a WAITED on it. */
static bool has_reissue_in_flight(void)
{
	for (size_t i = 0; i < evlog.n; i++) {
		if (evlog.ev[i].kind != DFZ_EV_ISSUE)
			continue;
		for (size_t k = i + 1; k < evlog.n; k++) {
			const struct dfz_event *e = &evlog.ev[k];

			if (e->handle != evlog.ev[i].handle)
				continue;
			if (e->kind == DFZ_EV_WAITED)
				break;
			if (e->kind == DFZ_EV_ISSUE)
				return true;
		}
	}
	return false;
}

/* --------------------------------------------------------- test transfers */

/* Logical transfers with their normalised rank and kernel calls on ram. */
struct xcase {
	uint8_t rank;
	uint8_t elem;
	uint32_t shape[DFZ_MAX_RANK];
	uint32_t ext[DFZ_MAX_RANK];
	uint32_t loc[DFZ_MAX_RANK];
	unsigned want_rank;
	unsigned want_calls;
};

static const struct xcase xcases[] = {
	/* Gaps between elements: only the byte dim stays a line. */
	{ 3, 2, { 3, 4, 5 }, { 400, 40, 4 }, { 40, 10, 2 }, 4, 12 },
	/* A 2-D strided block: one 2-D kernel call. */
	{ 2, 4, { 6, 7 }, { 100, 4 }, { 28, 4 }, 2, 1 },
	/* NCHW -> NHWC store of a (C_t=3, H=4, W=5) tile, C=8, e=2. */
	{ 3, 2, { 3, 4, 5 }, { 2, 80, 16 }, { 40, 10, 2 }, 3, 3 },
	/* Local rows with gaps: one line per kernel call. */
	{ 4, 1, { 2, 2, 3, 4 }, { 300, 100, 20, 1 }, { 40, 20, 6, 1 }, 4, 12 },
	/* A plain contiguous copy. */
	{ 3, 4, { 2, 3, 4 }, { 48, 16, 4 }, { 48, 16, 4 }, 1, 1 },
	/* elem 1 with an external stride: a unit line dim is appended. */
	{ 2, 1, { 5, 6 }, { 40, 3 }, { 6, 1 }, 3, 5 },
	/* Size-1 dims with odd strides are dropped. */
	{ 3, 4, { 1, 5, 1 }, { 999, 4, 7 }, { 3, 4, 1 }, 1, 1 },
};

static struct dfz_xfer xfer_of(const struct xcase *c, uint32_t ext_off,
			       uint32_t loc_off, int ext2loc)
{
	struct dfz_xfer x = {
		.rank = c->rank,
		.elem = c->elem,
		.ext2loc = (uint8_t)ext2loc,
		.ext_level = DFZ_L3,
		.loc_level = DFZ_L2,
		.ext_off = ext_off,
		.loc_off = loc_off,
	};

	for (unsigned d = 0; d < c->rank; d++) {
		x.shape[d] = c->shape[d];
		x.ext_stride[d] = c->ext[d];
		x.loc_stride[d] = c->loc[d];
	}
	return x;
}

START_TEST(test_rank_table)
{
	const struct xcase *c = &xcases[_i];
	struct dfz_xfer x = xfer_of(c, 0, 0, 1);

	ck_assert_uint_eq(dfz_xfer_rank(&x), c->want_rank);
}
END_TEST

START_TEST(test_rank_edge_cases)
{
	struct dfz_xfer x = xfer_of(&xcases[1], 0, 0, 1);

	x.shape[1] = 0;
	ck_assert_uint_eq(dfz_xfer_rank(&x), 0);
	x = xfer_of(&xcases[1], 0, 0, 1);
	x.elem = 0;
	ck_assert_uint_eq(dfz_xfer_rank(&x), 0);
	/* Everything size 1: one unit dim. */
	x = (struct dfz_xfer){ .rank = 2, .elem = 1, .shape = { 1, 1 },
			       .ext_stride = { 5, 9 }, .loc_stride = { 2, 3 } };
	ck_assert_uint_eq(dfz_xfer_rank(&x), 1);
	/* Merging reaches through a dim that becomes contiguous. */
	x = (struct dfz_xfer){ .rank = 3, .elem = 2, .shape = { 2, 3, 4 },
			       .ext_stride = { 24, 8, 2 },
			       .loc_stride = { 24, 8, 2 } };
	ck_assert_uint_eq(dfz_xfer_rank(&x), 1);
	/* Contiguous externally only: no merge of the outer dim. */
	x = (struct dfz_xfer){ .rank = 2, .elem = 4, .shape = { 2, 3 },
			       .ext_stride = { 12, 4 }, .loc_stride = { 24, 4 } };
	ck_assert_uint_eq(dfz_xfer_rank(&x), 2);
	x.rank = DFZ_MAX_RANK + 1;
	ck_assert_uint_eq(dfz_xfer_rank(&x), 0);
	x.rank = 0;
	ck_assert_uint_eq(dfz_xfer_rank(&x), 0);
	ck_assert_uint_eq(dfz_xfer_rank(NULL), 0);
}
END_TEST

START_TEST(test_names)
{
	ck_assert_str_eq(dfz_policy_name(DFZ_POLICY_ASYNC_SHARED), "async-shared");
	ck_assert_str_eq(dfz_policy_name(DFZ_POLICY_WAIT_EACH), "wait-each");
	ck_assert_str_eq(dfz_policy_name(DFZ_POLICY_POOL), "pool");
	ck_assert_str_eq(dfz_policy_name(DFZ_POLICY_BLOCKING), "blocking");
	ck_assert_ptr_null(dfz_policy_name(DFZ_POLICY_COUNT));
	ck_assert_str_eq(dfz_strategy_name(DFZ_STRAT_TENSOR_DIR), "tensor-dir");
	ck_assert_str_eq(dfz_strategy_name(DFZ_STRAT_DIR), "dir");
	ck_assert_str_eq(dfz_strategy_name(DFZ_STRAT_BARRIER), "barrier");
	ck_assert_str_eq(dfz_strategy_name(DFZ_STRAT_FRESH), "fresh");
	ck_assert_ptr_null(dfz_strategy_name(DFZ_STRAT_COUNT));
}
END_TEST

/* ------------------------------------------------------ bytes and policies */

#define L3_BYTES 4096u
#define LOC_BYTES 2048u

struct arena_view {
	uint32_t l3_off;
	void *loc;
	struct dfz_span loc_span;
};

static struct arena_view setup_memory(void)
{
	struct arena_view v;
	uint8_t pat[L3_BYTES];

	ck_assert_int_eq(dfz_l3_alloc(rt, L3_BYTES, &v.l3_off), 0);
	for (uint32_t i = 0; i < L3_BYTES; i++)
		pat[i] = (uint8_t)(i * 7 + 3);
	ck_assert_int_eq(dfz_l3_write(rt, v.l3_off, pat, L3_BYTES), 0);
	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L2, LOC_BYTES, &v.loc), 0);
	for (uint32_t i = 0; i < LOC_BYTES; i++)
		((uint8_t *)v.loc)[i] = (uint8_t)(i * 13 + 1);
	ck_assert(dfz_mem_locate(rt, v.loc, LOC_BYTES, &v.loc_span));
	return v;
}

#define NCASES (sizeof(xcases) / sizeof(xcases[0]))
#define NPOLICY_RUNS (NCASES * DFZ_POLICY_COUNT * 2 * NSCHED)

/*
 * Loop index -> (case, policy, direction, schedule). Each run moves one
 * transfer, waits it, and compares both memories with the naive reference.
 */
START_TEST(test_policy_bytes)
{
	unsigned i = (unsigned)_i;
	const struct xcase *c = &xcases[i % NCASES];
	unsigned policy = (i / NCASES) % DFZ_POLICY_COUNT;
	int ext2loc = (i / NCASES / DFZ_POLICY_COUNT) % 2;
	const struct schedule *s = &schedules[i / NCASES / DFZ_POLICY_COUNT / 2];
	struct dfz_adapter ad = { .engine = DFZ_ENGINE_RAM, .policy = (uint8_t)policy,
				  .pool_k = 3, .req_level = DFZ_L2 };
	static uint8_t l3_want[L3_BYTES], l3_got[L3_BYTES];
	uint8_t loc_want[LOC_BYTES];
	struct dfz_handle h;
	struct arena_view v;
	struct dfz_xfer x;

	start_run(s->v, s->n, 0, 2, 0);
	ad.rt = rt;
	v = setup_memory();
	x = xfer_of(c, v.l3_off + 8, v.loc_span.off + 4, ext2loc);
	ck_assert_int_eq(dfz_l3_read(rt, v.l3_off, l3_want, L3_BYTES), 0);
	memcpy(loc_want, v.loc, LOC_BYTES);
	naive_copy(&x, l3_want, v.l3_off, loc_want, v.loc_span.off);

	ck_assert_int_eq(dfz_handle_init(&ad, &h), 0);
	ck_assert_int_eq(dfz_xfer_issue(&ad, &x, &h), 0);
	ck_assert_uint_eq(count_kind(DFZ_EV_ISSUE), c->want_calls);
	ck_assert_int_eq(dfz_handle_wait(&ad, &h), 0);
	for (unsigned q = 0; q < h.nreq; q++)
		ck_assert_uint_eq(h.in_flight[q], 0);
	ck_assert(!has_reissue_in_flight());
	dfz_handle_fini(&ad, &h);

	ck_assert_int_eq(dfz_l3_read(rt, v.l3_off, l3_got, L3_BYTES), 0);
	ck_assert_mem_eq(l3_got, l3_want, L3_BYTES);
	ck_assert_mem_eq(v.loc, loc_want, LOC_BYTES);
}
END_TEST

/* Issue case @c with @policy on a fresh handle under the zero schedule. */
static void issue_case(struct dfz_adapter *ad, struct dfz_handle *h,
		       const struct xcase *c, unsigned policy, uint32_t bugs)
{
	struct arena_view v;
	struct dfz_xfer x;

	start_run(sched_zero, 1, bugs, 2, 0);
	*ad = (struct dfz_adapter){ .rt = rt, .engine = DFZ_ENGINE_RAM,
				    .policy = (uint8_t)policy, .pool_k = 3,
				    .req_level = DFZ_L2 };
	v = setup_memory();
	x = xfer_of(c, v.l3_off, v.loc_span.off, 1);
	ck_assert_int_eq(dfz_handle_init(ad, h), 0);
	evlog.n = 0;
	ck_assert_int_eq(dfz_xfer_issue(ad, &x, h), 0);
}

START_TEST(test_wait_each_leaves_last)
{
	struct dfz_adapter ad;
	struct dfz_handle h;

	issue_case(&ad, &h, &xcases[0], DFZ_POLICY_WAIT_EACH, 0);
	ck_assert_uint_eq(count_kind(DFZ_EV_ISSUE), 12);
	ck_assert_uint_eq(count_kind(DFZ_EV_WAITED), 11);
	ck_assert_uint_eq(h.in_flight[0], 1);
	ck_assert_int_eq(dfz_handle_wait(&ad, &h), 0);
	ck_assert_uint_eq(count_kind(DFZ_EV_WAITED), 12);
	ck_assert_uint_eq(h.in_flight[0], 0);
	/* A second wait has nothing in flight: no engine call. */
	ck_assert_int_eq(dfz_handle_wait(&ad, &h), 0);
	ck_assert_uint_eq(count_kind(DFZ_EV_WAIT), 12);
	dfz_handle_fini(&ad, &h);
}
END_TEST

START_TEST(test_blocking_waits_each)
{
	struct dfz_adapter ad;
	struct dfz_handle h;
	const void *last = NULL;

	issue_case(&ad, &h, &xcases[3], DFZ_POLICY_BLOCKING, 0);
	ck_assert_uint_eq(count_kind(DFZ_EV_ISSUE), 12);
	ck_assert_uint_eq(count_kind(DFZ_EV_WAITED), 12);
	ck_assert_uint_eq(h.in_flight[0], 0);
	/* ISSUE and WAITED alternate. */
	for (size_t i = 0; i < evlog.n; i++) {
		if (evlog.ev[i].kind == DFZ_EV_ISSUE) {
			ck_assert_ptr_null(last);
			last = evlog.ev[i].handle;
		} else if (evlog.ev[i].kind == DFZ_EV_WAITED) {
			ck_assert_ptr_eq(evlog.ev[i].handle, last);
			last = NULL;
		}
	}
	dfz_handle_fini(&ad, &h);
}
END_TEST

START_TEST(test_pool_round_robin)
{
	struct dfz_adapter ad;
	struct dfz_handle h;
	size_t j = 0;

	issue_case(&ad, &h, &xcases[0], DFZ_POLICY_POOL, 0);
	ck_assert_uint_eq(h.nreq, 3);
	ck_assert_ptr_ne(h.req[0], h.req[1]);
	ck_assert_ptr_ne(h.req[1], h.req[2]);
	ck_assert_ptr_ne(h.req[0], h.req[2]);
	for (size_t i = 0; i < evlog.n; i++)
		if (evlog.ev[i].kind == DFZ_EV_ISSUE)
			ck_assert_ptr_eq(evlog.ev[i].handle, h.req[j++ % 3]);
	ck_assert_uint_eq(j, 12);
	/* Requests are waited only before reuse: 12 issues, 9 reuses. */
	ck_assert_uint_eq(count_kind(DFZ_EV_WAITED), 9);
	ck_assert(!has_reissue_in_flight());
	ck_assert_int_eq(dfz_handle_wait(&ad, &h), 0);
	ck_assert_uint_eq(count_kind(DFZ_EV_WAITED), 12);
	dfz_handle_fini(&ad, &h);
}
END_TEST

/* The guard (the fix of bug 1): async-shared on ram waits the one request
 * before every re-issue, so the queue never links to itself. */
START_TEST(test_async_shared_guarded)
{
	struct dfz_adapter ad;
	struct dfz_handle h;
	const struct dfz_ram_req *req;

	issue_case(&ad, &h, &xcases[2], DFZ_POLICY_ASYNC_SHARED, 0);
	req = h.req[0];
	ck_assert_uint_eq(count_kind(DFZ_EV_ISSUE), 3);
	ck_assert_uint_eq(count_kind(DFZ_EV_WAITED), 2);
	ck_assert(!has_reissue_in_flight());
	ck_assert_ptr_ne(req->next, req);
	ck_assert_int_eq(dfz_handle_wait(&ad, &h), 0);
	dfz_handle_fini(&ad, &h);
}
END_TEST

/* shared-handle: the rank-3 transfer re-issues its in-flight request and
 * the driver links the tail to itself; nothing else changes. */
START_TEST(test_shared_handle_bug)
{
	struct dfz_adapter ad;
	struct dfz_handle h;
	const struct dfz_ram_req *req;

	issue_case(&ad, &h, &xcases[2], DFZ_POLICY_ASYNC_SHARED,
		   DFZ_BUG_BIT(SHARED_HANDLE));
	req = h.req[0];
	ck_assert_uint_eq(count_kind(DFZ_EV_ISSUE), 3);
	ck_assert_uint_eq(count_kind(DFZ_EV_WAITED), 0);
	ck_assert(has_reissue_in_flight());
	ck_assert_ptr_eq(req->next, req);
	ck_assert_ptr_eq(dfz_ram_queue_head(dfz_ram_get(rt)), req);
}
END_TEST

START_TEST(test_shared_handle_rank2_unaffected)
{
	struct dfz_adapter ad;
	struct dfz_handle h;
	const struct dfz_ram_req *req;

	issue_case(&ad, &h, &xcases[1], DFZ_POLICY_ASYNC_SHARED,
		   DFZ_BUG_BIT(SHARED_HANDLE));
	req = h.req[0];
	ck_assert_uint_eq(count_kind(DFZ_EV_ISSUE), 1);
	ck_assert(!has_reissue_in_flight());
	ck_assert_ptr_null(req->next);
	ck_assert_int_eq(dfz_handle_wait(&ad, &h), 0);
	ck_assert_uint_eq(count_kind(DFZ_EV_WAITED), 1);
	dfz_handle_fini(&ad, &h);
}
END_TEST

/* The switch removes only the guard: wait-each and pool still wait. */
START_TEST(test_shared_handle_other_policies)
{
	struct dfz_adapter ad;
	struct dfz_handle h;

	issue_case(&ad, &h, &xcases[0], DFZ_POLICY_WAIT_EACH,
		   DFZ_BUG_BIT(SHARED_HANDLE));
	ck_assert(!has_reissue_in_flight());
	ck_assert_int_eq(dfz_handle_wait(&ad, &h), 0);
	dfz_handle_fini(&ad, &h);
	issue_case(&ad, &h, &xcases[0], DFZ_POLICY_POOL,
		   DFZ_BUG_BIT(SHARED_HANDLE));
	ck_assert(!has_reissue_in_flight());
	ck_assert_int_eq(dfz_handle_wait(&ad, &h), 0);
	dfz_handle_fini(&ad, &h);
}
END_TEST

/* Two transfers on one handle: the guard also covers the first sub-transfer
 * of the second transfer (the generalised fix). */
START_TEST(test_guard_across_transfers)
{
	struct dfz_adapter ad;
	struct dfz_handle h;
	struct dfz_xfer x = xfer_of(&xcases[1], 0, 0, 1);
	struct arena_view v;

	for (unsigned bug = 0; bug < 2; bug++) {
		issue_case(&ad, &h, &xcases[1], DFZ_POLICY_WAIT_EACH,
			   bug ? DFZ_BUG_BIT(SHARED_HANDLE) : 0);
		v = setup_memory();
		x = xfer_of(&xcases[1], v.l3_off, v.loc_span.off, 0);
		ck_assert_int_eq(dfz_xfer_issue(&ad, &x, &h), 0);
		ck_assert_uint_eq(count_kind(DFZ_EV_ISSUE), 2);
		ck_assert(has_reissue_in_flight() == (bug == 1));
		if (!bug) {
			ck_assert_int_eq(dfz_handle_wait(&ad, &h), 0);
			dfz_handle_fini(&ad, &h);
		}
	}
}
END_TEST

/* -------------------------------------------------------------- errors */

START_TEST(test_empty_is_noop)
{
	struct dfz_adapter ad = { .engine = DFZ_ENGINE_RAM,
				  .policy = DFZ_POLICY_BLOCKING,
				  .req_level = DFZ_L2 };
	struct dfz_handle h;
	struct dfz_xfer x = xfer_of(&xcases[0], 0, 0, 1);

	start_run(NULL, 0, 0, 0, 0);
	ad.rt = rt;
	ck_assert_int_eq(dfz_handle_init(&ad, &h), 0);
	evlog.n = 0;
	x.shape[2] = 0;
	ck_assert_int_eq(dfz_xfer_issue(&ad, &x, &h), 0);
	ck_assert_uint_eq(evlog.n, 0);
	ck_assert_int_eq(dfz_handle_wait(&ad, &h), 0);
	ck_assert_uint_eq(evlog.n, 0);
	dfz_handle_fini(&ad, &h);
}
END_TEST

START_TEST(test_bad_arguments)
{
	struct dfz_adapter ad = { .engine = DFZ_ENGINE_RAM,
				  .policy = DFZ_POLICY_POOL, .pool_k = 0,
				  .req_level = DFZ_L2 };
	struct dfz_handle h;
	struct dfz_xfer x = xfer_of(&xcases[0], 0, 0, 1);

	start_run(NULL, 0, 0, 0, 0);
	ad.rt = rt;
	ck_assert_int_eq(dfz_handle_init(&ad, &h), DFZ_EINVAL);
	ad.pool_k = DFZ_MAX_POOL + 1;
	ck_assert_int_eq(dfz_handle_init(&ad, &h), DFZ_EINVAL);
	ad.pool_k = 2;
	ad.req_level = DFZ_L3;
	ck_assert_int_eq(dfz_handle_init(&ad, &h), DFZ_EINVAL);
	ad.req_level = DFZ_L2;
	ad.engine = DFZ_ENGINE_COUNT;
	ck_assert_int_eq(dfz_handle_init(&ad, &h), DFZ_EINVAL);
	ad.engine = DFZ_ENGINE_RAM;
	ck_assert_int_eq(dfz_handle_init(&ad, &h), 0);
	ck_assert_int_eq(dfz_xfer_issue(&ad, NULL, &h), DFZ_EINVAL);
	ck_assert_int_eq(dfz_xfer_issue(NULL, &x, &h), DFZ_EINVAL);
	x.rank = DFZ_MAX_RANK + 1;
	ck_assert_int_eq(dfz_xfer_issue(&ad, &x, &h), DFZ_EINVAL);
	/* Offsets past 32 bits: rejected before anything is issued. */
	x = xfer_of(&xcases[0], UINT32_MAX - 100, 0, 1);
	evlog.n = 0;
	ck_assert_int_eq(dfz_xfer_issue(&ad, &x, &h), DFZ_ERANGE);
	ck_assert_uint_eq(count_kind(DFZ_EV_ISSUE), 0);
	/* A local side outside the memory model: the engine's error. */
	x = xfer_of(&xcases[1], 64, DFZ_CAP_L2 + 64, 1);
	ck_assert_int_eq(dfz_xfer_issue(&ad, &x, &h), DFZ_EFAULT);
	ck_assert_uint_eq(h.in_flight[0] | h.in_flight[1], 0);
	dfz_handle_fini(&ad, &h);
	dfz_handle_fini(&ad, NULL);
}
END_TEST

/* A hang in an internal wait propagates; so does one in dfz_handle_wait. */
START_TEST(test_hang_propagates)
{
	struct dfz_adapter ad;
	struct dfz_handle h;
	struct arena_view v;
	struct dfz_xfer x;

	start_run(NULL, 0, 0, 1000, 10);
	ad = (struct dfz_adapter){ .rt = rt, .engine = DFZ_ENGINE_RAM,
				   .policy = DFZ_POLICY_BLOCKING,
				   .req_level = DFZ_L2 };
	v = setup_memory();
	x = xfer_of(&xcases[0], v.l3_off, v.loc_span.off, 1);
	ck_assert_int_eq(dfz_handle_init(&ad, &h), 0);
	ck_assert_int_eq(dfz_xfer_issue(&ad, &x, &h), DFZ_EHANG);
	ck_assert_uint_eq(count_kind(DFZ_EV_ISSUE), 1);
	ck_assert_uint_eq(count_kind(DFZ_EV_HANG), 1);
	dfz_handle_fini(&ad, &h);

	start_run(NULL, 0, 0, 1000, 10);
	ad.policy = DFZ_POLICY_ASYNC_SHARED;
	v = setup_memory();
	x = xfer_of(&xcases[1], v.l3_off, v.loc_span.off, 1);
	ck_assert_int_eq(dfz_handle_init(&ad, &h), 0);
	ck_assert_int_eq(dfz_xfer_issue(&ad, &x, &h), 0);
	ck_assert_int_eq(dfz_handle_wait(&ad, &h), DFZ_EHANG);
	ck_assert_uint_eq(h.in_flight[0], 0);
	dfz_handle_fini(&ad, &h);
}
END_TEST

/* Every allocation of a pool handle fails in turn; nothing stays live. */
START_TEST(test_handle_init_enomem)
{
	struct dfz_adapter ad = { .engine = DFZ_ENGINE_RAM,
				  .policy = DFZ_POLICY_POOL,
				  .pool_k = DFZ_MAX_POOL, .req_level = DFZ_L1 };
	uint32_t per = ((sizeof(struct dfz_ram_req) + 7) & ~7u) + 2 * DFZ_REDZONE;
	struct dfz_handle h;

	for (unsigned fit = 0; fit <= DFZ_MAX_POOL; fit++) {
		struct dfz_rt_config cfg = {
			.mem_size = { 0, 0, DFZ__MEM_RESERVED + fit * per },
			.obs = { .fn = record },
		};
		int rc;

		evlog.n = 0;
		ck_assert_int_eq(dfz_rt_reset(rt, &cfg), 0);
		ad.rt = rt;
		rc = dfz_handle_init(&ad, &h);
		ck_assert_int_eq(rc, fit == DFZ_MAX_POOL ? 0 : DFZ_ENOMEM);
		if (rc == 0) {
			ck_assert_uint_eq(count_kind(DFZ_EV_ALLOC), DFZ_MAX_POOL);
			dfz_handle_fini(&ad, &h);
		}
		ck_assert_uint_eq(count_kind(DFZ_EV_ALLOC), fit);
		ck_assert_uint_eq(count_kind(DFZ_EV_FREE), fit);
	}
}
END_TEST

static_assert(NPOLICY_RUNS == NCASES * 4 * 2 * 3, "loop range of test_policy_bytes");

Suite *suite_xfer(void)
{
	Suite *s = suite_create("xfer");
	TCase *tc = tcase_create("adapter");

	tcase_add_unchecked_fixture(tc, rt_setup, rt_teardown);
	tcase_add_loop_test(tc, test_rank_table, 0, (int)NCASES);
	tcase_add_test(tc, test_rank_edge_cases);
	tcase_add_test(tc, test_names);
	tcase_add_loop_test(tc, test_policy_bytes, 0, (int)NPOLICY_RUNS);
	tcase_add_test(tc, test_wait_each_leaves_last);
	tcase_add_test(tc, test_blocking_waits_each);
	tcase_add_test(tc, test_pool_round_robin);
	tcase_add_test(tc, test_async_shared_guarded);
	tcase_add_test(tc, test_shared_handle_bug);
	tcase_add_test(tc, test_shared_handle_rank2_unaffected);
	tcase_add_test(tc, test_shared_handle_other_policies);
	tcase_add_test(tc, test_guard_across_transfers);
	tcase_add_test(tc, test_empty_is_noop);
	tcase_add_test(tc, test_bad_arguments);
	tcase_add_test(tc, test_hang_propagates);
	tcase_add_test(tc, test_handle_init_enomem);
	suite_add_tcase(s, tc);
	return s;
}
