// SPDX-License-Identifier: MIT
/*
 * The memory model (DESIGN 3.1): three levels, L3 addressed by offsets and
 * L2/L1 by pointers, each an arena of which a run uses a configurable
 * prefix, plus the device memory of the host side (DESIGN 3.8), one more
 * arena that a run always uses whole. Allocations are first-fit by
 * address, carry canary redzones on both sides, and are not poisoned when
 * freed (like a stack, storage keeps its bytes until it is handed out
 * again). The arenas themselves, their fill pattern and their pages,
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
	if (find_gap(a, (uint64_t)size + 2 * DFZ_REDZONE, &start, &i) < 0 ||
	    dfz__mem_ready(rt, level, start, (uint64_t)size + 2 * DFZ_REDZONE) < 0)
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

uint32_t dfz_mem_size(const struct dfz_rt *rt, enum dfz_level level)
{
	return (unsigned)level < DFZ_NLEVELS ? rt->arena[level].size : 0;
}
