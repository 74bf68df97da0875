// SPDX-License-Identifier: MIT
/*
 * Findings show the user's code (issue 23 item 7): the earlier call a
 * finding names is the transfer it conflicts with (a race names the
 * transfer still in flight, not an earlier, waited issue on the same
 * request), and both calls come with the user's frames of their call
 * stacks, in the text, the JSON and the SARIF, so that a DMA call inside
 * a user's wrapper names the lines that called the wrapper. The lines the
 * tests expect are taken with __LINE__ on the calls themselves.
 */
#define _DEFAULT_SOURCE /* open_memstream */
#include <check.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "dropin_fixture.h"
#include "dmafuzz/dropin/bsp/ram.h"
#include "dmafuzz/dropin/snrt.h"

#define T 64

static int line_a, line_b, line_race, line_wrap, line_call, line_prior,
	   line_check, line_helper_call;

static struct dfz__result run(void (*body)(void *))
{
	struct dfz_dropin_test t = { body, NULL, __FILE__ };
	struct dfz__result r;

	dfz__dropin_run(&t, NULL, 0, &r);
	return r;
}

/* -------------------------------------------------- the right prior */

/* Request a is waited, b is in flight, then a loads over b's bytes. */
static void body_race(void *arg)
{
	pi_cl_ram_req_t a, b;
	uint32_t l3 = (uint32_t)(uintptr_t)cl_ram_malloc(4 * T);
	uint8_t *b0 = pi_l2_malloc(T), *b1 = pi_l2_malloc(T);

	(void)arg;
	l3_fill(l3, 4 * T);
	line_a = __LINE__; pi_cl_ram_read(get_ram_ptr(), l3, b0, T, &a);
	pi_cl_ram_read_wait(&a);
	line_b = __LINE__; pi_cl_ram_read(get_ram_ptr(), l3 + T, b1, T, &b);
	line_race = __LINE__; pi_cl_ram_read(get_ram_ptr(), l3 + 2 * T, b1, T, &a);
	pi_cl_ram_read_wait(&a);
	pi_cl_ram_read_wait(&b);
	pi_l2_free(b1, T);
	pi_l2_free(b0, T);
	cl_ram_free((void *)(uintptr_t)l3, 4 * T);
}

START_TEST(test_race_names_raced_transfer)
{
	struct dfz__result r = run(body_race);

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_HAZARD_RACE);
	ck_assert_int_eq(r.finding.ev.xfer, 2);
	ck_assert_int_eq(r.finding.ev.other, 1);
	ck_assert_int_eq(r.site.line, line_race);
	/* Not line_a: the last issue on the request, waited already. */
	ck_assert_int_eq(r.prior.line, line_b);
	ck_assert_ptr_nonnull(r.prior.file);
}
END_TEST

/* Snitch: a store reads what a load still in flight writes. Before, the
 * prior was null (no earlier issue under the new txid). */
static uint8_t *s_l3, *s_l1;

static void dm_race(void *arg)
{
	(void)arg;
	if (snrt_is_dm_core()) {
		line_b = __LINE__; snrt_dma_start_1d(s_l1, s_l3, 64);
		line_race = __LINE__; snrt_dma_start_1d(s_l3 + 128, s_l1, 64);
		snrt_dma_wait_all();
	}
	snrt_cluster_hw_barrier();
}

static void body_snrt_race(void *arg)
{
	(void)arg;
	s_l3 = snrt_l3alloc(256);
	s_l1 = snrt_l1alloc(256);
	fill(s_l3, 256);
	dfz_snrt_spmd(dm_race, NULL);
}

START_TEST(test_snrt_race_prior)
{
	struct dfz__result r = run(body_snrt_race);

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_HAZARD_RACE);
	ck_assert_int_eq(r.site.line, line_race);
	ck_assert_ptr_nonnull(r.prior.file);
	ck_assert_int_eq(r.prior.line, line_b);
}
END_TEST

/* ------------------------------------------------- a user's wrapper */

struct job {
	pi_cl_ram_req_t req;
};

__attribute__((noinline)) static void wrap_load(struct job *j, void *dst,
						uint32_t l3)
{
	line_wrap = __LINE__; pi_cl_ram_read(get_ram_ptr(), l3, dst, T, &j->req);
	__asm__ volatile("" ::: "memory"); /* no tail call */
}

__attribute__((noinline)) static void kernel_wrapped(uint32_t l3, uint8_t *b0,
						     uint8_t *b1)
{
	struct job j0, j1;

	wrap_load(&j0, b0, l3);
	pi_cl_ram_read_wait(&j0.req);
	line_prior = __LINE__; wrap_load(&j1, b1, l3 + T);
	line_call = __LINE__; wrap_load(&j0, b1, l3 + 2 * T);
	pi_cl_ram_read_wait(&j0.req);
	pi_cl_ram_read_wait(&j1.req);
	__asm__ volatile("" ::: "memory");
}

static void body_wrapped(void *arg)
{
	uint32_t l3 = (uint32_t)(uintptr_t)cl_ram_malloc(4 * T);
	uint8_t *b0 = pi_l2_malloc(T), *b1 = pi_l2_malloc(T);

	(void)arg;
	l3_fill(l3, 4 * T);
	kernel_wrapped(l3, b0, b1);
	pi_l2_free(b1, T);
	pi_l2_free(b0, T);
	cl_ram_free((void *)(uintptr_t)l3, 4 * T);
}

/* Is there a frame at @line of this file among @fr's frames from @from? */
static bool has_line(const struct dfz__frames *fr, uint32_t from, int line)
{
	for (uint32_t i = from; i < fr->n; i++)
		if (fr->f[i].line == line && strstr(fr->f[i].file,
						    "check_dropin_sites.c"))
			return true;
	return false;
}

START_TEST(test_wrapper_stacks)
{
	struct dfz__result r = run(body_wrapped);
	struct dfz__frames site, prior;

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_HAZARD_RACE);
	ck_assert_int_eq(r.site.line, line_wrap);
	ck_assert_int_eq(r.prior.line, line_wrap);
	ck_assert_uint_gt(dfz__stack_user(&r.site_stack, &r.site, &site), 2);
	ck_assert_uint_gt(dfz__stack_user(&r.prior_stack, &r.prior, &prior), 2);
	/* Frame 0 is the SDK call; the kernel's line that called the
	 * wrapper comes next, the body's after. */
	ck_assert_int_eq(site.f[0].line, line_wrap);
	ck_assert_str_eq(site.f[0].func, "wrap_load");
	ck_assert(has_line(&site, 1, line_call));
	ck_assert(!has_line(&site, 1, line_prior));
	ck_assert(has_line(&prior, 1, line_prior));
	ck_assert(!has_line(&prior, 1, line_call));
	/* The user's frames end at the body: nothing of the drop-in. */
	ck_assert_str_eq(site.f[site.n - 1].func, "body_wrapped");
	for (uint32_t i = 0; i < site.n; i++)
		ck_assert_ptr_nonnull(strstr(site.f[i].file,
					     "check_dropin_sites.c"));
}
END_TEST

/* The text names the callers under AT and CONFLICTS WITH. */
START_TEST(test_text_called_from)
{
	struct dfz__result r = run(body_wrapped);
	char *text = NULL, want[96], *conflicts, *at;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	dfz__dropin_print(&r, "x", false, f);
	fclose(f);
	conflicts = strstr(text, "CONFLICTS WITH:");
	ck_assert_ptr_nonnull(conflicts);
	snprintf(want, sizeof(want), "  CALLED FROM: tests/check_dropin_sites"
		 ".c:%d (in kernel_wrapped)\n", line_call);
	at = strstr(text, want);
	ck_assert(at && at < conflicts);
	snprintf(want, sizeof(want), "  CALLED FROM: tests/check_dropin_sites"
		 ".c:%d (in kernel_wrapped)\n", line_prior);
	at = strstr(text, want);
	ck_assert(at && at > conflicts);
	free(text);
}
END_TEST

/* The JSON holds both stacks, parsed back. */
START_TEST(test_json_stacks)
{
	struct dfz__result r = run(body_wrapped);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	json_t *j, *st;

	dfz__dropin_print(&r, "x", true, f);
	fclose(f);
	j = json_loads(text, 0, NULL);
	ck_assert_ptr_nonnull(j);
	st = json_object_get(json_object_get(j, "site"), "stack");
	ck_assert_uint_gt(json_array_size(st), 2);
	ck_assert_int_eq(json_integer_value(json_object_get(
		json_array_get(st, 1), "line")), line_call);
	st = json_object_get(json_object_get(j, "prior"), "stack");
	ck_assert_int_eq(json_integer_value(json_object_get(
		json_array_get(st, 1), "line")), line_prior);
	json_decref(j);
	free(text);
}
END_TEST

/* SARIF: the earlier call and the callers as related locations, both
 * stacks, and a code flow of two threads, valid JSON. */
START_TEST(test_sarif_stacks)
{
	struct dfz__result r = run(body_wrapped);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	json_t *j, *res, *flows;

	ck_assert_int_eq(dfz__dropin_sarif(&r, ".", f), 0);
	fclose(f);
	j = json_loads(text, 0, NULL);
	ck_assert_ptr_nonnull(j);
	res = json_array_get(json_object_get(json_array_get(
		json_object_get(j, "runs"), 0), "results"), 0);
	ck_assert_uint_ge(json_array_size(json_object_get(res,
		"relatedLocations")), 4);
	ck_assert_uint_eq(json_array_size(json_object_get(res, "stacks")), 2);
	flows = json_object_get(json_array_get(json_object_get(res,
		"codeFlows"), 0), "threadFlows");
	ck_assert_uint_eq(json_array_size(flows), 2);
	ck_assert_ptr_nonnull(strstr(text, "\"uri\":\"tests/check_dropin_sites.c\""));
	json_decref(j);
	free(text);
}
END_TEST

/* --------------------------------------- findings of the layer itself */

__attribute__((noinline)) static void helper_check(int ok)
{
	line_check = __LINE__; DFZ_DROPIN_CHECK(ok);
	__asm__ volatile("" ::: "memory");
}

static void body_check(void *arg)
{
	(void)arg;
	line_helper_call = __LINE__; helper_check(0);
	__asm__ volatile("" ::: "memory");
}

START_TEST(test_layer_finding_stack)
{
	struct dfz__result r = run(body_check);
	struct dfz__frames fr;

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_DATA_MISMATCH);
	ck_assert_int_eq(r.site.line, line_check);
	ck_assert_uint_ge(dfz__stack_user(&r.site_stack, &r.site, &fr), 2);
	ck_assert(has_line(&fr, 1, line_helper_call));
}
END_TEST

/* Both calls' stacks are taken in a bare run; the user's frames of a
 * call made by the body itself are that call alone (nothing of the
 * drop-in above it, nor of the harness below the body); no call or an
 * empty stack (a fuzz execution's) gives none. */
START_TEST(test_stack_needs_the_call)
{
	struct dfz__result r = run(body_race);
	struct dfz_site none = { NULL, 0, NULL };
	struct dfz__frames fr;

	ck_assert_uint_gt(r.site_stack.n, 0);
	ck_assert_uint_gt(r.prior_stack.n, 0);
	ck_assert_uint_eq(dfz__stack_user(&r.site_stack, &r.site, &fr), 1);
	ck_assert_int_eq(fr.f[0].line, line_race);
	ck_assert_uint_eq(dfz__stack_user(&r.site_stack, &none, &fr), 0);
	r.site_stack.n = 0;
	ck_assert_uint_eq(dfz__stack_user(&r.site_stack, &r.site, &fr), 0);
}
END_TEST

/* The last issue of each handle is found through an index, and a run's
 * start forgets every key: runs of many transfers (their ids' slots
 * collide) leave no slot behind, or the index would fill up over a
 * campaign. */
START_TEST(test_keys_forgotten)
{
	static struct dfz__dropin d;

	d.fuzzing = true;                 /* no call stacks */
	for (unsigned run = 0; run < 3; run++) {
		for (int64_t id = 0; id < 200; id++) {
			struct dfz_event ev = { .kind = DFZ_EV_ISSUE,
						.engine = DFZ_ENGINE_IDMA,
						.id = id * 7 + run };

			dfz__sites_issue(&d, &ev);
		}
		ck_assert_uint_eq(d.nkeys, 200);
		dfz__sites_reset(&d);
		ck_assert_uint_eq(d.nkeys, 0);
		for (unsigned i = 0; i < DFZ__DROPIN_KEY_SLOTS; i++)
			ck_assert_uint_eq(d.key_slot[i], 0);
	}
}
END_TEST

Suite *suite_dropin_sites(void)
{
	Suite *s = suite_create("dropin_sites");
	TCase *tc = tcase_create("sites");

	tcase_add_test(tc, test_race_names_raced_transfer);
	tcase_add_test(tc, test_snrt_race_prior);
	tcase_add_test(tc, test_wrapper_stacks);
	tcase_add_test(tc, test_text_called_from);
	tcase_add_test(tc, test_json_stacks);
	tcase_add_test(tc, test_sarif_stacks);
	tcase_add_test(tc, test_layer_finding_stack);
	tcase_add_test(tc, test_stack_needs_the_call);
	tcase_add_test(tc, test_keys_forgotten);
	suite_add_tcase(s, tc);
	return s;
}
