// SPDX-License-Identifier: MIT
/*
 * The record of call sites that turns an oracle's finding into the
 * user's file:line: the site of every issue in this run, the last issue
 * on each handle, and, when the first finding arrives, the offending call
 * and the earlier call it conflicts with.
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

void dfz__sites_issue(struct dfz__dropin *d, const struct dfz_event *ev)
{
	struct dfz__key *k = key_of(d, ev);

	if (d->nissue < DFZ__DROPIN_SITES)
		d->issue_site[d->nissue] = d->cur;
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

/* The first finding arrived during @ev (NULL: a post-check): name the
 * call being served and the earlier issue on the same handle. */
void dfz__sites_finding(struct dfz__dropin *d, const struct dfz_event *ev)
{
	const struct dfz_finding *f = dfz_oracles_finding(d->set);
	struct dfz__key *k = ev ? key_of(d, ev) : NULL;

	d->sited = true;
	d->res.site = d->cur;
	d->res.prior = issue_site(d, k ? k->xfer : f->ev.xfer);
	/* An early wait conflicts with the transfer still in flight. */
	if (f->cls == DFZ_CLASS_DMA_EARLY_WAIT && f->ev.xfer >= 0)
		d->res.prior = issue_site(d, f->ev.xfer);
	if (!ev && f->ev.xfer >= 0) {
		/* A post-check (a leak): the issuing call is the offender. */
		d->res.site = issue_site(d, f->ev.xfer);
		d->res.prior = (struct dfz_site){ NULL, 0, NULL };
		if (!d->res.site.file)
			d->res.site = d->cur;
	}
}
