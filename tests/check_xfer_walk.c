// SPDX-License-Identifier: MIT
/*
 * The transfer adapter's walk (dfz_xfer_walk(), runtime/xfer.c): a rank-3
 * L3 transfer becomes three 2-D kernel calls on the RAM engine. The calls
 * and waits of each decomposition policy, with and without the reuse
 * guard that shared-handle removes, are written here once and asserted of
 * the walk itself (a recording back end) and of the runtime's run of the
 * same transfer (its ISSUE and WAIT events, by request).
 */
#include <check.h>
#include <string.h>

#include "rt_fixture.h"

struct trace {
	char s[128];
	size_t n;
};

static void put(struct trace *t, char a, char b)
{
	if (t->n + 3 < sizeof(t->s)) {
		t->s[t->n++] = a;
		if (b)
			t->s[t->n++] = b;
		t->s[t->n++] = ' ';
	}
	t->s[t->n] = '\0';
}

/* 3 x 2 x 4 bytes of a 3 x 10 x 10 tensor: three 2-D calls of 2 x 4. */
static const struct dfz_xfer rank3 = {
	.rank = 3, .elem = 1, .ext2loc = 1,
	.ext_level = DFZ_L3, .loc_level = DFZ_L2,
	.shape = { 3, 2, 4 },
	.ext_stride = { 100, 10, 1 },
	.loc_stride = { 8, 4, 1 },
};

static const struct {
	uint8_t policy;
	uint8_t pool_k;
	uint32_t bugs;
	const char *want;       /* the issue, then the handle's wait */
} cases[] = {
	{ DFZ_POLICY_ASYNC_SHARED, 1, 0, "I0 W0 I0 W0 I0 W0 " },
	{ DFZ_POLICY_ASYNC_SHARED, 1, DFZ_BUG_BIT(SHARED_HANDLE),
	  "I0 I0 I0 W0 " },
	{ DFZ_POLICY_WAIT_EACH, 1, 0, "I0 W0 I0 W0 I0 W0 " },
	{ DFZ_POLICY_POOL, 2, 0, "I0 I1 W0 I0 W0 W1 " },
	{ DFZ_POLICY_BLOCKING, 1, 0, "I0 W0 I0 W0 I0 W0 " },
};

#define NCASES (sizeof(cases) / sizeof(cases[0]))

/* ------------------------------------------------------------- the walk */

static int rec_issue(void *ctx, struct dfz_handle *h, unsigned q,
		     const struct dfz_desc *d)
{
	(void)h;
	ck_assert_uint_eq(d->size, 8);
	put(ctx, 'I', (char)('0' + q));
	return 0;
}

static int rec_dummy(void *ctx, struct dfz_handle *h)
{
	(void)h;
	put(ctx, 'D', 0);
	return 0;
}

static int rec_wait(void *ctx, struct dfz_handle *h, unsigned q)
{
	(void)h;
	put(ctx, 'W', (char)('0' + q));
	return 0;
}

static const struct dfz_xfer_ops rec_ops = { rec_issue, rec_dummy, rec_wait };

START_TEST(test_walk_calls)
{
	struct trace t = { .n = 0 };
	struct dfz_handle h = { .nreq = cases[_i].pool_k };
	struct dfz_xfer_walk w = { .policy = cases[_i].policy,
				   .bugs = cases[_i].bugs, .ops = &rec_ops,
				   .ctx = &t };

	ck_assert(dfz_engine_caps_of(DFZ_ENGINE_RAM, &w.caps));
	ck_assert_int_eq(dfz_xfer_walk(&w, &rank3, &h), 0);
	ck_assert_int_eq(dfz_handle_walk_wait(&w, &h), 0);
	ck_assert_str_eq(t.s, cases[_i].want);
}
END_TEST

/* ------------------------------------------------------ the runtime's run */

static struct trace run_trace;
static struct dfz_handle run_h;

static char req_of(const void *handle)
{
	for (unsigned q = 0; q < run_h.nreq; q++)
		if (run_h.req[q] == handle)
			return (char)('0' + q);
	return '?';
}

static void observe(void *ctx, const struct dfz_event *ev)
{
	(void)ctx;
	if (ev->kind == DFZ_EV_ISSUE)
		put(&run_trace, 'I', req_of(ev->handle));
	else if (ev->kind == DFZ_EV_WAIT)
		put(&run_trace, 'W', req_of(ev->handle));
}

START_TEST(test_runtime_calls)
{
	struct dfz_rt_config cfg = { .bandwidth = 8, .sched = draw,
				     .bugs = cases[_i].bugs,
				     .obs = { .fn = observe } };
	struct dfz_adapter ad;
	struct dfz_xfer x = rank3;
	void *loc;
	struct dfz_span at;

	rt_setup();
	ck_assert_int_eq(dfz_rt_reset(rt, &cfg), 0);
	ck_assert_int_eq(dfz_l3_alloc(rt, 300, &x.ext_off), 0);
	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L2, 24, &loc), 0);
	ck_assert(dfz_mem_locate(rt, loc, 24, &at));
	x.loc_off = at.off;
	ad = (struct dfz_adapter){ .rt = rt, .engine = DFZ_ENGINE_RAM,
				   .policy = cases[_i].policy,
				   .pool_k = cases[_i].pool_k,
				   .req_level = DFZ_L2 };
	ck_assert_int_eq(dfz_handle_init(&ad, &run_h), 0);
	memset(&run_trace, 0, sizeof(run_trace));
	ck_assert_int_eq(dfz_xfer_issue(&ad, &x, &run_h), 0);
	ck_assert_int_eq(dfz_handle_wait(&ad, &run_h), 0);
	dfz_handle_fini(&ad, &run_h);
	rt_teardown();
	ck_assert_str_eq(run_trace.s, cases[_i].want);
}
END_TEST

Suite *suite_xfer_walk(void)
{
	Suite *s = suite_create("xfer_walk");
	TCase *tc = tcase_create("calls");

	tcase_add_loop_test(tc, test_walk_calls, 0, NCASES);
	tcase_add_loop_test(tc, test_runtime_calls, 0, NCASES);
	suite_add_tcase(s, tc);
	return s;
}
