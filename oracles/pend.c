// SPDX-License-Identifier: MIT
/*
 * The pending-transfer table the hazard and desc oracles share: every
 * transfer from its ISSUE until the wait that retires it, chained by what
 * the engine's waits name. A ram request is keyed by its address, an mchan
 * TID by its number, idma transfers by txid in one chain. The keys are the
 * oracle's reading of each engine's documented wait semantics, not the
 * engines' own bookkeeping. Allocated once; a run costs what it used.
 */
#include <stdlib.h>
#include <string.h>

#include "oracle_int.h"

/* Chain of the mchan TIDs and of idma, after the ram requests'. */
#define CHAIN_TID(p, tid) ((p)->nreq + (uint32_t)(tid))
#define CHAIN_IDMA(p) ((p)->nreq + DFZ__MCHAN_TIDS)

int dfz__pend_init(struct dfz__pend *p, uint32_t max, uint32_t requests)
{
	memset(p, 0, sizeof(*p));
	if (max > UINT16_MAX)
		max = UINT16_MAX;
	p->max = max;
	p->nreq = requests;
	p->nextid = 1;
	p->x = calloc(max + 1, sizeof(*p->x));
	p->freeid = calloc(max, sizeof(*p->freeid));
	p->head = calloc(requests + DFZ__MCHAN_TIDS + 1, sizeof(*p->head));
	if (!p->x || !p->freeid || !p->head)
		return DFZ_ENOMEM;
	return dfz__ptab_init(&p->tab, requests);
}

void dfz__pend_fini(struct dfz__pend *p)
{
	free(p->x);
	free(p->freeid);
	free(p->head);
	dfz__ptab_fini(&p->tab);
}

void dfz__pend_clear(struct dfz__pend *p)
{
	uint32_t id;

	for (id = 1; id < p->nextid; id++)
		p->x[id].live = false;
	memset(p->head + p->nreq, 0,
	       (DFZ__MCHAN_TIDS + 1) * sizeof(*p->head));
	dfz__ptab_clear(&p->tab);
	p->nextid = 1;
	p->nfree = 0;
}

/* The chain of @ev, or -1; @add inserts a new ram request. */
static int64_t chain_of(struct dfz__pend *p, const struct dfz_event *ev,
			bool add)
{
	bool added = false;
	int32_t i;

	switch (ev->engine) {
	case DFZ_ENGINE_RAM:
		i = add ? dfz__ptab_add(&p->tab, ev->handle, &added) :
			  dfz__ptab_find(&p->tab, ev->handle);
		if (added)
			p->head[i] = 0;
		return i;
	case DFZ_ENGINE_MCHAN:
		if (ev->id < 0 || ev->id >= DFZ__MCHAN_TIDS)
			return -1;
		return CHAIN_TID(p, ev->id);
	case DFZ_ENGINE_IDMA:
		return CHAIN_IDMA(p);
	default:
		return -1;
	}
}

uint16_t dfz__pend_add(struct dfz__pend *p, const struct dfz_event *ev,
		       int64_t seq)
{
	int64_t c = chain_of(p, ev, true);
	uint16_t id;

	if (c < 0)
		return 0;
	if (p->nfree)
		id = p->freeid[--p->nfree];
	else if (p->nextid <= p->max)
		id = (uint16_t)p->nextid++;
	else
		return 0;
	p->x[id] = (struct dfz__pend_x){
		.handle = ev->handle, .desc = ev->desc, .step = ev->step,
		.seq = seq, .id = ev->id, .engine = ev->engine,
		.live = false, .next = p->head[c],
	};
	p->head[c] = id;
	return id;
}

uint16_t dfz__pend_first(const struct dfz__pend *p,
			 const struct dfz_event *ev)
{
	int64_t c = chain_of((struct dfz__pend *)p, ev, false);

	return c < 0 ? 0 : p->head[c];
}

/* Does a successful wait @ev retire pending transfer @x of its chain? */
static bool retires(const struct dfz_event *ev, const struct dfz__pend_x *x)
{
	return ev->engine != DFZ_ENGINE_IDMA || ev->id < 0 ||
	       x->id <= dfz__idma_covers(ev->id);
}

uint16_t dfz__pend_take(struct dfz__pend *p, const struct dfz_event *ev)
{
	int64_t c = ev->aux == 0 ? chain_of(p, ev, false) : -1;
	uint16_t id, next, taken = 0, *link;

	if (c < 0)
		return 0;
	link = &p->head[c];
	for (id = *link; id; id = next) {
		next = p->x[id].next;
		if (!retires(ev, &p->x[id])) {
			link = &p->x[id].next;
			continue;
		}
		*link = next;             /* unlink, then onto @taken */
		p->x[id].next = taken;
		p->x[id].live = false;
		p->freeid[p->nfree++] = id;
		taken = id;
	}
	return taken;
}
