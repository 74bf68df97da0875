// SPDX-License-Identifier: MIT
/*
 * Transfer groups on mchan through the adapter, with every oracle: two
 * handles A B A, each an async request. A's second transfer finds B's TID
 * the latest: fixed, A takes a fresh TID and its wait covers that
 * transfer, so the compute that reads it after the wait is clean. With
 * mchan-push-latest the push lands on B's TID (where the hardware sends
 * it), A's wait returns without covering it, and the read is
 * hazard.read-before-wait; waiting B first (the order the tiling walks
 * keep: the latest id is always waited before the earlier one) hides it.
 */
#include <check.h>
#include <string.h>

#include "oracle_fixture.h"

#define SZ 64

static struct dfz_xfer load(uint32_t l2, uint32_t l1)
{
	struct dfz_xfer x = {
		.rank = 1, .elem = 1, .ext2loc = 1,
		.ext_level = DFZ_L2, .loc_level = DFZ_L1,
		.ext_off = l2, .loc_off = l1,
		.shape = { SZ }, .ext_stride = { 1 }, .loc_stride = { 1 },
	};

	return x;
}

/* The compute reading @n bytes of L1 at @off. */
static void compute_reads(uint32_t off, uint32_t n)
{
	struct dfz_event ev = { .kind = DFZ_EV_COMPUTE_READ,
				.src = { DFZ_L1, off, n } };

	ev.step = dfz_rt_now(rt);
	dfz_rt_emit(rt, &ev);
}

/* A B A, then A's wait (B's first when @b_first), the read of A's second
 * load, B's wait. */
static void run_aba(uint32_t bugs, bool b_first)
{
	struct dfz_rt_config cfg = { .latency = 2, .bandwidth = 16,
				     .wait_bound = 1000, .bugs = bugs };
	struct dfz_adapter ad = { .engine = DFZ_ENGINE_MCHAN,
				  .policy = DFZ_POLICY_ASYNC_SHARED,
				  .pool_k = 1, .req_level = DFZ_L1 };
	struct dfz_handle a, b;
	struct dfz_xfer x[3];
	uint32_t l2, l1;

	oracles_run(DFZ_ORACLES_ALL, &cfg);
	ad.rt = rt;
	l2 = alloc_at(DFZ_L2, 3 * SZ);
	l1 = alloc_at(DFZ_L1, 3 * SZ);
	memset(dfz_mem_ptr(rt, DFZ_L2, l2), 7, 3 * SZ);
	ck_assert_int_eq(dfz_handle_init(&ad, &a), 0);
	ck_assert_int_eq(dfz_handle_init(&ad, &b), 0);
	for (unsigned k = 0; k < 3; k++)
		x[k] = load(l2 + k * SZ, l1 + k * SZ);
	ck_assert_int_eq(dfz_xfer_issue(&ad, &x[0], &a), 0);
	ck_assert_int_eq(dfz_xfer_issue(&ad, &x[1], &b), 0);
	ck_assert_int_eq(dfz_xfer_issue(&ad, &x[2], &a), 0);
	if (b_first)
		ck_assert_int_eq(dfz_handle_wait(&ad, &b), 0);
	ck_assert_int_eq(dfz_handle_wait(&ad, &a), 0);
	compute_reads(l1 + 2 * SZ, SZ);
	ck_assert_int_eq(dfz_handle_wait(&ad, &b), 0);
	dfz_handle_fini(&ad, &a);
	dfz_handle_fini(&ad, &b);
	dfz_oracles_end(set);
}

START_TEST(test_fixed_clean)
{
	run_aba(0, _i);
	ck_class(DFZ_CLASS_NONE);
}
END_TEST

START_TEST(test_push_latest_early)
{
	run_aba(DFZ_BUG_BIT(MCHAN_PUSH_LATEST), false);
	ck_class(DFZ_CLASS_HAZARD_RBW);
	run_aba(DFZ_BUG_BIT(MCHAN_PUSH_LATEST), true);
	ck_class(DFZ_CLASS_NONE);
}
END_TEST

Suite *suite_mchan_groups(void)
{
	Suite *s = suite_create("mchan_groups");
	TCase *tc = tcase_create("adapter");

	tcase_add_unchecked_fixture(tc, rt_setup, rt_teardown);
	tcase_add_loop_test(tc, test_fixed_clean, 0, 2);
	tcase_add_test(tc, test_push_latest_early);
	suite_add_tcase(s, tc);
	return s;
}
