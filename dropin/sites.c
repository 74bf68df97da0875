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

static struct dfz__key *key_of(struct dfz__dropin *d, const struct dfz_event *ev)
{
	for (uint32_t i = 0; i < d->nkeys; i++) {
		struct dfz__key *k = &d->key[i];

		if (k->engine == ev->engine && (ev->engine == DFZ_ENGINE_RAM ?
		    k->handle == ev->handle : k->id == ev->id))
			return k;
	}
	return NULL;
}

/* Call stacks: in bare runs and replays, never in a fuzz execution. */
static bool stacks(const struct dfz__dropin *d)
{
	return !d->fuzzing;
}

void dfz__sites_issue(struct dfz__dropin *d, const struct dfz_event *ev)
{
	struct dfz__key *k = key_of(d, ev);

	if (d->nissue < DFZ__DROPIN_SITES)
		d->issue_site[d->nissue] = d->cur;
	if (stacks(d))
		dfz__stack_keep(d->nissue);
	dfz__golden_issue(d->nissue, &ev->desc);
	if (!k && d->nkeys < DFZ__DROPIN_KEYS)
		k = &d->key[d->nkeys++];
	if (k)
		*k = (struct dfz__key){ ev->engine, ev->handle, ev->id,
					d->nissue };
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
