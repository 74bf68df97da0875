// SPDX-License-Identifier: MIT
/*
 * Unit tests of the host-API device, its judge and the session
 * (runtime/hdev.c, oracles/hjudge.c, dropin/hostapi.c): the device's
 * per-byte record against a naive one (random writes over runs), poison
 * on read, the schedule's failures, every class of the judge fired by a
 * misuse and silent on the correct use next to it, the two policies, the
 * ledger per run and at finalize, and the line a finding names.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_fast.h"
#include "dmafuzz/hostapi.h"
#include "dmafuzz/runtime.h"

static struct dfz_hapi *s;

static void setup(void)
{
	ck_assert_int_eq(dfz_hapi_create(&s), 0);
	dfz_hapi_begin(s, DFZ_HAPI_REPORT_UNWRITTEN, NULL, 0, 0, 0xdf);
}

static void teardown(void)
{
	dfz_hapi_destroy(s);
	s = NULL;
}

/* A fresh session on the same device (a new runner). */
static void fresh(void)
{
	dfz_hapi_begin(s, DFZ_HAPI_REPORT_UNWRITTEN, NULL, 0, 0, 0xdf);
}

static const char *cls(void)
{
	const struct dfz_hapi_finding *f = dfz_hapi_finding(s);

	return f ? f->cls : "none";
}

/* ------------------------------------------------------------ the device */

/* Random writes over three runs against a per-byte record. */
START_TEST(test_state_vs_naive)
{
	struct dfz_hdev *d = dfz_hapi_device(s);
	enum { N = 300 };
	uint32_t naive[N];            /* run that last wrote, 0: never */
	uint64_t a = dfz_hdev_malloc(d, N);
	uint8_t src[N];
	unsigned seed = 7;

	ck_assert(a != 0);
	memset(naive, 0, sizeof(naive));
	memset(src, 1, sizeof(src));
	for (int op = 0; op < 600; op++) {
		unsigned lo = (unsigned)rand_r(&seed) % N, n;
		struct dfz_hdev_bytes b;
		uint64_t never = 0, stale = 0;
		int64_t fn = -1, fs = -1;

		n = 1 + (unsigned)rand_r(&seed) % (N - lo);
		if (op % 200 == 199)
			dfz_hdev_next_run(d);
		if (rand_r(&seed) % 2) {
			ck_assert_int_eq(dfz_hdev_kernel_write(d, a + lo, src, n), 0);
			for (unsigned i = lo; i < lo + n; i++)
				naive[i] = dfz_hdev_run(d);
			continue;
		}
		ck_assert_int_eq(dfz_hdev_state(d, a + lo, n, &b), 0);
		for (unsigned i = lo; i < lo + n; i++) {
			if (!naive[i] && !never++)
				fn = i - lo;
			if (naive[i] && naive[i] < dfz_hdev_run(d) && !stale++)
				fs = i - lo;
		}
		CK_CHECK_UINT(b.never, ==, never);
		CK_CHECK_UINT(b.stale, ==, stale);
		if (never)
			CK_CHECK_INT((int64_t)b.first_never, ==, fn);
		if (stale)
			CK_CHECK_INT((int64_t)b.first_stale, ==, fs);
	}
}
END_TEST

START_TEST(test_poison_and_bytes)
{
	struct dfz_hdev *d = dfz_hapi_device(s);
	uint64_t a = dfz_hdev_malloc(d, 16);
	uint8_t in[4] = { 1, 2, 3, 4 }, out[16];

	ck_assert(dfz_hdev_is_dev(d, a) && !dfz_hdev_is_dev(d, (uintptr_t)out));
	ck_assert_int_eq(dfz_hdev_copy_to(d, a + 4, in, 4), 0);
	ck_assert_int_eq(dfz_hdev_copy_from(d, out, a, 16), 0);
	for (int i = 0; i < 16; i++)
		ck_assert_uint_eq(out[i], i >= 4 && i < 8 ? in[i - 4] : 0xdf);
	ck_assert_int_eq(dfz_hdev_copy_from(d, out, a + 8, 9), DFZ_EFAULT);
	ck_assert_int_eq(dfz_hdev_free(d, a + 1), DFZ_ENOENT);
	ck_assert_int_eq(dfz_hdev_free(d, a), 0);
	ck_assert_int_eq(dfz_hdev_free(d, a), DFZ_ENOENT);
	ck_assert(dfz_hdev_malloc(d, 16) != a);   /* never reused */
}
END_TEST

START_TEST(test_schedule)
{
	struct dfz_hdev *d = dfz_hapi_device(s);
	/* the 2nd malloc fails; the 1st copy moves half, then fails -3 */
	const uint8_t sched[] = { DFZ_HAPI_MALLOC, 1, 0,
				  DFZ_HAPI_COPY_TO, 0, 1 | (2 << 1), 9 };
	uint8_t in[8] = { 9, 9, 9, 9, 9, 9, 9, 9 };
	struct dfz_hdev_bytes b;
	uint64_t a;

	ck_assert_uint_eq(dfz_hdev_schedule(d, sched, sizeof(sched)), 2);
	a = dfz_hdev_malloc(d, 8);
	ck_assert(a != 0);
	ck_assert(dfz_hdev_malloc(d, 8) == 0);
	ck_assert(dfz_hdev_malloc(d, 8) != 0);
	ck_assert_int_eq(dfz_hdev_copy_to(d, a, in, 8), -3);
	ck_assert_int_eq(dfz_hdev_state(d, a, 8, &b), 0);
	ck_assert_uint_eq(b.never, 4);
	ck_assert_uint_eq(b.first_never, 4);
	ck_assert_int_eq(dfz_hdev_copy_to(d, a, in, 8), 0);
	ck_assert_int_eq(dfz_hdev_fail(d, DFZ_HAPI_FALLIBLE, 0, -1, false),
			 DFZ_EINVAL);
}
END_TEST

/* ------------------------------------------------------------- the judge */

START_TEST(test_clean_use)
{
	uint8_t h[64] = { 0 };
	void *p;

	for (int run = 0; run < 3; run++) {
		p = dfz_hapi_device_malloc(s, 64);
		ck_assert_int_eq(dfz_hapi_copy_to_device(s, p, h, 64), 0);
		ck_assert_int_eq(dfz_hapi_copy_from_device(s, h, p, 64), 0);
		dfz_hapi_device_free(s, p);
		dfz_hapi_device_free(s, NULL);
		dfz_hapi_run_end(s);
	}
	dfz_hapi_finalize(s);
	ck_assert_str_eq(cls(), "none");
}
END_TEST

START_TEST(test_frees)
{
	void *p = dfz_hapi_device_malloc(s, 64);
	uint8_t h[8];

	dfz_hapi_device_free(s, (char *)p + 8);
	ck_assert_str_eq(cls(), "dev.misuse");
	ck_assert(strstr(dfz_hapi_finding(s)->msg, "untracked"));
	fresh();
	p = dfz_hapi_device_malloc(s, 64);
	dfz_hapi_device_free(s, p);
	ck_assert_str_eq(cls(), "none");
	dfz_hapi_device_free(s, p);
	ck_assert(strstr(dfz_hapi_finding(s)->msg, "double free"));
	fresh();
	dfz_hapi_device_free(s, h);
	ck_assert_str_eq(cls(), "dev.child-memory");
	fresh();
	ck_assert_int_eq(dfz_hapi_setup_static_arena(s, 0, 64, 64, 0), 0);
	dfz_hapi_device_free(s, dfz_hapi_acquire_pooled(s, 0, DFZ_HAPI_GM_SM));
	ck_assert(strstr(dfz_hapi_finding(s)->msg, "platform owns"));
}
END_TEST

/* A failing setup_static_arena drops the regions it made: the
 * platform's frees, not the runtime's misuse. */
START_TEST(test_arena_failure)
{
	const uint8_t sched[] = { DFZ_HAPI_ARENA, 1, 0 };

	dfz_hapi_begin(s, DFZ_HAPI_REPORT_UNWRITTEN, sched, sizeof(sched), 0,
		       0xdf);
	ck_assert_int_eq(dfz_hapi_setup_static_arena(s, 0, 64, 64, 64), -1);
	ck_assert(dfz_hapi_acquire_pooled(s, 0, DFZ_HAPI_GM_HEAP) == NULL);
	ck_assert_int_eq(dfz_hapi_setup_static_arena(s, 0, 64, 64, 64), 0);
	ck_assert(dfz_hapi_acquire_pooled(s, 0, DFZ_HAPI_RT_ARENA) != NULL);
	dfz_hapi_finalize(s);
	ck_assert_str_eq(cls(), "none");
}
END_TEST

START_TEST(test_child_memory)
{
	void *p = dfz_hapi_device_malloc(s, 64), *q;
	uint8_t h[64] = { 0 };

	ck_assert_int_eq(dfz_hapi_copy_to_device(s, p, h, 64), 0);
	ck_assert_str_eq(cls(), "none");
	dfz_hapi_copy_to_device(s, h, h, 64);   /* host where device is due */
	ck_assert_str_eq(cls(), "dev.child-memory");
	fresh();
	p = dfz_hapi_device_malloc(s, 64);
	q = dfz_hapi_device_malloc(s, 64);
	dfz_hapi_copy_to_device(s, p, q, 64);   /* device where host is due */
	ck_assert_str_eq(cls(), "dev.child-memory");
	fresh();
	dfz_hapi_kernel_write(s, h, h, 8);
	ck_assert_str_eq(cls(), "dev.child-memory");
}
END_TEST

START_TEST(test_ranges)
{
	void *p = dfz_hapi_device_malloc(s, 64);
	uint8_t h[65] = { 0 };

	dfz_hapi_copy_to_device(s, p, h, 65);
	ck_assert(strstr(dfz_hapi_finding(s)->msg, "past the end"));
	fresh();
	p = dfz_hapi_device_malloc(s, 64);
	dfz_hapi_device_free(s, p);
	dfz_hapi_device_memset(s, p, 0, 8);
	ck_assert(strstr(dfz_hapi_finding(s)->msg, "after it was freed"));
}
END_TEST

/* Unwritten bytes: the policy decides; stale bytes and a region no host
 * code wrote are reported under both. */
START_TEST(test_policies)
{
	for (unsigned pol = 0; pol < 2; pol++) {
		uint8_t h[64] = { 0 };
		void *p, *sm;

		dfz_hapi_begin(s, pol, NULL, 0, 0, 0xdf);
		p = dfz_hapi_device_malloc(s, 64);
		dfz_hapi_copy_from_device(s, h, p, 64);
		ck_assert_str_eq(cls(), pol == DFZ_HAPI_REPORT_UNWRITTEN ?
				 "mem.undefined" : "none");
		ck_assert_uint_eq(h[0], 0xdf);
		dfz_hapi_begin(s, pol, NULL, 0, 0, 0xdf);
		p = dfz_hapi_device_malloc(s, 64);
		dfz_hapi_copy_to_device(s, p, h, 64);
		dfz_hapi_run_end(s);
		dfz_hapi_copy_from_device(s, h, p, 64);
		ck_assert(strstr(dfz_hapi_finding(s)->msg, "run 1 left"));
		ck_assert(strstr(dfz_hapi_finding(s)->msg, "by copy_to_device"));
		dfz_hapi_begin(s, pol, NULL, 0, 0, 0xdf);
		ck_assert_int_eq(dfz_hapi_setup_static_arena(s, 0, 64, 64, 64), 0);
		sm = dfz_hapi_acquire_pooled(s, 0, DFZ_HAPI_GM_SM);
		dfz_hapi_copy_from_device(s, h, sm, 16);
		ck_assert(strstr(dfz_hapi_finding(s)->msg, "no host code wrote"));
	}
}
END_TEST

START_TEST(test_leaks)
{
	void *keep;

	for (int run = 0; run < 3; run++) {
		void *r = NULL;
		size_t n;

		dfz_hapi_get_retained_temp_buffer(s, 0, &r, &n);
		if (!r) {
			r = dfz_hapi_device_malloc(s, 4096);
			dfz_hapi_set_retained_temp_buffer(s, 0, r, 4096);
		}
		dfz_hapi_run_end(s);
	}
	dfz_hapi_finalize(s);
	ck_assert_str_eq(cls(), "none");     /* the slot's: the platform's */
	fresh();
	for (int run = 0; run < 2; run++) {
		dfz_hapi_device_malloc(s, 32);
		dfz_hapi_run_end(s);
	}
	ck_assert_str_eq(cls(), "dev.leak");
	fresh();
	keep = dfz_hapi_device_malloc(s, 32);
	dfz_hapi_run_end(s);
	dfz_hapi_run_end(s);
	ck_assert_str_eq(cls(), "none");     /* no growth per run */
	dfz_hapi_finalize(s);
	ck_assert(strstr(dfz_hapi_finding(s)->msg, "finalize"));
	(void)keep;
}
END_TEST

/* The finding names this file and the line of the call. */
START_TEST(test_site)
{
	char want[64], got[256];
	int line;

	line = __LINE__ + 1;
	dfz_hapi_device_free(s, (void *)(uintptr_t)16);
	snprintf(want, sizeof(want), "check_hostapi.c:%d", line);
	dfz_hapi_site(s, got, sizeof(got));
	if (!strcmp(got, "?"))
		return;  /* no addr2line or no debug info: nothing to judge */
	ck_assert_msg(strstr(got, want), "site %s, expected %s", got, want);
}
END_TEST

START_TEST(test_unsupported)
{
	dfz_hapi_unsupported(s, "upload_chip_callable_buffer");
	ck_assert_str_eq(cls(), "api.unsupported");
	ck_assert(strstr(dfz_hapi_finding(s)->msg,
			 "upload_chip_callable_buffer"));
	ck_assert_str_eq(dfz_hapi_op_name(DFZ_HAPI_COPY_FROM),
			 "copy_from_device");
	ck_assert_str_eq(dfz_hapi_op_name(DFZ_HAPI_OP_COUNT), "call?");
}
END_TEST

Suite *suite_hostapi(void)
{
	Suite *su = suite_create("hostapi");
	TCase *tc = tcase_create("hostapi");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_state_vs_naive);
	tcase_add_test(tc, test_poison_and_bytes);
	tcase_add_test(tc, test_schedule);
	tcase_add_test(tc, test_clean_use);
	tcase_add_test(tc, test_frees);
	tcase_add_test(tc, test_arena_failure);
	tcase_add_test(tc, test_child_memory);
	tcase_add_test(tc, test_ranges);
	tcase_add_test(tc, test_policies);
	tcase_add_test(tc, test_leaks);
	tcase_add_test(tc, test_site);
	tcase_add_test(tc, test_unsupported);
	suite_add_tcase(su, tc);
	return su;
}
