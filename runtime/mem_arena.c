// SPDX-License-Identifier: MIT
/*
 * The storage of the memory model's arenas (DESIGN 3.1; allocation and
 * access are in mem.c): the fill and canary patterns, each level's arena
 * reserved once at its cap, the device memory's too (DESIGN 3.8), and the
 * per-run reset.
 *
 * Set-up costs what a run touches. An arena is address space without
 * pages (PROT_NONE) until a page of it is first used: by an allocation,
 * dfz_mem_ptr(), an L3 access, an engine's copy, the footprint of an
 * issued transfer or a compute read (dfz__mem_ready()). The page is then
 * made accessible and given the fill pattern, from a template that is
 * itself built a page at a time, so every read sees the same bytes as if
 * the whole arena had been filled at creation. A page once materialized
 * stays so; a reset refills only the materialized pages below the arena's
 * high-water mark. Arenas at fixed addresses (the drop-in's L2 and L1,
 * where the user's own code holds pointers) are materialized whole when
 * they are created.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE, MAP_FIXED_NOREPLACE */
#include <errno.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "runtime_int.h"
#include "vg.h"

static const uint32_t caps[DFZ__NARENAS] = {
	[DFZ_L3] = DFZ_CAP_L3,
	[DFZ_L2] = DFZ_CAP_L2,
	[DFZ_L1] = DFZ_CAP_L1,
	[DFZ_DEV_LEVEL] = DFZ_CAP_DEV,
};

/* ---------------------------------------------------------------- patterns */

/* A cheap integer hash: neighbouring offsets get unrelated bytes, so a byte
 * copied to the wrong place (or level) is visible. */
static uint32_t mix(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	x *= 0x846ca68bu;
	x ^= x >> 16;
	return x;
}

uint8_t dfz_mem_fill_byte(enum dfz_level level, uint32_t off)
{
	return (uint8_t)mix(off ^ ((uint32_t)level + 1u) * 0x9e3779b9u);
}

/* Distinct from the fill byte at every offset, so a canary overwritten with
 * fresh-looking bytes is still caught. */
uint8_t dfz_mem_canary_byte(enum dfz_level level, uint32_t off)
{
	uint8_t c = (uint8_t)(mix(off + ((uint32_t)level + 1u) * 0x85ebca6bu) >> 8);

	return c == dfz_mem_fill_byte(level, off) ? (uint8_t)~c : c;
}

uint8_t dfz_mem_freed_byte(enum dfz_level level, uint32_t off)
{
	uint8_t f = (uint8_t)(mix(off * 0x2545f491u + (uint32_t)level) >> 16);

	while (f == dfz_mem_fill_byte(level, off) ||
	       f == dfz_mem_canary_byte(level, off))
		f = (uint8_t)(f * 5u + 1u);
	return f;
}

/* --------------------------------------------------------------- templates */

/*
 * struct dfz__fill - the fill pattern of a level over [0, cap), built a
 * TPAGE at a time as arenas need it. The templates of the default caps
 * depend only on (level, offset): they are made once per process and
 * shared by every runtime (a test suite or a replay creates many), on any
 * thread: a page is claimed, built, then published. Never freed: a
 * process-lifetime table, reachable to the end. An arena larger than its
 * default cap has a template of its own.
 */
#define TPAGE 4096u

enum { TPAGE_EMPTY, TPAGE_BUILDING, TPAGE_BUILT };

struct dfz__fill {
	unsigned level;
	bool freed;                     /* dfz_mem_freed_byte(), not the fill */
	uint32_t cap;
	uint8_t *bytes;                 /* cap bytes of address space */
	_Atomic unsigned char *state;   /* a TPAGE_* a page */
};

static _Atomic(struct dfz__fill *) templates[DFZ__NARENAS];
/* The freed pattern's (cfg.sanitize), the same way. */
static _Atomic(struct dfz__fill *) freed_templates[DFZ_NLEVELS];

static void fill_free(struct dfz__fill *f)
{
	if (!f)
		return;
	if (f->bytes)
		munmap(f->bytes, f->cap);
	free((void *)f->state);
	free(f);
}

static struct dfz__fill *fill_create(unsigned l, uint32_t cap)
{
	struct dfz__fill *f = calloc(1, sizeof(*f));
	void *p;

	if (!f)
		return NULL;
	f->level = l;
	f->cap = cap;
	f->state = calloc(cap / TPAGE + 1, sizeof(*f->state));
	p = mmap(NULL, cap, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	f->bytes = p == MAP_FAILED ? NULL : p;
	if (!f->state || !f->bytes) {
		fill_free(f);
		return NULL;
	}
	return f;
}

static struct dfz__fill *shared_template(_Atomic(struct dfz__fill *) *at,
					 unsigned l, bool freed)
{
	struct dfz__fill *t = atomic_load(at), *none = NULL;

	if (t)
		return t;
	t = fill_create(l, caps[l]);
	if (t)
		t->freed = freed;
	if (t && !atomic_compare_exchange_strong(at, &none, t)) {
		fill_free(t);
		t = none;
	}
	return t;
}

static struct dfz__fill *template_of(unsigned l)
{
	return shared_template(&templates[l], l, false);
}

static void build_page(struct dfz__fill *f, uint32_t page)
{
	uint32_t off = page * TPAGE;
	uint32_t end = f->cap - off < TPAGE ? f->cap : off + TPAGE;
	uint32_t key = (f->level + 1u) * 0x9e3779b9u;

	if (f->freed) {
		for (; off < end; off++)
			f->bytes[off] =
				dfz_mem_freed_byte((enum dfz_level)f->level, off);
		return;
	}
	for (; off < end; off++)
		f->bytes[off] = (uint8_t)mix(off ^ key);
}

/* The template of @f, with [lo, hi) built (by this thread or another). */
static const uint8_t *fill_range(struct dfz__fill *f, uint32_t lo, uint32_t hi)
{
	for (uint32_t p = lo / TPAGE; hi > lo && p <= (hi - 1) / TPAGE; p++) {
		unsigned char s = TPAGE_EMPTY;

		if (atomic_load_explicit(&f->state[p], memory_order_acquire) ==
		    TPAGE_BUILT)
			continue;
		if (atomic_compare_exchange_strong(&f->state[p], &s,
						   TPAGE_BUILDING)) {
			build_page(f, p);
			atomic_store_explicit(&f->state[p], TPAGE_BUILT,
					      memory_order_release);
			continue;
		}
		while (atomic_load(&f->state[p]) != TPAGE_BUILT)
			sched_yield();
	}
	return f->bytes;
}

/* -------------------------------------------------------- arena lifecycle */

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000 /* Linux 4.17; older headers lack it */
#endif

#define PAGE 4096u

static uint32_t page_up(uint32_t n)
{
	return (n + PAGE - 1) & ~(PAGE - 1);
}

/* log2 of the unit of materialization: the system's page, 4 KiB or more. */
static uint8_t page_shift(void)
{
	long sz = sysconf(_SC_PAGESIZE);
	uint8_t s = 12;

	while (s < 30 && (1L << s) < sz)
		s++;
	return s;
}

/* @cap bytes at exactly @at, never over an existing mapping, but for the
 * first @statics (mapped by the program's loader already). A kernel that
 * ignores the flag (before 4.17) maps elsewhere: undone, and EEXIST. */
static uint8_t *map_at(uintptr_t at, uint32_t cap, uint32_t statics)
{
	void *p;

	if (statics >= cap)
		return (uint8_t *)at;
	p = mmap((void *)(at + statics), cap - statics, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	if ((uintptr_t)p != at + statics) {
		munmap(p, cap - statics);
		errno = EEXIST;
		return NULL;
	}
	return (uint8_t *)at;
}

/* @cap bytes of address space anywhere, no page of it accessible yet. */
static uint8_t *reserve(uint32_t cap)
{
	void *p = mmap(NULL, cap, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static uint32_t npages(const struct dfz_arena *a)
{
	uint64_t page = 1ull << a->shift;

	return (uint32_t)((a->cap + page - 1) >> a->shift);
}

static bool is_ready(const struct dfz_arena *a, uint32_t page)
{
	return a->ready[page / 64] >> (page % 64) & 1;
}

/* Are pages [first, last] all materialized? A word at a time. */
static bool all_ready(const struct dfz_arena *a, uint32_t first, uint32_t last)
{
	for (uint32_t w = first / 64; w <= last / 64; w++) {
		uint64_t want = ~0ull;

		if (w == first / 64)
			want &= ~0ull << (first % 64);
		if (w == last / 64)
			want &= ~0ull >> (63 - last % 64);
		if ((a->ready[w] & want) != want)
			return false;
	}
	return true;
}

/* A fixed placement: the loader's statics, then the fill up to the
 * stacks (theirs is whatever runs on them), all at once; each stack's
 * guard page made inaccessible. */
static int fill_whole(struct dfz_arena *a)
{
	uint32_t n = npages(a), guard = 1u << a->shift;

	memcpy(a->base + a->statics,
	       fill_range(a->fill, a->statics, a->stacks) + a->statics,
	       a->stacks - a->statics);
	for (uint32_t p = 0; p < n; p++)
		a->ready[p / 64] |= 1ull << (p % 64);
	a->ready_to = a->cap;
	for (uint32_t i = 0; i < a->nstacks; i++)
		if (mprotect(a->base + a->stacks + i * a->slot, guard,
			     PROT_NONE) != 0)
			return DFZ_ENOMEM;
	return 0;
}

/* The stacks of fixed level @l after its heap of @heap bytes: the slots'
 * size into @a, the arena's whole extent returned (0: above 4 GiB). */
static uint64_t place_stacks(struct dfz_arena *a, unsigned l,
			     const struct dfz_rt_layout *lay, uint32_t heap)
{
	uint64_t page = 1ull << a->shift;
	uint64_t at = (heap + page - 1) & ~(page - 1), end;

	a->nstacks = lay->nstacks[l];
	a->slot = (uint32_t)page + (uint32_t)((lay->stack[l] + page - 1) &
					      ~(page - 1));
	end = a->nstacks ? at + (uint64_t)a->nstacks * a->slot : heap;
	a->stacks = a->nstacks ? (uint32_t)at : heap;
	return end > UINT32_MAX ? 0 : end;
}

/* Storage and fill of arena @l: placed and sized by @lay, or the default. */
static int arena_init(struct dfz_arena *a, unsigned l,
		      const struct dfz_rt_layout *lay)
{
	uintptr_t at = lay && l < DFZ_NLEVELS ? lay->base[l] : 0;
	uint32_t heap = lay && l < DFZ_NLEVELS && lay->cap[l] ? lay->cap[l] :
								  caps[l];
	uint64_t end = heap;

	a->shift = page_shift();
	a->nstacks = 0;
	a->stacks = heap;
	if (at && (end = place_stacks(a, l, lay, heap)) == 0)
		return DFZ_EINVAL;
	a->cap = (uint32_t)end;
	a->statics = at ? page_up(lay->statics[l]) : 0;
	if (a->statics > a->stacks)
		a->statics = a->stacks;
	a->mapped = at != 0;
	a->base = at ? map_at(at, a->cap, a->statics) : reserve(a->cap);
	if (!a->base)
		return at ? DFZ_EFAULT : DFZ_ENOMEM;
	a->own_fill = a->stacks > caps[l];
	a->fill = a->own_fill ? fill_create(l, a->stacks) : template_of(l);
	a->ready = calloc(npages(a) / 64 + 1, sizeof(*a->ready));
	if (!a->fill || !a->ready)
		return DFZ_ENOMEM;
	a->ready_to = 0;
	if (a->mapped && fill_whole(a) < 0)
		return DFZ_ENOMEM;
	a->high = 0;
	a->size = a->cap;
	a->nblocks = 0;
	return 0;
}

int dfz__mem_init(struct dfz_rt *rt, const struct dfz_rt_layout *lay)
{
	for (unsigned l = 0; l < DFZ__NARENAS; l++) {
		int rc = arena_init(&rt->arena[l], l, lay);

		if (rc < 0) {
			int err = errno;

			dfz__mem_fini(rt);
			errno = err;
			return rc;
		}
	}
	return 0;
}

void dfz__mem_fini(struct dfz_rt *rt)
{
	for (unsigned l = 0; l < DFZ__NARENAS; l++) {
		struct dfz_arena *a = &rt->arena[l];

		if (a->base && a->statics < a->cap)
			munmap(a->base + a->statics, a->cap - a->statics);
		if (a->own_fill)
			fill_free(a->fill);
		free(a->ready);
		free(a->obj);
		a->obj = NULL;
		a->nobj = 0;
		a->base = NULL;
		a->fill = NULL;
		a->ready = NULL;
		a->mapped = false;
		a->own_fill = false;
	}
}

/* ------------------------------------------------------- materialization */

/* Pages [first, end) of arena @l, none materialized yet: accessible, with
 * the fill pattern, and free storage in memcheck's view. */
static int materialize(struct dfz_rt *rt, unsigned l, uint32_t first,
		       uint32_t end)
{
	struct dfz_arena *a = &rt->arena[l];
	uint32_t lo = first << a->shift;
	uint64_t hi = (uint64_t)end << a->shift;

	if (hi > a->cap)
		hi = a->cap;
	if (mprotect(a->base + lo, hi - lo, PROT_READ | PROT_WRITE) != 0)
		return DFZ_ENOMEM;
	memcpy(a->base + lo, fill_range(a->fill, lo, (uint32_t)hi) + lo,
	       hi - lo);
	dfz__vg_fresh(rt, a->base + lo, hi - lo);
	for (uint32_t p = first; p < end; p++)
		a->ready[p / 64] |= 1ull << (p % 64);
	for (end = a->ready_to >> a->shift; end < npages(a) && is_ready(a, end);)
		end++;
	hi = (uint64_t)end << a->shift;
	a->ready_to = hi < a->cap ? (uint32_t)hi : a->cap;
	return 0;
}

/* [off, off + len) of arena @l, which ends above its ready prefix. */
static __attribute__((noinline)) int ready_slow(struct dfz_rt *rt, unsigned l,
						uint64_t off, uint64_t len)
{
	const struct dfz_arena *a = &rt->arena[l];
	uint32_t page, last;

	if (off >= a->cap)
		return 0;
	if (len > a->cap - off)
		len = a->cap - off;
	page = (uint32_t)(off >> a->shift);
	last = (uint32_t)((off + len - 1) >> a->shift);
	while (page <= last) {
		uint32_t end = page + 1;
		int rc;

		if (is_ready(a, page)) {
			page++;
			continue;
		}
		while (end <= last && !is_ready(a, end))
			end++;
		rc = materialize(rt, l, page, end);
		if (rc < 0)
			return rc;
		page = end;
	}
	return 0;
}

/* The hot path (every engine copy, pointer, issue): one comparison with
 * the ready prefix, the rest out of line. */
int dfz__mem_ready(struct dfz_rt *rt, unsigned level, uint64_t off,
		   uint64_t len)
{
	if (level >= DFZ__NARENAS || len == 0 ||
	    off + len <= rt->arena[level].ready_to)
		return 0;
	return ready_slow(rt, level, off, len);
}

/* [@p, @p + @n), when @p lies in an arena. */
static void ready_ptr(struct dfz_rt *rt, const void *p, size_t n)
{
	for (unsigned l = 0; l < DFZ__NARENAS; l++) {
		const struct dfz_arena *a = &rt->arena[l];
		uintptr_t off = (uintptr_t)p - (uintptr_t)a->base;

		if (off >= a->cap)
			continue;
		if (n && off + n > a->ready_to)
			ready_slow(rt, l, off, n);
		return;
	}
}

void dfz__mem_ready_copy(struct dfz_rt *rt, const void *dst, size_t dst_n,
			 const void *src, size_t src_n)
{
	ready_ptr(rt, dst, dst_n);
	ready_ptr(rt, src, src_n);
}

/* Materializing the page of @off changes no state a caller can see: the
 * bytes are the ones the arena holds by definition (rt is never a const
 * object: dfz_rt_create() allocates it). Here, not in mem.c, so that the
 * test of the ready prefix stays out of fuzzer coverage (Makefile). */
uint8_t *dfz_mem_ptr(const struct dfz_rt *rt, enum dfz_level level,
		     uint32_t off)
{
	const struct dfz_arena *a;

	if ((unsigned)level >= DFZ_NLEVELS)
		return NULL;
	a = &rt->arena[level];
	if (off >= a->size)
		return NULL;
	if (off >= a->ready_to &&
	    ready_slow((struct dfz_rt *)rt, level, off, 1) < 0)
		return NULL;
	return a->base + off;
}

uint8_t *dfz_mem_stack(const struct dfz_rt *rt, enum dfz_level level,
		       unsigned i, size_t *bytes)
{
	const struct dfz_arena *a;

	if (!rt || (unsigned)level >= DFZ_NLEVELS)
		return NULL;
	a = &rt->arena[level];
	if (i >= a->nstacks)
		return NULL;
	if (bytes)
		*bytes = a->slot - (1u << a->shift);
	return a->base + a->stacks + (size_t)i * a->slot + (1u << a->shift);
}

/* Are the pages of [off, off + len) of arena @a (clipped to its cap) all
 * materialized? */
static bool span_ready(const struct dfz_arena *a, uint64_t off, uint64_t len)
{
	if (len == 0 || off >= a->cap)
		return true;
	if (len > a->cap - off)
		len = a->cap - off;
	return all_ready(a, (uint32_t)(off >> a->shift),
			 (uint32_t)((off + len - 1) >> a->shift));
}

/* One side of transfer @d at @off with @stride: its lines, or the one
 * range that holds them when they touch or overlap. Nothing to do, the
 * common case, when every page of the whole extent is there. */
static void ready_side(struct dfz_rt *rt, unsigned level, uint32_t off,
		       uint32_t stride, const struct dfz_desc *d)
{
	uint64_t at = off, lines, extent;

	if (level >= DFZ__NARENAS)
		return;
	if (!d->is_2d || d->length == 0 || d->length >= d->size ||
	    stride <= d->length) {
		dfz__mem_ready(rt, level, off, d->size);
		return;
	}
	lines = dfz__ceil_div(d->size, d->length);
	extent = (lines - 1) * stride + d->length;
	if (off + extent <= rt->arena[level].ready_to ||
	    span_ready(&rt->arena[level], off, extent))
		return;
	for (uint64_t done = 0; done < d->size && at < UINT32_MAX;
	     done += d->length, at += stride)
		dfz__mem_ready(rt, level, at, d->size - done < d->length ?
					  d->size - done : d->length);
}

void dfz__mem_ready_event(struct dfz_rt *rt, const struct dfz_event *ev)
{
	const struct dfz_desc *d = &ev->desc;

	if (ev->kind == DFZ_EV_ISSUE) {
		ready_side(rt, d->ext_level, d->ext_off, d->ext_stride, d);
		ready_side(rt, d->loc_level, d->loc_off, d->loc_stride, d);
	} else if (ev->kind == DFZ_EV_COMPUTE_READ) {
		dfz__mem_ready(rt, ev->src.level, ev->src.off, ev->src.len);
	}
}

/* The materialized pages of [statics, high) back to the fill pattern, a
 * run of consecutive pages at a time. */
static void refill(struct dfz_rt *rt, struct dfz_arena *a)
{
	uint32_t last;

	if (a->high > a->stacks)
		a->high = a->stacks; /* a transfer to a stack: never refilled */
	last = a->high ? (a->high - 1) >> a->shift : 0;

	for (uint32_t page = a->statics >> a->shift;
	     a->high > a->statics && page <= last; page++) {
		uint32_t end = page, lo, hi;

		while (end <= last && is_ready(a, end))
			end++;
		if (end == page)
			continue;
		lo = page << a->shift;
		if (lo < a->statics)
			lo = a->statics;
		hi = (uint64_t)end << a->shift < a->high ? end << a->shift :
							     a->high;
		dfz__vg_copy(rt, a->base + lo,
			     fill_range(a->fill, lo, hi) + lo, hi - lo);
		page = end; /* not materialized, or past the mark */
	}
}

/* The device arena is always usable whole: its budget is accounting.
 * The quarantine empties; ASan's poisoning of the last run was lifted by
 * dfz__poison_reset(), which runs first. */
void dfz__mem_reset(struct dfz_rt *rt)
{
	for (unsigned l = 0; l < DFZ__NARENAS; l++) {
		struct dfz_arena *a = &rt->arena[l];

		dfz__vg_arena_reset(rt, l);
		refill(rt, a);
		a->high = 0;
		a->nblocks = 0;
		a->nquar = 0;
		a->qseq = 0;
		a->qcap = DFZ__QUARANTINE;
		a->size = l < DFZ_NLEVELS ? rt->cfg.mem_size[l] : a->cap;
	}
	rt->san_lifted = false;
}

void dfz__mem_fill(struct dfz_rt *rt, unsigned level, uint32_t off,
		   uint32_t len)
{
	struct dfz_arena *a = &rt->arena[level];
	const uint8_t *t;

	if (len == 0 || off >= a->stacks || len > a->stacks - off)
		return;
	t = fill_range(a->fill, off, off + len) + off;
	if (dfz__asan_on())
		dfz__raw_move(a->base + off, t, len);
	else
		memcpy(a->base + off, t, len);
}

/* Byte by byte where no template reaches (an arena above its default
 * cap), or when the template cannot be made. */
DFZ__NO_ASAN static void freed_slow(uint8_t *base, unsigned level,
				    uint32_t off, uint32_t len)
{
	volatile uint8_t *p = base;

	for (uint32_t k = off; k < off + len; k++)
		p[k] = dfz_mem_freed_byte((enum dfz_level)level, k);
}

void dfz__mem_freed(struct dfz_rt *rt, unsigned level, uint32_t off,
		    uint32_t len)
{
	struct dfz_arena *a = &rt->arena[level];
	struct dfz__fill *f;
	const uint8_t *t;

	if (level >= DFZ_NLEVELS || len == 0 || off >= a->stacks ||
	    len > a->stacks - off)
		return;
	f = shared_template(&freed_templates[level], level, true);
	if (!f || len > caps[level] || off > caps[level] - len) {
		freed_slow(a->base, level, off, len);
		return;
	}
	t = fill_range(f, off, off + len) + off;
	if (dfz__asan_on())
		dfz__raw_move(a->base + off, t, len);
	else
		memcpy(a->base + off, t, len);
}

void dfz__mem_touch(struct dfz_rt *rt, unsigned level, uint32_t off,
		    uint32_t len)
{
	struct dfz_arena *a;
	uint64_t end = (uint64_t)off + len;

	if (level >= DFZ__NARENAS)
		return;
	a = &rt->arena[level];
	if (end > a->cap)
		end = a->cap;
	if (end > a->high)
		a->high = (uint32_t)end;
}
