// SPDX-License-Identifier: MIT
/*
 * Unit tests of the ram engine (runtime/ram.c), the PMSIS cluster RAM
 * model: 1-D and 2-D copies move exactly their bytes and only when steps
 * run, FIFO promotion into two slots, latency and bandwidth, completion and
 * waits (including hangs), the descriptor read at service time, the
 * driver's self-link on re-issuing the tail, address checks that keep the
 * harness from crashing, the event sequence and the engine ops.
 */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "check_fast.h"
#include "runtime_int.h"

static struct dfz_rt *rt;
static struct dfz_ram *dev;

#define MAX_EVENTS 1024
static struct dfz_event events[MAX_EVENTS];
static unsigned nevents;
static unsigned steps_at[DFZ_YIELD_COUNT]; /* scheduler draw per yield */

static void record(void *ctx, const struct dfz_event *ev)
{
	(void)ctx;
	CK_CHECK_UINT(nevents, <, MAX_EVENTS);
	events[nevents++] = *ev;
}

static unsigned sched(void *ctx, enum dfz_yield where)
{
	(void)ctx;
	return steps_at[where];
}

/* A new run: @latency, @bandwidth and @bound as in the config; the
 * scheduler gives @issue_steps at issue and nothing elsewhere. */
static void start(uint32_t latency, uint32_t bandwidth, uint32_t bound,
		  unsigned issue_steps)
{
	struct dfz_rt_config cfg = {
		.latency = latency,
		.bandwidth = bandwidth,
		.wait_bound = bound,
		.sched = sched,
		.obs = { .fn = record },
	};

	memset(steps_at, 0, sizeof(steps_at));
	steps_at[DFZ_YIELD_ISSUE] = issue_steps;
	ck_assert_int_eq(dfz_rt_reset(rt, &cfg), 0);
	nevents = 0;
}

static void setup(void)
{
	ck_assert_int_eq(dfz_rt_create(&rt), 0);
	dev = dfz_ram_get(rt);
	ck_assert_ptr_nonnull(dev);
	start(0, 0, 0, 0);
}

static void teardown(void)
{
	dfz_rt_destroy(rt);
	rt = NULL;
}

static uint8_t pat(uint32_t i)
{
	return (uint8_t)(i * 13u + 5u);
}

/* @n bytes of L3 holding pat(0..n). */
static uint32_t l3_src(uint32_t n)
{
	static uint8_t buf[4096];
	uint32_t off;

	ck_assert_uint_le(n, sizeof(buf));
	for (uint32_t i = 0; i < n; i++)
		buf[i] = pat(i);
	ck_assert_int_eq(dfz_l3_alloc(rt, n, &off), 0);
	ck_assert_int_eq(dfz_l3_write(rt, off, buf, n), 0);
	return off;
}

static void *l2_alloc(uint32_t n)
{
	void *p;

	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L2, n, &p), 0);
	return p;
}

static struct dfz_ram_req *new_req(void)
{
	return l2_alloc(sizeof(struct dfz_ram_req));
}

static uint32_t l2_off(const void *p)
{
	struct dfz_span s;

	ck_assert(dfz_mem_locate(rt, p, 1, &s));
	return s.off;
}

/* Bytes of [from, to) of @level that differ from the fill pattern; a
 * pointer per offset, as one is good for its page only (mem_arena.c). */
static uint32_t unfilled(enum dfz_level level, uint32_t from, uint32_t to)
{
	uint32_t bad = 0;

	for (uint32_t off = from; off < to; off++)
		bad += *dfz_mem_ptr(rt, level, off) != dfz_mem_fill_byte(level, off);
	return bad;
}

static unsigned count(enum dfz_ev_kind kind)
{
	unsigned n = 0;

	for (unsigned i = 0; i < nevents; i++)
		n += events[i].kind == kind;
	return n;
}

/* Index of the first event of @kind on @handle, or -1. */
static int find(enum dfz_ev_kind kind, const void *handle)
{
	for (unsigned i = 0; i < nevents; i++)
		if (events[i].kind == kind && events[i].handle == handle)
			return (int)i;
	return -1;
}

static void steps(unsigned n)
{
	while (n--)
		dfz__rt_step(rt);
}

/* ------------------------------------------------------------- 1-D, 2-D */

START_TEST(test_copy_1d_load)
{
	uint32_t src = l3_src(300);
	uint8_t *dst = l2_alloc(300);
	uint32_t doff = l2_off(dst);
	struct dfz_ram_req *r = new_req();

	ck_assert_int_eq(dfz_ram_copy(dev, src, dst, 300, 1, r), 0);
	/* Issue only queues: no step ran, no byte moved. */
	ck_assert_uint_eq(unfilled(DFZ_L2, doff, doff + 300), 0);
	ck_assert_uint_eq(count(DFZ_EV_MOVE), 0);
	ck_assert_uint_eq(r->done, 0);
	ck_assert_ptr_eq(dfz_ram_queue_head(dev), r);
	ck_assert_ptr_eq(r->device, dev);
	ck_assert_uint_eq(r->is_2d, 0);
	ck_assert_uint_eq(r->length, 300);
	ck_assert_uint_eq(r->stride, 300);
	ck_assert_int_eq(dfz_ram_copy_wait(r), 0);
	ck_assert_uint_eq(r->done, 1);
	for (uint32_t i = 0; i < 300; i++)
		CK_CHECK_UINT(dst[i], ==, pat(i));
	/* Nothing else in L2 changed: the canaries around dst, the rest. */
	for (int k = 1; k <= DFZ_REDZONE; k++)
		ck_assert_uint_eq(dst[-k], dfz_mem_canary_byte(DFZ_L2, doff - k));
	ck_assert_uint_eq(unfilled(DFZ_L2, doff + 300 + DFZ_REDZONE,
				   l2_off(r) - DFZ_REDZONE), 0);
	ck_assert_uint_eq(unfilled(DFZ_L2, l2_off(r) + sizeof(*r) + DFZ_REDZONE,
				   DFZ_CAP_L2), 0);
	ck_assert_uint_eq(unfilled(DFZ_L3, 0, src - DFZ_REDZONE), 0);
}
END_TEST

START_TEST(test_copy_1d_store)
{
	uint32_t dst;
	uint8_t *src = l2_alloc(100);
	struct dfz_ram_req *r = new_req();

	for (uint32_t i = 0; i < 100; i++)
		src[i] = pat(i);
	ck_assert_int_eq(dfz_l3_alloc(rt, 100, &dst), 0);
	ck_assert_int_eq(dfz_ram_copy(dev, dst, src, 100, 0, r), 0);
	ck_assert_uint_eq(unfilled(DFZ_L3, dst, dst + 100), 0);
	ck_assert_int_eq(dfz_ram_copy_wait(r), 0);
	ck_assert_mem_eq(dfz_mem_ptr(rt, DFZ_L3, dst), src, 100);
	ck_assert_uint_eq(*dfz_mem_ptr(rt, DFZ_L3, dst + 100),
			  dfz_mem_canary_byte(DFZ_L3, dst + 100));
	ck_assert_uint_eq(unfilled(DFZ_L3, dst + 100 + DFZ_REDZONE, 1 << 20), 0);
}
END_TEST

/* 4 lines of 20 bytes, 48 apart in L3: a gather into 80 contiguous bytes. */
START_TEST(test_copy_2d_load)
{
	uint32_t src = l3_src(4 * 48);
	uint8_t *dst = l2_alloc(80);
	uint32_t doff = l2_off(dst);
	struct dfz_ram_req *r = new_req();

	ck_assert_int_eq(dfz_ram_copy_2d(dev, src, dst, 80, 48, 20, 1, r), 0);
	ck_assert_uint_eq(r->is_2d, 1);
	ck_assert_uint_eq(unfilled(DFZ_L2, doff, doff + 80), 0);
	ck_assert_int_eq(dfz_ram_copy_wait(r), 0);
	for (uint32_t i = 0; i < 80; i++)
		ck_assert_uint_eq(dst[i], pat(i / 20 * 48 + i % 20));
	ck_assert_uint_eq(dst[80], dfz_mem_canary_byte(DFZ_L2, doff + 80));
}
END_TEST

/* The scatter: the L3 gaps between lines keep their bytes. */
START_TEST(test_copy_2d_store)
{
	uint32_t dst = l3_src(4 * 48);
	uint8_t *src = l2_alloc(80);
	struct dfz_ram_req *r = new_req();
	const uint8_t *l3 = dfz_mem_ptr(rt, DFZ_L3, dst);

	for (uint32_t i = 0; i < 80; i++)
		src[i] = (uint8_t)~pat(i);
	ck_assert_int_eq(dfz_ram_copy_2d(dev, dst, src, 80, 48, 20, 0, r), 0);
	ck_assert_int_eq(dfz_ram_copy_wait(r), 0);
	for (uint32_t i = 0; i < 4 * 48; i++) {
		uint32_t line = i / 48, within = i % 48;

		if (within < 20)
			ck_assert_uint_eq(l3[i], src[line * 20 + within]);
		else
			CK_CHECK_UINT(l3[i], ==, pat(i));
	}
}
END_TEST

/* ------------------------------------------------------------ time model */

START_TEST(test_latency_bandwidth)
{
	uint32_t src;
	uint8_t *dst;
	struct dfz_ram_req *r;

	start(3, 16, 0, 0);
	src = l3_src(40);
	dst = l2_alloc(40);
	r = new_req();
	ck_assert_int_eq(dfz_ram_copy(dev, src, dst, 40, 1, r), 0);
	steps(3);
	ck_assert_uint_eq(count(DFZ_EV_MOVE), 0);
	ck_assert_ptr_eq(dfz_ram_slot(dev, 0), r);
	ck_assert_ptr_null(dfz_ram_queue_head(dev));
	steps(1);
	ck_assert_uint_eq(count(DFZ_EV_SERVICE), 1);
	ck_assert_uint_eq(count(DFZ_EV_MOVE), 1);
	ck_assert_uint_eq(dst[15], pat(15));
	ck_assert_uint_eq(dst[16], dfz_mem_fill_byte(DFZ_L2, l2_off(dst) + 16));
	steps(1);
	ck_assert_uint_eq(r->done, 0);
	steps(1);
	ck_assert_uint_eq(r->done, 1);
	ck_assert_uint_eq(count(DFZ_EV_MOVE), 3);
	ck_assert_uint_eq(events[nevents - 2].dst.len, 8);
	ck_assert_uint_eq(events[nevents - 1].kind, DFZ_EV_COMPLETE);
	ck_assert_uint_eq(events[nevents - 1].step, 6);
	ck_assert_ptr_null(dfz_ram_slot(dev, 0));
	ck_assert(dfz__ram_is_idle(dev));
}
END_TEST

/* A 2-D chunk never crosses a line end, even with bandwidth to spare. */
START_TEST(test_2d_chunks_split_at_lines)
{
	uint32_t src;
	uint8_t *dst;
	struct dfz_ram_req *r;

	start(0, 64, 0, 1);
	src = l3_src(3 * 30);
	dst = l2_alloc(30);
	r = new_req();
	nevents = 0;
	ck_assert_int_eq(dfz_ram_copy_2d(dev, src, dst, 30, 30, 10, 1, r), 0);
	ck_assert_uint_eq(r->done, 1);
	ck_assert_uint_eq(count(DFZ_EV_MOVE), 3);
	for (unsigned i = 0; i < 3; i++) {
		const struct dfz_event *ev = &events[2 + i];

		ck_assert_uint_eq(ev->kind, DFZ_EV_MOVE);
		ck_assert_uint_eq(ev->src.off, src + i * 30);
		ck_assert_uint_eq(ev->dst.off, l2_off(dst) + i * 10);
		ck_assert_uint_eq(ev->dst.len, 10);
		ck_assert_uint_eq(ev->step, 1);
	}
}
END_TEST

START_TEST(test_fifo_two_slots)
{
	uint32_t src;
	uint8_t *dst;
	struct dfz_ram_req *r[3];

	start(2, 64, 0, 0);
	src = l3_src(64);
	dst = l2_alloc(3 * 64);
	for (unsigned i = 0; i < 3; i++) {
		r[i] = new_req();
		ck_assert_int_eq(dfz_ram_copy(dev, src, dst + 64 * i, 64, 1,
					      r[i]), 0);
	}
	ck_assert_ptr_eq(dfz_ram_queue_head(dev), r[0]);
	ck_assert_ptr_eq(r[0]->next, r[1]);
	ck_assert_ptr_eq(r[1]->next, r[2]);
	ck_assert_ptr_null(r[2]->next);
	steps(1);
	ck_assert_ptr_eq(dfz_ram_slot(dev, 0), r[0]);
	ck_assert_ptr_eq(dfz_ram_slot(dev, 1), r[1]);
	ck_assert_ptr_eq(dfz_ram_queue_head(dev), r[2]);
	steps(2); /* latency done: r0 and r1 complete at step 3 */
	ck_assert_uint_eq(r[0]->done, 1);
	ck_assert_uint_eq(r[1]->done, 1);
	ck_assert_uint_eq(r[2]->done, 0);
	ck_assert_ptr_eq(dfz_ram_queue_head(dev), r[2]);
	steps(1); /* promoted on the next step */
	ck_assert_ptr_eq(dfz_ram_slot(dev, 0), r[2]);
	ck_assert_ptr_null(dfz_ram_queue_head(dev));
	ck_assert_int_eq(dfz_ram_copy_wait(r[2]), 0);
	ck_assert_int_lt(find(DFZ_EV_COMPLETE, r[0]), find(DFZ_EV_SERVICE, r[2]));
	ck_assert_uint_eq(events[find(DFZ_EV_SERVICE, r[2])].step, 6);
	for (uint32_t i = 0; i < 3 * 64; i++)
		CK_CHECK_UINT(dst[i], ==, pat(i % 64));
}
END_TEST

/* DFZ_RTQ_RAM_SERIAL (gap_sdk GAP8): one slot busy at a time, the next
 * request promoted on the step after the last one completed. */
START_TEST(test_serial_one_slot)
{
	uint32_t src;
	uint8_t *dst;
	struct dfz_ram_req *r[3];

	start(2, 64, 0, 0);
	dfz_rt_set_quirks(rt, DFZ_RTQ_RAM_SERIAL);
	src = l3_src(64);
	dst = l2_alloc(3 * 64);
	for (unsigned i = 0; i < 3; i++) {
		r[i] = new_req();
		ck_assert_int_eq(dfz_ram_copy(dev, src, dst + 64 * i, 64, 1,
					      r[i]), 0);
	}
	steps(1);
	ck_assert_ptr_eq(dfz_ram_slot(dev, 0), r[0]);
	ck_assert_ptr_null(dfz_ram_slot(dev, 1));
	ck_assert_ptr_eq(dfz_ram_queue_head(dev), r[1]);
	steps(2);
	ck_assert_uint_eq(r[0]->done, 1);
	ck_assert_uint_eq(r[1]->done, 0);
	steps(1);
	ck_assert_ptr_eq(dfz_ram_slot(dev, 0), r[1]);
	ck_assert_ptr_null(dfz_ram_slot(dev, 1));
	ck_assert_int_eq(dfz_ram_copy_wait(r[2]), 0);
	ck_assert_int_lt(find(DFZ_EV_COMPLETE, r[1]), find(DFZ_EV_SERVICE, r[2]));
	for (uint32_t i = 0; i < 3 * 64; i++)
		CK_CHECK_UINT(dst[i], ==, pat(i % 64));
}
END_TEST

START_TEST(test_wait_hang)
{
	uint32_t src;
	uint8_t *dst;
	struct dfz_ram_req *r;
	int w;

	start(1000, 0, 10, 0);
	src = l3_src(8);
	dst = l2_alloc(8);
	r = new_req();
	ck_assert_int_eq(dfz_ram_copy(dev, src, dst, 8, 1, r), 0);
	ck_assert_int_eq(dfz_ram_copy_wait(r), DFZ_EHANG);
	ck_assert_uint_eq(r->done, 0);
	ck_assert_uint_eq(dfz_rt_now(rt), 10);
	ck_assert_uint_eq(count(DFZ_EV_MOVE), 0);
	w = find(DFZ_EV_HANG, r);
	ck_assert_int_ge(w, 0);
	ck_assert_uint_eq(events[w + 1].kind, DFZ_EV_WAITED);
	ck_assert_int_eq(events[w + 1].aux, DFZ_EHANG);
	ck_assert_uint_eq(events[w + 1].step, 10);
}
END_TEST

/* A wait on a request no engine holds cannot complete: a hang at the
 * bound, reached without spinning through idle steps. */
START_TEST(test_wait_idle_hangs)
{
	struct dfz_ram_req *r;

	start(0, 0, 5000000, 0);
	r = new_req();
	memset(r, 0, sizeof(*r));
	r->device = dev;
	ck_assert_int_eq(dfz_ram_copy_wait(r), DFZ_EHANG);
	ck_assert_uint_eq(dfz_rt_now(rt), 5000000);
	ck_assert_int_ge(find(DFZ_EV_HANG, r), 0);
}
END_TEST

START_TEST(test_wait_errors)
{
	struct dfz_ram_req on_stack = { .device = NULL };
	struct dfz_ram_req *r = new_req();

	nevents = 0;
	ck_assert_int_eq(dfz_ram_copy_wait(NULL), DFZ_EINVAL);
	on_stack.device = dev;
	ck_assert_int_eq(dfz_ram_copy_wait(&on_stack), DFZ_EFAULT);
	r->device = (struct dfz_ram *)(uintptr_t)0x1234;
	ck_assert_int_eq(dfz_ram_copy_wait(r), DFZ_EINVAL);
	r->device = (struct dfz_ram *)((uint8_t *)dev + 8);
	ck_assert_int_eq(dfz_ram_copy_wait(r), DFZ_EINVAL);
	ck_assert_uint_eq(nevents, 0);
}
END_TEST

/* A wait on a request that is already done returns without a step. */
START_TEST(test_wait_done_no_step)
{
	uint32_t src;
	uint8_t *dst;
	struct dfz_ram_req *r;
	uint64_t t;

	start(0, 0, 0, 5);
	src = l3_src(16);
	dst = l2_alloc(16);
	r = new_req();
	ck_assert_int_eq(dfz_ram_copy(dev, src, dst, 16, 1, r), 0);
	ck_assert_uint_eq(r->done, 1);
	t = dfz_rt_now(rt);
	ck_assert_int_eq(dfz_ram_copy_wait(r), 0);
	ck_assert_uint_eq(dfz_rt_now(rt), t);
}
END_TEST

/* ---------------------------------------------- descriptor at service time */

START_TEST(test_desc_read_at_service)
{
	uint32_t a, b;
	uint8_t *dst;
	struct dfz_ram_req *r;
	int iss, svc;

	start(2, 0, 0, 0);
	a = l3_src(64);
	b = l3_src(64);
	dst = l2_alloc(64);
	r = new_req();
	ck_assert_int_eq(dfz_ram_copy(dev, a, dst, 64, 1, r), 0);
	r->ram_addr = b + 10;
	r->size = 32;
	ck_assert_int_eq(dfz_ram_copy_wait(r), 0);
	for (uint32_t i = 0; i < 32; i++)
		ck_assert_uint_eq(dst[i], pat(i + 10));
	ck_assert_uint_eq(unfilled(DFZ_L2, l2_off(dst) + 32, l2_off(dst) + 64), 0);
	iss = find(DFZ_EV_ISSUE, r);
	svc = find(DFZ_EV_SERVICE, r);
	ck_assert_int_ge(iss, 0);
	ck_assert_int_gt(svc, iss);
	ck_assert_uint_eq(events[iss].desc.ext_off, a);
	ck_assert_uint_eq(events[iss].desc.size, 64);
	ck_assert_uint_eq(events[svc].desc.ext_off, b + 10);
	ck_assert_uint_eq(events[svc].desc.size, 32);
}
END_TEST

/* A descriptor clobbered mid-transfer: bytes already moved stay, the rest
 * follow the new descriptor. */
START_TEST(test_desc_clobbered_mid_transfer)
{
	uint32_t a, b;
	uint8_t *dst;
	struct dfz_ram_req *r;

	start(0, 16, 0, 0);
	a = l3_src(64);
	b = l3_src(65);
	dst = l2_alloc(64);
	r = new_req();
	ck_assert_int_eq(dfz_ram_copy(dev, a, dst, 64, 1, r), 0);
	steps(1);
	r->ram_addr = b + 1;
	ck_assert_int_eq(dfz_ram_copy_wait(r), 0);
	for (uint32_t i = 0; i < 16; i++)
		ck_assert_uint_eq(dst[i], pat(i));
	for (uint32_t i = 16; i < 64; i++)
		ck_assert_uint_eq(dst[i], pat(i + 1));
}
END_TEST

/* -------------------------------------------------- the driver's own queue */

START_TEST(test_reissue_tail_self_link)
{
	uint32_t src = l3_src(32);
	uint8_t *dst = l2_alloc(32);
	struct dfz_ram_req *r1 = new_req(), *r2 = new_req();

	ck_assert_int_eq(dfz_ram_copy(dev, src, dst, 16, 1, r1), 0);
	ck_assert_int_eq(dfz_ram_copy(dev, src, dst, 16, 1, r2), 0);
	ck_assert_int_eq(dfz_ram_copy(dev, src + 16, dst + 16, 16, 1, r2), 0);
	ck_assert_ptr_eq(dfz_ram_queue_head(dev), r1);
	ck_assert_ptr_eq(r1->next, r2);
	ck_assert_ptr_eq(r2->next, r2);
	ck_assert_uint_eq(r2->ram_addr, src + 16);
}
END_TEST

/* The self-linked node keeps coming back: the wait sees done set by the
 * first completion, and the engine never goes idle. */
START_TEST(test_self_link_keeps_engine_busy)
{
	uint32_t src;
	uint8_t *dst;
	struct dfz_ram_req *r;

	start(0, 0, 50, 0);
	src = l3_src(32);
	dst = l2_alloc(32);
	r = new_req();
	ck_assert_int_eq(dfz_ram_copy(dev, src, dst, 16, 1, r), 0);
	ck_assert_int_eq(dfz_ram_copy(dev, src + 16, dst + 16, 16, 1, r), 0);
	ck_assert_ptr_eq(r->next, r);
	ck_assert_int_eq(dfz_ram_copy_wait(r), 0);
	steps(10);
	ck_assert(!dfz__ram_is_idle(dev));
	ck_assert_uint_gt(count(DFZ_EV_COMPLETE), 2);
	/* The first descriptor was lost: dst[0..16) was never written. */
	ck_assert_uint_eq(unfilled(DFZ_L2, l2_off(dst), l2_off(dst) + 16), 0);
}
END_TEST

/* A yield never runs more than wait_bound steps, even when the engine
 * stays busy forever: no real spin on a huge scheduler draw. */
START_TEST(test_yield_capped)
{
	uint32_t src;
	uint8_t *dst;
	struct dfz_ram_req *r;

	start(0, 0, 50, 0);
	src = l3_src(16);
	dst = l2_alloc(16);
	r = new_req();
	ck_assert_int_eq(dfz_ram_copy(dev, src, dst, 16, 1, r), 0);
	ck_assert_int_eq(dfz_ram_copy(dev, src, dst, 16, 1, r), 0);
	ck_assert_ptr_eq(r->next, r);
	steps_at[DFZ_YIELD_COMPUTE] = 4000000000u;
	dfz_rt_yield(rt, DFZ_YIELD_COMPUTE);
	ck_assert_uint_eq(dfz_rt_now(rt), 50);
	ck_assert(!dfz__ram_is_idle(dev));
}
END_TEST

START_TEST(test_wild_next_faults)
{
	uint32_t src;
	uint8_t *dst;
	struct dfz_ram_req *r;
	int f;

	start(0, 0, 0, 0);
	src = l3_src(16);
	dst = l2_alloc(16);
	r = new_req();
	ck_assert_int_eq(dfz_ram_copy(dev, src, dst, 16, 1, r), 0);
	r->next = (struct dfz_ram_req *)(uintptr_t)0x1000;
	ck_assert_int_eq(dfz_ram_copy_wait(r), 0);
	f = find(DFZ_EV_FAULT, NULL);
	ck_assert_int_ge(f, 0);
	ck_assert_int_eq(events[f].aux, 0x1000);
	ck_assert_ptr_null(dfz_ram_queue_head(dev));
	ck_assert_mem_eq(dst, dfz_mem_ptr(rt, DFZ_L3, src), 16);
	/* A misaligned node inside L2 is as wild. */
	ck_assert_int_eq(dfz_ram_copy(dev, src, dst, 16, 1, r), 0);
	r->next = (struct dfz_ram_req *)((uint8_t *)r + 1);
	ck_assert_int_eq(dfz_ram_copy_wait(r), 0);
	ck_assert_uint_eq(count(DFZ_EV_FAULT), 2);
}
END_TEST

/* ---------------------------------------------------- address validation */

START_TEST(test_req_outside_rejected)
{
	struct dfz_ram_req on_stack, before;
	uint32_t src = l3_src(16);
	uint8_t *dst = l2_alloc(16);
	uint8_t *raw = l2_alloc(2 * sizeof(struct dfz_ram_req));
	uint32_t l3req;

	memset(&on_stack, 0x5a, sizeof(on_stack));
	before = on_stack;
	ck_assert_int_eq(dfz_ram_copy(dev, src, dst, 16, 1, &on_stack),
			 DFZ_EFAULT);
	ck_assert_int_eq(dfz_ram_copy_2d(dev, src, dst, 16, 8, 8, 1, &on_stack),
			 DFZ_EFAULT);
	ck_assert_mem_eq(&on_stack, &before, sizeof(on_stack));
	ck_assert_int_eq(dfz_l3_alloc(rt, sizeof(on_stack), &l3req), 0);
	ck_assert_int_eq(dfz_ram_copy(dev, src, dst, 16, 1,
		(struct dfz_ram_req *)dfz_mem_ptr(rt, DFZ_L3, l3req)), DFZ_EFAULT);
	ck_assert_int_eq(dfz_ram_copy(dev, src, dst, 16, 1,
		(struct dfz_ram_req *)(raw + 4)), DFZ_EFAULT);
	ck_assert_uint_eq(count(DFZ_EV_ISSUE), 0);
	ck_assert_ptr_null(dfz_ram_queue_head(dev));
}
END_TEST

START_TEST(test_issue_einval)
{
	uint32_t src = l3_src(16);
	uint8_t *dst = l2_alloc(16);
	struct dfz_ram_req *r = new_req();
	struct dfz_ram_req before;
	int on_stack[4];

	memset(r, 0x77, sizeof(*r));
	before = *r;
	nevents = 0;
	ck_assert_int_eq(dfz_ram_copy(dev, src, dst, 0, 1, r), DFZ_EINVAL);
	ck_assert_int_eq(dfz_ram_copy(dev, src, NULL, 16, 1, r), DFZ_EINVAL);
	ck_assert_int_eq(dfz_ram_copy(NULL, src, dst, 16, 1, r), DFZ_EINVAL);
	ck_assert_int_eq(dfz_ram_copy(dev, src, dst, 16, 1, NULL), DFZ_EINVAL);
	ck_assert_int_eq(dfz_ram_copy_2d(dev, src, dst, 16, 8, 0, 1, r),
			 DFZ_EINVAL);
	ck_assert_int_eq(dfz_ram_copy((struct dfz_ram *)(uintptr_t)0x40, src, dst,
				      16, 1, r), DFZ_EINVAL);
	ck_assert_int_eq(dfz_ram_copy(dev, src, on_stack, 16, 1, r), DFZ_EFAULT);
	ck_assert_mem_eq(r, &before, sizeof(*r));
	ck_assert_uint_eq(nevents, 0);
}
END_TEST

/* The L2 footprint is checked when bytes move: a transfer running off the
 * end of L2, or an address clobbered to somewhere else, faults and ends. */
START_TEST(test_service_faults)
{
	struct dfz_rt_config cfg;
	uint32_t src;
	uint8_t *dst;
	struct dfz_ram_req *r;
	int on_stack[4];
	int f;

	start(2, 0, 0, 0);
	src = l3_src(64);
	dst = l2_alloc(64);
	r = new_req();
	ck_assert_int_eq(dfz_ram_copy(dev, src, dst, 64, 1, r), 0);
	r->addr = on_stack;
	ck_assert_int_eq(dfz_ram_copy_wait(r), 0);
	f = find(DFZ_EV_FAULT, r);
	ck_assert_int_ge(f, 0);
	ck_assert_int_eq(events[f].aux, (int64_t)(uintptr_t)on_stack);
	ck_assert_uint_eq(events[f + 1].kind, DFZ_EV_COMPLETE);
	ck_assert_uint_eq(r->done, 1);
	/* An L3 side beyond the usable size. */
	cfg = rt->cfg;
	ck_assert_int_eq(dfz_rt_reset(rt, &cfg), 0);
	nevents = 0;
	src = l3_src(64);
	r = new_req();
	dst = l2_alloc(64);
	ck_assert_int_eq(dfz_ram_copy(dev, DFZ_CAP_L3 - 8, dst, 64, 1, r), 0);
	ck_assert_int_eq(dfz_ram_copy_wait(r), 0);
	f = find(DFZ_EV_FAULT, r);
	ck_assert_int_ge(f, 0);
	ck_assert_int_eq(events[f].aux, DFZ_CAP_L3 - 8);
	ck_assert_uint_eq(count(DFZ_EV_MOVE), 0);
}
END_TEST

/* A 2-D descriptor whose length is clobbered to 0 faults instead of
 * dividing by zero. */
START_TEST(test_service_zero_length)
{
	uint32_t src;
	uint8_t *dst;
	struct dfz_ram_req *r;

	start(1, 0, 0, 0);
	src = l3_src(64);
	dst = l2_alloc(64);
	r = new_req();
	ck_assert_int_eq(dfz_ram_copy_2d(dev, src, dst, 64, 32, 16, 1, r), 0);
	r->length = 0;
	ck_assert_int_eq(dfz_ram_copy_wait(r), 0);
	ck_assert_int_ge(find(DFZ_EV_FAULT, r), 0);
	ck_assert_uint_eq(count(DFZ_EV_MOVE), 0);
}
END_TEST

/* ---------------------------------------------------------------- events */

START_TEST(test_event_sequence)
{
	static const uint8_t want[] = {
		DFZ_EV_ISSUE, DFZ_EV_SERVICE, DFZ_EV_MOVE, DFZ_EV_MOVE,
		DFZ_EV_MOVE, DFZ_EV_COMPLETE, DFZ_EV_WAIT, DFZ_EV_WAITED,
	};
	uint32_t src;
	uint8_t *dst;
	struct dfz_ram_req *r;

	start(0, 16, 0, 10);
	src = l3_src(40);
	dst = l2_alloc(40);
	r = new_req();
	nevents = 0;
	ck_assert_int_eq(dfz_ram_copy(dev, src, dst, 40, 1, r), 0);
	ck_assert_int_eq(dfz_ram_copy_wait(r), 0);
	ck_assert_uint_eq(nevents, sizeof(want));
	for (unsigned i = 0; i < nevents; i++) {
		ck_assert_uint_eq(events[i].kind, want[i]);
		ck_assert_ptr_eq(events[i].handle, r);
		ck_assert_uint_eq(events[i].engine, DFZ_ENGINE_RAM);
	}
	ck_assert_uint_eq(events[0].step, 0);
	ck_assert_uint_eq(events[0].desc.ext_level, DFZ_L3);
	ck_assert_uint_eq(events[0].desc.ext_off, src);
	ck_assert_uint_eq(events[0].desc.loc_level, DFZ_L2);
	ck_assert_uint_eq(events[0].desc.loc_off, l2_off(dst));
	ck_assert_uint_eq(events[0].desc.size, 40);
	ck_assert_uint_eq(events[0].desc.ext2loc, 1);
	ck_assert_uint_eq(events[1].step, 1);
	ck_assert_uint_eq(events[4].dst.level, DFZ_L2);
	ck_assert_uint_eq(events[4].dst.off, l2_off(dst) + 32);
	ck_assert_uint_eq(events[4].dst.len, 8);
	ck_assert_uint_eq(events[4].src.level, DFZ_L3);
	ck_assert_uint_eq(events[4].src.off, src + 32);
	ck_assert_uint_eq(events[5].step, 3);
	ck_assert_uint_eq(events[6].step, 10);
	ck_assert_int_eq(events[7].aux, 0);
}
END_TEST

/* With no steps at issue the bytes move inside the wait. */
START_TEST(test_event_sequence_in_wait)
{
	static const uint8_t want[] = {
		DFZ_EV_ISSUE, DFZ_EV_WAIT, DFZ_EV_SERVICE, DFZ_EV_MOVE,
		DFZ_EV_COMPLETE, DFZ_EV_WAITED,
	};
	uint32_t src;
	uint8_t *dst;
	struct dfz_ram_req *r;

	start(0, 0, 0, 0);
	src = l3_src(40);
	dst = l2_alloc(40);
	r = new_req();
	nevents = 0;
	ck_assert_int_eq(dfz_ram_copy(dev, src, dst, 40, 0, r), 0);
	ck_assert_int_eq(dfz_ram_copy_wait(r), 0);
	ck_assert_uint_eq(nevents, sizeof(want));
	for (unsigned i = 0; i < nevents; i++)
		ck_assert_uint_eq(events[i].kind, want[i]);
	ck_assert_uint_eq(events[3].dst.level, DFZ_L3);
	ck_assert_uint_eq(events[3].src.level, DFZ_L2);
}
END_TEST

/* ------------------------------------------------------- ops, reset, misc */

START_TEST(test_engine_ops)
{
	const struct dfz_engine_ops *ops = dfz__engine_ops(DFZ_ENGINE_RAM);
	uint32_t src = l3_src(4 * 48);
	uint8_t *dst = l2_alloc(80);
	struct dfz_ram_req *r = new_req();
	struct dfz_desc d = {
		.ext_level = DFZ_L3, .loc_level = DFZ_L2, .ext2loc = 1,
		.is_2d = 1, .ext_off = src, .loc_off = l2_off(dst), .size = 80,
		.length = 20, .ext_stride = 48, .loc_stride = 20,
	};

	ck_assert_ptr_nonnull(ops);
	ck_assert_ptr_null(dfz__engine_ops(DFZ_ENGINE_COUNT));
	ck_assert_str_eq(ops->name, "ram");
	ck_assert_uint_eq(ops->kernel_ranks, 1u << 2);
	ck_assert(!ops->can_share);
	ck_assert_uint_eq(ops->req_size, sizeof(struct dfz_ram_req));
	ck_assert_int_eq(ops->issue(rt, r, &d), 0);
	ck_assert_int_eq(ops->wait(rt, r), 0);
	for (uint32_t i = 0; i < 80; i++)
		ck_assert_uint_eq(dst[i], pat(i / 20 * 48 + i % 20));
	d.loc_stride = 24;
	ck_assert_int_eq(ops->issue(rt, r, &d), DFZ_EINVAL);
	d.loc_stride = 20;
	d.ext_level = DFZ_L2;
	ck_assert_int_eq(ops->issue(rt, r, &d), DFZ_EINVAL);
	d.ext_level = DFZ_L3;
	d.loc_off = DFZ_CAP_L2;
	ck_assert_int_eq(ops->issue(rt, r, &d), DFZ_EFAULT);
	d = (struct dfz_desc){ .ext_level = DFZ_L3, .loc_level = DFZ_L2,
			       .ext_off = src, .loc_off = l2_off(dst),
			       .size = 8, .length = 8, .ext_stride = 8,
			       .loc_stride = 8 };
	ck_assert_int_eq(ops->issue(rt, r, &d), 0);
	ck_assert_uint_eq(r->is_2d, 0);
	ck_assert_uint_eq(r->ext2loc, 0);
	ck_assert_int_eq(ops->wait(rt, r), 0);
	ck_assert_mem_eq(dfz_mem_ptr(rt, DFZ_L3, src), dst, 8);
}
END_TEST

START_TEST(test_reset_idles_engine)
{
	uint32_t src;
	uint8_t *dst;
	struct dfz_ram_req *r1, *r2, *r3;

	start(100, 0, 0, 0);
	src = l3_src(16);
	dst = l2_alloc(48);
	r1 = new_req();
	r2 = new_req();
	r3 = new_req();
	ck_assert_int_eq(dfz_ram_copy(dev, src, dst, 16, 1, r1), 0);
	ck_assert_int_eq(dfz_ram_copy(dev, src, dst + 16, 16, 1, r2), 0);
	ck_assert_int_eq(dfz_ram_copy(dev, src, dst + 32, 16, 1, r3), 0);
	steps(1);
	ck_assert(!dfz__ram_is_idle(dev));
	start(0, 0, 0, 0);
	ck_assert(dfz__ram_is_idle(dev));
	ck_assert_ptr_null(dfz_ram_queue_head(dev));
	ck_assert_ptr_null(dfz_ram_slot(dev, 0));
	ck_assert_ptr_null(dfz_ram_slot(dev, 1));
	ck_assert_ptr_null(dfz_ram_slot(dev, DFZ_RAM_SLOTS));
	ck_assert_uint_eq(dfz_rt_now(rt), 0);
	dfz_rt_yield(rt, DFZ_YIELD_ISSUE);
	ck_assert_uint_eq(nevents, 0);
}
END_TEST

/* A wait on a request of a destroyed runtime is refused, not a crash. */
START_TEST(test_wait_after_destroy)
{
	struct dfz_rt *other;
	struct dfz_ram_req *r = new_req();

	ck_assert_int_eq(dfz_rt_create(&other), 0);
	r->device = dfz_ram_get(other);
	ck_assert_ptr_null(dfz_ram_get(NULL));
	dfz_rt_destroy(other);
	ck_assert_int_eq(dfz_ram_copy_wait(r), DFZ_EINVAL);
	dfz_rt_destroy(NULL);
}
END_TEST

/* The runtime's rounded-up division (steps of a stretch, lines of a
 * footprint): a shift for a power of two, a division else, the same. */
START_TEST(test_ceil_div)
{
	for (uint64_t d = 1; d <= 300; d++)
		for (uint64_t n = 0; n < 5000; n += 29)
			ck_assert_uint_eq(dfz__ceil_div(n, d), (n + d - 1) / d);
	ck_assert_uint_eq(dfz__ceil_div((1ull << 40) + 1, 1u << 12),
			  (1ull << 28) + 1);
	ck_assert_uint_eq(dfz__steps_for(65, 64), 2);
}
END_TEST

Suite *suite_ram(void)
{
	Suite *s = suite_create("ram");
	TCase *tc = tcase_create("ram");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_ceil_div);
	tcase_add_test(tc, test_copy_1d_load);
	tcase_add_test(tc, test_copy_1d_store);
	tcase_add_test(tc, test_copy_2d_load);
	tcase_add_test(tc, test_copy_2d_store);
	tcase_add_test(tc, test_latency_bandwidth);
	tcase_add_test(tc, test_2d_chunks_split_at_lines);
	tcase_add_test(tc, test_fifo_two_slots);
	tcase_add_test(tc, test_serial_one_slot);
	tcase_add_test(tc, test_wait_hang);
	tcase_add_test(tc, test_wait_idle_hangs);
	tcase_add_test(tc, test_wait_errors);
	tcase_add_test(tc, test_wait_done_no_step);
	tcase_add_test(tc, test_desc_read_at_service);
	tcase_add_test(tc, test_desc_clobbered_mid_transfer);
	tcase_add_test(tc, test_reissue_tail_self_link);
	tcase_add_test(tc, test_self_link_keeps_engine_busy);
	tcase_add_test(tc, test_yield_capped);
	tcase_add_test(tc, test_wild_next_faults);
	tcase_add_test(tc, test_req_outside_rejected);
	tcase_add_test(tc, test_issue_einval);
	tcase_add_test(tc, test_service_faults);
	tcase_add_test(tc, test_service_zero_length);
	tcase_add_test(tc, test_event_sequence);
	tcase_add_test(tc, test_event_sequence_in_wait);
	tcase_add_test(tc, test_engine_ops);
	tcase_add_test(tc, test_reset_idles_engine);
	tcase_add_test(tc, test_wait_after_destroy);
	suite_add_tcase(s, tc);
	return s;
}
