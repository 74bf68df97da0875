// SPDX-License-Identifier: MIT
/*
 * desc.clobbered: the descriptor a request carries must stay as issued
 * until the engine is done with it. The oracle remembers the descriptor of
 * every ram ISSUE (a re-issue replaces it), compares it with what the
 * engine reads at each SERVICE, and checks that every MOVE of the request
 * stays inside the issued descriptor's footprint on both sides.
 *
 * mchan and idma take their descriptors into the engine at issue (a
 * command word, registers), so there is nothing caller-owned to clobber
 * and SERVICE is not compared; their moves are keyed by (engine, id) and
 * must lie inside a transfer still pending on that id (a TID carries every
 * push since its last wait; a txid, one transfer).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle_int.h"

#define D_MAX 1024                   /* distinct requests tracked per run */
#define D_PEND 4096                  /* mchan/idma transfers pending */
#define D_ORDER 8192                 /* issue order remembered (2^k) */
#define D_AHEAD 32                   /* issues looked ahead of a match */

struct d_entry {
	uint64_t step;               /* of the ISSUE */
	int64_t xfer;
	struct dfz_desc desc;        /* as issued */
	struct dfz__fp ext;          /* its footprints, computed at issue */
	struct dfz__fp loc;
};

/* The footprints of a pending mchan/idma transfer, by pending id. */
struct d_fp {
	struct dfz__fp ext;
	struct dfz__fp loc;
};

struct desc {
	struct dfz_oracles *set;
	struct dfz__ptab tab;
	struct d_entry *e;           /* D_MAX, indexed by the table */
	const void *last;            /* request of the last lookup ... */
	int32_t last_i;              /* ... its entry (moves come in runs) */
	struct dfz__pend pend;       /* mchan/idma transfers not yet waited */
	struct d_fp *fp;             /* D_PEND + 1, by pending id */
	uint16_t hit;                /* pending id of the last move matched */
	bool overflow;               /* a transfer could not be tracked */
	uint16_t *order;             /* D_ORDER: pending id by issue seq */
};

static int d_init(void *st)
{
	struct desc *d = st;

	d->e = calloc(D_MAX, sizeof(*d->e));
	d->fp = calloc(D_PEND + 1, sizeof(*d->fp));
	d->order = calloc(D_ORDER, sizeof(*d->order));
	if (!d->e || !d->fp || !d->order ||
	    dfz__pend_init(&d->pend, D_PEND, 1) != 0)
		return DFZ_ENOMEM;
	return dfz__ptab_init(&d->tab, D_MAX);
}

static void d_fini(void *st)
{
	struct desc *d = st;

	dfz__ptab_fini(&d->tab);
	dfz__pend_fini(&d->pend);
	free(d->e);
	free(d->fp);
	free(d->order);
}

static void d_reset(void *st, struct dfz_oracles *set, struct dfz_rt *rt)
{
	struct desc *d = st;

	(void)rt;
	d->set = set;
	d->last = NULL;
	d->hit = 0;
	d->overflow = false;
	dfz__ptab_clear(&d->tab);
	dfz__pend_clear(&d->pend);
}

/*
 * The first field where @b differs from @a. Line length and strides only
 * mean something for a 2-D descriptor.
 */
static const char *desc_diff(const struct dfz_desc *a,
			     const struct dfz_desc *b, uint64_t *exp,
			     uint64_t *got)
{
#define DIFF(f)                              \
	do {                                 \
		if (a->f != b->f) {          \
			*exp = a->f;         \
			*got = b->f;         \
			return #f;           \
		}                            \
	} while (0)
	DIFF(ext_level);
	DIFF(loc_level);
	DIFF(ext2loc);
	DIFF(is_2d);
	DIFF(ext_off);
	DIFF(loc_off);
	DIFF(size);
	if (a->is_2d) {
		DIFF(length);
		DIFF(ext_stride);
		DIFF(loc_stride);
	}
#undef DIFF
	return NULL;
}

static void on_service(struct desc *d, const struct dfz_event *ev,
		       const struct d_entry *e)
{
	uint64_t exp = 0, got = 0;
	const char *field = desc_diff(&e->desc, &ev->desc, &exp, &got);
	struct dfz_evidence x;

	if (!field)
		return;
	x = dfz__evidence_of(ev, e->xfer);
	dfz_oracle_fail(d->set, "desc", DFZ_CLASS_DESC_CLOBBERED, &x,
			"request %s descriptor changed between issue (step "
			"%llu) and service (step %llu): %s expected %llu, "
			"got %llu", dfz__where(d->set, ev->handle), (unsigned long long)e->step,
			(unsigned long long)ev->step, field,
			(unsigned long long)exp, (unsigned long long)got);
}

/* The external and local spans of line @k of move @ev for a transfer
 * like @dd. */
static void move_spans(const struct dfz_event *ev, uint32_t k,
		       const struct dfz_desc *dd, struct dfz_span *ext,
		       struct dfz_span *loc)
{
	if (dd->ext2loc)
		dfz_move_line(ev, k, loc, ext);
	else
		dfz_move_line(ev, k, ext, loc);
}

/* Do the @n lines from @first, @pitch apart, all lie inside @fp? True
 * when the first and the last do and the ones between (if any) follow:
 * @fp is one range, or its lines are @pitch apart too (then line k sits
 * in the footprint's line after line k - 1's, at the same column, and
 * every footprint line before the last is whole). False: not known so. */
static bool lines_inside(const struct dfz__fp *fp,
			 const struct dfz_span *first, uint32_t n,
			 uint32_t pitch)
{
	uint64_t end = first->off + (uint64_t)(n - 1) * pitch;
	struct dfz_span last = *first;

	if (end > UINT32_MAX || (n > 2 && fp->stride && fp->stride != pitch))
		return false;
	last.off = (uint32_t)end;
	return dfz__fp_has(fp, first) && (n == 1 || dfz__fp_has(fp, &last));
}

/* Is every line of move @ev inside footprints @fext and @floc? Else
 * @k: the first line outside; @ext_bad: whether its external side is.
 * A move is judged by its first and last lines where that tells
 * (lines_inside()), else line by line. */
static bool move_inside(const struct dfz_event *ev, const struct dfz_desc *dd,
			const struct dfz__fp *fext, const struct dfz__fp *floc,
			bool *ext_bad, uint32_t *k)
{
	struct dfz_span ext, loc;
	uint32_t n = dfz_move_lines(ev);

	*ext_bad = false;
	move_spans(ev, 0, dd, &ext, &loc);
	if (ext.len && loc.len &&
	    lines_inside(fext, &ext, n, dd->ext2loc ? ev->src_pitch :
						      ev->dst_pitch) &&
	    lines_inside(floc, &loc, n, dd->ext2loc ? ev->dst_pitch :
						      ev->src_pitch))
		return true;
	for (*k = 0; *k < n; ++*k) {
		move_spans(ev, *k, dd, &ext, &loc);
		if (ext.len == 0 && loc.len == 0)
			continue;
		*ext_bad = !dfz__fp_has(fext, &ext);
		if (*ext_bad || !dfz__fp_has(floc, &loc))
			return false;
	}
	return true;
}

static void move_fail(struct desc *d, const struct dfz_event *ev,
		      const char *owner, const struct dfz_desc *dd,
		      uint64_t step, int64_t xfer, bool ext_bad, uint32_t k)
{
	struct dfz_span ext, loc;
	const struct dfz_span *bad;
	struct dfz_evidence x = dfz__evidence_of(ev, xfer);

	move_spans(ev, k, dd, &ext, &loc);
	bad = ext_bad ? &ext : &loc;
	x.level = bad->level;
	x.off = bad->off;
	dfz_oracle_fail(d->set, "desc", DFZ_CLASS_DESC_CLOBBERED, &x,
			"%s moved %s[0x%x+%u], outside the %s "
			"footprint issued at step %llu (ext %s[0x%x] lines "
			"of %u every %u, loc %s[0x%x], %u bytes)",
			owner, dfz__level_name(bad->level), bad->off,
			bad->len, ext_bad ? "external" : "local",
			(unsigned long long)step,
			dfz__level_name(dd->ext_level), dd->ext_off,
			dd->is_2d ? dd->length : dd->size,
			dd->is_2d ? dd->ext_stride : dd->size,
			dfz__level_name(dd->loc_level), dd->loc_off, dd->size);
}

static void on_move(struct desc *d, const struct dfz_event *ev,
		    const struct d_entry *e)
{
	bool ext_bad;
	uint32_t k;

	if (!move_inside(ev, &e->desc, &e->ext, &e->loc, &ext_bad, &k))
		move_fail(d, ev, dfz__owner(d->set, DFZ_ENGINE_RAM, ev->handle,
					    -1),
			  &e->desc, e->step, e->xfer, ext_bad, k);
}

static void ram_event(struct desc *d, const struct dfz_event *ev)
{
	struct d_entry *e;
	bool added;
	int32_t i;

	if (ev->kind == DFZ_EV_ISSUE) {
		i = dfz__ptab_add(&d->tab, ev->handle, &added);
		if (i < 0)
			return;
		e = &d->e[i];
		e->step = ev->step;
		e->xfer = d->set->xfer;
		e->desc = ev->desc;
		dfz__fp_init(&e->ext, &e->desc, true);
		dfz__fp_init(&e->loc, &e->desc, false);
		d->last = ev->handle;
		d->last_i = i;
		return;
	}
	if (ev->kind == DFZ_EV_WAITED)
		return;
	if (ev->handle != d->last) {
		d->last = ev->handle;
		d->last_i = dfz__ptab_find(&d->tab, ev->handle);
	}
	i = d->last_i;
	if (i < 0)
		return;
	if (ev->kind == DFZ_EV_SERVICE)
		on_service(d, ev, &d->e[i]);
	else
		on_move(d, ev, &d->e[i]);
}

/* ------------------------------------------------------ mchan, idma */

static bool id_inside(const struct desc *d, uint16_t id,
		      const struct dfz_event *ev, bool *ext_bad, uint32_t *k)
{
	const struct dfz__pend_x *p = &d->pend.x[id];

	return move_inside(ev, &p->desc, &d->fp[id].ext, &d->fp[id].loc,
			   ext_bad, k);
}

/* Is pending @id live, of @ev's (engine, id), and holding move @ev? */
static bool id_holds(const struct desc *d, uint16_t id,
		     const struct dfz_event *ev)
{
	const struct dfz__pend_x *p = &d->pend.x[id];
	bool ext_bad;
	uint32_t k;

	return id && p->live && p->engine == ev->engine && p->id == ev->id &&
	       id_inside(d, id, ev, &ext_bad, &k);
}

/*
 * Engines serve their queues in order, so a move belongs to the transfer
 * the last move matched or to one issued shortly after it: try those
 * before walking the whole chain.
 */
static bool id_near(struct desc *d, const struct dfz_event *ev)
{
	int64_t s = d->pend.x[d->hit].seq, k;
	uint16_t id;

	if (id_holds(d, d->hit, ev))
		return true;
	for (k = 1; d->hit && k <= D_AHEAD; k++) {
		id = d->order[(uint64_t)(s + k) % D_ORDER];
		if (d->pend.x[id].seq == s + k && id_holds(d, id, ev)) {
			d->hit = id;
			return true;
		}
	}
	return false;
}

/*
 * A move of (engine, id) must lie inside a transfer pending on that id;
 * otherwise it is judged against the oldest of them.
 */
static void id_move(struct desc *d, const struct dfz_event *ev)
{
	const struct dfz__pend_x *p;
	uint16_t id, oldest = 0;
	bool ext_bad, bad_oldest = false;
	uint32_t k, k_oldest = 0;

	if (id_near(d, ev) || d->overflow)
		return;                   /* untracked moves are not judged */
	for (id = dfz__pend_first(&d->pend, ev); id; id = p->next) {
		p = &d->pend.x[id];
		if (p->id != ev->id)
			continue;
		if (id_inside(d, id, ev, &ext_bad, &k)) {
			d->hit = id;
			return;
		}
		oldest = id;              /* chains run newest first */
		bad_oldest = ext_bad;
		k_oldest = k;
	}
	if (!oldest)
		return;                   /* not tracked: nothing to judge */
	p = &d->pend.x[oldest];
	move_fail(d, ev, dfz__owner(d->set, ev->engine, ev->handle, ev->id),
		  &p->desc, p->step, p->seq, bad_oldest, k_oldest);
}

static void id_event(struct desc *d, const struct dfz_event *ev)
{
	uint16_t id;

	switch (ev->kind) {
	case DFZ_EV_ISSUE:
		id = dfz__pend_add(&d->pend, ev, d->set->xfer);
		if (!id) {
			d->overflow = true;  /* its moves may match nothing */
			return;
		}
		d->pend.x[id].live = true;
		d->order[(uint64_t)d->set->xfer % D_ORDER] = id;
		dfz__fp_init(&d->fp[id].ext, &ev->desc, true);
		dfz__fp_init(&d->fp[id].loc, &ev->desc, false);
		break;
	case DFZ_EV_WAITED:
		dfz__pend_take(&d->pend, ev);
		break;
	case DFZ_EV_MOVE:
		id_move(d, ev);
		break;
	default:
		break;
	}
}

static void d_event(void *st, const struct dfz_event *ev)
{
	struct desc *d = st;

	if (ev->engine == DFZ_ENGINE_RAM)
		ram_event(d, ev);
	else
		id_event(d, ev);
}

static const struct dfz_oracle_ops ops = {
	.name = "desc",
	.size = sizeof(struct desc),
	.events = DFZ_EV_BIT(DFZ_EV_ISSUE) | DFZ_EV_BIT(DFZ_EV_SERVICE) |
		  DFZ_EV_BIT(DFZ_EV_MOVE) | DFZ_EV_BIT(DFZ_EV_WAITED),
	.init = d_init,
	.fini = d_fini,
	.reset = d_reset,
	.event = d_event,
};

const struct dfz_oracle_ops *dfz__oracle_desc(void)
{
	return &ops;
}
