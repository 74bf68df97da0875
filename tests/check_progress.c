// SPDX-License-Identifier: MIT
/*
 * The progress line of `dmafuzz triage` and `dmafuzz report`: on a
 * terminal (standard error on a pseudo-terminal here), one line updated
 * in place with '\r' (inputs replayed of all, buckets, the bucket being
 * minimized; the instances read and the outputs written), blanked before
 * anything else is printed and at the end; on anything else (a file, a
 * pipe: the tests, CI logs) nothing at all. Runs $DFZ_CLI (make check).
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_run.h"
#include "scratch.h"

/*
 * Run the shell command @cmd with its standard output and error on a
 * fresh pseudo-terminal, as a person at a terminal would; what it wrote
 * there into @out (NUL-terminated; the terminal writes "\r\n" for "\n").
 * Return: its exit code.
 */
static int on_tty(const char *cmd, char *out, size_t len)
{
	int master = posix_openpt(O_RDWR | O_NOCTTY), st;
	size_t n = 0;
	ssize_t got;
	pid_t pid;

	ck_assert_int_ge(master, 0);
	ck_assert_int_eq(grantpt(master), 0);
	ck_assert_int_eq(unlockpt(master), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int slave;

		setsid();
		slave = open(ptsname(master), O_RDWR);
		if (slave < 0 || dup2(slave, STDOUT_FILENO) < 0 ||
		    dup2(slave, STDERR_FILENO) < 0)
			_exit(126);
		close(master);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	/* Until the last holder of the terminal is gone (EIO on Linux). */
	while (n + 1 < len && ((got = read(master, out + n, len - 1 - n)) > 0 ||
			       (got < 0 && errno == EINTR)))
		n += got > 0 ? (size_t)got : 0;
	out[n] = 0;
	close(master);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	return exit_code(st);
}

/* An AFL++ instance's stats and three crashes of two classes and a
 * clean input. */
static void campaign(void)
{
	static const char *const plans[] = {
		"corpus/regress/shared-handle.plan", "corpus/regress/db-war.plan",
		"corpus/regress/early-compute.plan", "corpus/xfer/rank1-contig.plan",
	};

	ck_assert_int_eq(sh("mkdir -p $T/c/xfer/default/crashes && cp "
			    "tests/data/report/short/xfer/default/fuzzer_stats "
			    "$T/c/xfer/default/"), 0);
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(sh("%s encode --bare %s > $T/c/xfer/default/"
				    "crashes/id:00000%d,sig:06", cli_bin(),
				    plans[i], i), 0);
}

/*
 * What a terminal shows after @raw: '\r' takes the cursor to the start of
 * the line, '\n' to the next line, any other byte overwrites the one at
 * the cursor. Into @out: the lines, trailing blanks cut, each ended by
 * '\n', the last one (where the cursor is) too.
 */
static void screen(const char *raw, char *out, size_t len)
{
	char line[1024];
	size_t col = 0, end = 0, k = 0;

	for (const char *p = raw;; p++) {
		if (*p == '\n' || !*p) {
			while (end && line[end - 1] == ' ')
				end--;
			ck_assert_uint_lt(k + end + 1, len);
			memcpy(out + k, line, end);
			k += end;
			out[k++] = '\n';
			col = end = 0;
			if (!*p)
				break;
		} else if (*p == '\r') {
			col = 0;
		} else {
			ck_assert_uint_lt(col, sizeof(line));
			line[col++] = *p;
			end = col > end ? col : end;
		}
	}
	out[k] = 0;
}

START_TEST(test_progress_on_a_terminal)
{
	static char tty[65536], shown[65536];

	campaign();
	ck_assert_int_eq(on_tty("$DFZ_CLI triage --bug shared-handle,db-war,"
				"early-compute $T/c", tty, sizeof(tty)), 0);
	/* Updated in place: the inputs replayed of all, the buckets, the
	 * bucket being minimized. */
	ck_assert_ptr_nonnull(strstr(tty, "\rtriage: replayed 1/4 input(s), "
				     "1 bucket(s)"));
	ck_assert_ptr_nonnull(strstr(tty, "\rtriage: minimizing bucket 1/"));
	/* Blanked before each line of the log and at the end: the screen
	 * holds the log alone, the cursor on an empty line. */
	screen(tty, shown, sizeof(shown));
	ck_assert_int_eq(strncmp(shown, "triage: b01 ", 12), 0);
	ck_assert_ptr_nonnull(strstr(shown, "\ntriage: b02 "));
	ck_assert_ptr_nonnull(strstr(shown, " did not reproduce; "));
	ck_assert_ptr_null(strstr(shown, "replayed"));
	ck_assert_ptr_null(strstr(shown, "minimizing"));
	ck_assert_str_eq(shown + strlen(shown) - 2, "\n\n");

	/* Quiet: nothing else is printed, and nothing is left shown. */
	ck_assert_int_eq(on_tty("$DFZ_CLI report -q -o $T/r $T/c", tty,
				sizeof(tty)), 0);
	ck_assert_ptr_nonnull(strstr(tty, "\rreport: reading instance 1/1"));
	ck_assert_ptr_nonnull(strstr(tty, "\rreport: writing index.html (4/4), "
				     "2 bucket(s)"));
	screen(tty, shown, sizeof(shown));
	ck_assert_str_eq(shown, "\n");
}
END_TEST

/* Not a terminal: nothing on standard error but what was there before. */
START_TEST(test_no_progress_elsewhere)
{
	campaign();
	ck_assert_int_eq(sh("%s triage --bug shared-handle,db-war,early-compute "
			    "$T/c > $T/log.txt 2> $T/err.txt", cli_bin()), 0);
	ck_assert_int_eq(sh("test -s $T/log.txt && ! test -s $T/err.txt"), 0);
	ck_assert_int_eq(sh("%s report -o $T/r $T/c 2> $T/err.txt", cli_bin()), 0);
	ck_assert_int_eq(sh("test \"$(cat $T/err.txt)\" = \"report: $T/r/"
			    "{summary.md,summary.json,findings.sarif,index.html}\""),
			 0);
}
END_TEST

Suite *suite_progress(void)
{
	Suite *s = suite_create("progress");
	TCase *tc = tcase_create("progress");

	tcase_set_timeout(tc, 120);
	scratch_add(tc);
	tcase_add_test(tc, test_progress_on_a_terminal);
	tcase_add_test(tc, test_no_progress_elsewhere);
	suite_add_tcase(s, tc);
	return s;
}
