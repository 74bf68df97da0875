// SPDX-License-Identifier: MIT
/*
 * The CLI contract, end to end: exit codes (0 clean, 1 bug, 2 bad input),
 * one-line errors on stderr, data on stdout. Runs the built binary named by
 * $DFZ_CLI (set by `make check`); without it the suite fails, not skips.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cli_run.h"
#include "scratch.h"

static char out[262144];
static char err[4096];

/* Run `$DFZ_CLI args` with stdout and stderr captured; return the exit code. */
static int cli(const char *args)
{
	const char *errf = at("cli_err.txt");
	char cmd[4096];
	FILE *f;
	size_t n;
	int st;

	snprintf(cmd, sizeof(cmd), "%s %s 2>%s", cli_bin(), args, errf);
	f = popen(cmd, "r");
	ck_assert_ptr_nonnull(f);
	n = fread(out, 1, sizeof(out) - 1, f);
	out[n] = 0;
	st = pclose(f);
	read_text(errf, err, sizeof(err));
	return exit_code(st);
}

START_TEST(test_exit_codes)
{
	ck_assert_int_eq(cli("run corpus/regress/shared-handle.plan"), 0);
	ck_assert_ptr_nonnull(strstr(out, "VERDICT:  clean"));
	ck_assert_int_eq(cli("run --bug shared-handle corpus/regress/shared-handle.plan"), 1);
	ck_assert_ptr_nonnull(strstr(out, "VERDICT:  bug"));
	ck_assert_int_eq(cli("run --json -b shared-handle corpus/regress/shared-handle.plan"), 1);
	ck_assert_ptr_nonnull(strstr(out, "\"verdict\":\"bug\""));
}
END_TEST

START_TEST(test_bad_input)
{
	ck_assert_int_eq(cli("run no/such.plan"), 2);
	ck_assert_int_eq(lines(err), 1);
	ck_assert_ptr_nonnull(strstr(err, "no/such.plan"));
	ck_assert_int_eq(cli("run --no-such-flag x"), 2);
	ck_assert_int_eq(cli("run --bug no-such-switch corpus/xfer"), 2);
	ck_assert_int_eq(lines(err), 1);
	ck_assert_int_eq(cli("frobnicate"), 2);
	ck_assert_int_eq(cli("run"), 2);
	ck_assert_int_eq(cli("gen --count x"), 2);
	ck_assert_int_eq(cli("show tests/data/bad-rank.plan"), 2);
	ck_assert_int_eq(lines(err), 1);
	ck_assert_ptr_nonnull(strstr(err, "line"));
	ck_assert_int_eq(cli("run tests/data/bad-rank.plan corpus/xfer/rank1-contig.plan"), 2);
	ck_assert_ptr_nonnull(strstr(out, "VERDICT:  clean"));   /* nothing lost */
}
END_TEST

START_TEST(test_show_encode_roundtrip)
{
	char show1[65536];

	ck_assert_int_eq(cli("show corpus/xfer/chain-add-dir.plan"), 0);
	strcpy(show1, out);
	ck_assert_int_eq(cli("encode corpus/xfer/chain-add-dir.plan > $T/rt.bin"), 0);
	ck_assert_int_eq(cli("show $T/rt.bin"), 0);
	ck_assert_str_eq(show1, out);
}
END_TEST

START_TEST(test_gen_run_stream)
{
	ck_assert_int_eq(cli("gen --count 300 --seed 3 > $T/gen.bin"), 0);
	ck_assert_int_eq(cli("run --quiet $T/gen.bin"), 0);
	ck_assert_ptr_nonnull(strstr(out, "SUMMARY:  300 inputs, 0 bugs"));
	/* Cut inside the next record's 4-byte length: bad, not the end. */
	ck_assert_int_eq(sh("(cat $T/gen.bin; printf '\\005') > $T/gen-cut.bin"), 0);
	ck_assert_int_eq(cli("run --quiet - < $T/gen-cut.bin"), 2);
	ck_assert_ptr_nonnull(strstr(out, "300 inputs, 0 bugs, 0 rejected, 1 bad"));
	ck_assert_int_eq(cli("gen --count 2 --seed 3 --text"), 0);
	ck_assert_ptr_nonnull(strstr(out, "family xfer"));
	ck_assert_int_eq(cli("--version"), 0);
	ck_assert_int_eq(strncmp(out, "dmafuzz 0.", 10), 0);
	ck_assert_ptr_nonnull(strstr(out, "(drop-in core switch: "));
	ck_assert_int_eq(lines(out), 1);
	ck_assert_int_eq(cli("--help"), 0);
	ck_assert_int_eq(cli("run --help"), 0);
	ck_assert_ptr_nonnull(strstr(out, "usage: dmafuzz run"));
}
END_TEST

/* Two in-process campaigns into one OUT: the second adds its findings
 * beside the first's, named by class and bytes; each names a file that
 * replays its class. */
START_TEST(test_fuzz_keeps_findings)
{
	ck_assert_int_eq(cli("fuzz --seconds 1 --seed 1 --bug shared-handle "
			     "--out $T/inproc 2>/dev/null"), 1);
	ck_assert_int_eq(sh("ls $T/inproc/crashes | grep -c '^handle.reuse-"
			    "[0-9a-f]*\\.plan$' | grep -qx 1"), 0);
	ck_assert_int_eq(cli("fuzz --seconds 1 --seed 2 --bug shared-handle "
			     "--out $T/inproc 2>/dev/null"), 1);
	ck_assert_int_eq(sh("test $(ls $T/inproc/crashes/*.plan | wc -l) -eq 2"), 0);
	ck_assert_int_eq(sh("test -z \"$(ls $T/inproc/crashes | grep tmp)\""), 0);
	ck_assert_int_eq(sh("for f in $T/inproc/crashes/*.plan; do %s run "
			    "--quiet --bug shared-handle $f | grep -q "
			    "handle.reuse || exit 1; done", cli_bin()), 0);
}
END_TEST

/* Bad use of every command: one line naming the command and pointing to
 * --help, exit 2, nothing on standard output; so are an empty switch list
 * and a directory without plans. */
START_TEST(test_bad_options)
{
	static const char *const cmds[] = {
		"run --bogus", "run -Z x", "run --bug", "show --x", "encode -q",
		"gen --nope", "fuzz --zz", "matrix -k", "min --zz", "emit-c --zz",
		"triage --zz", "report --zz x", "run --bug '' corpus/xfer/zero-dim.plan",
	};

	for (unsigned i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		ck_assert_int_eq(cli(cmds[i]), 2);
		ck_assert_msg(lines(err) == 1, "%s: %s", cmds[i], err);
		ck_assert_msg(strstr(err, "--help") != NULL, "%s: %s", cmds[i], err);
		ck_assert_str_eq(out, "");
	}
	ck_assert_int_eq(sh("mkdir $T/empty-dir"), 0);
	ck_assert_int_eq(cli("run $T/empty-dir"), 2);
	ck_assert_ptr_nonnull(strstr(err, "no plan files"));
}
END_TEST

/* Output that cannot be written (a full disk) is exit 3 and one line,
 * never a silent 0. */
START_TEST(test_full_disk)
{
	static const char *const cmds[] = {
		"show corpus/xfer/zero-dim.plan", "run corpus/xfer/zero-dim.plan",
		"encode corpus/xfer/zero-dim.plan", "gen --count 3",
	};
	char a[128];

	for (unsigned i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		snprintf(a, sizeof(a), "%s > /dev/full", cmds[i]);
		ck_assert_int_eq(cli(a), 3);
		ck_assert_int_eq(lines(err), 1);
		ck_assert_ptr_nonnull(strstr(err, "cannot write the output"));
	}
}
END_TEST

/* Every command takes a plan file of exactly 1 MiB and refuses one byte
 * more, with one line. */
START_TEST(test_file_limit)
{
	ck_assert_int_eq(sh("head -c 1048576 /dev/zero > $T/mib.bin && "
			    "head -c 1048577 /dev/zero > $T/mib1.bin"), 0);
	ck_assert_int_eq(cli("show $T/mib.bin > /dev/null"), 0);
	ck_assert_int_eq(cli("run --quiet $T/mib.bin"), 0);
	ck_assert_int_eq(cli("show $T/mib1.bin"), 2);
	ck_assert_int_eq(lines(err), 1);
	ck_assert_int_ne(cli("run --quiet $T/mib1.bin"), 0);
}
END_TEST

/* A fuzz target's input: `encode --bare` writes it, `run --family` reads
 * it back as the same plan (text files stay text whatever --family). */
START_TEST(test_bare_family)
{
	ck_assert_int_eq(cli("encode --bare corpus/regress/register-leak.plan"
			     " > $T/bare.bin"), 0);
	ck_assert_int_eq(cli("run --family host $T/bare.bin"), 0);
	ck_assert_int_eq(cli("run --family host --bug register-leak "
			     "$T/bare.bin"), 1);
	ck_assert_ptr_nonnull(strstr(out, "dev.leak"));
	ck_assert_int_eq(cli("run --family xfer --bug register-leak "
			     "corpus/regress/register-leak.plan"), 1);
	ck_assert_int_eq(cli("run --family gpu $T/bare.bin"), 2);
	ck_assert_int_eq(lines(err), 1);
}
END_TEST

/* The safety matrix: every cell safe with the guard; without it, the
 * motivating cell is unsafe at rank 3 and safe at rank 1; mchan is safe. */
START_TEST(test_matrix)
{
	static const char *const want[] = {
		"\"engine\":\"ram\",\"policy\":\"async-shared\",\"strategy\":"
		"\"tensor-dir\",\"buffering\":\"single\",\"guard\":false,"
		"\"rank\":3,\"plans\":3,\"bugs\":3,\"class\":\"handle.reuse\"",
		"\"engine\":\"ram\",\"policy\":\"async-shared\",\"strategy\":"
		"\"tensor-dir\",\"buffering\":\"single\",\"guard\":false,"
		"\"rank\":1,\"plans\":3,\"bugs\":0",
		"\"engine\":\"mchan\",\"policy\":\"async-shared\",\"strategy\":"
		"\"tensor-dir\",\"buffering\":\"single\",\"guard\":false,"
		"\"rank\":3,\"plans\":3,\"bugs\":0",
		/* the generator's double-buffering order never shares the
		 * output's request at rank 2; the eager order does */
		"\"engine\":\"ram\",\"policy\":\"async-shared\",\"strategy\":"
		"\"tensor-dir\",\"buffering\":\"double-generator\",\"guard\":"
		"false,\"rank\":2,\"plans\":3,\"bugs\":0",
		"\"engine\":\"ram\",\"policy\":\"async-shared\",\"strategy\":"
		"\"tensor-dir\",\"buffering\":\"double-eager\",\"guard\":"
		"false,\"rank\":2,\"plans\":3,\"bugs\":3,"
		"\"class\":\"handle.reuse\"",
	};

	ck_assert_int_eq(cli("matrix --plans 3 --json --out $T/matrix"), 0);
	for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		ck_assert_msg(strstr(out, want[i]), "missing: %s", want[i]);
	ck_assert_int_eq(cli("matrix --plans 0"), 2);
}
END_TEST

Suite *suite_cli(void)
{
	Suite *s = suite_create("cli");
	TCase *tc = tcase_create("cli");

	tcase_set_timeout(tc, 60);
	scratch_add(tc);
	tcase_add_test(tc, test_exit_codes);
	tcase_add_test(tc, test_bad_input);
	tcase_add_test(tc, test_show_encode_roundtrip);
	tcase_add_test(tc, test_gen_run_stream);
	tcase_add_test(tc, test_file_limit);
	tcase_add_test(tc, test_full_disk);
	tcase_add_test(tc, test_bad_options);
	tcase_add_test(tc, test_fuzz_keeps_findings);
	tcase_add_test(tc, test_bare_family);
	tcase_add_test(tc, test_matrix);
	suite_add_tcase(s, tc);
	return s;
}
