// SPDX-License-Identifier: MIT
/*
 * hazard.read-before-wait and hazard.race, judged by the protocol rather
 * than the schedule: a transfer is pending from its ISSUE until a
 * successful wait that covers it (on its ram request, on its mchan TID, on
 * its idma txid or a later one, or an idma wait_all), whether or not the
 * engine has already moved its bytes. Per-level shadow memory holds, for
 * each byte, the pending transfer that writes it, how many pending
 * transfers read it, and (local levels) whether it holds settled data:
 * written by a waited transfer or by compute since it was allocated.
 * Pending transfers may not overlap where one of them writes (except two
 * writes on an engine that runs its queue in order); compute may not read
 * bytes a pending transfer writes, nor write bytes a pending transfer
 * reads or writes.
 *
 * The shadow is allocated once at the level caps; a run leaves marks only
 * for the transfers still pending at its end, which reset undoes, and the
 * settled bits are generation stamps, so a reset costs what the run used
 * (when the stamps wrap, what the runs since the last wrap stamped).
 * The range a run stamped is kept per level, so that a fresh allocation
 * clears only what this run settled in it (an SDK heap of 512 KiB taken
 * at every run costs nothing).
 *
 * Marks are made when they can matter: a transfer whose range (either
 * side's first to last byte) meets no mark and no other pending
 * transfer's range cannot conflict with anything yet, so it waits,
 * unmarked, in the lazy list. A transfer, or a compute access, whose
 * range meets a lazy one's marks that one first (in issue order), then is
 * judged on the shadow as always. Two pending transfers that share a
 * byte are thus both marked, in issue order, before either is judged
 * against the other; the double-buffered tiles of generated code, which
 * never share one, cost a few range compares a transfer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle_int.h"

#define HZ_XFERS 4096                /* pending transfers tracked */
#define HZ_HANDLES 1024              /* ram requests tracked per run */

static const uint32_t level_cap[DFZ_NLEVELS] = {
	[DFZ_L3] = DFZ_CAP_L3, [DFZ_L2] = DFZ_CAP_L2, [DFZ_L1] = DFZ_CAP_L1,
};

/* The bytes from a side's first to its last, in level @l (DFZ_NLEVELS:
 * none in the shadow). */
struct hz_range {
	uint8_t l;
	uint64_t lo, hi;
};

struct hazard {
	struct dfz_oracles *set;
	struct dfz_rt *rt;
	uint16_t *w[DFZ_NLEVELS];     /* per byte: pending writer id, 0: none */
	uint16_t *r[DFZ_NLEVELS];     /* per byte: pending readers */
	uint8_t *settled[DFZ_NLEVELS]; /* local levels: == gen when settled */
	uint8_t gen;
	uint64_t slo[DFZ_NLEVELS];    /* every byte stamped gen is in */
	uint64_t shi[DFZ_NLEVELS];    /* [slo, shi) */
	uint64_t clo[DFZ_NLEVELS];    /* every byte stamped since the last */
	uint64_t chi[DFZ_NLEVELS];    /* wrap of gen is in [clo, chi) */
	uint32_t nmark[DFZ_NLEVELS];  /* ranges marked in w or r */
	uint64_t mlo[DFZ_NLEVELS];    /* while any: every mark of the */
	uint64_t mhi[DFZ_NLEVELS];    /* level is in [mlo, mhi) */
	struct dfz__pend p;          /* pending transfers, ids in w */
	struct hz_range (*range)[2]; /* per id: its sides' ranges */
	bool *marked;                /* per id: its marks are in w and r */
	uint16_t *lazy;              /* live ids not marked, issue order */
	uint32_t nlazy;
};

static int hz_init(void *st)
{
	struct hazard *h = st;
	unsigned l;

	for (l = 0; l < DFZ_NLEVELS; l++) {
		h->w[l] = calloc(level_cap[l], sizeof(*h->w[l]));
		h->r[l] = calloc(level_cap[l], sizeof(*h->r[l]));
		if (!h->w[l] || !h->r[l])
			return DFZ_ENOMEM;
		if (l == DFZ_L3)
			continue;
		h->settled[l] = calloc(level_cap[l], 1);
		if (!h->settled[l])
			return DFZ_ENOMEM;
	}
	h->range = calloc(HZ_XFERS + 1, sizeof(*h->range));
	h->marked = calloc(HZ_XFERS + 1, sizeof(*h->marked));
	h->lazy = calloc(HZ_XFERS, sizeof(*h->lazy));
	if (!h->range || !h->marked || !h->lazy)
		return DFZ_ENOMEM;
	return dfz__pend_init(&h->p, HZ_XFERS, HZ_HANDLES);
}

static void hz_fini(void *st)
{
	struct hazard *h = st;
	unsigned l;

	for (l = 0; l < DFZ_NLEVELS; l++) {
		free(h->w[l]);
		free(h->r[l]);
		free(h->settled[l]);
	}
	free(h->range);
	free(h->marked);
	free(h->lazy);
	dfz__pend_fini(&h->p);
}

/* ------------------------------------------------------------- shadow */

/* Clamp [*off, *off + *len) to the shadow of @level; false when empty. */
static bool clamp(unsigned level, uint64_t *off, uint64_t *len)
{
	if (level >= DFZ_NLEVELS || *off >= level_cap[level] || *len == 0)
		return false;
	if (*len > level_cap[level] - *off)
		*len = level_cap[level] - *off;
	return true;
}

/* [@off, @off + @len) of local level @l settled in this run. */
/* [*lo, *hi) grows to hold [a, b) (empty when *lo >= *hi). */
static void widen(uint64_t *lo, uint64_t *hi, uint64_t a, uint64_t b)
{
	if (a >= b)
		return;
	if (*lo >= *hi) {
		*lo = a;
		*hi = b;
		return;
	}
	if (a < *lo)
		*lo = a;
	if (b > *hi)
		*hi = b;
}

static void settle(struct hazard *h, unsigned l, uint64_t off, uint64_t len)
{
	memset(h->settled[l] + off, h->gen, len);
	widen(&h->slo[l], &h->shi[l], off, off + len);
}

/* The read side of @d is its external side for a load, else local. */
static bool reads_ext(const struct dfz_desc *d)
{
	return d->ext2loc != 0;
}

/*
 * First byte of [off, off + len) of @level with a pending writer (or,
 * with @readers, any pending transfer), or off + len. The common case is
 * a clean range: one pass that ORs the marks (the compiler vectorizes
 * it), and a search only when one is set.
 */
static uint64_t busy(const struct hazard *h, unsigned level, uint64_t off,
		     uint64_t len, bool readers)
{
	const uint16_t *w = h->w[level], *r = h->r[level];
	uint64_t end = off + len, i;
	uint16_t any = 0;

	for (i = off; i < end; i++)
		any |= w[i];
	if (readers)
		for (i = off; i < end; i++)
			any |= r[i];
	if (!any)
		return end;
	for (i = off; i < end; i++)
		if (w[i] || (readers && r[i]))
			return i;
	return end;
}

/* Whether [@off, @off + @len) of @level may hold a mark: else no byte of
 * it needs a look. */
static bool may_be_marked(const struct hazard *h, unsigned level, uint64_t off,
			  uint64_t len)
{
	return h->nmark[level] && off < h->mhi[level] &&
	       h->mlo[level] < off + len;
}

/* A range of @level is marked, or unmarked. */
static void count_mark(struct hazard *h, unsigned level, uint64_t off,
		       uint64_t len)
{
	if (h->nmark[level]++ == 0)
		h->mlo[level] = h->mhi[level] = 0;
	widen(&h->mlo[level], &h->mhi[level], off, off + len);
}

static void count_unmark(struct hazard *h, unsigned level)
{
	if (h->nmark[level] > 0)
		h->nmark[level]--;
}

/* The first conflict met while marking a new transfer. */
struct hz_hit {
	bool found;
	bool we_write;               /* on the new transfer's write side */
	unsigned lvl;
	uint64_t at;
	uint16_t other;              /* the pending writer; 0: a reader */
};

/*
 * Engines whose transfers run strictly one after another in issue order
 * (the oracle's own table, from the documentation: idma completes txids in
 * order, one queue). Two of their transfers writing the same bytes are
 * ordered, the later one lands last: not a race. Their reads and writes
 * still race, as a pipelined engine may read for the next transfer before
 * the last one's writes land.
 */
static const bool in_order[DFZ_ENGINE_COUNT] = {
	[DFZ_ENGINE_IDMA] = true,
};

/*
 * A RAM driver that runs one copy at a time, in issue order (gap_sdk's GAP8
 * HyperRAM: the next starts when the last is done; DFZ_RTQ_RAM_SERIAL):
 * in L3, which only it reaches, two of its copies never overlap in time,
 * so a read and a write of the same bytes are ordered, not a race.
 */
static bool serial_ram(const struct hazard *h, unsigned level,
		       unsigned engine)
{
	return level == DFZ_L3 && engine == DFZ_ENGINE_RAM &&
	       (dfz_rt_quirks(h->rt) & DFZ_RTQ_RAM_SERIAL);
}

/* Is the hit at byte @i of @level, met by new transfer @id of @engine on
 * its @write side, no conflict: its own earlier line, or an ordered
 * write-write? */
static bool no_conflict(const struct hazard *h, unsigned level, uint64_t i,
			uint16_t id, unsigned engine, bool write)
{
	uint16_t w = h->w[level][i];

	if (id && w == id)
		return true;
	if (serial_ram(h, level, engine))
		return true;
	return write && w && !h->r[level][i] && engine < DFZ_ENGINE_COUNT &&
	       in_order[engine] && h->p.x[w].engine == engine;
}

/*
 * Mark one side of new transfer @id (0: over the bounds, check only) of
 * @engine in one pass, noting in @hit the first byte that a pending
 * transfer writes or, on the write side, reads. Conflicting bytes are
 * marked all the same, so dropping the transfer later undoes exactly what
 * was done.
 */
static void add_side(struct hazard *h, const struct dfz_desc *d, uint16_t id,
		     unsigned engine, bool ext, struct hz_hit *hit)
{
	bool write = ext != reads_ext(d);
	struct dfz__fp fp;
	uint64_t off, len, i;

	dfz__fp_init(&fp, d, ext);
	while (dfz__fp_next(&fp, &off, &len)) {
		unsigned l = fp.level;
		uint16_t *w, *r;

		if (!clamp(l, &off, &len))
			continue;
		w = h->w[l];
		r = h->r[l];
		i = hit->found || !may_be_marked(h, l, off, len) ?
			    off + len : busy(h, l, off, len, write);
		while (i < off + len &&
		       no_conflict(h, l, i, id, engine, write))
			i = busy(h, l, i + 1, off + len - i - 1, write);
		if (i < off + len)
			*hit = (struct hz_hit){ .found = true,
				.we_write = write, .lvl = l,
				.at = i, .other = w[i] };
		if (!id)
			continue;
		count_mark(h, l, off, len);
		if (write)
			for (i = off; i < off + len; i++)
				w[i] = id;
		else
			for (i = off; i < off + len; i++)
				r[i]++;
	}
}

/* Undo add_side() of pending transfer @id (nothing to undo while it is
 * lazy); its written bytes settle. */
static void drop_side(struct hazard *h, uint16_t id, bool ext)
{
	const struct dfz_desc *d = &h->p.x[id].desc;
	bool write = ext != reads_ext(d), marked = h->marked[id];
	struct dfz__fp fp;
	uint64_t off, len, i;

	if (!marked && !write)
		return;
	dfz__fp_init(&fp, d, ext);
	while (dfz__fp_next(&fp, &off, &len)) {
		uint16_t *w = h->w[fp.level], *r = h->r[fp.level];

		if (!clamp(fp.level, &off, &len))
			continue;
		if (!marked) {
			if (h->settled[fp.level])
				settle(h, fp.level, off, len);
			continue;
		}
		count_unmark(h, fp.level);
		if (!write) {
			for (i = off; i < off + len; i++)
				r[i]--;
			continue;
		}
		for (i = off; i < off + len; i++)
			w[i] = w[i] == id ? 0 : w[i];
		if (h->settled[fp.level])
			settle(h, fp.level, off, len);
	}
}

/* ---------------------------------------------------------- lazy marks */

/* The range of the external (@ext) or local side of @d in the shadow. */
static struct hz_range range_of(const struct dfz_desc *d, bool ext)
{
	struct dfz__fp fp;
	struct hz_range g = { .l = DFZ_NLEVELS };
	uint64_t end;

	dfz__fp_init(&fp, d, ext);
	if (fp.level >= DFZ_NLEVELS || fp.size == 0 ||
	    fp.base >= level_cap[fp.level])
		return g;
	end = dfz__fp_end(&fp);
	g.l = fp.level;
	g.lo = fp.base;
	g.hi = end < level_cap[g.l] ? end : level_cap[g.l];
	return g;
}

static bool ranges_meet(const struct hz_range *a, const struct hz_range *b)
{
	return a->l < DFZ_NLEVELS && a->l == b->l && a->lo < b->hi &&
	       b->lo < a->hi;
}

/* Whether a side of pending @id meets range @g[0] or @g[1]. */
static bool meets(const struct hazard *h, uint16_t id,
		  const struct hz_range g[2])
{
	const struct hz_range *r = h->range[id];

	return ranges_meet(&r[0], &g[0]) || ranges_meet(&r[0], &g[1]) ||
	       ranges_meet(&r[1], &g[0]) || ranges_meet(&r[1], &g[1]);
}

/* Whether range @g may hold a mark (may_be_marked()). */
static bool range_marked(const struct hazard *h, const struct hz_range *g)
{
	return g->l < DFZ_NLEVELS &&
	       may_be_marked(h, g->l, g->lo, g->hi - g->lo);
}

/* Mark lazy transfer @id now; it was judged at its ISSUE. */
static void mark_late(struct hazard *h, uint16_t id)
{
	const struct dfz__pend_x *x = &h->p.x[id];
	struct hz_hit judged = { .found = true };

	add_side(h, &x->desc, id, x->engine, !reads_ext(&x->desc), &judged);
	add_side(h, &x->desc, id, x->engine, reads_ext(&x->desc), &judged);
	h->marked[id] = true;
}

/* Mark, in issue order, every lazy transfer that meets @g[0] or @g[1]. */
static void wake(struct hazard *h, const struct hz_range g[2])
{
	uint32_t i, k = 0;

	for (i = 0; i < h->nlazy; i++) {
		uint16_t id = h->lazy[i];

		if (meets(h, id, g))
			mark_late(h, id);
		else
			h->lazy[k++] = id;
	}
	h->nlazy = k;
}

/* Lazy @id leaves the list (its order kept). */
static void unlazy(struct hazard *h, uint16_t id)
{
	uint32_t i, k = 0;

	for (i = 0; i < h->nlazy; i++)
		if (h->lazy[i] != id)
			h->lazy[k++] = h->lazy[i];
	h->nlazy = k;
}

static void drop(struct hazard *h, uint16_t id)
{
	h->p.x[id].live = false;
	if (!h->marked[id])
		unlazy(h, id);
	drop_side(h, id, true);
	drop_side(h, id, false);
}

/* A pending transfer whose read side holds @at of @level, or 0. */
static uint16_t find_reader(const struct hazard *h, unsigned level,
			    uint64_t at)
{
	struct dfz_span s = { .level = (uint8_t)level, .off = (uint32_t)at,
			      .len = 1 };
	uint32_t id;

	for (id = 1; id < h->p.nextid; id++)
		if (h->p.x[id].live &&
		    dfz__fp_contains(&h->p.x[id].desc,
				     reads_ext(&h->p.x[id].desc), &s))
			return (uint16_t)id;
	return 0;
}

static void hz_reset(void *st, struct dfz_oracles *set, struct dfz_rt *rt)
{
	struct hazard *h = st;
	uint32_t id;

	h->set = set;
	h->rt = rt;
	for (id = 1; id < h->p.nextid; id++)
		if (h->p.x[id].live)
			drop(h, (uint16_t)id);
	dfz__pend_clear(&h->p);
	h->nlazy = 0;
	memset(h->nmark, 0, sizeof(h->nmark));
	for (unsigned l = 0; l < DFZ_NLEVELS; l++)
		widen(&h->clo[l], &h->chi[l], h->slo[l], h->shi[l]);
	memset(h->slo, 0, sizeof(h->slo));
	memset(h->shi, 0, sizeof(h->shi));
	if (++h->gen != 0)
		return;
	/* stamps wrapped: clear those of the runs since the last wrap */
	for (unsigned l = 0; l < DFZ_NLEVELS; l++)
		if (h->settled[l] && h->clo[l] < h->chi[l])
			memset(h->settled[l] + h->clo[l], 0,
			       h->chi[l] - h->clo[l]);
	memset(h->clo, 0, sizeof(h->clo));
	memset(h->chi, 0, sizeof(h->chi));
	h->gen = 1;
}

/* ----------------------------------------------------------- transfers */

static void issue_race(struct hazard *h, const struct dfz_event *ev,
		       const struct hz_hit *hit)
{
	uint16_t other = hit->other ? hit->other :
				      find_reader(h, hit->lvl, hit->at);
	const struct dfz__pend_x *o = &h->p.x[other];
	struct dfz_evidence x = dfz_evidence_none();

	x.handle = ev->handle;
	x.step = (int64_t)ev->step;
	x.xfer = h->set->xfer;
	x.level = hit->lvl;
	x.off = (int64_t)hit->at;
	x.other = other ? o->seq : -1;
	dfz_oracle_fail(h->set, "hazard", DFZ_CLASS_HAZARD_RACE, &x,
			"transfer #%lld %s %s[0x%llx] while transfer #%lld "
			"(%s, issued step %llu, not waited) %s it",
			(long long)h->set->xfer,
			hit->we_write ? "writes" : "reads",
			dfz__level_name(hit->lvl), (unsigned long long)hit->at,
			other ? (long long)o->seq : -1LL,
			dfz__owner(h->set, o->engine, o->handle, o->id),
			(unsigned long long)o->step,
			hit->other ? "writes" : "reads");
}

/* ISSUE: judged and marked when its range meets a mark (after waking the
 * lazy transfers it meets), else lazy: nothing it could conflict with. */
static void on_issue(struct hazard *h, const struct dfz_event *ev)
{
	const struct dfz_desc *d = &ev->desc;
	struct hz_hit hit = { .found = false };
	uint16_t id = dfz__pend_add(&h->p, ev, h->set->xfer); /* 0: bounds */
	struct hz_range g[2] = { range_of(d, true), range_of(d, false) };

	wake(h, g);
	if (range_marked(h, &g[0]) || range_marked(h, &g[1])) {
		add_side(h, d, id, ev->engine, !reads_ext(d), &hit);
		add_side(h, d, id, ev->engine, reads_ext(d), &hit);
		if (hit.found)
			issue_race(h, ev, &hit); /* before it counts as a reader */
		if (id)
			h->marked[id] = true;
	} else if (id) {
		h->marked[id] = false;
		h->lazy[h->nlazy++] = id;
	}
	if (id) {
		h->range[id][0] = g[0];
		h->range[id][1] = g[1];
		h->p.x[id].live = true;
	}
}

static void on_waited(struct hazard *h, const struct dfz_event *ev)
{
	uint16_t id, next;

	for (id = dfz__pend_take(&h->p, ev); id; id = next) {
		next = h->p.x[id].next;
		drop(h, id);
	}
}

/* -------------------------------------------------------------- compute */

static void compute_fail(struct hazard *h, const struct dfz_event *ev,
			 enum dfz_class cls, const char *what,
			 unsigned lvl, uint64_t at, uint16_t other)
{
	const struct dfz__pend_x *o = &h->p.x[other];
	struct dfz_evidence x = dfz_evidence_none();

	x.handle = other ? o->handle : NULL;
	x.step = (int64_t)ev->step;
	x.xfer = other ? o->seq : -1;
	x.level = lvl;
	x.off = (int64_t)at;
	dfz_oracle_fail(h->set, "hazard", cls, &x,
			"compute %s %s[0x%llx] %s transfer #%lld (%s, "
			"issued step %llu, not waited) %s",
			ev->kind == DFZ_EV_COMPUTE_READ ? "reads" : "writes",
			dfz__level_name(lvl), (unsigned long long)at,
			cls == DFZ_CLASS_HAZARD_RBW ? "before the wait of" :
						      "while",
			other ? (long long)o->seq : -1LL,
			dfz__owner(h->set, o->engine, o->handle, o->id),
			(unsigned long long)o->step, what);
}

/* A compute access of [@off, @off + @len) of @l wakes the lazy
 * transfers it meets. */
static void wake_span(struct hazard *h, unsigned l, uint64_t off,
		      uint64_t len)
{
	struct hz_range g[2] = { { (uint8_t)l, off, off + len },
				 { .l = DFZ_NLEVELS } };

	wake(h, g);
}

static void on_compute_read(struct hazard *h, const struct dfz_event *ev)
{
	uint64_t off = ev->src.off, len = ev->src.len, i;
	unsigned l = ev->src.level;
	const uint8_t *ok;

	if (!clamp(l, &off, &len))
		return;
	wake_span(h, l, off, len);
	ok = h->settled[l];
	if (!may_be_marked(h, l, off, len))
		return;
	i = busy(h, l, off, len, false);
	if (i == off + len)
		return;
	if (ok && ok[i] == h->gen)
		compute_fail(h, ev, DFZ_CLASS_HAZARD_RACE, "overwrites it", l,
			     i, h->w[l][i]);
	else
		compute_fail(h, ev, DFZ_CLASS_HAZARD_RBW, "that loads it", l,
			     i, h->w[l][i]);
}

static void on_compute_write(struct hazard *h, const struct dfz_event *ev)
{
	uint64_t off = ev->dst.off, len = ev->dst.len, i;
	unsigned l = ev->dst.level;

	if (!clamp(l, &off, &len))
		return;
	wake_span(h, l, off, len);
	i = may_be_marked(h, l, off, len) ? busy(h, l, off, len, true) :
					     off + len;
	if (i < off + len) {
		uint16_t w = h->w[l][i];

		compute_fail(h, ev, DFZ_CLASS_HAZARD_RACE,
			     w ? "writes it" : "reads it", l, i,
			     w ? w : find_reader(h, l, i));
		return;
	}
	if (h->settled[l])
		settle(h, l, off, len);
}

/* A fresh allocation holds nothing settled, whatever it held before: of
 * its bytes, those this run stamped (earlier runs' stamps are stale). */
static void on_alloc(struct hazard *h, const struct dfz_event *ev)
{
	uint64_t off = ev->dst.off, len = ev->dst.len, lo, hi;
	unsigned l = ev->dst.level;

	if (!clamp(l, &off, &len) || !h->settled[l])
		return;
	lo = off > h->slo[l] ? off : h->slo[l];
	hi = off + len < h->shi[l] ? off + len : h->shi[l];
	if (lo < hi)
		memset(h->settled[l] + lo, 0, hi - lo);
}

static void hz_event(void *st, const struct dfz_event *ev)
{
	struct hazard *h = st;

	switch (ev->kind) {
	case DFZ_EV_ALLOC:
		on_alloc(h, ev);
		break;
	case DFZ_EV_ISSUE:
		on_issue(h, ev);
		break;
	case DFZ_EV_WAITED:
		on_waited(h, ev);
		break;
	case DFZ_EV_COMPUTE_READ:
		on_compute_read(h, ev);
		break;
	default:
		on_compute_write(h, ev);
		break;
	}
}

static const struct dfz_oracle_ops ops = {
	.name = "hazard",
	.size = sizeof(struct hazard),
	.events = DFZ_EV_BIT(DFZ_EV_ALLOC) | DFZ_EV_BIT(DFZ_EV_ISSUE) |
		  DFZ_EV_BIT(DFZ_EV_WAITED) | DFZ_EV_BIT(DFZ_EV_COMPUTE_READ) |
		  DFZ_EV_BIT(DFZ_EV_COMPUTE_WRITE),
	.init = hz_init,
	.fini = hz_fini,
	.reset = hz_reset,
	.event = hz_event,
};

const struct dfz_oracle_ops *dfz__oracle_hazard(void)
{
	return &ops;
}
