/* SPDX-License-Identifier: MIT */
/*
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

/* ck_assert(expr). */
#define CK_CHECK(expr) do { \
	if (!(expr)) \
		ck_abort_msg("Assertion '%s' failed", #expr); \
} while (0)

/* ck_assert_msg(expr, fmt, ...). */
#define CK_CHECK_MSG(expr, ...) do { \
	if (!(expr)) \
		ck_abort_msg(__VA_ARGS__); \
} while (0)

/* ck_assert_int_<op>(X, Y), with OP the C operator: ==, !=, <, <=, >, >=. */
#define CK_CHECK_INT(X, OP, Y) do { \
	intmax_t ck_x_ = (X); \
	intmax_t ck_y_ = (Y); \
	if (!(ck_x_ OP ck_y_)) \
		ck_abort_msg("Assertion '%s' failed: %s == %jd, %s == %jd", \
			     #X " " #OP " " #Y, #X, ck_x_, #Y, ck_y_); \
} while (0)

/* ck_assert_uint_<op>(X, Y). */
#define CK_CHECK_UINT(X, OP, Y) do { \
	uintmax_t ck_x_ = (X); \
	uintmax_t ck_y_ = (Y); \
	if (!(ck_x_ OP ck_y_)) \
		ck_abort_msg("Assertion '%s' failed: %s == %ju, %s == %ju", \
			     #X " " #OP " " #Y, #X, ck_x_, #Y, ck_y_); \
} while (0)

#endif /* DMAFUZZ_TESTS_CHECK_FAST_H */
