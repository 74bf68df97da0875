// SPDX-License-Identifier: MIT
/*
 * The drop-in's quirks (DROPIN 4), each on a tiny program run with the
 * quirk off and on: the behaviour it restores, and that the verdict
 * follows it. Also their settings: names, "any" drawn from the schedule,
 * the body's own call, and the verdict naming the quirks that differ
 * from the defaults.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#define MCHAN_VERSION 7
#include "dropin_fixture.h"
#include "dmafuzz/dropin/pmsis.h"
#include "dmafuzz/dropin/mchan_siracusa.h"

#define CMD_IN(n) ((uint32_t)(MCHAN_CMD_FLAG_DIRECTION_EXT2LOC |          \
			      MCHAN_CMD_FLAG_INCREMENTAL |                 \
			      MCHAN_CMD_FLAG_EVENT_ENABLE) + (n))

static int want_line;
static uint32_t seen;           /* what a body saw, for the test */

/* ------------------------------------------------------- cldma-size16 */

#define BIG (65536u + 64)

/* A 1-D command of 64 KiB + 64 bytes: pulpos carries 64 of them. */
static void body_size16(void *arg)
{
	uint8_t *l2 = pi_l2_malloc(BIG), *l1 = pmsis_l1_malloc(BIG);
	pi_cl_dma_cmd_t cmd;

	(void)arg;
	fill(l2, BIG);
	pi_cl_dma_cmd((uint32_t)(uintptr_t)l2, (uint32_t)(uintptr_t)l1, BIG,
		      PI_CL_DMA_DIR_EXT2LOC, &cmd);
	pi_cl_dma_cmd_wait(&cmd);
	seen = (memcmp(l1, l2, 64) == 0) | (uint32_t)(memcmp(l1, l2, BIG) == 0) << 1;
	pmsis_l1_malloc_free(l1, BIG);
	pi_l2_free(l2, BIG);
}

START_TEST(test_cldma_size16)
{
	ck_assert(dfz__quirks_default() & (1u << DFZ_QUIRK_CLDMA_SIZE16));
	ck_assert_int_eq(run_with(body_size16, "cldma-size16").finding.cls,
			 DFZ_CLASS_NONE);
	ck_assert_uint_eq(seen, 1);          /* 64 bytes moved, not all */
	ck_assert_int_eq(run_with(body_size16, "no-cldma-size16").finding.cls,
			 DFZ_CLASS_NONE);
	ck_assert_uint_eq(seen, 3);
}
END_TEST

/* ------------------------------------------------------ cldma-emul-64k */

#define EMUL (96u << 10)

/* A 96 KiB load: two pieces. The handler pushes the last piece and sets
 * the size to 0; the wait, spinning on the size, returns while that piece
 * is in flight, and the check reads the poison. */
static void body_emul(void *arg)
{
	uint8_t *l2 = pi_l2_malloc(EMUL), *l1 = pmsis_l1_malloc(EMUL);
	pi_cl_dma_cmd_t cmd;

	(void)arg;
	fill(l2, EMUL);
	pi_cl_dma_cmd((uint32_t)(uintptr_t)l2, (uint32_t)(uintptr_t)l1, EMUL,
		      PI_CL_DMA_DIR_EXT2LOC, &cmd);
	seen = cmd.size | (uint32_t)(cmd.next == NULL) << 31;
	pi_cl_dma_cmd_wait(&cmd);
	want_line = __LINE__ + 1;
	DFZ_DROPIN_CHECK(same_bytes(l1, l2, EMUL));
}

START_TEST(test_cldma_emul_64k)
{
	struct dfz__result r = run_with(body_emul, "cldma-emul-64k");

	ck_assert_uint_eq(seen, (EMUL - 65536) | 1u << 31);
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_DATA_MISMATCH);
	ck_assert_int_eq(r.site.line, want_line);
	ck_assert_uint_eq(r.xfers, 2);            /* two pieces */
	/* Off: the pulpos command, one push (its size cut to 16 bits). */
	r = run_with(body_emul, "no-cldma-emul-64k,no-cldma-size16");
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
	ck_assert_uint_eq(r.xfers, 1);
}
END_TEST

/* Two emulated commands on two structs: the second is linked behind the
 * first and started by the handler; waiting the second waits both. */
static void body_emul_two(void *arg)
{
	uint8_t *l2 = pi_l2_malloc(EMUL), *l1 = pmsis_l1_malloc(EMUL);
	pi_cl_dma_cmd_t a, b;

	(void)arg;
	fill(l2, EMUL);
	pi_cl_dma_cmd((uint32_t)(uintptr_t)l2, (uint32_t)(uintptr_t)l1, 65536,
		      PI_CL_DMA_DIR_EXT2LOC, &a);
	pi_cl_dma_cmd((uint32_t)(uintptr_t)l2, (uint32_t)(uintptr_t)l1, 70000,
		      PI_CL_DMA_DIR_EXT2LOC, &b);
	seen = (a.next == &b) | (uint32_t)(b.id == -1) << 1;
	pi_cl_dma_cmd_wait(&b);
	pi_cl_dma_cmd_wait(&a);
}

START_TEST(test_cldma_emul_fifo)
{
	struct dfz__result r = run_with(body_emul_two, "cldma-emul-64k");

	ck_assert_uint_eq(seen, 3);
	ck_assert_uint_eq(r.xfers, 3);            /* 1 + 2 pieces */
	ck_assert_int_ne(r.finding.cls, DFZ_CLASS_QUEUE_CORRUPT);
}
END_TEST

/* -------------------------------------------------- cldma-copy-aliases */

/* One copy struct used twice, ext set once: pulpos stored the first TID
 * over ext, so the second copy reads from address 0. */
static void body_copy_reuse(void *arg)
{
	uint8_t *l2 = pi_l2_malloc(64), *l1 = pmsis_l1_malloc(64);
	pi_cl_dma_copy_t copy = {
		.ext = (uint32_t)(uintptr_t)l2,
		.loc = (uint32_t)(uintptr_t)l1,
		.size = 32,
		.dir = PI_CL_DMA_DIR_EXT2LOC,
	};

	(void)arg;
	fill(l2, 64);
	pi_cl_dma_memcpy(&copy);
	seen = copy.ext;
	pi_cl_dma_wait(&copy);
	copy.loc += 32;
	want_line = __LINE__ + 1;
	pi_cl_dma_memcpy(&copy);
	pi_cl_dma_wait(&copy);
}

START_TEST(test_cldma_copy_aliases)
{
	struct dfz__result r = run_with(body_copy_reuse, "cldma-copy-aliases");

	ck_assert_uint_eq(seen, 0);          /* the first TID, over ext */
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_DMA_BAD_ADDRESS);
	ck_assert_int_eq(r.site.line, want_line);
	r = run_with(body_copy_reuse, "no-cldma-copy-aliases");
	ck_assert_uint_ne(seen, 0);
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
	ck_assert_str_eq(r.finding.oracle, "");
}
END_TEST

/* -------------------------------------------------- mchan-stall-no-tid */

/* Seventeen channels, none freed. */
static void body_17(void *arg)
{
	(void)arg;
	for (int i = 0; i < 16; i++)
		mchan_channel_alloc();
	want_line = __LINE__ + 1;
	seen = mchan_channel_alloc();
}

START_TEST(test_mchan_stall)
{
	struct dfz__result r = run_with(body_17, "no-mchan-stall-no-tid");

	/* Off: the 17th alloc fails, the oracles judge the leak. */
	ck_assert_uint_eq(seen, UINT32_MAX);
	ck_assert_int_ne(r.finding.cls, DFZ_CLASS_DMA_HANG);
	r = run_with(body_17, "mchan-stall-no-tid");
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_DMA_HANG);
	ck_assert_int_eq(r.site.line, want_line);
	ck_assert_uint_eq(r.quirks & (1u << DFZ_QUIRK_MCHAN_STALL_NO_TID),
			  1u << DFZ_QUIRK_MCHAN_STALL_NO_TID);
}
END_TEST

/* Core 1 allocates (counter 0, the first) and pushes; core 0 pushes
 * without ever allocating, then core 1 waits its channel: with the quirk
 * core 0's push went on counter 0, the RTL's reset value, and joined it. */
static uint8_t *x_l2, *x_l1;
static volatile uint32_t x_ch;

static void two_cores(void *arg)
{
	(void)arg;
	if (pi_core_id() == 1) {
		x_ch = mchan_channel_alloc();
		mchan_transfer_1d(CMD_IN(32), x_l1, x_l2);
	}
	pi_cl_team_barrier();
	if (pi_core_id() == 0) {
		want_line = __LINE__ + 1;
		mchan_transfer_1d(CMD_IN(32), x_l1 + 32, x_l2 + 32);
	}
	pi_cl_team_barrier();
	if (pi_core_id() == 1) {
		mchan_channel_wait(x_ch);
		seen = !memcmp(x_l1, x_l2, 64);
		mchan_channel_free(x_ch);
	}
}

static void body_join(void *arg)
{
	(void)arg;
	x_l2 = pi_l2_malloc(64);
	x_l1 = pmsis_l1_malloc(64);
	fill(x_l2, 64);
	seen = 0;
	pi_cl_team_fork(2, two_cores, NULL);
}

START_TEST(test_mchan_push_on_counter0)
{
	struct dfz__result r = run_with(body_join, "mchan-stall-no-tid");

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
	ck_assert_uint_eq(seen, 1);
	r = run_with(body_join, "no-mchan-stall-no-tid");
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_HANDLE_STALE);
	ck_assert_int_eq(r.site.line, want_line);
}
END_TEST

/* Seventeen allocs on core 0 while core 1 frees one: the stall passes
 * control to core 1, whose free lets core 0 go on. */
static void stall_two(void *arg)
{
	(void)arg;
	if (pi_core_id() == 0) {
		for (int i = 0; i < 16; i++)
			mchan_channel_alloc();
		pi_cl_team_barrier();
		seen = mchan_channel_alloc();
		mchan_channel_free(seen);
		for (uint32_t i = 0; i < 16; i++)
			if (i != 3)
				mchan_channel_free(i);
	} else {
		pi_cl_team_barrier();
		mchan_channel_free(3);
	}
}

static void body_stall_two(void *arg)
{
	(void)arg;
	pi_cl_team_fork(2, stall_two, NULL);
}

START_TEST(test_mchan_stall_other_core_frees)
{
	struct dfz__result r = run_with(body_stall_two, "mchan-stall-no-tid");

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
	ck_assert_uint_eq(seen, 3);
}
END_TEST

/* ---------------------------------------------------- idma-id-at-push */

/* A 2-D transfer of 32 lines (more than the backend's window of 25) and a
 * 1-D one straight on the engine: the same id when
 * the quirk reaches the engine (DFZ_RTQ_IDMA_ID_AT_PUSH), else 1 and 2. */
static void body_idma_ids(void *arg)
{
	struct dfz_idma *dma = dfz_idma_get(dfz__dropin_get()->rt);
	uint8_t *a = pi_l2_malloc(256), *b = pi_l2_malloc(256);
	int x, y;

	(void)arg;
	memset(a, 5, 256);
	x = dfz_idma_start_2d(dma, b, a, 4, 4, 4, 32);
	y = dfz_idma_start_1d(dma, b + 128, a + 128, 16);
	seen = (uint32_t)(x == 1) | (uint32_t)(y == x) << 1;
	dfz_idma_wait_all(dma);
	pi_l2_free(a, 256);
	pi_l2_free(b, 256);
}

START_TEST(test_idma_id_at_push)
{
	struct dfz_dropin_test t = { body_idma_ids, NULL, __FILE__ };
	struct dfz__dropin *d = dfz__dropin_get();
	struct dfz__quirks keep = d->base;
	uint8_t on[3] = { 0, 0, 1 }, off[3] = { 0, 0, 0 };
	struct dfz__result r = run_with(body_idma_ids, "");

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
	ck_assert_uint_eq(seen, 3);                 /* on by default */
	r = run_with(body_idma_ids, "no-idma-id-at-push");
	ck_assert_uint_eq(seen, 1);
	ck_assert(!(r.quirks & (1u << DFZ_QUIRK_IDMA_ID_AT_PUSH)));
	ck_assert_int_eq(dfz_dropin_quirks("idma-id-at-push=any"), 0);
	dfz__dropin_run(&t, on, sizeof(on), &r);
	ck_assert_uint_eq(seen, 3);
	dfz__dropin_run(&t, off, sizeof(off), &r);
	ck_assert_uint_eq(seen, 1);
	d->base = keep;
}
END_TEST

/* ------------------------------------------------------------ settings */

START_TEST(test_settings)
{
	struct dfz__quirks q = { dfz__quirks_default(), 0 };
	char buf[256];

	ck_assert_int_eq(dfz__quirks_parse("snrt-head,no-cldma-size16", &q), 0);
	dfz__quirks_describe(q.on, DFZ__API_SNRT | DFZ__API_CLDMA, buf,
			     sizeof(buf));
	/* An off quirk is named by the setting that restores it. */
	ck_assert_str_eq(buf, "snrt-head, idma-zero-work-retires, "
			 "no-cldma-size16, cldma-copy-aliases, "
			 "idma-id-at-push");
	dfz__quirks_describe(q.on, DFZ__API_MCHAN, buf, sizeof(buf));
	ck_assert_str_eq(buf, "");
	ck_assert_int_eq(dfz__quirks_parse("snrt-pinned,cldma-size16=on", &q), 0);
	ck_assert_uint_eq(q.on, dfz__quirks_default());
	dfz__quirks_describe(q.on, DFZ__API_SNRT, buf, sizeof(buf));
	ck_assert_str_eq(buf, "snrt-pinned, idma-zero-work-retires, "
			 "idma-id-at-push");
	ck_assert_int_eq(dfz__quirks_parse("no-idma-id-at-push", &q), 0);
	dfz__quirks_describe(q.on, DFZ__API_SNRT, buf, sizeof(buf));
	ck_assert_str_eq(buf, "snrt-pinned, idma-zero-work-retires, "
			 "no-idma-id-at-push");
	ck_assert_int_eq(dfz__quirks_parse("idma-id-at-push=on", &q), 0);
	ck_assert_uint_eq(q.on, dfz__quirks_default());
	ck_assert_int_eq(dfz__quirks_parse("idma-zero-work-retires=any", &q), 0);
	ck_assert_uint_eq(q.any, 1u << DFZ_QUIRK_IDMA_ZERO_RETIRES);
	/* Unknown names and values leave the settings as they were. */
	ck_assert_int_eq(dfz__quirks_parse("snrt-head,bogus", &q), -1);
	ck_assert_int_eq(dfz__quirks_parse("snrt-head=maybe", &q), -1);
	ck_assert_uint_eq(q.on, dfz__quirks_default());
	ck_assert_uint_eq(q.any, 1u << DFZ_QUIRK_IDMA_ZERO_RETIRES);
}
END_TEST

static void body_nothing(void *arg)
{
	(void)arg;
	seen = (uint32_t)dfz_dropin_quirk_on(DFZ_QUIRK_CLDMA_EMUL_64K);
}

/* "any": the schedule's byte after latency and bandwidth decides. */
START_TEST(test_any_from_schedule)
{
	struct dfz_dropin_test t = { body_nothing, NULL, __FILE__ };
	struct dfz__dropin *d = dfz__dropin_get();
	struct dfz__quirks keep = d->base;
	struct dfz__result r;
	uint8_t on[3] = { 0, 0, 1 }, off[3] = { 0, 0, 0 };

	ck_assert_int_eq(dfz_dropin_quirks("cldma-emul-64k=any"), 0);
	dfz__dropin_run(&t, on, sizeof(on), &r);
	ck_assert_uint_eq(seen, 1);
	ck_assert(r.quirks & (1u << DFZ_QUIRK_CLDMA_EMUL_64K));
	dfz__dropin_run(&t, off, sizeof(off), &r);
	ck_assert_uint_eq(seen, 0);
	dfz__dropin_run(&t, NULL, 0, &r);
	ck_assert_uint_eq(seen, 0);
	d->base = keep;
}
END_TEST

/* The body's own call wins over the settings, for that run. */
static void body_sets(void *arg)
{
	(void)arg;
	dfz_dropin_quirks("cldma-emul-64k");
	seen = (uint32_t)dfz_dropin_quirk_on(DFZ_QUIRK_CLDMA_EMUL_64K);
}

START_TEST(test_body_call)
{
	struct dfz__result r = run_with(body_sets, "no-cldma-emul-64k");

	ck_assert_uint_eq(seen, 1);
	ck_assert(r.quirks & (1u << DFZ_QUIRK_CLDMA_EMUL_64K));
	r = run_with(body_nothing, "");
	ck_assert_uint_eq(seen, 0);
}
END_TEST

Suite *suite_dropin_quirks(void)
{
	Suite *s = suite_create("dropin_quirks");
	TCase *tc = tcase_create("quirks");

	tcase_add_test(tc, test_cldma_size16);
	tcase_add_test(tc, test_cldma_copy_aliases);
	tcase_add_test(tc, test_cldma_emul_64k);
	tcase_add_test(tc, test_cldma_emul_fifo);
	tcase_add_test(tc, test_mchan_stall);
	tcase_add_test(tc, test_mchan_push_on_counter0);
	tcase_add_test(tc, test_mchan_stall_other_core_frees);
	tcase_add_test(tc, test_idma_id_at_push);
	tcase_add_test(tc, test_settings);
	tcase_add_test(tc, test_any_from_schedule);
	tcase_add_test(tc, test_body_call);
	suite_add_tcase(s, tc);
	return s;
}
