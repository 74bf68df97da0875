// SPDX-License-Identifier: MIT
/*
 * The oracles on the real mchan and idma engines, driven through the
 * transfer adapter (as generated code does) and through the engines' own
 * API: every policy runs clean, and each L2<->L1 bug switch and each
 * misuse is caught with the right class (mchan-len-overflow:
 * cmd.encoding; mchan-tid-leak: handle.leak when the TIDs run out;
 * idma-no-dummy: dma.hang; a double free or an out-of-range TID, and a
 * wait on a txid never issued: handle.stale). A tcase of
 * suite_oracle_engines().
 */
#include "oracle_engines.h"

#define BIG (1u << 17)                /* the first size 17 bits miss */

/* A run of every oracle on the real engines, with @bugs. */
static void start_real(uint32_t bugs, uint32_t bandwidth, uint32_t bound)
{
	struct dfz_rt_config cfg = {
		.latency = 1, .bandwidth = bandwidth, .wait_bound = bound,
		.bugs = bugs,
	};

	if (!set)
		ck_assert_int_eq(dfz_oracles_create(DFZ_ORACLES_ALL, &set), 0);
	cfg.obs = dfz_oracles_observer(set);
	ck_assert_int_eq(dfz_rt_reset(rt, &cfg), 0);
	dfz_oracles_reset(set, rt);
}

static struct dfz_adapter adapter(unsigned engine, unsigned policy)
{
	struct dfz_adapter ad = {
		.rt = rt, .engine = (uint8_t)engine, .policy = (uint8_t)policy,
		.pool_k = 2, .req_level = DFZ_L1,
	};

	return ad;
}

/* A rank-3 tile of 4 x 6 x 8 bytes, gaps on the L2 side. */
static struct dfz_xfer tile(uint32_t l2, uint32_t l1, int ext2loc)
{
	struct dfz_xfer x = {
		.rank = 3, .elem = 1, .ext2loc = (uint8_t)ext2loc,
		.ext_level = DFZ_L2, .loc_level = DFZ_L1,
		.ext_off = l2, .loc_off = l1,
		.shape = { 4, 6, 8 },
		.ext_stride = { 1024, 64, 1 }, .loc_stride = { 48, 8, 1 },
	};

	return x;
}

/* Load a tile, wait, store it elsewhere, wait: with every oracle. */
static int load_store(unsigned engine, unsigned policy)
{
	struct dfz_adapter ad = adapter(engine, policy);
	uint32_t in = alloc_at(DFZ_L2, 4096), out = alloc_at(DFZ_L2, 4096);
	uint32_t buf = alloc_at(DFZ_L1, 192);
	struct dfz_xfer ld = tile(in, buf, 1), st = tile(out, buf, 0);
	struct dfz_handle h;
	int rc;

	ck_assert_int_eq(dfz_handle_init(&ad, &h), 0);
	rc = dfz_xfer_issue(&ad, &ld, &h);
	if (rc == 0)
		rc = dfz_handle_wait(&ad, &h);
	if (rc == 0)
		rc = dfz_xfer_issue(&ad, &st, &h);
	if (rc == 0)
		rc = dfz_handle_wait(&ad, &h);
	dfz_handle_fini(&ad, &h);
	return rc;
}

/* ---------------------------------------------------------------- mchan */

START_TEST(test_real_clean)
{
	unsigned engine = _i < DFZ_POLICY_COUNT ? MCHAN : IDMA;

	start_real(0, 16, 1000);
	ck_assert_int_eq(load_store(engine, (unsigned)_i % DFZ_POLICY_COUNT),
			 0);
	ck_assert_int_gt(set->nissue, 4);
	ck_class(DFZ_CLASS_NONE);
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);
}
END_TEST

/* One 2^17-byte transfer: split by the guard, or (the switch) pushed
 * whole with its length in the direction bit. Loop: direction, switch. */
START_TEST(test_real_len_overflow)
{
	int ext2loc = _i % 2;
	bool bug = _i >= 2;
	struct dfz_adapter ad = adapter(MCHAN, DFZ_POLICY_ASYNC_SHARED);
	struct dfz_xfer x = { .rank = 1, .elem = 1, .ext2loc = (uint8_t)ext2loc,
			      .ext_level = DFZ_L2, .loc_level = DFZ_L1,
			      .shape = { BIG }, .ext_stride = { 1 },
			      .loc_stride = { 1 } };
	struct dfz_handle h;

	start_real(bug ? DFZ_BUG_BIT(MCHAN_LEN_OVERFLOW) : 0, 4096, 1000);
	x.ext_off = alloc_at(DFZ_L2, BIG);
	x.loc_off = alloc_at(DFZ_L1, BIG);
	ck_assert_int_eq(dfz_handle_init(&ad, &h), 0);
	ck_assert_int_eq(dfz_xfer_issue(&ad, &x, &h), 0);
	if (bug) {
		ck_class(DFZ_CLASS_CMD_ENCODING);
		ck_msg_has("encodes a 0-byte ");
		ck_msg_has(ext2loc ? "(expected 131072 bytes;" :
			   "L2->L1 transfer (expected 131072 bytes L1->L2;");
		ck_assert_int_eq(set->finding.ev.xfer, 0);
	}
	ck_assert_int_eq(dfz_handle_wait(&ad, &h), 0);
	dfz_handle_fini(&ad, &h);
	dfz_oracles_end(set);
	ck_class(bug ? DFZ_CLASS_CMD_ENCODING : DFZ_CLASS_NONE);
}
END_TEST

/* Handle after handle, each waited: with mchan-tid-leak the TIDs are
 * never freed and the 17th allocation fails; the leak is named there. */
START_TEST(test_real_tid_leak)
{
	bool bug = _i == 1;
	uint32_t in, buf;
	int k, rc = 0;

	start_real(bug ? DFZ_BUG_BIT(MCHAN_TID_LEAK) : 0, 64, 1000);
	in = alloc_at(DFZ_L2, 4096);
	buf = alloc_at(DFZ_L1, 192);
	for (k = 0; k < 20 && rc == 0; k++) {
		struct dfz_adapter ad = adapter(MCHAN, DFZ_POLICY_WAIT_EACH);
		struct dfz_xfer x = tile(in, buf, 1);
		struct dfz_handle h;

		ck_assert_int_eq(dfz_handle_init(&ad, &h), 0);
		rc = dfz_xfer_issue(&ad, &x, &h);
		if (rc == 0)
			rc = dfz_handle_wait(&ad, &h);
		dfz_handle_fini(&ad, &h);
	}
	if (bug) {
		ck_assert_int_eq(rc, DFZ_EBUSY);
		ck_class(DFZ_CLASS_HANDLE_LEAK);
		ck_msg_has("TIDs 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15 were "
			   "waited and never freed (TID 0 allocated at step 0");
		return;
	}
	ck_assert_int_eq(rc, 0);
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);
}
END_TEST

/* The engine's own API: a double free and a wait above 15 return
 * silently, as on hardware; the oracle names them. */
START_TEST(test_real_tid_misuse)
{
	struct dfz_mchan *m;
	struct dfz_mchan_transfer t = { 0 };
	int tid;

	start_real(0, 64, 1000);
	m = dfz_mchan_get(rt);
	t.size = 64;
	t.cmd = dfz_mchan_cmd(64, 1, 1, 0, 0, 0, 1, 0);
	t.ext = dfz_mem_ptr(rt, DFZ_L2, alloc_at(DFZ_L2, 64));
	t.loc = dfz_mem_ptr(rt, DFZ_L1, alloc_at(DFZ_L1, 64));
	tid = dfz_mchan_transfer_get_id(m);
	ck_assert_int_eq(tid, 0);
	ck_assert_int_eq(dfz_mchan_transfer_push_1d(m, tid, t), 0);
	ck_assert_int_eq(dfz_mchan_transfer_wait(m, tid), 0);
	ck_assert_int_eq(dfz_mchan_transfer_free(m, tid), 0);
	ck_class(DFZ_CLASS_NONE);
	ck_assert_int_eq(dfz_mchan_transfer_free(m, tid), 0);
	ck_class(DFZ_CLASS_HANDLE_STALE);
	ck_msg_has("free of TID 0 that is already free (freed at step");

	start_real(0, 64, 1000);
	m = dfz_mchan_get(rt);
	ck_assert_int_eq(dfz_mchan_transfer_wait(m, 16), 0);
	ck_class(DFZ_CLASS_HANDLE_STALE);
	ck_msg_has("wait on TID 16, out of range");
}
END_TEST

/* A push whose L1 side runs past the usable L1: the engine faults, and
 * the message names the address from the arena, the same in every run. */
START_TEST(test_real_fault)
{
	struct dfz_rt_config cfg = { .latency = 1, .bandwidth = 64,
				     .wait_bound = 1000 };
	struct dfz_mchan_transfer t = { 0 };
	struct dfz_mchan *m;
	int tid;

	start_real(0, 64, 1000);
	cfg.mem_size[DFZ_L1] = 65536;
	cfg.obs = dfz_oracles_observer(set);
	ck_assert_int_eq(dfz_rt_reset(rt, &cfg), 0);
	dfz_oracles_reset(set, rt);
	m = dfz_mchan_get(rt);
	t.size = 64;
	t.cmd = dfz_mchan_cmd(64, 1, 1, 0, 0, 0, 1, 0);
	t.ext = dfz_mem_ptr(rt, DFZ_L2, alloc_at(DFZ_L2, 64));
	t.loc = dfz_mem_ptr(rt, DFZ_L1, 0) + 65536 + 64;
	tid = dfz_mchan_transfer_get_id(m);
	ck_assert_int_eq(dfz_mchan_transfer_push_1d(m, tid, t), 0);
	dfz_mchan_transfer_wait(m, tid);
	ck_class(DFZ_CLASS_CRASH);
	ck_msg_has("engine bus fault at L1+0x10040 while serving TID 0");
	ck_assert_int_eq(set->finding.ev.level, DFZ_L1);
	ck_assert_int_eq(set->finding.ev.off, 0x10040);
}
END_TEST

/* ----------------------------------------------------------------- idma */

/* idma-no-dummy: the wait on the last copy hangs. */
START_TEST(test_real_no_dummy)
{
	start_real(DFZ_BUG_BIT(IDMA_NO_DUMMY), 16, 200);
	ck_assert_int_eq(load_store(IDMA, (unsigned)_i), DFZ_EHANG);
	ck_class(DFZ_CLASS_DMA_HANG);
	ck_msg_has("did not complete within");
	ck_msg_has("wait on txid ");
}
END_TEST

/* The engine's own API: the lag covers the copy before the last; a wait
 * on a txid never issued, and a last copy nobody waited, are named. */
START_TEST(test_real_txid)
{
	struct dfz_idma *d;
	uint8_t *a, *b;

	start_real(0, 64, 200);
	d = dfz_idma_get(rt);
	a = dfz_mem_ptr(rt, DFZ_L2, alloc_at(DFZ_L2, 64));
	b = dfz_mem_ptr(rt, DFZ_L1, alloc_at(DFZ_L1, 64));
	ck_assert_int_eq(dfz_idma_start_1d(d, b, a, 32), 1);
	ck_assert_int_eq(dfz_idma_start_1d(d, b + 32, a + 32, 32), 2);
	ck_assert_int_eq(dfz_idma_wait(d, 1), 0);   /* 2 done as well */
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);

	start_real(0, 64, 200);
	d = dfz_idma_get(rt);
	a = dfz_mem_ptr(rt, DFZ_L2, alloc_at(DFZ_L2, 64));
	b = dfz_mem_ptr(rt, DFZ_L1, alloc_at(DFZ_L1, 64));
	ck_assert_int_eq(dfz_idma_start_1d(d, b, a, 32), 1);
	ck_assert_int_eq(dfz_idma_wait(d, 7), DFZ_EHANG);
	ck_class(DFZ_CLASS_HANDLE_STALE);          /* before the hang */
	ck_msg_has("wait on txid 7, only 1 issued");

	start_real(0, 64, 200);
	d = dfz_idma_get(rt);
	a = dfz_mem_ptr(rt, DFZ_L2, alloc_at(DFZ_L2, 64));
	b = dfz_mem_ptr(rt, DFZ_L1, alloc_at(DFZ_L1, 64));
	ck_assert_int_eq(dfz_idma_start_1d(d, b, a, 16), 1);
	ck_assert_int_eq(dfz_idma_start_1d(d, b + 16, a + 16, 16), 2);
	ck_assert_int_eq(dfz_idma_start_1d(d, b + 32, a + 32, 16), 3);
	ck_assert_int_eq(dfz_idma_wait(d, 1), 0);
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_HANDLE_LEAK);
	ck_msg_has("txid 3 issued at step");
}
END_TEST

TCase *tcase_oracle_engines_real(void)
{
	TCase *tc = tcase_create("real");

	tcase_add_unchecked_fixture(tc, rt_setup, rt_teardown);
	tcase_add_loop_test(tc, test_real_clean, 0, 2 * DFZ_POLICY_COUNT);
	tcase_add_loop_test(tc, test_real_len_overflow, 0, 4);
	tcase_add_loop_test(tc, test_real_tid_leak, 0, 2);
	tcase_add_test(tc, test_real_tid_misuse);
	tcase_add_test(tc, test_real_fault);
	tcase_add_loop_test(tc, test_real_no_dummy, 0, DFZ_POLICY_COUNT);
	tcase_add_test(tc, test_real_txid);
	return tc;
}
