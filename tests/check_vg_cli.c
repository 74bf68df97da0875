// SPDX-License-Identifier: MIT
/*
 * `run --oracles` and DMAFUZZ_ORACLES, end to end: with our oracles off a
 * bug goes unseen by dmafuzz itself (memcheck judges such runs alone, make
 * memcheck), a subset of oracles judges alone, and a bad name is a one-line
 * error with exit 2. Runs the binaries named by $DFZ_CLI (make check).
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cli_run.h"
#include "scratch.h"

static char err[4096];

/* `$DFZ_CLI args` (stdout dropped, stderr kept): the exit code. */
static int run(const char *env, const char *args)
{
	const char *errf = at("err.txt");
	int rc = sh("%s %s %s >/dev/null 2>%s", env, cli_bin(), args, errf);

	read_text(errf, err, sizeof(err));
	return rc;
}

START_TEST(test_oracles_select)
{
	const char *plan = "corpus/regress/shared-handle.plan";
	char args[256];

	snprintf(args, sizeof(args), "run --bug shared-handle %s", plan);
	ck_assert_int_eq(run("", args), 1);
	snprintf(args, sizeof(args), "run --oracles all --bug shared-handle %s",
		 plan);
	ck_assert_int_eq(run("", args), 1);
	/* No oracle: nothing of ours sees the bug. */
	snprintf(args, sizeof(args), "run --oracles none --bug shared-handle %s",
		 plan);
	ck_assert_int_eq(run("", args), 0);
	/* The reuse is the handle and queue oracles' to see, not ref's. */
	snprintf(args, sizeof(args), "run -o handle,queue --bug shared-handle %s",
		 plan);
	ck_assert_int_eq(run("", args), 1);
	snprintf(args, sizeof(args), "run -o cmd --bug shared-handle %s", plan);
	ck_assert_int_eq(run("", args), 0);
}
END_TEST

START_TEST(test_oracles_bad)
{
	ck_assert_int_eq(run("", "run --oracles ref,nosuch corpus/xfer"), 2);
	ck_assert_ptr_nonnull(strstr(err, "nosuch"));
	ck_assert_ptr_nonnull(strstr(err, "errcode"));
	ck_assert_ptr_null(strchr(strchr(err, '\n') + 1, '\n'));
	ck_assert_int_eq(run("", "run --oracles '' corpus/xfer"), 2);
	ck_assert_int_eq(run("", "run --help"), 0);
}
END_TEST

Suite *suite_vg_cli(void)
{
	Suite *s = suite_create("vg_cli");
	TCase *tc = tcase_create("oracles");

	tcase_set_timeout(tc, 60);
	scratch_add(tc);
	tcase_add_test(tc, test_oracles_select);
	tcase_add_test(tc, test_oracles_bad);
	suite_add_tcase(s, tc);
	return s;
}
