// SPDX-License-Identifier: MIT
/*
 * The report of a campaign a script ran (tools/fuzz.sh, tools/nightly.sh):
 * `dmafuzz report` reads the script's record (campaign.txt), the class
 * lists it names and the seed build's findings.txt, and writes the
 * summary the scripts no longer write. A synthetic campaign built here:
 * an xfer instance whose fuzzer_stats says "execs_per_sec : inf" (its
 * clock has not moved: run_time 0), a host instance of 20 s, an api
 * target that could not run; findings of every kind (a crash, a seed that
 * crashes, a hang that reproduces, one that is only slow), a seed that the
 * seed build found to be a finding. Then a night of the nightly (its run,
 * afl-cmin's counts, its instances' schedules), and the sabotage: without
 * the record none of it is said. And `dmafuzz report --progress`, which
 * the scripts' progress lines print. Runs `dmafuzz report` ($DFZ_CLI).
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "json_int.h"

#include "cli_run.h"
#include "fuzz_campaign.h"
#include "scratch.h"

static const struct dfz_json *get(const struct dfz_json *j, const char *path)
{
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = strtok_r(buf, ".", &save); p && j;
	     p = strtok_r(NULL, ".", &save))
		j = *p >= '0' && *p <= '9' ? dfz_json_at(j, (size_t)atoi(p))
					   : dfz_json_get(j, p);
	ck_assert_msg(j != NULL, "%s: absent", path);
	return j;
}

static double num(const struct dfz_json *j, const char *path)
{
	double v = -1;

	ck_assert_msg(dfz_json_num(get(j, path), &v), "%s: not a number", path);
	return v;
}

static bool is_null(const struct dfz_json *j, const char *path)
{
	return dfz_json_type_of(get(j, path)) == DFZ_JSON_NULL;
}

static struct dfz_json *parse(const char *path)
{
	char perr[256];
	struct dfz_json *j;
	size_t n;
	char *text = slurp(path, &n);

	ck_assert_msg(dfz_json_parse(text, n, &j, perr, sizeof(perr)) == 0,
		      "%s: %s", path, perr);
	free(text);
	return j;
}

static void has(const char *text, const char *want)
{
	ck_assert_msg(strstr(text, want) != NULL, "not in summary.md: %s", want);
}

START_TEST(test_fuzz_record_md)
{
	char *m;

	ck_assert_int_eq(sh("%s", fuzz_campaign), 0);
	ck_assert_int_eq(sh("%s report -q $T/c 2>/dev/null", cli_bin()), 0);
	m = slurp(at("c/summary.md"), NULL);
	/* The script's table: xfer's rate n/a (afl-fuzz said inf, its run
	 * is under a second), host's its execs over its seconds; api never
	 * ran. Crashes count the seed; the slow hang is not a hang. */
	has(m, "\n| target | seconds | execs | execs/s | corpus | coverage | "
	    "crashes | hangs | slow |\n");
	has(m, "\n| xfer | 0 | 1234 | n/a | 7 | 12.34% | 2 | 1 | 1 |\n");
	has(m, "\n| host | 20 | 30001 | 1500 | 9 | 5.50% | 0 | 0 | 0 |\n");
	has(m, "\n| api | - | - | n/a | - | - | 0 | 0 | 0 |\n");
	has(m, "- fuzz (tools/fuzz.sh): started 20261125-101010; 20 s per target\n"
	    "- afl-fuzz ++4.04c, seed 7\n"
	    "- bug switches (DMAFUZZ_BUGS): shared-handle\n"
	    "- result: **3 finding(s)**\n"
	    "- 1 campaign(s) failed to run: see `work/*.log`\n"
	    "  - api: afl-fuzz failed (exit 1), log work/api.log\n");
	/* By class, the most frequent first, the smallest input first. */
	has(m, "### xfer\n\n- **handle.reuse**: 2 input(s), 1 found by "
	    "afl-fuzz, 1 seed(s); smallest:\n  - `findings/xfer/crash-S-000001` "
	    "(3 bytes; report `findings/xfer/crash-S-000001.txt`, plan "
	    "`findings/xfer/crash-S-000001.plan`)\n  - "
	    "`findings/xfer/seed-S-a.bin` (5 bytes; report "
	    "`findings/xfer/seed-S-a.bin.txt`)\n- **hang**: 1 input(s)");
	has(m, "\nReplay: `build/fuzz/replay/xfer FILE` or `build/dmafuzz run "
	    "--family xfer FILE`");
	has(m, "- `build/fuzz/seeds/api/regress-null-arg.bin` "
	    "(`corpus/regress/null-arg.plan`): crash: SIGSEGV at address 0x0\n");
	/* Never afl-fuzz's "inf" (nor awk's 2147483647 for it). */
	ck_assert_ptr_null(strstr(m, "inf |"));
	ck_assert_ptr_null(strstr(m, "2147483647"));
	free(m);
	/* The HTML report and the SARIF log say the same of the run. */
	m = slurp(at("c/index.html"), NULL);
	has(m, "<section id=\"run\"><h2>Run</h2>\n<dl><dt>script</dt><dd>fuzz "
	    "(tools/fuzz.sh)</dd><dt>started</dt><dd>20261125-101010</dd>"
	    "<dt>fuzzing</dt><dd>20 s per target</dd><dt>afl-fuzz</dt>"
	    "<dd>++4.04c, seed 7</dd><dt>bug switches</dt><dd>shared-handle"
	    "</dd><dt>result</dt><dd>3 finding(s)</dd><dt>failed to run</dt>"
	    "<dd>1 campaign(s), see work/*.log</dd><dt>failure</dt><dd>api: "
	    "afl-fuzz failed (exit 1), log work/api.log</dd></dl></section>");
	free(m);
	m = slurp(at("c/findings.sarif"), NULL);
	has(m, "\"run\": {\n");
	has(m, "\"aflVersion\": \"++4.04c\"");
	has(m, "\"bugs\": \"shared-handle\"");
	has(m, "\"found\": 3");
	free(m);
}
END_TEST

START_TEST(test_fuzz_record_json)
{
	struct dfz_json *j;
	bool b;

	ck_assert_int_eq(sh("%s", fuzz_campaign), 0);
	ck_assert_int_eq(sh("%s report -q $T/c 2>/dev/null", cli_bin()), 0);
	j = parse(at("c/summary.json"));
	/* instances: host/default, then xfer/default. */
	ck_assert_double_eq(num(j, "instances.0.execs_per_sec"), 1500);
	ck_assert(is_null(j, "instances.1.execs_per_sec"));
	ck_assert(dfz_json_bool(get(j, "instances.1.cmplog"), &b) && b);
	ck_assert_str_eq(dfz_json_str(get(j, "run.kind")), "fuzz");
	ck_assert_str_eq(dfz_json_str(get(j, "run.bugs")), "shared-handle");
	ck_assert_double_eq(num(j, "run.seconds"), 20);
	ck_assert_double_eq(num(j, "run.found"), 3);
	ck_assert_double_eq(num(j, "run.failed"), 1);
	ck_assert_str_eq(dfz_json_str(get(j, "run.failures.0")),
			 "api: afl-fuzz failed (exit 1), log work/api.log");
	ck_assert_str_eq(dfz_json_str(get(j, "run.targets.0.target")), "xfer");
	ck_assert(is_null(j, "run.targets.0.execs_per_sec"));
	ck_assert_double_eq(num(j, "run.targets.0.crashes"), 2);
	ck_assert_double_eq(num(j, "run.targets.0.hangs"), 1);
	ck_assert_double_eq(num(j, "run.targets.0.slow"), 1);
	ck_assert_uint_eq(dfz_json_len(get(j, "run.targets.0.findings")), 4);
	/* By class, then size: the crash (3 bytes) before the seed (5). */
	ck_assert_str_eq(dfz_json_str(get(j, "run.targets.0.findings.0.file")),
			 "findings/xfer/crash-S-000001");
	ck_assert_str_eq(dfz_json_str(get(j, "run.targets.0.findings.0.kind")),
			 "crash");
	ck_assert_double_eq(num(j, "run.targets.0.findings.0.bytes"), 3);
	ck_assert_str_eq(dfz_json_str(get(j, "run.targets.0.findings.0.plan")),
			 "findings/xfer/crash-S-000001.plan");
	ck_assert(dfz_json_bool(get(j, "run.targets.0.findings.1.seed"), &b) && b);
	ck_assert(dfz_json_bool(get(j, "run.targets.0.findings.0.seed"), &b) && !b);
	ck_assert_str_eq(dfz_json_str(get(j, "run.targets.0.findings.2.kind")),
			 "hang");
	ck_assert(is_null(j, "run.targets.0.findings.2.plan"));
	ck_assert_str_eq(dfz_json_str(get(j, "run.targets.0.findings.3.kind")),
			 "slow");
	ck_assert_double_eq(num(j, "run.targets.1.execs_per_sec"), 1500);
	ck_assert_uint_eq(dfz_json_len(get(j, "run.targets.2.findings")), 0);
	ck_assert_str_eq(dfz_json_str(get(j, "run.seed_findings.0.plan")),
			 "corpus/regress/null-arg.plan");
	dfz_json_free(j);
}
END_TEST

/* A night: resumed, interrupted, two instances, afl-cmin's counts. */
START_TEST(test_night_record)
{
	char *m;

	ck_assert_int_eq(sh("mkdir -p $T/n/xfer/main $T/n/xfer/s1 && cd $T/n && "
			    "printf '%%s\\n' 'run_time : 10' 'execs_done : 1000' "
			    "'corpus_count : 40' 'bitmap_cvg : 3.00%%' "
			    "'command_line : afl-fuzz -M main -c cm/xfer -p explore -s 2' "
			    "> xfer/main/fuzzer_stats && "
			    "printf '%%s\\n' 'run_time : 10' 'execs_done : 501' "
			    "'execs_per_sec : inf' 'corpus_count : 38' "
			    "'command_line : afl-fuzz -S s1 -p coe -s 3' "
			    "> xfer/s1/fuzzer_stats && "
			    "printf '%%s\\n' 'kind : nightly' 'night : N1' 'run : 2' "
			    "'jobs : 2' 'seconds : 10' 'interrupted : yes' "
			    "'targets : xfer' 'cmin.xfer : 78 12' 'corpus : kept' "
			    "'bugs : ' > campaign.txt"), 0);
	ck_assert_int_eq(sh("%s report -q $T/n 2>/dev/null", cli_bin()), 0);
	m = slurp(at("n/summary.md"), NULL);
	has(m, "- nightly (tools/nightly.sh): night N1, run 2 (resumed)");
	has(m, "- **interrupted**: resume with `NIGHT=N1`\n");
	has(m, "- result: no crash, no hang\n");
	/* execs/s: 100 + 50 (501 over 10 s, not afl-fuzz's inf). */
	has(m, "\n| xfer | 2 | 1501 | 150 | 40 | 3.00% | 78 → 12 | 0 | 0 | 0 |\n");
	has(m, "\n| xfer | main | explore | yes | 10 | 1000 | 100 | 40 | 3.00% |\n");
	has(m, "\n| xfer | s1 | coe | no | 10 | 501 | 50 | 38 | - |\n");
	has(m, "minimized corpus kept in `kept/`");
	free(m);
}
END_TEST

/* --progress: a line per target, from the files and fuzzer_stats. xfer's
 * fuzzer_stats has not run a second (inf): its execs come from the
 * newest file name, "~"; a resumed instance's crashes.DATE count. */
START_TEST(test_progress)
{
	char *p;

	ck_assert_int_eq(sh("%s", fuzz_campaign), 0);
	ck_assert_int_eq(sh("%s report --progress $T/c > $T/p1 2>&1", cli_bin()), 0);
	p = slurp(at("p1"), NULL);
	ck_assert_str_eq(p, "xfer: corpus 0     crashes 0   hangs 0   execs -\n"
			 "host: corpus 0     crashes 0   hangs 0   execs 30001 "
			 "(1500/s) at 20s\n");
	free(p);
	ck_assert_int_eq(sh("cd $T/c/xfer/default && mkdir queue hangs "
			    "crashes.2026-11-25-10:00:00 && "
			    ": > 'queue/id:000000,time:0,execs:0,orig:a' && "
			    ": > 'queue/id:000001,src:000000,time:2500,execs:700,op:havoc' && "
			    ": > 'crashes.2026-11-25-10:00:00/id:000000,sig:06,src:000001,"
			    "time:3000,execs:900,op:havoc' && "
			    ": > 'hangs/id:000000,src:000001,time:1200,execs:400,op:havoc'"), 0);
	ck_assert_int_eq(sh("%s report --progress $T/c/xfer > $T/p2 2>&1", cli_bin()), 0);
	p = slurp(at("p2"), NULL);
	ck_assert_str_eq(p, "xfer: corpus 2     crashes 1   hangs 1   execs ~900 "
			 "(~300/s) at ~3s\n");
	free(p);
	/* No such campaign: exit 2, one line on stderr, nothing else. */
	ck_assert_int_eq(sh("%s report --progress $T/none > $T/p3 2> $T/e3",
			    cli_bin()), 2);
	p = slurp(at("p3"), NULL);
	ck_assert_str_eq(p, "");
	free(p);
}
END_TEST

/* Sabotage: the same campaign without its record says none of it. */
START_TEST(test_no_record)
{
	struct dfz_json *j;
	char *m;

	ck_assert_int_eq(sh("%s && rm $T/c/campaign.txt", fuzz_campaign), 0);
	ck_assert_int_eq(sh("%s report -q $T/c 2>/dev/null", cli_bin()), 0);
	m = slurp(at("c/summary.md"), NULL);
	ck_assert_ptr_null(strstr(m, "## Run"));
	ck_assert_ptr_null(strstr(m, "| target | seconds |"));
	ck_assert_ptr_null(strstr(m, "bug switches"));
	/* The instance table still has the rates, n/a for xfer's inf. */
	has(m, "| xfer | xfer/default | 0 s | 1234 | n/a |");
	j = parse(at("c/summary.json"));
	ck_assert(is_null(j, "run"));
	dfz_json_free(j);
	free(m);
}
END_TEST

Suite *suite_report_run(void)
{
	Suite *s = suite_create("report_run");
	TCase *tc = tcase_create("record");

	tcase_set_timeout(tc, 60);
	scratch_add(tc);
	tcase_add_test(tc, test_fuzz_record_md);
	tcase_add_test(tc, test_fuzz_record_json);
	tcase_add_test(tc, test_night_record);
	tcase_add_test(tc, test_no_record);
	tcase_add_test(tc, test_progress);
	suite_add_tcase(s, tc);
	return s;
}
