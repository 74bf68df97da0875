// SPDX-License-Identifier: MIT
/*
 * The drop-in's side of the programs `emit-c --dropin` writes: their
 * compute calls DFZ_DROPIN_COMPUTE(), which shows the oracles what the
 * kernel read and wrote, as the harness's compute does, so a read of a
 * buffer whose load was not waited is hazard.read-before-wait at that
 * call even when the bytes had already landed. (The schedule preset,
 * DFZ_DROPIN_SCHEDULE, is a test file's own symbol: tools/emit-dropin-
 * check.sh checks that an emitted program's first run has the harness's
 * steps and transfers.)
 */
#include <check.h>
#include <string.h>

#include "dropin_fixture.h"
#include "dmafuzz/dropin/bsp/ram.h"

static bool early;               /* the compute before the wait */
static bool announce = true;     /* the compute calls DFZ_DROPIN_COMPUTE */

static void body_compute(void *arg)
{
	uint32_t l3 = (uint32_t)(uintptr_t)cl_ram_malloc(64);
	uint8_t *in = pi_l2_malloc(64), *out = pi_l2_malloc(64);
	pi_cl_ram_req_t req;

	(void)arg;
	l3_fill(l3, 64);
	pi_cl_ram_copy(get_ram_ptr(), l3, in, 64, 1, &req);
	/* the empty schedule: the copy lands in the wait, or here */
	if (!early)
		pi_cl_ram_copy_wait(&req);
	if (announce)
		DFZ_DROPIN_COMPUTE(in, NULL, out, 64);
	if (early)
		pi_cl_ram_copy_wait(&req);
	pi_l2_free(in, 64);
	pi_l2_free(out, 64);
	cl_ram_free((void *)(uintptr_t)l3, 64);
}

/* Waited first: clean. Before the wait: read-before-wait at the call;
 * without the call (the sabotage) nothing sees the read. */
START_TEST(test_compute_read_before_wait)
{
	early = false;
	announce = true;
	ck_assert_int_eq(run_with(body_compute, "").finding.cls,
			 DFZ_CLASS_NONE);
	early = true;
	ck_assert_int_eq(run_with(body_compute, "").finding.cls,
			 DFZ_CLASS_HAZARD_RBW);
	announce = false;
	ck_assert_int_eq(run_with(body_compute, "").finding.cls,
			 DFZ_CLASS_NONE);
	announce = true;
}
END_TEST

Suite *suite_emit_dropin(void)
{
	Suite *s = suite_create("emit_dropin");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_compute_read_before_wait);
	suite_add_tcase(s, tc);
	return s;
}
