// SPDX-License-Identifier: MIT
/*
 * hazard.read-before-wait and hazard.race, judged by the protocol rather
 * than the schedule: a transfer is pending from its ISSUE until a
 * successful wait on its request, whether or not the engine has already
 * moved its bytes. Per-level shadow memory holds, for each byte, the
 * pending transfer that writes it, how many pending transfers read it,
 * and (local levels) whether it holds settled data: written by a waited
 * transfer or by compute. Pending transfers may not overlap where one of
 * them writes; compute may not read bytes a pending transfer writes, nor
 * write bytes a pending transfer reads or writes.
 *
 * The shadow is allocated once at the level caps; a run leaves marks only
 * for the transfers still pending at its end, which reset undoes, and the
 * settled bits are generation stamps, so a reset costs what the run used.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle_int.h"

#define HZ_XFERS 4096                /* pending transfers tracked */
#define HZ_HANDLES 1024              /* requests tracked per run */

static const uint32_t level_cap[DFZ_NLEVELS] = {
	[DFZ_L3] = DFZ_CAP_L3, [DFZ_L2] = DFZ_CAP_L2, [DFZ_L1] = DFZ_CAP_L1,
};

struct hz_cell {
	uint16_t w;                  /* pending writer id, 0: none */
	uint16_t r;                  /* pending readers */
};

struct hz_xfer {
	const void *handle;
	struct dfz_desc desc;
	uint64_t step;               /* of the ISSUE */
	int64_t seq;                 /* issue sequence number */
	uint16_t next;               /* next pending id on the same handle */
	bool live;
};

struct hazard {
	struct dfz_oracles *set;
	struct dfz_rt *rt;
	struct hz_cell *cell[DFZ_NLEVELS];
	uint8_t *settled[DFZ_NLEVELS]; /* local levels: == gen when settled */
	uint8_t gen;
	struct hz_xfer *x;           /* ids 1..HZ_XFERS */
	uint16_t *freeid;            /* stack of retired ids */
	uint32_t nfree;
	uint32_t nextid;             /* ids below it have been used this run */
	struct dfz__ptab tab;        /* request -> index into head */
	uint16_t *head;              /* first pending id per request */
};

static int hz_init(void *st)
{
	struct hazard *h = st;
	unsigned l;

	for (l = 0; l < DFZ_NLEVELS; l++) {
		h->cell[l] = calloc(level_cap[l], sizeof(*h->cell[l]));
		if (!h->cell[l])
			return DFZ_ENOMEM;
		if (l == DFZ_L3)
			continue;
		h->settled[l] = calloc(level_cap[l], 1);
		if (!h->settled[l])
			return DFZ_ENOMEM;
	}
	h->x = calloc(HZ_XFERS + 1, sizeof(*h->x));
	h->freeid = calloc(HZ_XFERS, sizeof(*h->freeid));
	h->head = calloc(HZ_HANDLES, sizeof(*h->head));
	h->nextid = 1;
	if (!h->x || !h->freeid || !h->head)
		return DFZ_ENOMEM;
	return dfz__ptab_init(&h->tab, HZ_HANDLES);
}

static void hz_fini(void *st)
{
	struct hazard *h = st;
	unsigned l;

	for (l = 0; l < DFZ_NLEVELS; l++) {
		free(h->cell[l]);
		free(h->settled[l]);
	}
	free(h->x);
	free(h->freeid);
	free(h->head);
	dfz__ptab_fini(&h->tab);
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

/* The read side of @d is its external side for a load, else local. */
static bool reads_ext(const struct dfz_desc *d)
{
	return d->ext2loc != 0;
}

/*
 * First byte of one side of @d with a pending writer (or, when @readers,
 * a pending reader). Return: true and *lvl, *at set when found.
 */
static bool scan_side(const struct hazard *h, const struct dfz_desc *d,
		      bool ext, bool readers, unsigned *lvl, uint64_t *at)
{
	struct dfz__fp fp;
	uint64_t off, len, i;

	dfz__fp_init(&fp, d, ext);
	while (dfz__fp_next(&fp, &off, &len)) {
		const struct hz_cell *c = h->cell[fp.level < DFZ_NLEVELS ?
						  fp.level : 0];

		if (!clamp(fp.level, &off, &len))
			continue;
		for (i = off; i < off + len; i++)
			if (c[i].w || (readers && c[i].r)) {
				*lvl = fp.level;
				*at = i;
				return true;
			}
	}
	return false;
}

/* Mark (+1) or unmark (-1) one side of pending transfer @id. */
static void mark_side(struct hazard *h, uint16_t id, bool ext, int dir)
{
	const struct dfz_desc *d = &h->x[id].desc;
	bool write = ext != reads_ext(d);
	struct dfz__fp fp;
	uint64_t off, len, i;

	dfz__fp_init(&fp, d, ext);
	while (dfz__fp_next(&fp, &off, &len)) {
		struct hz_cell *c = h->cell[fp.level < DFZ_NLEVELS ?
					    fp.level : 0];
		uint8_t *ok = h->settled[fp.level < DFZ_NLEVELS ?
					 fp.level : 0];

		if (!clamp(fp.level, &off, &len))
			continue;
		for (i = off; i < off + len; i++) {
			if (!write)
				c[i].r = (uint16_t)(c[i].r + dir);
			else if (dir > 0)
				c[i].w = id;
			else if (c[i].w == id)
				c[i].w = 0;
		}
		if (write && dir < 0 && ok)
			memset(ok + off, h->gen, len);
	}
}

static void mark(struct hazard *h, uint16_t id, int dir)
{
	mark_side(h, id, true, dir);
	mark_side(h, id, false, dir);
}

/* A pending transfer whose read side holds @at of @level, or 0. */
static uint16_t find_reader(const struct hazard *h, unsigned level,
			    uint64_t at)
{
	struct dfz_span s = { .level = (uint8_t)level, .off = (uint32_t)at,
			      .len = 1 };
	uint32_t id;

	for (id = 1; id < h->nextid; id++)
		if (h->x[id].live &&
		    dfz__fp_contains(&h->x[id].desc, reads_ext(&h->x[id].desc),
				     &s))
			return (uint16_t)id;
	return 0;
}

static void hz_reset(void *st, struct dfz_oracles *set, struct dfz_rt *rt)
{
	struct hazard *h = st;
	uint32_t id;

	h->set = set;
	h->rt = rt;
	for (id = 1; id < h->nextid; id++)
		if (h->x[id].live) {
			h->x[id].live = false;
			mark(h, (uint16_t)id, -1);
		}
	h->nextid = 1;
	h->nfree = 0;
	dfz__ptab_clear(&h->tab);
	if (++h->gen == 0) {           /* stamps wrapped: clear them once */
		memset(h->settled[DFZ_L2], 0, level_cap[DFZ_L2]);
		memset(h->settled[DFZ_L1], 0, level_cap[DFZ_L1]);
		h->gen = 1;
	}
}

/* ----------------------------------------------------------- transfers */

static void issue_race(struct hazard *h, const struct dfz_event *ev,
		       bool we_write, unsigned lvl, uint64_t at)
{
	const struct hz_cell *c = &h->cell[lvl][at];
	uint16_t other = c->w ? c->w : find_reader(h, lvl, at);
	const struct hz_xfer *o = &h->x[other];
	struct dfz_evidence x = dfz_evidence_none();

	x.handle = ev->handle;
	x.step = (int64_t)ev->step;
	x.xfer = h->set->xfer;
	x.level = lvl;
	x.off = (int64_t)at;
	dfz_oracle_fail(h->set, "hazard", DFZ_CLASS_HAZARD_RACE, &x,
			"transfer #%lld %s %s[0x%llx] while transfer #%lld "
			"(request %p, issued step %llu, not waited) %s it",
			(long long)h->set->xfer, we_write ? "writes" : "reads",
			dfz__level_name(lvl), (unsigned long long)at,
			other ? (long long)o->seq : -1LL, o->handle,
			(unsigned long long)o->step,
			c->w ? "writes" : "reads");
}

static uint16_t new_id(struct hazard *h)
{
	if (h->nfree)
		return h->freeid[--h->nfree];
	if (h->nextid > HZ_XFERS)
		return 0;
	return (uint16_t)h->nextid++;
}

static void on_issue(struct hazard *h, const struct dfz_event *ev)
{
	const struct dfz_desc *d = &ev->desc;
	bool rext = reads_ext(d), added;
	unsigned lvl;
	uint64_t at;
	int32_t hi;
	uint16_t id;

	if (scan_side(h, d, !rext, true, &lvl, &at)) {
		issue_race(h, ev, true, lvl, at);
		return;
	}
	if (scan_side(h, d, rext, false, &lvl, &at)) {
		issue_race(h, ev, false, lvl, at);
		return;
	}
	hi = dfz__ptab_add(&h->tab, ev->handle, &added);
	if (hi < 0 || (id = new_id(h)) == 0)
		return;                   /* over the bounds: not tracked */
	if (added)
		h->head[hi] = 0;
	h->x[id] = (struct hz_xfer){ .handle = ev->handle, .desc = *d,
				     .step = ev->step, .seq = h->set->xfer,
				     .next = h->head[hi], .live = true };
	h->head[hi] = id;
	mark(h, id, +1);
}

static void on_waited(struct hazard *h, const struct dfz_event *ev)
{
	int32_t hi = dfz__ptab_find(&h->tab, ev->handle);
	uint16_t id;

	if (hi < 0 || ev->aux != 0)
		return;
	for (id = h->head[hi]; id; id = h->x[id].next) {
		h->x[id].live = false;
		mark(h, id, -1);
		h->freeid[h->nfree++] = id;
	}
	h->head[hi] = 0;
}

/* -------------------------------------------------------------- compute */

static void compute_fail(struct hazard *h, const struct dfz_event *ev,
			 enum dfz_class cls, const char *what,
			 unsigned lvl, uint64_t at, uint16_t other)
{
	const struct hz_xfer *o = &h->x[other];
	struct dfz_evidence x = dfz_evidence_none();

	x.handle = other ? o->handle : NULL;
	x.step = (int64_t)ev->step;
	x.xfer = other ? o->seq : -1;
	x.level = lvl;
	x.off = (int64_t)at;
	dfz_oracle_fail(h->set, "hazard", cls, &x,
			"compute %s %s[0x%llx] %s transfer #%lld (request %p, "
			"issued step %llu, not waited) %s",
			ev->kind == DFZ_EV_COMPUTE_READ ? "reads" : "writes",
			dfz__level_name(lvl), (unsigned long long)at,
			cls == DFZ_CLASS_HAZARD_RBW ? "before the wait of" :
						      "while",
			other ? (long long)o->seq : -1LL, o->handle,
			(unsigned long long)o->step, what);
}

static void on_compute_read(struct hazard *h, const struct dfz_event *ev)
{
	uint64_t off = ev->src.off, len = ev->src.len, i;
	unsigned l = ev->src.level;
	const uint8_t *ok;

	if (!clamp(l, &off, &len))
		return;
	ok = h->settled[l];
	for (i = off; i < off + len; i++) {
		uint16_t w = h->cell[l][i].w;

		if (!w)
			continue;
		if (ok && ok[i] == h->gen)
			compute_fail(h, ev, DFZ_CLASS_HAZARD_RACE,
				     "overwrites it", l, i, w);
		else
			compute_fail(h, ev, DFZ_CLASS_HAZARD_RBW,
				     "that loads it", l, i, w);
		return;
	}
}

static void on_compute_write(struct hazard *h, const struct dfz_event *ev)
{
	uint64_t off = ev->dst.off, len = ev->dst.len, i;
	unsigned l = ev->dst.level;

	if (!clamp(l, &off, &len))
		return;
	for (i = off; i < off + len; i++) {
		const struct hz_cell *c = &h->cell[l][i];

		if (!c->w && !c->r)
			continue;
		compute_fail(h, ev, DFZ_CLASS_HAZARD_RACE,
			     c->w ? "writes it" : "reads it", l, i,
			     c->w ? c->w : find_reader(h, l, i));
		return;
	}
	if (h->settled[l])
		memset(h->settled[l] + off, h->gen, len);
}

static void hz_event(void *st, const struct dfz_event *ev)
{
	struct hazard *h = st;

	switch (ev->kind) {
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

const struct dfz_oracle_ops dfz__oracle_hazard = {
	.name = "hazard",
	.size = sizeof(struct hazard),
	.events = DFZ_EV_BIT(DFZ_EV_ISSUE) | DFZ_EV_BIT(DFZ_EV_WAITED) |
		  DFZ_EV_BIT(DFZ_EV_COMPUTE_READ) |
		  DFZ_EV_BIT(DFZ_EV_COMPUTE_WRITE),
	.init = hz_init,
	.fini = hz_fini,
	.reset = hz_reset,
	.event = hz_event,
};
