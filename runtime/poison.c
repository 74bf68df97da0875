// SPDX-License-Identifier: MIT
/*
 * In-flight destinations under user code (cfg.poison_inflight, DROPIN 6).
 * From its ISSUE, the CPU-visible destination of a transfer (L2/L1) holds
 * a poison pattern until the engine moves its bytes there, so a read
 * before the wait sees wrong data in every build, whatever the schedule.
 * When the program runs with ASan (built with -fsanitize=address, this
 * library or not) the destination is also poisoned for ASan until both
 * the bytes landed (COMPLETE) and a wait that covers the transfer returned
 * (WAITED), so such a read is an invalid read at the user's line. Valgrind
 * gets the same view from vg.c. The engines' own copies go through
 * dfz__poison_copy(), which ASan does not judge.
 *
 * The allocators' side (cfg.sanitize, mem.c) is here too, as the two
 * compose: in L2 and L1 the bytes ASan holds poisoned are always the
 * redzones of the live blocks, the storage of the quarantined blocks and
 * the in-flight destinations, whichever came or went last.
 */
#include <stdlib.h>
#include <string.h>

#include "runtime_int.h"
#include "dmafuzz/runtime_idma.h"

/*
 * ASan's manual poisoning, found at run time: the user's program links the
 * ASan runtime when it is built with -fsanitize=address, whether or not
 * this library was. Weak references stay NULL otherwise.
 */
void __asan_poison_memory_region(void const volatile *addr, size_t size)
	__attribute__((weak));
void __asan_unpoison_memory_region(void const volatile *addr, size_t size)
	__attribute__((weak));

static bool asan_on(void)
{
	return __asan_poison_memory_region && __asan_unpoison_memory_region;
}

bool dfz__asan_on(void)
{
	return asan_on();
}

/* Destinations tracked at once; more are filled but not poisoned (a
 * missed report, never a false one). */
#define MARKS 512

struct mark {
	uint8_t engine;
	uint8_t level;
	bool waited;          /* a covering wait returned */
	bool landed;          /* the engine completed the transfer */
	uint64_t key;         /* ram: request address; mchan: TID; idma: txid */
	uint64_t seq;         /* issue order */
	uint32_t off;         /* first destination byte */
	uint32_t size;        /* bytes */
	uint32_t length;      /* bytes per line */
	uint32_t stride;      /* line start to next line start */
};

struct dfz__poison {
	uint64_t seq;
	unsigned n;
	struct mark mark[MARKS];
};

/* ---------------------------------------------------------- raw access */

/* Word loops, not instrumented, with a compiler barrier a word so that no
 * loop becomes a call to the memmove or memset that ASan intercepts. */
DFZ__NO_ASAN void dfz__raw_move(void *dst, const void *src, size_t n)
{
	uint8_t *d = dst;
	const uint8_t *s = src;
	uint64_t w;
	size_t i;

	if (d <= s || d >= s + n) {
		for (i = 0; i + 8 <= n; i += 8) {
			__builtin_memcpy(&w, s + i, 8);
			__builtin_memcpy(d + i, &w, 8);
			__asm__ volatile("" ::: "memory");
		}
		for (; i < n; i++) {
			d[i] = s[i];
			__asm__ volatile("" ::: "memory");
		}
		return;
	}
	for (i = n; i >= 8; i -= 8) {
		__builtin_memcpy(&w, s + i - 8, 8);
		__builtin_memcpy(d + i - 8, &w, 8);
		__asm__ volatile("" ::: "memory");
	}
	while (i-- > 0) {
		d[i] = s[i];
		__asm__ volatile("" ::: "memory");
	}
}

DFZ__NO_ASAN void dfz__raw_set(void *dst, uint8_t byte, size_t n)
{
	uint8_t *d = dst;
	uint64_t w = 0x0101010101010101ull * byte;
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		__builtin_memcpy(d + i, &w, 8);
		__asm__ volatile("" ::: "memory");
	}
	for (; i < n; i++) {
		d[i] = byte;
		__asm__ volatile("" ::: "memory");
	}
}

/* Plain memmove while nothing is poisoned (plan runs, any build). */
void dfz__poison_copy(struct dfz_rt *rt, void *dst, const void *src, size_t n)
{
	dfz__poison_copy_lines(rt, dst, 0, src, 0, n, 1);
}

void dfz__poison_copy_lines(struct dfz_rt *rt, uint8_t *dst, size_t dst_pitch,
			    const uint8_t *src, size_t src_pitch, size_t len,
			    uint32_t lines)
{
	bool raw = ((rt->poison && rt->poison->n) || rt->san_painted) &&
		   asan_on();

	for (; lines > 0; lines--, dst += dst_pitch, src += src_pitch) {
		if (raw)
			dfz__raw_move(dst, src, len);
		else
			memmove(dst, src, len);
	}
}

/* ------------------------------------------------------------- marks */

typedef void (*line_fn)(uint8_t *p, uint32_t n);

/* Bytes from the first destination byte of @m to one past its last. */
static uint64_t extent(const struct mark *m)
{
	uint64_t lines;

	if (m->length >= m->size)
		return m->size;
	lines = dfz__ceil_div(m->size, m->length);
	return (lines - 1) * m->stride + (m->size - (lines - 1) * m->length);
}

/* Apply @fn to every line of @m's destination. */
static void each_line(struct dfz_rt *rt, const struct mark *m, line_fn fn)
{
	uint8_t *base = rt->arena[m->level].base;
	uint32_t cap = rt->arena[m->level].cap;

	for (uint64_t at = 0, off = m->off; at < m->size;
	     at += m->length, off += m->stride) {
		uint32_t n = m->size - at < m->length ? (uint32_t)(m->size - at) :
							 m->length;

		if (off >= cap)
			return;
		if (n > cap - off)
			n = (uint32_t)(cap - off);
		dfz__mem_ready(rt, m->level, off, n);
		fn(base + off, n);
	}
}

static void fill_line(uint8_t *p, uint32_t n)
{
	if (asan_on())
		dfz__raw_set(p, DFZ_POISON_BYTE, n);
	else
		memset(p, DFZ_POISON_BYTE, n);
}

static void poison_line(uint8_t *p, uint32_t n)
{
	if (asan_on())
		__asan_poison_memory_region(p, n);
}

static void unpoison_line(uint8_t *p, uint32_t n)
{
	if (asan_on())
		__asan_unpoison_memory_region(p, n);
}

/* ------------------------------------------------------------ sanitize */

static bool painting(const struct dfz_rt *rt, unsigned level)
{
	return rt->cfg.sanitize && !rt->san_lifted &&
	       (level == DFZ_L2 || level == DFZ_L1) && asan_on();
}

/* ASan's shadow has one byte for 8: it can hold the first bytes of a
 * granule addressable and the rest not, never the reverse. */
#define GRANULE 8u

static uint64_t granule_up(uint64_t x)
{
	return (x + GRANULE - 1) & ~(uint64_t)(GRANULE - 1);
}

/* [lo, hi) of @level clipped to the heap, (un)poisoned by @fn. A block's
 * storage starts on a granule and the next one on the granule after its
 * end (mem.c), so a range that ends a block ends on a granule too: the
 * padding there is never handed out. */
static void paint(struct dfz_rt *rt, unsigned level, uint64_t lo, uint64_t hi,
		  void (*fn)(void const volatile *, size_t))
{
	const struct dfz_arena *a = &rt->arena[level];

	if (hi > a->stacks)
		hi = a->stacks;
	if (lo < hi)
		fn(a->base + lo, hi - lo);
}

/* Poison the part of [x, y) inside [lo, hi). */
static void poison_in(struct dfz_rt *rt, unsigned level, uint64_t lo,
		      uint64_t hi, uint64_t x, uint64_t y)
{
	paint(rt, level, x > lo ? x : lo, y < hi ? y : hi,
	      __asan_poison_memory_region);
}

/* The redzones of live blocks and the storage of quarantined blocks of
 * @level, where they meet [lo, hi), poisoned. */
static void san_blocks(struct dfz_rt *rt, unsigned level, uint64_t lo,
		       uint64_t hi)
{
	const struct dfz_arena *a = &rt->arena[level];

	if (!painting(rt, level))
		return;
	for (uint32_t i = 0; i < a->nblocks; i++) {
		uint64_t off = a->block[i].off, end = off + a->block[i].size;

		if (end + DFZ_REDZONE <= lo || off - DFZ_REDZONE >= hi)
			continue;
		poison_in(rt, level, lo, hi, off - DFZ_REDZONE, off);
		poison_in(rt, level, lo, hi, end,
			  granule_up(end + DFZ_REDZONE));
	}
	for (uint32_t q = 0; q < a->nquar; q++) {
		uint64_t off = a->quar[q].off, end = off + a->quar[q].size;

		poison_in(rt, level, lo, hi, off - DFZ_REDZONE,
			  granule_up(end + DFZ_REDZONE));
	}
}

/* The in-flight destinations of @level, where they meet [lo, hi),
 * poisoned. */
static void san_marks(struct dfz_rt *rt, unsigned level, uint64_t lo,
		      uint64_t hi)
{
	const struct dfz__poison *p = rt->poison;

	for (unsigned k = 0; p && k < p->n; k++) {
		const struct mark *m = &p->mark[k];

		if (m->level != level)
			continue;
		for (uint64_t at = 0, off = m->off; at < m->size;
		     at += m->length, off += m->stride) {
			uint64_t n = m->size - at < m->length ? m->size - at :
								 m->length;

			poison_in(rt, level, lo, hi, off, off + n);
		}
	}
}

void dfz__san_poison(struct dfz_rt *rt, unsigned level, uint64_t lo,
		     uint64_t hi)
{
	if (!painting(rt, level))
		return;
	rt->san_painted = true;
	paint(rt, level, lo, granule_up(hi), __asan_poison_memory_region);
}

void dfz__san_unpoison(struct dfz_rt *rt, unsigned level, uint64_t lo,
		       uint64_t hi)
{
	if (painting(rt, level))
		paint(rt, level, lo, hi, __asan_unpoison_memory_region);
}

void dfz__san_repaint(struct dfz_rt *rt, unsigned level, uint64_t lo,
		      uint64_t hi)
{
	if (!painting(rt, level))
		return;
	rt->san_painted = true;
	hi = granule_up(hi);
	paint(rt, level, lo, hi, __asan_unpoison_memory_region);
	san_blocks(rt, level, lo, hi);
	san_marks(rt, level, lo, hi);
}

/* Every poisoning of the allocators lifted (a reset, or the verdict is
 * decided): the heaps of L2 and L1 as far as a run wrote. */
static void san_lift(struct dfz_rt *rt)
{
	if (!rt->san_painted || !asan_on())
		return;
	for (unsigned l = DFZ_L2; l <= DFZ_L1; l++)
		paint(rt, l, rt->arena[l].statics, rt->arena[l].high,
		      __asan_unpoison_memory_region);
	rt->san_painted = false;
}

/* ISSUE: the destination on the CPU's side, line by line. A transfer
 * nobody waits for (an idma dummy) is not marked; without ASan, none is
 * (the marks only say what ASan holds poisoned). */
static void on_issue(struct dfz_rt *rt, struct dfz__poison *p,
		     const struct dfz_event *ev)
{
	const struct dfz_desc *d = &ev->desc;
	struct mark m = {
		.engine = ev->engine,
		.level = d->ext2loc ? d->loc_level : d->ext_level,
		.key = ev->engine == DFZ_ENGINE_RAM ? (uintptr_t)ev->handle :
						      (uint64_t)ev->id,
		.seq = p->seq++,
		.off = d->ext2loc ? d->loc_off : d->ext_off,
		.size = d->size,
		.length = d->is_2d && d->length ? d->length : d->size,
		.stride = d->ext2loc ? d->loc_stride : d->ext_stride,
	};

	if (ev->engine == DFZ_ENGINE_IDMA && ev->aux == DFZ_IDMA_UNOWED)
		return;
	if ((m.level != DFZ_L2 && m.level != DFZ_L1) || m.size == 0)
		return;
	if (!d->is_2d || m.stride <= m.length)
		m.stride = m.length = m.size; /* one range: one line */
	each_line(rt, &m, fill_line);
	dfz__mem_touch(rt, m.level, m.off, (uint32_t)extent(&m));
	if (p->n == MARKS || !asan_on())
		return;                   /* the marks are ASan's view */
	p->mark[p->n++] = m;
	each_line(rt, &m, poison_line);
}

static bool overlaps(const struct mark *a, const struct mark *b)
{
	return a->level == b->level && a->off < b->off + extent(b) &&
	       b->off < a->off + extent(a);
}

/* Mark @i is done: its bytes are the CPU's again, but for those another
 * live mark still covers. */
static void release(struct dfz_rt *rt, struct dfz__poison *p, unsigned i)
{
	struct mark m = p->mark[i];

	p->mark[i] = p->mark[--p->n];
	each_line(rt, &m, unpoison_line);
	for (unsigned k = 0; k < p->n; k++)
		if (overlaps(&p->mark[k], &m))
			each_line(rt, &p->mark[k], poison_line);
	if (rt->san_painted)
		san_blocks(rt, m.level, m.off, m.off + extent(&m));
}

static bool covers(const struct dfz_event *ev, const struct mark *m)
{
	return dfz__wait_covers(ev, m->engine, m->key);
}

static __attribute__((noinline)) void on_waited(struct dfz_rt *rt,
						 struct dfz__poison *p,
						 const struct dfz_event *ev)
{
	if (ev->aux != 0)
		return; /* a hang: nothing was waited */
	for (unsigned i = p->n; i-- > 0;) {
		if (!covers(ev, &p->mark[i]))
			continue;
		p->mark[i].waited = true;
		if (p->mark[i].landed)
			release(rt, p, i);
	}
}

/* COMPLETE: the oldest transfer of that request, TID or txid landed. */
static __attribute__((noinline)) void on_complete(struct dfz_rt *rt,
						   struct dfz__poison *p,
						   const struct dfz_event *ev)
{
	unsigned best = p->n;

	for (unsigned i = 0; i < p->n; i++) {
		const struct mark *m = &p->mark[i];
		uint64_t key = ev->engine == DFZ_ENGINE_RAM ?
				       (uintptr_t)ev->handle : (uint64_t)ev->id;

		if (m->engine != ev->engine || m->key != key || m->landed)
			continue;
		if (best == p->n || m->seq < p->mark[best].seq)
			best = i;
	}
	if (best == p->n)
		return;
	p->mark[best].landed = true;
	if (p->mark[best].waited)
		release(rt, p, best);
}

/* ISSUE, the marks made on first use. */
static __attribute__((noinline)) void issue_event(struct dfz_rt *rt,
						  const struct dfz_event *ev)
{
	if (!rt->poison) {
		rt->poison = calloc(1, sizeof(*rt->poison));
		if (!rt->poison)
			return;
	}
	on_issue(rt, rt->poison, ev);
}

/* At every event: a few compares unless it is an ISSUE, or ends a mark
 * (which only ASan runs make). */
void dfz__poison_event(struct dfz_rt *rt, const struct dfz_event *ev)
{
	struct dfz__poison *p = rt->poison;

	switch (ev->kind) {
	case DFZ_EV_ISSUE:
		issue_event(rt, ev);
		break;
	case DFZ_EV_COMPLETE:
		if (p && p->n)
			on_complete(rt, p, ev);
		break;
	case DFZ_EV_WAITED:
		if (p && p->n)
			on_waited(rt, p, ev);
		break;
	default:
		break;
	}
}

void dfz__poison_reset(struct dfz_rt *rt)
{
	san_lift(rt);
	rt->san_lifted = true; /* until dfz__mem_reset() */
	if (!rt->poison)
		return;
	/* The marks alone: the statics and stacks in the arenas keep the
	 * redzones ASan gave them. */
	for (unsigned i = 0; i < rt->poison->n; i++)
		each_line(rt, &rt->poison->mark[i], unpoison_line);
	rt->poison->n = 0;
	rt->poison->seq = 0;
}

void dfz__poison_destroy(struct dfz_rt *rt)
{
	dfz__poison_reset(rt);
	free(rt->poison);
	rt->poison = NULL;
}
