// SPDX-License-Identifier: MIT
/*
 * The harness never dies without a verdict (dropin/crash.c, guard.c,
 * symbolize.c): a signal in a guarded body is a crash finding at the
 * body's line, symbolized from this binary's debug info; a value read
 * from a buffer in flight names that transfer; a body past its time
 * limit is dma.hang where it spins; a bad pointer handed to an SDK call
 * is dma.bad-address at the call, never a fault inside the drop-in. The
 * lines the bodies expect are taken with __LINE__ on the line itself.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, mincore */
#include <check.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "crash.h"
#include "dropin_fixture.h"
#include "dmafuzz/dropin/bsp/ram.h"
#include "dmafuzz/dropin/dory_dma.h"

static volatile int want_line;          /* the line a body expects the finding at */
static volatile int prior_line;         /* ... and the earlier call's */
/* want_line is this line, stored before anything after it on the line
 * (a compiler barrier: a plain store could move above it). */
#define MARK()                                                               \
	do {                                                                 \
		want_line = __LINE__;                                        \
		__asm__ volatile("" ::: "memory");                           \
	} while (0)
static int *volatile nowhere;    /* NULL, read at run time */
static volatile int zero;
static volatile unsigned spins;

static struct dfz__result guarded(void (*body)(void *), unsigned timeout)
{
	struct dfz_dropin_test t = { body, NULL, __FILE__ };
	struct dfz__result r;

	ck_assert_int_eq(dfz__crash_install(timeout), 0);
	dfz__dropin_run(&t, NULL, 0, &r);
	dfz__crash_uninstall();
	return r;
}

/* The finding is @cls at this file's line want_line. */
static void assert_at(const struct dfz__result *r, enum dfz_class cls)
{
	ck_assert_msg(r->finding.cls == cls, "class %s, want %s: %s",
		      dfz_class_name(r->finding.cls), dfz_class_name(cls),
		      r->finding.msg);
	ck_assert_ptr_nonnull(r->site.file);
	ck_assert_msg(strstr(r->site.file, "check_dropin_crash.c") &&
		      r->site.line == want_line, "at %s:%d, want line %d",
		      r->site.file, r->site.line, want_line);
}

/* ------------------------------------------------------------ signals */

static void body_segv(void *arg)
{
	(void)arg;
	MARK(); *nowhere = 1;
}

static void body_fpe(void *arg)
{
	(void)arg;
	MARK(); spins = 7u / (unsigned)zero;
}

static void body_ill(void *arg)
{
	(void)arg;
	MARK(); if (!zero) __builtin_trap();
}

static void body_abort(void *arg)
{
	(void)arg;
	MARK(); abort();
}

static void (*const signal_body[])(void *) = { body_segv, body_fpe,
					       body_ill, body_abort };
static const char *const signal_word[] = { "SIGSEGV at address 0x0",
					   "SIGFPE", "SIGILL", "SIGABRT" };

/* Under ASan, ASan keeps the signals it handles (its report ends the
 * process): only abort is the drop-in's there. */
#if defined(__SANITIZE_ADDRESS__)
#define ASAN_SIGNALS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ASAN_SIGNALS 1
#endif
#endif
#ifdef ASAN_SIGNALS
static const bool asan_signals = true;
#else
static const bool asan_signals = false;
#endif

START_TEST(test_signal_is_crash)
{
	struct dfz__result r = guarded(signal_body[_i], 0);

	assert_at(&r, DFZ_CLASS_CRASH);
	ck_assert_str_eq(r.finding.oracle, "signal");
	ck_assert_msg(strstr(r.finding.msg, signal_word[_i]), "%s",
		      r.finding.msg);
	ck_assert(dfz__crash_escaped());
}
END_TEST

/* The same schedule, the same verdict: class, line and message. */
START_TEST(test_crash_is_deterministic)
{
	struct dfz__result a = guarded(body_segv, 0);
	struct dfz__result b = guarded(body_segv, 0);

	ck_assert_int_eq(a.finding.cls, b.finding.cls);
	ck_assert_int_eq(a.site.line, b.site.line);
	ck_assert_str_eq(a.finding.msg, b.finding.msg);
}
END_TEST

/* After a crash the process goes on: the next body runs clean. */
static void body_clean(void *arg)
{
	uint8_t *p = pi_l2_malloc(64);

	(void)arg;
	memset(p, 1, 64);
	pi_l2_free(p, 64);
}

START_TEST(test_clean_after_crash)
{
	struct dfz__result r = guarded(body_segv, 0);

	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_CRASH);
	r = guarded(body_clean, 0);
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
	ck_assert(!dfz__crash_escaped());
}
END_TEST

/* A crash on a core of a team fork: the fork is left, the next fork runs. */
static void core_segv(void *arg)
{
	(void)arg;
	if (pi_core_id() == 3) {
		MARK(); *nowhere = 3;
	}
	pi_cl_team_barrier();
}

static void body_fork_segv(void *arg)
{
	(void)arg;
	pi_cl_team_fork(8, core_segv, NULL);
}

static void core_count(void *arg)
{
	(void)arg;
	spins++;
	pi_cl_team_barrier();
}

static void body_fork_clean(void *arg)
{
	(void)arg;
	spins = 0;
	pi_cl_team_fork(8, core_count, NULL);
	DFZ_DROPIN_CHECK(spins == 8);
}

START_TEST(test_crash_in_fork)
{
	struct dfz__result r = guarded(body_fork_segv, 0);

	assert_at(&r, DFZ_CLASS_CRASH);
	r = guarded(body_fork_clean, 0);
	ck_assert_msg(r.finding.cls == DFZ_CLASS_NONE, "%s", r.finding.msg);
}
END_TEST

/* ----------------------------------------------------- values in flight */

/* A pointer read from a buffer still in flight (the poison) and written
 * through: the crash names the transfer that buffer waits for. */
static void body_inflight(void *arg)
{
	int **slots = pi_l2_malloc(64);
	uint32_t l3 = (uint32_t)(uintptr_t)cl_ram_malloc(64);
	pi_cl_ram_req_t req;
	int *p;

	(void)arg;
	l3_fill(l3, 64);
	prior_line = __LINE__; pi_cl_ram_copy(get_ram_ptr(), l3, slots, 64, 1, &req);
	p = slots[1];
	MARK(); *p = 5;
	pi_cl_ram_copy_wait(&req);
}

/* The same fault through a pointer that is only NULL: no transfer is
 * named (the sabotage of the one above). */
static void body_not_inflight(void *arg)
{
	int **slots = pi_l2_malloc(64);
	uint32_t l3 = (uint32_t)(uintptr_t)cl_ram_malloc(64);
	pi_cl_ram_req_t req;

	(void)arg;
	l3_fill(l3, 64);
	pi_cl_ram_copy(get_ram_ptr(), l3, slots, 64, 1, &req);
	MARK(); *nowhere = 5;
	pi_cl_ram_copy_wait(&req);
}

START_TEST(test_inflight_value)
{
	struct dfz__result r = guarded(body_inflight, 0);

	assert_at(&r, DFZ_CLASS_CRASH);
	ck_assert_msg(strstr(r.finding.msg, "came from transfer 0, still in "
			     "flight"), "%s", r.finding.msg);
	ck_assert_ptr_nonnull(r.prior.file);
	ck_assert_int_eq(r.prior.line, prior_line);
	r = guarded(body_not_inflight, 0);
	assert_at(&r, DFZ_CLASS_CRASH);
	ck_assert_msg(!strstr(r.finding.msg, "in flight"), "%s", r.finding.msg);
	ck_assert_ptr_null(r.prior.file);
}
END_TEST

/* ------------------------------------------------------------ timeouts */

static void body_spin(void *arg)
{
	(void)arg;
	MARK(); for (;;) spins++;
}

static void core_spin(void *arg)
{
	(void)arg;
	if (pi_core_id() == 5) {
		MARK(); for (;;) spins++;
	}
	pi_cl_team_barrier();
}

static void body_fork_spin(void *arg)
{
	(void)arg;
	pi_cl_team_fork(8, core_spin, NULL);
}

START_TEST(test_timeout)
{
	struct dfz__result r = guarded(_i ? body_fork_spin : body_spin, 1);

	assert_at(&r, DFZ_CLASS_DMA_HANG);
	ck_assert_str_eq(r.finding.oracle, "timeout");
	ck_assert_msg(strstr(r.finding.msg, "time limit (1 s"), "%s",
		      r.finding.msg);
	r = guarded(body_fork_clean, 1);
	ck_assert_msg(r.finding.cls == DFZ_CLASS_NONE, "%s", r.finding.msg);
}
END_TEST

/* An eighth of a second of CPU time, nearly all of it in user mode (the
 * time limit's clock). */
static void body_burn(void *arg)
{
	clock_t t0 = clock();

	(void)arg;
	while (clock() - t0 < CLOCKS_PER_SEC / 8)
		for (unsigned i = 0; i < 1000000; i++)
			spins++;
}

/* The limit is per run (crash.c's timer is set once and ticks on): runs
 * that each stay under it are clean however long they take together,
 * and a run past it is still stopped, in the same installation. */
START_TEST(test_timeout_per_run)
{
	struct dfz_dropin_test burn = { body_burn, NULL, __FILE__ };
	struct dfz_dropin_test spin = { body_spin, NULL, __FILE__ };
	struct dfz__result r;

	ck_assert_int_eq(dfz__crash_install(1), 0);
	for (int i = 0; i < 12; i++) {
		dfz__dropin_run(&burn, NULL, 0, &r);
		ck_assert_msg(r.finding.cls == DFZ_CLASS_NONE, "run %d: %s", i,
			      r.finding.msg);
	}
	dfz__dropin_run(&spin, NULL, 0, &r);
	dfz__crash_uninstall();
	assert_at(&r, DFZ_CLASS_DMA_HANG);
}
END_TEST

/* ---------------------------------------------------------- bad pointers */

static const void *bad_ptr;
static const char *bad_why;

static void body_usable(void *arg)
{
	(void)arg;
	dfz__dropin_usable(dfz__dropin_get(), bad_ptr, 16, "the test's pointer");
}

static int writable_static[4];

/* Each pointer, whether it is usable, and the reason when not. */
START_TEST(test_usable)
{
	static const char literal[] = "a constant of the program";
	/* Below the L1 window: nothing maps there (the kernel's mmap and
	 * ASan's allocator take high addresses), asserted below. */
	uint8_t *gone = (uint8_t *)(uintptr_t)(DFZ_DROPIN_L1_BASE - (1u << 24));
	unsigned char vec;
	int local[4];
	void *heap = malloc(16);
	void *l2 = NULL;
	const struct { const void *p; const char *why; } cases[] = {
		{ NULL, "is NULL" },
		{ (void *)0x100, "points into the zero page" },
		{ gone, "is not mapped" },
		{ (void *)(uintptr_t)0xdfdfdfdfdfdfdfdfull, "is not mapped" },
		{ literal, "read-only image" },
		{ local, NULL },
		{ heap, NULL },
		{ writable_static, NULL },
		{ (void *)(uintptr_t)DFZ_DROPIN_L2_BASE, NULL },
	};

	(void)l2;
	ck_assert_msg(mincore(gone, 4096, &vec) < 0, "%p is mapped", gone);
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct dfz__result r;

		bad_ptr = cases[i].p;
		bad_why = cases[i].why;
		r = run_with(body_usable, "");
		if (!bad_why) {
			ck_assert_msg(r.finding.cls == DFZ_CLASS_NONE,
				      "case %u: %s", i, r.finding.msg);
			continue;
		}
		ck_assert_msg(r.finding.cls == DFZ_CLASS_DMA_BAD_ADDRESS &&
			      strstr(r.finding.msg, bad_why), "case %u: %s", i,
			      r.finding.msg);
	}
	free(heap);
}
END_TEST

/* A page found mapped in one run and unmapped before the next: the next
 * run looks again (the cache is per run). */
START_TEST(test_usable_next_run)
{
	uint8_t *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct dfz__result r;

	ck_assert_ptr_ne(p, MAP_FAILED);
	bad_ptr = p;
	r = run_with(body_usable, "");
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
	munmap(p, 4096);
	r = run_with(body_usable, "");
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_DMA_BAD_ADDRESS);
}
END_TEST

/* A NULL DMA_copy handed to DORY's library: a finding at the call, with
 * or without the crash guard (a fuzz execution has none). */
static void body_dory_null(void *arg)
{
	DMA_copy *none = arg;

	MARK(); dory_dma_memcpy_1d_async(none);
}

START_TEST(test_dory_null)
{
	struct dfz_dropin_test t = { body_dory_null, NULL, __FILE__ };
	struct dfz__result r;

	if (_i) {
		r = guarded(body_dory_null, 0);
	} else {
		dfz__dropin_run(&t, NULL, 0, &r);
	}
	assert_at(&r, DFZ_CLASS_DMA_BAD_ADDRESS);
	ck_assert_msg(strstr(r.finding.msg, "the DMA_copy of "
			     "dory_dma_memcpy_1d_async is NULL"), "%s",
		      r.finding.msg);
}
END_TEST

Suite *suite_dropin_crash(void)
{
	Suite *s = suite_create("dropin_crash");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_signal_is_crash,
			    asan_signals ? 3 : getenv("DFZ_MEMCHECK") ? 1 : 0,
			    sizeof(signal_body) / sizeof(signal_body[0]));
	/* Under valgrind (tools/memcheck.sh sets DFZ_MEMCHECK) an invalid
	 * access is a memcheck error of its own, and the registers at a
	 * fault are not all exact: the bodies that fault on purpose stay
	 * native. */
	if (!getenv("DFZ_MEMCHECK") && !asan_signals) {
		tcase_add_test(tc, test_crash_is_deterministic);
		tcase_add_test(tc, test_clean_after_crash);
		tcase_add_test(tc, test_crash_in_fork);
		tcase_add_test(tc, test_inflight_value);
	}
	tcase_add_loop_test(tc, test_timeout, 0, 2);
	tcase_add_test(tc, test_timeout_per_run);
	tcase_add_test(tc, test_usable);
	tcase_add_test(tc, test_usable_next_run);
	tcase_add_loop_test(tc, test_dory_null, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}
