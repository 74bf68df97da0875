/* SPDX-License-Identifier: MIT */
/*
 * Helpers that keep the unit tests fast natively and under valgrind.
 *
 * Quiet assertions for hot loops. Every ck_assert*() that passes records
 * its location through Check's message channel: one write() per call. In
 * a loop over every byte of an arena or every random plan that is most of
 * a suite's time, and far more under valgrind. These compare in plain C
 * and call Check only when the comparison fails, with the message the
 * Check macro of the same name would give; a pass makes no Check call.
 * The price: a crash reports the last Check call before the loop, not the
 * last iteration. Use them inside loops and the checkers loops call; keep
 * ck_assert*() for the straight-line asserts of a test.
 */
#ifndef DMAFUZZ_TESTS_CHECK_FAST_H
#define DMAFUZZ_TESTS_CHECK_FAST_H

#include <check.h>
#include <stdint.h>
#include <stdlib.h>

/*
 * As in Check, an operand is stringified after its macros are expanded
 * (DFZ_CAP_L1 reads "(512u << 10)"): each macro below hands its operands
 * to a second one that does the work.
 */

/* ck_assert(expr). */
#define CK_CHECK(expr) CK_CHECK_(expr)

/* ck_assert_msg(expr, fmt, ...). */
#define CK_CHECK_MSG(expr, ...) do { \
	if (!(expr)) \
		ck_abort_msg(__VA_ARGS__); \
} while (0)

/* ck_assert_int_<op>(X, Y), with OP the C operator: ==, !=, <, <=, >, >=. */
#define CK_CHECK_INT(X, OP, Y) CK_CHECK_NUM_(intmax_t, "jd", X, OP, Y)

/* ck_assert_uint_<op>(X, Y). */
#define CK_CHECK_UINT(X, OP, Y) CK_CHECK_NUM_(uintmax_t, "ju", X, OP, Y)

#define CK_CHECK_(expr) do { \
	if (!(expr)) \
		ck_abort_msg("Assertion '%s' failed", #expr); \
} while (0)

/* T the type of both operands, F its printf conversion. */
#define CK_CHECK_NUM_(T, F, X, OP, Y) do { \
	T ck_x_ = (X); \
	T ck_y_ = (Y); \
	if (!(ck_x_ OP ck_y_)) \
		ck_abort_msg("Assertion '%s' failed: %s == %" F ", %s == %" F, \
			     #X " " #OP " " #Y, #X, ck_x_, #Y, ck_y_); \
} while (0)

/*
 * memcheck_count() - the count of a long random loop: @n natively (`make
 * check`), @n / @div rounded up under valgrind (tools/memcheck.sh sets
 * DFZ_MEMCHECK for the unit run), where each iteration costs some 30
 * times more and memcheck wants the code paths, not the statistics. A
 * test that scales must say so, and keep every assertion on the count it
 * ran.
 */
static inline unsigned memcheck_count(unsigned n, unsigned div)
{
	return getenv("DFZ_MEMCHECK") ? (n + div - 1) / div : n;
}

#endif /* DMAFUZZ_TESTS_CHECK_FAST_H */
