// SPDX-License-Identifier: MIT
/*
 * A reference for free (issue 23 item 5, dropin/golden.c): the body run
 * once in an ideal world, the outputs it names kept, and every run after
 * compared with them. The bodies check nothing themselves; the lines the
 * tests expect are taken with __LINE__ on the calls.
 */
#include <check.h>
#include <string.h>

#include "dropin_fixture.h"
#include "dmafuzz/dropin/bsp/ram.h"

#define T 96

static int calls;                /* runs of a body, the ideal one too */
static bool drop_wait;           /* body_scale leaves out the last wait */
static int extra_bytes;          /* body_size names this many more */
static int line_out, line_write;

static struct dfz__result run_on(void (*body)(void *), const uint8_t *buf,
				 size_t n)
{
	struct dfz_dropin_test t = { body, NULL, __FILE__ };
	struct dfz__result r;

	dfz__dropin_run(&t, buf, n, &r);
	return r;
}

/* out = 3 * in + 1 in L2, stored to L3 on one request per tile. */
static void body_scale(void *arg)
{
	pi_cl_ram_req_t rd, wr;
	uint32_t in = (uint32_t)(uintptr_t)cl_ram_malloc(2 * T);
	uint32_t out = (uint32_t)(uintptr_t)cl_ram_malloc(2 * T);
	uint8_t *ib = pi_l2_malloc(T), *ob = pi_l2_malloc(T), host[2 * T];

	(void)arg;
	calls++;
	fill(host, sizeof(host));
	dfz_dropin_l3_write(in, host, sizeof(host));
	for (unsigned t = 0; t < 2; t++) {
		pi_cl_ram_read(get_ram_ptr(), in + t * T, ib, T, &rd);
		pi_cl_ram_read_wait(&rd);
		if (t > 0)
			pi_cl_ram_write_wait(&wr);
		for (unsigned i = 0; i < T; i++)
			ob[i] = (uint8_t)(3 * ib[i] + 1);
		line_write = __LINE__; pi_cl_ram_write(get_ram_ptr(), out + t * T, ob, T, &wr);
	}
	if (!drop_wait)
		pi_cl_ram_write_wait(&wr);
	line_out = __LINE__; DFZ_DROPIN_OUTPUT_L3(out, 2 * T);
	if (drop_wait)
		pi_cl_ram_write_wait(&wr);
	pi_l2_free(ob, T);
	pi_l2_free(ib, T);
	cl_ram_free((void *)(uintptr_t)out, 2 * T);
	cl_ram_free((void *)(uintptr_t)in, 2 * T);
}

/* Schedules of every kind: empty, slow, one that drains at each yield. */
static const uint8_t scheds[][8] = {
	{ 0 }, { 3, 1, 0, 0, 0, 0, 0, 0 }, { 0, 5, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff }, { 9, 2, 7, 200, 1, 30, 4, 250 },
};

START_TEST(test_clean_body_matches)
{
	drop_wait = false;
	for (size_t i = 0; i < sizeof(scheds) / sizeof(scheds[0]); i++) {
		struct dfz__result r = run_on(body_scale, scheds[i], i ? 8 : 0);

		ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
	}
}
END_TEST

/* The last write-back left in flight: data.mismatch at the output's
 * line, the earlier call being the write-back of the differing byte. */
START_TEST(test_missing_wait_mismatch)
{
	struct dfz__result r;
	uint8_t fast[64];

	drop_wait = true;
	r = run_on(body_scale, NULL, 0);
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_DATA_MISMATCH);
	ck_assert_int_eq(r.site.line, line_out);
	ck_assert_int_eq(r.prior.line, line_write);
	ck_assert_ptr_nonnull(strstr(r.finding.msg, "at byte 96 of 192"));
	ck_assert_ptr_nonnull(strstr(r.finding.msg, "transfer #3"));
	/* A schedule that lands it before the output is named: clean. */
	memset(fast, 0xff, sizeof(fast));
	fast[0] = 0;                        /* latency 0 */
	fast[1] = 5;                        /* 4096 bytes a step */
	r = run_on(body_scale, fast, sizeof(fast));
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
}
END_TEST

/* A body of its own, which no other test ran in this process (the
 * suites share one process under CK_FORK=no, as memcheck runs them). */
static void body_once(void *arg)
{
	body_scale(arg);
}

/* Once per process and body: the ideal run, then only the runs. */
START_TEST(test_ideal_run_once)
{
	drop_wait = false;
	calls = 0;
	run_on(body_once, NULL, 0);
	run_on(body_once, scheds[1], 8);
	run_on(body_once, scheds[3], 8);
	ck_assert_int_eq(calls, 4);
}
END_TEST

static void body_fuzzed(void *arg)
{
	body_scale(arg);
}

/* A fuzz target makes its ideal run at its set-up, before the fuzzer
 * forks: a forked child's first run of a schedule runs the body once,
 * as every later run of it does (else the first covers more code, and
 * AFL++ finds the target's coverage unstable). */
START_TEST(test_fuzz_init_makes_ideal_run)
{
	struct dfz_dropin_test t = { body_fuzzed, NULL, __FILE__ };

	drop_wait = false;
	calls = 0;
	dfz_dropin_fuzz_init(&t);
	ck_assert_int_eq(calls, 1);
	dfz_dropin_fuzz_one(&t, scheds[1], 8);
	ck_assert_int_eq(calls, 2);
	dfz_dropin_fuzz_one(&t, scheds[1], 8);
	ck_assert_int_eq(calls, 3);
	dfz__dropin_get()->fuzzing = false;
}
END_TEST

/* Same bytes, same verdict. */
START_TEST(test_deterministic)
{
	struct dfz__result a, b;

	drop_wait = true;
	a = run_on(body_scale, scheds[3], 8);
	b = run_on(body_scale, scheds[3], 8);
	ck_assert_int_eq(a.finding.cls, b.finding.cls);
	ck_assert_str_eq(a.finding.msg, b.finding.msg);
}
END_TEST

/* An L2 output whose size changes after the ideal run (sabotage of the
 * reference: the comparison sees it). */
static void body_size(void *arg)
{
	uint8_t *p = pi_l2_malloc(T);

	(void)arg;
	fill(p, T);
	DFZ_DROPIN_OUTPUT(p, T - extra_bytes);
	pi_l2_free(p, T);
}

START_TEST(test_reference_is_compared)
{
	struct dfz__result r;

	extra_bytes = 0;
	r = run_on(body_size, NULL, 0);
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
	extra_bytes = 1;
	r = run_on(body_size, NULL, 0);
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_DATA_MISMATCH);
	ck_assert_ptr_nonnull(strstr(r.finding.msg, "another size"));
}
END_TEST

/* The bytes differ where the CPU wrote them after the reference. */
static void body_flip(void *arg)
{
	uint8_t *p = pi_l2_malloc(T);

	(void)arg;
	fill(p, T);
	p[37] ^= (uint8_t)extra_bytes;
	line_out = __LINE__; DFZ_DROPIN_OUTPUT(p, T);
	pi_l2_free(p, T);
}

START_TEST(test_first_differing_byte)
{
	struct dfz__result r;

	extra_bytes = 0;
	r = run_on(body_flip, NULL, 0);     /* the reference, and a run */
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
	extra_bytes = 0x40;
	r = run_on(body_flip, NULL, 0);
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_DATA_MISMATCH);
	ck_assert_int_eq(r.site.line, line_out);
	ck_assert_ptr_null(r.prior.file);   /* no transfer wrote it */
	ck_assert_ptr_nonnull(strstr(r.finding.msg, "at byte 37 of 96, L2[0x"));
	ck_assert_ptr_nonnull(strstr(r.finding.msg, "no transfer"));
}
END_TEST

/* The output named while its load is in flight: the ideal run has it
 * landed (every transfer done at its call), the empty schedule not. */
static void body_early(void *arg)
{
	pi_cl_ram_req_t rd;
	uint32_t in = (uint32_t)(uintptr_t)cl_ram_malloc(T);
	uint8_t *p = pi_l2_malloc(T), host[T];

	(void)arg;
	fill(host, T);
	dfz_dropin_l3_write(in, host, T);
	line_write = __LINE__; pi_cl_ram_read(get_ram_ptr(), in, p, T, &rd);
	line_out = __LINE__; DFZ_DROPIN_OUTPUT(p, T);
	pi_cl_ram_read_wait(&rd);
	pi_l2_free(p, T);
	cl_ram_free((void *)(uintptr_t)in, T);
}

START_TEST(test_ideal_run_drains)
{
	struct dfz__result r = run_on(body_early, NULL, 0);

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_DATA_MISMATCH);
	ck_assert_int_eq(r.site.line, line_out);
	ck_assert_int_eq(r.prior.line, line_write);
	ck_assert_ptr_nonnull(strstr(r.finding.msg, "at byte 0 of 96"));
}
END_TEST

/* A body that names nothing: no comparison, nothing found. */
static void body_plain(void *arg)
{
	uint8_t *p = pi_l2_malloc(T);

	(void)arg;
	calls++;
	pi_l2_free(p, T);
}

START_TEST(test_no_outputs)
{
	struct dfz__result r;

	calls = 0;
	r = run_on(body_plain, scheds[1], 8);
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
	ck_assert_int_eq(calls, 2);
}
END_TEST

Suite *suite_dropin_golden(void)
{
	Suite *s = suite_create("dropin_golden");
	TCase *tc = tcase_create("golden");

	tcase_add_test(tc, test_clean_body_matches);
	tcase_add_test(tc, test_missing_wait_mismatch);
	tcase_add_test(tc, test_ideal_run_once);
	tcase_add_test(tc, test_fuzz_init_makes_ideal_run);
	tcase_add_test(tc, test_deterministic);
	tcase_add_test(tc, test_reference_is_compared);
	tcase_add_test(tc, test_first_differing_byte);
	tcase_add_test(tc, test_no_outputs);
	tcase_add_test(tc, test_ideal_run_drains);
	suite_add_tcase(s, tc);
	return s;
}
