// SPDX-License-Identifier: MIT
/*
 * The cluster's cores as cooperative contexts (dropin/cores.c): every core
 * of a fork runs once with its id, the barrier orders the phases, the pick
 * function decides the interleaving (the same picks, the same order), a
 * barrier that can never complete is a hang that leaves the object
 * usable, bad use is refused, and a core has its own deep stack, its top
 * apart from the others' in a page.
 */
#include <check.h>
#include <fenv.h>
#include <string.h>

#include "cores.h"

static struct dfz__cores *c;
static unsigned runs[8], written[8], seen_all[8];
static unsigned trace[64], ntrace;

static void setup(void)
{
	ck_assert_int_eq(dfz__cores_create(8, 0, &c), 0);
	memset(runs, 0, sizeof(runs));
	memset(written, 0, sizeof(written));
	memset(seen_all, 0, sizeof(seen_all));
	ntrace = 0;
}

static void teardown(void)
{
	dfz__cores_destroy(c);
	c = NULL;
}

static void note(void)
{
	if (ntrace < 64)
		trace[ntrace++] = dfz__cores_id(c);
}

/* Each core: count itself, write its phase-1 value, two switch points,
 * the barrier, then check every core's phase-1 value is there. */
static void phases(void *arg)
{
	unsigned id = dfz__cores_id(c), n = dfz__cores_count(c), all = 1;

	(void)arg;
	runs[id]++;
	note();
	dfz__cores_yield(c);
	written[id] = id + 1;
	note();
	dfz__cores_yield(c);
	ck_assert_int_eq(dfz__cores_barrier(c), 0);
	for (unsigned i = 0; i < n; i++)
		all &= written[i] == i + 1;
	seen_all[id] = all;
}

START_TEST(test_fork_ids)
{
	ck_assert(!dfz__cores_in_fork(c));
	ck_assert_uint_eq(dfz__cores_id(c), 0);
	ck_assert_uint_eq(dfz__cores_count(c), 1);
	ck_assert_int_eq(dfz__cores_fork(c, 8, phases, NULL, NULL, NULL), 0);
	for (unsigned i = 0; i < 8; i++) {
		ck_assert_uint_eq(runs[i], 1);
		ck_assert_uint_eq(seen_all[i], 1);
	}
	ck_assert_int_eq(dfz__cores_fork(c, 1, phases, NULL, NULL, NULL), 0);
	ck_assert_uint_eq(runs[0], 2);
	ck_assert_uint_eq(runs[1], 1);
}
END_TEST

static int rounding[8];

static void note_rounding(void *arg)
{
	(void)arg;
	rounding[dfz__cores_id(c)] = fegetround();
}

/* A fork's cores start with the forking thread's floating-point control
 * words, read at the fork: a rounding mode set before the fork holds on
 * every core, and the next fork has the one set since. */
START_TEST(test_fork_fpenv)
{
	static const int mode[2] = { FE_UPWARD, FE_TOWARDZERO };

	for (unsigned f = 0; f < 2; f++) {
		ck_assert_int_eq(fesetround(mode[f]), 0);
		ck_assert_int_eq(dfz__cores_fork(c, 4, note_rounding, NULL,
						 NULL, NULL), 0);
		ck_assert_int_eq(fesetround(FE_TONEAREST), 0);
		for (unsigned i = 0; i < 4; i++)
			ck_assert_int_eq(rounding[i], mode[f]);
	}
}
END_TEST

static unsigned pick_last(void *ctx, unsigned nready)
{
	(void)ctx;
	return nready - 1;
}

/* No pick: one core at a time in core order. The last ready core picked
 * at every switch: another order, the same twice. */
START_TEST(test_pick_order)
{
	unsigned first[64], n;

	ck_assert_int_eq(dfz__cores_fork(c, 4, phases, NULL, NULL, NULL), 0);
	ck_assert_uint_eq(ntrace, 8);
	for (unsigned i = 0; i < 8; i++)
		ck_assert_uint_eq(trace[i], i / 2);
	ntrace = 0;
	ck_assert_int_eq(dfz__cores_fork(c, 4, phases, NULL, pick_last, NULL), 0);
	memcpy(first, trace, sizeof(first));
	n = ntrace;
	ck_assert_uint_eq(first[0], 0);
	ck_assert_uint_eq(first[1], 3);
	ntrace = 0;
	ck_assert_int_eq(dfz__cores_fork(c, 4, phases, NULL, pick_last, NULL), 0);
	ck_assert_uint_eq(ntrace, n);
	ck_assert_mem_eq(trace, first, n * sizeof(trace[0]));
}
END_TEST

/* Core 0 returns without the barrier the others wait at. */
static void deserter(void *arg)
{
	(void)arg;
	runs[dfz__cores_id(c)]++;
	if (dfz__cores_id(c) != 0)
		dfz__cores_barrier(c);
}

START_TEST(test_barrier_deadlock)
{
	ck_assert_int_eq(dfz__cores_fork(c, 4, deserter, NULL, NULL, NULL),
			 DFZ_EHANG);
	ck_assert(!dfz__cores_in_fork(c));
	ck_assert_uint_eq(runs[3], 1);
	/* The object is usable again. */
	ck_assert_int_eq(dfz__cores_fork(c, 8, phases, NULL, pick_last, NULL), 0);
	ck_assert_uint_eq(seen_all[7], 1);
}
END_TEST

static int nested_rc = 1;

static void nests(void *arg)
{
	(void)arg;
	if (dfz__cores_id(c) == 0)
		nested_rc = dfz__cores_fork(c, 2, phases, NULL, NULL, NULL);
}

START_TEST(test_bad_use)
{
	ck_assert_int_eq(dfz__cores_fork(c, 0, phases, NULL, NULL, NULL),
			 DFZ_EINVAL);
	ck_assert_int_eq(dfz__cores_fork(c, 9, phases, NULL, NULL, NULL),
			 DFZ_EINVAL);
	ck_assert_int_eq(dfz__cores_fork(c, 2, NULL, NULL, NULL, NULL),
			 DFZ_EINVAL);
	ck_assert_int_eq(dfz__cores_fork(c, 2, nests, NULL, NULL, NULL), 0);
	ck_assert_int_eq(nested_rc, DFZ_EINVAL);
	/* Outside a fork the barrier and the switch point do nothing. */
	ck_assert_int_eq(dfz__cores_barrier(c), 0);
	dfz__cores_yield(c);
	ck_assert_int_eq(dfz__cores_create(0, 0, &(struct dfz__cores *){ 0 }),
			 DFZ_EINVAL);
	dfz__cores_destroy(NULL);
}
END_TEST

/* About 100 KiB of a core's 256 KiB stack, switching in the middle. */
static unsigned deep(unsigned depth)
{
	volatile uint8_t frame[1024];

	frame[0] = (uint8_t)depth;
	if (depth == 50)
		dfz__cores_yield(c);
	return depth ? frame[0] + deep(depth - 1) : 0;
}

static void deep_core(void *arg)
{
	(void)arg;
	written[dfz__cores_id(c)] = deep(100);
}

/* The cores' stacks lie a power of two apart; their frames do not share
 * a place in a page (the host's cache sets), so a switch does not evict
 * the frames of the cores before it. */
static uintptr_t frame_at[8];

static void note_frame(void *arg)
{
	(void)arg;
	frame_at[dfz__cores_id(c)] = (uintptr_t)__builtin_frame_address(0);
}

START_TEST(test_stacks_staggered)
{
	ck_assert_int_eq(dfz__cores_fork(c, 8, note_frame, NULL, NULL, NULL), 0);
	for (unsigned i = 0; i < 8; i++)
		for (unsigned k = i + 1; k < 8; k++)
			ck_assert_uint_ne(frame_at[i] % 4096, frame_at[k] % 4096);
}
END_TEST

START_TEST(test_deep_stack)
{
	ck_assert_int_eq(dfz__cores_fork(c, 3, deep_core, NULL, pick_last,
					 NULL), 0);
	for (unsigned i = 0; i < 3; i++)
		ck_assert_uint_eq(written[i], 100 * 101 / 2);
}
END_TEST

Suite *suite_cores(void)
{
	Suite *s = suite_create("cores");
	TCase *tc = tcase_create("cores");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_fork_ids);
	tcase_add_test(tc, test_fork_fpenv);
	tcase_add_test(tc, test_pick_order);
	tcase_add_test(tc, test_barrier_deadlock);
	tcase_add_test(tc, test_bad_use);
	tcase_add_test(tc, test_deep_stack);
	tcase_add_test(tc, test_stacks_staggered);
	suite_add_tcase(s, tc);
	return s;
}
