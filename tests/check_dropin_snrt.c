// SPDX-License-Identifier: MIT
/*
 * The Snitch runtime's names under the drop-in: SPMD code on 8 compute
 * cores and a data-mover core, the DMA's starts and waits on the idma
 * engine as the runtime version (snrt-pinned / snrt-head) and the
 * hardware (idma-zero-work-retires, idma-id-at-push) do them, and findings
 * at the user's line: the pinned wait on the last id hangs, Deeploy's
 * dummy works around it only while zero-work transfers retire in order,
 * and ids handed out at the push repeat behind a long 2-D transfer.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "dropin_fixture.h"
#include "dmafuzz/dropin/snrt.h"

static int want_line;
static uint32_t seen[DFZ_SNRT_CORES];
static uint32_t got;

/* ------------------------------------------------------------------ SPMD */

static volatile uint32_t arrived;

static void spmd_ids(void *arg)
{
	uint32_t me = snrt_cluster_core_idx();

	(void)arg;
	__atomic_fetch_add(&arrived, 1, __ATOMIC_RELAXED);
	snrt_cluster_hw_barrier();
	/* Every core passed the barrier only after all arrived. */
	seen[me] = arrived | (uint32_t)snrt_is_dm_core() << 8 |
		   (uint32_t)snrt_is_compute_core() << 9;
}

static void body_ids(void *arg)
{
	(void)arg;
	arrived = 0;
	memset(seen, 0, sizeof(seen));
	dfz_snrt_spmd(spmd_ids, NULL);
}

START_TEST(test_spmd_cores)
{
	ck_assert_int_eq(run_with(body_ids, "").finding.cls, DFZ_CLASS_NONE);
	for (unsigned i = 0; i < DFZ_SNRT_COMPUTE_CORES; i++)
		ck_assert_uint_eq(seen[i], 9u | 1u << 9);
	ck_assert_uint_eq(seen[8], 9u | 1u << 8);
	ck_assert_uint_eq(snrt_cluster_core_num(), 9);
	ck_assert_uint_eq(snrt_cluster_compute_core_num(), 8);
}
END_TEST

/* A compute core that returns without the cluster barrier: the others
 * wait at it for ever. */
static void spmd_missing_barrier(void *arg)
{
	(void)arg;
	if (snrt_cluster_core_idx() == 3)
		return;
	snrt_cluster_hw_barrier();
}

static void body_missing_barrier(void *arg)
{
	(void)arg;
	want_line = __LINE__ + 1;
	dfz_snrt_spmd(spmd_missing_barrier, NULL);
}

START_TEST(test_spmd_barrier_hang)
{
	struct dfz__result r = run_with(body_missing_barrier, "");

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_DMA_HANG);
	ck_assert_int_eq(r.site.line, want_line);
}
END_TEST

/* ------------------------------------------------------ the lag (pinned) */

static uint8_t *m_l3, *m_l1;

static void setup_bufs(void)
{
	m_l3 = snrt_l3alloc(256);
	m_l1 = snrt_l1alloc(256);
	fill(m_l3, 256);
}

/* One 1-D load, its wait: the pinned wait needs a later retirement. */
static void dm_last_id(void *arg)
{
	(void)arg;
	if (snrt_is_dm_core()) {
		snrt_dma_txid_t t = snrt_dma_start_1d(m_l1, m_l3, 64);

		want_line = __LINE__ + 1;
		snrt_dma_wait(t);
		got = !memcmp(m_l1, m_l3, 64);
	}
	snrt_cluster_hw_barrier();
}

static void body_last_id(void *arg)
{
	(void)arg;
	setup_bufs();
	got = 0;
	dfz_snrt_spmd(dm_last_id, NULL);
}

START_TEST(test_pinned_last_id_hangs)
{
	struct dfz__result r = run_with(body_last_id, "snrt-pinned");

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_DMA_HANG);
	ck_assert_int_eq(r.site.line, want_line);
	r = run_with(body_last_id, "snrt-head");
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
	ck_assert_uint_eq(got, 1);
}
END_TEST

/*
 * Deeploy's dummy after each copy: in order (no zero-work retirement) one
 * dummy makes the pinned wait exact; a zero-work dummy that retires when
 * accepted is counted while the copy may still be in flight, and with two
 * copies outstanding the wait on the first returns early.
 */
static void dm_two_with_dummies(void *arg)
{
	(void)arg;
	if (snrt_is_dm_core()) {
		snrt_dma_txid_t a, b;

		a = snrt_dma_start_2d(m_l1, m_l3, 32, 32, 32, 2);
		snrt_dma_start_2d(m_l1, m_l1, 1, 0, 0, 0);
		b = snrt_dma_start_2d(m_l1 + 64, m_l3 + 64, 32, 32, 32, 2);
		snrt_dma_start_2d(m_l1 + 64, m_l1 + 64, 1, 0, 0, 0);
		want_line = __LINE__ + 1;
		snrt_dma_wait(a);
		got = !memcmp(m_l1, m_l3, 64);
		snrt_dma_wait(b);
	}
	snrt_cluster_hw_barrier();
}

static void body_two_with_dummies(void *arg)
{
	(void)arg;
	setup_bufs();
	got = 0;
	dfz_snrt_spmd(dm_two_with_dummies, NULL);
}

START_TEST(test_dummies_in_order)
{
	struct dfz__result r = run_with(body_two_with_dummies,
					"snrt-pinned,no-idma-zero-work-retires,"
					"no-idma-id-at-push");

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
	ck_assert_uint_eq(got, 1);
	ck_assert_uint_eq(r.xfers, 4);
}
END_TEST

START_TEST(test_dummies_zero_work_retires)
{
	struct dfz__result r = run_with(body_two_with_dummies,
					"snrt-pinned,idma-zero-work-retires,"
					"no-idma-id-at-push");

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_DMA_EARLY_WAIT);
	ck_assert_int_eq(r.site.line, want_line);
	ck_assert_ptr_nonnull(r.prior.file);
	ck_assert_int_lt(r.prior.line, want_line);
	ck_assert_uint_eq(got, 0); /* the bytes had not landed */
	/* The verdict names the Snitch quirks in effect. */
	{
		char q[128];

		dfz__quirks_describe(r.quirks, r.apis, q, sizeof(q));
		ck_assert_str_eq(q, "snrt-pinned, idma-zero-work-retires, "
				 "no-idma-id-at-push");
	}
	ck_assert(dfz__quirks_default() &
		  (1u << DFZ_QUIRK_IDMA_ZERO_RETIRES));
}
END_TEST

/*
 * idma-id-at-push: two back-to-back 1-D loads behind a 2-D one of more
 * lines (32) than the backend accepts ahead (NumAxInFlight + 1 = 25) get
 * the 2-D one's id (the counter advances only when the midend pops a
 * request), so the wait on the second returns as the 2-D one retires,
 * with both loads in flight: dma.early-wait at that wait, its message
 * naming the quirk. With exact ids (off) the same code is clean.
 */
static snrt_dma_txid_t ids[3];
static uint32_t lines_2d = 32;   /* the 2-D transfer's lines, 128 bytes */

static void dm_behind_2d(void *arg)
{
	(void)arg;
	if (snrt_is_dm_core()) {
		ids[0] = snrt_dma_start_2d(m_l1, m_l3, 128 / lines_2d,
					   128 / lines_2d, 128 / lines_2d,
					   lines_2d);
		ids[1] = snrt_dma_start_1d(m_l1 + 128, m_l3 + 128, 32);
		ids[2] = snrt_dma_start_1d(m_l1 + 160, m_l3 + 160, 32);
		want_line = __LINE__ + 1;
		snrt_dma_wait(ids[2]);
		got = !memcmp(m_l1, m_l3, 192);
	}
	snrt_cluster_hw_barrier();
}

static void body_behind_2d(void *arg)
{
	(void)arg;
	setup_bufs();
	got = 0;
	memset(ids, 0, sizeof(ids));
	dfz_snrt_spmd(dm_behind_2d, NULL);
}

START_TEST(test_id_at_push_duplicates)
{
	struct dfz__result r = run_with(body_behind_2d, "snrt-head");
	char q[128];

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_DMA_EARLY_WAIT);
	ck_assert_int_eq(r.site.line, want_line);
	ck_assert_uint_eq(ids[0], 1);
	ck_assert_uint_eq(ids[1], 1);
	ck_assert_uint_eq(ids[2], 1);
	ck_assert_uint_eq(got, 0); /* the loads had not landed */
	ck_assert_ptr_nonnull(strstr(r.finding.msg, ", one of 3 given txid 1: "
				     "idma-id-at-push) was still in flight"));
	dfz__quirks_describe(r.quirks, r.apis, q, sizeof(q));
	ck_assert_str_eq(q, "snrt-head, idma-zero-work-retires, "
			 "idma-id-at-push");
	ck_assert(dfz__quirks_default() & (1u << DFZ_QUIRK_IDMA_ID_AT_PUSH));
	/* The pinned wait needs one more retirement: still early. */
	r = run_with(body_behind_2d, "snrt-pinned");
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_DMA_EARLY_WAIT);
	ck_assert_int_eq(r.site.line, want_line);
}
END_TEST

/* @r ran body_behind_2d clean, each start with its own id in order. */
static void assert_own_ids(const struct dfz__result *r)
{
	ck_assert_int_eq(r->finding.cls, DFZ_CLASS_NONE);
	ck_assert_uint_eq(ids[0], 1);
	ck_assert_uint_eq(ids[1], 2);
	ck_assert_uint_eq(ids[2], 3);
	ck_assert_uint_eq(got, 1);
}

START_TEST(test_exact_ids)
{
	struct dfz__result r = run_with(body_behind_2d,
					"snrt-head,no-idma-id-at-push");

	assert_own_ids(&r);
}
END_TEST

/*
 * The backend takes a 2-D transfer of 8 lines (16 bytes each) whole on
 * the idle engine, ahead of its data (its window: NumAxInFlight 24, plus
 * the line its legalizer holds), so the midend pops it at its push and
 * the loads behind it get their own ids under idma-id-at-push: clean,
 * as with exact ids.
 */
START_TEST(test_id_at_push_within_window)
{
	struct dfz__result r;

	lines_2d = 8;
	r = run_with(body_behind_2d, "snrt-head");
	lines_2d = 32;
	assert_own_ids(&r);
}
END_TEST

/* ------------------------------------------------------------- size 0 */

static void dm_size0(void *arg)
{
	(void)arg;
	if (snrt_is_dm_core())
		got = snrt_dma_start_1d(m_l1, m_l3, 0);
	snrt_cluster_hw_barrier();
	if (snrt_is_dm_core())
		snrt_dma_wait_all();
}

static void body_size0(void *arg)
{
	(void)arg;
	setup_bufs();
	dfz_snrt_spmd(dm_size0, NULL);
}

START_TEST(test_size0_start)
{
	struct dfz__result r = run_with(body_size0, "snrt-pinned");

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
	ck_assert_uint_eq(got, UINT32_MAX);   /* -1, nothing issued */
	ck_assert_uint_eq(r.xfers, 0);
	r = run_with(body_size0, "snrt-head");
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
	ck_assert_uint_eq(got, 1);
	ck_assert_uint_eq(r.xfers, 1);
}
END_TEST

/* A 7th argument, the later runtime's channel, is accepted. */
static void dm_channel(void *arg)
{
	(void)arg;
	if (snrt_is_dm_core()) {
		snrt_dma_txid_t t = snrt_dma_start_2d(m_l1, m_l3, 16, 16, 16, 4, 0);

		snrt_dma_start_1d(m_l1 + 128, m_l3 + 128, 16, 0);
		snrt_dma_wait(t);
		got = !memcmp(m_l1, m_l3, 64);
		snrt_dma_wait_all();
	}
	snrt_cluster_hw_barrier();
}

static void body_channel(void *arg)
{
	(void)arg;
	setup_bufs();
	got = 0;
	dfz_snrt_spmd(dm_channel, NULL);
}

START_TEST(test_channel_argument)
{
	struct dfz__result r = run_with(body_channel, "");

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
	ck_assert_uint_eq(got, 1);
}
END_TEST

/* A source on the host's heap: dma.bad-address at the start (a stack
 * array is chip memory now). */
static void body_bad_address(void *arg)
{
	uint8_t *host = malloc(64);

	(void)arg;
	setup_bufs();
	ck_assert_ptr_nonnull(host);
	memset(host, 1, 64);
	want_line = __LINE__ + 1;
	snrt_dma_start_1d(m_l1, host, 64);
	free(host);
}

START_TEST(test_bad_address)
{
	struct dfz__result r = run_with(body_bad_address, "");

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_DMA_BAD_ADDRESS);
	ck_assert_int_eq(r.site.line, want_line);
}
END_TEST

Suite *suite_dropin_snrt(void)
{
	Suite *s = suite_create("dropin_snrt");
	TCase *tc = tcase_create("snrt");

	tcase_add_test(tc, test_spmd_cores);
	tcase_add_test(tc, test_spmd_barrier_hang);
	tcase_add_test(tc, test_pinned_last_id_hangs);
	tcase_add_test(tc, test_dummies_in_order);
	tcase_add_test(tc, test_dummies_zero_work_retires);
	tcase_add_test(tc, test_id_at_push_duplicates);
	tcase_add_test(tc, test_exact_ids);
	tcase_add_test(tc, test_id_at_push_within_window);
	tcase_add_test(tc, test_size0_start);
	tcase_add_test(tc, test_channel_argument);
	tcase_add_test(tc, test_bad_address);
	suite_add_tcase(s, tc);
	return s;
}
