// SPDX-License-Identifier: MIT
/*
 * The cluster's cores as deterministic cooperative contexts (DROPIN 5):
 * each core of a fork runs on a stack of its own (ctx.h), and control
 * passes between them only at switch points (a DMA call, a barrier, a
 * core's end), the next core chosen by the caller's pick function, which
 * draws from the schedule's bytes. One thread: valgrind and ASan see one
 * program; every switch is announced to ASan (fiber annotations) and
 * every stack to valgrind.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "cores.h"
#include "ctx.h"

#if defined(__SANITIZE_ADDRESS__)
#define CORES_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CORES_ASAN 1
#endif
#endif

#ifdef CORES_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define CORES_VG 1
#endif
#endif
#ifndef CORES_VG
#define VALGRIND_STACK_REGISTER(a, b) ((void)(a), (void)(b), 0u)
#define VALGRIND_STACK_DEREGISTER(id) ((void)(id))
#endif

#define DEFAULT_STACK (256u << 10)
#define GUARD 4096u

enum core_state { C_IDLE, C_READY, C_BARRIER, C_DONE };

struct core {
	struct dfz__ctx ctx;
	uint8_t *stack;               /* usable stack, above its guard page */
	unsigned vg_id;
	uint8_t state;                /* enum core_state */
	void *fake_stack;             /* ASan's, while switched away */
};

struct dfz__cores {
	struct dfz__cores_view v;     /* first: the inline accessors' */
	unsigned max;
	size_t stack_bytes;
	uint8_t *map;                 /* every stack with its guard, when the
				       * stacks are ours (NULL: the memory
				       * model's) */
	struct fc {                   /* the fabric controller */
		uint8_t *stack;       /* NULL: it runs on its caller's */
		size_t bytes;
		unsigned vg_id;
		struct dfz__ctx ctx;  /* parked between calls */
		struct dfz__ctx caller; /* who called dfz__cores_fc() */
		void *fake, *caller_fake;   /* ASan's, while switched away */
		const void *caller_bottom;  /* the caller's stack, as ASan saw it */
		size_t caller_size;
		bool made;            /* ctx holds a parked context */
		bool busy;            /* fn runs (or left by a longjmp) */
		void (*fn)(void *);
		void *arg;
	} fc;
	struct core *core;
	struct dfz__ctx main_ctx;     /* the fork's caller */
	void *main_fake;
	const void *main_bottom;      /* its stack, as ASan saw it */
	size_t main_size;
	bool stuck;                   /* a barrier that cannot complete */
	uint64_t ready;               /* bit i: core i is C_READY */
	unsigned arrived;             /* at the barrier */
	void (*fn)(void *);
	void *arg;
	dfz__cores_pick_fn pick;
	void *pick_ctx;
};

/* ------------------------------------------------------------- switching */

/* From the running context (@from_fake: where ASan keeps its fake stack;
 * NULL when it ends for good) to core @to, or to the fork's caller when
 * @to is -1. */
static void switch_to(struct dfz__cores *c, struct dfz__ctx *from, void **from_fake,
		      int to)
{
	struct dfz__ctx *dst = to < 0 ? &c->main_ctx : &c->core[to].ctx;
#ifdef CORES_ASAN
	const void *bottom = to < 0 ? c->main_bottom : c->core[to].stack;
	size_t size = to < 0 ? c->main_size : c->stack_bytes;

	__sanitizer_start_switch_fiber(from_fake, bottom, size);
#else
	(void)from_fake;
#endif
	if (to >= 0)
		c->v.cur = (unsigned)to;
	dfz__ctx_switch(from, dst);
#ifdef CORES_ASAN
	__sanitizer_finish_switch_fiber(from_fake ? *from_fake : NULL, NULL,
					NULL);
#endif
}

/* Core @i's state, its ready bit with it. */
static void set_state(struct dfz__cores *c, unsigned i, enum core_state st)
{
	c->core[i].state = (uint8_t)st;
	if (st == C_READY)
		c->ready |= (uint64_t)1 << i;
	else
		c->ready &= ~((uint64_t)1 << i);
}

/* The @k-th set bit of @mask (counting from 0; it has more than @k): out
 * of line, as mk/nocov.list names it, so that its loop's edges (which
 * say only how far the pick went) stay out of the fuzzers' coverage. */
__attribute__((noinline)) static int nth_bit(uint64_t mask, unsigned k)
{
	while (k-- > 0)
		mask &= mask - 1;    /* drop the lower ones */
	return __builtin_ctzll(mask);
}

/* The core the pick function chooses among the cores of @mask (ready
 * ones, in id order), or -1 when the mask is empty. */
static int pick_of(struct dfz__cores *c, uint64_t mask)
{
	unsigned n = (unsigned)__builtin_popcountll(mask), k;

	if (n == 0)
		return -1;
	if (!c->pick || n == 1)
		return __builtin_ctzll(mask);
	k = c->pick(c->pick_ctx, n);
	return nth_bit(mask, k < n ? k : n - 1);
}

/* The next core to run, or -1 when none is ready. */
static int next_core(struct dfz__cores *c)
{
	return pick_of(c, c->ready);
}

/* Core @me gives up the processor: to the next ready core (itself, when
 * it is the one picked), or back to the fork when none is ready. */
static void reschedule(struct dfz__cores *c, unsigned me)
{
	int to = next_core(c);

	if (to == (int)me)
		return;
	switch_to(c, &c->core[me].ctx, &c->core[me].fake_stack, to);
}

/* ------------------------------------------------------------------ cores */

static struct dfz__cores *starting;

static void core_main(void)
{
	struct dfz__cores *c = starting;
	unsigned me = c->v.cur;
	int to;

#ifdef CORES_ASAN
	{
		const void *bottom;
		size_t size;

		/* The first core starts from the fork's caller: its stack. */
		__sanitizer_finish_switch_fiber(NULL, &bottom, &size);
		if (me == 0) {
			c->main_bottom = bottom;
			c->main_size = size;
		}
	}
#endif
	c->fn(c->arg);
	set_state(c, me, C_DONE);
	to = next_core(c);
	/* This context ends for good: ASan drops its fake stack, and its
	 * stack's shadow is clean for the no-return path's own frames. */
#ifdef CORES_ASAN
	__asan_unpoison_memory_region(c->core[me].stack, c->stack_bytes);
	__sanitizer_start_switch_fiber(NULL,
		to < 0 ? c->main_bottom : c->core[to].stack,
		to < 0 ? c->main_size : c->stack_bytes);
#endif
	if (to >= 0)
		c->v.cur = (unsigned)to;
	dfz__ctx_jump(to < 0 ? &c->main_ctx : &c->core[to].ctx);
}

/*
 * How far below its stack's end core @i's stack begins. The stacks lie a
 * power of two apart, so equal tops would put every core's hottest frames
 * in the same sets of the host's caches, and each switch would evict the
 * frames of the cores before it: a few cache lines apart, within a page,
 * they do not meet.
 */
static size_t top_gap(unsigned i)
{
	return (size_t)(i * 448u) % 4096u;
}

static int make_core(struct dfz__cores *c, unsigned i, uint64_t fpenv)
{
	struct core *k = &c->core[i];

	if (dfz__ctx_make(&k->ctx, k->stack, c->stack_bytes - top_gap(i),
			  core_main, fpenv) < 0)
		return DFZ_ENOMEM;
	set_state(c, i, C_READY);
	k->fake_stack = NULL;
	return 0;
}

int dfz__cores_create(unsigned max_cores, size_t stack_bytes,
		      struct dfz__cores **out)
{
	struct dfz__cores *c;
	size_t each;

	if (!out || max_cores == 0 || max_cores > 64)
		return DFZ_EINVAL;
	stack_bytes = stack_bytes ? (stack_bytes + GUARD - 1) & ~(size_t)(GUARD - 1) :
				    DEFAULT_STACK;
	each = stack_bytes + GUARD;
	c = calloc(1, sizeof(*c));
	if (!c)
		return DFZ_ENOMEM;
	c->core = calloc(max_cores, sizeof(*c->core));
	c->map = mmap(NULL, each * max_cores, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!c->core || c->map == MAP_FAILED) {
		c->map = c->map == MAP_FAILED ? NULL : c->map;
		dfz__cores_destroy(c);
		return DFZ_ENOMEM;
	}
	c->max = max_cores;
	c->stack_bytes = stack_bytes;
	for (unsigned i = 0; i < max_cores; i++) {
		uint8_t *g = c->map + i * each;

		mprotect(g, GUARD, PROT_NONE);
		c->core[i].stack = g + GUARD;
		c->core[i].vg_id = VALGRIND_STACK_REGISTER(c->core[i].stack,
					c->core[i].stack + stack_bytes);
	}
	*out = c;
	return 0;
}

int dfz__cores_create_on(struct dfz_rt *rt, unsigned max_cores,
			 struct dfz__cores **out)
{
	struct dfz__cores *c;

	if (!rt || !out || max_cores == 0 || max_cores > 64)
		return DFZ_EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c || !(c->core = calloc(max_cores, sizeof(*c->core)))) {
		free(c);
		return DFZ_ENOMEM;
	}
	c->max = max_cores;
	for (unsigned i = 0; i < max_cores; i++) {
		size_t bytes = 0;

		c->core[i].stack = dfz_mem_stack(rt, DFZ_L1, i, &bytes);
		if (!c->core[i].stack || (i && bytes != c->stack_bytes)) {
			c->max = i;
			dfz__cores_destroy(c);
			return DFZ_EINVAL;
		}
		c->stack_bytes = bytes;
		c->core[i].vg_id = VALGRIND_STACK_REGISTER(c->core[i].stack,
						c->core[i].stack + bytes);
	}
	c->fc.stack = dfz_mem_stack(rt, DFZ_L2, 0, &c->fc.bytes);
	if (c->fc.stack)
		c->fc.vg_id = VALGRIND_STACK_REGISTER(c->fc.stack,
						      c->fc.stack + c->fc.bytes);
	*out = c;
	return 0;
}

void dfz__cores_destroy(struct dfz__cores *c)
{
	if (!c || c->v.in_fork || c->fc.busy)
		return;
	for (unsigned i = 0; c->core && i < c->max; i++)
		VALGRIND_STACK_DEREGISTER(c->core[i].vg_id);
	if (c->fc.stack)
		VALGRIND_STACK_DEREGISTER(c->fc.vg_id);
	if (c->map)
		munmap(c->map, (c->stack_bytes + GUARD) * c->max);
	free(c->core);
	free(c);
}

/* After a fork that left cores stuck at a barrier: their stacks are
 * clean again for ASan (their frames will never return). */
static void forget_stuck(struct dfz__cores *c)
{
	for (unsigned i = 0; i < c->v.n; i++) {
		if (c->core[i].state == C_DONE)
			continue;
#ifdef CORES_ASAN
		__asan_unpoison_memory_region(c->core[i].stack, c->stack_bytes);
#endif
		set_state(c, i, C_IDLE);
	}
}

int dfz__cores_fork(struct dfz__cores *c, unsigned n, void (*fn)(void *),
		    void *arg, dfz__cores_pick_fn pick, void *pick_ctx)
{
	uint64_t fpenv;
	int to;

	if (!c || !fn || n == 0 || n > c->max || c->v.in_fork)
		return DFZ_EINVAL;
	c->v.n = n;
	c->fn = fn;
	c->arg = arg;
	c->pick = pick;
	c->pick_ctx = pick_ctx;
	c->arrived = 0;
	c->stuck = false;
	c->ready = 0;
	fpenv = dfz__ctx_fpenv();     /* the forking core's, for them all */
	for (unsigned i = 0; i < n; i++)
		if (make_core(c, i, fpenv) < 0)
			return DFZ_ENOMEM;
	c->v.in_fork = true;
	starting = c;
	to = 0;                      /* core 0 starts first */
	switch_to(c, &c->main_ctx, &c->main_fake, to);
	c->v.in_fork = false;
	for (unsigned i = 0; i < n; i++)
		if (c->core[i].state != C_DONE)
			c->stuck = true;
	if (c->stuck)
		forget_stuck(c);
	c->v.n = 0;
	c->v.cur = 0;
	return c->stuck ? DFZ_EHANG : 0;
}

/* The fabric controller's context was left by a longjmp: it is made anew
 * at the next call, its stack clean again for ASan. */
static void forget_fc(struct dfz__cores *c)
{
	if (!c->fc.busy)
		return;
#ifdef CORES_ASAN
	__asan_unpoison_memory_region(c->fc.stack, c->fc.bytes);
#endif
	c->fc.busy = false;
	c->fc.made = false;
}

void dfz__cores_abandon(struct dfz__cores *c)
{
	if (!c)
		return;
	forget_fc(c);
	if (!c->v.in_fork)
		return;
	for (unsigned i = 0; i < c->v.n; i++)
		set_state(c, i, C_BARRIER);
	forget_stuck(c);
	c->v.in_fork = false;
	c->v.n = 0;
	c->v.cur = 0;
}

/* ------------------------------------------------ the fabric controller */

static struct dfz__cores *fc_starting;

/* The fabric controller's context: one call of fn a turn, parked in
 * between, so that a call costs two switches and nothing more. */
static void fc_main(void)
{
	struct dfz__cores *c = fc_starting;

	for (;;) {
#ifdef CORES_ASAN
		__sanitizer_finish_switch_fiber(c->fc.fake, &c->fc.caller_bottom,
						&c->fc.caller_size);
#endif
		c->fc.fn(c->fc.arg);
		c->fc.busy = false;
#ifdef CORES_ASAN
		__sanitizer_start_switch_fiber(&c->fc.fake, c->fc.caller_bottom,
					       c->fc.caller_size);
#endif
		dfz__ctx_switch(&c->fc.ctx, &c->fc.caller);
	}
}

static int make_fc(struct dfz__cores *c)
{
	if (dfz__ctx_make(&c->fc.ctx, c->fc.stack, c->fc.bytes, fc_main,
			  dfz__ctx_fpenv()) < 0)
		return DFZ_ENOMEM;
	c->fc.fake = NULL;
	c->fc.made = true;
	return 0;
}

/* Whether the running code is on the fabric controller's stack. */
static bool on_fc(const struct dfz__cores *c)
{
	uintptr_t here = (uintptr_t)__builtin_frame_address(0);
	uintptr_t lo = (uintptr_t)c->fc.stack;

	return here >= lo && here - lo < c->fc.bytes;
}

int dfz__cores_fc(struct dfz__cores *c, void (*fn)(void *), void *arg)
{
	if (!c || !fn || c->v.in_fork)
		return DFZ_EINVAL;
	if (!c->fc.stack || on_fc(c)) {
		fn(arg);
		return 0;
	}
	forget_fc(c); /* busy here: a longjmp left it */
	if (!c->fc.made && make_fc(c) < 0)
		return DFZ_ENOMEM;
	c->fc.fn = fn;
	c->fc.arg = arg;
	c->fc.busy = true;
	fc_starting = c;
#ifdef CORES_ASAN
	__sanitizer_start_switch_fiber(&c->fc.caller_fake, c->fc.stack,
				       c->fc.bytes);
#endif
	dfz__ctx_switch(&c->fc.caller, &c->fc.ctx);
#ifdef CORES_ASAN
	__sanitizer_finish_switch_fiber(c->fc.caller_fake, NULL, NULL);
#endif
	return 0;
}

void dfz__cores_yield(struct dfz__cores *c)
{
	if (!c || !c->v.in_fork)
		return;
	reschedule(c, c->v.cur);
}

bool dfz__cores_stall(struct dfz__cores *c)
{
	unsigned me;
	int to;

	if (!c || !c->v.in_fork)
		return false;
	me = c->v.cur;
	to = pick_of(c, c->ready & ~((uint64_t)1 << me));
	if (to < 0)
		return false;
	switch_to(c, &c->core[me].ctx, &c->core[me].fake_stack, to);
	return true;
}

/*
 * The team barrier: the last core to arrive releases the others. A core
 * that waits gives up the processor; when no core is ready, every
 * unfinished one waits at a barrier that some returned core will never
 * reach: control goes back to the fork, which reports the hang.
 */
int dfz__cores_barrier(struct dfz__cores *c)
{
	unsigned me;

	if (!c || !c->v.in_fork)
		return 0;
	me = c->v.cur;
	if (++c->arrived == c->v.n) {
		c->arrived = 0;
		for (unsigned i = 0; i < c->v.n; i++)
			if (c->core[i].state == C_BARRIER)
				set_state(c, i, C_READY);
		reschedule(c, me);
		return 0;
	}
	set_state(c, me, C_BARRIER);
	reschedule(c, me);
	return c->stuck ? DFZ_EHANG : 0;
}
