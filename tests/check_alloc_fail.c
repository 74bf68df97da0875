// SPDX-License-Identifier: MIT
/*
 * Allocation fault injection (alloc_fail.h, SQLite's countdown): each
 * operation runs once with the countdown counting its K allocations,
 * then 2K times more: with allocation N = 1..K failing alone, and with
 * every allocation from the Nth on failing (its error path then runs out
 * of memory as well, as SQLite's persistent mode). Every one of those
 * runs must end in a clean error (DFZ_ENOMEM, or for a plan run the
 * REJECTED verdict that says "out of memory"), never in a crash or a
 * success (but for a realloc() that only shrinks a block: keeping the old
 * one is correct), and leave no block allocated. The operations: a plan run
 * (load, executor create, run, destroy) of an xfer, a host and an api
 * plan; a triage of a small campaign in process, and one with --exec
 * (child processes allocate outside the countdown), and a drop-in triage
 * (triage --dropin over a previous triage.json, with an ASan build); a
 * report of the report tests' campaign, one of a fuzz script's campaign,
 * and one of the drop-in triage with its source lines. Each
 * prints K and its distinct allocation sites to stderr. Runs $DFZ_CLI to
 * encode the triage's inputs and $DFZ_BROKEN (both set by `make check`).
 */
#define _GNU_SOURCE
#include <assert.h>
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmafuzz/emit.h"
#include "dmafuzz/harness.h"
#include "dmafuzz/report.h"
#include "dmafuzz/triage.h"

#include "alloc_fail.h"
#include "cli_run.h"
#include "fuzz_campaign.h"
#include "scratch.h"

#define SHOWN_FAILURES 12             /* failing N listed, at most */

/* One operation under the countdown. */
struct op {
	const char *name;
	void (*prepare)(void);        /* before each run, outside the count */
	/* 0 on success; a negative DFZ_E* code; else (1) a wrong outcome,
	 * @why says what. */
	int (*run)(const void *arg, char *why, size_t len);
	const void *arg;
	bool says_why;                /* its errors come with a message */
};

/* The outcome of run N of @o (@persist: every allocation from the Nth
 * on fails), described into @why when it is wrong. */
static bool injected_ok(const struct op *o, unsigned long n, bool persist,
			char *why, size_t len)
{
	struct alloc_fail_stats st;
	char site[256], left[256], what[512] = "";
	int rc;

	if (o->prepare)
		o->prepare();
	alloc_fail_arm(n, persist);
	rc = o->run(o->arg, what, sizeof(what));
	alloc_fail_disarm(&st);
	alloc_fail_site_name(st.failed_site, site, sizeof(site));
	if (persist)
		strcat(site, " and after");
	if (!st.failed)
		snprintf(why, len, "N=%lu never reached (%lu calls)", n, st.calls);
	else if (rc > 0)
		snprintf(why, len, "N=%lu at %s: %s", n, site, what);
	else if (rc == 0 && !st.failed_shrink)
		snprintf(why, len, "N=%lu at %s: success", n, site);
	else if (rc < 0 && rc != DFZ_ENOMEM)
		snprintf(why, len, "N=%lu at %s: %s, not out of memory", n,
			 site, dfz_strerror(rc));
	else if (rc < 0 && o->says_why && !what[0])
		snprintf(why, len, "N=%lu at %s: out of memory, no message", n,
			 site);
	else if (st.live)
		snprintf(why, len, "N=%lu at %s: %lu block(s) left allocated, "
			 "one from %s", n, site, st.live, alloc_fail_site_name(
			 alloc_fail_live_site(), left, sizeof(left)));
	else
		return true;
	return false;
}

/* With $ALLOC_FAIL_SITES set, the sites of @o's count run, one a line
 * ("op binary+0xOFFSET", for addr2line), appended to that file. */
static void list_sites(const struct op *o, unsigned nsites)
{
	const char *path = getenv("ALLOC_FAIL_SITES");
	char site[256];
	FILE *f;

	if (!path || !*path || !(f = fopen(path, "a")))
		return;
	for (unsigned i = 0; i < nsites; i++)
		fprintf(f, "%s %s\n", o->name, alloc_fail_site_name(
			alloc_fail_site(i), site, sizeof(site)));
	fclose(f);
}

/*
 * Count @o's allocations, then fail each in turn, alone and from it on.
 * Under valgrind (tools/memcheck.sh sets DFZ_MEMCHECK), where a run costs
 * some 30 times more, only alone: the wrapper's own books have checked
 * the persistent runs for leaks natively.
 */
static void walk(const struct op *o)
{
	const unsigned long modes = getenv("DFZ_MEMCHECK") ? 1 : 2;
	struct alloc_fail_stats clean;
	char what[512] = "", why[768];
	unsigned long bad = 0, runs;
	int rc;

	/* Once unarmed: the tables a process makes once and keeps (the
	 * arenas' fill templates, runtime/mem_arena.c) are made outside the
	 * count, which then is the same in every run. */
	if (o->prepare)
		o->prepare();
	rc = o->run(o->arg, what, sizeof(what));
	ck_assert_msg(rc == 0, "%s: %d %s", o->name, rc, what);
	if (o->prepare)
		o->prepare();
	alloc_fail_arm(0, false);
	rc = o->run(o->arg, what, sizeof(what));
	alloc_fail_disarm(&clean);
	ck_assert_msg(rc == 0, "%s without failures: %d %s", o->name, rc, what);
	ck_assert_msg(clean.live == 0, "%s without failures: %lu block(s) left, "
		      "one from %s", o->name, clean.live, alloc_fail_site_name(
		      alloc_fail_live_site(), what, sizeof(what)));
	ck_assert_msg(clean.calls > 0, "%s: no allocation counted", o->name);
	list_sites(o, clean.nsites);
	runs = modes * clean.calls;
	for (unsigned long k = 0; k < runs; k++) {
		if (injected_ok(o, k / modes + 1, k % modes, why, sizeof(why)))
			continue;
		if (++bad <= SHOWN_FAILURES)
			fprintf(stderr, "alloc_fail: %s: %s\n", o->name, why);
	}
	fprintf(stderr, "alloc_fail: %s: %lu allocations from %u distinct sites;"
		" %lu of %lu injected failures (each N alone%s) clean\n",
		o->name, clean.calls, clean.nsites, runs - bad, runs,
		modes > 1 ? ", and from N on" : "");
	ck_assert_msg(bad == 0, "%s: %lu of %lu injected failures not clean "
		      "(listed on stderr)", o->name, bad, runs);
}

/* ------------------------------------------------------ the countdown */

static void *volatile kept[3];        /* volatile: no call is optimised out */

/* A malloc(), a calloc() and a strdup() into kept[] under
 * alloc_fail_arm(@n, @persist); which failed, as a mask (bit i: kept[i]). */
static unsigned three_calls(unsigned long n, bool persist,
			    struct alloc_fail_stats *st)
{
	alloc_fail_arm(n, persist);
	kept[0] = malloc(16);
	kept[1] = calloc(2, 8);
	kept[2] = strdup("x");
	alloc_fail_disarm(st);
	ck_assert_uint_eq(st->calls, 3);
	return (kept[0] ? 0u : 1u) | (kept[1] ? 0u : 2u) | (kept[2] ? 0u : 4u);
}

/* The wrapper itself: the Nth call fails and only it (or, persistent,
 * every call from it on), a block left allocated is seen until freed, a
 * shrinking realloc() is told apart. */
START_TEST(test_countdown)
{
	struct alloc_fail_stats st;

	ck_assert_uint_eq(three_calls(2, false, &st), 2);
	ck_assert(st.failed && !st.failed_shrink);
	ck_assert_uint_eq(st.live, 2);
	free(kept[2]);
	ck_assert_uint_eq(alloc_fail_live(), 1);
	free(kept[0]);
	ck_assert_uint_eq(alloc_fail_live(), 0);

	kept[0] = malloc(16);
	alloc_fail_arm(1, false);
	kept[1] = realloc(kept[0], 8);
	alloc_fail_disarm(&st);
	ck_assert(st.failed && st.failed_shrink);
	ck_assert_ptr_null(kept[1]);
	alloc_fail_arm(1, false);
	kept[1] = realloc(kept[0], 4096);
	alloc_fail_disarm(&st);
	ck_assert(st.failed && !st.failed_shrink);
	free(kept[0]);

	ck_assert_uint_eq(three_calls(2, true, &st), 6);  /* 2 and 3 fail */
	ck_assert_uint_eq(st.live, 1);
	free(kept[0]);
}
END_TEST

/* ---------------------------------------------------------- plan runs */

static const char *const plans[] = {
	"corpus/xfer/two-hop-mchan-double.plan",
	"corpus/host/child-out-graph.plan",
	"corpus/api/lifecycle.plan",
};

/* Load, create an executor, run, destroy: the CLI's `run` of one plan. */
static int plan_run(const void *arg, char *why, size_t len)
{
	struct dfz_exec *ex;
	struct dfz_verdict v;
	struct dfz_plan p;
	int rc;

	rc = dfz_plan_load(arg, &p, why, len);
	if (rc < 0)
		return rc;
	rc = dfz_exec_create(DFZ_ORACLES_ALL, &ex);
	if (rc < 0) {
		snprintf(why, len, "dfz_exec_create: %s", dfz_strerror(rc));
		return rc;
	}
	dfz_exec_run(ex, &p, 0, &v);
	dfz_exec_destroy(ex);
	if (v.kind == DFZ_VERDICT_CLEAN)
		return 0;
	if (v.kind == DFZ_VERDICT_REJECTED && strstr(v.reason, "out of memory"))
		return DFZ_ENOMEM;
	snprintf(why, len, "%s verdict: %s", v.kind == DFZ_VERDICT_BUG ?
		 "bug" : "rejected", v.kind == DFZ_VERDICT_BUG ? v.finding.msg :
		 v.reason);
	return 1;
}

/* emit-c --dropin of a two-hop plan (RAM and mchan), to /dev/null. */
static int emit_dropin_run(const void *arg, char *why, size_t len)
{
	struct dfz_emit_config cfg = { .name = arg, .dropin = true };
	struct dfz_plan p;
	FILE *f;
	int rc = dfz_plan_load(arg, &p, why, len);

	if (rc < 0)
		return rc;
	f = fopen("/dev/null", "w");
	if (!f) {
		snprintf(why, len, "cannot open /dev/null");
		return 1;
	}
	rc = dfz_emit_c(&p, &cfg, f);
	fclose(f);
	return rc;
}

START_TEST(test_emit_dropin)
{
	struct op o = { .name = "emit-c --dropin", .run = emit_dropin_run,
			.arg = "corpus/xfer/two-hop-mchan-double.plan" };

	walk(&o);
}
END_TEST

START_TEST(test_plan_run)
{
	struct op o = { .name = plans[_i], .run = plan_run, .arg = plans[_i],
			.says_why = true };

	walk(&o);
}
END_TEST

/* ------------------------------------------------------------- triage */

/* A triage and the summary it must give when it succeeds. */
struct triage_case {
	struct dfz_triage_config cfg;
	struct dfz_triage_summary want;   /* inputs, buckets, malformed, clean */
	char dir[2048];
};

static void fresh_triage_out(void)
{
	ck_assert_int_eq(sh("rm -rf $T/camp/triage"), 0);
}

/* Under valgrind (tools/memcheck.sh sets DFZ_MEMCHECK) the SIGSEGV that
 * null-arg raises in process is a memcheck error of its own: left out. */
static bool with_segv(void)
{
	return !getenv("DFZ_MEMCHECK");
}

static int triage_run(const void *arg, char *why, size_t len)
{
	const struct triage_case *tc = arg;
	const struct dfz_triage_summary *w = &tc->want;
	struct dfz_triage_summary sum;
	int rc = dfz_triage(&tc->cfg, &sum, why, len);

	if (rc < 0)
		return rc;
	if (sum.inputs != w->inputs || sum.buckets != w->buckets ||
	    sum.malformed != w->malformed || sum.clean != w->clean) {
		snprintf(why, len, "success, but %u inputs, %u buckets, %u "
			 "malformed, %u clean", sum.inputs, sum.buckets,
			 sum.malformed, sum.clean);
		return 1;
	}
	return 0;
}

/* Walk the triage of $T/camp, a few minimizer runs per bucket (the
 * count must not depend on the clock). */
static void walk_triage(const char *name, struct triage_case *tc)
{
	struct op o = { .name = name, .prepare = fresh_triage_out,
			.run = triage_run, .arg = tc, .says_why = true };

	tc->cfg.max_runs = 4;
	tc->cfg.max_seconds = 600;
	snprintf(tc->dir, sizeof(tc->dir), "%s", at("camp"));
	tc->cfg.dir = tc->dir;
	walk(&o);
}

/* The bare stream of @plan's fuzz target into $T/camp/@file. */
static void bare(const char *plan, const char *file)
{
	ck_assert_int_eq(sh("%s encode %s | tail -c +2 > $T/camp/%s", cli_bin(),
			    plan, file), 0);
}

/* In process: a bug of the xfer target, a real SIGSEGV of the api target
 * (its fault disassembled, its frames symbolized by a child addr2line;
 * not under valgrind), a clean input, an empty file, a text the parse
 * target rejects and one it round-trips. */
START_TEST(test_triage)
{
	static struct triage_case tc;

	ck_assert_int_eq(sh("mkdir -p $T/camp/xfer/default/crashes "
			    "$T/camp/api/default/crashes "
			    "$T/camp/parse/default/crashes"), 0);
	bare("corpus/regress/shared-handle.plan", "xfer/default/crashes/id:0,sig:06");
	bare("corpus/xfer/rank1-contig.plan", "xfer/default/crashes/id:1,sig:06");
	if (with_segv())
		bare("corpus/regress/null-arg.plan", "api/default/crashes/id:0,sig:11");
	ck_assert_int_eq(sh(": > $T/camp/xfer/default/crashes/id:2,sig:06 && "
			    "cp tests/data/bad-rank.plan "
			    "$T/camp/parse/default/crashes/id:0 && "
			    "cp corpus/xfer/rank1-contig.plan "
			    "$T/camp/parse/default/crashes/id:1"), 0);
	ck_assert_int_eq(dfz_bugs_parse("shared-handle,null-arg", &tc.cfg.bugs), 0);
	tc.want = (struct dfz_triage_summary){ .inputs = 5u + with_segv(),
		.buckets = 1u + with_segv(), .malformed = 2, .clean = 2 };
	walk_triage("triage", &tc);
}
END_TEST

/* With --exec: the broken test program ($DFZ_BROKEN, set by `make
 * check`) run on each input in a child; a write fault, a read fault and
 * a clean input. */
START_TEST(test_triage_exec)
{
	static struct triage_case tc;

	tc.cfg.exec = getenv("DFZ_BROKEN");
	ck_assert_msg(tc.cfg.exec && *tc.cfg.exec, "DFZ_BROKEN is not set "
		      "(run through make check)");
	ck_assert_int_eq(sh("mkdir -p $T/camp/crashes && printf Wxyz > "
			    "$T/camp/crashes/w1 && printf Rxyz > "
			    "$T/camp/crashes/r1 && printf clean > "
			    "$T/camp/crashes/c1"), 0);
	tc.want = (struct dfz_triage_summary){ .inputs = 3, .buckets = 2,
					      .clean = 1 };
	walk_triage("triage --exec", &tc);
}
END_TEST

/* A stand-in drop-in binary (tests/check_triage_dropin.c has the C one):
 * 'X' a mem.oob at t.c:5 (only from 10 bytes on, but for prev.sh), 'W'
 * a dma.hang at w.c:1 (prev.sh only: fixed since), 'Y' a dma.race. */
static const char dropin_sh[] =
	"#!/bin/sh\n[ \"$1\" = --json ] && shift\nn=$(wc -c < \"$1\")\n"
	"case $0 in *prev.sh) old=1 ;; *) old=0 ;; esac\n"
	"v() { echo \"{\\\"verdict\\\":\\\"bug\\\",\\\"class\\\":"
	"\\\"$1\\\",\\\"message\\\":\\\"m\\\",\\\"site\\\":"
	"{\\\"file\\\":\\\"$2\\\",\\\"line\\\":$3,"
	"\\\"function\\\":\\\"f\\\"},\\\"prior\\\":null}\"; "
	"exit 1; }\n"
	"if grep -q X \"$1\" && { [ $old = 1 ] || [ $n -ge 10 ]; }; then "
	"v mem.oob t.c 5; fi\n"
	"if grep -q W \"$1\" && [ $old = 1 ]; then v dma.hang w.c 1; fi\n"
	"if grep -q Y \"$1\"; then v dma.race u.c 2; fi\n"
	"echo '{\"verdict\":\"clean\"}'\n";

static void fresh_dropin_out(void)
{
	ck_assert_int_eq(sh("rm -rf $T/camp/triage && "
			    "cp -r $T/prev $T/camp/triage"), 0);
}

/* The campaign, its previous triage (by prev.sh) in $T/prev. */
static void dropin_campaign(struct dfz_triage_config *cfg,
			    struct dfz_triage_bin bins[2])
{
	static char dir[2048], out[2048], sh_path[2048], prev[2048];
	struct dfz_triage_summary sum;
	char why[512];
	FILE *f = fopen(at("t.sh"), "w");

	ck_assert_ptr_nonnull(f);
	fputs(dropin_sh, f);
	fclose(f);
	ck_assert_int_eq(sh("cd $T && chmod +x t.sh && cp t.sh prev.sh && "
			    "mkdir -p camp/findings/alpha src && "
			    "printf aaaaXbbbbbbbbbb > camp/findings/alpha/id1 && "
			    "printf ccXcc > camp/findings/alpha/id2 && "
			    "printf zzYzz > camp/findings/alpha/id3 && "
			    "printf wwWww > camp/findings/alpha/id4 && "
			    "printf '1\n2\n3\n4\n5 <x>\n' > src/t.c"), 0);
	snprintf(dir, sizeof(dir), "%s", at("camp/findings"));
	snprintf(out, sizeof(out), "%s", at("camp/triage"));
	snprintf(sh_path, sizeof(sh_path), "%s", at("t.sh"));
	snprintf(prev, sizeof(prev), "%s", at("prev.sh"));
	bins[0] = (struct dfz_triage_bin){ "alpha", prev };
	*cfg = (struct dfz_triage_config){
		.dir = dir, .out = out, .dropin = bins, .ndropin = 1,
		.asan = &bins[1], .nasan = 1, .max_runs = 4,
		.max_seconds = 600, .srcroot = at("src"),
	};
	bins[1] = (struct dfz_triage_bin){ "alpha", prev };
	ck_assert_msg(dfz_triage(cfg, &sum, why, sizeof(why)) == 0, "%s", why);
	ck_assert_int_eq(sh("mv $T/camp/triage $T/prev"), 0);
	bins[0].bin = bins[1].bin = sh_path;
}

/* Over the previous triage: an input fixed under the open mem.oob bucket
 * (id2), a fixed bucket (dma.hang), the dma.race bucket open. */
START_TEST(test_triage_dropin)
{
	static struct triage_case tc;
	static struct dfz_triage_bin bins[2];
	struct op o = { .name = "triage --dropin", .prepare = fresh_dropin_out,
			.run = triage_run, .arg = &tc, .says_why = true };

	dropin_campaign(&tc.cfg, bins);
	tc.want = (struct dfz_triage_summary){ .inputs = 4, .buckets = 3,
					      .clean = 2 };
	walk(&o);
}
END_TEST

/* ------------------------------------------------------------- report */

static void fresh_report_out(void)
{
	ck_assert_int_eq(sh("rm -rf $T/report"), 0);
}

static int report_run(const void *arg, char *why, size_t len)
{
	enum dfz_report_stage stage;
	int rc = dfz_report_write(arg, &stage, why, len);

	if (rc == 0 && stage != DFZ_REPORT_OK) {
		snprintf(why, len, "success, but stage %d", (int)stage);
		return 1;
	}
	return rc;
}

/* Walk the report of @dir into $T/report (@srcroot: a drop-in
 * triage's sources, or NULL). */
static void walk_report(const char *name, const char *dir,
			const char *srcroot)
{
	static char out[2048];
	struct dfz_report_config cfg = { .dir = dir, .out = out,
					 .srcroot = srcroot };
	struct op o = { .name = name, .prepare = fresh_report_out,
			.run = report_run, .arg = &cfg, .says_why = true };

	snprintf(out, sizeof(out), "%s", at("report"));
	walk(&o);
}

/* The report tests' campaign (two AFL++ instances and a triage.json). */
START_TEST(test_report)
{
	walk_report("report", "tests/data/report/campaign", NULL);
}
END_TEST

/* A campaign of the fuzz script: its run record, class list and seed
 * findings (reports/report_run.c), no triage. */
START_TEST(test_report_record)
{
	static char dir[2048];

	ck_assert_int_eq(sh("%s", fuzz_campaign), 0);
	snprintf(dir, sizeof(dir), "%s", at("c"));
	walk_report("report of a fuzz run", dir, NULL);
}
END_TEST

/* The report of a drop-in triage: its table and source lines (t.c read,
 * u.c and w.c missing), its SARIF at the users' sites. */
START_TEST(test_report_dropin)
{
	static struct dfz_triage_bin bins[2];
	static char dir[2048], src[2048];
	struct dfz_triage_config cfg;
	struct dfz_triage_summary sum;
	char why[512];

	dropin_campaign(&cfg, bins);
	fresh_dropin_out();
	ck_assert_msg(dfz_triage(&cfg, &sum, why, sizeof(why)) == 0, "%s", why);
	snprintf(dir, sizeof(dir), "%s", at("camp"));
	snprintf(src, sizeof(src), "%s", at("src"));
	walk_report("report of a drop-in triage", dir, src);
}
END_TEST

Suite *suite_alloc_fail(void)
{
	Suite *s = suite_create("alloc_fail");
	TCase *tc = tcase_create("countdown");

	static_assert(sizeof(plans) / sizeof(plans[0]) == 3,
		      "an xfer, a host and an api plan");
	tcase_add_test(tc, test_countdown);
	tcase_add_loop_test(tc, test_plan_run, 0, 3);
	tcase_add_test(tc, test_emit_dropin);
	tcase_add_test(tc, test_triage);
	tcase_add_test(tc, test_triage_exec);
	tcase_add_test(tc, test_triage_dropin);
	tcase_add_test(tc, test_report);
	tcase_add_test(tc, test_report_record);
	tcase_add_test(tc, test_report_dropin);
	tcase_set_timeout(tc, 600);
	scratch_add(tc);
	suite_add_tcase(s, tc);
	return s;
}
