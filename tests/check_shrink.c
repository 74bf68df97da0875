// SPDX-License-Identifier: MIT
/*
 * The minimizer and finding signatures (reports/shrink/): the draw-recording hook
 * of the choice reader covers a stream exactly; signatures keep class,
 * oracle, level and signal and nothing that moves; the shrinker keeps each
 * switch's bug (same signature when re-run on its own, clean without the
 * switch), never grows the stream, is deterministic, and says when an
 * input does not reproduce. `dmafuzz min` end to end: the same file twice
 * gives the same bytes, and exit 4 for an input that runs clean.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "check_fast.h"
#include "cli_run.h"
#include "dmafuzz/shrink.h"
#include "exec_fixture.h"
#include "scratch.h"
#include "plan_int.h"

/* The bare stream of corpus/regress/<switch>.plan, and its family. */
static void regress_stream(unsigned bug, uint8_t **buf, size_t *n,
			   unsigned *family)
{
	char path[256], err[300];
	struct dfz_plan p;

	snprintf(path, sizeof(path), "corpus/regress/%s.plan", dfz_bug_name(bug));
	ck_assert_msg(dfz_plan_load(path, &p, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(dfz_plan_encode_as(&p, buf, n), 0);
	*family = p.family;
}

/* The signature of bare stream @buf of @family run with @bugs. */
static void signature_of(unsigned family, const uint8_t *buf, size_t n,
			 uint32_t bugs, struct dfz_signature *sig)
{
	struct dfz_verdict v;
	struct dfz_plan p;

	dfz_plan_decode_as(family, buf, n, &p);
	dfz_exec_run(ex, &p, bugs, &v);
	dfz_signature_of(&v, sig);
}

/*
 * A switch whose bug is a real fault (null-arg) faults inside this
 * process: under valgrind (tools/memcheck.sh sets DFZ_MEMCHECK) that is
 * a memcheck error of its own, so there it stays off (check_regress.c
 * does the same; memcheck.sh replays it through the CLI).
 */
static bool faults_under_memcheck(unsigned bug)
{
	return bug == DFZ_BUG_NULL_ARG && getenv("DFZ_MEMCHECK");
}

static bool shortlex_le(const uint8_t *a, size_t na, const uint8_t *b,
			size_t nb)
{
	return na < nb || (na == nb && (na == 0 || memcmp(a, b, na) <= 0));
}

/* ------------------------------------------------------- the draw hook */

/* Spans are contiguous from byte 0, 1..4 bytes each, and the bytes after
 * the last one are never read: cutting them off decodes the same plan. */
START_TEST(test_spans_cover_stream)
{
	struct dfz_choice_span span[1024];
	struct dfz_gen g;
	uint8_t buf[600];
	unsigned runs = memcheck_count(3000, 10);

	dfz_gen_init(&g, 11);
	for (unsigned i = 0; i < runs; i++) {
		unsigned fam = i % DFZ_FAMILY_COUNT, k;
		size_t n = 1 + i % sizeof(buf), at = 0;
		struct dfz_plan a, b;

		dfz_gen_bytes(&g, buf, n);
		k = dfz_plan_spans(fam, buf, n, span, 1024);
		CK_CHECK_UINT(k, <=, 1024);
		for (unsigned j = 0; j < k; j++) {
			CK_CHECK_UINT(span[j].off, ==, at);
			CK_CHECK(span[j].len >= 1 && span[j].len <= 4);
			at += span[j].len;
		}
		CK_CHECK_UINT(at, <=, n);
		dfz_plan_decode_as(fam, buf, n, &a);
		dfz_plan_decode_as(fam, buf, at, &b);
		CK_CHECK_MSG(dfz__plan_same(&a, &b), "plan %u: the bytes after "
			     "the last draw changed the plan", i);
	}
}
END_TEST

/* ------------------------------------------------------- signatures */

START_TEST(test_signature_fields)
{
	struct dfz_verdict v = { .kind = DFZ_VERDICT_BUG };
	struct dfz_signature a, b;
	char text[DFZ_SIG_TEXT];

	v.finding.cls = DFZ_CLASS_HANDLE_REUSE;
	snprintf(v.finding.oracle, sizeof(v.finding.oracle), "handle");
	snprintf(v.finding.msg, sizeof(v.finding.msg), "request L2+0x230 ...");
	v.finding.ev = (struct dfz_evidence){ NULL, 2, 1, -1, DFZ_L2, 560, -1, -1 };
	dfz_signature_of(&v, &a);
	ck_assert_str_eq(dfz_signature_format(&a, text, sizeof(text)),
			 "handle.reuse/handle@L2");
	/* What moves while shrinking does not change the signature... */
	v.finding.ev.step = 40, v.finding.ev.xfer = 9, v.finding.ev.off = 16;
	snprintf(v.finding.msg, sizeof(v.finding.msg), "request L2+0x10 ...");
	dfz_signature_of(&v, &b);
	ck_assert(dfz_signature_equal(&a, &b));
	/* ...the level, the oracle and the class do. */
	v.finding.ev.level = DFZ_L1;
	dfz_signature_of(&v, &b);
	ck_assert(!dfz_signature_equal(&a, &b));
	v.finding.ev.level = DFZ_L2;
	snprintf(v.finding.oracle, sizeof(v.finding.oracle), "tid");
	dfz_signature_of(&v, &b);
	ck_assert(!dfz_signature_equal(&a, &b));
	/* A caught signal is part of a crash's signature. */
	v.finding.cls = DFZ_CLASS_CRASH;
	v.finding.ev.level = -1;
	snprintf(v.finding.oracle, sizeof(v.finding.oracle), "signal");
	snprintf(v.finding.msg, sizeof(v.finding.msg), "SIGSEGV at address 0x8");
	dfz_signature_of(&v, &a);
	ck_assert_str_eq(dfz_signature_format(&a, text, sizeof(text)),
			 "crash/signal:SIGSEGV");
	snprintf(v.finding.msg, sizeof(v.finding.msg), "SIGFPE at address 0x8");
	dfz_signature_of(&v, &b);
	ck_assert(!dfz_signature_equal(&a, &b));
	v.kind = DFZ_VERDICT_CLEAN;
	dfz_signature_of(&v, &a);
	ck_assert_uint_eq(a.cls, DFZ_CLASS_NONE);
	ck_assert_str_eq(dfz_signature_format(&a, text, sizeof(text)), "none");
}
END_TEST

/* ------------------------------------------------------- the shrinker */

/*
 * Each switch's reproducer, minimized: the result re-run on its own has
 * the input's signature, runs clean without the switch, and is no larger
 * (shortlex) than the input. Minimizing twice gives the same bytes and
 * the same work. A run budget keeps the heavy plans (a 2^17-byte mchan
 * transfer) quick; the budget is counted in runs, so it is deterministic.
 */
START_TEST(test_min_keeps_bug)
{
	struct dfz_min_config cfg = { .bugs = 1u << _i };
	struct dfz_min_result r1, r2;
	struct dfz_signature in, out;
	uint8_t *buf;
	size_t n;

	/* mchan-push-latest has no plan reproducer: no tiling walk exposes
	 * it (check_mchan_groups.c shows it on the adapter). */
	if (faults_under_memcheck((unsigned)_i) ||
	    _i == DFZ_BUG_MCHAN_PUSH_LATEST)
		return;
	cfg.max_runs = memcheck_count(150, 15);
	regress_stream((unsigned)_i, &buf, &n, &cfg.family);
	signature_of(cfg.family, buf, n, cfg.bugs, &in);
	ck_assert_uint_ne(in.cls, DFZ_CLASS_NONE);
	ck_assert_int_eq(dfz_minimize(ex, &cfg, buf, n, &r1), 0);
	ck_assert(dfz_signature_equal(&r1.sig, &in));
	signature_of(cfg.family, r1.buf, r1.n, cfg.bugs, &out);
	ck_assert_msg(dfz_signature_equal(&out, &in), "%s: the result lost the bug",
		      dfz_bug_name(_i));
	signature_of(cfg.family, r1.buf, r1.n, 0, &out);
	ck_assert_uint_eq(out.cls, DFZ_CLASS_NONE);
	ck_assert(shortlex_le(r1.buf, r1.n, buf, n));
	ck_assert_uint_le(r1.runs, cfg.max_runs);
	ck_assert_int_eq(dfz_minimize(ex, &cfg, buf, n, &r2), 0);
	ck_assert_uint_eq(r1.n, r2.n);
	ck_assert_mem_eq(r1.buf, r2.buf, r1.n);
	ck_assert_uint_eq(r1.runs, r2.runs);
	ck_assert_uint_eq(r1.accepted, r2.accepted);
	dfz_min_result_fini(&r1);
	dfz_min_result_fini(&r2);
	free(buf);
}
END_TEST

/*
 * Sabotage: a shrinker that kept any candidate would end at the empty
 * stream, which runs clean under the switch; the real one must not. The
 * shared-handle reproducer shrinks to a fixpoint strictly smaller than
 * the input, non-empty, with the bug.
 */
START_TEST(test_min_rejects_lost_bug)
{
	struct dfz_min_config cfg = { .bugs = 1u << DFZ_BUG_SHARED_HANDLE };
	struct dfz_signature sig;
	struct dfz_min_result r;
	uint8_t *buf;
	size_t n;

	regress_stream(DFZ_BUG_SHARED_HANDLE, &buf, &n, &cfg.family);
	signature_of(cfg.family, NULL, 0, cfg.bugs, &sig);
	ck_assert_uint_eq(sig.cls, DFZ_CLASS_NONE); /* the sabotage's end */
	ck_assert_int_eq(dfz_minimize(ex, &cfg, buf, n, &r), 0);
	ck_assert_uint_eq(r.stop, DFZ_MIN_FIXPOINT);
	ck_assert_uint_gt(r.n, 0);
	ck_assert_uint_lt(r.n, n);
	ck_assert_uint_gt(r.accepted, 0);
	signature_of(cfg.family, r.buf, r.n, cfg.bugs, &sig);
	ck_assert(dfz_signature_equal(&sig, &r.sig));
	dfz_min_result_fini(&r);
	free(buf);
}
END_TEST

/* Random streams that trip some switch (all on): minimized within a small
 * budget, each keeps its signature and never grows (shortlex). */
START_TEST(test_min_random_bugs)
{
	struct dfz_min_config cfg = { .bugs = (1u << DFZ_BUG_COUNT) - 1,
				      .max_runs = 40 };
	unsigned tries = memcheck_count(200, 20), found = 0;
	struct dfz_gen g;
	uint8_t buf[160];

	if (faults_under_memcheck(DFZ_BUG_NULL_ARG))
		cfg.bugs &= ~(1u << DFZ_BUG_NULL_ARG);
	dfz_gen_init(&g, 5);
	for (unsigned i = 0; i < tries; i++) {
		struct dfz_signature in, out;
		struct dfz_min_result r;

		cfg.family = i % DFZ_FAMILY_COUNT;
		dfz_gen_bytes(&g, buf, sizeof(buf));
		signature_of(cfg.family, buf, sizeof(buf), cfg.bugs, &in);
		if (in.cls == DFZ_CLASS_NONE)
			continue;
		found++;
		CK_CHECK_INT(dfz_minimize(ex, &cfg, buf, sizeof(buf), &r), ==, 0);
		CK_CHECK(shortlex_le(r.buf, r.n, buf, sizeof(buf)));
		signature_of(cfg.family, r.buf, r.n, cfg.bugs, &out);
		CK_CHECK(dfz_signature_equal(&out, &in));
		dfz_min_result_fini(&r);
	}
	ck_assert_uint_gt(found, 0);
}
END_TEST

/*
 * An edge-tile crash afl-fuzz found (62 bytes, data.mismatch). Without
 * rewriting a uniform size draw as a boundary size, the shrinker stops at
 * a 28-byte local minimum that draws L2 uniformly as 6288 (a mode byte
 * 0x80 and three value bytes), where every single-byte edit loses the
 * bug; as a boundary size (mode 0 and an index: 8192) it takes two.
 */
START_TEST(test_min_narrows_size)
{
	static const uint8_t in[] = {
		0x01, 0x00, 0x07, 0xf9, 0xfa, 0xff, 0x19, 0xff, 0x02, 0x00,
		0x1b, 0x00, 0x00, 0x80, 0x00, 0x00, 0x06, 0x00, 0x1e, 0x00,
		0x00, 0x00, 0x00, 0x1b, 0x00, 0x03, 0x01, 0x80, 0x00, 0x00,
		0x06, 0x00, 0x1c, 0x00, 0x0f, 0x00, 0x00, 0x1b, 0x00, 0x00,
		0x03, 0x01, 0x80, 0x00, 0x00, 0x06, 0x00, 0x36, 0x00, 0x0f,
		0x00, 0x00, 0x1b, 0x00, 0x00, 0x00, 0x1b, 0x00, 0x00, 0x00,
		0x00, 0x21,
	};
	struct dfz_min_config cfg = { .bugs = 1u << DFZ_BUG_EDGE_TILE };
	struct dfz_signature sig;
	struct dfz_min_result r;
	unsigned cls, stop;
	size_t n;

	signature_of(DFZ_FAMILY_XFER, in, sizeof(in), cfg.bugs, &sig);
	ck_assert_uint_eq(sig.cls, DFZ_CLASS_DATA_MISMATCH);
	cfg.family = DFZ_FAMILY_XFER;
	cfg.max_runs = 2000;          /* a fixpoint comes first: ~100 runs */
	ck_assert_int_eq(dfz_minimize(ex, &cfg, in, sizeof(in), &r), 0);
	n = r.n;
	cls = r.sig.cls;
	stop = r.stop;
	dfz_min_result_fini(&r);     /* before the checks: nothing leaks */
	ck_assert_uint_eq(stop, DFZ_MIN_FIXPOINT);
	ck_assert_uint_eq(cls, DFZ_CLASS_DATA_MISMATCH);
	ck_assert_uint_le(n, 26);
}
END_TEST

/* An input that runs clean is reported as such: no stream, one run. */
START_TEST(test_min_no_repro)
{
	struct dfz_min_config cfg = { .bugs = 1u << DFZ_BUG_SHARED_HANDLE };
	struct dfz_min_result r;
	uint8_t *buf;
	size_t n;
	char err[300];
	struct dfz_plan p;

	ck_assert_int_eq(dfz_plan_load("corpus/xfer/rank2-strided.plan", &p, err,
				       sizeof(err)), 0);
	ck_assert_int_eq(dfz_plan_encode_as(&p, &buf, &n), 0);
	ck_assert_int_eq(dfz_minimize(ex, &cfg, buf, n, &r), DFZ_ENOENT);
	ck_assert_ptr_null(r.buf);
	ck_assert_uint_eq(r.verdict.kind, DFZ_VERDICT_CLEAN);
	ck_assert_uint_eq(r.runs, 1);
	dfz_min_result_fini(&r);
	free(buf);
}
END_TEST

/* ------------------------------------------------------- the CLI */

START_TEST(test_cli_min)
{
	char *a, *b;
	size_t na, nb;

	ck_assert_int_eq(cli_quiet("min --bug db-war -o $T/min-a.plan "
				    "corpus/regress/db-war.plan"), 0);
	ck_assert_int_eq(cli_quiet("min --bug db-war -o $T/min-b.plan "
				    "corpus/regress/db-war.plan"), 0);
	a = slurp(at("min-a.plan"), &na);
	b = slurp(at("min-b.plan"), &nb);
	ck_assert_uint_eq(na, nb);
	ck_assert_mem_eq(a, b, na);
	ck_assert_ptr_nonnull(strstr(a, "# expect: hazard.race\n"));
	/* The written plan reproduces, and is clean without the switch. */
	ck_assert_int_eq(cli_quiet("run --bug db-war $T/min-a.plan"), 1);
	ck_assert_int_eq(cli_quiet("run $T/min-a.plan"), 0);
	ck_assert_int_eq(cli_quiet("min --bug shared-handle "
				    "corpus/xfer/rank2-strided.plan"), 4);
	ck_assert_int_eq(cli_quiet("min --bug db-war no/such.plan"), 2);
	ck_assert_int_eq(cli_quiet("min --max-runs 0 corpus/regress/db-war.plan"), 2);
	ck_assert_int_eq(cli_quiet("min"), 2);
	free(a);
	free(b);
}
END_TEST

Suite *suite_shrink(void)
{
	Suite *s = suite_create("shrink");
	TCase *tc = tcase_create("shrink");

	tcase_add_checked_fixture(tc, exec_setup_catching, exec_teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_spans_cover_stream);
	tcase_add_test(tc, test_signature_fields);
	tcase_add_loop_test(tc, test_min_keeps_bug, 0, DFZ_BUG_COUNT);
	tcase_add_test(tc, test_min_rejects_lost_bug);
	tcase_add_test(tc, test_min_random_bugs);
	tcase_add_test(tc, test_min_narrows_size);
	tcase_add_test(tc, test_min_no_repro);
	suite_add_tcase(s, tc);
	tc = tcase_create("cli");
	scratch_add(tc);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_cli_min);
	suite_add_tcase(s, tc);
	return s;
}
