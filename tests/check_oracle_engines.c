// SPDX-License-Identifier: MIT
/*
 * Unit tests of the oracles on the L2<->L1 engines, with synthetic events
 * that follow the engines' event contract: the mchan command word
 * (cmd.encoding), the TID lifecycle and idma txid coverage (tid.c:
 * handle.stale, handle.leak, handle.reuse) and hangs named by TID and
 * txid. Each check has a clean case that stays clean and a sabotage that
 * fires with the right class. The suite also runs the tcases of
 * check_oracle_engines_mem.c (desc, hazard, the ram-only oracles) and
 * check_oracle_engines_real.c (the oracles on the real engines).
 */
#include "oracle_engines.h"

/* ------------------------------------------------------- cmd.encoding */

static const struct {
	struct dfz_desc d;
	uint32_t w;
} cmd_good[] = {
	{ { DFZ_L2, DFZ_L1, 1, 0, 0x100, 0x40, 64, 64, 64, 64 },
	  64 | W_DIR | W_INC },
	{ { DFZ_L2, DFZ_L1, 0, 0, 0x100, 0x40, 64, 64, 64, 64 }, 64 | W_INC },
	{ { DFZ_L2, DFZ_L1, 1, 1, 0x100, 0x40, 96, 32, 48, 32 },
	  96 | W_DIR | W_INC | W_2D },
	{ { DFZ_L2, DFZ_L1, 1, 0, 0x100, 0x40, 131071, 131071, 131071,
	    131071 }, 0x1ffff | W_DIR | W_INC | W_EVT | W_IRQ },
	{ { DFZ_L2, DFZ_L1, 0, 0, 0x100, 0x40, 0, 0, 0, 0 }, W_INC },
	/* a 2-D local side whose stride is its line: contiguous either way */
	{ { DFZ_L2, DFZ_L1, 1, 1, 0x100, 0x40, 96, 32, 48, 32 },
	  96 | W_DIR | W_INC | W_2D | W_2DLOC },
	{ { DFZ_L2, DFZ_L1, 1, 1, 0x100, 0x40, 96, 32, 48, 40 },
	  96 | W_DIR | W_INC | W_2D | W_2DLOC },
};

START_TEST(test_cmd_clean)
{
	start(DFZ_ORACLES_ALL);
	tid_alloc(0, 1);
	issue_w(MCHAN, 0, cmd_good[_i].d, cmd_good[_i].w, 2);
	ck_class(DFZ_CLASS_NONE);
	wait_ok(MCHAN, 0, 3);
	/* Other engines' aux is no command word. */
	issue_w(IDMA, 1, cmd_good[_i].d, 0xffffffffu, 3);
	ck_class(DFZ_CLASS_NONE);
}
END_TEST

static const struct {
	struct dfz_desc d;
	uint32_t w;
	const char *got;
	const char *exp;
} cmd_bad[] = {
	/* 2^17 stored: the length spills into the direction bit */
	{ { DFZ_L2, DFZ_L1, 0, 0, 0x100, 0x40, 131072, 131072, 131072,
	    131072 }, 0x20000 | W_INC,
	  "encodes a 0-byte L2->L1 transfer",
	  "(expected 131072 bytes L1->L2; 17 length bits" },
	/* 2^17 loaded: OR-ed into the set direction bit, only length */
	{ { DFZ_L2, DFZ_L1, 1, 0, 0x100, 0x40, 131072, 131072, 131072,
	    131072 }, 0x20000 | W_DIR | W_INC,
	  "encodes a 0-byte transfer", "(expected 131072 bytes;" },
	/* 2^19 + 5 loaded: the length spills into the 2-D bit */
	{ { DFZ_L2, DFZ_L1, 1, 0, 0x100, 0x40, 0x80005, 0x80005, 0x80005,
	    0x80005 }, 0x80005 | W_DIR | W_INC,
	  "encodes a 5-byte 2-D external transfer",
	  "(expected 524293 bytes 1-D external;" },
	{ { DFZ_L2, DFZ_L1, 1, 0, 0x100, 0x40, 64, 64, 64, 64 }, 64 | W_INC,
	  "encodes a L1->L2 transfer", "(expected L2->L1)" },
	{ { DFZ_L2, DFZ_L1, 1, 1, 0x100, 0x40, 96, 32, 48, 32 },
	  96 | W_DIR | W_INC, "encodes a 1-D external transfer",
	  "(expected 2-D external)" },
	{ { DFZ_L2, DFZ_L1, 1, 0, 0x100, 0x40, 64, 64, 64, 64 }, 64 | W_DIR,
	  "encodes a non-incrementing transfer", "(expected incrementing)" },
	{ { DFZ_L2, DFZ_L1, 1, 0, 0x100, 0x40, 64, 64, 64, 64 },
	  64 | W_DIR | W_INC | W_2DLOC, "encodes a 2-D local transfer",
	  "(expected contiguous local)" },
	{ { DFZ_L2, DFZ_L1, 1, 1, 0x100, 0x40, 96, 32, 48, 40 },
	  96 | W_DIR | W_INC | W_2D, "encodes a contiguous local transfer",
	  "(expected 2-D local)" },
	{ { DFZ_L2, DFZ_L1, 0, 0, 0x100, 0x40, 64, 64, 64, 64 },
	  64 | W_INC | W_BCAST, "encodes a broadcast transfer",
	  "(expected point-to-point)" },
	{ { DFZ_L2, DFZ_L1, 0, 0, 0x100, 0x40, 64, 64, 64, 64 },
	  64 | W_INC | (1u << 24) | (1u << 31),
	  "encodes a transfer with reserved bits 0x81000000 set",
	  "(expected reserved bits clear)" },
	/* every judged field wrong at once: each named, the message cut
	 * at DFZ_MSG_MAX */
	{ { DFZ_L2, DFZ_L1, 1, 1, 0x100, 0x40, 100000, 100, 200, 120 },
	  5 | W_BCAST | 0xff000000u,
	  "encodes a 5-byte L1->L2 1-D external non-incrementing contiguous "
	  "local broadcast transfer with reserved bits 0xff000000 set",
	  "(expected 100000 bytes L2->L1 2-D external incrementing 2-D local "
	  "point-to-point reserved bits clear)" },
};

START_TEST(test_cmd_sabotage)
{
	start(DFZ_ORACLES_ALL);
	tid_alloc(3, 1);
	issue_w(MCHAN, 3, cmd_bad[_i].d, cmd_bad[_i].w, 7);
	ck_class(DFZ_CLASS_CMD_ENCODING);
	ck_assert_str_eq(set->finding.oracle, "cmd");
	ck_msg_has("command word 0x");
	ck_msg_has(cmd_bad[_i].got);
	ck_msg_has(cmd_bad[_i].exp);
	if (strlen(set->finding.msg) < DFZ_MSG_MAX - 1)
		ck_msg_has("pushed on TID 3");
	ck_assert_int_eq(set->finding.ev.step, 7);
	ck_assert_int_eq(set->finding.ev.xfer, 0);
}
END_TEST

/* The 2-D words after the command word: each one that disagrees with the
 * request is named, and a 2-D flag without its words (line 0) is one. */
static const struct {
	uint32_t ext[2], loc[2];
	uint32_t w;
	const char *got;
	const char *exp;
} words_bad[] = {
	{ { 32, 64 }, { 0, 0 }, W_2D, "external stride 64",
	  "(expected external stride 48)" },
	{ { 48, 32 }, { 0, 0 }, W_2D, "external line 48 external stride 32",
	  "(expected external line 32 external stride 48)" },
	{ { 0, 0 }, { 0, 0 }, W_2D, "external line 0 external stride 0",
	  "(expected external line 32 external stride 48)" },
	{ { 32, 48 }, { 0, 40 }, W_2D | W_2DLOC, "local line 0",
	  "(expected a local line of 1 byte or more)" },
	{ { 32, 48 }, { 32, 36 }, W_2D | W_2DLOC, "local stride 36",
	  "(expected local stride 40)" },
};

START_TEST(test_cmd_2d_words)
{
	struct dfz_desc d = { DFZ_L2, DFZ_L1, 1, 1, 0x100, 0x40, 96, 32, 48,
			      40 };
	struct dfz_event ev = { .kind = DFZ_EV_ISSUE, .engine = MCHAN,
				.id = 2, .desc = d, .step = 4,
				.ext_2d = { 32, 48 }, .loc_2d = { 32, 40 } };

	ev.aux = 96 | W_DIR | W_INC | words_bad[_i].w;
	if (!(words_bad[_i].w & W_2DLOC))    /* a contiguous local side */
		ev.desc.loc_stride = ev.desc.length;
	start(DFZ_ORACLES_ALL);
	tid_alloc(2, 1);
	feed(&ev);                    /* the words of the request: clean */
	ck_class(DFZ_CLASS_NONE);
	memcpy(ev.ext_2d, words_bad[_i].ext, sizeof(ev.ext_2d));
	memcpy(ev.loc_2d, words_bad[_i].loc, sizeof(ev.loc_2d));
	feed(&ev);
	ck_class(DFZ_CLASS_CMD_ENCODING);
	ck_msg_has(words_bad[_i].got);
	ck_msg_has(words_bad[_i].exp);
}
END_TEST

/* The example of the design: a 2^17-byte load whose length spilled. */
START_TEST(test_cmd_message)
{
	struct dfz_desc d = d1(0x100, 0x40, 131072, 1);

	start(1u << DFZ_ORACLE_CMD);
	issue_w(MCHAN, 0, d, 0x00040000, 5);
	ck_class(DFZ_CLASS_CMD_ENCODING);
	ck_assert_str_eq(set->finding.msg,
			 "command word 0x00040000 encodes a 0-byte L1->L2 "
			 "transfer (expected 131072 bytes L2->L1; 17 length "
			 "bits hold at most 131071), pushed on TID 0");
}
END_TEST

/* The command word is judged at ISSUE, before desc sees its moves. */
START_TEST(test_cmd_before_desc)
{
	struct dfz_desc d = d1(0x100, 0x40, 131072, 1);
	struct dfz_span l1 = { DFZ_L1, 0x40, 64 }, l2 = { DFZ_L2, 0x100, 64 };

	ck_assert_int_lt(DFZ_ORACLE_CMD, DFZ_ORACLE_DESC);
	ck_assert_int_lt(DFZ_ORACLE_CMD, DFZ_ORACLE_HAZARD);
	start(DFZ_ORACLES_ALL);
	tid_alloc(0, 1);
	issue_w(MCHAN, 0, d, 0x20000 | W_INC, 2);  /* decodes as a store */
	move(MCHAN, 0, l1, l2);
	ck_class(DFZ_CLASS_CMD_ENCODING);

	start(1u << DFZ_ORACLE_DESC);            /* desc alone sees the move */
	issue_w(MCHAN, 0, d, 0x20000 | W_INC, 2);
	move(MCHAN, 0, l1, l2);
	ck_class(DFZ_CLASS_DESC_CLOBBERED);
	ck_msg_has("TID 0 moved L1[0x40+64], outside the external footprint");
}
END_TEST

/* --------------------------------------------------------- mchan TIDs */

/* TIDs shared by several pushes, reused after their free, and a full
 * table refused while every TID carries a transfer: all legal. */
START_TEST(test_tid_clean)
{
	int t;

	start(DFZ_ORACLES_ALL);
	tid_alloc(0, 1);
	push(0, 0x100, 0x40, 16, 2);
	push(0, 0x200, 0x80, 16, 3);
	push(0, 0x300, 0xc0, 16, 4);
	tid_alloc(1, 5);
	push(1, 0x400, 0x100, 16, 6);
	wait_ok(MCHAN, 0, 7);
	wait_ok(MCHAN, 1, 8);
	push(0, 0x100, 0x40, 16, 9);          /* again after its wait */
	wait_ok(MCHAN, 0, 10);
	tid_free(0, 11);
	tid_free(1, 12);
	for (t = 0; t < DFZ__MCHAN_TIDS; t++) {
		tid_alloc(t, 20 + (uint64_t)t);
		push(t, 0x1000 + 64 * (uint32_t)t, 64 * (uint32_t)t, 64, 40);
	}
	ev_id(DFZ_EV_ID_ALLOC, MCHAN, -1, DFZ_EBUSY, 41);
	ck_class(DFZ_CLASS_NONE);
	for (t = 0; t < DFZ__MCHAN_TIDS; t++) {
		wait_ok(MCHAN, t, 50);
		tid_free(t, 51);
	}
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);
}
END_TEST

/* Sabotage: push, wait and free on TIDs that are not allocated. */
static const struct {
	enum dfz_ev_kind kind;
	int64_t tid;
	const char *msg;
} tid_stale[] = {
	{ DFZ_EV_WAIT, 7,
	  "wait on TID 7 that was never allocated in this run" },
	{ DFZ_EV_ID_FREE, 3,
	  "free of TID 3 that is already free (freed at step 40)" },
	{ DFZ_EV_WAIT, 2,
	  "wait on TID 2 that is already free (freed at step 40)" },
	{ DFZ_EV_ISSUE, 2, "push on TID 2 that is already free" },
	{ DFZ_EV_ISSUE, 5, "push on TID 5 that was never allocated" },
	{ DFZ_EV_WAIT, 16,
	  "wait on TID 16, out of range (expected an allocated TID 0..15)" },
	{ DFZ_EV_ID_FREE, 17, "free of TID 17, out of range" },
	{ DFZ_EV_ISSUE, -1, "push on TID -1, out of range" },
};

START_TEST(test_tid_stale)
{
	start(DFZ_ORACLES_ALL);
	tid_alloc(2, 10);
	tid_alloc(3, 11);
	wait_ok(MCHAN, 2, 30);
	wait_ok(MCHAN, 3, 30);
	tid_free(2, 40);
	tid_free(3, 40);
	ck_class(DFZ_CLASS_NONE);
	if (tid_stale[_i].kind == DFZ_EV_ISSUE)
		push(tid_stale[_i].tid, 0x100, 0x40, 8, 50);
	else
		ev_id(tid_stale[_i].kind, MCHAN, tid_stale[_i].tid, 0, 50);
	ck_class(DFZ_CLASS_HANDLE_STALE);
	ck_assert_str_eq(set->finding.oracle, "tid");
	ck_msg_has(tid_stale[_i].msg);
	ck_assert_int_eq(set->finding.ev.step, 50);
}
END_TEST

/* Sabotage: the mchan-tid-leak signature, seen at the end of the run. */
START_TEST(test_tid_leak_end)
{
	start(DFZ_ORACLES_ALL);
	tid_alloc(2, 5);
	push(2, 0x100, 0x40, 8, 6);
	wait_ok(MCHAN, 2, 30);
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_HANDLE_LEAK);
	ck_msg_has("TID 2 allocated at step 5, waited at step 30, never freed");

	start(DFZ_ORACLES_ALL);
	tid_alloc(4, 5);
	tid_alloc(1, 6);
	push(1, 0x100, 0x40, 8, 7);
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_HANDLE_LEAK);   /* the first allocated is named */
	ck_msg_has("TID 4 allocated at step 5, never waited, never freed");

	start(DFZ_ORACLES_ALL);
	tid_alloc(1, 6);
	push(1, 0x100, 0x40, 8, 7);
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_HANDLE_LEAK);
	ck_msg_has("TID 1 allocated at step 6, pushed at step 7 as transfer "
		   "#0 and never waited, never freed");
}
END_TEST

/* Sabotage: TIDs waited and never freed run the table dry; the leak is
 * reported when allocation fails, before any end of run. */
START_TEST(test_tid_leak_exhausted)
{
	int t;

	start(DFZ_ORACLES_ALL);
	for (t = 0; t < DFZ__MCHAN_TIDS; t++) {
		tid_alloc(t, 10 * (uint64_t)t + 1);
		push(t, 0x100, 0x40, 8, 10 * (uint64_t)t + 2);
		wait_ok(MCHAN, t, 10 * (uint64_t)t + 3);
		if (t < 3)
			tid_free(t, 10 * (uint64_t)t + 4);
	}
	tid_alloc(0, 200);                  /* the freed ones come back */
	tid_alloc(1, 201);
	push(1, 0x100, 0x40, 8, 202);       /* busy: not part of the leak */
	tid_alloc(2, 203);
	ev_id(DFZ_EV_ID_ALLOC, MCHAN, -1, DFZ_EBUSY, 210);
	ck_class(DFZ_CLASS_HANDLE_LEAK);
	ck_msg_has("TID allocation failed at step 210: TIDs "
		   "3,4,5,6,7,8,9,10,11,12,13,14,15 were waited and never "
		   "freed (TID 3 allocated at step 31, waited at step 33");
	ck_assert_int_eq(set->finding.ev.step, 210);
}
END_TEST

/* Sabotage: allocation fails while the oracle counts free TIDs (an
 * engine whose free does not release). */
START_TEST(test_tid_exhausted_with_free)
{
	start(DFZ_ORACLES_ALL);
	tid_alloc(0, 1);
	wait_ok(MCHAN, 0, 2);
	tid_free(0, 3);
	ev_id(DFZ_EV_ID_ALLOC, MCHAN, -1, DFZ_EBUSY, 4);
	ck_class(DFZ_CLASS_HANDLE_LEAK);
	ck_msg_has("TID allocation failed at step 4 with TIDs 0,1,2,3,4,5,6,"
		   "7,8,9,10,11,12,13,14,15 free (expected one of them; TID 0 "
		   "was freed)");
}
END_TEST

/* Sabotage: a free that drops pushes nobody waited; a TID handed out
 * twice; an allocation beyond 15. */
START_TEST(test_tid_misuse)
{
	start(DFZ_ORACLES_ALL);
	tid_alloc(6, 1);
	push(6, 0x100, 0x40, 8, 2);
	push(6, 0x200, 0x80, 8, 3);
	tid_free(6, 4);
	ck_class(DFZ_CLASS_HANDLE_LEAK);
	ck_msg_has("free of TID 6 with 2 push(es) never waited (first pushed "
		   "at step 2 as transfer #0");

	start(DFZ_ORACLES_ALL);
	tid_alloc(6, 1);
	tid_alloc(6, 9);
	ck_class(DFZ_CLASS_HANDLE_REUSE);
	ck_msg_has("TID 6 allocated again at step 9 while allocated "
		   "(allocated at step 1, not freed)");

	start(DFZ_ORACLES_ALL);
	tid_alloc(16, 1);
	ck_class(DFZ_CLASS_HANDLE_STALE);
	ck_msg_has("TID allocation returned TID 16 (expected 0..15)");
}
END_TEST

/* A failed wait does not count as one; a run forgets the last one. */
START_TEST(test_tid_failed_wait_and_reset)
{
	start(DFZ_ORACLES_ALL);
	tid_alloc(2, 1);
	push(2, 0x100, 0x40, 8, 2);
	ev_id(DFZ_EV_WAITED, MCHAN, 2, DFZ_EHANG, 3);
	tid_free(2, 4);
	ck_class(DFZ_CLASS_HANDLE_LEAK);

	start(DFZ_ORACLES_ALL);          /* TID 2 was never allocated here */
	ev_id(DFZ_EV_WAIT, MCHAN, 2, 0, 1);
	ck_class(DFZ_CLASS_HANDLE_STALE);
	ck_msg_has("never allocated in this run");
}
END_TEST

/* ---------------------------------------------------------- idma txids */

START_TEST(test_txid_clean)
{
	start(DFZ_ORACLES_ALL);
	issue(IDMA, 1, d1(0x100, 0x40, 16, 1), 1);
	issue(IDMA, 2, d1(0x200, 0x80, 16, 1), 2);
	issue(IDMA, 3, d1(0x300, 0xc0, 16, 1), 3);
	issue(IDMA, 4, d1(0x400, 0x100, 16, 1), 4);
	wait_ok(IDMA, 2, 4);                 /* covers 1..3 (the lag) */
	issue(IDMA, 5, d1(0x500, 0x140, 16, 1), 5);
	wait_ok(IDMA, 0, 6);                 /* nothing to wait: legal */
	wait_ok(IDMA, -1, 7);                /* wait_all covers 4 and 5 */
	issue(IDMA, 7, d1(0x100, 0x40, 16, 1), 8); /* gaps are legal */
	issue(IDMA, 8, d1(0x600, 0x180, 1, 1), 8); /* a dummy after it */
	wait_ok(IDMA, 7, 9);                 /* covers the dummy too */
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);
}
END_TEST

/* Sabotage: a wait beyond the last issued txid. */
START_TEST(test_txid_stale)
{
	int64_t t;

	start(DFZ_ORACLES_ALL);
	for (t = 1; t <= 5; t++)
		issue(IDMA, t, d1(0x100 * (uint32_t)t, 0x40 * (uint32_t)t, 16,
				  1), (uint64_t)t);
	wait_ok(IDMA, 5, 6);
	ck_class(DFZ_CLASS_NONE);
	ev_id(DFZ_EV_WAIT, IDMA, 7, 0, 8);
	ck_class(DFZ_CLASS_HANDLE_STALE);
	ck_msg_has("wait on txid 7, only 5 issued");
	ck_assert_int_eq(set->finding.ev.step, 8);
}
END_TEST

/* Sabotage: the last transfer is never covered by a wait (the shape of
 * idma-no-dummy once its hang is out of the way). */
START_TEST(test_txid_leak)
{
	start(DFZ_ORACLES_ALL);
	issue(IDMA, 1, d1(0x100, 0x40, 16, 1), 1);
	issue(IDMA, 2, d1(0x200, 0x80, 16, 1), 2);
	issue(IDMA, 3, d1(0x300, 0xc0, 16, 1), 3);
	issue(IDMA, 4, d1(0x400, 0x100, 16, 1), 12);
	wait_ok(IDMA, 2, 20);                 /* covers 1..3 */
	ck_class(DFZ_CLASS_NONE);
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_HANDLE_LEAK);
	ck_msg_has("txid 4 issued at step 12 as transfer #3 and never waited "
		   "(waits covered txids up to 3 of 4");
	ck_assert_int_eq(set->finding.ev.xfer, 3);

	start(DFZ_ORACLES_ALL);               /* a failed wait covers nothing */
	issue(IDMA, 1, d1(0x100, 0x40, 16, 1), 1);
	issue(IDMA, 2, d1(0x200, 0x80, 16, 1), 1);
	wait_rc(IDMA, 1, DFZ_EHANG, 2);
	wait_ok(IDMA, 0, 3);                  /* nor does a wait on 0 */
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_HANDLE_LEAK);
	ck_msg_has("txid 1 issued at step 1");
}
END_TEST

/* Sabotage: an engine that hands out a txid twice. */
START_TEST(test_txid_reuse)
{
	start(DFZ_ORACLES_ALL);
	issue(IDMA, 1, d1(0x100, 0x40, 16, 1), 1);
	issue(IDMA, 2, d1(0x200, 0x80, 16, 1), 2);
	wait_ok(IDMA, -1, 3);
	issue(IDMA, 2, d1(0x300, 0xc0, 16, 1), 4);
	ck_class(DFZ_CLASS_HANDLE_REUSE);
	ck_msg_has("txid 2 issued at step 4 after txid 2 (expected "
		   "increasing txids from 1)");
}
END_TEST

/* --------------------------------------------------------------- hangs */

static const struct {
	unsigned engine;
	int64_t id;
	const char *msg;
} hangs[] = {
	{ MCHAN, 3, "wait on TID 3 did not complete within 20 steps "
		    "(waiting since step 10; expected the transfers pushed "
		    "under it to finish)" },
	{ IDMA, 4, "wait on txid 4 did not complete within 20 steps "
		   "(waiting since step 10; expected every transfer up to it" },
	{ IDMA, -1, "wait on every txid (wait_all) did not complete within "
		    "20 steps" },
};

START_TEST(test_hang_ids)
{
	start(1u << DFZ_ORACLE_HANG);
	ev_id(DFZ_EV_WAIT, hangs[_i].engine, hangs[_i].id, 0, 2);
	ev_id(DFZ_EV_WAITED, hangs[_i].engine, hangs[_i].id, 0, 8);
	ck_class(DFZ_CLASS_NONE);
	ev_id(DFZ_EV_WAIT, hangs[_i].engine, hangs[_i].id, 0, 10);
	ck_class(DFZ_CLASS_NONE);
	ev_id(DFZ_EV_HANG, hangs[_i].engine, hangs[_i].id, 0, 30);
	ck_class(DFZ_CLASS_DMA_HANG);
	ck_assert_str_eq(set->finding.oracle, "hang");
	ck_msg_has(hangs[_i].msg);
	ck_assert_int_eq(set->finding.ev.step, 30);
}
END_TEST

/* A HANG outside any wait is an issue blocked on a full queue; a fault
 * names the TID. */
START_TEST(test_hang_blocked_and_fault)
{
	struct dfz_event fault = { .kind = DFZ_EV_FAULT, .engine = MCHAN,
				   .id = 5, .aux = 0x1234, .step = 3 };

	start(1u << DFZ_ORACLE_HANG);
	wait_ok(MCHAN, 3, 10);                 /* that wait is over */
	ev_id(DFZ_EV_HANG, MCHAN, 3, 0, 30);
	ck_class(DFZ_CLASS_DMA_HANG);
	ck_msg_has("issue on TID 3 blocked until step 30: the engine queue "
		   "stayed full");

	start(1u << DFZ_ORACLE_HANG);
	ev_id(DFZ_EV_WAIT, IDMA, 2, 0, 10);    /* another wait is open */
	ev_id(DFZ_EV_HANG, IDMA, 66, 0, 30);
	ck_class(DFZ_CLASS_DMA_HANG);
	ck_msg_has("issue on txid 66 blocked until step 30");

	start(1u << DFZ_ORACLE_HANG);
	feed(&fault);
	ck_class(DFZ_CLASS_CRASH);
	ck_msg_has("bus fault at 0x1234 while serving TID 5");
}
END_TEST

Suite *suite_oracle_engines(void)
{
	Suite *s = suite_create("oracle_engines");
	TCase *tc = tcase_create("synthetic");

	tcase_add_unchecked_fixture(tc, rt_setup, rt_teardown);
	tcase_add_loop_test(tc, test_cmd_clean, 0,
			    sizeof(cmd_good) / sizeof(cmd_good[0]));
	tcase_add_loop_test(tc, test_cmd_sabotage, 0,
			    sizeof(cmd_bad) / sizeof(cmd_bad[0]));
	tcase_add_loop_test(tc, test_cmd_2d_words, 0,
			    sizeof(words_bad) / sizeof(words_bad[0]));
	tcase_add_test(tc, test_cmd_message);
	tcase_add_test(tc, test_cmd_before_desc);
	tcase_add_test(tc, test_tid_clean);
	tcase_add_loop_test(tc, test_tid_stale, 0,
			    sizeof(tid_stale) / sizeof(tid_stale[0]));
	tcase_add_test(tc, test_tid_leak_end);
	tcase_add_test(tc, test_tid_leak_exhausted);
	tcase_add_test(tc, test_tid_exhausted_with_free);
	tcase_add_test(tc, test_tid_misuse);
	tcase_add_test(tc, test_tid_failed_wait_and_reset);
	tcase_add_test(tc, test_txid_clean);
	tcase_add_test(tc, test_txid_stale);
	tcase_add_test(tc, test_txid_leak);
	tcase_add_test(tc, test_txid_reuse);
	tcase_add_loop_test(tc, test_hang_ids, 0,
			    sizeof(hangs) / sizeof(hangs[0]));
	tcase_add_test(tc, test_hang_blocked_and_fault);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, tcase_oracle_engines_mem());
	suite_add_tcase(s, tcase_oracle_engines_real());
	return s;
}
