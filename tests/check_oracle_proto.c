// SPDX-License-Identifier: MIT
/*
 * Unit tests of the protocol oracles against the real ram engine and with
 * synthetic events: the request state machine (handle.reuse, handle.stale,
 * handle.leak, a request freed while queued), the driver queue walk
 * (self-link, cycle, double add, a node not in flight, a wild or
 * misaligned node) and descriptor integrity (desc.clobbered at service and
 * on moves). Each oracle is shown clean on a correct run and firing when
 * sabotaged.
 */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "oracle_fixture.h"

#define M_HANDLE (1u << DFZ_ORACLE_HANDLE)
#define M_QUEUE (1u << DFZ_ORACLE_QUEUE)
#define M_DESC (1u << DFZ_ORACLE_DESC)

static struct dfz_ram *dev;

static void ram_setup(void)
{
	rt_setup();
	dev = dfz_ram_get(rt);
}

/* A new run with the oracles of @mask; steps only when step() asks. */
static void start(uint32_t mask, uint32_t latency, uint32_t bandwidth)
{
	struct dfz_rt_config cfg = {
		.latency = latency, .bandwidth = bandwidth,
		.wait_bound = 1000, .sched = step_sched,
	};

	oracles_run(mask, &cfg);
}

static struct dfz_ram_req *new_req(void)
{
	void *p;

	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L2, sizeof(struct dfz_ram_req),
					 &p), 0);
	return p;
}

static uint32_t l3_buf, l3_len;
static uint8_t *l2_buf;

/* One L3 source and one L2 destination of @n bytes each. */
static void buffers(uint32_t n)
{
	ck_assert_int_eq(dfz_l3_alloc(rt, n, &l3_buf), 0);
	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L2, n, (void **)&l2_buf), 0);
	l3_len = n;
}

/* Load 64 bytes at @at of the buffers on @req. */
static int load(struct dfz_ram_req *req, uint32_t at)
{
	return dfz_ram_copy(dev, l3_buf + at, l2_buf + at, 64, 1, req);
}

/* --------------------------------------------------------------- handle */

START_TEST(test_handle_clean)
{
	struct dfz_ram_req *a, *b;

	start(DFZ_ORACLES_ALL, 2, 16);
	buffers(256);
	a = new_req();
	b = new_req();
	ck_assert_int_eq(load(a, 0), 0);
	ck_assert_int_eq(load(b, 64), 0);
	ck_assert_int_eq(dfz_ram_copy_wait(a), 0);
	ck_assert_int_eq(load(a, 128), 0);      /* reuse after its wait */
	ck_assert_int_eq(dfz_ram_copy_wait(b), 0);
	ck_assert_int_eq(dfz_ram_copy_wait(a), 0);
	ck_assert_int_eq(dfz_ram_copy_wait(a), 0); /* a second wait is fine */
	ck_assert_int_eq(dfz_local_free(rt, a), 0);
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);
}
END_TEST

/* Sabotage: issue twice on one request, no wait between (bug 1). */
START_TEST(test_handle_reuse)
{
	struct dfz_ram_req *a;

	start(DFZ_ORACLES_ALL, 2, 16);
	buffers(256);
	a = new_req();
	ck_assert_int_eq(load(a, 0), 0);
	step(3);
	ck_assert_int_eq(load(a, 64), 0);
	ck_class(DFZ_CLASS_HANDLE_REUSE);
	ck_assert_ptr_eq(set->finding.ev.handle, a);
	ck_assert_int_eq(set->finding.ev.xfer, 0);
	ck_assert_int_eq(set->finding.ev.step, 3);
	ck_msg_has("re-issued while in flight");
	ck_msg_has("issued at step 0");
}
END_TEST

/* Sabotage: a wait on a request never issued (synthetic: the real wait
 * refuses such a request before it emits anything). */
START_TEST(test_handle_stale)
{
	struct dfz_ram_req *a;
	struct dfz_event ev = { .kind = DFZ_EV_WAITED };

	start(M_HANDLE, 0, 16);
	a = new_req();
	ev.handle = a;
	feed(&ev);
	ck_class(DFZ_CLASS_HANDLE_STALE);
	ck_msg_has("never issued");
	ck_assert_ptr_eq(set->finding.ev.handle, a);
}
END_TEST

/* Sabotage: a wait on a request whose storage was released. */
START_TEST(test_handle_stale_after_free)
{
	struct dfz_ram_req *a;
	struct dfz_event ev = { .kind = DFZ_EV_WAITED };

	start(DFZ_ORACLES_ALL, 0, 16);
	buffers(64);
	a = new_req();
	ck_assert_int_eq(load(a, 0), 0);
	ck_assert_int_eq(dfz_ram_copy_wait(a), 0);
	ck_assert_int_eq(dfz_local_free(rt, a), 0);
	ck_class(DFZ_CLASS_NONE);
	ev.handle = a;
	feed(&ev);
	ck_class(DFZ_CLASS_HANDLE_STALE);
	ck_msg_has("storage was released");
}
END_TEST

/* Sabotage: issued, never waited. A hung wait does not retire either. */
START_TEST(test_handle_leak)
{
	struct dfz_ram_req *a, *b;
	struct dfz_event hung = { .kind = DFZ_EV_WAITED, .aux = DFZ_EHANG };

	start(DFZ_ORACLES_ALL, 0, 16);
	buffers(128);
	a = new_req();
	b = new_req();
	ck_assert_int_eq(load(a, 0), 0);
	ck_assert_int_eq(load(b, 64), 0);
	ck_assert_int_eq(dfz_ram_copy_wait(a), 0);
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_HANDLE_LEAK);
	ck_assert_ptr_eq(set->finding.ev.handle, b);
	ck_assert_int_eq(set->finding.ev.xfer, 1);
	ck_msg_has("never waited");

	start(M_HANDLE, 0, 16);
	buffers(64);
	a = new_req();
	ck_assert_int_eq(load(a, 0), 0);
	hung.handle = a;
	feed(&hung);
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_HANDLE_LEAK);
}
END_TEST

/* Sabotage: request storage released while it is still queued. */
START_TEST(test_handle_freed_while_queued)
{
	struct dfz_ram_req *a;

	start(DFZ_ORACLES_ALL, 0, 16);
	buffers(64);
	a = new_req();
	ck_assert_int_eq(load(a, 0), 0);
	ck_assert_int_eq(dfz_local_free(rt, a), 0);
	ck_class(DFZ_CLASS_QUEUE_CORRUPT);
	ck_msg_has("freed while queued");
	ck_assert_ptr_eq(set->finding.ev.handle, a);
	ck_assert_int_eq(set->finding.ev.level, DFZ_L2);
}
END_TEST

/* A leaky run leaves nothing behind for the next one. */
START_TEST(test_handle_reset)
{
	struct dfz_ram_req *a;

	start(DFZ_ORACLES_ALL, 0, 16);
	buffers(64);
	a = new_req();
	ck_assert_int_eq(load(a, 0), 0);
	start(DFZ_ORACLES_ALL, 0, 16);
	buffers(64);
	a = new_req();
	ck_assert_int_eq(load(a, 0), 0);
	ck_assert_int_eq(dfz_ram_copy_wait(a), 0);
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);
}
END_TEST

/* ---------------------------------------------------------------- queue */

static void poke_walk(void)
{
	static int dummy;
	struct dfz_event ev = { .kind = DFZ_EV_COMPLETE,
				.engine = DFZ_ENGINE_RAM, .handle = &dummy };

	feed(&ev);
}

START_TEST(test_queue_clean)
{
	struct dfz_ram_req *r[6];
	unsigned i;

	start(DFZ_ORACLES_ALL, 3, 8);
	buffers(6 * 64);
	for (i = 0; i < 6; i++) {
		r[i] = new_req();
		ck_assert_int_eq(load(r[i], 64 * i), 0);
		step(i);
	}
	for (i = 0; i < 6; i++)
		ck_assert_int_eq(dfz_ram_copy_wait(r[i]), 0);
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);
}
END_TEST

/* Sabotage: re-issue the queue tail; the driver links it to itself. */
START_TEST(test_queue_self_link)
{
	struct dfz_ram_req *a, *b;

	start(M_QUEUE, 0, 16);
	buffers(128);
	a = new_req();
	b = new_req();
	ck_assert_int_eq(load(a, 0), 0);
	ck_assert_int_eq(load(b, 64), 0);
	ck_class(DFZ_CLASS_NONE);
	ck_assert_int_eq(load(b, 64), 0);
	ck_class(DFZ_CLASS_QUEUE_CORRUPT);
	ck_msg_has("links to itself");
	ck_assert_ptr_eq(set->finding.ev.handle, b);
}
END_TEST

/* Sabotage: a node scribbled into a cycle. */
START_TEST(test_queue_cycle)
{
	struct dfz_ram_req *r[3];
	unsigned i;

	start(M_QUEUE, 0, 16);
	buffers(3 * 64);
	for (i = 0; i < 3; i++) {
		r[i] = new_req();
		ck_assert_int_eq(load(r[i], 64 * i), 0);
	}
	r[2]->next = r[0];
	poke_walk();
	ck_class(DFZ_CLASS_QUEUE_CORRUPT);
	ck_msg_has("cycle");
}
END_TEST

/* Sabotage: re-issue a request that sits in a hardware slot. */
START_TEST(test_queue_double_add)
{
	struct dfz_ram_req *a;

	start(M_QUEUE, 10, 16);
	buffers(64);
	a = new_req();
	ck_assert_int_eq(load(a, 0), 0);
	step(1);                               /* promoted into a slot */
	ck_assert_ptr_eq(dfz_ram_slot(dev, 0), a);
	ck_assert_int_eq(load(a, 0), 0);
	ck_class(DFZ_CLASS_QUEUE_CORRUPT);
	ck_msg_has("double add");
}
END_TEST

/* Sabotage: a node never issued, one completed, one outside memory. */
START_TEST(test_queue_not_in_flight)
{
	struct dfz_ram_req *a, *b, *x;

	start(M_QUEUE, 0, 64);
	buffers(128);
	a = new_req();
	x = new_req();
	ck_assert_int_eq(load(a, 0), 0);
	x->next = NULL;
	a->next = x;
	poke_walk();
	ck_class(DFZ_CLASS_QUEUE_CORRUPT);
	ck_msg_has("never issued");

	start(M_QUEUE, 0, 64);
	buffers(128);
	a = new_req();
	b = new_req();
	ck_assert_int_eq(load(a, 0), 0);
	ck_assert_int_eq(dfz_ram_copy_wait(a), 0);
	ck_assert_int_eq(load(b, 64), 0);
	b->next = a;
	a->next = NULL;
	poke_walk();
	ck_class(DFZ_CLASS_QUEUE_CORRUPT);
	ck_msg_has("completed at step");

	start(M_QUEUE, 0, 64);
	buffers(64);
	a = new_req();
	ck_assert_int_eq(load(a, 0), 0);
	a->next = (struct dfz_ram_req *)(uintptr_t)0x1000;
	poke_walk();
	ck_class(DFZ_CLASS_QUEUE_CORRUPT);
	ck_msg_has("not request storage");

	start(M_QUEUE, 0, 64);
	buffers(64);
	a = new_req();
	b = new_req();
	ck_assert_int_eq(load(a, 0), 0);
	a->next = (struct dfz_ram_req *)((uint8_t *)b + 1); /* misaligned */
	poke_walk();
	ck_class(DFZ_CLASS_QUEUE_CORRUPT);
	ck_msg_has("not request storage");
	a->next = NULL;
}
END_TEST

/* ----------------------------------------------------------------- desc */

START_TEST(test_desc_clean)
{
	struct dfz_ram_req *a;

	start(DFZ_ORACLES_ALL, 4, 10);
	buffers(512);
	a = new_req();
	ck_assert_int_eq(dfz_ram_copy_2d(dev, l3_buf, l2_buf, 90, 100, 30, 1,
					 a), 0);
	ck_assert_int_eq(dfz_ram_copy_wait(a), 0);
	ck_assert_int_eq(dfz_ram_copy_2d(dev, l3_buf + 1, l2_buf, 45, 7, 5, 0,
					 a), 0);  /* a re-issue replaces it */
	ck_assert_int_eq(dfz_ram_copy_wait(a), 0);
	ck_assert_int_eq(dfz_ram_copy_2d(dev, l3_buf, l2_buf, 64, 64, 8, 1,
					 a), 0);  /* stride == size: 8 lines */
	ck_assert_int_eq(dfz_ram_copy_wait(a), 0);
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);
}
END_TEST

/* Sabotage: the caller changes req->size between issue and service. */
START_TEST(test_desc_changed_before_service)
{
	struct dfz_ram_req *a;

	start(M_DESC, 5, 16);
	buffers(256);
	a = new_req();
	ck_assert_int_eq(load(a, 0), 0);
	a->size = 32;
	dfz_ram_copy_wait(a);
	ck_class(DFZ_CLASS_DESC_CLOBBERED);
	ck_msg_has("size expected 64, got 32");
	ck_msg_has("between issue (step 0) and service");
}
END_TEST

/* Sabotage: the caller moves req->ram_addr while the copy runs. */
START_TEST(test_desc_moved_outside)
{
	struct dfz_ram_req *a;

	start(M_DESC, 0, 8);
	buffers(256);
	a = new_req();
	ck_assert_int_eq(dfz_ram_copy_2d(dev, l3_buf, l2_buf, 64, 32, 16, 1,
					 a), 0);
	step(1);
	ck_class(DFZ_CLASS_NONE);
	a->ram_addr += 8;
	step(1);
	ck_class(DFZ_CLASS_DESC_CLOBBERED);
	ck_msg_has("outside the external footprint");
	ck_assert_int_eq(set->finding.ev.level, DFZ_L3);
}
END_TEST

/* Footprints with synthetic moves: lines, the partial last line, the
 * contiguous local side. */
static void move(const void *h, uint32_t ext, uint32_t loc, uint32_t n)
{
	struct dfz_event ev = { .kind = DFZ_EV_MOVE, .handle = h,
				.src = { DFZ_L3, ext, n },
				.dst = { DFZ_L2, loc, n } };

	feed(&ev);
}

/* The footprint both tests judge moves against: 50 bytes in lines of 20
 * every 32 from L3[1000], to L2[64] contiguous. */
static void issue_footprint(const void *h)
{
	struct dfz_event is = { .kind = DFZ_EV_ISSUE, .handle = h,
		.desc = { .ext_level = DFZ_L3, .loc_level = DFZ_L2,
			  .ext2loc = 1, .is_2d = 1, .ext_off = 1000,
			  .loc_off = 64, .size = 50, .length = 20,
			  .ext_stride = 32, .loc_stride = 20 } };

	feed(&is);
}

START_TEST(test_desc_footprint)
{
	static int h;
	static const struct { uint32_t ext, loc, n; bool ok; } mv[] = {
		{ 1000, 64, 20, true }, { 1032, 84, 20, true },
		{ 1064, 104, 10, true }, { 1005, 69, 15, true },
		{ 1010, 74, 11, false },  /* past a line end */
		{ 1064, 104, 11, false }, /* past the partial last line */
		{ 1020, 84, 4, false },   /* a stride gap */
		{ 999, 63, 1, false },    /* before the first line */
		{ 1000, 104, 11, false }, /* past the local side */
	};

	start(M_DESC, 0, 16);
	issue_footprint(&h);
	move(&h, mv[_i].ext, mv[_i].loc, mv[_i].n);
	ck_class(mv[_i].ok ? DFZ_CLASS_NONE : DFZ_CLASS_DESC_CLOBBERED);
}
END_TEST

/* A MOVE of several lines (an engine's stretch): every line is judged,
 * and the finding names the first line outside; one whose first and
 * last lines are inside is still judged in between. */
START_TEST(test_desc_footprint_lines)
{
	static int h;
	static const struct { uint32_t lines, len, ext_pitch, bad; } mv[] = {
		{ 2, 20, 32, 0 },
		{ 3, 20, 32, 1064 },   /* the third runs past the partial line */
		{ 2, 20, 20, 1020 },   /* the second falls in a stride gap */
		{ 3, 10, 32, 0 },      /* one column of the three lines */
		{ 9, 4, 8, 1024 },     /* first and last inside, the fourth in
					* a stride gap */
	};
	struct dfz_event ev = { .kind = DFZ_EV_MOVE, .handle = &h,
				.src = { DFZ_L3, 1000, mv[_i].len },
				.dst = { DFZ_L2, 64, mv[_i].len },
				.lines = mv[_i].lines,
				.src_pitch = mv[_i].ext_pitch,
				.dst_pitch = mv[_i].len };

	start(M_DESC, 0, 16);
	issue_footprint(&h);
	feed(&ev);
	if (!mv[_i].bad) {
		ck_class(DFZ_CLASS_NONE);
		return;
	}
	ck_class(DFZ_CLASS_DESC_CLOBBERED);
	ck_assert_int_eq(set->finding.ev.level, DFZ_L3);
	ck_assert_uint_eq(set->finding.ev.off, mv[_i].bad);
}
END_TEST

Suite *suite_oracle_proto(void)
{
	Suite *s = suite_create("oracle_proto");
	TCase *tc = tcase_create("proto");

	tcase_add_unchecked_fixture(tc, ram_setup, rt_teardown);
	tcase_add_test(tc, test_handle_clean);
	tcase_add_test(tc, test_handle_reuse);
	tcase_add_test(tc, test_handle_stale);
	tcase_add_test(tc, test_handle_stale_after_free);
	tcase_add_test(tc, test_handle_leak);
	tcase_add_test(tc, test_handle_freed_while_queued);
	tcase_add_test(tc, test_handle_reset);
	tcase_add_test(tc, test_queue_clean);
	tcase_add_test(tc, test_queue_self_link);
	tcase_add_test(tc, test_queue_cycle);
	tcase_add_test(tc, test_queue_double_add);
	tcase_add_test(tc, test_queue_not_in_flight);
	tcase_add_test(tc, test_desc_clean);
	tcase_add_test(tc, test_desc_changed_before_service);
	tcase_add_test(tc, test_desc_moved_outside);
	tcase_add_loop_test(tc, test_desc_footprint, 0, 9);
	tcase_add_loop_test(tc, test_desc_footprint_lines, 0, 5);
	suite_add_tcase(s, tc);
	return s;
}
