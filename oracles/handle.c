// SPDX-License-Identifier: MIT
/*
 * handle.*: a per-request lifetime state machine in the manner of Linux
 * debugobjects, driven by the protocol alone, for the ram engine, whose
 * transfers are named by their caller-owned request. A request is active
 * from its ISSUE until a successful WAITED on it. Issuing an active
 * request is "activate active" (handle.reuse: a PMSIS request may not
 * carry two transfers); waiting a request never issued, or whose storage
 * was released, is handle.stale; releasing storage that holds an active
 * request is the driver's queue losing a node (queue.corrupt); a request
 * still active at the end leaked (handle.leak). Engines whose transfers
 * are named by an id (mchan TIDs, idma txids) are judged by tid.c.
 */
#include <stdlib.h>
#include <string.h>

#include "oracle_int.h"

#define H_MAX 1024                   /* distinct requests per run */

enum h_state { H_IDLE, H_ACTIVE, H_FREED };

struct h_entry {
	const void *handle;
	uint8_t state;               /* enum h_state */
	uint8_t level;               /* storage level, 0xff: not in memory */
	uint32_t off;                /* storage offset */
	uint32_t inflight;           /* transfers issued, not waited */
	uint64_t step;               /* last ISSUE (or FREE when freed) */
	int64_t xfer;                /* last ISSUE's sequence number */
};

struct handle {
	struct dfz_oracles *set;
	struct dfz_rt *rt;
	struct dfz__ptab tab;
	struct h_entry *e;           /* H_MAX, indexed by the table */
	bool overflow;               /* a request could not be tracked */
};

static int h_init(void *st)
{
	struct handle *h = st;

	h->e = calloc(H_MAX, sizeof(*h->e));
	if (!h->e)
		return DFZ_ENOMEM;
	return dfz__ptab_init(&h->tab, H_MAX);
}

static void h_fini(void *st)
{
	struct handle *h = st;

	dfz__ptab_fini(&h->tab);
	free(h->e);
}

static void h_reset(void *st, struct dfz_oracles *set, struct dfz_rt *rt)
{
	struct handle *h = st;

	h->set = set;
	h->rt = rt;
	h->overflow = false;
	dfz__ptab_clear(&h->tab);
}

static struct dfz_evidence h_evidence(const struct dfz_event *ev,
				      const struct h_entry *e)
{
	struct dfz_evidence x = dfz_evidence_none();

	x.handle = e->handle;
	x.step = (int64_t)ev->step;
	x.xfer = e->xfer;
	if (e->level != 0xff) {
		x.level = e->level;
		x.off = e->off;
	}
	return x;
}

static void locate(struct handle *h, struct h_entry *e)
{
	struct dfz_span s;

	e->level = 0xff;
	if (dfz_mem_locate(h->rt, e->handle, 1, &s)) {
		e->level = s.level;
		e->off = s.off;
	}
}

static void on_issue(struct handle *h, const struct dfz_event *ev)
{
	bool added;
	int32_t i = dfz__ptab_add(&h->tab, ev->handle, &added);
	struct h_entry *e;
	struct dfz_evidence x;

	if (i < 0) {
		h->overflow = true;
		return;
	}
	e = &h->e[i];
	if (added || e->state != H_ACTIVE) {
		memset(e, 0, sizeof(*e));
		e->handle = ev->handle;
		locate(h, e);
	} else {
		x = h_evidence(ev, e);
		dfz_oracle_fail(h->set, "handle", DFZ_CLASS_HANDLE_REUSE, &x,
				"request %s re-issued while in flight as "
				"transfer #%lld (issued at step %llu as "
				"transfer #%lld, not waited)",
				dfz__where(h->set, ev->handle), (long long)h->set->xfer,
				(unsigned long long)e->step,
				(long long)e->xfer);
		return;
	}
	e->state = H_ACTIVE;
	e->inflight++;
	e->step = ev->step;
	e->xfer = h->set->xfer;
}

static void on_waited(struct handle *h, const struct dfz_event *ev)
{
	int32_t i = dfz__ptab_find(&h->tab, ev->handle);
	struct dfz_evidence x = dfz_evidence_none();

	x.handle = ev->handle;
	x.step = (int64_t)ev->step;
	if (i < 0) {
		if (!h->overflow)
			dfz_oracle_fail(h->set, "handle",
					DFZ_CLASS_HANDLE_STALE, &x,
					"wait on request %s that was never "
					"issued in this run", dfz__where(h->set, ev->handle));
		return;
	}
	if (h->e[i].state == H_FREED) {
		x = h_evidence(ev, &h->e[i]);
		dfz_oracle_fail(h->set, "handle", DFZ_CLASS_HANDLE_STALE, &x,
				"wait on request %s whose storage was "
				"released at step %llu (expected a live, "
				"issued request)", dfz__where(h->set, ev->handle),
				(unsigned long long)h->e[i].step);
		return;
	}
	if (ev->aux == 0 && h->e[i].state == H_ACTIVE) {
		h->e[i].state = H_IDLE;
		h->e[i].inflight = 0;
	}
}

static bool in_span(const struct h_entry *e, const struct dfz_span *s)
{
	return e->level == s->level && e->off >= s->off &&
	       (uint64_t)e->off < (uint64_t)s->off + (s->len ? s->len : 1);
}

static void on_free(struct handle *h, const struct dfz_event *ev)
{
	struct dfz_evidence x;
	uint32_t i;

	for (i = 0; i < h->tab.n; i++) {
		struct h_entry *e = &h->e[i];

		if (e->state == H_FREED || !in_span(e, &ev->dst))
			continue;
		if (e->state == H_ACTIVE) {
			x = h_evidence(ev, e);
			dfz_oracle_fail(h->set, "handle",
					DFZ_CLASS_QUEUE_CORRUPT, &x,
					"request %s freed while queued "
					"(issued at step %llu as transfer "
					"#%lld, not waited)", dfz__where(h->set, e->handle),
					(unsigned long long)e->step,
					(long long)e->xfer);
			return;
		}
		e->state = H_FREED;
		e->step = ev->step;
	}
}

static void h_event(void *st, const struct dfz_event *ev)
{
	struct handle *h = st;

	/* Requests are ram's; memory is everyone's (FREE has no engine). */
	if (ev->engine != DFZ_ENGINE_RAM && ev->kind != DFZ_EV_FREE)
		return;
	switch (ev->kind) {
	case DFZ_EV_ISSUE:
		on_issue(h, ev);
		break;
	case DFZ_EV_WAITED:
		on_waited(h, ev);
		break;
	case DFZ_EV_FREE:
		on_free(h, ev);
		break;
	default:
		break;
	}
}

static void h_end(void *st)
{
	struct handle *h = st;
	struct dfz_event now = { .step = dfz_rt_now(h->rt) };
	const struct h_entry *e = NULL;
	struct dfz_evidence x;
	uint32_t i;

	for (i = 0; i < h->tab.n; i++)  /* the oldest active request */
		if (h->e[i].state == H_ACTIVE &&
		    (!e || h->e[i].xfer < e->xfer))
			e = &h->e[i];
	if (!e)
		return;
	x = h_evidence(&now, e);
	dfz_oracle_fail(h->set, "handle", DFZ_CLASS_HANDLE_LEAK, &x,
			"request %s issued at step %llu as transfer #%lld "
			"and never waited (expected a wait before the end "
			"of the run)", dfz__where(h->set, e->handle),
			(unsigned long long)e->step, (long long)e->xfer);
}

static const struct dfz_oracle_ops ops = {
	.name = "handle",
	.size = sizeof(struct handle),
	.events = DFZ_EV_BIT(DFZ_EV_ISSUE) | DFZ_EV_BIT(DFZ_EV_WAITED) |
		  DFZ_EV_BIT(DFZ_EV_FREE),
	.init = h_init,
	.fini = h_fini,
	.reset = h_reset,
	.event = h_event,
	.end = h_end,
};

const struct dfz_oracle_ops *dfz__oracle_handle(void)
{
	return &ops;
}
