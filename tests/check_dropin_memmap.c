// SPDX-License-Identifier: MIT
/*
 * Memory where the chip has it (dropin/memmap.c, runtime/mem*.c): the
 * stacks of a level are part of it (a span inside one is located, one
 * that touches a guard page or crosses two is not), never allocated nor
 * refilled; the body runs on the fabric controller's stack in L2 and each
 * core of a fork on its own stack in L1, so a DMA from or to a stack array
 * moves the bytes as on the chip; a DMA aimed at the host's heap or at the
 * harness's own state is dma.bad-address and changes nothing there.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "dropin_fixture.h"
#include "dmafuzz/dropin/pmsis.h"
#include "dmafuzz/dropin/snrt.h"

/* A runtime of its own, away from the drop-in's windows. */
#define T_L2 0x38000000u
#define T_L1 0x34000000u
#define T_HEAP (64u << 10)

static struct dfz_rt *make_rt(void)
{
	struct dfz_rt_layout lay = {
		.base = { [DFZ_L2] = T_L2, [DFZ_L1] = T_L1 },
		.cap = { [DFZ_L2] = T_HEAP, [DFZ_L1] = T_HEAP },
		.nstacks = { [DFZ_L2] = 1, [DFZ_L1] = 2 },
		.stack = { [DFZ_L2] = 32u << 10, [DFZ_L1] = 16u << 10 },
	};
	struct dfz_rt *rt = NULL;

	ck_assert_int_eq(dfz_rt_create_at(&lay, &rt), 0);
	return rt;
}

static bool located(struct dfz_rt *rt, const uint8_t *p, uint32_t n,
		    unsigned level)
{
	struct dfz_span s;

	return dfz_mem_locate(rt, p, n, &s) && s.level == level &&
	       (uintptr_t)p - (level == DFZ_L2 ? T_L2 : T_L1) == s.off;
}

START_TEST(test_stack_spans)
{
	struct dfz_rt *rt = make_rt();
	size_t bytes = 0, b2 = 0;
	uint8_t *s0 = dfz_mem_stack(rt, DFZ_L1, 0, &bytes);
	uint8_t *s1 = dfz_mem_stack(rt, DFZ_L1, 1, NULL);
	uint8_t *fc = dfz_mem_stack(rt, DFZ_L2, 0, &b2);

	ck_assert_ptr_nonnull(s0);
	ck_assert_uint_eq(bytes, 16u << 10);
	ck_assert_uint_eq(b2, 32u << 10);
	ck_assert_ptr_nonnull(fc);
	ck_assert_ptr_null(dfz_mem_stack(rt, DFZ_L1, 2, NULL));
	ck_assert_ptr_null(dfz_mem_stack(rt, DFZ_L3, 0, NULL));
	ck_assert(s1 > s0 + bytes);                   /* a guard between */
	ck_assert(located(rt, s0, (uint32_t)bytes, DFZ_L1));
	ck_assert(located(rt, s1 + bytes - 1, 1, DFZ_L1));
	ck_assert(located(rt, fc + 100, 64, DFZ_L2));
	ck_assert(located(rt, (uint8_t *)(uintptr_t)T_L1 + T_HEAP - 8, 8,
			  DFZ_L1));                   /* the heap's end */
	/* The guard pages, and spans across them. */
	ck_assert(!dfz_mem_locate(rt, s0 - 1, 1, NULL));
	ck_assert(!dfz_mem_locate(rt, s0 - 8, 16, NULL));
	ck_assert(!dfz_mem_locate(rt, s0 + bytes - 8, 16, NULL));
	ck_assert(!dfz_mem_locate(rt, s1 - 1, 1, NULL));
	ck_assert(!dfz_mem_locate(rt, (uint8_t *)(uintptr_t)T_L1 + T_HEAP - 8,
				  16, NULL));
	ck_assert(!dfz_mem_locate(rt, s1 + bytes, 1, NULL)); /* past all */
	dfz_rt_destroy(rt);
}
END_TEST

START_TEST(test_stacks_never_allocated_nor_refilled)
{
	struct dfz_rt *rt = make_rt();
	uint8_t *s0 = dfz_mem_stack(rt, DFZ_L1, 0, NULL);
	uint32_t at = (uint32_t)(s0 - (uint8_t *)(uintptr_t)T_L1);
	static const struct dfz_rt_config cfg;
	uint8_t *p, *first = NULL;
	unsigned n = 0;

	while (dfz_local_alloc(rt, DFZ_L1, 1000, (void **)&p) == 0) {
		ck_assert(p + 1000 + DFZ_REDZONE <=
			  (uint8_t *)(uintptr_t)T_L1 + T_HEAP);
		first = first ? first : p;
		n++;
	}
	ck_assert_uint_gt(n, 30);                     /* the heap was used */
	memset(s0, 0xab, 64);
	memset(first, 0xcd, 64);
	dfz__mem_touch(rt, DFZ_L1, at, 64);           /* as an engine's move */
	dfz__mem_touch(rt, DFZ_L1, (uint32_t)(first -
				     (uint8_t *)(uintptr_t)T_L1), 64);
	ck_assert_int_eq(dfz_rt_reset(rt, &cfg), 0);
	for (unsigned i = 0; i < 64; i++)
		ck_assert_uint_eq(s0[i], 0xab);
	ck_assert_uint_eq(first[0], dfz_mem_fill_byte(DFZ_L1,
		(uint32_t)(first - (uint8_t *)(uintptr_t)T_L1)));
	dfz_rt_destroy(rt);
}
END_TEST

/* ------------------------------------------------------------- drop-in */

static unsigned seen_level[DFZ__DROPIN_MAX_CORES + 1];
static bool landed[DFZ__DROPIN_MAX_CORES + 1];
static unsigned nested;

static unsigned level_of(const void *p)
{
	struct dfz_span s;

	return dfz_mem_locate(dfz__dropin_get()->rt, p, 1, &s) ? s.level :
								 DFZ_NLEVELS;
}

static void on_fc(void *arg)
{
	uint8_t here;

	(void)arg;
	seen_level[0] = level_of(&here);
	nested++;
	if (nested == 1)
		dfz__cores_fc(dfz__dropin_get()->cores, on_fc, NULL);
}

START_TEST(test_fc_stack_is_l2)
{
	struct dfz__dropin *d = dfz__dropin_get();
	uint8_t here;

	nested = 0;
	ck_assert_uint_eq(level_of(&here), DFZ_NLEVELS); /* the host's */
	ck_assert_int_eq(dfz__cores_fc(d->cores, on_fc, NULL), 0);
	ck_assert_uint_eq(seen_level[0], DFZ_L2);
	ck_assert_uint_eq(nested, 2);        /* nested: run where it is */
	ck_assert_int_eq(dfz__cores_fc(d->cores, on_fc, NULL), 0);
	ck_assert_uint_eq(nested, 3);        /* the parked context again */
	ck_assert_uint_eq(seen_level[0], DFZ_L2);
}
END_TEST

/* @n bytes L2 -> L1 (or back) over the cluster DMA, waited. */
static void move(void *ext, void *loc, int n, int dir)
{
	pi_cl_dma_cmd_t cmd;

	pi_cl_dma_cmd((uint32_t)(uintptr_t)ext, (uint32_t)(uintptr_t)loc, n,
		      dir, &cmd);
	pi_cl_dma_cmd_wait(&cmd);
}

static uint8_t *l2_src;

/* Each core: its slice of L2 into an array on its stack. */
static void core_load(void *arg)
{
	uint8_t mine[32];
	unsigned id = (unsigned)pi_core_id();

	(void)arg;
	memset(mine, 0, sizeof(mine));
	move(l2_src + 32 * id, mine, 32, PI_CL_DMA_DIR_EXT2LOC);
	seen_level[id + 1] = level_of(mine);
	landed[id + 1] = !memcmp(mine, l2_src + 32 * id, 32);
}

static void body_stacks(void *arg)
{
	uint8_t on_fc_stack[64];
	uint8_t *l1 = pi_cl_l1_malloc(NULL, 64);

	(void)arg;
	l2_src = pi_l2_malloc(32 * DFZ_DROPIN_CORES);
	fill(l2_src, 32 * DFZ_DROPIN_CORES);
	fill(on_fc_stack, 64);
	seen_level[0] = level_of(on_fc_stack);
	move(on_fc_stack, l1, 64, PI_CL_DMA_DIR_EXT2LOC);
	landed[0] = !memcmp(l1, on_fc_stack, 64);
	memset(on_fc_stack, 0, 64);
	move(on_fc_stack, l1, 64, PI_CL_DMA_DIR_LOC2EXT);   /* and back */
	landed[0] = landed[0] && on_fc_stack[5] == (uint8_t)(5 * 7 + 3);
	pi_cl_team_fork(DFZ_DROPIN_CORES, core_load, NULL);
}

START_TEST(test_dma_on_stacks)
{
	struct dfz__result r;

	memset(seen_level, 0xff, sizeof(seen_level));
	memset(landed, 0, sizeof(landed));
	r = run_with(body_stacks, "");
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
	ck_assert_uint_eq(seen_level[0], DFZ_L2);
	ck_assert(landed[0]);
	for (unsigned i = 1; i <= DFZ_DROPIN_CORES; i++) {
		ck_assert_uint_eq(seen_level[i], DFZ_L1);
		ck_assert(landed[i]);
	}
}
END_TEST

/* A DMA aimed at the harness: its state, its runtime, the host's heap. */
static int want_line;
static void *aim;

static void body_aim(void *arg)
{
	uint8_t *l1 = snrt_l1alloc(64);

	(void)arg;
	want_line = __LINE__ + 1;
	snrt_dma_start_1d(aim, l1, 64);
	snrt_dma_wait_all();
}

START_TEST(test_harness_out_of_reach)
{
	struct dfz__dropin *d = dfz__dropin_get();
	void *targets[] = { d, d->rt, d->set, d->cores, calloc(1, 64) };
	uint8_t before[64];

	for (unsigned i = 0; i < sizeof(targets) / sizeof(*targets); i++) {
		struct dfz__result r;

		aim = (uint8_t *)targets[i];
		memcpy(before, aim, 64);
		r = run_with(body_aim, "");
		ck_assert_int_eq(r.finding.cls, DFZ_CLASS_DMA_BAD_ADDRESS);
		ck_assert_int_eq(r.site.line, want_line);
		ck_assert(!memcmp(before, aim, 64));
	}
	free(targets[4]);
}
END_TEST

Suite *suite_dropin_memmap(void)
{
	Suite *s = suite_create("dropin_memmap");
	TCase *tc = tcase_create("memmap");

	tcase_add_test(tc, test_stack_spans);
	tcase_add_test(tc, test_stacks_never_allocated_nor_refilled);
	tcase_add_test(tc, test_fc_stack_is_l2);
	tcase_add_test(tc, test_dma_on_stacks);
	tcase_add_test(tc, test_harness_out_of_reach);
	suite_add_tcase(s, tc);
	return s;
}
