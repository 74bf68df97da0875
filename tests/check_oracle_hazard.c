// SPDX-License-Identifier: MIT
/*
 * Unit tests of the hazard oracle (oracles/hazard.c): transfers on the
 * real ram engine, compute as the executor publishes it (COMPUTE_READ and
 * COMPUTE_WRITE events). Clean single and double buffering stay clean;
 * compute before the wait is read-before-wait even when the engine has
 * finished; overlapping in-flight transfers, compute writing a buffer a
 * store reads, and a prefetch over data being computed are races; a run's
 * leftovers never leak into the next run.
 */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "oracle_fixture.h"

#define M_HAZARD (1u << DFZ_ORACLE_HAZARD)

static struct dfz_ram *dev;

static void ram_setup(void)
{
	rt_setup();
	dev = dfz_ram_get(rt);
	ck_assert_int_eq(dfz_oracles_create(DFZ_ORACLES_ALL, &set), 0);
}

static void start(void)
{
	struct dfz_rt_config cfg = {
		.latency = 2, .bandwidth = 16, .wait_bound = 1000,
		.sched = step_sched,
	};

	oracles_run(DFZ_ORACLES_ALL, &cfg);
}

static void *local(uint32_t n)
{
	void *p;

	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L2, n, &p), 0);
	return p;
}

static uint32_t ext(uint32_t n)
{
	uint32_t off;

	ck_assert_int_eq(dfz_l3_alloc(rt, n, &off), 0);
	return off;
}

static struct dfz_ram_req *req(void)
{
	return local(sizeof(struct dfz_ram_req));
}

/* Compute reads (or writes) @n bytes at @p, as the executor says so. */
static void compute(enum dfz_ev_kind kind, const void *p, uint32_t n)
{
	struct dfz_event ev = { .kind = (uint8_t)kind, .step = dfz_rt_now(rt) };
	struct dfz_observer obs = dfz_oracles_observer(set);
	struct dfz_span s;

	ck_assert(dfz_mem_locate(rt, p, n, &s));
	if (kind == DFZ_EV_COMPUTE_READ)
		ev.src = s;
	else
		ev.dst = s;
	obs.fn(obs.ctx, &ev);
}

static void cread(const void *p, uint32_t n)
{
	compute(DFZ_EV_COMPUTE_READ, p, n);
}

static void cwrite(const void *p, uint32_t n)
{
	compute(DFZ_EV_COMPUTE_WRITE, p, n);
}

static int ld(struct dfz_ram_req *r, uint32_t from, void *to, uint32_t n)
{
	return dfz_ram_copy(dev, from, to, n, 1, r);
}

static int st(struct dfz_ram_req *r, const void *from, uint32_t to,
	      uint32_t n)
{
	return dfz_ram_copy(dev, to, (void *)(uintptr_t)from, n, 0, r);
}

/* Single then double buffering over 4 tiles of 64 bytes, done right. */
START_TEST(test_hazard_clean)
{
	uint32_t in, out, t;
	uint8_t *buf[2], *o;
	struct dfz_ram_req *rq[2], *so;

	start();
	in = ext(256);
	out = ext(256);
	buf[0] = local(64);
	buf[1] = local(64);
	o = local(64);
	rq[0] = req();
	rq[1] = req();
	so = req();
	for (t = 0; t < 4; t++) {            /* single buffering */
		ck_assert_int_eq(ld(rq[0], in + 64 * t, buf[0], 64), 0);
		ck_assert_int_eq(dfz_ram_copy_wait(rq[0]), 0);
		cread(buf[0], 64);
		cwrite(o, 64);
		ck_assert_int_eq(st(so, o, out + 64 * t, 64), 0);
		ck_assert_int_eq(dfz_ram_copy_wait(so), 0);
	}
	ck_assert_int_eq(ld(rq[0], in, buf[0], 64), 0);
	for (t = 0; t < 4; t++) {            /* double buffering */
		if (t + 1 < 4)
			ck_assert_int_eq(ld(rq[(t + 1) % 2], in + 64 * (t + 1),
					    buf[(t + 1) % 2], 64), 0);
		ck_assert_int_eq(dfz_ram_copy_wait(rq[t % 2]), 0);
		cread(buf[t % 2], 64);
		ck_assert_int_eq(dfz_ram_copy_wait(so), 0);
		cwrite(o, 64);
		ck_assert_int_eq(st(so, o, out + 64 * t, 64), 0);
		step(t);
	}
	ck_assert_int_eq(dfz_ram_copy_wait(so), 0);
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);
}
END_TEST

/* Sabotage: compute before the wait, with the copy long finished. */
START_TEST(test_hazard_read_before_wait)
{
	uint32_t in;
	uint8_t *buf;
	struct dfz_ram_req *r;

	start();
	in = ext(64);
	buf = local(64);
	r = req();
	ck_assert_int_eq(ld(r, in, buf, 64), 0);
	step(100);
	ck_assert(r->done);
	cread(buf + 60, 4);
	ck_class(DFZ_CLASS_HAZARD_RBW);
	ck_msg_has("before the wait of transfer #0");
	ck_assert_int_eq(set->finding.ev.xfer, 0);
	ck_assert_ptr_eq(set->finding.ev.handle, r);
	ck_assert_int_eq(set->finding.ev.level, DFZ_L2);
}
END_TEST

/* Sabotage: two in-flight loads write overlapping local bytes. */
START_TEST(test_hazard_overlapping_loads)
{
	uint32_t in;
	uint8_t *buf;
	struct dfz_ram_req *a, *b;

	start();
	in = ext(128);
	buf = local(96);
	a = req();
	b = req();
	ck_assert_int_eq(ld(a, in, buf, 64), 0);
	ck_assert_int_eq(ld(b, in + 64, buf + 32, 64), 0);
	ck_class(DFZ_CLASS_HAZARD_RACE);
	ck_msg_has("transfer #1 writes L2");
	ck_msg_has("while transfer #0");
	ck_msg_has("writes it");
	ck_assert_ptr_eq(set->finding.ev.handle, b);
}
END_TEST

/* Sabotage: compute writes the buffer a store is still reading. */
START_TEST(test_hazard_write_under_store)
{
	uint32_t out;
	uint8_t *o;
	struct dfz_ram_req *r;

	start();
	out = ext(64);
	o = local(64);
	r = req();
	cwrite(o, 64);
	ck_assert_int_eq(st(r, o, out, 64), 0);
	step(100);
	cwrite(o + 10, 1);
	ck_class(DFZ_CLASS_HAZARD_RACE);
	ck_msg_has("compute writes L2");
	ck_msg_has("reads it");
}
END_TEST

/* Sabotage: a prefetch over data still being computed (write after
 * read): the bytes were settled, so it is a race, not an early read. */
START_TEST(test_hazard_prefetch_over_compute)
{
	uint32_t in;
	uint8_t *buf;
	struct dfz_ram_req *r;

	start();
	in = ext(128);
	buf = local(64);
	r = req();
	ck_assert_int_eq(ld(r, in, buf, 64), 0);
	ck_assert_int_eq(dfz_ram_copy_wait(r), 0);
	cread(buf, 32);
	ck_assert_int_eq(ld(r, in + 64, buf, 64), 0);
	cread(buf + 32, 32);
	ck_class(DFZ_CLASS_HAZARD_RACE);
	ck_msg_has("overwrites it");
}
END_TEST

/* Sabotage: a store reads a buffer a load still writes; a load reads L3
 * a store still writes. */
START_TEST(test_hazard_transfer_chains)
{
	uint32_t x;
	uint8_t *buf, *b2;
	struct dfz_ram_req *a, *b;

	start();
	x = ext(64);
	buf = local(64);
	a = req();
	b = req();
	ck_assert_int_eq(ld(a, x, buf, 64), 0);
	ck_assert_int_eq(st(b, buf + 8, x + 8, 8), 0);
	ck_class(DFZ_CLASS_HAZARD_RACE);
	ck_msg_has("transfer #1 writes L3");   /* L3 side first */

	start();
	x = ext(64);
	buf = local(64);
	b2 = local(64);
	a = req();
	b = req();
	ck_assert_int_eq(st(a, buf, x, 64), 0);
	ck_assert_int_eq(ld(b, x + 63, b2, 1), 0);
	ck_class(DFZ_CLASS_HAZARD_RACE);
	ck_msg_has("transfer #1 reads L3");
}
END_TEST

/* Footprints are lines, not their hull: stride == size is 8 lines. */
START_TEST(test_hazard_line_footprint)
{
	uint32_t x;
	uint8_t *buf, *b2;
	struct dfz_ram_req *a, *b;

	start();
	x = ext(512);
	buf = local(64);
	b2 = local(64);
	a = req();
	b = req();
	ck_assert_int_eq(dfz_ram_copy_2d(dev, x, buf, 64, 64, 8, 0, a), 0);
	ck_assert_int_eq(ld(b, x + 8, b2, 56), 0);   /* the gap of line 0 */
	ck_class(DFZ_CLASS_NONE);
	ck_assert_int_eq(dfz_ram_copy_wait(b), 0);
	ck_assert_int_eq(ld(b, x + 64 * 7 + 7, b2, 1), 0); /* line 7 */
	ck_class(DFZ_CLASS_HAZARD_RACE);
	ck_msg_has("transfer #2 reads L3");
}
END_TEST

/* A transfer does not race with itself (both sides in one level). */
START_TEST(test_hazard_in_place)
{
	static int h;
	struct dfz_event ev = { .kind = DFZ_EV_ISSUE, .handle = &h,
		.desc = { .ext_level = DFZ_L2, .loc_level = DFZ_L2,
			  .ext2loc = 1, .is_2d = 1, .ext_off = 4096,
			  .loc_off = 4100, .size = 64, .length = 16,
			  .ext_stride = 16, .loc_stride = 16 } };
	struct dfz_observer obs = dfz_oracles_observer(set);

	start();
	obs.fn(obs.ctx, &ev);
	ck_class(DFZ_CLASS_NONE);
	ev.handle = &ev;                      /* another one: a race */
	obs.fn(obs.ctx, &ev);
	ck_class(DFZ_CLASS_HAZARD_RACE);
}
END_TEST

/* Readers may share; a wait retires only its own request's transfers. */
START_TEST(test_hazard_readers_share)
{
	uint32_t x, y;
	uint8_t *buf;
	struct dfz_ram_req *a, *b;

	start();
	x = ext(64);
	y = ext(64);
	buf = local(64);
	a = req();
	b = req();
	cwrite(buf, 64);
	ck_assert_int_eq(st(a, buf, x, 64), 0);
	ck_assert_int_eq(st(b, buf, y, 64), 0);
	cread(buf, 64);
	ck_assert_int_eq(dfz_ram_copy_wait(a), 0);
	ck_class(DFZ_CLASS_NONE);
	cwrite(buf, 1);                     /* b still reads it */
	ck_class(DFZ_CLASS_HAZARD_RACE);
}
END_TEST

/* A hung wait retires nothing; a new run starts from a clean shadow. */
START_TEST(test_hazard_reset)
{
	uint32_t in;
	uint8_t *buf;
	struct dfz_ram_req *r;
	struct dfz_event hung = { .kind = DFZ_EV_WAITED, .aux = DFZ_EHANG };
	struct dfz_observer obs = dfz_oracles_observer(set);

	start();
	in = ext(64);
	buf = local(64);
	r = req();
	ck_assert_int_eq(ld(r, in, buf, 64), 0);
	start();                               /* leaked: forgotten */
	in = ext(64);
	buf = local(64);
	r = req();
	cread(buf, 64);
	cwrite(buf, 64);
	ck_class(DFZ_CLASS_NONE);
	ck_assert_int_eq(ld(r, in, buf, 64), 0);
	hung.handle = r;
	obs.fn(obs.ctx, &hung);
	cread(buf, 1);
	ck_class(DFZ_CLASS_HAZARD_RACE);        /* settled by compute */
}
END_TEST

/* A fresh allocation holds nothing settled: of the bytes this run
 * settled, those it covers are forgotten (a load's destination read
 * before the wait is an early read), the others kept (a race). */
static void alloc_then_read(uint32_t fresh, uint32_t at)
{
	uint32_t in;
	uint8_t *buf;
	struct dfz_ram_req *r;
	struct dfz_event al = { .kind = DFZ_EV_ALLOC };
	struct dfz_observer obs = dfz_oracles_observer(set);

	start();
	in = ext(64);
	buf = local(64);
	r = req();
	cwrite(buf, 64);
	ck_assert(dfz_mem_locate(rt, buf, fresh, &al.dst));
	obs.fn(obs.ctx, &al);
	ck_assert_int_eq(ld(r, in, buf, 64), 0);
	cread(buf + at, 1);
}

START_TEST(test_hazard_alloc_forgets)
{
	alloc_then_read(32, 0);
	ck_class(DFZ_CLASS_HAZARD_RBW);
	alloc_then_read(32, 40);
	ck_class(DFZ_CLASS_HAZARD_RACE);       /* past the fresh bytes */
	alloc_then_read(64, 63);
	ck_class(DFZ_CLASS_HAZARD_RBW);
}
END_TEST

Suite *suite_oracle_hazard(void)
{
	Suite *s = suite_create("oracle_hazard");
	TCase *tc = tcase_create("hazard");

	tcase_add_unchecked_fixture(tc, ram_setup, rt_teardown);
	tcase_add_test(tc, test_hazard_clean);
	tcase_add_test(tc, test_hazard_read_before_wait);
	tcase_add_test(tc, test_hazard_overlapping_loads);
	tcase_add_test(tc, test_hazard_write_under_store);
	tcase_add_test(tc, test_hazard_prefetch_over_compute);
	tcase_add_test(tc, test_hazard_transfer_chains);
	tcase_add_test(tc, test_hazard_line_footprint);
	tcase_add_test(tc, test_hazard_in_place);
	tcase_add_test(tc, test_hazard_readers_share);
	tcase_add_test(tc, test_hazard_reset);
	tcase_add_test(tc, test_hazard_alloc_forgets);
	suite_add_tcase(s, tc);
	return s;
}
