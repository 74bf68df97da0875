// SPDX-License-Identifier: MIT
/*
 * desc.clobbered: the descriptor a request carries must stay as issued
 * until the engine is done with it. The oracle remembers the descriptor of
 * every ISSUE (a re-issue replaces it), compares it with what the engine
 * reads at each SERVICE, and checks that every MOVE of the request stays
 * inside the issued descriptor's footprint on both sides.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle_int.h"

#define D_MAX 1024                   /* distinct requests tracked per run */

struct d_entry {
	uint64_t step;               /* of the ISSUE */
	int64_t xfer;
	struct dfz_desc desc;        /* as issued */
	struct dfz__fp ext;          /* its footprints, computed at issue */
	struct dfz__fp loc;
};

struct desc {
	struct dfz_oracles *set;
	struct dfz__ptab tab;
	struct d_entry *e;           /* D_MAX, indexed by the table */
	const void *last;            /* request of the last lookup ... */
	int32_t last_i;              /* ... its entry (moves come in runs) */
};

static int d_init(void *st)
{
	struct desc *d = st;

	d->e = calloc(D_MAX, sizeof(*d->e));
	if (!d->e)
		return DFZ_ENOMEM;
	return dfz__ptab_init(&d->tab, D_MAX);
}

static void d_fini(void *st)
{
	struct desc *d = st;

	dfz__ptab_fini(&d->tab);
	free(d->e);
}

static void d_reset(void *st, struct dfz_oracles *set, struct dfz_rt *rt)
{
	struct desc *d = st;

	(void)rt;
	d->set = set;
	d->last = NULL;
	dfz__ptab_clear(&d->tab);
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

static struct dfz_evidence d_evidence(const struct dfz_event *ev,
				      const struct d_entry *e)
{
	struct dfz_evidence x = dfz_evidence_none();

	x.handle = ev->handle;
	x.step = (int64_t)ev->step;
	x.xfer = e->xfer;
	return x;
}

static void on_service(struct desc *d, const struct dfz_event *ev,
		       const struct d_entry *e)
{
	uint64_t exp = 0, got = 0;
	const char *field = desc_diff(&e->desc, &ev->desc, &exp, &got);
	struct dfz_evidence x;

	if (!field)
		return;
	x = d_evidence(ev, e);
	dfz_oracle_fail(d->set, "desc", DFZ_CLASS_DESC_CLOBBERED, &x,
			"request %s descriptor changed between issue (step "
			"%llu) and service (step %llu): %s expected %llu, "
			"got %llu", dfz__where(d->set, ev->handle), (unsigned long long)e->step,
			(unsigned long long)ev->step, field,
			(unsigned long long)exp, (unsigned long long)got);
}

static void on_move(struct desc *d, const struct dfz_event *ev,
		    const struct d_entry *e)
{
	const struct dfz_desc *dd = &e->desc;
	const struct dfz_span *ext = dd->ext2loc ? &ev->src : &ev->dst;
	const struct dfz_span *loc = dd->ext2loc ? &ev->dst : &ev->src;
	bool ext_bad = !dfz__fp_has(&e->ext, ext);
	const struct dfz_span *bad = ext_bad ? ext : loc;
	struct dfz_evidence x;

	if ((!ext_bad && dfz__fp_has(&e->loc, loc)) ||
	    (ext->len == 0 && loc->len == 0))
		return;
	x = d_evidence(ev, e);
	x.level = bad->level;
	x.off = bad->off;
	dfz_oracle_fail(d->set, "desc", DFZ_CLASS_DESC_CLOBBERED, &x,
			"request %s moved %s[0x%x+%u], outside the %s "
			"footprint issued at step %llu (ext %s[0x%x] lines "
			"of %u every %u, loc %s[0x%x], %u bytes)",
			dfz__where(d->set, ev->handle), dfz__level_name(bad->level), bad->off,
			bad->len, ext_bad ? "external" : "local",
			(unsigned long long)e->step,
			dfz__level_name(dd->ext_level), dd->ext_off,
			dd->is_2d ? dd->length : dd->size,
			dd->is_2d ? dd->ext_stride : dd->size,
			dfz__level_name(dd->loc_level), dd->loc_off, dd->size);
}

static void d_event(void *st, const struct dfz_event *ev)
{
	struct desc *d = st;
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

const struct dfz_oracle_ops dfz__oracle_desc = {
	.name = "desc",
	.size = sizeof(struct desc),
	.events = DFZ_EV_BIT(DFZ_EV_ISSUE) | DFZ_EV_BIT(DFZ_EV_SERVICE) |
		  DFZ_EV_BIT(DFZ_EV_MOVE),
	.init = d_init,
	.fini = d_fini,
	.reset = d_reset,
	.event = d_event,
};
