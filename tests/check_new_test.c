// SPDX-License-Identifier: MIT
/*
 * `dmafuzz new-test` (cli/cmd_new_test.c): what it writes into a fresh
 * folder, and that the result builds and runs clean through the written
 * dmafuzz-tests.mk against the drop-in as `make install` lays it out (the
 * root `make new-test-root` installs beside the CLI, mk/templates.mk, or
 * $DFZ_NEWTEST_ROOT), with gcc at -Werror, for every flavor and every
 * header alone; a test whose check fails makes `check` fail. Sabotage:
 * an existing test file or manifest test, bad names, unknown or mixed
 * headers, a missing source and a bad manifest line are each refused in
 * one line with their exit code, and nothing is written. The headers
 * and calls the skeleton names are the drop-in's.
 */
#include <check.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_run.h"
#include "scratch.h"

enum { BAD = 2, EXISTS = 4 };

/* The CLI's absolute path (the commands run in $T). */
static const char *cli_abs(void)
{
	static char cli[PATH_MAX + 1100];
	char cwd[PATH_MAX];

	if (cli_bin()[0] == '/')
		return cli_bin();
	ck_assert_ptr_nonnull(getcwd(cwd, sizeof(cwd)));
	snprintf(cli, sizeof(cli), "%s/%s", cwd, cli_bin());
	return cli;
}

/* The install root (DESTDIR) the builds use. */
static const char *root_dir(void)
{
	static char root[PATH_MAX + 1200];
	const char *env = getenv("DFZ_NEWTEST_ROOT");
	char cli[PATH_MAX + 1100];

	if (env && *env) {
		snprintf(root, sizeof(root), "%s", env);
	} else {
		snprintf(cli, sizeof(cli), "%s", cli_abs());
		snprintf(root, sizeof(root), "%s/new-test-root", dirname(cli));
	}
	return root;
}

/* A SAN=asan build's root says "skip" (mk/templates.mk): no builds. */
static bool skip_builds(void)
{
	char skip[2200];

	snprintf(skip, sizeof(skip), "%s/skip", root_dir());
	if (access(skip, F_OK) != 0)
		return false;
	fprintf(stderr, "new_test: %s: no builds under SAN=asan\n", skip);
	return true;
}

/* The root, whose dmafuzz-dropin.pc must be there. */
static const char *install_root(void)
{
	const char *root = root_dir();
	char pc[2200];

	snprintf(pc, sizeof(pc), "%s/usr/local/lib/pkgconfig/dmafuzz-dropin.pc",
		 root);
	ck_assert_msg(access(pc, R_OK) == 0,
		      "no %s: run `make new-test-root` (make check does)", pc);
	return root;
}

/* `make -f dmafuzz-tests.mk @target` in $T against the install root,
 * outside the caller's make; its output in $T/make.log. */
static int make_in_t(const char *target)
{
	const char *root = install_root();

	return sh("cd \"$T\" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "
		  "PKG_CONFIG_SYSROOT_DIR='%s' "
		  "PKG_CONFIG_PATH='%s/usr/local/lib/pkgconfig' "
		  "make -f dmafuzz-tests.mk %s DFZ_CC=gcc DFZ_RUNS=5 "
		  "DFZ_CFLAGS='-std=c11 -g -O1 -Wall -Wextra -Werror' "
		  "> make.log 2>&1", root, root, target);
}

static int count(const char *s, const char *what)
{
	int k = 0;

	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		k++;
	return k;
}

/* new-test NAME in $T with @args; its stderr in $T/err. */
static int new_test(const char *args)
{
	const char *cli = cli_abs();

	return sh("cd \"$T\" && '%s' new-test %s > out 2> err", cli, args);
}

START_TEST(writes_three_files)
{
	char *mf, *test, *mk;

	ck_assert_int_eq(sh("echo 'void f(void) {}' > \"$T/tile.c\""), 0);
	ck_assert_int_eq(new_test("tile -s tile.c"), 0);
	mf = slurp(at("dmafuzz.tests"), NULL);
	test = slurp(at("test_tile.c"), NULL);
	mk = slurp(at("dmafuzz-tests.mk"), NULL);
	ck_assert_msg(strstr(mf, "\ntile: test_tile.c tile.c\n"), "%s", mf);
	ck_assert_ptr_nonnull(strstr(test, "#include <pmsis.h>\n"
					   "#include <bsp/ram.h>\n"
					   "#include <dmafuzz/dropin.h>\n"));
	ck_assert_ptr_nonnull(strstr(test, "DFZ_DROPIN_MAIN(body, NULL)"));
	ck_assert_ptr_nonnull(strstr(test, "TODO"));
	ck_assert_ptr_nonnull(strstr(mk, "check: dmafuzz-check"));
	ck_assert_ptr_nonnull(strstr(mk, "fuzz: dmafuzz-fuzz"));
	free(mf);
	free(test);
	free(mk);
	/* A second test: its line appended, the fragment kept as it is. */
	ck_assert_int_eq(sh("echo '# mine' >> \"$T/dmafuzz-tests.mk\""), 0);
	ck_assert_int_eq(new_test("m --flavor main -q cldma-size16"), 0);
	mf = slurp(at("dmafuzz.tests"), NULL);
	mk = slurp(at("dmafuzz-tests.mk"), NULL);
	ck_assert_msg(strstr(mf, "\ntile: test_tile.c tile.c\nm "
				 "pc=dmafuzz-dropin-main quirks=cldma-size16: "
				 "test_m.c\n"), "%s", mf);
	ck_assert_msg(strstr(mk, "\n# mine\n"), "the fragment was rewritten");
	free(mf);
	free(mk);
}
END_TEST

/* Every flavor and every header alone: gcc -Werror, each run clean. */
START_TEST(builds_and_runs_clean)
{
	static const char *const args[] = {
		"f_pmsis", "f_snrt --flavor snrt", "f_main --flavor main",
		"f_snrt_main --flavor snrt-main", "h1 -H pmsis.h",
		"h2 -H bsp/ram.h", "h3 -H bsp/bsp.h", "h4 -H mchan_v7.h",
		"h5 -H mchan_siracusa.h", "h6 -H mchan.h", "h7 -H dory_dma.h",
		"h8 -H at_api.h", "h9 -H snrt.h",
		"h10 -H pmsis.h -H bsp/ram.h -H mchan_v7.h -H dory_dma.h",
	};
	size_t n = sizeof(args) / sizeof(args[0]);
	char *log;

	for (size_t i = 0; i < n; i++)
		ck_assert_msg(new_test(args[i]) == 0, "new-test %s", args[i]);
	if (skip_builds())
		return;
	ck_assert_int_eq(make_in_t("check"), 0);
	log = slurp(at("make.log"), NULL);
	ck_assert_msg(count(log, "VERDICT: clean (5 schedules") == (int)n,
		      "%s", log);
	free(log);
}
END_TEST

/* The check can fail: a test whose check fails stops `make check`. */
START_TEST(failing_check_fails_make)
{
	char *log;

	ck_assert_int_eq(new_test("bad"), 0);
	ck_assert_int_eq(sh("cd \"$T\" && sed -i 's/DFZ_DROPIN_CHECK(1)/"
			    "DFZ_DROPIN_CHECK(0)/' test_bad.c"), 0);
	if (skip_builds())
		return;
	ck_assert_int_ne(make_in_t("check"), 0);
	log = slurp(at("make.log"), NULL);
	ck_assert_msg(strstr(log, "data.mismatch"), "%s", log);
	free(log);
}
END_TEST

/* An existing test file or manifest test: exit 4, nothing written. */
START_TEST(never_overwrites)
{
	char *before, *after;

	ck_assert_int_eq(new_test("tile"), 0);
	ck_assert_int_eq(sh("cd \"$T\" && echo keep > test_tile.c"), 0);
	before = slurp(at("dmafuzz.tests"), NULL);
	ck_assert_int_eq(new_test("tile"), EXISTS);
	ck_assert_int_eq(sh("grep -qx keep \"$T/test_tile.c\""), 0);
	ck_assert_int_eq(sh("rm \"$T/test_tile.c\""), 0);
	ck_assert_int_eq(new_test("tile --flavor snrt"), EXISTS);
	ck_assert_int_eq(access(at("test_tile.c"), F_OK), -1);
	after = slurp(at("dmafuzz.tests"), NULL);
	ck_assert_str_eq(before, after);
	free(before);
	free(after);
	after = slurp(at("err"), NULL);
	ck_assert_msg(lines(after) == 1 && strstr(after, "exists already"),
		      "%s", after);
	free(after);
}
END_TEST

/* Bad arguments: exit 2 with one line, and the folder left empty. */
static const char *const bad_args[] = {
	"'a b'", "../up", "''", "x.c",
	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	"t -H nosuch.h", "t -H snrt.h -H pmsis.h", "t --flavor main -H snrt.h",
	"t --flavor nosuch", "t -s missing.c", "t -s 'a b.c'", "t -q 'x y'",
	"t --nosuch", "", "t u", "t -d nosuchdir",
};

START_TEST(refuses_bad_arguments)
{
	char err[1024];

	ck_assert_int_eq(new_test(bad_args[_i]), BAD);
	read_text(at("err"), err, sizeof(err));
	ck_assert_msg(lines(err) == 1 && strstr(err, "dmafuzz new-test: "),
		      "%s: %s", bad_args[_i], err);
	read_text(at("out"), err, sizeof(err));
	ck_assert_msg(!err[0], "%s: stdout %s", bad_args[_i], err);
	ck_assert_int_eq(sh("cd \"$T\" && test -z \"$(ls | grep -v -x -e out "
			    "-e err)\""), 0);
}
END_TEST

/* A manifest line without its colon; one without a final newline. */
START_TEST(manifest_edges)
{
	char *mf;

	ck_assert_int_eq(sh("printf 'broken line\\n' > \"$T/dmafuzz.tests\""),
			 0);
	ck_assert_int_eq(new_test("t"), BAD);
	ck_assert_int_eq(access(at("test_t.c"), F_OK), -1);
	ck_assert_int_eq(sh("printf 'a: a.c # a: comment' > "
			    "\"$T/dmafuzz.tests\""), 0);
	ck_assert_int_eq(new_test("t"), 0);
	mf = slurp(at("dmafuzz.tests"), NULL);
	ck_assert_str_eq(mf, "a: a.c # a: comment\nt: test_t.c\n");
	free(mf);
}
END_TEST

/* Every header --list-headers names is a drop-in header, and every call
 * its TODO comments name is in the drop-in's headers (run from the
 * source tree, as make check does). */
START_TEST(headers_and_calls_exist)
{
	ck_assert_int_eq(sh("'%s' new-test --list-headers > \"$T/list\" && "
			    "test $(wc -l < \"$T/list\") -ge 9 && "
			    "for h in $(cut -d' ' -f1 \"$T/list\"); do "
			    "test -f include/dmafuzz/dropin/$h || exit 1; done",
			    cli_abs()), 0);
	ck_assert_int_eq(sh("cut -c24- \"$T/list\" | grep -oE "
			    "'[A-Za-z][A-Za-z0-9]*(_[A-Za-z0-9]+)+' | sort -u | "
			    "while read id; do grep -rq \"$id\" include/dmafuzz || "
			    "{ echo \"new_test: no $id\" >&2; exit 1; }; done"), 0);
}
END_TEST

Suite *suite_new_test(void)
{
	Suite *s = suite_create("new_test");
	TCase *tc = tcase_create("new_test");

	tcase_set_timeout(tc, 120);
	scratch_add(tc);
	tcase_add_test(tc, writes_three_files);
	tcase_add_test(tc, builds_and_runs_clean);
	tcase_add_test(tc, failing_check_fails_make);
	tcase_add_test(tc, never_overwrites);
	tcase_add_loop_test(tc, refuses_bad_arguments, 0,
			    (int)(sizeof(bad_args) / sizeof(bad_args[0])));
	tcase_add_test(tc, manifest_edges);
	tcase_add_test(tc, headers_and_calls_exist);
	suite_add_tcase(s, tc);
	return s;
}
