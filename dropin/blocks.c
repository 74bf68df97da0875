// SPDX-License-Identifier: MIT
/*
 * The blocks of a run, as ASan knows the host's: every DFZ_EV_ALLOC and
 * DFZ_EV_FREE the runtime reports is recorded with the user's line being
 * served (the allocator's or the free's call) and, outside fuzz
 * executions, its call stack, so that a verdict about a block (mem.oob,
 * mem.use-after-free, mem.redzone, mem.leak, an allocator's misuse) names
 * the block and the lines that allocated and freed it.
 *
 * The SDKs' frees trust the caller: pi_l2_free(p, size),
 * pmsis_l1_malloc_free(p, size), cl_ram_free(p, size), pi_ram_free(dev,
 * addr, size) give the size back to the allocator, which believes it, and
 * none of them checks that @p is a block at all. Here each is judged
 * before it is done (dfz__blocks_free()).
 *
 * The records are bounded (DFZ__DROPIN_BLOCKS a run, the first
 * DFZ__DROPIN_BLOCK_STACKS with stacks); when they are full the freed
 * blocks are forgotten, the live ones kept. A block without a record is
 * still judged by the runtime's own list of live blocks, only its lines
 * are unknown.
 */
#include <stdlib.h>
#include <string.h>

#include "crash.h"
#include "dropin_int.h"

struct rec {
	uint8_t level;
	bool user;                   /* handed out by an SDK allocator */
	bool freed;
	uint32_t off;                /* user region */
	uint32_t size;
	struct dfz_site alloc, free;
};

struct blocks {
	uint32_t n;
	int64_t hint;                /* the record the coming layer finding
				      * is about, -1: none */
	bool at_alloc;               /* that finding's call is the record's
				      * allocation (a leak) */
	struct rec rec[DFZ__DROPIN_BLOCKS];
	struct dfz__stack stk[DFZ__DROPIN_BLOCK_STACKS][2]; /* alloc, free */
};

static struct blocks *blk;
static int leaks_knob = -1;          /* dfz_dropin_leaks(); -1: $DFZ_LEAKS */

void dfz_dropin_leaks(int on)
{
	leaks_knob = on != 0;
}

static bool leaks_setting(void)
{
	static int env = -1;
	const char *e;

	if (leaks_knob >= 0)
		return leaks_knob;
	if (env < 0) {
		e = getenv("DFZ_LEAKS");
		env = e && *e && strcmp(e, "0") != 0;
	}
	return env;
}

void dfz__blocks_reset(struct dfz__dropin *d)
{
	(void)d;
	if (!blk)
		blk = calloc(1, sizeof(*blk));
	if (!blk)
		return;
	blk->n = 0;
	blk->hint = -1;
	blk->at_alloc = false;
}

/* ------------------------------------------------------------ records */

/* The latest record of @level whose region (widened by @slack bytes on
 * each side) holds @off, live ones only when @live; -1: none. */
static int64_t find(unsigned level, uint64_t off, uint32_t slack, bool live)
{
	for (uint32_t i = blk ? blk->n : 0; i-- > 0;) {
		const struct rec *r = &blk->rec[i];

		if (r->level != level || (live && r->freed))
			continue;
		if (off + slack >= r->off && off < (uint64_t)r->off + r->size +
		    slack)
			return i;
	}
	return -1;
}

static void keep_stack(struct dfz__dropin *d, uint32_t i, int which)
{
	if (d->fuzzing || i >= DFZ__DROPIN_BLOCK_STACKS)
		return;
	dfz__stack_capture(&blk->stk[i][which]);
}

/* The record is full: forget the freed blocks, keep the live ones (in
 * order, with their stacks where the new place has room for one). */
static void compact(void)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < blk->n; i++) {
		if (blk->rec[i].freed)
			continue;
		if (k < DFZ__DROPIN_BLOCK_STACKS && i < DFZ__DROPIN_BLOCK_STACKS)
			blk->stk[k][0] = blk->stk[i][0];
		else if (k < DFZ__DROPIN_BLOCK_STACKS)
			blk->stk[k][0].n = 0;
		blk->rec[k++] = blk->rec[i];
	}
	blk->n = k;
}

void dfz__blocks_event(struct dfz__dropin *d, const struct dfz_event *ev)
{
	struct rec *r;
	int64_t i;

	if (!blk || (ev->kind != DFZ_EV_ALLOC && ev->kind != DFZ_EV_FREE))
		return;
	if (ev->kind == DFZ_EV_FREE) {
		i = find(ev->dst.level, ev->dst.off, 0, true);
		if (i < 0 || blk->rec[i].off != ev->dst.off)
			return;
		blk->rec[i].freed = true;
		blk->rec[i].free = d->cur;
		keep_stack(d, (uint32_t)i, 1);
		return;
	}
	if (blk->n >= DFZ__DROPIN_BLOCKS)
		compact();
	if (blk->n >= DFZ__DROPIN_BLOCKS)
		return;
	r = &blk->rec[blk->n];
	*r = (struct rec){ .level = ev->dst.level, .off = ev->dst.off,
			   .size = ev->dst.len, .alloc = d->cur };
	keep_stack(d, blk->n, 0);
	blk->n++;
}

void dfz__blocks_user(struct dfz__dropin *d, unsigned level, uint32_t off)
{
	int64_t i = find(level, off, 0, true);

	(void)d;
	if (i >= 0 && blk->rec[i].off == off)
		blk->rec[i].user = true;
}

/* --------------------------------------------------------------- notes */

static uint64_t user_addr(const struct dfz__dropin *d, unsigned level,
			  uint32_t off)
{
	if (level == DFZ_L3)
		return off;
	return (uint64_t)(uintptr_t)dfz_mem_ptr(d->rt, (enum dfz_level)level,
						off);
}

static void note_of(const struct dfz__dropin *d, uint32_t i,
		    struct dfz__block_note *n)
{
	const struct rec *r = &blk->rec[i];

	*n = (struct dfz__block_note){
		.known = true, .freed = r->freed, .level = r->level,
		.off = r->off, .addr = user_addr(d, r->level, r->off),
		.size = r->size, .alloc = r->alloc,
	};
	if (r->freed)
		n->free = r->free;
	if (i < DFZ__DROPIN_BLOCK_STACKS && !d->fuzzing) {
		n->alloc_stack = blk->stk[i][0];
		if (r->freed)
			n->free_stack = blk->stk[i][1];
	}
}

bool dfz__blocks_at(const struct dfz__dropin *d, const void *p,
		    struct dfz__block_note *out)
{
	struct dfz_span sp;
	int64_t i;

	if (!d || !d->rt || !dfz_mem_locate(d->rt, p, 1, &sp))
		return false;
	i = find(sp.level, sp.off, DFZ_REDZONE, false);
	if (i < 0)
		return false;
	note_of(d, (uint32_t)i, out);
	return true;
}

/* The record the finding @f is about, or -1. */
static int64_t about(const struct dfz_finding *f)
{
	if (!f || f->ev.level < 0 || f->ev.level >= DFZ_NLEVELS)
		return -1;
	switch (f->cls) {
	case DFZ_CLASS_MEM_OOB:
	case DFZ_CLASS_MEM_UAF:
	case DFZ_CLASS_MEM_LEAK:
		if (f->ev.block < 0 || f->ev.block > UINT32_MAX)
			return -1;
		return find((unsigned)f->ev.level, (uint64_t)f->ev.block, 0,
			    false);
	case DFZ_CLASS_MEM_REDZONE:
	case DFZ_CLASS_MEM_UNDEFINED:
		if (f->ev.off < 0 || f->ev.off > UINT32_MAX)
			return -1;
		return find((unsigned)f->ev.level, (uint64_t)f->ev.off,
			    f->cls == DFZ_CLASS_MEM_REDZONE ? DFZ_REDZONE : 0,
			    false);
	default:
		return -1;
	}
}

void dfz__blocks_name(struct dfz__dropin *d)
{
	int64_t i;

	memset(&d->res.block, 0, sizeof(d->res.block));
	if (!blk)
		return;
	i = blk->hint >= 0 ? blk->hint : about(dfz_oracles_finding(d->set));
	if (i < 0 || i >= blk->n)
		return;
	note_of(d, (uint32_t)i, &d->res.block);
	if (blk->hint >= 0 && blk->at_alloc) {
		/* A leak: the allocating call is the offending one. */
		d->res.site = d->res.block.alloc;
		d->res.site_stack = d->res.block.alloc_stack;
	}
	blk->hint = -1;
	blk->at_alloc = false;
}

/* ------------------------------------------------------------- misuse */

/* " allocated at FILE:LINE[, freed at FILE:LINE]" of record @i. */
static void lines_of(uint32_t i, char *buf, size_t n)
{
	const struct rec *r = &blk->rec[i];
	int k = 0;

	buf[0] = 0;
	if (r->alloc.file)
		k = snprintf(buf, n, ", allocated at %s:%d", r->alloc.file,
			     r->alloc.line);
	if (r->freed && r->free.file && k >= 0 && (size_t)k < n)
		snprintf(buf + k, n - (size_t)k, ", freed at %s:%d",
			 r->free.file, r->free.line);
}

/* The finding @what about record @i (-1: none) at the free @c. */
static void misuse(struct dfz__dropin *d, const struct dfz__free_call *c,
		   int64_t i, const char *what)
{
	char lines[200] = "";

	if (i >= 0)
		lines_of((uint32_t)i, lines, sizeof(lines));
	blk->hint = i;
	dfz__dropin_fail_as(d, "alloc", DFZ_CLASS_DEV_MISUSE, "%s of 0x%llx: "
			    "%s%s", c->call, (unsigned long long)c->addr, what,
			    lines);
	blk->hint = -1;
}

/* A free of a live block, which starts at @uoff and holds @size bytes. */
static bool live_free(struct dfz__dropin *d, const struct dfz__free_call *c,
		      uint32_t uoff, uint32_t size)
{
	int64_t i = find(c->level, uoff, 0, true);
	char what[160];

	if (i >= 0 && blk->rec[i].off != uoff)
		i = -1;
	if (uoff != c->off) {
		snprintf(what, sizeof(what), "an interior pointer, %u bytes "
			 "into the %s block of %u bytes", c->off - uoff,
			 dfz_level_name(c->level), size);
		misuse(d, c, i, what);
		return false;
	}
	if (c->sized && c->size != size) {
		snprintf(what, sizeof(what), "size %u, but the %s block holds "
			 "%u bytes", c->size, dfz_level_name(c->level), size);
		misuse(d, c, i, what);
	}
	return true;
}

/* The statics or a stack of @c's level holding it: the finding. */
static bool not_heap(struct dfz__dropin *d, const struct dfz__free_call *c)
{
	struct dfz_mem_regions rg;
	uint32_t top;

	dfz_mem_regions(d->rt, (enum dfz_level)c->level, &rg);
	top = rg.stack0 + (rg.nstacks ? rg.nstacks - 1 : 0) * rg.stack_step +
	      rg.stack_len;
	if (c->off < rg.statics)
		misuse(d, c, -1, c->level == DFZ_L1 ?
		       "a static (PI_CL_L1 or the program's statics in L1), "
		       "which no allocator handed out" :
		       "a static (PI_L2 or the program's statics), which no "
		       "allocator handed out");
	else if (rg.nstacks && c->off >= rg.stack0 && c->off < top)
		misuse(d, c, -1, "an address on a stack (the fabric "
		       "controller's or a core's), which no allocator handed "
		       "out");
	else
		return false;
	return true;
}

bool dfz__blocks_free(struct dfz__dropin *d, const struct dfz__free_call *c)
{
	uint32_t uoff, size;
	int64_t i;

	if (!blk || d->sited)
		return true;
	if (dfz_mem_block(d->rt, (enum dfz_level)c->level, c->off, &uoff,
			  &size) == 0)
		return live_free(d, c, uoff, size);
	if (not_heap(d, c))
		return false;
	i = find(c->level, c->off, 0, false);
	if (i < 0 || !blk->rec[i].freed)
		return true;     /* unknown: the caller's free refuses it */
	if (blk->rec[i].off == c->off)
		misuse(d, c, i, "a double free, the block was freed already");
	else
		misuse(d, c, i, "an interior pointer of a block freed "
		       "already");
	return false;
}

/* --------------------------------------------------------------- leaks */

void dfz__blocks_leaks(struct dfz__dropin *d)
{
	uint32_t nleak = 0, first = 0;
	uint64_t bytes = 0;

	if (!blk || !leaks_setting() || dfz_oracles_finding(d->set))
		return;
	for (uint32_t i = blk->n; i-- > 0;)
		if (blk->rec[i].user && !blk->rec[i].freed) {
			nleak++;
			bytes += blk->rec[i].size;
			first = i;
		}
	if (!nleak)
		return;
	blk->hint = first;
	blk->at_alloc = true;
	d->cur = blk->rec[first].alloc;
	dfz__dropin_fail_as(d, "leaks", DFZ_CLASS_MEM_LEAK, "the %s block of "
			    "%u bytes at 0x%llx is still allocated at the end "
			    "of the body (%u blocks of %llu bytes in all)",
			    dfz_level_name(blk->rec[first].level),
			    blk->rec[first].size,
			    (unsigned long long)user_addr(d,
				blk->rec[first].level, blk->rec[first].off),
			    nleak, (unsigned long long)bytes);
	blk->hint = -1;
	blk->at_alloc = false;
}
