// SPDX-License-Identifier: MIT
/*
 * The AutoTiler's API under the drop-in (at_api.h): the cluster DMA
 * macros on pi_cl_dma_cmd, the merged copies of newer AutoTiler output
 * (covered by the wait of the command before them), the RAM copies on
 * pi_cl_ram_copy, the allocators, the fork and the core queries. Also the
 * two faults generated code found in the cluster DMA (issue 23, item 6):
 * pi_cl_dma_cmd_2d must clear the command's length, and a merged copy
 * takes no TID of its own; and a NULL command is a finding at its line.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "dropin_fixture.h"
#include "dmafuzz/dropin/at_api.h"

/* Generated code casts pointers to 32-bit addresses itself: what
 * pkg-config --cflags dmafuzz-dropin silences. */
#pragma GCC diagnostic ignored "-Wpointer-to-int-cast"

#define N 256

static uint32_t seen;
static int want_line;

/* ----------------------------------------- pi_cl_dma_cmd_2d clears length */

/* A 2-D load whose command struct held an old emulated command's words
 * (a stack struct reused): length and size non-zero, or size 0. */
static void body_2d_stale(void *arg)
{
	uint8_t *l2 = pi_l2_malloc(4 * N), *l1 = pmsis_l1_malloc(N);
	AT_L2_EVENT ev = { .size = (uint32_t)(uintptr_t)arg, .length = 65536 };

	fill(l2, 4 * N);
	AT_L2_COPY2D(0, l2, l1, N, 2 * N, N / 2, AT_L2_EXT2LOC, &ev)
	seen = ev.length;
	AT_L2_WAIT(0, &ev)
	want_line = __LINE__ + 1;
	DFZ_DROPIN_CHECK(same_bytes(l1, l2, N / 2) &&
			 same_bytes(l1 + N / 2, l2 + 2 * N, N / 2));
}

START_TEST(test_cmd_2d_clears_length)
{
	struct dfz_dropin_test t = { body_2d_stale, (void *)(uintptr_t)5000,
				     __FILE__ };
	struct dfz__result r;

	ck_assert_int_eq(dfz_dropin_quirks("cldma-emul-64k"), 0);
	dfz__dropin_run(&t, NULL, 0, &r);
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);  /* was dma.hang */
	ck_assert_uint_eq(seen, 0);
	t.arg = NULL;                                     /* size 0 */
	dfz__dropin_run(&t, NULL, 0, &r);
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);  /* was a mismatch */
	ck_assert_int_eq(dfz_dropin_quirks("no-cldma-emul-64k"), 0);
}
END_TEST

/* -------------------------------------------------------- merged copies */

/* The prolog of newer AutoTiler output: one command with an event, three
 * merged behind it, one wait. */
static void body_merged(void *arg)
{
	uint8_t *l2 = pi_l2_malloc(4 * N), *l1 = pmsis_l1_malloc(4 * N);
	AT_L2_EVENT _DmaR_Evt1, *DmaR_Evt1 = &_DmaR_Evt1;

	(void)arg;
	fill(l2, 4 * N);
	AT_L2_COPY(0, ((AT_L2_EXT_ADDR_TYPE) l2 + 0), ((AT_L2_INT_ADDR_TYPE) l1 + 0), N, 0, DmaR_Evt1);
	AT_L2_COPY_MERGED(0, ((AT_L2_EXT_ADDR_TYPE) l2 + N), ((AT_L2_INT_ADDR_TYPE) l1 + N), N, 0, 0);
	AT_L2_COPY_MERGED(0, ((AT_L2_EXT_ADDR_TYPE) l2 + 2 * N), ((AT_L2_INT_ADDR_TYPE) l1 + 2 * N), N, 0, 0);
	AT_L2_COPY_MERGED(0, ((AT_L2_EXT_ADDR_TYPE) l2 + 3 * N), ((AT_L2_INT_ADDR_TYPE) l1 + 3 * N), N, 0, 0);
	AT_L2_WAIT(0, DmaR_Evt1); /* Wait previous DMA read */
	want_line = __LINE__ + 1;
	DFZ_DROPIN_CHECK(same_bytes(l1, l2, 4 * N));
}

START_TEST(test_merged_covered)
{
	struct dfz__result r = run_with(body_merged, "");

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
	ck_assert_uint_eq(r.xfers, 4);
}
END_TEST

/* PMSIS's own merge flag: the second copy joins the first's TID. */
static void body_memcpy_merge(void *arg)
{
	uint8_t *l2 = pi_l2_malloc(2 * N), *l1 = pmsis_l1_malloc(2 * N);
	pi_cl_dma_copy_t a = { .ext = (uint32_t)(uintptr_t)l2,
			       .loc = (uint32_t)(uintptr_t)l1, .size = N,
			       .dir = PI_CL_DMA_DIR_EXT2LOC };
	pi_cl_dma_copy_t b = a;

	(void)arg;
	fill(l2, 2 * N);
	b.ext += N;
	b.loc += N;
	b.merge = 1;
	pi_cl_dma_memcpy(&a);
	pi_cl_dma_memcpy(&b);
	seen = b.ext == (uint32_t)(uintptr_t)l2 + N; /* no TID written */
	pi_cl_dma_wait(&a);
	DFZ_DROPIN_CHECK(same_bytes(l1, l2, 2 * N));
}

START_TEST(test_memcpy_merge)
{
	struct dfz__result r = run_with(body_memcpy_merge, "");

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);  /* was handle.leak */
	ck_assert_uint_eq(seen, 1);
	ck_assert_uint_eq(r.xfers, 2);
}
END_TEST

/* Sabotage: a merged copy with no command before it has no TID to join. */
static void body_merge_alone(void *arg)
{
	uint8_t *l2 = pi_l2_malloc(N), *l1 = pmsis_l1_malloc(N);

	(void)arg;
	want_line = __LINE__ + 1;
	AT_L2_COPY_MERGED(0, l2, l1, N, 0, 0)
}

START_TEST(test_merge_alone)
{
	struct dfz__result r = run_with(body_merge_alone, "");

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_HANDLE_STALE);
	ck_assert_int_eq(r.site.line, want_line);
}
END_TEST

/* Sabotage: the merged copies' wait removed. */
static void body_merged_nowait(void *arg)
{
	uint8_t *l2 = pi_l2_malloc(2 * N), *l1 = pmsis_l1_malloc(2 * N);
	AT_L2_EVENT ev;

	(void)arg;
	fill(l2, 2 * N);
	AT_L2_COPY(0, l2, l1, N, 0, &ev)
	AT_L2_COPY_MERGED(0, l2 + N, l1 + N, N, 0, 0)
	want_line = __LINE__ + 1;
	DFZ_DROPIN_CHECK(same_bytes(l1 + N, l2 + N, N));
}

START_TEST(test_merged_nowait)
{
	struct dfz__result r = run_with(body_merged_nowait, "");

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_DATA_MISMATCH);
	ck_assert_int_eq(r.site.line, want_line);
}
END_TEST

/* ----------------------------------------------------- the other macros */

AT_HYPERRAM_T HyperRam;

static void count_core(void *arg)
{
	(void)arg;
	seen |= 1u << AT_COREID();
}

/* L3 -> L2 by the RAM copy, L2 -> L1 by the DMA, a team of all cores. */
static void body_hyper(void *arg)
{
	AT_HYPERRAM_POINTER l3 = AT_HYPERRAM_ALLOC(&HyperRam, N);
	char *l2 = AT_L2_ALLOC(0, N), *l1 = AT_L1_ALLOC(0, N);
	uint8_t in[N];
	AT_HYPERRAM_CL_EVENT req;
	AT_L2_EVENT ev;

	(void)arg;
	fill(in, N);
	seen = 0;
	DFZ_DROPIN_CHECK(l3 != 0 && dfz_dropin_l3_write(l3, in, N) == 0);
	AT_HYPERRAM_CL_COPY(&HyperRam, l3, l2, N, AT_HYPERRAM_EXT2LOC, &req);
	AT_HYPERRAM_CL_WAIT(&HyperRam, &req);
	AT_L2_COPY(0, l2, l1, N, AT_L2_EXT2LOC, &ev)
	AT_L2_WAIT(0, &ev)
	AT_FORK(AT_NCORE(), (void *)count_core, (void *)0);
	DFZ_DROPIN_CHECK(memcmp(l1, in, N) == 0);
	AT_L1_FREE(0, l1, N);
	AT_L2_FREE(0, l2, N);
	AT_HYPERRAM_FREE(&HyperRam, l3, N);
}

START_TEST(test_hyperram_fork)
{
	struct dfz__result r = run_with(body_hyper, "");

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
	ck_assert_uint_eq(seen, 0xff);            /* AT_NCORE() cores */
	ck_assert_uint_eq(r.xfers, 2);
}
END_TEST

/* A NULL event: a finding at the user's line, not a fault inside. */
static void body_null_event(void *arg)
{
	uint8_t *l2 = pi_l2_malloc(N), *l1 = pmsis_l1_malloc(N);
	AT_L2_EVENT *volatile none = NULL;

	(void)arg;
	want_line = __LINE__ + 1;
	AT_L2_COPY(0, l2, l1, N, 0, none)
}

START_TEST(test_null_event)
{
	struct dfz__result r = run_with(body_null_event, "");

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_DMA_BAD_ADDRESS);
	ck_assert_int_eq(r.site.line, want_line);
}
END_TEST

/* ------------------------------------------------- flash file systems */

static char flash_name[64];
static AT_DEFAULTFLASH_FS_T DefaultFlash;

/* A constants image as the generated Construct opens it, a cluster copy
 * of part of it into L2, the wait; @arg: the copy's size. */
static void body_flash(void *arg)
{
	AT_DEFAULTFLASH_FS_CONF_T conf;
	AT_DEFAULTFLASH_FS_CL_EVENT _UchanHF0, *UchanHF0 = &_UchanHF0;
	uint8_t *l2 = pi_l2_malloc(N), want[N];
	int err = 7;

	fill(want, N);
	AT_DEFAULTFLASH_FS_CONF_INIT(&conf, 9, 0);
	AT_DEFAULTFLASH_FS_OPEN(&DefaultFlash, &conf, flash_name, &err);
	seen = (uint32_t)err;
	if (err)
		return;
	want_line = __LINE__ + 1;
	AT_DEFAULTFLASH_FS_CL_COPY(&DefaultFlash, ((AT_DEFAULTFLASH_FS_EXT_ADDR_TYPE) 0 + 16), ((AT_DEFAULTFLASH_FS_INT_ADDR_TYPE) l2), (uint32_t)(uintptr_t)arg, 0, UchanHF0);
	AT_DEFAULTFLASH_FS_CL_WAIT(&DefaultFlash, UchanHF0);
	DFZ_DROPIN_CHECK(memcmp(l2, want + 16, 64) == 0);
	AT_DEFAULTFLASH_FS_CLOSE(&DefaultFlash);
}

START_TEST(test_flash_fs)
{
	struct dfz_dropin_test t = { body_flash, (void *)(uintptr_t)64,
				     __FILE__ };
	struct dfz__result r;
	uint8_t img[N];
	FILE *f;

	fill(img, N);
	snprintf(flash_name, sizeof(flash_name), "/tmp/dfz-at-flash-%d.dat",
		 (int)getpid());
	f = fopen(flash_name, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(img, 1, N, f), N);
	fclose(f);
	dfz__dropin_run(&t, NULL, 0, &r);
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
	ck_assert_uint_eq(seen, 0);
	/* Sabotage: a copy past the file's end. */
	t.arg = (void *)(uintptr_t)N;
	dfz__dropin_run(&t, NULL, 0, &r);
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_DMA_BAD_ADDRESS);
	ck_assert_int_eq(r.site.line, want_line);
	remove(flash_name);
	/* No such file: the open fails, as on a board without the image. */
	t.arg = (void *)(uintptr_t)64;
	dfz__dropin_run(&t, NULL, 0, &r);
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
	ck_assert_int_ne(seen, 0);
}
END_TEST

Suite *suite_dropin_at(void)
{
	Suite *s = suite_create("dropin_at");
	TCase *tc = tcase_create("at");

	tcase_add_test(tc, test_cmd_2d_clears_length);
	tcase_add_test(tc, test_merged_covered);
	tcase_add_test(tc, test_memcpy_merge);
	tcase_add_test(tc, test_merge_alone);
	tcase_add_test(tc, test_merged_nowait);
	tcase_add_test(tc, test_hyperram_fork);
	tcase_add_test(tc, test_null_event);
	tcase_add_test(tc, test_flash_fs);
	suite_add_tcase(s, tc);
	return s;
}
