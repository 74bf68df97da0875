// SPDX-License-Identifier: MIT
/*
 * mem.oob and mem.use-after-free: every transfer checked at its ISSUE
 * against the memory its rows lie in, independent of the allocator. The
 * oracle keeps its own map of the live blocks of each level (ALLOC, FREE)
 * and a bounded record of freed blocks, each kept until a RECLAIM names it
 * or an allocation overlaps it. Each row of each side of a transfer (one
 * row for a 1-D side) must lie inside one region: a live block's user
 * region, one declared static object (the whole statics when none is
 * declared) or one stack. A row that leaves its region at either end,
 * spans two, or lies in a redzone is mem.oob; a row that touches a freed
 * block still recorded is mem.use-after-free. Rows are judged one by one,
 * never by their bounding box; a run of rows inside one region costs one
 * lookup. A level is judged once it has had an allocation this run, or
 * has statics or stacks (tests write raw offsets into a level nobody
 * allocates in); rows reaching past the level are the engines'
 * (dma.bad-address).
 *
 * Transfers are judged in the runs of a program with a memory map (a
 * level with statics or stacks: the drop-in's layout), not in the model's
 * own runs, whose bug zoo the redzone and data oracles judge by the
 * consequences (edge-tile, a true out-of-bounds read of the model's tile
 * executor, would become mem.oob at its ISSUE): see judges_runs().
 *
 * When the run fills freed blocks with the freed byte (cfg.sanitize: a
 * RECLAIM came, or a freed block of at least BD_PROBE_MIN bytes was seen
 * holding that byte throughout), a freed block must still hold it when it
 * is reclaimed and at the end of the run: a byte that changed was written
 * after the free.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle_int.h"

#define BD_LIVE 1024                 /* live blocks tracked per level */
#define BD_FREED 256                 /* freed blocks remembered per level */
#define BD_PROBE_MIN 16              /* bytes a probe needs to be evidence */


struct bd_blk {
	uint32_t off;                /* user region */
	uint32_t len;
	uint32_t rz;                 /* redzone bytes on each side */
	uint64_t step;               /* freed blocks: of the FREE */
	bool probed;                 /* freed blocks: pattern looked at */
};

/* A region a row may lie in. */
enum bd_kind { BD_BLOCK, BD_OBJECT, BD_STATICS, BD_STACK };

struct bd_reg {
	uint64_t off;
	uint64_t len;
	uint8_t kind;                /* enum bd_kind */
	uint32_t idx;                /* stack number */
};

struct bounds {
	struct dfz_oracles *set;
	struct dfz_rt *rt;
	struct bd_blk *live[DFZ_NLEVELS];  /* BD_LIVE each, by offset */
	struct bd_blk *freed[DFZ_NLEVELS]; /* BD_FREED each, oldest first */
	uint32_t nlive[DFZ_NLEVELS];
	uint32_t nfreed[DFZ_NLEVELS];
	bool allocd[DFZ_NLEVELS];    /* had an ALLOC this run */
	bool lost[DFZ_NLEVELS];      /* a block could not be tracked */
	bool poisons;                /* the run fills freed blocks */
	bool mapped;                 /* the program has a memory map */
	uint32_t unprobed;           /* freed blocks not yet probed */
	struct dfz_mem_regions reg[DFZ_NLEVELS]; /* at the current ISSUE */
	struct dfz__freed_pat pat[DFZ_NLEVELS];  /* the expected freed bytes */
};

/* One side of the transfer being judged. */
struct bd_side {
	const struct dfz_event *ev;
	unsigned level;
	const char *name;            /* "source", "destination" */
	bool src;                    /* the side the transfer reads */
	bool rows;                   /* 2-D: rows are named */
	uint64_t base, stride, length, size;
};

static int bd_init(void *st)
{
	static const uint32_t cap[DFZ_NLEVELS] = {
		[DFZ_L3] = DFZ_CAP_L3, [DFZ_L2] = DFZ_CAP_L2,
		[DFZ_L1] = DFZ_CAP_L1,
	};
	struct bounds *b = st;

	for (unsigned l = 0; l < DFZ_NLEVELS; l++) {
		b->live[l] = malloc(BD_LIVE * sizeof(*b->live[l]));
		b->freed[l] = malloc(BD_FREED * sizeof(*b->freed[l]));
		if (!b->live[l] || !b->freed[l])
			return DFZ_ENOMEM;
		if (dfz__freed_pat_init(&b->pat[l], cap[l]) < 0)
			return DFZ_ENOMEM;
	}
	return 0;
}

static void bd_fini(void *st)
{
	struct bounds *b = st;

	for (unsigned l = 0; l < DFZ_NLEVELS; l++) {
		free(b->live[l]);
		free(b->freed[l]);
		dfz__freed_pat_free(&b->pat[l]);
	}
}

static void bd_reset(void *st, struct dfz_oracles *set, struct dfz_rt *rt)
{
	struct bounds *b = st;

	b->set = set;
	b->rt = rt;
	memset(b->nlive, 0, sizeof(b->nlive));
	memset(b->nfreed, 0, sizeof(b->nfreed));
	memset(b->allocd, 0, sizeof(b->allocd));
	memset(b->lost, 0, sizeof(b->lost));
	b->poisons = false;
	b->unprobed = 0;
	b->mapped = false;
	for (unsigned l = 0; l < DFZ_NLEVELS; l++) {
		dfz_mem_regions(rt, (enum dfz_level)l, &b->reg[l]);
		b->mapped |= b->reg[l].statics || b->reg[l].nstacks;
	}
}

/*
 * judges_runs() - whether the transfers of this run are judged: those of
 * a program with a memory map (the drop-in). The model's runs (the
 * harness, dfz_rt_create()) are left to the other oracles so that its
 * bug zoo keeps its classes; returning true here judges them too (measured
 * clean on every correct model run; edge-tile turns mem.oob).
 */
static bool judges_runs(const struct bounds *b)
{
	return b->mapped;
}

/* ------------------------------------------------------------- blocks */

/* How many live blocks of @l start at or below @off. */
static uint32_t live_upto(const struct bounds *b, unsigned l, uint64_t off)
{
	uint32_t lo = 0, hi = b->nlive[l];

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (b->live[l][mid].off <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool overlaps(uint64_t a, uint64_t alen, uint64_t c, uint64_t clen)
{
	return a < c + clen && c < a + alen;
}

/* Forget the freed blocks of @l that [@off, @off + @len) overlaps. */
static void drop_freed(struct bounds *b, unsigned l, uint64_t off,
		       uint64_t len)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < b->nfreed[l]; i++) {
		const struct bd_blk *f = &b->freed[l][i];

		if (overlaps(off, len, f->off, f->len)) {
			b->unprobed -= !f->probed;
			continue;
		}
		b->freed[l][k++] = *f;
	}
	b->nfreed[l] = k;
}

static void on_alloc(struct bounds *b, const struct dfz_event *ev)
{
	unsigned l = ev->dst.level;
	uint32_t rz = ev->aux > 0 && ev->aux < UINT32_MAX ? (uint32_t)ev->aux
							   : 0, i;
	struct bd_blk *blk;

	if (l >= DFZ_NLEVELS || ev->dst.len == 0)
		return;
	b->allocd[l] = true;
	drop_freed(b, l, (uint64_t)ev->dst.off - (rz < ev->dst.off ? rz :
							 ev->dst.off),
		   (uint64_t)ev->dst.len + 2ull * rz);
	if (b->nlive[l] == BD_LIVE) {
		b->lost[l] = true;       /* judged no more this run */
		return;
	}
	i = live_upto(b, l, ev->dst.off);
	blk = &b->live[l][i];
	memmove(blk + 1, blk, (b->nlive[l] - i) * sizeof(*blk));
	b->nlive[l]++;
	*blk = (struct bd_blk){ .off = ev->dst.off, .len = ev->dst.len,
				.rz = rz };
}

static void on_free(struct bounds *b, const struct dfz_event *ev)
{
	unsigned l = ev->dst.level;
	uint32_t i;
	struct bd_blk f;

	if (l >= DFZ_NLEVELS)
		return;
	i = live_upto(b, l, ev->dst.off);
	if (i == 0 || b->live[l][i - 1].off != ev->dst.off)
		return;                  /* not ours: other oracles judge it */
	f = b->live[l][i - 1];
	memmove(&b->live[l][i - 1], &b->live[l][i],
		(b->nlive[l] - i) * sizeof(f));
	b->nlive[l]--;
	if (b->nfreed[l] == BD_FREED) {  /* forget the oldest */
		b->unprobed -= !b->freed[l][0].probed;
		memmove(&b->freed[l][0], &b->freed[l][1],
			(BD_FREED - 1) * sizeof(f));
		b->nfreed[l]--;
	}
	f.step = ev->step;
	f.probed = false;
	b->freed[l][b->nfreed[l]++] = f;
	b->unprobed++;
}

/* ------------------------------------------------------- freed bytes */

/*
 * Offset of the first byte of freed block @f of @l that does not hold the
 * freed byte, or f->off + f->len. The bytes may be poisoned for the
 * program (ASan): the oracle reads them as the runtime's own code does.
 */
DFZ__ORACLE_NO_ASAN
static uint64_t first_changed(struct bounds *b, unsigned l,
			      const struct bd_blk *f)
{
	const uint8_t *p = dfz_mem_ptr(b->rt, (enum dfz_level)l, f->off);
	const uint8_t *t;
	uint64_t x, y;
	uint32_t i = 0;

	if (!p || f->len == 0 ||
	    !dfz_mem_ptr(b->rt, (enum dfz_level)l, f->off + f->len - 1))
		return (uint64_t)f->off + f->len;
	t = dfz__freed_pat(&b->pat[l], l, f->off, f->len);
	if (!t) {
		for (; i < f->len; i++)
			if (p[i] != dfz_mem_freed_byte((enum dfz_level)l,
						       f->off + i))
				break;
		return (uint64_t)f->off + i;
	}
	for (; i + 8 <= f->len; i += 8) {
		__builtin_memcpy(&x, p + i, 8);
		__builtin_memcpy(&y, t + i, 8);
		if (x != y)
			break;
	}
	while (i < f->len && p[i] == t[i])
		i++;
	return (uint64_t)f->off + i;
}

/* Look at the freed blocks not yet probed: one holding the freed byte
 * throughout proves that the run fills freed blocks. */
static void probe(struct bounds *b)
{
	for (unsigned l = 0; b->unprobed && l < DFZ_NLEVELS; l++) {
		for (uint32_t i = 0; i < b->nfreed[l]; i++) {
			struct bd_blk *f = &b->freed[l][i];

			if (f->probed)
				continue;
			f->probed = true;
			b->unprobed--;
			if (!b->poisons && f->len >= BD_PROBE_MIN &&
			    first_changed(b, l, f) == (uint64_t)f->off + f->len)
				b->poisons = true;
		}
	}
}

/* The address the program uses for @off of @l: its chip address when the
 * level sits at a fixed 32-bit address (the drop-in), else the offset. */
static uint64_t addr(const struct bounds *b, unsigned l, uint64_t off)
{
	uintptr_t base;

	if (l == DFZ_L3)
		return off;
	base = (uintptr_t)dfz_mem_ptr(b->rt, (enum dfz_level)l, 0);
	return base && base + off <= UINT32_MAX ? base + off : off;
}

/* Freed block @f of @l must still hold the freed byte; @when: "when it
 * was reclaimed", "at the end of the run". False when it does not. */
DFZ__ORACLE_NO_ASAN
static bool freed_intact(struct bounds *b, unsigned l,
			const struct bd_blk *f, const char *when)
{
	uint64_t at = first_changed(b, l, f);
	struct dfz_evidence x = dfz_evidence_none();
	const uint8_t *p;

	if (at == (uint64_t)f->off + f->len)
		return true;
	p = dfz_mem_ptr(b->rt, (enum dfz_level)l, (uint32_t)at);
	x.step = (int64_t)dfz_rt_now(b->rt);
	x.level = l;
	x.off = (int64_t)at;
	x.block = f->off;
	dfz_oracle_fail(b->set, "bounds", DFZ_CLASS_MEM_UAF, &x,
			"%s block 0x%llx+%u, freed at step %llu, was written "
			"after free: byte 0x%llx (offset %llu) holds 0x%02x, "
			"not the freed byte 0x%02x (seen %s)",
			dfz__level_name(l),
			(unsigned long long)addr(b, l, f->off), f->len,
			(unsigned long long)f->step,
			(unsigned long long)addr(b, l, at),
			(unsigned long long)(at - f->off), p ? *p : 0,
			dfz_mem_freed_byte((enum dfz_level)l, (uint32_t)at),
			when);
	return false;
}

static void on_reclaim(struct bounds *b, const struct dfz_event *ev)
{
	unsigned l = ev->dst.level;

	if (l >= DFZ_NLEVELS)
		return;
	b->poisons = true;
	for (uint32_t i = 0; i < b->nfreed[l]; i++) {
		const struct bd_blk *f = &b->freed[l][i];

		if (!overlaps(ev->dst.off, ev->dst.len, f->off, f->len))
			continue;
		if (!freed_intact(b, l, f, "when it was reclaimed"))
			return;
	}
	drop_freed(b, l, ev->dst.off, ev->dst.len);
}

static void bd_end(void *st)
{
	struct bounds *b = st;

	probe(b);
	if (!b->poisons)
		return;
	for (unsigned l = 0; l < DFZ_NLEVELS; l++)
		for (uint32_t i = 0; i < b->nfreed[l]; i++)
			if (!freed_intact(b, l, &b->freed[l][i],
					  "at the end of the run"))
				return;
}

/* ------------------------------------------------------------ regions */

/*
 * The declared static object of @r holding @off (@r->nobj > 0), else the
 * gap between two objects that holds it: bytes no symbol names (string
 * literals, constant pools, padding) are a region of their own, so a row
 * that stays in a gap is accepted and one that runs from a gap into an
 * object (or from an object into a gap) is not.
 */
static bool find_object(const struct dfz_mem_regions *r, uint64_t off,
			struct bd_reg *out)
{
	uint32_t lo = 0, hi = r->nobj;
	uint64_t from, to;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (r->obj[mid].off <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0 && off - r->obj[lo - 1].off < r->obj[lo - 1].len) {
		*out = (struct bd_reg){ .off = r->obj[lo - 1].off,
					.len = r->obj[lo - 1].len,
					.kind = BD_OBJECT };
		return true;
	}
	from = lo > 0 ? (uint64_t)r->obj[lo - 1].off + r->obj[lo - 1].len : 0;
	to = lo < r->nobj ? r->obj[lo].off : r->statics;
	*out = (struct bd_reg){ .off = (uint32_t)from,
				.len = (uint32_t)(to - from),
				.kind = BD_STATICS };
	return true;
}

/* The region of @l holding byte @off: a live block, a static object (or
 * the statics), a stack. */
static bool find_region(const struct bounds *b, unsigned l, uint64_t off,
			struct bd_reg *out)
{
	const struct dfz_mem_regions *r = &b->reg[l];
	uint32_t i = live_upto(b, l, off);
	uint64_t rel;

	if (i > 0 && off - b->live[l][i - 1].off < b->live[l][i - 1].len) {
		*out = (struct bd_reg){ .off = b->live[l][i - 1].off,
					.len = b->live[l][i - 1].len,
					.kind = BD_BLOCK };
		return true;
	}
	if (off < r->statics) {
		if (r->nobj)
			return find_object(r, off, out);
		*out = (struct bd_reg){ .off = 0, .len = r->statics,
					.kind = BD_STATICS };
		return true;
	}
	if (!r->nstacks || off < r->stack0 || !r->stack_step)
		return false;
	rel = off - r->stack0;
	if (rel / r->stack_step >= r->nstacks ||
	    rel % r->stack_step >= r->stack_len)
		return false;
	*out = (struct bd_reg){ .off = off - rel % r->stack_step,
				.len = r->stack_len, .kind = BD_STACK,
				.idx = (uint32_t)(rel / r->stack_step) };
	return true;
}

/* @g named in a message: "L2 block 0x1c00a010+4096". */
static const char *reg_name(const struct bounds *b, unsigned l,
			    const struct bd_reg *g, char *buf, size_t n)
{
	static const char *const kind[] = {
		[BD_BLOCK] = "block", [BD_OBJECT] = "static object",
		[BD_STATICS] = "statics", [BD_STACK] = "stack",
	};

	if (g->kind == BD_STACK)
		snprintf(buf, n, "%s stack %u 0x%llx+%llu", dfz__level_name(l),
			 g->idx, (unsigned long long)addr(b, l, g->off),
			 (unsigned long long)g->len);
	else
		snprintf(buf, n, "%s %s 0x%llx+%llu", dfz__level_name(l),
			 kind[g->kind], (unsigned long long)addr(b, l, g->off),
			 (unsigned long long)g->len);
	return buf;
}

/* ---------------------------------------------------------------- rows */

/* Record the finding of row @row [@off, @off + @len) of @s. */
static void fail_row(struct bounds *b, const struct bd_side *s, uint64_t row,
		     uint64_t off, uint64_t len, enum dfz_class cls,
		     uint64_t bad, int64_t block, const char *what)
{
	struct dfz_evidence x = dfz__evidence_of(s->ev, b->set->xfer);
	char name[32] = "";

	x.level = s->level;
	x.off = (int64_t)bad;
	x.block = block;
	if (s->rows)
		snprintf(name, sizeof(name), " row %llu",
			 (unsigned long long)row);
	dfz_oracle_fail(b->set, "bounds", cls, &x, "%s%s [0x%llx, 0x%llx) %s",
			s->name, name,
			(unsigned long long)addr(b, s->level, off),
			(unsigned long long)addr(b, s->level, off + len), what);
}

/* A row that touches a freed block still recorded: true when found. */
static bool uaf_row(struct bounds *b, const struct bd_side *s, uint64_t row,
		    uint64_t off, uint64_t len)
{
	unsigned l = s->level;
	char what[128];

	for (uint32_t i = b->nfreed[l]; i-- > 0;) {
		const struct bd_blk *f = &b->freed[l][i];

		if (!overlaps(off, len, f->off, f->len))
			continue;
		snprintf(what, sizeof(what),
			 "%s %s block 0x%llx+%u, freed at step %llu",
			 s->src ? "reads" : "writes",
			 dfz__level_name(l),
			 (unsigned long long)addr(b, l, f->off), f->len,
			 (unsigned long long)f->step);
		fail_row(b, s, row, off, len, DFZ_CLASS_MEM_UAF,
			 off > f->off ? off : f->off, f->off, what);
		return true;
	}
	return false;
}

/* Row @row [@off, @off + @len) of @s leaves region @g of its level: past
 * its end, or (when it ends inside or before it) before its start; @into:
 * a second region it runs into, or NULL. */
static void outside(struct bounds *b, const struct bd_side *s, uint64_t row,
		    uint64_t off, uint64_t len, const struct bd_reg *g,
		    const struct bd_reg *into)
{
	uint64_t end = off + len, gend = g->off + g->len;
	char what[192], n1[64], n2[64];
	int k;

	if (end > gend)
		k = snprintf(what, sizeof(what),
			     "runs %llu bytes past the end of %s",
			     (unsigned long long)(end - gend),
			     reg_name(b, s->level, g, n1, sizeof(n1)));
	else
		k = snprintf(what, sizeof(what),
			     "starts %llu bytes before the start of %s",
			     (unsigned long long)(g->off - off),
			     reg_name(b, s->level, g, n1, sizeof(n1)));
	if (into && k > 0 && (size_t)k < sizeof(what))
		snprintf(what + k, sizeof(what) - (size_t)k, " into %s",
			 reg_name(b, s->level, into, n2, sizeof(n2)));
	fail_row(b, s, row, off, len, DFZ_CLASS_MEM_OOB,
		 end > gend && off < gend ? gend : off, (int64_t)g->off, what);
}

/* The live block of @l whose redzones [@off, @off + @len) touches (it
 * lies in no region), as a region; false when none. */
static bool redzone_of(const struct bounds *b, unsigned l, uint64_t off,
		       uint64_t len, struct bd_reg *g)
{
	uint32_t i = live_upto(b, l, off);
	const struct bd_blk *p = i > 0 ? &b->live[l][i - 1] : NULL;
	const struct bd_blk *q = i < b->nlive[l] ? &b->live[l][i] : NULL;

	if (q && off + len + q->rz > q->off)
		p = q;                   /* before its start, or over it */
	else if (!p || off >= (uint64_t)p->off + p->len + p->rz)
		return false;
	*g = (struct bd_reg){ .off = p->off, .len = p->len,
			      .kind = BD_BLOCK };
	return true;
}

/*
 * Row @row [@off, @off + @len) of @s lies in no one region: the finding
 * names the region it starts in, else the one it ends in, else the one
 * the transfer starts in (a 2-D row far from its block), else the block
 * whose redzone it touches; else it lies in no region at all.
 */
static void judge_row(struct bounds *b, const struct bd_side *s,
		      uint64_t row, uint64_t off, uint64_t len)
{
	unsigned l = s->level;
	struct bd_reg g, h;
	char what[128];

	if (uaf_row(b, s, row, off, len))
		return;
	if (find_region(b, l, off, &g)) {
		outside(b, s, row, off, len, &g,
			find_region(b, l, off + len - 1, &h) ? &h : NULL);
		return;
	}
	if (find_region(b, l, off + len - 1, &g) ||
	    find_region(b, l, s->base, &g) || redzone_of(b, l, off, len, &g)) {
		outside(b, s, row, off, len, &g, NULL);
		return;
	}
	snprintf(what, sizeof(what), "lies in no %s of %s",
		 off < b->reg[l].statics ? "declared static object"
					 : "block, static object or stack",
		 dfz__level_name(l));
	fail_row(b, s, row, off, len, DFZ_CLASS_MEM_OOB, off, -1, what);
}

/* The first row after @i that may leave region end @rend (row @i is a
 * full row inside it, as are the rows after it up to the returned one). */
static uint64_t next_row(const struct bd_side *s, uint64_t i, uint64_t nrows,
			 uint64_t rend)
{
	uint64_t k;

	if (i + 1 >= nrows || s->stride == 0)
		return nrows;
	if (rend < s->base + s->length)
		return i + 1;
	if (s->base + (nrows - 1) * s->stride + s->length <= rend)
		return nrows;        /* every row inside: no division */
	k = dfz__div(rend - s->length - s->base, s->stride) + 1;
	return k > i + 1 ? k : i + 1;
}

/* Bytes of @l the engines can reach: the usable part and the stacks. */
static uint64_t level_limit(const struct bounds *b, unsigned l)
{
	const struct dfz_mem_regions *r = &b->reg[l];
	uint64_t lim = dfz_mem_size(b->rt, (enum dfz_level)l), top;

	if (r->nstacks) {
		top = r->stack0 + (uint64_t)(r->nstacks - 1) * r->stack_step +
		      r->stack_len;
		if (top > lim)
			lim = top;
	}
	return lim;
}

/* Judge every row of @s; false once one is a finding. */
static bool walk(struct bounds *b, const struct bd_side *s)
{
	uint64_t nrows, i = 0, off, len, lim = level_limit(b, s->level);
	struct bd_reg g;

	if (s->size == 0 || s->length == 0)
		return true;             /* touches nothing */
	nrows = s->length >= s->size ? 1 :
		dfz__div(s->size + s->length - 1, s->length);
	while (i < nrows) {
		off = s->base + i * s->stride;
		len = i + 1 < nrows ? s->length : s->size - i * s->length;
		if (find_region(b, s->level, off, &g) &&
		    off + len <= g.off + g.len) {
			i = next_row(s, i, nrows, g.off + g.len);
			continue;
		}
		if (off + len <= lim) {
			judge_row(b, s, i, off, len);
			return false;
		}
		i++;
	}
	return true;
}

/* Side @ext (else local) of the ISSUE @ev; false when it is not judged. */
static bool side_of(struct bounds *b, const struct dfz_event *ev, bool ext,
		    struct bd_side *s)
{
	const struct dfz_desc *d = &ev->desc;

	s->ev = ev;
	s->level = ext ? d->ext_level : d->loc_level;
	s->src = ext == (d->ext2loc != 0);
	s->name = s->src ? "source" : "destination";
	s->base = ext ? d->ext_off : d->loc_off;
	s->stride = ext ? d->ext_stride : d->loc_stride;
	s->size = d->size;
	s->length = d->is_2d ? d->length : d->size;
	s->rows = d->is_2d && d->length < d->size;
	if (!s->rows && s->length) {
		s->length = s->size;
		s->stride = 0;
	}
	if (s->level >= DFZ_NLEVELS || b->lost[s->level])
		return false;
	dfz_mem_regions(b->rt, (enum dfz_level)s->level, &b->reg[s->level]);
	return b->allocd[s->level] || b->reg[s->level].statics ||
	       b->reg[s->level].nstacks;
}

static void on_issue(struct bounds *b, const struct dfz_event *ev)
{
	bool src_ext = ev->desc.ext2loc != 0;
	struct bd_side s;

	if (!judges_runs(b))
		return;
	if (side_of(b, ev, src_ext, &s) && !walk(b, &s))
		return;
	if (side_of(b, ev, !src_ext, &s))
		walk(b, &s);
}

static void bd_event(void *st, const struct dfz_event *ev)
{
	struct bounds *b = st;

	if (b->unprobed)
		probe(b);
	switch (ev->kind) {
	case DFZ_EV_ALLOC:
		on_alloc(b, ev);
		break;
	case DFZ_EV_FREE:
		on_free(b, ev);
		break;
	case DFZ_EV_RECLAIM:
		on_reclaim(b, ev);
		break;
	default:
		on_issue(b, ev);
		break;
	}
}

static const struct dfz_oracle_ops ops = {
	.name = "bounds",
	.size = sizeof(struct bounds),
	.events = DFZ_EV_BIT(DFZ_EV_ALLOC) | DFZ_EV_BIT(DFZ_EV_FREE) |
		  DFZ_EV_BIT(DFZ_EV_ISSUE) | DFZ_EV_BIT(DFZ_EV_RECLAIM),
	.init = bd_init,
	.fini = bd_fini,
	.reset = bd_reset,
	.event = bd_event,
	.end = bd_end,
};

const struct dfz_oracle_ops *dfz__oracle_bounds(void)
{
	return &ops;
}
