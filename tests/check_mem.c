// SPDX-License-Identifier: MIT
/*
 * Unit tests of the memory model (runtime/mem.c, runtime/mem_arena.c) and
 * of the runtime context around it (runtime/rt.c): fill and canary
 * patterns, first-fit allocation with redzones, error paths, the cheap
 * reset, bounds of locate/ptr, the configuration defaults, error strings,
 * bug-switch parsing and yields; and that pages are materialized only
 * where a run uses them.
 */
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "check_fast.h"
#include "rt_fixture.h"


/* Events seen by the observer. */
#define MAX_EVENTS 64
#include "ev_seen.h"

static void run_with(struct dfz_rt_config *cfg)
{
	cfg->obs.fn = record;
	nevents = 0;
	ck_assert_int_eq(dfz_rt_reset(rt, cfg), 0);
}

static void setup(void)
{
	struct dfz_rt_config cfg = { 0 };

	rt_setup();
	run_with(&cfg);
}

/* Offsets in [from, to) of @level whose bytes differ from the fill; a
 * pointer per offset, as one is good for its page only (mem_arena.c). */
static uint32_t count_unfilled(enum dfz_level level, uint32_t from, uint32_t to)
{
	uint32_t bad = 0;

	for (uint32_t off = from; off < to; off++)
		bad += *dfz_mem_ptr(rt, level, off) != dfz_mem_fill_byte(level, off);
	return bad;
}

static uint32_t off_of(const void *ptr)
{
	struct dfz_span s;

	ck_assert(dfz_mem_locate(rt, ptr, 1, &s));
	return s.off;
}

/* ---------------------------------------------------------------- patterns */

START_TEST(test_fill_fresh)
{
	for (unsigned l = 0; l < DFZ_NLEVELS; l++) {
		uint32_t size = dfz_mem_size(rt, (enum dfz_level)l);

		ck_assert_uint_eq(count_unfilled((enum dfz_level)l, 0, size), 0);
	}
	ck_assert_uint_eq(dfz_mem_size(rt, DFZ_L3), DFZ_CAP_L3);
	ck_assert_uint_eq(dfz_mem_size(rt, DFZ_L2), DFZ_CAP_L2);
	ck_assert_uint_eq(dfz_mem_size(rt, DFZ_L1), DFZ_CAP_L1);
}
END_TEST

START_TEST(test_patterns_distinct)
{
	unsigned same_level = 0, same_next = 0;

	for (uint32_t off = 0; off < 4096; off++) {
		same_level += dfz_mem_fill_byte(DFZ_L2, off) ==
			      dfz_mem_fill_byte(DFZ_L1, off);
		same_next += dfz_mem_fill_byte(DFZ_L2, off) ==
			     dfz_mem_fill_byte(DFZ_L2, off + 1);
	}
	/* A hash gives about 16 matches in 4096; a constant would give 4096. */
	ck_assert_uint_lt(same_level, 64);
	ck_assert_uint_lt(same_next, 64);
	for (unsigned l = 0; l < DFZ_NLEVELS; l++)
		for (uint32_t off = 0; off < DFZ_CAP_L1; off++)
			CK_CHECK_UINT(dfz_mem_canary_byte((enum dfz_level)l, off), !=,
				      dfz_mem_fill_byte((enum dfz_level)l, off));
}
END_TEST

/* -------------------------------------------------------------- allocation */

START_TEST(test_alloc_layout)
{
	uint8_t *p;
	uint32_t off;

	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L2, 100, (void **)&p), 0);
	off = off_of(p);
	ck_assert_uint_eq(off % 8, 0);
	ck_assert_uint_ge(off, 64 + DFZ_REDZONE);
	for (uint32_t k = 0; k < DFZ_REDZONE; k++) {
		uint32_t lo = off - DFZ_REDZONE + k, hi = off + 100 + k;

		ck_assert_uint_eq(p[(int)k - DFZ_REDZONE],
				  dfz_mem_canary_byte(DFZ_L2, lo));
		ck_assert_uint_eq(p[100 + k], dfz_mem_canary_byte(DFZ_L2, hi));
	}
	ck_assert_uint_eq(count_unfilled(DFZ_L2, off, off + 100), 0);
	ck_assert_uint_eq(nevents, 1);
	ck_assert_uint_eq(events[0].kind, DFZ_EV_ALLOC);
	ck_assert_uint_eq(events[0].dst.level, DFZ_L2);
	ck_assert_uint_eq(events[0].dst.off, off);
	ck_assert_uint_eq(events[0].dst.len, 100);
	ck_assert_int_eq(events[0].aux, DFZ_REDZONE);
}
END_TEST

START_TEST(test_first_fit_reuse)
{
	uint8_t *a, *b, *c, *d;

	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L1, 64, (void **)&a), 0);
	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L1, 64, (void **)&b), 0);
	ck_assert_uint_gt((uintptr_t)b, (uintptr_t)a);
	memset(a, 0xab, 64);
	ck_assert_int_eq(dfz_local_free(rt, a), 0);
	ck_assert_uint_eq(events[nevents - 1].kind, DFZ_EV_FREE);
	ck_assert_uint_eq(events[nevents - 1].dst.off, off_of(a));
	ck_assert_uint_eq(events[nevents - 1].dst.len, 64);
	/* Too big for the hole: goes after b. */
	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L1, 200, (void **)&d), 0);
	ck_assert_uint_gt((uintptr_t)d, (uintptr_t)b);
	/* Fits the hole: gets a's address, with a's old bytes (no poison). */
	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L1, 48, (void **)&c), 0);
	ck_assert_ptr_eq(c, a);
	for (unsigned i = 0; i < 48; i++)
		ck_assert_uint_eq(c[i], 0xab);
	/* The new trailing redzone was written over the old user bytes. */
	ck_assert_uint_eq(c[48], dfz_mem_canary_byte(DFZ_L1, off_of(c) + 48));
}
END_TEST

START_TEST(test_l3_alloc_first_fit)
{
	uint32_t a, b, c;

	ck_assert_int_eq(dfz_l3_alloc(rt, 1000, &a), 0);
	ck_assert_int_eq(dfz_l3_alloc(rt, 1000, &b), 0);
	ck_assert_uint_ge(a, 64 + DFZ_REDZONE);
	ck_assert_uint_ge(b, a + 1000 + 2 * DFZ_REDZONE);
	ck_assert_int_eq(dfz_l3_free(rt, a), 0);
	ck_assert_int_eq(dfz_l3_free(rt, a), DFZ_EINVAL);
	ck_assert_int_eq(dfz_l3_alloc(rt, 1000, &c), 0);
	ck_assert_uint_eq(c, a);
	ck_assert_uint_eq(*dfz_mem_ptr(rt, DFZ_L3, c - 1),
			  dfz_mem_canary_byte(DFZ_L3, c - 1));
}
END_TEST

START_TEST(test_free_errors)
{
	uint8_t *p;
	int on_stack;

	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L2, 32, (void **)&p), 0);
	ck_assert_int_eq(dfz_local_free(rt, NULL), DFZ_EINVAL);
	ck_assert_int_eq(dfz_local_free(rt, &on_stack), DFZ_EINVAL);
	ck_assert_int_eq(dfz_local_free(rt, p + 8), DFZ_EINVAL);
	ck_assert_int_eq(dfz_local_free(rt, p - DFZ_REDZONE), DFZ_EINVAL);
	ck_assert_int_eq(dfz_local_free(rt, dfz_mem_ptr(rt, DFZ_L3, off_of(p))),
			 DFZ_EINVAL);
	ck_assert_int_eq(dfz_l3_free(rt, 0), DFZ_EINVAL);
	ck_assert_int_eq(dfz_local_free(rt, p), 0);
	ck_assert_int_eq(dfz_local_free(rt, p), DFZ_EINVAL);
}
END_TEST

START_TEST(test_alloc_errors)
{
	struct dfz_rt_config cfg = { .mem_size = { 0, 0, 1024 } };
	void *p;
	uint32_t off;
	unsigned n = 0;

	run_with(&cfg);
	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L2, 0, &p), DFZ_EINVAL);
	ck_assert_int_eq(dfz_l3_alloc(rt, 0, &off), DFZ_EINVAL);
	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L3, 8, &p), DFZ_EINVAL);
	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L1, 1024, &p), DFZ_ENOMEM);
	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L2, UINT32_MAX, &p), DFZ_ENOMEM);
	ck_assert_int_eq(dfz_l3_alloc(rt, DFZ_CAP_L3, &off), DFZ_ENOMEM);
	/* The largest block that fits the 1024-byte L1 fits exactly once. */
	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L1, 1024 - 64 - 2 * DFZ_REDZONE,
					 &p), 0);
	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L1, 1, &p), DFZ_ENOMEM);
	ck_assert_uint_eq(nevents, 1);
	/* The table of live blocks is bounded. */
	while (dfz_local_alloc(rt, DFZ_L2, 8, &p) == 0)
		n++;
	ck_assert_uint_eq(n, DFZ_MAX_ALLOCS);
}
END_TEST

START_TEST(test_table_full_then_free)
{
	void *p[DFZ_MAX_ALLOCS];
	void *q;

	for (unsigned i = 0; i < DFZ_MAX_ALLOCS; i++)
		ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L2, 8, &p[i]), 0);
	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L2, 8, &q), DFZ_ENOMEM);
	ck_assert_int_eq(dfz_local_free(rt, p[100]), 0);
	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L2, 8, &q), 0);
	ck_assert_ptr_eq(q, p[100]);
}
END_TEST

/* ------------------------------------------------------------------ reset */

START_TEST(test_reset_refills)
{
	struct dfz_rt_config cfg = { 0 };
	static const uint8_t junk[300] = { 1, 2, 3 };
	struct dfz_event mv = { .kind = DFZ_EV_MOVE,
				.dst = { DFZ_L1, 20000, 100 } };
	uint8_t *p, *q;
	uint32_t off;

	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L2, 500, (void **)&p), 0);
	memset(p, 0, 500);
	ck_assert_int_eq(dfz_l3_alloc(rt, 4096, &off), 0);
	ck_assert_int_eq(dfz_l3_write(rt, 700000, junk, sizeof(junk)), 0);
	/* An engine write outside any allocation, published as a MOVE. */
	memset(dfz_mem_ptr(rt, DFZ_L1, 20000), 0, 100);
	dfz_rt_emit(rt, &mv);
	ck_assert_uint_gt(count_unfilled(DFZ_L2, 0, DFZ_CAP_L2), 400);
	ck_assert_uint_gt(count_unfilled(DFZ_L1, 0, DFZ_CAP_L1), 90);
	ck_assert_uint_gt(count_unfilled(DFZ_L3, 0, DFZ_CAP_L3), 290);

	run_with(&cfg);
	for (unsigned l = 0; l < DFZ_NLEVELS; l++)
		ck_assert_uint_eq(count_unfilled((enum dfz_level)l, 0,
						 dfz_mem_size(rt, (enum dfz_level)l)), 0);
	/* Allocations were dropped: the old pointer is unknown, and the first
	 * allocation of the new run lands where the old one was. */
	ck_assert_int_eq(dfz_local_free(rt, p), DFZ_EINVAL);
	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L2, 8, (void **)&q), 0);
	ck_assert_ptr_eq(q, p);
}
END_TEST

/* The reset copies back only [0, high water): a byte written behind the
 * model's back, above every allocation and event, survives. That is the
 * documented price of a cheap reset (see dfz__mem_touch()). */
START_TEST(test_reset_only_touched)
{
	struct dfz_rt_config cfg = { 0 };
	uint8_t *p, *raw = dfz_mem_ptr(rt, DFZ_L2, 900000);

	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L2, 100, (void **)&p), 0);
	ck_assert_uint_eq(rt->arena[DFZ_L2].high, off_of(p) + 100 + DFZ_REDZONE);
	ck_assert_uint_eq(rt->arena[DFZ_L1].high, 0);
	p[0] ^= 0xff;
	*raw ^= 0xff;
	run_with(&cfg);
	ck_assert_uint_eq(rt->arena[DFZ_L2].high, 0);
	ck_assert_uint_eq(p[0], dfz_mem_fill_byte(DFZ_L2, off_of(p)));
	ck_assert_uint_ne(*raw, dfz_mem_fill_byte(DFZ_L2, 900000));
	dfz__mem_touch(rt, DFZ_L2, 900000, 1);
	run_with(&cfg);
	ck_assert_uint_eq(*raw, dfz_mem_fill_byte(DFZ_L2, 900000));
}
END_TEST

/* A reserved block (an SDK heap) counts as touched only up to what
 * dfz_local_use() named: the reset refills that part, not the rest. */
START_TEST(test_reserve_used_part)
{
	struct dfz_rt_config cfg = { 0 };
	uint8_t *p;
	uint32_t off;

	ck_assert_int_eq(dfz_local_reserve(rt, DFZ_L2, 8192, (void **)&p), 0);
	off = off_of(p);
	ck_assert_uint_eq(rt->arena[DFZ_L2].high, off);
	dfz_local_use(rt, p, 100);
	ck_assert_uint_eq(rt->arena[DFZ_L2].high, off + 100);
	dfz_local_use(rt, p, 40);
	ck_assert_uint_eq(rt->arena[DFZ_L2].high, off + 100);
	p[99] ^= 0xff;
	p[5000] ^= 0xff;
	run_with(&cfg);
	ck_assert_uint_eq(p[99], dfz_mem_fill_byte(DFZ_L2, off + 99));
	ck_assert_uint_ne(p[5000], dfz_mem_fill_byte(DFZ_L2, off + 5000));
	/* The same block, used whole this time. */
	ck_assert_int_eq(dfz_local_reserve(rt, DFZ_L2, 8192, (void **)&p), 0);
	ck_assert_uint_eq(off_of(p), off);
	dfz_local_use(rt, p, 8192);
	run_with(&cfg);
	ck_assert_uint_eq(p[5000], dfz_mem_fill_byte(DFZ_L2, off + 5000));
	/* Nothing to name outside the levels, or without a runtime. */
	dfz_local_use(NULL, p, 1);
	dfz_local_use(rt, &cfg, 1);
	ck_assert_uint_eq(rt->arena[DFZ_L2].high, 0);
	ck_assert_int_eq(dfz_local_reserve(rt, DFZ_L3, 8, (void **)&p), DFZ_EINVAL);
	ck_assert_int_eq(dfz_local_reserve(rt, DFZ_L2, 0, (void **)&p), DFZ_EINVAL);
}
END_TEST

/* A run with a larger usable size must not see the last run's bytes. */
START_TEST(test_reset_size_change)
{
	struct dfz_rt_config big = { 0 }, small = { .mem_size = { 0, 4096, 0 } };
	uint8_t *p;

	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L2, 200000, (void **)&p), 0);
	memset(p, 0x11, 200000);
	run_with(&small);
	ck_assert_uint_eq(dfz_mem_size(rt, DFZ_L2), 4096);
	run_with(&big);
	ck_assert_uint_eq(count_unfilled(DFZ_L2, 0, DFZ_CAP_L2), 0);
}
END_TEST

START_TEST(test_reset_config)
{
	struct dfz_rt_config cfg = {
		.mem_size = { UINT32_MAX, 12345, DFZ_CAP_L1 + 1 },
		.latency = 0,
		.bugs = DFZ_BUG_BIT(REQ_ESCAPE),
	};

	run_with(&cfg);
	ck_assert_uint_eq(dfz_mem_size(rt, DFZ_L3), DFZ_CAP_L3);
	ck_assert_uint_eq(dfz_mem_size(rt, DFZ_L2), 12345);
	ck_assert_uint_eq(dfz_mem_size(rt, DFZ_L1), DFZ_CAP_L1);
	ck_assert_uint_eq(dfz_mem_size(rt, (enum dfz_level)7), 0);
	ck_assert_uint_eq(rt->cfg.bandwidth, 64);
	ck_assert_uint_eq(rt->cfg.wait_bound, 100000);
	ck_assert_uint_eq(rt->cfg.latency, 0);
	ck_assert_uint_eq(dfz_rt_bugs(rt), DFZ_BUG_BIT(REQ_ESCAPE));
	ck_assert_uint_eq(dfz_rt_now(rt), 0);
	cfg.bandwidth = 3;
	cfg.wait_bound = 7;
	cfg.latency = 9;
	run_with(&cfg);
	ck_assert_uint_eq(rt->cfg.bandwidth, 3);
	ck_assert_uint_eq(rt->cfg.wait_bound, 7);
	ck_assert_uint_eq(rt->cfg.latency, 9);
	ck_assert_int_eq(dfz_rt_reset(rt, NULL), DFZ_EINVAL);
	cfg.bugs = 1u << 31;
	ck_assert_int_eq(dfz_rt_reset(rt, &cfg), DFZ_EINVAL);
	ck_assert_uint_eq(dfz_rt_bugs(rt), DFZ_BUG_BIT(REQ_ESCAPE));
}
END_TEST

/* ----------------------------------------------------------------- bounds */

START_TEST(test_locate_ptr_bounds)
{
	struct dfz_rt_config cfg = { .mem_size = { 5000, 4096, 256 } };
	uint8_t *l2, *l1;
	struct dfz_span s;
	int on_stack;

	run_with(&cfg);
	l2 = dfz_mem_ptr(rt, DFZ_L2, 0);
	l1 = dfz_mem_ptr(rt, DFZ_L1, 0);
	ck_assert_ptr_nonnull(l2);
	ck_assert(dfz_mem_locate(rt, l2, 4096, &s));
	ck_assert_uint_eq(s.level, DFZ_L2);
	ck_assert_uint_eq(s.off, 0);
	ck_assert_uint_eq(s.len, 4096);
	ck_assert(!dfz_mem_locate(rt, l2, 4097, &s));
	ck_assert(dfz_mem_locate(rt, l2 + 4095, 1, &s));
	ck_assert_uint_eq(s.off, 4095);
	ck_assert(!dfz_mem_locate(rt, l2 + 4095, 2, &s));
	ck_assert(!dfz_mem_locate(rt, l2 + 4096, 1, &s));
	ck_assert(!dfz_mem_locate(rt, l2 - 1, 1, &s));
	ck_assert(dfz_mem_locate(rt, l1 + 200, 56, &s));
	ck_assert_uint_eq(s.level, DFZ_L1);
	ck_assert_uint_eq(s.off, 200);
	ck_assert(!dfz_mem_locate(rt, l1 + 256, 1, NULL));
	ck_assert(!dfz_mem_locate(rt, dfz_mem_ptr(rt, DFZ_L3, 100), 1, NULL));
	ck_assert(!dfz_mem_locate(rt, &on_stack, 1, NULL));
	ck_assert(!dfz_mem_locate(rt, NULL, 1, NULL));
	ck_assert_ptr_nonnull(dfz_mem_ptr(rt, DFZ_L3, 4999));
	ck_assert_ptr_null(dfz_mem_ptr(rt, DFZ_L3, 5000));
	ck_assert_ptr_null(dfz_mem_ptr(rt, DFZ_L2, 4096));
	ck_assert_ptr_eq(dfz_mem_ptr(rt, DFZ_L2, 4095), l2 + 4095);
	ck_assert_ptr_null(dfz_mem_ptr(rt, DFZ_L1, 256));
	ck_assert_ptr_null(dfz_mem_ptr(rt, (enum dfz_level)3, 0));
}
END_TEST

START_TEST(test_l3_access)
{
	struct dfz_rt_config cfg = { .mem_size = { 5000, 0, 0 } };
	uint8_t in[100], out[100];
	uint32_t off;

	run_with(&cfg);
	for (unsigned i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i * 7 + 1);
	ck_assert_int_eq(dfz_l3_alloc(rt, 100, &off), 0);
	ck_assert_int_eq(dfz_l3_write(rt, off, in, 100), 0);
	ck_assert_int_eq(dfz_l3_read(rt, off, out, 100), 0);
	ck_assert_mem_eq(in, out, 100);
	ck_assert_mem_eq(dfz_mem_ptr(rt, DFZ_L3, off), in, 100);
	ck_assert_int_eq(dfz_l3_write(rt, 4900, in, 100), 0);
	ck_assert_int_eq(dfz_l3_write(rt, 4901, in, 100), DFZ_EFAULT);
	ck_assert_int_eq(dfz_l3_read(rt, 4901, out, 100), DFZ_EFAULT);
	ck_assert_int_eq(dfz_l3_read(rt, UINT32_MAX, out, 2), DFZ_EFAULT);
	ck_assert_int_eq(dfz_l3_write(rt, UINT32_MAX, in, 2), DFZ_EFAULT);
	ck_assert_int_eq(dfz_l3_write(rt, 0, NULL, 1), DFZ_EINVAL);
	ck_assert_int_eq(dfz_l3_read(rt, 5000, out, 0), 0);
}
END_TEST

/* ------------------------------------------------------- errors and bugs */

START_TEST(test_strerror)
{
	static const int codes[] = { DFZ_EINVAL, DFZ_ENOMEM, DFZ_ERANGE,
				     DFZ_EBUSY, DFZ_EHANG, DFZ_EFAULT,
				     DFZ_ENOENT, DFZ_EIO, DFZ_ENOTDIR,
				     DFZ_EACCES };

	ck_assert_str_eq(dfz_strerror(0), "ok");
	ck_assert_str_eq(dfz_strerror(DFZ_ENOMEM), "out of memory");
	ck_assert_str_eq(dfz_strerror(-1000), "unknown error");
	for (unsigned i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		for (unsigned j = 0; j < i; j++)
			ck_assert_str_ne(dfz_strerror(codes[i]),
					 dfz_strerror(codes[j]));
}
END_TEST

/* errno to DFZ_E*: a bad path is the caller's, a failed device is DFZ_EIO. */
static const struct {
	int e;
	int want;
} errno_codes[] = {
	{ ENOMEM, DFZ_ENOMEM },   { ENOENT, DFZ_ENOENT },
	{ ENOTDIR, DFZ_ENOTDIR }, { EEXIST, DFZ_ENOTDIR },
	{ EACCES, DFZ_EACCES },   { EROFS, DFZ_EACCES },
	{ ENAMETOOLONG, DFZ_EINVAL }, { ENOSPC, DFZ_EIO },
	{ EIO, DFZ_EIO },         { 0, DFZ_EIO },
};

START_TEST(test_err_from_errno)
{
	ck_assert_int_eq(dfz_err_from_errno(errno_codes[_i].e),
			 errno_codes[_i].want);
	ck_assert_str_ne(dfz_strerror(errno_codes[_i].want), "unknown error");
}
END_TEST

START_TEST(test_bugs_parse)
{
	uint32_t mask = 0xdead;

	ck_assert_str_eq(dfz_bug_name(DFZ_BUG_SHARED_HANDLE), "shared-handle");
	ck_assert_ptr_null(dfz_bug_name(DFZ_BUG_COUNT));
	for (unsigned b = 0; b < DFZ_BUG_COUNT; b++) {
		ck_assert_int_eq(dfz_bugs_parse(dfz_bug_name(b), &mask), 0);
		ck_assert_uint_eq(mask, 1u << b);
	}
	ck_assert_int_eq(dfz_bugs_parse(" shared-handle ,req-escape,", &mask), 0);
	ck_assert_uint_eq(mask, DFZ_BUG_BIT(SHARED_HANDLE) |
				DFZ_BUG_BIT(REQ_ESCAPE));
	ck_assert_int_eq(dfz_bugs_parse("", &mask), 0);
	ck_assert_uint_eq(mask, 0);
	mask = 7;
	ck_assert_int_eq(dfz_bugs_parse(NULL, &mask), 0);
	ck_assert_uint_eq(mask, 0);
	mask = 7;
	ck_assert_int_eq(dfz_bugs_parse("db-war,bogus", &mask), DFZ_EINVAL);
	ck_assert_int_eq(dfz_bugs_parse("shared", &mask), DFZ_EINVAL);
	ck_assert_int_eq(dfz_bugs_parse("shared-handlex", &mask), DFZ_EINVAL);
	ck_assert_uint_eq(mask, 7);
}
END_TEST

/* ------------------------------------------------------------ time, events */

static unsigned sched_calls[DFZ_YIELD_COUNT];

static unsigned sched_five(void *ctx, enum dfz_yield where)
{
	ck_assert_ptr_eq(ctx, sched_calls);
	sched_calls[where]++;
	return 5;
}

START_TEST(test_yield_steps)
{
	struct dfz_rt_config cfg = { .sched = sched_five,
				     .sched_ctx = sched_calls };

	dfz_rt_yield(rt, DFZ_YIELD_COMPUTE);
	ck_assert_uint_eq(dfz_rt_now(rt), 0);
	run_with(&cfg);
	dfz_rt_yield(rt, DFZ_YIELD_COMPUTE);
	dfz_rt_yield(rt, DFZ_YIELD_WAIT);
	ck_assert_uint_eq(dfz_rt_now(rt), 10);
	ck_assert_uint_eq(sched_calls[DFZ_YIELD_COMPUTE], 1);
	ck_assert_uint_eq(sched_calls[DFZ_YIELD_WAIT], 1);
	dfz__rt_step(rt);
	ck_assert_uint_eq(dfz_rt_now(rt), 11);
	run_with(&cfg);
	ck_assert_uint_eq(dfz_rt_now(rt), 0);
}
END_TEST

START_TEST(test_emit_observer)
{
	struct dfz_event ev = { .kind = DFZ_EV_COMPUTE_WRITE, .step = 42,
				.dst = { DFZ_L1, 1000, 24 }, .aux = -3 };
	struct dfz_rt_config cfg = { 0 };

	dfz_rt_emit(rt, &ev);
	ck_assert_uint_eq(nevents, 1);
	ck_assert_uint_eq(events[0].kind, DFZ_EV_COMPUTE_WRITE);
	ck_assert_uint_eq(events[0].step, 42);
	ck_assert_int_eq(events[0].aux, -3);
	ck_assert_uint_eq(rt->arena[DFZ_L1].high, 1024);
	/* No observer: still tracks the write, calls nothing. */
	run_with(&cfg);
	rt->cfg.obs.fn = NULL;
	ev.dst.off = 2000;
	dfz_rt_emit(rt, &ev);
	ck_assert_uint_eq(nevents, 0);
	ck_assert_uint_eq(rt->arena[DFZ_L1].high, 2024);
	/* Spans beyond the cap are clamped, bad levels ignored. */
	ev.dst = (struct dfz_span){ DFZ_L1, UINT32_MAX, UINT32_MAX };
	dfz_rt_emit(rt, &ev);
	ck_assert_uint_eq(rt->arena[DFZ_L1].high, DFZ_CAP_L1);
	ev.dst.level = 9;
	dfz_rt_emit(rt, &ev);
}
END_TEST

/* ------------------------------------------------------------ lazy pages */

/* Materialized pages of @level among those that [off, off + len) spans. */
static uint32_t ready_pages(unsigned level, uint32_t off, uint32_t len)
{
	const struct dfz_arena *a = &rt->arena[level];
	uint32_t n = 0, last = (uint32_t)(((uint64_t)off + len - 1) >> a->shift);

	for (uint32_t p = off >> a->shift; len && p <= last; p++)
		n += a->ready[p / 64] >> (p % 64) & 1;
	return n;
}

static uint32_t pages_spanned(unsigned level, uint32_t off, uint32_t len)
{
	uint8_t shift = rt->arena[level].shift;

	return (uint32_t)((((uint64_t)off + len - 1) >> shift) - (off >> shift) + 1);
}

/* Bytes of [off, off + len) of @level that differ from the fill, read
 * through the arena's base: no page is materialized by the reading. */
static uint32_t raw_unfilled(unsigned level, uint32_t off, uint32_t len)
{
	const uint8_t *base = rt->arena[level].base;
	uint32_t bad = 0;

	for (uint32_t o = off; o < off + len; o++)
		bad += base[o] != dfz_mem_fill_byte((enum dfz_level)level, o);
	return bad;
}

START_TEST(test_lazy_fresh)
{
	static const uint8_t junk[300] = { 1, 2, 3 };
	uint8_t *p;
	uint32_t off;

	/* Created and reset: no page of any arena is there yet. */
	for (unsigned l = 0; l < DFZ__NARENAS; l++)
		ck_assert_uint_eq(ready_pages(l, 0, rt->arena[l].cap), 0);
	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L2, 100, (void **)&p), 0);
	off = off_of(p) - DFZ_REDZONE;
	ck_assert_uint_eq(ready_pages(DFZ_L2, 0, DFZ_CAP_L2),
			  pages_spanned(DFZ_L2, off, 100 + 2 * DFZ_REDZONE));
	ck_assert_uint_eq(raw_unfilled(DFZ_L2, off + DFZ_REDZONE, 100), 0);
	ck_assert_int_eq(dfz_l3_write(rt, 700000, junk, sizeof(junk)), 0);
	ck_assert_uint_eq(ready_pages(DFZ_L3, 0, DFZ_CAP_L3),
			  pages_spanned(DFZ_L3, 700000, sizeof(junk)));
	ck_assert_uint_eq(raw_unfilled(DFZ_L3, 700000 + sizeof(junk), 16), 0);
	/* A pointer brings its page. */
	ck_assert_ptr_nonnull(dfz_mem_ptr(rt, DFZ_L1, 20000));
	ck_assert_uint_eq(ready_pages(DFZ_L1, 0, DFZ_CAP_L1), 1);
	ck_assert_uint_eq(ready_pages(DFZ_L1, 20000, 1), 1);
	ck_assert_uint_eq(raw_unfilled(DFZ_L1, 20000, 16), 0);
	ck_assert_uint_eq(ready_pages(DFZ_DEV_LEVEL, 0, DFZ_CAP_DEV), 0);
}
END_TEST

/* An issued transfer's footprint, line by line, before any observer. */
START_TEST(test_lazy_issue_lines)
{
	const uint32_t at = 1u << 20, stride = 1u << 16;
	struct dfz_event ev = {
		.kind = DFZ_EV_ISSUE,
		.desc = { .ext_level = DFZ_L3, .loc_level = DFZ_L2,
			  .ext2loc = 1, .is_2d = 1, .ext_off = at,
			  .loc_off = 8192, .size = 64, .length = 16,
			  .ext_stride = stride, .loc_stride = 16 },
	};

	dfz_rt_emit(rt, &ev);
	ck_assert_uint_eq(nevents, 1);
	ck_assert_uint_eq(ready_pages(DFZ_L3, 0, DFZ_CAP_L3), 4);
	for (uint32_t k = 0; k < 4; k++) {
		ck_assert_uint_eq(ready_pages(DFZ_L3, at + k * stride, 16), 1);
		ck_assert_uint_eq(raw_unfilled(DFZ_L3, at + k * stride, 16), 0);
	}
	ck_assert_uint_eq(ready_pages(DFZ_L3, at + stride / 2, 1), 0);
	ck_assert_uint_eq(ready_pages(DFZ_L2, 0, DFZ_CAP_L2), 1);
	ck_assert_uint_eq(raw_unfilled(DFZ_L2, 8192, 64), 0);
}
END_TEST

/* The engine reads the request at service time: a source changed after
 * the issue lies in pages nothing materialized (across a page boundary,
 * past the page of the engine's dfz_mem_ptr()), and holds the fill. */
START_TEST(test_lazy_engine_source)
{
	const uint32_t src = (5u << 20) - 50;
	struct dfz_ram_req *r;
	uint8_t *dst;

	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L2, 100, (void **)&dst), 0);
	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L2, sizeof(*r), (void **)&r),
			 0);
	ck_assert_int_eq(dfz_ram_copy(dfz_ram_get(rt), 1u << 20, dst, 100, 1,
				      r), 0);
	ck_assert_uint_eq(ready_pages(DFZ_L3, src, 100), 0);
	r->ram_addr = src;
	ck_assert_int_eq(dfz_ram_copy_wait(r), 0);
	ck_assert_uint_eq(ready_pages(DFZ_L3, src, 100),
			  pages_spanned(DFZ_L3, src, 100));
	for (uint32_t i = 0; i < 100; i++)
		CK_CHECK_UINT(dst[i], ==, dfz_mem_fill_byte(DFZ_L3, src + i));
}
END_TEST

/* A reset refills the materialized pages below the high-water mark and
 * materializes none of those between. */
START_TEST(test_lazy_reset)
{
	static const uint8_t junk[64] = { 1, 2, 3 };
	struct dfz_rt_config cfg = { 0 };

	ck_assert_int_eq(dfz_l3_write(rt, 100, junk, sizeof(junk)), 0);
	ck_assert_int_eq(dfz_l3_write(rt, 7u << 20, junk, sizeof(junk)), 0);
	ck_assert_uint_eq(rt->arena[DFZ_L3].high, (7u << 20) + sizeof(junk));
	ck_assert_uint_eq(ready_pages(DFZ_L3, 0, DFZ_CAP_L3), 2);
	ck_assert_uint_ne(raw_unfilled(DFZ_L3, 100, sizeof(junk)), 0);
	run_with(&cfg);
	ck_assert_uint_eq(ready_pages(DFZ_L3, 0, DFZ_CAP_L3), 2);
	ck_assert_uint_eq(raw_unfilled(DFZ_L3, 100, sizeof(junk)), 0);
	ck_assert_uint_eq(raw_unfilled(DFZ_L3, 7u << 20, sizeof(junk)), 0);
	ck_assert_uint_eq(rt->arena[DFZ_L3].high, 0);
}
END_TEST

struct fresh_read {
	int rc;
	uint32_t bad;
};

/* A runtime of its own reads 1 MiB of L3 from 3 MiB on. */
static void *read_fresh(void *arg)
{
	struct fresh_read *f = arg;
	struct dfz_rt *r;

	f->rc = dfz_rt_create(&r);
	for (uint32_t o = 3u << 20; f->rc == 0 && o < (4u << 20); o++)
		f->bad += *dfz_mem_ptr(r, DFZ_L3, o) !=
			  dfz_mem_fill_byte(DFZ_L3, o);
	if (f->rc == 0)
		dfz_rt_destroy(r);
	return NULL;
}

/* Runtimes on two threads build the pages of the shared template at the
 * same time: both read the fill. */
START_TEST(test_lazy_threads)
{
	struct fresh_read f[2] = { { 0 } };
	pthread_t t[2];

	for (unsigned i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, read_fresh,
						&f[i]), 0);
	for (unsigned i = 0; i < 2; i++) {
		ck_assert_int_eq(pthread_join(t[i], NULL), 0);
		ck_assert_int_eq(f[i].rc, 0);
		ck_assert_uint_eq(f[i].bad, 0);
	}
}
END_TEST

Suite *suite_mem(void)
{
	Suite *s = suite_create("mem");
	TCase *tc = tcase_create("mem");

	tcase_add_checked_fixture(tc, setup, rt_teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_fill_fresh);
	tcase_add_test(tc, test_patterns_distinct);
	tcase_add_test(tc, test_alloc_layout);
	tcase_add_test(tc, test_first_fit_reuse);
	tcase_add_test(tc, test_l3_alloc_first_fit);
	tcase_add_test(tc, test_free_errors);
	tcase_add_test(tc, test_alloc_errors);
	tcase_add_test(tc, test_table_full_then_free);
	tcase_add_test(tc, test_reset_refills);
	tcase_add_test(tc, test_reset_only_touched);
	tcase_add_test(tc, test_reserve_used_part);
	tcase_add_test(tc, test_reset_size_change);
	tcase_add_test(tc, test_reset_config);
	tcase_add_test(tc, test_locate_ptr_bounds);
	tcase_add_test(tc, test_l3_access);
	tcase_add_test(tc, test_strerror);
	tcase_add_loop_test(tc, test_err_from_errno, 0,
			    sizeof(errno_codes) / sizeof(errno_codes[0]));
	tcase_add_test(tc, test_bugs_parse);
	tcase_add_test(tc, test_yield_steps);
	tcase_add_test(tc, test_emit_observer);
	tcase_add_test(tc, test_lazy_fresh);
	tcase_add_test(tc, test_lazy_issue_lines);
	tcase_add_test(tc, test_lazy_engine_source);
	tcase_add_test(tc, test_lazy_reset);
	tcase_add_test(tc, test_lazy_threads);
	suite_add_tcase(s, tc);
	return s;
}
