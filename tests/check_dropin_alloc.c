// SPDX-License-Identifier: MIT
/*
 * The drop-in's allocators as a sanitizer's (issue 24 items 1 and 4):
 * every free of the SDKs (pi_l2_free, pmsis_l1_malloc_free, cl_ram_free,
 * pi_ram_free, pi_cl_ram_free, AT_*RAM_FREE) is judged before it is done
 * (a size that differs from the allocation's, an interior pointer, a
 * static, a double free), the finding at the free's line naming the
 * block and the lines that allocated and freed it; a finding about a
 * block (mem.*) names it in the text, JSON and SARIF; and the leak check
 * (dfz_dropin_leaks(), --leaks) reports a block still held at the end of
 * the body at its allocating line, and nothing when off. Each finding has
 * its sabotage: the same body with the misuse removed runs clean. Lines
 * are taken with __LINE__ on the calls themselves.
 */
#define _DEFAULT_SOURCE /* open_memstream */
#include <check.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "dropin_fixture.h"
#include "dmafuzz/dropin/at_api_pmsis.h"
#include "dmafuzz/dropin/bsp/ram.h"
#include "dmafuzz/dropin/snrt.h"

static int line_alloc, line_free, line_bad, line_keep;
static int bad;                      /* 0: the body's sabotage, clean */

static struct dfz__result run_bad(void (*body)(void *), int misuse)
{
	struct dfz_dropin_test t = { body, NULL, __FILE__ };
	struct dfz__result r;

	bad = misuse;
	dfz__dropin_run(&t, NULL, 0, &r);
	return r;
}

/* The finding is dev.misuse at line_bad, its message holding @what, and
 * it names a block of @size bytes of @level allocated at line_alloc. */
static void misuse_at(const struct dfz__result *r, const char *what,
		      unsigned level, uint32_t size)
{
	ck_assert_int_eq(r->finding.cls, DFZ_CLASS_DEV_MISUSE);
	ck_assert_int_eq(r->site.line, line_bad);
	ck_assert_msg(strstr(r->finding.msg, what), "%s", r->finding.msg);
	ck_assert(r->block.known);
	ck_assert_uint_eq(r->block.level, level);
	ck_assert_uint_eq(r->block.size, size);
	ck_assert_int_eq(r->block.alloc.line, line_alloc);
	ck_assert_ptr_nonnull(strstr(r->finding.msg, "allocated at"));
}

/* -------------------------------------------------------- wrong sizes */

static void body_l2_size(void *arg)
{
	uint8_t *p;

	(void)arg;
	line_alloc = __LINE__; p = pi_l2_malloc(128);
	line_bad = __LINE__; pi_l2_free(p, bad ? 100 : 128);
}

START_TEST(test_l2_free_size)
{
	struct dfz__result r = run_bad(body_l2_size, 1);

	misuse_at(&r, "size 100, but the L2 block holds 128 bytes", DFZ_L2,
		  128);
	ck_assert_uint_eq(r.block.addr & 0xff000000u, 0x1c000000u);
	ck_assert_int_eq(run_bad(body_l2_size, 0).finding.cls,
			 DFZ_CLASS_NONE);
}
END_TEST

static void body_l1_size(void *arg)
{
	uint8_t *p;

	(void)arg;
	line_alloc = __LINE__; p = pmsis_l1_malloc(64);
	line_bad = __LINE__; pmsis_l1_malloc_free(p, bad ? 65 : 64);
}

START_TEST(test_l1_free_size)
{
	struct dfz__result r = run_bad(body_l1_size, 1);

	misuse_at(&r, "pi_cl_l1_free of 0x1", DFZ_L1, 64);
	ck_assert_ptr_nonnull(strstr(r.finding.msg, "size 65"));
	ck_assert_int_eq(run_bad(body_l1_size, 0).finding.cls,
			 DFZ_CLASS_NONE);
}
END_TEST

static void body_l3_sizes(void *arg)
{
	pi_cl_ram_alloc_req_t ar;
	pi_cl_ram_free_req_t fr;
	void *a;
	uint32_t b, c;

	(void)arg;
	line_alloc = __LINE__; a = cl_ram_malloc(256);
	if (bad == 1) { line_bad = __LINE__; cl_ram_free(a, 255); goto out; }
	cl_ram_free(a, 256);
	line_alloc = __LINE__; pi_ram_alloc(get_ram_ptr(), &b, 512);
	if (bad == 2) { line_bad = __LINE__; pi_ram_free(get_ram_ptr(), b, 8); return; }
	pi_ram_free(get_ram_ptr(), b, 512);
	line_alloc = __LINE__; pi_cl_ram_alloc(get_ram_ptr(), 64, &ar);
	pi_cl_ram_alloc_wait(&ar, &c);
	if (bad == 3) line_bad = __LINE__, pi_cl_ram_free(get_ram_ptr(), c, 128, &fr);
	else pi_cl_ram_free(get_ram_ptr(), c, 64, &fr);
	pi_cl_ram_free_wait(&fr);
out:	/* cl_ram_free is a function: no tail call, its caller's line */
	__asm__ volatile("" ::: "memory");
}

START_TEST(test_l3_free_sizes)
{
	struct dfz__result r = run_bad(body_l3_sizes, 1);

	misuse_at(&r, "cl_ram_free of 0x", DFZ_L3, 256);
	ck_assert_ptr_nonnull(strstr(r.finding.msg, "size 255"));
	ck_assert_uint_eq(r.block.addr, r.block.off);
	r = run_bad(body_l3_sizes, 2);
	misuse_at(&r, "pi_ram_free of 0x", DFZ_L3, 512);
	r = run_bad(body_l3_sizes, 3);
	misuse_at(&r, "pi_cl_ram_free of 0x", DFZ_L3, 64);
	ck_assert_int_eq(run_bad(body_l3_sizes, 0).finding.cls,
			 DFZ_CLASS_NONE);
}
END_TEST

/* ---------------------------------------- interior pointers, statics */

static void body_interior(void *arg)
{
	uint8_t *p;
	uint32_t a;

	(void)arg;
	line_alloc = __LINE__; p = pi_l2_malloc(96);
	if (bad == 1) { line_bad = __LINE__; pi_l2_free(p + 32, 64); return; }
	pi_l2_free(p, 96);
	line_alloc = __LINE__; a = (uint32_t)(uintptr_t)AT_HYPERRAM_ALLOC(NULL, 40);
	if (bad == 2) { line_bad = __LINE__; AT_HYPERRAM_FREE(NULL, a + 8, 32); return; }
	if (bad == 3) { line_bad = __LINE__; AT_HYPERRAM_FREE(NULL, a, 32); return; }
	AT_HYPERRAM_FREE(NULL, a, 40);
}

START_TEST(test_interior_pointer)
{
	struct dfz__result r = run_bad(body_interior, 1);

	misuse_at(&r, "an interior pointer, 32 bytes into the L2 block of 96",
		  DFZ_L2, 96);
	r = run_bad(body_interior, 2);
	misuse_at(&r, "AT RAM free of 0x", DFZ_L3, 40);
	ck_assert_ptr_nonnull(strstr(r.finding.msg, "8 bytes into"));
	r = run_bad(body_interior, 3);     /* AutoTiler's free trusts the size */
	misuse_at(&r, "size 32, but the L3 block holds 40 bytes", DFZ_L3, 40);
	ck_assert_int_eq(run_bad(body_interior, 0).finding.cls,
			 DFZ_CLASS_NONE);
}
END_TEST

/* An address on the fabric controller's stack (L2). The free of a static
 * needs the statics at the start of L2, which only the link script puts
 * there: examples/mem-free-static is its check. */
static void body_not_heap(void *arg)
{
	uint8_t local[32];
	uint8_t *p = pi_l2_malloc(32);

	(void)arg;
	if (bad) { line_bad = __LINE__; pi_l2_free(local, sizeof(local)); }
	pi_l2_free(p, 32);
}

START_TEST(test_stack_free)
{
	struct dfz__result r = run_bad(body_not_heap, 1);

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_DEV_MISUSE);
	ck_assert_int_eq(r.site.line, line_bad);
	ck_assert_msg(strstr(r.finding.msg, "on a stack (the fabric"), "%s",
		      r.finding.msg);
	ck_assert(!r.block.known);
	ck_assert_int_eq(run_bad(body_not_heap, 0).finding.cls,
			 DFZ_CLASS_NONE);
}
END_TEST

/* ------------------------------------------------------- double frees */

static void body_double(void *arg)
{
	uint8_t *p;
	void *l3;

	(void)arg;
	line_alloc = __LINE__; p = pi_cl_l1_malloc(NULL, 48);
	line_free = __LINE__; pi_cl_l1_free(NULL, p, 48);
	if (bad == 1) { line_bad = __LINE__; pi_cl_l1_free(NULL, p, 48); return; }
	line_alloc = __LINE__; l3 = cl_ram_malloc(300);
	line_free = __LINE__; cl_ram_free(l3, 300);
	if (bad == 2) { line_bad = __LINE__; cl_ram_free(l3, 300); }
	__asm__ volatile("" ::: "memory");  /* no tail call */
}

START_TEST(test_double_free)
{
	struct dfz__result r = run_bad(body_double, 1);

	misuse_at(&r, "a double free", DFZ_L1, 48);
	ck_assert(r.block.freed);
	ck_assert_int_eq(r.block.free.line, line_free);
	ck_assert_ptr_nonnull(strstr(r.finding.msg, "freed at"));
	r = run_bad(body_double, 2);
	misuse_at(&r, "cl_ram_free of 0x", DFZ_L3, 300);
	ck_assert_int_eq(r.block.free.line, line_free);
	ck_assert_int_eq(run_bad(body_double, 0).finding.cls,
			 DFZ_CLASS_NONE);
}
END_TEST

/* More allocations than a run's record holds: the freed ones make room,
 * so a block allocated after them is still named. */
static void body_many(void *arg)
{
	uint8_t *keep, *p;

	(void)arg;
	line_keep = __LINE__; keep = pi_l2_malloc(8);
	for (int i = 0; i < DFZ__DROPIN_BLOCKS + 500; i++)
		pi_l2_free(pi_l2_malloc(16), 16);
	line_alloc = __LINE__; p = pi_l2_malloc(24);
	if (bad) { line_bad = __LINE__; pi_l2_free(keep, 9); }
	else { line_bad = __LINE__; pi_l2_free(p, 25); }
}

START_TEST(test_record_full)
{
	struct dfz__result r = run_bad(body_many, 0);

	misuse_at(&r, "size 25, but the L2 block holds 24 bytes", DFZ_L2, 24);
	/* The live block from before the flood keeps its record too. */
	r = run_bad(body_many, 1);
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_DEV_MISUSE);
	ck_assert(r.block.known);
	ck_assert_uint_eq(r.block.size, 8);
	ck_assert_int_eq(r.block.alloc.line, line_keep);
	ck_assert_uint_gt(r.block.alloc_stack.n, 0);
}
END_TEST

/* ---------------------------------------------------------------- leaks */

static void body_leak(void *arg)
{
	pi_cl_ram_alloc_req_t ar;
	uint8_t *keep, *p;
	uint32_t c;

	(void)arg;
	keep = pi_l2_malloc(16);
	line_alloc = __LINE__; p = pi_l2_malloc(200);
	pi_l2_free(keep, 16);
	pi_cl_ram_alloc(get_ram_ptr(), 64, &ar);
	pi_cl_ram_alloc_wait(&ar, &c);
	if (bad != 1)
		pi_l2_free(p, 200);
	if (bad != 2)
		pi_ram_free(get_ram_ptr(), c, 64);
}

START_TEST(test_leaks)
{
	struct dfz__result r;

	/* Off by default: the leaking body is clean. */
	ck_assert_int_eq(run_bad(body_leak, 1).finding.cls, DFZ_CLASS_NONE);
	dfz_dropin_leaks(1);
	r = run_bad(body_leak, 1);
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_MEM_LEAK);
	ck_assert_str_eq(r.finding.oracle, "leaks");
	ck_assert_int_eq(r.site.line, line_alloc);
	ck_assert(r.block.known && !r.block.freed);
	ck_assert_uint_eq(r.block.size, 200);
	ck_assert_msg(strstr(r.finding.msg, "1 blocks of 200 bytes"), "%s",
		      r.finding.msg);
	r = run_bad(body_leak, 2);
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_MEM_LEAK);
	ck_assert_uint_eq(r.block.level, DFZ_L3);
	ck_assert_int_eq(run_bad(body_leak, 0).finding.cls, DFZ_CLASS_NONE);
	dfz_dropin_leaks(0);
	ck_assert_int_eq(run_bad(body_leak, 2).finding.cls, DFZ_CLASS_NONE);
}
END_TEST

/* The Snitch runtime's heaps are the drop-in's, never the user's leak. */
static void body_snrt_heap(void *arg)
{
	(void)arg;
	if (snrt_is_dm_core())
		(void)snrt_l1alloc(256);
}

START_TEST(test_snrt_heap_no_leak)
{
	struct dfz__result r;

	dfz_dropin_leaks(1);
	r = run_bad(body_snrt_heap, 0);
	dfz_dropin_leaks(0);
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
}
END_TEST

/* ------------------------------------------- findings about a block */

static uint32_t uaf_off;

/* A finding of another oracle (bounds, redzone) about a freed block:
 * raised by hand, noticed at the next event. */
static void body_uaf(void *arg)
{
	struct dfz__dropin *d = dfz__dropin_get();
	struct dfz_evidence ev = dfz_evidence_none();
	struct dfz_span sp;
	uint8_t *p;

	(void)arg;
	line_alloc = __LINE__; p = pi_l2_malloc(72);
	dfz_mem_locate(d->rt, p, 1, &sp);
	uaf_off = sp.off;
	line_free = __LINE__; pi_l2_free(p, 72);
	ev.level = DFZ_L2;
	ev.block = bad ? (int64_t)sp.off : (int64_t)sp.off + 4096;
	dfz_oracle_fail(d->set, "bounds", DFZ_CLASS_MEM_UAF, &ev,
			"a read of a freed block");
	(void)pi_l2_malloc(8);
}

START_TEST(test_uaf_names_block)
{
	struct dfz__result r = run_bad(body_uaf, 1);

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_MEM_UAF);
	ck_assert(r.block.known && r.block.freed);
	ck_assert_uint_eq(r.block.off, uaf_off);
	ck_assert_uint_eq(r.block.size, 72);
	ck_assert_uint_eq(r.block.addr, DFZ_DROPIN_L2_BASE + uaf_off);
	ck_assert_int_eq(r.block.alloc.line, line_alloc);
	ck_assert_int_eq(r.block.free.line, line_free);
	ck_assert_uint_gt(r.block.alloc_stack.n, 0);
	/* Sabotage: a block no record holds is not named. */
	r = run_bad(body_uaf, 0);
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_MEM_UAF);
	ck_assert(!r.block.known);
}
END_TEST

/* A write past the end of an L3 block (by the loader, not the CPU, so
 * that memcheck has nothing to say): mem.redzone at its free. */
static void body_redzone(void *arg)
{
	static const uint8_t junk = 0x5a;
	void *l3;

	(void)arg;
	line_alloc = __LINE__; l3 = cl_ram_malloc(40);
	if (bad)
		dfz_dropin_l3_write((uint32_t)(uintptr_t)l3 + 40 + 3, &junk, 1);
	line_bad = __LINE__; cl_ram_free(l3, 40);
	__asm__ volatile("" ::: "memory");  /* no tail call */
}

START_TEST(test_redzone_names_block)
{
	struct dfz__result r = run_bad(body_redzone, 1);

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_MEM_REDZONE);
	ck_assert_int_eq(r.site.line, line_bad);
	ck_assert(r.block.known && !r.block.freed);
	ck_assert_uint_eq(r.block.size, 40);
	ck_assert_int_eq(r.block.alloc.line, line_alloc);
	ck_assert_int_eq(run_bad(body_redzone, 0).finding.cls,
			 DFZ_CLASS_NONE);
}
END_TEST

/* --------------------------------------------------------------- output */

static char *printed(const struct dfz__result *r, int how)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (how == 2)
		ck_assert_int_eq(dfz__dropin_sarif(r, ".", f), 0);
	else
		dfz__dropin_print(r, "x", how == 1, f);
	fclose(f);
	return text;
}

START_TEST(test_output_names_block)
{
	struct dfz__result r = run_bad(body_double, 1);
	char *t = printed(&r, 0), *j = printed(&r, 1), *s = printed(&r, 2);
	char want[128];
	json_t *o = json_loads(j, 0, NULL), *b;

	ck_assert_ptr_nonnull(strstr(t, "\nBLOCK: L1 0x1"));
	ck_assert_ptr_nonnull(strstr(t, ", 48 bytes, freed\n"));
	snprintf(want, sizeof(want), "ALLOCATED AT: %s:%d", __FILE__,
		 line_alloc);
	ck_assert_msg(strstr(t, want), "%s", t);
	snprintf(want, sizeof(want), "FREED AT: %s:%d", __FILE__, line_free);
	ck_assert_msg(strstr(t, want), "%s", t);
	ck_assert_ptr_nonnull(o);
	b = json_object_get(o, "block");
	ck_assert_str_eq(json_string_value(json_object_get(b, "level")), "L1");
	ck_assert_int_eq(json_integer_value(json_object_get(b, "size")), 48);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(
		b, "freed_at"), "line")), line_free);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(
		b, "allocated_at"), "line")), line_alloc);
	ck_assert_ptr_nonnull(strstr(s, "\"allocated here\""));
	ck_assert_ptr_nonnull(strstr(s, "\"freed here\""));
	json_decref(o);
	free(t);
	free(j);
	free(s);
}
END_TEST

/* A finding about no block prints as before: no BLOCK line, no key. */
static void body_check(void *arg)
{
	(void)arg;
	DFZ_DROPIN_CHECK(0);
}

START_TEST(test_output_other_classes)
{
	struct dfz__result r = run_bad(body_check, 0);
	char *t = printed(&r, 0), *j = printed(&r, 1), *s = printed(&r, 2);

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_DATA_MISMATCH);
	ck_assert(!r.block.known);
	ck_assert_ptr_null(strstr(t, "BLOCK"));
	ck_assert_ptr_null(strstr(j, "\"block\""));
	ck_assert_ptr_null(strstr(s, "allocated here"));
	free(t);
	free(j);
	free(s);
}
END_TEST

/* --------------------------------------------------- the runtime query */

START_TEST(test_mem_block_query)
{
	struct dfz_rt *rt = NULL;
	uint32_t off, uoff = 0, size = 0;

	ck_assert_int_eq(dfz_rt_create(&rt), 0);
	ck_assert_int_eq(dfz_l3_alloc(rt, 100, &off), 0);
	ck_assert_int_eq(dfz_mem_block(rt, DFZ_L3, off + 99, &uoff, &size), 0);
	ck_assert_uint_eq(uoff, off);
	ck_assert_uint_eq(size, 100);
	ck_assert_int_eq(dfz_mem_block(rt, DFZ_L3, off + 100, NULL, NULL),
			 DFZ_EFAULT);
	ck_assert_int_eq(dfz_mem_block(rt, DFZ_L3, off - 1, NULL, NULL),
			 DFZ_EFAULT);
	ck_assert_int_eq(dfz_mem_block(rt, DFZ_NLEVELS, off, NULL, NULL),
			 DFZ_EINVAL);
	ck_assert_int_eq(dfz_l3_free(rt, off), 0);
	ck_assert_int_eq(dfz_mem_block(rt, DFZ_L3, off, NULL, NULL),
			 DFZ_EFAULT);
	dfz_rt_destroy(rt);
}
END_TEST

Suite *suite_dropin_alloc(void)
{
	Suite *s = suite_create("dropin_alloc");
	TCase *tc = tcase_create("alloc");

	tcase_add_test(tc, test_l2_free_size);
	tcase_add_test(tc, test_l1_free_size);
	tcase_add_test(tc, test_l3_free_sizes);
	tcase_add_test(tc, test_interior_pointer);
	tcase_add_test(tc, test_stack_free);
	tcase_add_test(tc, test_double_free);
	tcase_add_test(tc, test_record_full);
	tcase_add_test(tc, test_leaks);
	tcase_add_test(tc, test_snrt_heap_no_leak);
	tcase_add_test(tc, test_uaf_names_block);
	tcase_add_test(tc, test_redzone_names_block);
	tcase_add_test(tc, test_output_names_block);
	tcase_add_test(tc, test_output_other_classes);
	tcase_add_test(tc, test_mem_block_query);
	suite_add_tcase(s, tc);
	return s;
}
