// SPDX-License-Identifier: MIT
/*
 * Deeploy's mchan_v7.h and GAP9 mchan.h names under the drop-in: pushes carry the counter
 * their core allocated last, the engine decodes the caller's command word
 * as the hardware does, and misuse is a finding at the caller's line.
 */
#include <check.h>
#include <string.h>

#define MCHAN_VERSION 7
#include "dropin_fixture.h"
#include "dmafuzz/dropin/mchan_siracusa.h"
#include "dmafuzz/dropin/mchan.h"

#define N 64
#define CMD_IN(n) ((uint32_t)(MCHAN_CMD_FLAG_DIRECTION_EXT2LOC |          \
			      MCHAN_CMD_FLAG_INCREMENTAL |                 \
			      MCHAN_CMD_FLAG_EVENT_ENABLE) + (n))

static int want_line;
static uint8_t got[N];

/* Two 1-D pushes and one 2-D push (rows of 16 of a 32-byte-wide L2
 * matrix) under one channel, one wait, one free: clean, bytes in place. */
static void body_clean(void *arg)
{
	uint8_t *l2 = pi_l2_malloc(4 * N), *l1 = pmsis_l1_malloc(2 * N);
	uint32_t ch;

	(void)arg;
	fill(l2, 4 * N);
	ch = mchan_channel_alloc();
	ck_assert_uint_le(ch, MCHAN_CHANNEL_ID_MAX);
	mchan_transfer_1d(CMD_IN(32), l1, l2);
	mchan_transfer_1d(CMD_IN(32), l1 + 32, l2 + 32);
	mchan_transfer_2d_ext_strided(CMD_IN(N) | MCHAN_CMD_FLAG_2D_TRANSFER_EXTERNAL,
				      l1 + N, l2 + N, 16, 32);
	mchan_channel_wait(ch);
	ck_assert_uint_eq(mchan_channel_is_busy(ch), 0);
	mchan_channel_free(ch);
	memcpy(got, l1 + N, N);
	ck_assert_mem_eq(l1, l2, N);
	for (unsigned r = 0; r < 4; r++)
		ck_assert_mem_eq(got + r * 16, l2 + N + r * 32, 16);
}

START_TEST(test_mchan_clean)
{
	ck_assert_int_eq(run_with(body_clean, "").finding.cls, DFZ_CLASS_NONE);
}
END_TEST

static void body_no_alloc(void *arg)
{
	uint8_t *l2 = pi_l2_malloc(N), *l1 = pmsis_l1_malloc(N);

	(void)arg;
	want_line = __LINE__ + 1;
	mchan_transfer_1d(CMD_IN(N), l1, l2);
}

START_TEST(test_push_without_channel)
{
	struct dfz__result r = run_with(body_no_alloc, "");

	ck_assert_str_eq(dfz_class_name(r.finding.cls), "handle.stale");
	ck_assert_int_eq(r.site.line, want_line);
}
END_TEST

/* The sides swapped: the local address in L2. */
static void body_swapped(void *arg)
{
	uint8_t *l2 = pi_l2_malloc(N), *l1 = pmsis_l1_malloc(N);
	uint32_t ch = mchan_channel_alloc();

	(void)arg;
	want_line = __LINE__ + 1;
	mchan_transfer_1d(CMD_IN(N), l2, l1);
	mchan_channel_wait(ch);
	mchan_channel_free(ch);
}

START_TEST(test_push_bad_address)
{
	struct dfz__result r = run_with(body_swapped, "");

	ck_assert_str_eq(dfz_class_name(r.finding.cls), "dma.bad-address");
	ck_assert_int_eq(r.site.line, want_line);
}
END_TEST

/* A channel allocated, used, waited and never freed: handle.leak at the
 * push whose counter leaks. */
static void body_leak(void *arg)
{
	uint8_t *l2 = pi_l2_malloc(N), *l1 = pmsis_l1_malloc(N);
	uint32_t ch = mchan_channel_alloc();

	(void)arg;
	fill(l2, N);
	want_line = __LINE__ + 1;
	mchan_transfer_1d(CMD_IN(N), l1, l2);
	mchan_channel_wait(ch);
}

START_TEST(test_channel_leak)
{
	struct dfz__result r = run_with(body_leak, "");

	ck_assert_str_eq(dfz_class_name(r.finding.cls), "handle.leak");
	ck_assert_int_eq(r.site.line, want_line);
}
END_TEST

/* GAP9's API: descriptors by value, 1-D, 2-D and generic pushes under
 * one counter, MCHAN_CMD() building the words. */
static void body_gap9(void *arg)
{
	uint8_t *l2 = pi_l2_malloc(4 * N), *l1 = pmsis_l1_malloc(3 * N);
	mchan_transfer_t t = {
		.cmd = MCHAN_CMD(N, MCHAN_DMA_TRANSFER_DIRECTION_EXT2LOC,
				 MCHAN_CMD_FLAG_INCREMENTAL, 0, 0, 0,
				 MCHAN_CMD_FLAG_EVENT_ENABLE, 0),
		.size = N, .loc = l1, .ext = l2,
		.loc_size_1d = N, .ext_size_1d = N,
	};
	int tid;

	(void)arg;
	fill(l2, 4 * N);
	tid = mchan_transfer_get_id();
	mchan_transfer_push_1d(t);
	t.cmd |= MCHAN_CMD_FLAG_2D_TRANSFER_EXTERNAL;
	t.loc = l1 + N;
	t.ext = l2 + N;
	t.ext_size_1d = 16;
	t.ext_stride_1d = 32;
	mchan_transfer_push_2d(t);
	t.loc = l1 + 2 * N;
	mchan_transfer_push(t);
	mchan_transfer_wait(tid);
	ck_assert_int_eq(mchan_transfer_busy(tid), 0);
	mchan_transfer_free(tid);
	ck_assert_mem_eq(l1, l2, N);
	for (unsigned r = 0; r < 4; r++) {
		ck_assert_mem_eq(l1 + N + r * 16, l2 + N + r * 32, 16);
		ck_assert_mem_eq(l1 + 2 * N + r * 16, l2 + N + r * 32, 16);
	}
}

START_TEST(test_gap9_clean)
{
	ck_assert_int_eq(MCHAN_TRANSFER_LEN_SIZE, 17);
	ck_assert_int_eq(run_with(body_gap9, "").finding.cls, DFZ_CLASS_NONE);
}
END_TEST

/* Exactly 2^17 bytes: the length spills into the direction bit. GAP9's
 * descriptor says the size it meant, so the word is judged at the push. */
static void body_len_overflow(void *arg)
{
	uint8_t *l2 = pi_l2_malloc(1u << 17), *l1 = pmsis_l1_malloc(1u << 17);
	mchan_transfer_t t = {
		.cmd = MCHAN_CMD(1 << 17, MCHAN_DMA_TRANSFER_DIRECTION_EXT2LOC,
				 MCHAN_CMD_FLAG_INCREMENTAL, 0, 0, 0,
				 MCHAN_CMD_FLAG_EVENT_ENABLE, 0),
		.size = 1 << 17, .loc = l1, .ext = l2,
		.loc_size_1d = 1 << 17, .ext_size_1d = 1 << 17,
	};
	int tid = mchan_transfer_get_id();

	(void)arg;
	want_line = __LINE__ + 1;
	mchan_transfer_push_1d(t);
	mchan_transfer_wait(tid);
	mchan_transfer_free(tid);
}

START_TEST(test_len_overflow)
{
	struct dfz__result r = run_with(body_len_overflow, "");

	ck_assert_str_eq(dfz_class_name(r.finding.cls), "cmd.encoding");
	ck_assert_int_eq(r.site.line, want_line);
}
END_TEST

Suite *suite_dropin_mchan(void)
{
	Suite *s = suite_create("dropin_mchan");
	TCase *tc = tcase_create("mchan_v7");

	tcase_add_test(tc, test_mchan_clean);
	tcase_add_test(tc, test_push_without_channel);
	tcase_add_test(tc, test_push_bad_address);
	tcase_add_test(tc, test_channel_leak);
	tcase_add_test(tc, test_gap9_clean);
	tcase_add_test(tc, test_len_overflow);
	suite_add_tcase(s, tc);
	return s;
}
