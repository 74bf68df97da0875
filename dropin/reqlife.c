// SPDX-License-Identifier: MIT
/*
 * Request lifetime (issue 24 item 5): a request or command struct the
 * engine still holds when its storage dies is mem.use-after-free at the
 * line that issued it, naming the frame or the block, before the engine
 * touches the dead struct (an ASan report inside the engine, or silent
 * corruption, otherwise).
 *
 * Held: a pi_cl_ram_req_t from its ISSUE (ev->handle) until the WAITED on
 * it (the driver's queue node, read by the wait until it returns); a
 * pi_cl_dma_cmd_t or pi_cl_dma_copy_t from its call until its wait (it
 * carries the TID its wait reads; an emulated command is the FIFO's
 * node). A few records, scanned at every SDK entry: no per-byte work.
 *
 * Dead: a frame of the running context's stack (chip memory: L1 for a
 * core of a fork, L2 for the fabric controller) below the caller of the
 * SDK entry (the stack grows down; that bound is the entry function's
 * canonical frame address, from the unwinder once per call site, then
 * cached); any core's stack once its fork is over; an L1/L2 block at its
 * free; under ASan (weak references, so a plain library linked into an
 * ASan program checks too), host memory that ASan poisoned (a freed heap
 * block, a fake stack frame that returned).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unwind.h>

#include "crash.h"
#include "dropin_int.h"
#include "reqlife.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define REQLIFE_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(REQLIFE_ASAN)
#define NO_ASAN __attribute__((no_sanitize_address))
#else
#define NO_ASAN
#endif

#define MAX_HELD 64
#define MAX_SITES 256  /* entry call sites whose frame size is cached */
#define MAX_ISSUERS 64 /* issuing call sites whose frame is cached */
#define CONTEXTS (DFZ__DROPIN_MAX_CORES + 1)  /* the cores, the FC */

/* ASan's interface, when the program runs under it. */
extern int __asan_address_is_poisoned(void const volatile *addr)
	__attribute__((weak));
extern void __asan_unpoison_memory_region(void const volatile *addr,
					  size_t size) __attribute__((weak));
extern const char *__asan_locate_address(void *addr, char *name,
					 size_t name_size, void **region,
					 size_t *region_size)
	__attribute__((weak));

struct held {
	const void *p;
	uint32_t size;
	uint8_t kind;           /* enum dfz__req_kind */
	int8_t level;           /* chip level holding it, -1: host memory */
	int16_t stack;          /* stack index in @level, -1: none */
	uint32_t off;           /* offset in @level */
	int64_t xfer;           /* the issue its call made (or next made) */
	void *const *slot;      /* the return address of the frame holding
				 * it (chip stacks, x86-64), NULL: unknown */
	const void *ra;         /* the value there while that frame lives */
	struct dfz_site site;   /* the issuing call */
};

/* An entry call site: from dfz__dropin_enter's frame address to the CFA
 * of the entry function that called it (its caller's stack pointer). */
struct site_delta {
	const void *ret;
	uintptr_t delta;
};

/* A call site in user code that issues a request held in its own frame:
 * where that frame's return address lies, from the stack pointer at the
 * call, unwound once. The request's own offset is part of the key: a
 * frame that grows (a VLA) moves it, and is unwound again. */
struct issuer {
	const void *call;       /* the return address into it */
	uint32_t p_off;         /* the request, from its SP */
	uint32_t slot_off;      /* its return address's slot, from its SP */
};

/* The SDK entry each context (a core, the FC) is in: its frame. */
struct entry {
	const void *fp;
	uintptr_t bound;        /* the lowest live frame's address above it */
};

static struct {
	struct held h[MAX_HELD];
	unsigned n;
	struct site_delta site[MAX_SITES];  /* by the return address's hash */
	struct issuer issuer[MAX_ISSUERS];
	unsigned nissuers;
	struct entry entry[CONTEXTS];
} rl;

static unsigned context(struct dfz__dropin *d)
{
	return dfz__cores_in_fork(d->cores) ? dfz__cores_id(d->cores) %
		DFZ__DROPIN_MAX_CORES : DFZ__DROPIN_MAX_CORES;
}

static const char *const what[] = { "request", "command", "copy" };
static const char *const issue_name[] = { "pi_cl_ram_copy", "pi_cl_dma_cmd",
				      "pi_cl_dma_memcpy" };
static const char *const wait_name[] = { "pi_cl_ram_copy_wait",
				      "pi_cl_dma_cmd_wait", "pi_cl_dma_wait" };

void dfz__reqlife_reset(void)
{
	rl.n = 0;
	memset(rl.entry, 0, sizeof(rl.entry));
}

/* ------------------------------------------------------------- records */

static struct held *find(const void *p)
{
	for (unsigned i = 0; i < rl.n; i++)
		if (rl.h[i].p == p)
			return &rl.h[i];
	return NULL;
}

/* Where @h lives: a chip level (and which stack of it), or host memory. */
static void place(struct dfz__dropin *d, struct held *h)
{
	struct dfz_mem_regions reg;
	struct dfz_span sp;
	uint32_t i;

	h->level = -1;
	h->stack = -1;
	if (!dfz_mem_locate(d->rt, h->p, h->size, &sp))
		return;
	h->level = (int8_t)sp.level;
	h->off = sp.off;
	dfz_mem_regions(d->rt, (enum dfz_level)sp.level, &reg);
	if (reg.nstacks == 0 || reg.stack_step == 0 || sp.off < reg.stack0)
		return;
	i = (sp.off - reg.stack0) / reg.stack_step;
	if (i < reg.nstacks &&
	    sp.off - reg.stack0 - i * reg.stack_step < reg.stack_len)
		h->stack = (int16_t)i;
}

/* The frame holding @p: the callback that gets a stack pointer above
 * @p comes right after the frame whose stack pointer is at or below it;
 * that frame's return address lies just below the next one's. */
struct unwind_frame {
	uintptr_t p;
	uintptr_t sp;           /* the last frame's stack pointer */
	void *const *slot;
	const void *ra;
	uintptr_t hold_sp;      /* the stack pointer of the frame holding p */
	unsigned depth;
};

static _Unwind_Reason_Code frame_step(struct _Unwind_Context *ctx, void *arg)
{
	struct unwind_frame *f = arg;
	uintptr_t sp = _Unwind_GetCFA(ctx);

	if (f->sp && f->sp <= f->p && sp > f->p) {
		f->slot = (void *const *)(sp - sizeof(void *));
		f->ra = (const void *)_Unwind_GetIP(ctx);
		f->hold_sp = f->sp;
		return _URC_END_OF_STACK;
	}
	f->sp = sp;
	return ++f->depth > 48 ? _URC_END_OF_STACK : _URC_NO_REASON;
}

/* A read of the running stack that ASan may have poisoned (a redzone of
 * the frame that took the place of a returned one). */
NO_ASAN static const void *peek(void *const *slot)
{
	return *(void *const volatile *)slot;
}

/* The issuer's frame, cached: whether it holds @h (from @b, the stack
 * pointer of the call). */
static bool issuer_frame(struct held *h, uintptr_t b)
{
	const void *call = peek((void *const *)(b - sizeof(void *)));

	for (unsigned i = 0; i < rl.nissuers; i++) {
		const struct issuer *is = &rl.issuer[i];

		if (is->call != call || (uintptr_t)h->p - b != is->p_off)
			continue;
		h->slot = (void *const *)(b + is->slot_off);
		h->ra = peek(h->slot);
		return true;
	}
	return false;
}

static void frame_of(struct dfz__dropin *d, struct held *h)
{
	struct unwind_frame f = { (uintptr_t)h->p, 0, NULL, NULL, 0, 0 };
	const struct entry *e = &rl.entry[context(d)];
	uintptr_t b = e->fp ? e->bound : 0;

#if defined(__x86_64__)
	if (b > (uintptr_t)e->fp && (uintptr_t)h->p >= b &&
	    issuer_frame(h, b))
		return;
	_Unwind_Backtrace(frame_step, &f);
	if (!f.slot || peek(f.slot) != f.ra)
		return;
	h->slot = f.slot;
	h->ra = f.ra;
	if (b > (uintptr_t)e->fp && f.hold_sp == b &&
	    rl.nissuers < MAX_ISSUERS)
		rl.issuer[rl.nissuers++] = (struct issuer){
			peek((void *const *)(b - sizeof(void *))),
			(uint32_t)((uintptr_t)h->p - b),
			(uint32_t)((uintptr_t)f.slot - b) };
#else
	(void)f;
	(void)b;
#endif
}

/* Whether @h lies in the running context's stack. */
static bool on_running_stack(struct dfz__dropin *d, const struct held *h)
{
	bool in_fork = dfz__cores_in_fork(d->cores);

	return h->stack >= 0 && h->level == (in_fork ? DFZ_L1 : DFZ_L2) &&
	       h->stack == (in_fork ? (int)dfz__cores_id(d->cores) : 0);
}

static void hold(struct dfz__dropin *d, const void *p, size_t size,
		 enum dfz__req_kind kind)
{
	struct held *h = find(p);

	if (!h && rl.n == MAX_HELD)
		return; /* untracked: docs/porting/request-lifetime.md */
	if (!h)
		h = &rl.h[rl.n++];
	*h = (struct held){ .p = p, .size = (uint32_t)size,
			    .kind = (uint8_t)kind, .xfer = d->nissue,
			    .site = d->cur };
	place(d, h);
	if (on_running_stack(d, h))
		frame_of(d, h);
}

void dfz__reqlife_hold(struct dfz__dropin *d, const void *p, size_t size,
		       enum dfz__req_kind kind)
{
	if (d && p)
		hold(d, p, size, kind);
}

void dfz__reqlife_release(const void *p)
{
	struct held *h = find(p);

	if (h)
		*h = rl.h[--rl.n];
}

/* ------------------------------------------------------------ findings */

/* The issue's site when the issue @h names is its call's. */
static bool issue_is(const struct dfz__dropin *d, const struct held *h)
{
	const struct dfz_site *s;

	if (h->xfer < 0 || h->xfer >= d->nissue ||
	    h->xfer >= DFZ__DROPIN_SITES)
		return false;
	s = &d->issue_site[h->xfer];
	return s->file == h->site.file && s->line == h->site.line;
}

/* A dead frame or host block: the finding at @h's issuing line, the
 * call being served its earlier call. */
static void report_dead(struct dfz__dropin *d, const struct held *h,
			const char *where)
{
	struct dfz_site here = d->cur;

	d->cur = h->site;
	dfz__dropin_fail_as(d, "reqlife", DFZ_CLASS_MEM_UAF, "%s %p of %s at "
			    "%s:%d lives in %s while the engine holds it "
			    "(expected it to live until %s returned)",
			    what[h->kind], h->p, issue_name[h->kind],
			    h->site.file ? h->site.file : "?", h->site.line,
			    where, wait_name[h->kind]);
	d->cur = here;
	if (!d->fuzzing && d->res.site.file == h->site.file &&
	    d->res.site.line == h->site.line) {
		d->res.site_stack.n = 0;
		if (issue_is(d, h))
			dfz__stack_of(h->xfer, &d->res.site_stack);
		d->res.prior = here;
		dfz__stack_capture(&d->res.prior_stack);
	}
	/* What the engine does with it next is a consequence, not a second
	 * report (under ASan the dead bytes may be a freed block, a fake
	 * frame, or the redzones of the frames that took their place). */
	if (__asan_unpoison_memory_region)
		__asan_unpoison_memory_region(h->p, h->size);
}

static void report_frame(struct dfz__dropin *d, const struct held *h)
{
	char where[96];

	if (h->level == DFZ_L1)
		snprintf(where, sizeof(where), "a stack frame of core %d (L1) "
			 "that returned", h->stack);
	else
		snprintf(where, sizeof(where), "a stack frame of the fabric "
			 "controller (L2) that returned");
	report_dead(d, h, where);
}

/* Under ASan: host memory it poisoned (freed, or a returned frame). */
static bool asan_dead(const struct held *h, char *where, size_t n)
{
	char name[8];
	void *region = NULL;
	size_t rsize = 0;
	const char *kind = NULL;

	if (h->level >= 0 || !__asan_address_is_poisoned ||
	    !__asan_address_is_poisoned(h->p))
		return false;
	if (__asan_locate_address)
		kind = __asan_locate_address((void *)(uintptr_t)h->p, name,
					     sizeof(name), &region, &rsize);
	if (kind && strcmp(kind, "stack") == 0)
		snprintf(where, n, "a stack frame that returned (ASan)");
	else
		snprintf(where, n, "host memory ASan finds freed%s%s%s",
			 kind ? " (" : "", kind ? kind : "", kind ? ")" : "");
	return true;
}

/* The free of @blk (a user region of L1/L2) while it holds @h. */
static void report_free(struct dfz__dropin *d, const struct held *h,
			const struct dfz_span *blk)
{
	if (d->sited)
		return;
	if (issue_is(d, h))
		dfz__sites_prior(d, h->xfer);
	dfz__dropin_fail_as(d, "reqlife", DFZ_CLASS_MEM_UAF, "free of the %u-byte "
			    "%s block at %p, which holds %s %p of %s at %s:%d "
			    "that the engine still holds (expected %s on it "
			    "before the free)", blk->len,
			    dfz_level_name(blk->level),
			    (void *)dfz_mem_ptr(d->rt, (enum dfz_level)blk->level,
						blk->off), what[h->kind], h->p,
			    issue_name[h->kind], h->site.file ? h->site.file : "?",
			    h->site.line, wait_name[h->kind]);
}

static void freed(struct dfz__dropin *d, const struct dfz_span *blk)
{
	for (unsigned i = 0; i < rl.n; i++) {
		const struct held *h = &rl.h[i];

		if (h->level == blk->level && h->off >= blk->off &&
		    h->off - blk->off < blk->len) {
			report_free(d, h, blk);
			return;
		}
	}
}

void dfz__reqlife_event(struct dfz__dropin *d, const struct dfz_event *ev)
{
	switch (ev->kind) {
	case DFZ_EV_ISSUE:
		if (ev->engine == DFZ_ENGINE_RAM && ev->handle)
			hold(d, ev->handle, sizeof(struct dfz_ram_req),
			     DFZ__REQ_RAM);
		break;
	case DFZ_EV_WAITED:
		if (ev->engine == DFZ_ENGINE_RAM && rl.n > 0)
			dfz__reqlife_release(ev->handle);
		break;
	case DFZ_EV_FREE:
		if (rl.n > 0)
			freed(d, &ev->dst);
		break;
	default:
		break;
	}
}

/* ------------------------------------------------------------- frames */

struct unwind_find {
	const void *ret;
	uintptr_t cfa;
	unsigned depth;
	bool found;
};

static _Unwind_Reason_Code unwind_step(struct _Unwind_Context *ctx, void *arg)
{
	struct unwind_find *f = arg;

	/* A context pairs a frame's resume address with the CFA of the
	 * frame it called: the entry function's CFA comes with the frame
	 * after the one that resumes at @ret. */
	if (f->found) {
		f->cfa = _Unwind_GetCFA(ctx);
		return _URC_END_OF_STACK;
	}
	f->found = (const void *)_Unwind_GetIP(ctx) == f->ret;
	return ++f->depth > 8 ? _URC_END_OF_STACK : _URC_NO_REASON;
}

/*
 * The lowest address of the live frames above the SDK entry whose call
 * to dfz__dropin_enter returns to @ret (@fp: that call's frame address):
 * the entry function's CFA, its caller's stack pointer at the call. A
 * call site's distance is fixed (our entry functions have fixed frames),
 * so it is unwound once (an open-addressed table of call sites). When
 * the unwinder cannot tell, @fp itself (a bound below the live frames:
 * nothing live is ever called dead).
 */
static __attribute__((noinline)) uintptr_t
unwound_bound(const void *fp, const void *ret, unsigned i, bool keep)
{
	struct unwind_find f = { ret, 0, 0, false };
	uintptr_t delta = 0;

	_Unwind_Backtrace(unwind_step, &f);
	if (f.cfa > (uintptr_t)fp && f.cfa - (uintptr_t)fp < (64u << 10))
		delta = f.cfa - (uintptr_t)fp;
	if (keep)
		rl.site[i] = (struct site_delta){ ret, delta };
	return (uintptr_t)fp + delta;
}

static uintptr_t live_bound(const void *fp, const void *ret)
{
	unsigned i = (unsigned)((uintptr_t)ret >> 2) % MAX_SITES, k;

	for (k = 0; k < MAX_SITES && rl.site[i].ret; k++) {
		if (rl.site[i].ret == ret)
			return (uintptr_t)fp + rl.site[i].delta;
		i = (i + 1) % MAX_SITES;
	}
	return unwound_bound(fp, ret, i, k < MAX_SITES);
}

/* Whether @h lies in a frame that returned, @bound being the running
 * context's lowest live address. */
static bool frame_dead(struct dfz__dropin *d, const struct held *h,
		       uintptr_t bound)
{
	if (h->stack < 0)
		return false;
	if (h->level == DFZ_L1 && !dfz__cores_in_fork(d->cores))
		return true;  /* every frame of a fork returned with it */
	if (!on_running_stack(d, h))
		return false; /* another core's: judged at its own calls */
	if ((uintptr_t)h->p < bound)
		return true;  /* below the live frames */
	/* Above them, in a frame that another call took the place of. */
	return h->slot && (uintptr_t)h->slot >= bound &&
	       peek(h->slot) != h->ra;
}

/* The requests held at an SDK call whose live frames end at @bound. */
static __attribute__((noinline)) void judge_held(struct dfz__dropin *d,
						 uintptr_t bound)
{
	char where[96];

	for (unsigned i = 0; i < rl.n; i++) {
		const struct held *h = &rl.h[i];

		if (frame_dead(d, h, bound)) {
			report_frame(d, h);
			return;
		}
		if (asan_dead(h, where, sizeof(where))) {
			report_dead(d, h, where);
			return;
		}
	}
}

void dfz__reqlife_enter(struct dfz__dropin *d, const void *fp,
			const void *ret)
{
	uintptr_t bound = live_bound(fp, ret);

	rl.entry[context(d)] = (struct entry){ fp, bound };
	if (rl.n > 0 && !d->sited)
		judge_held(d, bound);
}

void dfz__reqlife_end(struct dfz__dropin *d)
{
	char where[96];

	for (unsigned i = 0; i < rl.n && !d->sited; i++) {
		const struct held *h = &rl.h[i];

		if (h->level == DFZ_L1 && h->stack >= 0)
			report_frame(d, h);
		else if (asan_dead(h, where, sizeof(where)))
			report_dead(d, h, where);
	}
}
