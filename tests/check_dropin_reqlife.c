// SPDX-License-Identifier: MIT
/*
 * Request lifetime (dropin/reqlife.c): a request or command the engine
 * still holds when its stack frame returns, its core's fork ends, or its
 * L1/L2 block is freed is mem.use-after-free, at its issue (a frame) or
 * at the free, with the other call as the earlier one. Each finding has
 * its fixed twin, which is clean, and the sabotage that proves the held
 * record decides it: released by hand, the finding goes; held by hand,
 * it comes. A bare run goes on after its verdict, and the engine would
 * then read the dead struct where the frames of the calls after it live,
 * which ASan reports when the library itself is built with it (SAN=asan):
 * the bodies meet the verdict at an allocation and end without the wait
 * (the examples show the wait itself finding it, with the plain library).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "dropin_fixture.h"
#include "reqlife.h"
#include "dmafuzz/dropin/pmsis.h"
#include "dmafuzz/dropin/bsp/ram.h"

#define N 64

static int issue_line, call_line;
static bool sabotage;   /* release the request by hand before the wait */

static struct dfz__result run(void (*body)(void *))
{
	struct dfz_dropin_test t = { body, NULL, __FILE__ };
	struct dfz__result r;

	dfz__dropin_run(&t, NULL, 0, &r);
	return r;
}

static void check_uaf(struct dfz__result r, int site, int prior,
		      const char *words)
{
	ck_assert_str_eq(dfz_class_name(r.finding.cls), "mem.use-after-free");
	ck_assert_int_eq(r.site.line, site);
	ck_assert_int_eq(r.prior.line, prior);
	ck_assert_msg(strstr(r.finding.msg, words), "%s", r.finding.msg);
}

/* ------------------------------------------------- a frame that returned */

static uint8_t *tile;
static uint32_t l3;

static void setup_mem(void)
{
	tile = pi_l2_malloc(N);
	l3 = (uint32_t)(uintptr_t)cl_ram_malloc(N);
	l3_fill(l3, N);   /* the input the loads bring in */
}

/* The read on a request of this frame, which returns without its wait. */
__attribute__((noinline)) static pi_cl_ram_req_t *start_on_stack(void)
{
	pi_cl_ram_req_t req;
	pi_cl_ram_req_t *volatile r = &req;

	issue_line = __LINE__ + 1;
	pi_cl_ram_read(get_ram_ptr(), l3, tile, N, r);
	if (sabotage)
		dfz__reqlife_release(r);
	return r;
}

__attribute__((noinline)) static void start_in(pi_cl_ram_req_t *r)
{
	pi_cl_ram_read(get_ram_ptr(), l3, tile, N, r);
}

/* The next call in the caller: its frame lies above the dead one. */
static void body_frame(void *arg)
{
	(void)arg;
	setup_mem();
	(void)start_on_stack();
	call_line = __LINE__ + 1;
	(void)pi_l2_malloc(8);
}

static void body_frame_fixed(void *arg)
{
	pi_cl_ram_req_t req;

	(void)arg;
	setup_mem();
	start_in(&req);
	pi_cl_ram_read_wait(&req);
}

START_TEST(test_frame)
{
	struct dfz__result r;

	sabotage = false;
	r = run(body_frame);
	check_uaf(r, issue_line, call_line, "stack frame of the fabric "
		  "controller (L2) that returned");
	ck_assert_msg(strstr(r.finding.msg, "pi_cl_ram_copy_wait"), "%s",
		      r.finding.msg);
	ck_assert_str_eq(r.prior.file, __FILE__);
	r = run(body_frame_fixed);
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
	/* Sabotage: not held, not judged (the request is only a leak). */
	sabotage = true;
	r = run(body_frame);
	ck_assert_str_eq(dfz_class_name(r.finding.cls), "handle.leak");
	sabotage = false;
}
END_TEST

/* The next call in a sibling of the issuing function: the dead frame's
 * place is taken by a live one, told apart by its return address. */
static bool sibling_waits;

__attribute__((noinline)) static void finish(pi_cl_ram_req_t *r)
{
	volatile uint8_t pad[96];

	pad[0] = 1;
	call_line = __LINE__ + 1;
	(void)pi_l2_malloc(8);
	if (sibling_waits)
		pi_cl_ram_read_wait(r);
	(void)pad[0];
}

static volatile int after;

/* finish() is a call, not a tail jump: its frame takes the place of
 * start_on_stack()'s, return address over return address. */
static void body_sibling(void *arg)
{
	pi_cl_ram_req_t *r;

	(void)arg;
	setup_mem();
	r = start_on_stack();
	sibling_waits = false;
	finish(r);
	after = 1;
}

static void body_sibling_fixed(void *arg)
{
	pi_cl_ram_req_t req;

	(void)arg;
	setup_mem();
	start_in(&req);
	sibling_waits = true;
	finish(&req);
}

START_TEST(test_frame_sibling)
{
	struct dfz__result r = run(body_sibling);

	check_uaf(r, issue_line, call_line, "that returned");
	r = run(body_sibling_fixed);
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
}
END_TEST

/* Sabotage the other way: a struct held by hand in a live frame is
 * fine, in a frame that returned it is a finding at the holding call. */
__attribute__((noinline)) static void hold_here(void)
{
	volatile pi_cl_dma_cmd_t cmd;
	struct dfz__dropin *d = dfz__dropin_get();

	issue_line = __LINE__ + 1;
	d->cur = (struct dfz_site){ __FILE__, __LINE__, __func__ };
	dfz__reqlife_hold(d, (const void *)&cmd, sizeof(cmd), DFZ__REQ_CMD);
}

static void body_hand(void *arg)
{
	pi_cl_dma_cmd_t cmd;
	struct dfz__dropin *d = dfz__dropin_get();

	(void)arg;
	dfz__reqlife_hold(d, &cmd, sizeof(cmd), DFZ__REQ_CMD);
	(void)pi_l2_malloc(8);
	dfz__reqlife_release(&cmd);
	hold_here();
	call_line = __LINE__ + 1;
	(void)pi_l2_malloc(8);
}

START_TEST(test_hand_held)
{
	struct dfz__result r = run(body_hand);

	check_uaf(r, issue_line, call_line, "command");
}
END_TEST

/* --------------------------------------------------- cluster DMA commands */

__attribute__((noinline)) static pi_cl_dma_cmd_t *cmd_on_stack(uint8_t *l1,
							       uint8_t *l2)
{
	pi_cl_dma_cmd_t cmd;
	pi_cl_dma_cmd_t *volatile c = &cmd;
	uint32_t ext = (uint32_t)(uintptr_t)l2, loc = (uint32_t)(uintptr_t)l1;

	issue_line = __LINE__ + 1; /* one line: gcc and clang agree on it */
	pi_cl_dma_cmd(ext, loc, N, PI_CL_DMA_DIR_EXT2LOC, c);
	return c;
}

static void body_cmd(void *arg)
{
	uint8_t *l1 = pmsis_l1_malloc(N), *l2 = pi_l2_malloc(N);
	pi_cl_dma_cmd_t *c;

	(void)arg;
	fill(l2, N);
	c = cmd_on_stack(l1, l2);
	call_line = __LINE__ + 1;
	(void)pi_l2_malloc(8);
	(void)c;
}

static void body_cmd_fixed(void *arg)
{
	uint8_t *l1 = pmsis_l1_malloc(N), *l2 = pi_l2_malloc(N);
	pi_cl_dma_cmd_t cmd;

	(void)arg;
	fill(l2, N);
	pi_cl_dma_cmd((uint32_t)(uintptr_t)l2, (uint32_t)(uintptr_t)l1, N,
		      PI_CL_DMA_DIR_EXT2LOC, &cmd);
	pi_cl_dma_cmd_wait(&cmd);
	(void)pi_l2_malloc(8);   /* judged after the release: clean */
}

START_TEST(test_cmd)
{
	struct dfz__result r = run(body_cmd);

	check_uaf(r, issue_line, call_line, "command");
	ck_assert_msg(strstr(r.finding.msg, "pi_cl_dma_cmd_wait"), "%s",
		      r.finding.msg);
	r = run(body_cmd_fixed);
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
}
END_TEST

/* ------------------------------------------------------ a fork's stacks */

static bool core_waits;

static void core_reads(void *arg)
{
	pi_cl_ram_req_t req;

	(void)arg;
	if (pi_core_id() != 0)
		return;
	issue_line = __LINE__ + 1;
	pi_cl_ram_read(get_ram_ptr(), l3, tile, N, &req);
	if (core_waits)
		pi_cl_ram_read_wait(&req);
}

static void body_fork(void *arg)
{
	(void)arg;
	setup_mem();
	pi_cl_team_fork(2, core_reads, NULL);
	call_line = __LINE__ + 1;
	(void)pi_l2_malloc(8);
}

/* No call after the fork: the end of the body judges it. */
static void body_fork_end(void *arg)
{
	(void)arg;
	setup_mem();
	pi_cl_team_fork(2, core_reads, NULL);
}

START_TEST(test_fork)
{
	struct dfz__result r;

	core_waits = false;
	r = run(body_fork);
	check_uaf(r, issue_line, call_line, "core 0 (L1)");
	r = run(body_fork_end);
	ck_assert_str_eq(dfz_class_name(r.finding.cls), "mem.use-after-free");
	ck_assert_int_eq(r.site.line, issue_line);
	core_waits = true;
	r = run(body_fork);
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
	core_waits = false;
}
END_TEST

/* A request of the body's own frame never waited: the leak oracle's
 * (the missing wait is the bug), not a frame that returned. */
static void body_leak(void *arg)
{
	pi_cl_ram_req_t req;

	(void)arg;
	setup_mem();
	pi_cl_ram_read(get_ram_ptr(), l3, tile, N, &req);
}

START_TEST(test_leak_is_leak)
{
	struct dfz__result r = run(body_leak);

	ck_assert_str_eq(dfz_class_name(r.finding.cls), "handle.leak");
}
END_TEST

/* ------------------------------------------------------- a freed block */

static bool wait_first;

static void body_free(void *arg)
{
	pi_cl_ram_req_t *req = pi_l2_malloc(sizeof(*req) + 32);

	(void)arg;
	setup_mem();
	issue_line = __LINE__ + 1;
	pi_cl_ram_read(get_ram_ptr(), l3, tile, N, req);
	if (wait_first)
		pi_cl_ram_read_wait(req);
	call_line = __LINE__ + 1;
	pi_l2_free(req, sizeof(*req) + 32);
}

START_TEST(test_free)
{
	struct dfz__result r;

	wait_first = false;
	r = run(body_free);
	check_uaf(r, call_line, issue_line, "L2 block");
	ck_assert_msg(strstr(r.finding.msg, "pi_cl_ram_copy_wait"), "%s",
		      r.finding.msg);
	wait_first = true;
	r = run(body_free);
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
}
END_TEST

/* ------------------------------------------------- ASan: host memory */

#if defined(__SANITIZE_ADDRESS__)
#define HAVE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HAVE_ASAN 1
#endif
#endif

#ifdef HAVE_ASAN
static void body_heap(void *arg)
{
	pi_cl_ram_req_t *req = malloc(sizeof(*req));
	pi_cl_ram_req_t *volatile kept = req;  /* past GCC's own warning */

	(void)arg;
	setup_mem();
	issue_line = __LINE__ + 1;
	pi_cl_ram_read(get_ram_ptr(), l3, tile, N, req);
	free(req);
	call_line = __LINE__ + 1;
	pi_cl_ram_read_wait(kept);
}

START_TEST(test_asan_heap)
{
	struct dfz__result r = run(body_heap);

	check_uaf(r, issue_line, call_line, "ASan");
}
END_TEST
#endif

Suite *suite_dropin_reqlife(void)
{
	Suite *s = suite_create("dropin_reqlife");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_frame);
	tcase_add_test(tc, test_frame_sibling);
	tcase_add_test(tc, test_hand_held);
	tcase_add_test(tc, test_cmd);
	tcase_add_test(tc, test_fork);
	tcase_add_test(tc, test_leak_is_leak);
	tcase_add_test(tc, test_free);
#ifdef HAVE_ASAN
	tcase_add_test(tc, test_asan_heap);
#endif
	suite_add_tcase(s, tc);
	return s;
}
