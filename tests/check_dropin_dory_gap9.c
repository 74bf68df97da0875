// SPDX-License-Identifier: MIT
/*
 * DORY's own GAP9 DMA library under the drop-in (dory-gap9/dory_dma.h):
 * DmaTransferConf by value through the variadic macros (compound literals
 * with commas), dma_transfer_async's dispatch and sizes, the wait that
 * frees, and the layer templates' shape: one counter created before the
 * tile loop, waited (and so freed) every tile, pushed on again after.
 */
#include <check.h>
#include <string.h>

#include "dropin_fixture.h"
#include "dmafuzz/dropin/dory-gap9/dory_dma.h"

#pragma GCC diagnostic ignored "-Wpointer-to-int-cast"

#define W 32                    /* bytes per row of the L2 tensor */

static uint8_t *l2, *l1;
static uint32_t seen;
static int want_line;

static void setup(void)
{
	l2 = pi_l2_malloc(16 * W);
	l1 = pmsis_l1_malloc(16 * W);
	fill(l2, 16 * W);
}

/* 2 planes of 3 rows of 4 bytes: rows W apart, planes 4 * W apart. */
static int box_landed(const uint8_t *loc)
{
	for (int p = 0; p < 2; p++)
		for (int r = 0; r < 3; r++)
			if (!same_bytes(loc + (p * 3 + r) * 4,
					l2 + p * 4 * W + r * W, 4))
				return 0;
	return 1;
}

/* The template's loop: the counter made once, a 3-D load per tile, the
 * wait that frees it, the next tile's load on the same counter. */
static void body_layer(void *arg)
{
	DmaTransfer transfer;
	int nowait = arg != NULL;

	setup();
	transfer = dma_transfer_create();
	for (int iter = 0; iter < 3; iter++) {
		uint8_t *loc = l1 + 64 * (iter % 2);

		dma_transfer_async((DmaTransferConf) {
			.ext = (uint32_t)l2, .loc = (uint32_t)loc,
			.number_of_2d_copies = 2, .number_of_1d_copies = 3,
			.length_1d_copy = 4, .hwc_to_chw = 0,
			.stride_2d = 4 * W, .stride_1d = W, .dir = 1 });
		if (!nowait || iter == 0)
			dma_transfer_wait(transfer);
		want_line = __LINE__ + 1;
		DFZ_DROPIN_CHECK(box_landed(loc));
	}
	if (nowait)
		dma_transfer_wait(transfer);
}

START_TEST(test_layer_loop)
{
	struct dfz__result r = run_with(body_layer, "");

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
	ck_assert_uint_eq(r.xfers, 6);       /* two 2-D pushes a tile */
}
END_TEST

/* Sabotage: the waits of tiles 1 and 2 removed. */
START_TEST(test_layer_nowait)
{
	struct dfz_dropin_test t = { body_layer, (void *)1, __FILE__ };
	struct dfz__result r;

	dfz__dropin_run(&t, NULL, 0, &r);
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_DATA_MISMATCH);
	ck_assert_int_eq(r.site.line, want_line);
}
END_TEST

/* The library's sizes: a 1-D copy moves length_1d_copy bytes only, a
 * 2-D one number_of_1d_copies lines, the async dispatch picks 1-D for a
 * single line. */
static void body_sizes(void *arg)
{
	DmaTransfer t;

	(void)arg;
	setup();
	memset(l1, 0, 16 * W);
	t = dma_transfer_create();
	dma_transfer_1d_async((DmaTransferConf) { .ext = (uint32_t)l2,
		.loc = (uint32_t)l1, .length_1d_copy = 8,
		.number_of_1d_copies = 4, .dir = 1 });
	dma_transfer_2d_async((DmaTransferConf) { .ext = (uint32_t)l2,
		.loc = (uint32_t)(l1 + 64), .length_1d_copy = 4,
		.number_of_1d_copies = 2, .stride_1d = W, .dir = 1 });
	dma_transfer_async((DmaTransferConf) { .ext = (uint32_t)l2,
		.loc = (uint32_t)(l1 + 128), .length_1d_copy = 16,
		.number_of_1d_copies = 1, .number_of_2d_copies = 1, .dir = 1 });
	dma_transfer_wait(t);
	seen = same_bytes(l1, l2, 8) && l1[8] == 0 &&
	       same_bytes(l1 + 64, l2, 4) && same_bytes(l1 + 68, l2 + W, 4) &&
	       l1[72] == 0 && same_bytes(l1 + 128, l2, 16);
}

START_TEST(test_sizes)
{
	struct dfz__result r = run_with(body_sizes, "");

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
	ck_assert_uint_eq(seen, 1);
	ck_assert_uint_eq(r.xfers, 3);
}
END_TEST

/* HWC to CHW: one column per channel, made dense in L1. */
static void body_hwc(void *arg)
{
	DmaTransfer t;
	int ok = 1;

	(void)arg;
	setup();
	t = dma_transfer_create();
	dma_transfer_async((DmaTransferConf) { .ext = (uint32_t)l2,
		.loc = (uint32_t)l1, .hwc_to_chw = 1, .length_1d_copy = 3,
		.number_of_1d_copies = 4, .number_of_2d_copies = 1,
		.stride_1d = 3, .dir = 1 });
	dma_transfer_wait(t);
	for (int c = 0; c < 3; c++)
		for (int p = 0; p < 4; p++)
			ok &= l1[c * 4 + p] == l2[p * 3 + c];
	seen = (uint32_t)ok;
}

START_TEST(test_hwc_to_chw)
{
	struct dfz__result r = run_with(body_hwc, "");

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
	ck_assert_uint_eq(seen, 1);
	ck_assert_uint_eq(r.xfers, 3);
}
END_TEST

/* Sabotage: a counter created and never waited nor freed leaks. */
static void body_leak(void *arg)
{
	(void)arg;
	(void)dma_transfer_create();
}

START_TEST(test_leak)
{
	ck_assert_int_eq(run_with(body_leak, "").finding.cls,
			 DFZ_CLASS_HANDLE_LEAK);
}
END_TEST

Suite *suite_dropin_dory_gap9(void)
{
	Suite *s = suite_create("dropin_dory_gap9");
	TCase *tc = tcase_create("dory_gap9");

	tcase_add_test(tc, test_layer_loop);
	tcase_add_test(tc, test_layer_nowait);
	tcase_add_test(tc, test_sizes);
	tcase_add_test(tc, test_hwc_to_chw);
	tcase_add_test(tc, test_leak);
	suite_add_tcase(s, tc);
	return s;
}
