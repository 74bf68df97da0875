// SPDX-License-Identifier: MIT
/*
 * The memory model (DESIGN 3.1): three levels, L3 addressed by offsets and
 * L2/L1 by pointers, each an arena allocated once at its cap of which a run
 * uses a configurable prefix, plus the device memory of the host side
 * (DESIGN 3.8), one more arena that a run always uses whole. Fresh bytes
 * follow a position-dependent fill pattern; allocations are first-fit by
 * address, carry canary redzones on both sides, and are not poisoned when
 * freed (like a stack, storage keeps its bytes until it is handed out
 * again). A reset refills only the part of each arena below its
 * high-water mark.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_FIXED_NOREPLACE */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "runtime_int.h"
#include "vg.h"

_Static_assert(DFZ_REDZONE % DFZ__MEM_ALIGN == 0,
	       "user offsets stay aligned after the leading redzone");
_Static_assert(DFZ__MEM_RESERVED % DFZ__MEM_ALIGN == 0,
	       "the first block starts aligned");

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

/* -------------------------------------------------------- arena lifecycle */

/*
 * The fresh-arena templates depend only on (level, offset): they are built
 * once per process and shared, read-only, by every runtime (a test suite or
 * a replay creates many). A creator that finds no template builds one and
 * publishes it; when two race, the loser frees its copy. Never freed: a
 * process-lifetime table, reachable to the end.
 */
static _Atomic(uint8_t *) templates[DFZ__NARENAS];

static const uint8_t *template_of(unsigned l)
{
	uint8_t *t = atomic_load(&templates[l]), *none = NULL;

	if (t)
		return t;
	t = malloc(caps[l]);
	if (!t)
		return NULL;
	for (uint32_t off = 0; off < caps[l]; off++)
		t[off] = dfz_mem_fill_byte((enum dfz_level)l, off);
	if (!atomic_compare_exchange_strong(&templates[l], &none, t)) {
		free(t);
		t = none;
	}
	return t;
}

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000 /* Linux 4.17; older headers lack it */
#endif

#define PAGE 4096u

static uint32_t page_up(uint32_t n)
{
	return (n + PAGE - 1) & ~(PAGE - 1);
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

/* A fill template of @cap bytes for an arena larger than the shared one. */
static uint8_t *own_template(unsigned l, uint32_t cap)
{
	uint8_t *t = malloc(cap);

	if (t)
		for (uint32_t off = 0; off < cap; off++)
			t[off] = dfz_mem_fill_byte((enum dfz_level)l, off);
	return t;
}

/* Storage and fill of arena @l: placed and sized by @lay, or the default. */
static int arena_init(struct dfz_arena *a, unsigned l,
		      const struct dfz_rt_layout *lay)
{
	uintptr_t at = lay && l < DFZ_NLEVELS ? lay->base[l] : 0;

	a->cap = lay && l < DFZ_NLEVELS && lay->cap[l] ? lay->cap[l] : caps[l];
	a->statics = at ? page_up(lay->statics[l]) : 0;
	if (a->statics > a->cap)
		a->statics = a->cap;
	a->mapped = at != 0;
	a->base = at ? map_at(at, a->cap, a->statics) : malloc(a->cap);
	if (!a->base)
		return at ? DFZ_EFAULT : DFZ_ENOMEM;
	a->own_fill = a->cap > caps[l];
	a->fill = a->own_fill ? own_template(l, a->cap) : template_of(l);
	if (!a->fill)
		return DFZ_ENOMEM;
	memcpy(a->base + a->statics, a->fill + a->statics, a->cap - a->statics);
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

		if (!a->mapped)
			free(a->base);
		else if (a->base && a->statics < a->cap)
			munmap(a->base + a->statics, a->cap - a->statics);
		if (a->own_fill)
			free((void *)a->fill);
		a->base = NULL;
		a->fill = NULL;
		a->mapped = false;
		a->own_fill = false;
	}
}

/* The device arena is always usable whole: its budget is accounting. */
void dfz__mem_reset(struct dfz_rt *rt)
{
	for (unsigned l = 0; l < DFZ__NARENAS; l++) {
		struct dfz_arena *a = &rt->arena[l];

		dfz__vg_arena_reset(rt, l);
		if (a->high > a->statics)
			dfz__vg_move(rt, a->base + a->statics,
				     a->fill + a->statics, a->high - a->statics);
		a->high = 0;
		a->nblocks = 0;
		a->size = l < DFZ_NLEVELS ? rt->cfg.mem_size[l] : a->cap;
	}
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

/* ------------------------------------------------------------- allocation */

static void emit_span(struct dfz_rt *rt, enum dfz_ev_kind kind,
		      unsigned level, const struct dfz_block *b)
{
	struct dfz_event ev = {
		.kind = (uint8_t)kind,
		.step = dfz_rt_now(rt),
		.dst = { .level = (uint8_t)level, .off = b->off, .len = b->size },
		.aux = kind == DFZ_EV_ALLOC ? DFZ_REDZONE : 0,
	};

	dfz_rt_emit(rt, &ev);
}

static uint64_t align_up(uint64_t x)
{
	return (x + DFZ__MEM_ALIGN - 1) & ~(uint64_t)(DFZ__MEM_ALIGN - 1);
}

/* End of block @b's trailing redzone. */
static uint64_t block_end(const struct dfz_block *b)
{
	return (uint64_t)b->off + b->size + DFZ_REDZONE;
}

/*
 * First fit by address: the lowest gap of @need bytes (redzones included).
 * @start: out, where the block begins; @idx: out, its index in the table.
 */
static int find_gap(const struct dfz_arena *a, uint64_t need, uint64_t *start,
		    uint32_t *idx)
{
	uint64_t cur = a->statics > DFZ__MEM_RESERVED ? a->statics :
						       DFZ__MEM_RESERVED;
	uint32_t i;

	for (i = 0; i < a->nblocks; i++) {
		if (cur + need <= (uint64_t)a->block[i].off - DFZ_REDZONE)
			break;
		cur = align_up(block_end(&a->block[i]));
	}
	if (i == a->nblocks && cur + need > a->size)
		return DFZ_ENOMEM;
	*start = cur;
	*idx = i;
	return 0;
}

static void write_canaries(struct dfz_arena *a, unsigned level, uint32_t from)
{
	for (uint32_t k = from; k < from + DFZ_REDZONE; k++)
		a->base[k] = dfz_mem_canary_byte((enum dfz_level)level, k);
}

int dfz__mem_alloc(struct dfz_rt *rt, unsigned level, uint32_t size,
		   uint8_t tag, uint32_t *off)
{
	struct dfz_arena *a = &rt->arena[level];
	struct dfz_block *b;
	uint64_t start;
	uint32_t i;

	if (size == 0)
		return DFZ_EINVAL;
	if (a->nblocks == DFZ_MAX_ALLOCS)
		return DFZ_ENOMEM;
	if (find_gap(a, (uint64_t)size + 2 * DFZ_REDZONE, &start, &i) < 0)
		return DFZ_ENOMEM;
	memmove(&a->block[i + 1], &a->block[i],
		(a->nblocks - i) * sizeof(a->block[0]));
	a->nblocks++;
	b = &a->block[i];
	b->off = (uint32_t)start + DFZ_REDZONE;
	b->size = size;
	b->tag = tag;
	dfz__vg_block_open(rt, level, (uint32_t)start, size + 2 * DFZ_REDZONE);
	write_canaries(a, level, (uint32_t)start);
	write_canaries(a, level, b->off + size);
	dfz__vg_alloc(rt, level, b);
	dfz__mem_touch(rt, level, (uint32_t)start, size + 2 * DFZ_REDZONE);
	emit_span(rt, DFZ_EV_ALLOC, level, b);
	*off = b->off;
	return 0;
}

/* How many blocks start at or before @off (binary search by address). */
static uint32_t blocks_upto(const struct dfz_arena *a, uint32_t off)
{
	uint32_t lo = 0, hi = a->nblocks;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (a->block[mid].off <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Index of the block whose user region starts at @off, or -1. */
static int find_block(const struct dfz_arena *a, uint32_t off)
{
	uint32_t n = blocks_upto(a, off);

	return n > 0 && a->block[n - 1].off == off ? (int)(n - 1) : -1;
}

int dfz__mem_free(struct dfz_rt *rt, unsigned level, uint32_t off)
{
	struct dfz_arena *a = &rt->arena[level];
	int i = find_block(a, off);

	if (i < 0)
		return DFZ_EINVAL;
	emit_span(rt, DFZ_EV_FREE, level, &a->block[i]);
	dfz__vg_free(rt, level, &a->block[i]);
	a->nblocks--;
	memmove(&a->block[i], &a->block[i + 1],
		(a->nblocks - (uint32_t)i) * sizeof(a->block[0]));
	return 0;
}

const struct dfz_block *dfz__mem_block_at(const struct dfz_rt *rt,
					  unsigned level, uint32_t off)
{
	const struct dfz_arena *a = &rt->arena[level];
	uint32_t n = blocks_upto(a, off);

	if (n == 0 || off - a->block[n - 1].off >= a->block[n - 1].size)
		return NULL;
	return &a->block[n - 1];
}

int dfz_l3_alloc(struct dfz_rt *rt, uint32_t size, uint32_t *off)
{
	if (!rt || !off)
		return DFZ_EINVAL;
	return dfz__mem_alloc(rt, DFZ_L3, size, 0, off);
}

int dfz_l3_free(struct dfz_rt *rt, uint32_t off)
{
	if (!rt)
		return DFZ_EINVAL;
	return dfz__mem_free(rt, DFZ_L3, off);
}

int dfz_local_alloc(struct dfz_rt *rt, enum dfz_level level, uint32_t size,
		    void **ptr)
{
	uint32_t off;
	int rc;

	if (!rt || !ptr || (level != DFZ_L2 && level != DFZ_L1))
		return DFZ_EINVAL;
	rc = dfz__mem_alloc(rt, level, size, 0, &off);
	if (rc == 0)
		*ptr = rt->arena[level].base + off;
	return rc;
}

int dfz_local_free(struct dfz_rt *rt, void *ptr)
{
	struct dfz_span s;

	if (!rt || !dfz_mem_locate(rt, ptr, 1, &s))
		return DFZ_EINVAL;
	return dfz__mem_free(rt, s.level, s.off);
}

/* ------------------------------------------------------------------ access */

int dfz_l3_write(struct dfz_rt *rt, uint32_t off, const void *src, uint32_t n)
{
	struct dfz_arena *a;

	if (!rt || (!src && n))
		return DFZ_EINVAL;
	a = &rt->arena[DFZ_L3];
	if ((uint64_t)off + n > a->size)
		return DFZ_EFAULT;
	if (n) {
		memcpy(a->base + off, src, n);
		dfz__mem_touch(rt, DFZ_L3, off, n);
	}
	return 0;
}

int dfz_l3_read(const struct dfz_rt *rt, uint32_t off, void *dst, uint32_t n)
{
	const struct dfz_arena *a;

	if (!rt || (!dst && n))
		return DFZ_EINVAL;
	a = &rt->arena[DFZ_L3];
	if ((uint64_t)off + n > a->size)
		return DFZ_EFAULT;
	if (n)
		memcpy(dst, a->base + off, n);
	return 0;
}

/* Addresses are compared as integers: @ptr may point anywhere. */
bool dfz_mem_locate(const struct dfz_rt *rt, const void *ptr, uint32_t len,
		    struct dfz_span *out)
{
	uintptr_t p = (uintptr_t)ptr;

	for (unsigned l = DFZ_L2; l <= DFZ_L1; l++) {
		const struct dfz_arena *a = &rt->arena[l];
		uintptr_t b = (uintptr_t)a->base;

		if (p < b || p - b >= a->size)
			continue;
		if (len > a->size - (p - b))
			return false;
		if (out) {
			out->level = (uint8_t)l;
			out->off = (uint32_t)(p - b);
			out->len = len;
		}
		return true;
	}
	return false;
}

uint8_t *dfz_mem_ptr(const struct dfz_rt *rt, enum dfz_level level,
		     uint32_t off)
{
	if ((unsigned)level >= DFZ_NLEVELS || off >= rt->arena[level].size)
		return NULL;
	return rt->arena[level].base + off;
}

uint32_t dfz_mem_size(const struct dfz_rt *rt, enum dfz_level level)
{
	return (unsigned)level < DFZ_NLEVELS ? rt->arena[level].size : 0;
}
