// SPDX-License-Identifier: MIT
/*
 * `dmafuzz campaign`'s contract before anything runs: each bad option and
 * each bad manifest line is one line on stderr and exit 64, nothing on
 * stdout; --help is exit 0; a missing campaign script is exit 2. The
 * fuzzing itself is tools/campaign-check.sh's (make campaign-check).
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "cli_run.h"
#include "scratch.h"

static char out[8192];
static char err[4096];

/* `[ENV] $DFZ_CLI campaign ARGS`, stdout and stderr captured. */
static int campaign(const char *env, const char *args)
{
	const char *o = at("out.txt"), *e = at("err.txt");
	int rc = sh("%s %s campaign %s >%s 2>%s", env, cli_bin(), args, o, e);

	read_text(o, out, sizeof(out));
	read_text(e, err, sizeof(err));
	return rc;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

START_TEST(test_campaign_bad_options)
{
	static const char *const bad[][2] = {
		{ "", "no MANIFEST or DIR" },
		{ "-S 0 .", "SECONDS must be" },
		{ "-S 1x .", "SECONDS must be" },
		{ "-S 604801 .", "SECONDS must be" },
		{ "-j 0 .", "JOBS must be" },
		{ "--engine honggfuzz .", "the engine must be" },
		{ "-n 'a b' .", "a test name is" },
		{ "--srcroot /no/such/dir .", "--srcroot" },
		{ "--bogus .", "unknown option" },
		{ "-o", "a value is missing" },
		{ ". .", "one MANIFEST or DIR" },
		{ "/no/such/manifest", "/no/such/manifest" },
	};

	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(campaign("", bad[i][0]) == 64, "%s: exit", bad[i][0]);
		ck_assert_msg(lines(err) == 1, "%s: %s", bad[i][0], err);
		ck_assert_msg(strstr(err, "dmafuzz campaign: ") == err, "%s: %s", bad[i][0], err);
		ck_assert_msg(strstr(err, bad[i][1]) != NULL, "%s: %s", bad[i][0], err);
		ck_assert_str_eq(out, "");
	}
	ck_assert_int_eq(campaign("", "--help"), 0);
	ck_assert_ptr_nonnull(strstr(out, "usage: dmafuzz campaign"));
	ck_assert_ptr_nonnull(strstr(out, "75 OUT is\nin use"));
	ck_assert_int_eq(campaign("DFZ_CAMPAIGN_SCRIPT=/no/such/script", "."), 2);
	ck_assert_ptr_nonnull(strstr(err, "the campaign script is missing"));
	ck_assert_int_eq(lines(err), 1);
}
END_TEST

/* Each bad line of a manifest: one line naming the file and the line
 * (checked before any tool is looked for, any build or lock). */
START_TEST(test_campaign_bad_manifest)
{
	static const char *const bad[][2] = {
		{ "a test_a.c\n", "t.tests:1: expected 'NAME" },
		{ "# tests\n\nx: test_a.c\nx: test_a.c\n", "t.tests:4: a second test named 'x'" },
		{ "a b: test_a.c\n", "t.tests:1: a: unknown field 'b'" },
		{ "a: test_a.c nope.c\n", "t.tests:1: a: nope.c: no such file" },
		{ "a: test_a.c lib.o\n", "'lib.o' is not a .c file" },
		{ "a.b: test_a.c\n", "the test name 'a.b'" },
		{ ": test_a.c\n", "no test name" },
		{ "a quirks=x;y: test_a.c\n", "a bad quirk list" },
		{ "a pc=: test_a.c\n", "a bad module" },
		{ "a: -- -DX\n", "a: no source file" },
		{ "# nothing\n", "no test in it" },
	};
	char args[2048];

	write_file(at("test_a.c"), "int x;\n");
	snprintf(args, sizeof(args), "-o %s %s", at("out"), at("t.tests"));
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		write_file(at("t.tests"), bad[i][0]);
		ck_assert_msg(campaign("", args) == 64, "%s: exit (%s)", bad[i][0], err);
		ck_assert_msg(lines(err) == 1, "%s: %s", bad[i][0], err);
		ck_assert_msg(strstr(err, bad[i][1]) != NULL, "%s: %s", bad[i][0], err);
	}
	/* A folder without test_*.c. */
	ck_assert_int_eq(sh("mkdir %s", at("empty")), 0);
	snprintf(args, sizeof(args), "-o %s %s", at("out"), at("empty"));
	ck_assert_int_eq(campaign("", args), 64);
	ck_assert_ptr_nonnull(strstr(err, "no test_*.c under it"));
	ck_assert_int_eq(sh("test ! -e %s", at("out")), 0);
}
END_TEST

Suite *suite_campaign(void)
{
	Suite *s = suite_create("campaign");
	TCase *tc = tcase_create("campaign");

	scratch_add(tc);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_campaign_bad_options);
	tcase_add_test(tc, test_campaign_bad_manifest);
	suite_add_tcase(s, tc);
	return s;
}
