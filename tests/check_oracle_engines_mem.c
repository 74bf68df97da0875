// SPDX-License-Identifier: MIT
/*
 * Unit tests of the memory-side oracles on the L2<->L1 engines, with
 * synthetic events: moves judged against the transfers pending on their
 * (engine, id) (desc.clobbered), hazards retired by TID and txid waits
 * (hazard.read-before-wait, hazard.race, the ordered idma writes of the
 * dummy transfers), and the ram-only oracles staying quiet on these
 * engines. A tcase of suite_oracle_engines().
 */
#include "oracle_engines.h"

/* ---------------------------------------------------------------- desc */

/* Moves of shared TIDs and of txids, inside what is pending on them. */
START_TEST(test_desc_ids_clean)
{
	struct dfz_span a2 = { DFZ_L2, 0x100, 16 }, a1 = { DFZ_L1, 0x40, 16 };
	struct dfz_span b2 = { DFZ_L2, 0x210, 8 }, b1 = { DFZ_L1, 0x88, 8 };
	struct dfz_event svc = { .kind = DFZ_EV_SERVICE, .engine = MCHAN,
				 .id = 0 };

	start(DFZ_ORACLES_ALL);
	tid_alloc(0, 1);
	push(0, 0x100, 0x40, 16, 2);
	issue(MCHAN, 0, d2(0x200, 0x80, 24, 8, 16, 1), 3);
	feed(&svc);                  /* a zeroed desc: not compared */
	move(MCHAN, 0, b2, b1);      /* the second push, second line */
	move(MCHAN, 0, a2, a1);      /* then the first */
	move(MCHAN, 0, b2, b1);
	wait_ok(MCHAN, 0, 4);
	issue(IDMA, 1, d1(0x300, 0x200, 32, 0), 5);
	move(IDMA, 1, (struct dfz_span){ DFZ_L1, 0x200, 32 },
	     (struct dfz_span){ DFZ_L2, 0x300, 32 });
	move(IDMA, 9, a1, a1);       /* never issued: nothing to judge */
	wait_ok(IDMA, 1, 6);
	tid_free(0, 7);
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);
}
END_TEST

/* Sabotage: moves outside every transfer pending on their id. */
START_TEST(test_desc_ids_outside)
{
	struct dfz_span in2 = { DFZ_L2, 0x100, 16 }, in1 = { DFZ_L1, 0x40, 16 };

	start(1u << DFZ_ORACLE_DESC);
	push(0, 0x100, 0x40, 16, 2);
	push(0, 0x200, 0x80, 16, 3);
	move(MCHAN, 0, (struct dfz_span){ DFZ_L2, 0x1f8, 16 }, in1);
	ck_class(DFZ_CLASS_DESC_CLOBBERED);
	ck_msg_has("TID 0 moved L2[0x1f8+16], outside the external "
		   "footprint issued at step 2");  /* the oldest push */

	start(1u << DFZ_ORACLE_DESC);
	push(0, 0x100, 0x40, 16, 2);
	push(1, 0x200, 0x80, 16, 3);
	move(MCHAN, 1, in2, (struct dfz_span){ DFZ_L1, 0x80, 16 });
	ck_class(DFZ_CLASS_DESC_CLOBBERED);  /* TID 0's bytes under TID 1 */
	ck_msg_has("TID 1 moved L2[0x100+16]");

	start(1u << DFZ_ORACLE_DESC);
	issue(IDMA, 1, d1(0x100, 0x40, 16, 1), 2);
	issue(IDMA, 2, d1(0x200, 0x80, 16, 1), 3);
	move(IDMA, 2, (struct dfz_span){ DFZ_L2, 0x200, 16 },
	     (struct dfz_span){ DFZ_L1, 0x84, 16 });
	ck_class(DFZ_CLASS_DESC_CLOBBERED);
	ck_msg_has("txid 2 moved L1[0x84+16], outside the local footprint "
		   "issued at step 3");
	ck_assert_int_eq(set->finding.ev.xfer, 1);
}
END_TEST

/* A wait retires what it covers: later moves of it are not judged, and
 * a wait on txid t keeps the transfers after t + 1. */
START_TEST(test_desc_ids_retire)
{
	struct dfz_span far2 = { DFZ_L2, 0x900, 16 };
	struct dfz_span far1 = { DFZ_L1, 0x900, 16 };

	start(1u << DFZ_ORACLE_DESC);
	issue(IDMA, 1, d1(0x100, 0x40, 16, 1), 1);
	issue(IDMA, 2, d1(0x200, 0x80, 16, 1), 2);
	issue(IDMA, 3, d1(0x300, 0xc0, 16, 1), 2);
	wait_ok(IDMA, 1, 3);
	move(IDMA, 1, far2, far1);
	move(IDMA, 2, far2, far1);
	ck_class(DFZ_CLASS_NONE);
	move(IDMA, 3, far2, far1);
	ck_class(DFZ_CLASS_DESC_CLOBBERED);
}
END_TEST

/* -------------------------------------------------------------- hazard */

/* Two pushes share TID 0; its wait retires both. */
START_TEST(test_hazard_tid_clean)
{
	start(DFZ_ORACLES_ALL);
	tid_alloc(0, 1);
	tid_alloc(1, 1);
	push(0, 0x100, 0x40, 32, 2);
	push(0, 0x200, 0x80, 32, 3);
	push(1, 0x300, 0xc0, 32, 3);
	wait_ok(MCHAN, 0, 4);
	cread(0x40, 32);
	cread(0x80, 32);
	wait_ok(MCHAN, 1, 5);
	cread(0xc0, 32);
	tid_free(0, 6);
	tid_free(1, 6);
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);
}
END_TEST

/* Sabotage: a wait on TID 0 does not cover TID 1's push; two TIDs load
 * the same bytes. */
START_TEST(test_hazard_tid_sabotage)
{
	start(DFZ_ORACLES_ALL);
	tid_alloc(0, 1);
	tid_alloc(1, 1);
	push(0, 0x100, 0x40, 32, 2);
	push(1, 0x200, 0x80, 32, 3);
	wait_ok(MCHAN, 0, 4);
	cread(0x40, 32);
	ck_class(DFZ_CLASS_NONE);
	cread(0x90, 4);
	ck_class(DFZ_CLASS_HAZARD_RBW);
	ck_msg_has("compute reads L1[0x90] before the wait of transfer #1 "
		   "(TID 1, issued step 3, not waited)");

	start(DFZ_ORACLES_ALL);
	tid_alloc(0, 1);
	tid_alloc(1, 1);
	push(0, 0x100, 0x40, 32, 2);
	push(1, 0x200, 0x50, 32, 3);
	ck_class(DFZ_CLASS_HAZARD_RACE);
	ck_msg_has("transfer #1 writes L1[0x50] while transfer #0 (TID 0");
}
END_TEST

/* wait(t) retires every txid <= t + 1 (the lag); wait_all the rest. */
START_TEST(test_hazard_txid)
{
	start(DFZ_ORACLES_ALL);
	issue(IDMA, 1, d1(0x100, 0x40, 32, 1), 1);
	issue(IDMA, 2, d1(0x200, 0x80, 32, 1), 2);
	issue(IDMA, 3, d1(0x300, 0xc0, 32, 1), 3);
	issue(IDMA, 4, d1(0x400, 0x100, 32, 1), 3);
	wait_ok(IDMA, 2, 4);
	cread(0x40, 32);
	cread(0x80, 32);
	cread(0xc0, 32);
	ck_class(DFZ_CLASS_NONE);
	wait_ok(IDMA, -1, 5);
	cread(0x100, 32);
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);

	start(DFZ_ORACLES_ALL);              /* sabotage: read txid 4's */
	issue(IDMA, 1, d1(0x100, 0x40, 32, 1), 1);
	issue(IDMA, 2, d1(0x200, 0x80, 32, 1), 2);
	issue(IDMA, 3, d1(0x300, 0xc0, 32, 1), 3);
	issue(IDMA, 4, d1(0x400, 0x100, 32, 1), 3);
	wait_ok(IDMA, 2, 4);
	cread(0x104, 1);
	ck_class(DFZ_CLASS_HAZARD_RBW);
	ck_msg_has("before the wait of transfer #3 (txid 4, issued step 3");

	start(DFZ_ORACLES_ALL);              /* sabotage: waits that prove */
	issue(IDMA, 1, d1(0x100, 0x40, 32, 1), 1);   /* nothing */
	issue(IDMA, 2, d1(0x200, 0x80, 32, 1), 1);
	wait_rc(IDMA, -1, DFZ_EHANG, 4);
	wait_ok(IDMA, 0, 5);
	cread(0x40, 1);
	ck_class(DFZ_CLASS_HAZARD_RBW);
}
END_TEST

/* The adapter's pattern on idma: every copy followed by a 1-byte dummy
 * between the same two scratch bytes, double buffered. The dummies write
 * the same byte while pending, in order on one queue: not a race. */
START_TEST(test_hazard_txid_dummies)
{
	int64_t t = 1;
	unsigned k;

	start(DFZ_ORACLES_ALL);
	issue(IDMA, t++, d1(0x100, 0x40, 32, 1), 1);     /* tile 0 */
	issue(IDMA, t++, d1(0x800, 0x400, 1, 1), 1);      /* dummy */
	for (k = 0; k < 4; k++) {
		uint32_t nxt = 0x40 + 0x40 * ((k + 1) % 2);
		uint32_t cur = 0x40 + 0x40 * (k % 2);

		if (k + 1 < 4) {
			issue(IDMA, t++, d1(0x100 + 32 * (k + 1), nxt, 32, 1),
			      2);
			issue(IDMA, t++, d1(0x800, 0x400, 1, 1), 2);
		}
		wait_ok(IDMA, 2 * (int64_t)k + 1, 3);       /* tile k's copy */
		cread(cur, 32);
	}
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);
}
END_TEST

/* Sabotage: ordering does not cover reads: an idma store reading bytes a
 * pending idma load writes, and an mchan load writing bytes a pending idma
 * load writes, race. */
START_TEST(test_hazard_txid_order_limits)
{
	start(DFZ_ORACLES_ALL);
	issue(IDMA, 1, d1(0x100, 0x40, 32, 1), 1);
	issue(IDMA, 2, d1(0x200, 0x50, 8, 0), 2);
	ck_class(DFZ_CLASS_HAZARD_RACE);
	ck_msg_has("transfer #1 reads L1[0x50] while transfer #0 (txid 1");

	start(DFZ_ORACLES_ALL);
	issue(IDMA, 1, d1(0x100, 0x40, 32, 1), 1);
	tid_alloc(0, 2);
	push(0, 0x200, 0x50, 8, 2);
	ck_class(DFZ_CLASS_HAZARD_RACE);
	ck_msg_has("transfer #1 writes L1[0x50] while transfer #0 (txid 1");
}
END_TEST

/* More pushes than desc tracks: the moves of the untracked ones (and,
 * for the rest of the run, any move that matches nothing) are not judged;
 * the next run judges again. */
START_TEST(test_desc_ids_overflow)
{
	struct dfz_span out2 = { DFZ_L2, 0x9000, 1 }, l1 = { DFZ_L1, 0x40, 1 };
	uint32_t k;

	start(1u << DFZ_ORACLE_DESC);
	for (k = 0; k < 5000; k++)           /* above the table's 4096 */
		push(0, 0x100 + k, 0x40 + k, 1, 1);
	move(MCHAN, 0, (struct dfz_span){ DFZ_L2, 0x100 + 4999, 1 },
	     (struct dfz_span){ DFZ_L1, 0x40 + 4999, 1 });
	move(MCHAN, 0, out2, l1);
	ck_class(DFZ_CLASS_NONE);

	start(1u << DFZ_ORACLE_DESC);
	push(0, 0x100, 0x40, 1, 1);
	move(MCHAN, 0, out2, l1);
	ck_class(DFZ_CLASS_DESC_CLOBBERED);
}
END_TEST

/* ----------------------------------------- ram oracles stay on ram */

/* Request-keyed oracles ignore mchan/idma events that carry request
 * storage: one storage address for many pushes and waits is legal. */
START_TEST(test_ram_oracles_ignore_ids)
{
	static uint8_t storage;
	struct dfz_event ev = { .kind = DFZ_EV_ISSUE, .engine = MCHAN,
				.handle = &storage, .id = 0 };
	struct dfz_event done = { .kind = DFZ_EV_COMPLETE, .engine = MCHAN,
				  .handle = &storage, .id = 0 };

	start(DFZ_ORACLES_ALL);
	tid_alloc(0, 1);
	ev.desc = d1(0x100, 0x40, 16, 1);
	ev.aux = word(&ev.desc);
	feed(&ev);
	ev.desc = d1(0x200, 0x80, 16, 1);
	ev.aux = word(&ev.desc);
	feed(&ev);                   /* not handle.reuse */
	feed(&done);                 /* no queue walk on mchan */
	ev.engine = IDMA;
	ev.id = 1;
	ev.desc = d1(0x300, 0xc0, 16, 1);
	feed(&ev);
	ev_id(DFZ_EV_WAIT, IDMA, 1, 0, 2);
	ev_id(DFZ_EV_WAITED, IDMA, 1, 0, 2);  /* not handle.stale */
	wait_ok(MCHAN, 0, 3);
	tid_free(0, 4);
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);
}
END_TEST

TCase *tcase_oracle_engines_mem(void)
{
	TCase *tc = tcase_create("synthetic_mem");

	tcase_add_unchecked_fixture(tc, rt_setup, rt_teardown);
	tcase_add_test(tc, test_desc_ids_clean);
	tcase_add_test(tc, test_desc_ids_outside);
	tcase_add_test(tc, test_desc_ids_retire);
	tcase_add_test(tc, test_desc_ids_overflow);
	tcase_add_test(tc, test_hazard_tid_clean);
	tcase_add_test(tc, test_hazard_tid_sabotage);
	tcase_add_test(tc, test_hazard_txid);
	tcase_add_test(tc, test_hazard_txid_dummies);
	tcase_add_test(tc, test_hazard_txid_order_limits);
	tcase_add_test(tc, test_ram_oracles_ignore_ids);
	return tc;
}
