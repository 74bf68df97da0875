// SPDX-License-Identifier: MIT
/*
 * The record of call sites that turns an oracle's finding into the
 * user's file:line: the site of every issue in this run (and, outside
 * fuzz executions, its call stack), the last issue on each handle, and,
 * when the first finding arrives, the offending call and the earlier call
 * it conflicts with, and the block it is about (blocks.c).
 *
 * The earlier call is the transfer the finding's evidence names: the
 * pending transfer it conflicts with (ev.other: a race between two
 * issues), else the transfer it is about when that is an earlier one
 * (ev.xfer: the transfer still in flight at an early wait, the one whose
 * source changed, the one a read came before the wait of), else the last
 * issue on the handle of the call being served (a request reused).
 */
#include "dropin_int.h"

static bool same_key(const struct dfz__key *k, const struct dfz_event *ev)
{
	return k->engine == ev->engine && (ev->engine == DFZ_ENGINE_RAM ?
	       k->handle == ev->handle : k->id == ev->id);
}

/* The first slot of @ev's handle in the keys' index (a ram request by its
 * address, an engine's transfer by its id). */
static uint32_t key_home(const struct dfz_event *ev)
{
	uint64_t v = ev->engine == DFZ_ENGINE_RAM ?
		     (uint64_t)(uintptr_t)ev->handle : (uint64_t)ev->id;

	v = (v ^ ev->engine) * 0x9e3779b97f4a7c15ull;
	return (uint32_t)(v >> 32) & (DFZ__DROPIN_KEY_SLOTS - 1);
}

/* The slot of @ev's handle: its key's, or the free one it would take. */
static uint16_t *key_slot(struct dfz__dropin *d, const struct dfz_event *ev)
{
	uint32_t i = key_home(ev);

	while (d->key_slot[i] && !same_key(&d->key[d->key_slot[i] - 1], ev))
		i = (i + 1) & (DFZ__DROPIN_KEY_SLOTS - 1);
	return &d->key_slot[i];
}

static struct dfz__key *key_of(struct dfz__dropin *d, const struct dfz_event *ev)
{
	uint16_t slot = *key_slot(d, ev);

	return slot ? &d->key[slot - 1] : NULL;
}

/*
 * A run's keys forgotten: their slots only (the index is twice as large
 * as the keys a run can hold, so a probe always ends at a free slot).
 * Newest first: a key's probe then passes the same slots as when it was
 * placed, all still held by older keys, and ends at its own; oldest first
 * would stop at a slot freed before it and leave the key's own set.
 */
void dfz__sites_reset(struct dfz__dropin *d)
{
	for (uint32_t k = d->nkeys; k-- > 0;) {
		struct dfz_event ev = { .engine = d->key[k].engine,
					.handle = d->key[k].handle,
					.id = d->key[k].id };

		*key_slot(d, &ev) = 0;
	}
	d->nkeys = 0;
}

/* Call stacks: in bare runs and replays, never in a fuzz execution. */
static bool stacks(const struct dfz__dropin *d)
{
	return !d->fuzzing;
}

void dfz__sites_issue(struct dfz__dropin *d, const struct dfz_event *ev)
{
	uint16_t *slot = key_slot(d, ev);

	if (d->nissue < DFZ__DROPIN_SITES)
		d->issue_site[d->nissue] = d->cur;
	if (stacks(d))
		dfz__stack_keep(d->nissue);
	dfz__golden_issue(d->nissue, &ev->desc);
	if (!*slot && d->nkeys < DFZ__DROPIN_KEYS)
		*slot = (uint16_t)++d->nkeys;
	if (*slot)
		d->key[*slot - 1] = (struct dfz__key){ ev->engine, ev->handle,
						       ev->id, d->nissue };
	d->nissue++;
}

static struct dfz_site issue_site(const struct dfz__dropin *d, int64_t xfer)
{
	if (xfer >= 0 && xfer < d->nissue && xfer < DFZ__DROPIN_SITES)
		return d->issue_site[xfer];
	return (struct dfz_site){ NULL, 0, NULL };
}

/* The earlier transfer finding @f during @ev conflicts with, or -1. */
static int64_t prior_xfer(struct dfz__dropin *d, const struct dfz_event *ev,
			  const struct dfz_finding *f)
{
	struct dfz__key *k = ev ? key_of(d, ev) : NULL;

	if (f->ev.other >= 0 && f->ev.other < d->nissue)
		return f->ev.other;
	if (f->ev.xfer >= 0 && f->ev.xfer < d->nissue)
		return f->ev.xfer;   /* not the one being issued now */
	return k ? k->xfer : -1;
}

static void set_prior(struct dfz__dropin *d, int64_t xfer)
{
	d->res.prior = issue_site(d, xfer);
	d->res.prior_stack.n = 0;
	if (d->res.prior.file && stacks(d))
		dfz__stack_of(xfer, &d->res.prior_stack);
}

/* The first finding arrived during @ev (NULL: a post-check): name the
 * call being served and the earlier issue it conflicts with. */
void dfz__sites_finding(struct dfz__dropin *d, const struct dfz_event *ev)
{
	const struct dfz_finding *f = dfz_oracles_finding(d->set);

	d->sited = true;
	d->res.site = d->cur;
	d->res.site_stack.n = 0;
	if (ev && stacks(d))
		dfz__stack_capture(&d->res.site_stack);
	set_prior(d, prior_xfer(d, ev, f));
	if (!ev && f->ev.xfer >= 0) {
		/* A post-check (a leak): the issuing call is the offender. */
		d->res.site = issue_site(d, f->ev.xfer);
		if (stacks(d))
			dfz__stack_of(f->ev.xfer, &d->res.site_stack);
		set_prior(d, -1);
		if (!d->res.site.file) {
			d->res.site = d->cur;
			d->res.site_stack.n = 0;
		}
	}
	dfz__blocks_name(d);
}

void dfz__sites_prior(struct dfz__dropin *d, int64_t xfer)
{
	set_prior(d, xfer);
}

void dfz__sites_here(struct dfz__dropin *d)
{
	d->res.site = d->cur;
	d->res.site_stack.n = 0;
	if (stacks(d))
		dfz__stack_capture(&d->res.site_stack);
	dfz__blocks_name(d);
}
