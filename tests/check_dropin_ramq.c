// SPDX-License-Identifier: MIT
/*
 * The ram-concurrent quirk (dropin/quirks.c, runtime/ram.c): on (pulp-sdk,
 * the default) the RAM driver runs two copies at once; off (gap_sdk's
 * GAP8 HyperRAM driver) one at a time. A read of L3 bytes that a write
 * still in flight is writing races only when the two run at once; a
 * request re-issued while it is still queued is a bug in both settings.
 * Also the setting drawn from the schedule ("any") and the verdict that
 * names it.
 */
#include <check.h>
#include <string.h>

#include "dropin_fixture.h"
#include "dmafuzz/dropin/pmsis.h"
#include "dmafuzz/dropin/bsp/ram.h"

#define N 256

static struct pi_device ram;
static uint8_t *src, *dst;
static uint32_t l3;
static int want_line;
static uint32_t seen;

static void setup_mem(void)
{
	src = pi_l2_malloc(N);
	dst = pi_l2_malloc(N);
	l3 = (uint32_t)(uintptr_t)cl_ram_malloc(N);
	fill(src, N);
	l3_fill(l3, N);
	memset(dst, 0, N);
}

/* Write src to L3 and, before its wait, read the same L3 bytes back. */
static void body_read_after_write(void *arg)
{
	pi_cl_ram_req_t w, r;

	(void)arg;
	setup_mem();
	pi_cl_ram_copy(&ram, l3, src, N, 0, &w);
	pi_cl_ram_copy(&ram, l3, dst, N, 1, &r);
	pi_cl_ram_copy_wait(&w);
	pi_cl_ram_copy_wait(&r);
	seen = !memcmp(dst, src, N);
}

START_TEST(test_race_only_concurrent)
{
	struct dfz__result r = run_with(body_read_after_write,
					"no-ram-concurrent");

	ck_assert_msg(r.finding.cls == DFZ_CLASS_NONE, "%s: %s",
		      dfz_class_name(r.finding.cls), r.finding.msg);
	ck_assert_uint_eq(seen, 1);      /* in order: the read sees the write */
	r = run_with(body_read_after_write, "ram-concurrent");
	ck_assert_msg(r.finding.cls == DFZ_CLASS_HAZARD_RACE ||
		      r.finding.cls == DFZ_CLASS_DATA_MISMATCH, "%s: %s",
		      dfz_class_name(r.finding.cls), r.finding.msg);
}
END_TEST

/* Three copies queued, the third re-issued while still queued (in
 * neither setting can the driver have started it). */
static void body_requeue(void *arg)
{
	pi_cl_ram_req_t q[3];

	(void)arg;
	setup_mem();
	for (unsigned i = 0; i < 3; i++)
		pi_cl_ram_copy(&ram, l3 + 64 * i, dst + 64 * i, 64, 1, &q[i]);
	want_line = __LINE__ + 1;
	pi_cl_ram_copy(&ram, l3 + 192, dst + 192, 64, 1, &q[2]);
	for (unsigned i = 0; i < 3; i++)
		pi_cl_ram_copy_wait(&q[i]);
}

START_TEST(test_requeue_both)
{
	struct dfz__result r = run_with(body_requeue, _i ? "ram-concurrent" :
					"no-ram-concurrent");

	ck_assert_msg(r.finding.cls == DFZ_CLASS_HANDLE_REUSE, "%s with %s: %s",
		      dfz_class_name(r.finding.cls),
		      _i ? "ram-concurrent" : "no-ram-concurrent",
		      r.finding.msg);
	ck_assert_msg(r.site.line == want_line, "%d %s: %s", r.site.line,
		      dfz_class_name(r.finding.cls), r.finding.msg);
	ck_assert_uint_eq(!!(r.quirks & (1u << DFZ_QUIRK_RAM_CONCURRENT)),
			  (unsigned)_i);
}
END_TEST

START_TEST(test_any_and_verdict)
{
	struct dfz__quirks q = { dfz__quirks_default(), 0 };
	char buf[128];

	ck_assert(q.on & (1u << DFZ_QUIRK_RAM_CONCURRENT));
	ck_assert_int_eq(dfz__quirks_parse("ram-concurrent=any", &q), 0);
	ck_assert(q.any & (1u << DFZ_QUIRK_RAM_CONCURRENT));
	dfz__quirks_describe(1u << DFZ_QUIRK_RAM_CONCURRENT, DFZ__API_RAM, buf,
			     sizeof(buf));
	ck_assert_str_eq(buf, "ram-concurrent");
	dfz__quirks_describe(0, DFZ__API_RAM, buf, sizeof(buf));
	ck_assert_str_eq(buf, "no-ram-concurrent");
	dfz__quirks_describe(1u << DFZ_QUIRK_RAM_CONCURRENT, DFZ__API_CLDMA,
			     buf, sizeof(buf));
	ck_assert_str_eq(buf, "no-cldma-size16, no-cldma-copy-aliases");
}
END_TEST

Suite *suite_dropin_ramq(void)
{
	Suite *s = suite_create("dropin_ramq");
	TCase *tc = tcase_create("ram-concurrent");

	tcase_add_test(tc, test_race_only_concurrent);
	tcase_add_loop_test(tc, test_requeue_both, 0, 2);
	tcase_add_test(tc, test_any_and_verdict);
	suite_add_tcase(s, tc);
	return s;
}
