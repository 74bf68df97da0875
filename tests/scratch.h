/* SPDX-License-Identifier: MIT */
/*
 * A scratch directory of one test's own, so that two runs of the tests in
 * one tree (two `make check` at once) never write the same file. A test
 * case that calls scratch_add() gets a directory made by mkdtemp(3) under
 * $TMPDIR (else /tmp) before its tests, in the runner's process, and
 * removed after them however they ended; each of its tests gets a fresh
 * directory inside that one. Shell commands name the test's directory $T
 * (the environment carries it to the commands sh() runs); C code builds
 * paths with at().
 */
#ifndef DFZ_TEST_SCRATCH_H
#define DFZ_TEST_SCRATCH_H

#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#define SCRATCH_PATHS 8               /* at() results alive at once */

static char scratch_case[1024];       /* the test case's */
static char scratch_dir[1100];        /* the running test's, inside it */

static inline void scratch_remove(char *dir)
{
	char cmd[1200];

	if (!dir[0])
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		ck_abort_msg("cannot remove %s", dir);
	dir[0] = 0;
}

static inline void scratch_case_setup(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(scratch_case, sizeof(scratch_case), "%s/dmafuzz-check-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(scratch_case))
		ck_abort_msg("mkdtemp %s failed", scratch_case);
}

static inline void scratch_case_teardown(void)
{
	scratch_remove(scratch_case);
}

static inline void scratch_setup(void)
{
	snprintf(scratch_dir, sizeof(scratch_dir), "%s/XXXXXX", scratch_case);
	ck_assert_msg(scratch_case[0] && mkdtemp(scratch_dir) != NULL,
		      "mkdtemp %s failed", scratch_dir);
	ck_assert_int_eq(setenv("T", scratch_dir, 1), 0);
}

static inline void scratch_teardown(void)
{
	scratch_remove(scratch_dir);
}

/* scratch_add() - a scratch directory for every test of @tc. */
static inline void scratch_add(TCase *tc)
{
	tcase_add_unchecked_fixture(tc, scratch_case_setup,
				    scratch_case_teardown);
	tcase_add_checked_fixture(tc, scratch_setup, scratch_teardown);
}

/*
 * at() - the path of @fmt... inside the running test's directory, in one
 * of SCRATCH_PATHS static buffers used in turn: valid until that many
 * more calls.
 */
static inline const char *at(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static inline const char *at(const char *fmt, ...)
{
	static char buf[SCRATCH_PATHS][2048];
	static unsigned next;
	char *p = buf[next++ % SCRATCH_PATHS];
	int n = snprintf(p, sizeof(buf[0]), "%s/", scratch_dir);
	va_list ap;

	ck_assert_msg(scratch_dir[0], "at() outside a scratch test case");
	va_start(ap, fmt);
	n += vsnprintf(p + n, sizeof(buf[0]) - (size_t)n, fmt, ap);
	va_end(ap);
	ck_assert_msg((size_t)n < sizeof(buf[0]), "path too long: %.80s", p);
	return p;
}

#endif /* DFZ_TEST_SCRATCH_H */
