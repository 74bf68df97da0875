// SPDX-License-Identifier: MIT
/*
 * The memory model (DESIGN 3.1): three levels, L3 addressed by offsets and
 * L2/L1 by pointers, each an arena of which a run uses a configurable
 * prefix, plus the device memory of the host side (DESIGN 3.8), one more
 * arena that a run always uses whole. Allocations are first-fit by
 * address, carry canary redzones on both sides, and are not poisoned when
 * freed (like a stack, storage keeps its bytes until it is handed out
 * again), unless cfg.sanitize is set: then (L3, L2, L1) a fresh block
 * holds the fill pattern, a freed one the freed pattern, and freed blocks
 * wait in a quarantine, reused only when no other room is left (oldest
 * first, each with a DFZ_EV_RECLAIM before a byte of it is rewritten);
 * ASan's view follows (poison.c). The arenas themselves, their fill
 * pattern and their pages,
 * which come into being when first used (and dfz_mem_ptr(), which brings
 * its page), are in mem_arena.c.
 */
#include <string.h>

#include "runtime_int.h"
#include "vg.h"

_Static_assert(DFZ_REDZONE % DFZ__MEM_ALIGN == 0,
	       "user offsets stay aligned after the leading redzone");
_Static_assert(DFZ__MEM_RESERVED % DFZ__MEM_ALIGN == 0,
	       "the first block starts aligned");

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
	if (i == a->nblocks &&
	    cur + need > (a->size < a->stacks ? a->size : a->stacks))
		return DFZ_ENOMEM;
	*start = cur;
	*idx = i;
	return 0;
}

/* Past ASan's checks: the storage may be poisoned (sanitize: a reclaimed
 * block, an in-flight destination). A byte loop, never a memset. */
DFZ__NO_ASAN static void write_canaries(struct dfz_arena *a, unsigned level,
					uint32_t from)
{
	volatile uint8_t *p = a->base;

	for (uint32_t k = from; k < from + DFZ_REDZONE; k++)
		p[k] = dfz_mem_canary_byte((enum dfz_level)level, k);
}

/* ------------------------------------------------------------ quarantine */

static bool sanitized(const struct dfz_rt *rt, unsigned level)
{
	return rt->cfg.sanitize && level < DFZ_NLEVELS;
}

/* Storage of quarantined block @e: its user region and redzones. */
static uint64_t q_lo(const struct dfz__qblock *e)
{
	return (uint64_t)e->off - DFZ_REDZONE;
}

static uint64_t q_hi(const struct dfz__qblock *e)
{
	return (uint64_t)e->off + e->size + DFZ_REDZONE;
}

/* The next quarantined block from index *@q on still held back when those
 * of seq below @thr are let go, or NULL. */
static const struct dfz__qblock *next_held(const struct dfz_arena *a,
					   uint32_t *q, uint64_t thr)
{
	while (*q < a->nquar && a->quar[*q].seq < thr)
		(*q)++;
	return *q < a->nquar ? &a->quar[*q] : NULL;
}

/*
 * First fit by address as find_gap(), with the quarantined blocks of seq
 * @thr or more in the way as well as the live ones. The two tables are
 * sorted and disjoint: one merged walk.
 */
static int find_room(const struct dfz_arena *a, uint64_t need, uint64_t thr,
		     uint64_t *start, uint32_t *idx)
{
	uint64_t cur = a->statics > DFZ__MEM_RESERVED ? a->statics :
						       DFZ__MEM_RESERVED;
	uint32_t i = 0, q = 0;

	for (;;) {
		const struct dfz_block *b = i < a->nblocks ? &a->block[i] : NULL;
		const struct dfz__qblock *e = next_held(a, &q, thr);
		bool live = b && (!e || b->off < e->off);
		uint64_t lo, hi;

		if (!b && !e)
			break;
		lo = live ? (uint64_t)b->off - DFZ_REDZONE : q_lo(e);
		hi = live ? block_end(b) : q_hi(e);
		if (cur + need <= lo)
			break;
		if (live)
			i++;
		else
			q++;
		if (align_up(hi) > cur)
			cur = align_up(hi);
	}
	if (cur + need > (a->size < a->stacks ? a->size : a->stacks))
		return DFZ_ENOMEM;
	*start = cur;
	*idx = i;
	return 0;
}

/* Quarantined block @q of @level leaves: DFZ_EV_RECLAIM, then its storage
 * is free storage (ASan: addressable, but for what else lies there). */
static void release(struct dfz_rt *rt, unsigned level, uint32_t q)
{
	struct dfz_arena *a = &rt->arena[level];
	struct dfz__qblock e = a->quar[q];
	struct dfz_event ev = {
		.kind = DFZ_EV_RECLAIM,
		.step = dfz_rt_now(rt),
		.dst = { .level = (uint8_t)level, .off = e.off, .len = e.size },
	};

	dfz_rt_emit(rt, &ev);
	dfz__vg_reclaim(rt, &a->quar[q]);
	a->nquar--;
	memmove(&a->quar[q], &a->quar[q + 1],
		(a->nquar - q) * sizeof(a->quar[0]));
	dfz__san_repaint(rt, level, q_lo(&e), q_hi(&e));
}

/* Index of the oldest quarantined block of seq below @thr whose storage
 * meets [lo, hi) (@thr 0 and [0, max): the oldest of all), or nquar. */
static uint32_t oldest(const struct dfz_arena *a, uint64_t thr, uint64_t lo,
		       uint64_t hi)
{
	uint32_t best = a->nquar;

	for (uint32_t q = 0; q < a->nquar; q++) {
		const struct dfz__qblock *e = &a->quar[q];

		if ((thr && e->seq >= thr) || q_hi(e) <= lo || q_lo(e) >= hi)
			continue;
		if (best == a->nquar || e->seq < a->quar[best].seq)
			best = q;
	}
	return best;
}

/* The seq of the oldest quarantined block of seq @thr or more, plus one
 * (what to let go next), or 0 when there is none. */
static uint64_t next_thr(const struct dfz_arena *a, uint64_t thr)
{
	uint64_t next = UINT64_MAX;

	for (uint32_t q = 0; q < a->nquar; q++)
		if (a->quar[q].seq >= thr && a->quar[q].seq < next)
			next = a->quar[q].seq;
	return next == UINT64_MAX ? 0 : next + 1;
}

/*
 * Where a block of @need bytes goes: the first fit that keeps clear of
 * the quarantine, else of all but its oldest blocks, one more at a time.
 * Only the blocks let go that the new one overlaps leave the quarantine
 * (oldest first, each with its RECLAIM); the others stay held.
 */
static int place(struct dfz_rt *rt, unsigned level, uint64_t need,
		 uint64_t *start, uint32_t *idx)
{
	struct dfz_arena *a = &rt->arena[level];
	uint64_t thr = 0;
	uint32_t q;

	if (!sanitized(rt, level))
		return find_gap(a, need, start, idx);
	while (find_room(a, need, thr, start, idx) < 0)
		if ((thr = next_thr(a, thr)) == 0)
			return DFZ_ENOMEM;
	if (thr && dfz__mem_ready(rt, level, *start, need) < 0)
		return DFZ_ENOMEM;
	while (thr && (q = oldest(a, thr, *start, *start + need)) < a->nquar)
		release(rt, level, q);
	return 0;
}

/* A fresh block's bytes under cfg.sanitize: the fill pattern, whatever
 * the storage held before. Bytes at or above the arena's high-water mark
 * hold it already (the reset refilled what lies below the mark, nothing
 * wrote above it since), so only the part below the mark is written: a
 * run's first large blocks cost nothing. */
static void open_user(struct dfz_rt *rt, unsigned level,
		      const struct dfz_block *b)
{
	uint32_t high = rt->arena[level].high;

	if (sanitized(rt, level) && b->off < high)
		dfz__mem_fill(rt, level, b->off,
			      high - b->off < b->size ? high - b->off :
							b->size);
}

/* A block of @size bytes of @level (at *@off): touched whole (the next
 * reset refills it) when @whole, else only its leading redzone. */
static int alloc_block(struct dfz_rt *rt, unsigned level, uint32_t size,
		       uint8_t tag, bool whole, uint32_t *off)
{
	struct dfz_arena *a = &rt->arena[level];
	uint64_t start, need = (uint64_t)size + 2 * DFZ_REDZONE;
	struct dfz_block *b;
	uint32_t i;

	if (size == 0)
		return DFZ_EINVAL;
	if (a->nblocks == DFZ_MAX_ALLOCS)
		return DFZ_ENOMEM;
	if (place(rt, level, need, &start, &i) < 0 ||
	    dfz__mem_ready(rt, level, start, need) < 0)
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
	open_user(rt, level, b);
	dfz__vg_alloc(rt, level, b);
	dfz__mem_touch(rt, level, (uint32_t)start,
		       whole ? size + 2 * DFZ_REDZONE : DFZ_REDZONE);
	emit_span(rt, DFZ_EV_ALLOC, level, b);
	if (sanitized(rt, level))
		dfz__san_repaint(rt, level, start, start + need);
	*off = b->off;
	return 0;
}

int dfz__mem_alloc(struct dfz_rt *rt, unsigned level, uint32_t size,
		   uint8_t tag, uint32_t *off)
{
	return alloc_block(rt, level, size, tag, true, off);
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

/* Freed block @b of @level joins the quarantine, poisoned whole; the
 * oldest leave while it holds more than its capacity. */
static void quarantine(struct dfz_rt *rt, unsigned level,
		       const struct dfz_block *b)
{
	struct dfz_arena *a = &rt->arena[level];
	uint32_t q = 0;

	while (q < a->nquar && a->quar[q].off < b->off)
		q++;
	memmove(&a->quar[q + 1], &a->quar[q],
		(a->nquar - q) * sizeof(a->quar[0]));
	a->quar[q] = (struct dfz__qblock){ b->off, b->size, a->qseq++, 0 };
	a->nquar++;
	dfz__vg_quarantine(rt, level, &a->quar[q]);
	dfz__san_poison(rt, level, q_lo(&a->quar[q]), q_hi(&a->quar[q]));
	while (a->nquar > a->qcap || a->nquar > DFZ__QUARANTINE)
		release(rt, level, oldest(a, 0, 0, UINT64_MAX));
}

int dfz__mem_free(struct dfz_rt *rt, unsigned level, uint32_t off)
{
	struct dfz_arena *a = &rt->arena[level];
	int i = find_block(a, off);
	struct dfz_block b;

	if (i < 0)
		return DFZ_EINVAL;
	b = a->block[i];
	/* The FREE's observers (the redzone oracle) read the redzones: the
	 * whole block is poisoned again below. */
	if (sanitized(rt, level))
		dfz__san_unpoison(rt, level, (uint64_t)b.off - DFZ_REDZONE,
				  block_end(&b));
	emit_span(rt, DFZ_EV_FREE, level, &b);
	if (sanitized(rt, level)) {
		/* memcheck: writable for the pattern, whatever is in flight */
		dfz__vg_block_open(rt, level, b.off, b.size);
		dfz__mem_freed(rt, level, b.off, b.size);
	}
	dfz__vg_free(rt, level, &a->block[i]);
	a->nblocks--;
	memmove(&a->block[i], &a->block[i + 1],
		(a->nblocks - (uint32_t)i) * sizeof(a->block[0]));
	if (sanitized(rt, level))
		quarantine(rt, level, &b);
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

/* A block of L2 or L1 for the caller, touched whole or only as used. */
static int local_block(struct dfz_rt *rt, enum dfz_level level, uint32_t size,
		       bool whole, void **ptr)
{
	uint32_t off;
	int rc;

	if (!rt || !ptr || (level != DFZ_L2 && level != DFZ_L1))
		return DFZ_EINVAL;
	rc = alloc_block(rt, level, size, 0, whole, &off);
	if (rc == 0)
		*ptr = rt->arena[level].base + off;
	return rc;
}

int dfz_local_alloc(struct dfz_rt *rt, enum dfz_level level, uint32_t size,
		    void **ptr)
{
	return local_block(rt, level, size, true, ptr);
}

int dfz_local_reserve(struct dfz_rt *rt, enum dfz_level level, uint32_t size,
		      void **ptr)
{
	return local_block(rt, level, size, false, ptr);
}

void dfz_local_use(struct dfz_rt *rt, const void *ptr, uint32_t n)
{
	struct dfz_span s;

	if (rt && n && dfz_mem_locate(rt, ptr, 1, &s))
		dfz__mem_touch(rt, s.level, s.off, n);
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
	if (dfz__mem_ready(rt, DFZ_L3, off, n) < 0)
		return DFZ_ENOMEM;
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
	if (dfz__mem_ready((struct dfz_rt *)rt, DFZ_L3, off, n) < 0)
		return DFZ_ENOMEM;
	if (n)
		memcpy(dst, a->base + off, n);
	return 0;
}

/* Whether [off, off + len), which ends above the heap of @a, lies inside
 * one of its stacks: never on a guard page, never across two. */
static bool in_one_stack(const struct dfz_arena *a, uintptr_t off,
			 uint32_t len)
{
	uintptr_t at;

	if (off < a->stacks || a->slot == 0)
		return false;
	at = (off - a->stacks) % a->slot;
	return at >= (1u << a->shift) && len <= a->slot - at;
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
		if (p - b + (len ? len : 1) > a->stacks &&
		    !in_one_stack(a, p - b, len ? len : 1))
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

bool dfz__mem_locate_lines(const struct dfz_rt *rt, const void *first,
			   uint64_t stride, uint32_t len, uint64_t n,
			   struct dfz_span *out)
{
	struct dfz_span last;

	if (n == 0 || !dfz_mem_locate(rt, first, len, out))
		return false;
	if (n == 1)
		return true;
	/* The lines rise from the first to the last: when both lie in one
	 * level below its stacks, so does every line between. */
	if (!dfz_mem_locate(rt, (const char *)first + (n - 1) * stride, len,
			    &last))
		return false;
	return last.level == out->level && last.off >= out->off &&
	       (uint64_t)last.off + (len ? len : 1) <=
		       rt->arena[last.level].stacks;
}

uint32_t dfz_mem_size(const struct dfz_rt *rt, enum dfz_level level)
{
	return (unsigned)level < DFZ_NLEVELS ? rt->arena[level].size : 0;
}
