// SPDX-License-Identifier: MIT
/*
 * DORY's DMA library under the drop-in (dory_dma.h): the mindims copies
 * of Deeploy's tiling templates, dory_dma_memcpy_async's dispatch, the
 * library's core gating, a barrier that does not free, and DMA_copy's
 * 16-bit fields.
 */
#include <check.h>
#include <string.h>

#include "dropin_fixture.h"
#include "dmafuzz/dropin/pmsis.h"
#include "dmafuzz/dropin/dory_dma.h"

#define EXT_W 32                /* bytes per row of the L2 tensor */
#define CMD(size, flags) ((size) | (1u << 17) | (flags))
#define F_1D ((1u << 18) | (1u << 20))
#define F_2D (F_1D | (1u << 19))

static uint8_t *l2, *l1;
static uint32_t seen;
static int want_line;

/* A 2 x 3 x 4 box of a 4 x 4 x 32-byte tensor: 2 planes of 3 rows of 4
 * bytes, rows EXT_W apart, planes 4 * EXT_W apart, dense in L1. */
static DMA_copy box(int tid)
{
	DMA_copy c = {
		.ext = l2, .loc = l1,
		.stride_2d = 4 * EXT_W, .number_of_2d_copies = 2,
		.stride_1d = EXT_W, .number_of_1d_copies = 3,
		.length_1d_copy = 4,
		.mchan_cmd = CMD(3 * 4, F_2D),
		.dir = 1, .tid = tid,
	};

	return c;
}

static int box_landed(void)
{
	for (int p = 0; p < 2; p++)
		for (int r = 0; r < 3; r++)
			if (memcmp(l1 + (p * 3 + r) * 4,
				   l2 + p * 4 * EXT_W + r * EXT_W, 4))
				return 0;
	return 1;
}

static void setup(void)
{
	l2 = pi_l2_malloc(16 * EXT_W);
	l1 = pmsis_l1_malloc(256);
	fill(l2, 16 * EXT_W);
}

/* Deeploy's single-buffered template: one counter for the node, the tile
 * by the mindims copy, a barrier, the free at teardown. */
static void body_sb(void *arg)
{
	DMA_copy c;

	(void)arg;
	setup();
	c = box(dory_dma_allocate());
	dory_dma_memcpy_mindims_async(&c);
	dory_dma_barrier(&c);
	seen = (uint32_t)box_landed();
	dory_dma_free(&c);
}

START_TEST(test_mindims_sb)
{
	struct dfz__result r = run_with(body_sb, "");

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
	ck_assert_uint_eq(seen, 1);
	ck_assert_uint_eq(r.xfers, 2);       /* one 2-D push per plane */
}
END_TEST

/* The same without the free: dory_dma_barrier waits, it does not free. */
static void body_no_free(void *arg)
{
	DMA_copy c;

	(void)arg;
	setup();
	c = box(dory_dma_allocate());
	want_line = __LINE__ + 1;
	dory_dma_memcpy_mindims_async(&c);
	dory_dma_barrier(&c);
}

START_TEST(test_barrier_does_not_free)
{
	struct dfz__result r = run_with(body_no_free, "");

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_HANDLE_LEAK);
	ck_assert_int_eq(r.site.line, want_line);
}
END_TEST

/* dory_dma_memcpy_async picks 1d (contiguous), 2d (one plane) or 3d. */
static DMA_copy dispatched;

static void body_async(void *arg)
{
	DMA_copy c = dispatched;

	(void)arg;
	setup();
	c.ext = l2;
	c.loc = l1;
	c.tid = dory_dma_allocate();
	dory_dma_memcpy_async(&c);
	dory_dma_barrier(&c);
	dory_dma_free(&c);
	seen = (uint32_t)box_landed();
}

START_TEST(test_async_dispatch)
{
	struct dfz__result r;

	dispatched = box(0);
	r = run_with(body_async, "");
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
	ck_assert_uint_eq(r.xfers, 2);       /* 3d: a 2-D push per plane */
	ck_assert_uint_eq(seen, 1);
	dispatched.number_of_2d_copies = 1;
	r = run_with(body_async, "");
	ck_assert_uint_eq(r.xfers, 1);       /* 2d */
	dispatched.stride_1d = 4;            /* rows back to back: 1d */
	dispatched.number_of_1d_copies = 1;
	dispatched.length_1d_copy = 12;
	r = run_with(body_async, "");
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
	ck_assert_uint_eq(r.xfers, 1);
	ck_assert_mem_eq(l1, l2, 12);
}
END_TEST

/* The library's gating: 1d/2d/3d copies act on core 0 only; the mindims
 * copies on every core that calls them. */
static volatile int mindims_on_all;

static void both_cores(void *arg)
{
	DMA_copy c = box(0);

	(void)arg;
	c.tid = dory_dma_allocate();
	c.loc = l1 + 64 * pi_core_id();
	if (mindims_on_all)
		dory_dma_memcpy_mindims_async(&c);
	else
		dory_dma_memcpy_3d_async(&c);
	dory_dma_barrier(&c);
	dory_dma_free(&c);
}

static void body_gating(void *arg)
{
	(void)arg;
	setup();
	pi_cl_team_fork(2, both_cores, NULL);
}

START_TEST(test_core_gating)
{
	struct dfz__result r;

	mindims_on_all = 0;
	r = run_with(body_gating, "");
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
	ck_assert_uint_eq(r.xfers, 2);
	mindims_on_all = 1;
	r = run_with(body_gating, "");
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
	ck_assert_uint_eq(r.xfers, 4);
}
END_TEST

/* A plane stride of 64 KiB + 4 rows does not fit the u16 field. */
static void body_u16(void *arg)
{
	volatile uint32_t want = 65536 + 4 * EXT_W;
	DMA_copy c;

	(void)arg;
	setup();
	c = box(dory_dma_allocate());
	c.stride_2d = (unsigned short)want;
	seen = c.stride_2d;
	dory_dma_memcpy_mindims_async(&c);
	dory_dma_barrier(&c);
	dory_dma_free(&c);
}

START_TEST(test_u16_fields)
{
	struct dfz__result r = run_with(body_u16, "");

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
	ck_assert_uint_eq(seen, 4 * EXT_W);
	ck_assert_uint_eq(sizeof(((DMA_copy *)0)->stride_1d), 2);
	ck_assert_uint_eq(sizeof(((DMA_copy *)0)->number_of_2d_copies), 2);
}
END_TEST

Suite *suite_dropin_dory(void)
{
	Suite *s = suite_create("dropin_dory");
	TCase *tc = tcase_create("dory");

	tcase_add_test(tc, test_mindims_sb);
	tcase_add_test(tc, test_barrier_does_not_free);
	tcase_add_test(tc, test_async_dispatch);
	tcase_add_test(tc, test_core_gating);
	tcase_add_test(tc, test_u16_fields);
	suite_add_tcase(s, tc);
	return s;
}
