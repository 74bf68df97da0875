// SPDX-License-Identifier: MIT
/*
 * Harness tests: determinism of verdicts (one and two hops, tensors in L3
 * or L2), plan loading (text, binary, bad input), the verdict printers,
 * and the executor's own accounting.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec_fixture.h"
#include "../harness/harness_int.h"

/* Same input, same verdict: class, message, steps and transfers. */
START_TEST(test_deterministic)
{
	struct dfz_verdict a, b;
	struct dfz_plan p;

	load("corpus/regress/shared-handle.plan", &p);
	dfz_exec_run(ex, &p, 1u << DFZ_BUG_SHARED_HANDLE, &a);
	load("corpus/xfer/rank3-padded.plan", &p);
	dfz_exec_run(ex, &p, 0, &b);      /* another run in between */
	load("corpus/regress/shared-handle.plan", &p);
	dfz_exec_run(ex, &p, 1u << DFZ_BUG_SHARED_HANDLE, &b);
	ck_assert_int_eq(a.kind, DFZ_VERDICT_BUG);
	ck_assert_int_eq(a.finding.cls, b.finding.cls);
	ck_assert_str_eq(a.finding.msg, b.finding.msg);
	ck_assert_uint_eq(a.steps, b.steps);
	ck_assert_uint_eq(a.xfers, b.xfers);
}
END_TEST

/* The binary form of a plan runs exactly as its text form. */
START_TEST(test_binary_equals_text)
{
	struct dfz_verdict a, b;
	struct dfz_plan p;
	uint8_t *buf;
	size_t n;

	load("corpus/xfer/chain-add-dir.plan", &p);
	ck_assert_int_eq(dfz_plan_encode(&p, &buf, &n), 0);
	dfz_exec_run(ex, &p, 0, &a);
	dfz_exec_bytes(ex, buf, n, 0, &b);
	free(buf);
	ck_assert_int_eq(a.kind, DFZ_VERDICT_CLEAN);
	ck_assert_int_eq(b.kind, DFZ_VERDICT_CLEAN);
	ck_assert_uint_eq(a.steps, b.steps);
	ck_assert_uint_eq(a.xfers, b.xfers);
	ck_assert_uint_gt(a.xfers, 10);
}
END_TEST

/* Two hops and tensors in L2: same input, same verdict, in text and in
 * bytes; the run moves data on both engines. */
START_TEST(test_deterministic_hops)
{
	static const char *const plans[] = {
		"corpus/xfer/two-hop-mchan-double.plan",
		"corpus/xfer/two-hop-inner-rank3.plan",
		"corpus/xfer/mchan-rank3.plan",
	};
	const char *path = plans[_i];
	struct dfz_verdict a, b, c;
	struct dfz_plan p;
	uint8_t *buf;
	size_t n;

	load(path, &p);
	ck_assert_int_eq(dfz_plan_encode(&p, &buf, &n), 0);
	dfz_exec_run(ex, &p, 0, &a);
	load("corpus/xfer/rank3-padded.plan", &p);
	dfz_exec_run(ex, &p, 1u << DFZ_BUG_DB_WAR, &b); /* another run */
	dfz_exec_bytes(ex, buf, n, 0, &b);
	dfz_exec_bytes(ex, buf, n, 0, &c);
	free(buf);
	ck_assert_msg(a.kind == DFZ_VERDICT_CLEAN, "%s: %s", path,
		      a.finding.msg);
	ck_assert(b.kind == a.kind && c.kind == a.kind);
	ck_assert(a.steps == b.steps && b.steps == c.steps);
	ck_assert(a.xfers == b.xfers && b.xfers == c.xfers);
	ck_assert_uint_gt(a.xfers, 10);
}
END_TEST

/* The executor sizes L1 and L2 from the plan and keeps tensors in L2 for
 * a one-hop L2<->L1 plan: a bug the plan's shape exposes is found there
 * too, and the run is not rejected. */
START_TEST(test_hops_switches)
{
	struct dfz_verdict v;
	struct dfz_plan p;

	load("corpus/xfer/two-hop-mchan-single.plan", &p);
	dfz_exec_run(ex, &p, 1u << DFZ_BUG_EARLY_COMPUTE, &v);
	ck_assert_int_eq(v.kind, DFZ_VERDICT_BUG);
	dfz_exec_run(ex, &p, 1u << DFZ_BUG_EDGE_TILE, &v);
	ck_assert_int_eq(v.kind, DFZ_VERDICT_BUG);
	load("corpus/xfer/mchan-rank1.plan", &p);
	dfz_exec_run(ex, &p, 1u << DFZ_BUG_EDGE_TILE, &v);
	ck_assert_int_eq(v.kind, DFZ_VERDICT_BUG);
	dfz_exec_run(ex, &p, 0, &v);
	ck_assert_int_eq(v.kind, DFZ_VERDICT_CLEAN);
}
END_TEST

/* A stand-in runtime whose L2 another user has filled first: the real
 * runtime then refuses the plan at its first allocation there. */
static int crowded_runner(struct dfz_adapter *ad, const struct dfz_prog *p)
{
	void *hog[40];
	unsigned n = 0;
	int rc;

	for (uint32_t size = 1u << 20; size >= 8 && n < 40; size /= 2)
		while (n < 40 &&
		       dfz_local_alloc(ad->rt, DFZ_L2, size, &hog[n]) == 0)
			n++;
	rc = dfz_prog_run(ad, p);
	while (n > 0)
		dfz_local_free(ad->rt, hog[--n]);
	return rc;
}

/* A runtime that refuses a valid plan is a finding that names the call
 * (rt.refused), not a rejected input; the refusal is per run. */
START_TEST(test_refused)
{
	struct dfz_verdict v;
	struct dfz_plan p;

	load("corpus/xfer/rank3-padded.plan", &p);
	dfz__exec_set_runner(ex, crowded_runner);
	dfz_exec_run(ex, &p, 0, &v);
	ck_assert_int_eq(v.kind, DFZ_VERDICT_BUG);
	ck_assert_str_eq(dfz_class_name(v.finding.cls), "rt.refused");
	ck_assert_str_eq(v.finding.oracle, "runtime");
	ck_assert_ptr_nonnull(strstr(v.finding.msg, "dfz_local_alloc() "
				     "returned out of memory (hop 0"));
	dfz__exec_set_runner(ex, NULL);
	dfz_exec_run(ex, &p, 0, &v);
	ck_assert_int_eq(v.kind, DFZ_VERDICT_CLEAN);
}
END_TEST

/*
 * req-escape holds a second scope of handles per loop iteration while the
 * node's are held: on a fresh-strategy hop with pools of 8, 16 handles of
 * 8 requests. The plan's level is sized for both (the runtime once
 * refused this plan, rt.refused), so the run shows the switch's fault.
 */
START_TEST(test_req_escape_fits)
{
	struct dfz_verdict v;
	struct dfz_plan p;

	load("tests/data/req-escape-scopes.plan", &p);
	dfz_exec_run(ex, &p, 1u << DFZ_BUG_REQ_ESCAPE, &v);
	ck_assert_int_eq(v.kind, DFZ_VERDICT_BUG);
	ck_assert_str_eq(dfz_class_name(v.finding.cls), "queue.corrupt");
	dfz_exec_run(ex, &p, 0, &v);
	ck_assert_int_eq(v.kind, DFZ_VERDICT_CLEAN);
}
END_TEST

/* Waits are judged on plans too: the shared-handle plan's wait on the
 * request every sub-copy shares returns while copies are still in flight
 * (dma.early-wait); with every oracle the reuse at the second issue is
 * reported first, as it happens first. */
START_TEST(test_plan_early_wait)
{
	struct dfz_exec *only;
	struct dfz_verdict v;
	struct dfz_plan p;

	load("corpus/regress/shared-handle.plan", &p);
	ck_assert_int_eq(dfz_exec_create(1u << DFZ_ORACLE_INFLIGHT, &only), 0);
	dfz_exec_run(only, &p, 1u << DFZ_BUG_SHARED_HANDLE, &v);
	ck_assert_str_eq(dfz_class_name(v.finding.cls), "dma.early-wait");
	dfz_exec_run(only, &p, 0, &v);
	ck_assert_int_eq(v.kind, DFZ_VERDICT_CLEAN);
	dfz_exec_destroy(only);
	dfz_exec_run(ex, &p, 1u << DFZ_BUG_SHARED_HANDLE, &v);
	ck_assert_str_eq(dfz_class_name(v.finding.cls), "handle.reuse");
}
END_TEST

/* A stand-in runtime that faults as a runtime bug would. */
static volatile uintptr_t bad_address = 24;

static int crashing_runner(struct dfz_adapter *ad, const struct dfz_prog *p)
{
	(void)ad;
	(void)p;
	*(volatile int *)bad_address = 1;
	return 0;
}

/* A signal in the runtime during an xfer plan is a crash verdict when the
 * executor catches signals, and the next run is judged as usual. */
START_TEST(test_xfer_crash)
{
	struct dfz_verdict v;
	struct dfz_plan p;

	/* The fault is real: under valgrind (tools/memcheck.sh sets
	 * DFZ_MEMCHECK) it is a memcheck error of its own, so the test only
	 * runs natively. */
	if (getenv("DFZ_MEMCHECK"))
		return;
	load("corpus/xfer/rank3-padded.plan", &p);
	dfz_exec_catch_signals(ex, true);
	dfz__exec_set_runner(ex, crashing_runner);
	dfz_exec_run(ex, &p, 0, &v);
	ck_assert_int_eq(v.kind, DFZ_VERDICT_BUG);
	ck_assert_str_eq(dfz_class_name(v.finding.cls), "crash");
	ck_assert_ptr_nonnull(strstr(v.finding.msg, "SIGSEGV at address 0x18 "
				     "in the runtime during dfz_prog_run()"));
	dfz__exec_set_runner(ex, NULL);
	dfz_exec_run(ex, &p, 0, &v);
	ck_assert_int_eq(v.kind, DFZ_VERDICT_CLEAN);
}
END_TEST

START_TEST(test_load_errors)
{
	char err[300];
	struct dfz_plan p;
	static const uint8_t bad[] = "# dmafuzz plan\nrank 9\n";
	static const uint8_t bin[] = { 0x01, 0x02, 0xff, 0x00 };

	ck_assert_int_eq(dfz_plan_load("no/such/file.plan", &p, err, sizeof(err)),
			 DFZ_ENOENT);
	ck_assert_ptr_nonnull(strstr(err, "no/such/file.plan"));
	/* A directory opens but cannot be read: said so, not "no such". */
	ck_assert_int_eq(dfz_plan_load("corpus", &p, err, sizeof(err)),
			 DFZ_EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "Is a directory"));
	ck_assert_int_eq(dfz_plan_from_bytes(bad, sizeof(bad) - 1, &p, err,
					     sizeof(err)), DFZ_EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "line 2"));
	ck_assert_ptr_null(strchr(err, '\n'));
	/* Anything that is not text is a choice stream, and decodes. */
	ck_assert_int_eq(dfz_plan_from_bytes(bin, sizeof(bin), &p, err,
					     sizeof(err)), 0);
}
END_TEST

START_TEST(test_verdict_json)
{
	struct dfz_verdict v;
	struct dfz_plan p;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	load("corpus/regress/early-compute.plan", &p);
	dfz_exec_run(ex, &p, 1u << DFZ_BUG_EARLY_COMPUTE, &v);
	dfz_verdict_print(&v, "x\"y", true, f);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "\"verdict\":\"bug\""));
	ck_assert_ptr_nonnull(strstr(text, "\"class\":\"hazard."));
	ck_assert_ptr_nonnull(strstr(text, "\"input\":\"x\\\"y\""));
	ck_assert_int_eq(text[len - 1], '\n');
	ck_assert_ptr_eq(strchr(text, '\n'), text + len - 1);
	free(text);
}
END_TEST

Suite *suite_exec(void)
{
	Suite *s = suite_create("exec");
	TCase *tc = tcase_create("exec");

	tcase_add_checked_fixture(tc, exec_setup, exec_teardown);
	tcase_add_test(tc, test_deterministic);
	tcase_add_test(tc, test_binary_equals_text);
	tcase_add_loop_test(tc, test_deterministic_hops, 0, 3);
	tcase_add_test(tc, test_hops_switches);
	tcase_add_test(tc, test_refused);
	tcase_add_test(tc, test_req_escape_fits);
	tcase_add_test(tc, test_plan_early_wait);
	tcase_add_test(tc, test_xfer_crash);
	tcase_add_test(tc, test_load_errors);
	tcase_add_test(tc, test_verdict_json);
	suite_add_tcase(s, tc);
	return s;
}
