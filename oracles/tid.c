// SPDX-License-Identifier: MIT
/*
 * handle.* for the engines whose transfers are named by an id rather than
 * a request: mchan TIDs and idma txids. The oracle keeps its own state
 * machines, written from the engines' documentation, keyed by (engine,
 * id) and never by request storage.
 *
 * mchan: each of the 16 TIDs goes free -> allocated -> (pushes) -> waited
 * -> freed. A push, wait or free on a TID that is not allocated (never in
 * this run, already freed, or above 15) is handle.stale; allocating a TID
 * that is allocated is handle.reuse; freeing a TID whose pushes were not
 * waited, and a TID still allocated at the end, are handle.leak. When
 * allocation fails for want of TIDs the run may never reach its end, so
 * the TIDs that were waited and never freed are reported right there.
 *
 * idma: txids increase from 1 (a start may repeat the last txid until a
 * wait covers it: iDMA's id at the push); a wait(t) covers every txid up to t (and,
 * with the documented lag of the completed id, t + 1: see
 * dfz__idma_covers()) and wait_all covers all. A wait beyond the last
 * issued txid is handle.stale; an issued txid that no wait covered by the
 * end is handle.leak.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle_int.h"

#define TX_RING 4096                 /* recent idma issues remembered */

enum tid_state { T_FREE, T_ALLOC };

struct tid_entry {
	uint8_t state;               /* enum tid_state */
	bool ever;                   /* allocated at least once this run */
	bool waited;                 /* a wait returned since allocation */
	uint32_t pending;            /* pushes since the last wait */
	uint64_t alloc_step;
	uint64_t wait_step;          /* of the last successful wait */
	uint64_t free_step;
	uint64_t push_step;          /* first push since the last wait */
	int64_t push_xfer;
};

struct tx_issue {
	int64_t txid;
	uint64_t step;
	int64_t xfer;
};

struct tid {
	struct dfz_oracles *set;
	struct dfz_rt *rt;
	struct tid_entry t[DFZ__MCHAN_TIDS];
	int64_t last;                /* idma: last issued txid, 0: none */
	int64_t covered;             /* idma: every txid <= it was waited */
	struct tx_issue *ring;       /* TX_RING, by issue count */
	uint64_t nissued;            /* idma issues this run */
};

static int tid_init(void *st)
{
	struct tid *o = st;

	o->ring = calloc(TX_RING, sizeof(*o->ring));
	return o->ring ? 0 : DFZ_ENOMEM;
}

static void tid_fini(void *st)
{
	struct tid *o = st;

	free(o->ring);
}

static void tid_reset(void *st, struct dfz_oracles *set, struct dfz_rt *rt)
{
	struct tid *o = st;

	o->set = set;
	o->rt = rt;
	memset(o->t, 0, sizeof(o->t));
	o->last = 0;
	o->covered = 0;
	o->nissued = 0;
}

/* ------------------------------------------------------------ mchan */

/*
 * @what ("push on", "wait on", "free of") names a TID that must be
 * allocated; reports handle.stale and returns NULL when it is not.
 */
static struct tid_entry *live_tid(struct tid *o, const struct dfz_event *ev,
				  const char *what)
{
	struct dfz_evidence x = dfz__evidence_of(ev, ev->kind == DFZ_EV_ISSUE ?
						      o->set->xfer : -1);
	struct tid_entry *e;

	if (ev->id < 0 || ev->id >= DFZ__MCHAN_TIDS) {
		dfz_oracle_fail(o->set, "tid", DFZ_CLASS_HANDLE_STALE, &x,
				"%s TID %lld, out of range (expected an "
				"allocated TID 0..15)", what,
				(long long)ev->id);
		return NULL;
	}
	e = &o->t[ev->id];
	if (e->state == T_ALLOC)
		return e;
	if (!e->ever)
		dfz_oracle_fail(o->set, "tid", DFZ_CLASS_HANDLE_STALE, &x,
				"%s TID %lld that was never allocated in "
				"this run", what, (long long)ev->id);
	else
		dfz_oracle_fail(o->set, "tid", DFZ_CLASS_HANDLE_STALE, &x,
				"%s TID %lld that is already free (freed at "
				"step %llu)", what, (long long)ev->id,
				(unsigned long long)e->free_step);
	return NULL;
}

/* "0,3,7": the TIDs of @mask, into @buf. */
static void tid_list(char *buf, size_t cap, uint32_t mask)
{
	size_t n = 0;
	unsigned i;

	buf[0] = '\0';
	for (i = 0; i < DFZ__MCHAN_TIDS && n + 4 < cap; i++)
		if (mask & (1u << i))
			n += (size_t)snprintf(buf + n, cap - n, "%s%u",
					      n ? "," : "", i);
}

/* Allocation failed: the TIDs waited and never freed are the leak. */
static void on_exhausted(struct tid *o, const struct dfz_event *ev)
{
	struct dfz_evidence x = dfz__evidence_of(ev, -1);
	uint32_t idle = 0, freed = 0;
	int first = -1, firstfree = -1;
	char list[64];
	unsigned i;

	for (i = 0; i < DFZ__MCHAN_TIDS; i++) {
		const struct tid_entry *e = &o->t[i];

		if (e->state == T_ALLOC && e->waited && !e->pending) {
			idle |= 1u << i;
			if (first < 0 || e->alloc_step < o->t[first].alloc_step)
				first = (int)i;
		} else if (e->state == T_FREE) {
			freed |= 1u << i;
			if (firstfree < 0)
				firstfree = (int)i;
		}
	}
	if (idle) {
		tid_list(list, sizeof(list), idle);
		dfz_oracle_fail(o->set, "tid", DFZ_CLASS_HANDLE_LEAK, &x,
				"TID allocation failed at step %llu: TIDs %s "
				"were waited and never freed (TID %d allocated "
				"at step %llu, waited at step %llu; expected a "
				"free after the last wait)",
				(unsigned long long)ev->step, list, first,
				(unsigned long long)o->t[first].alloc_step,
				(unsigned long long)o->t[first].wait_step);
	} else if (freed) {
		tid_list(list, sizeof(list), freed);
		dfz_oracle_fail(o->set, "tid", DFZ_CLASS_HANDLE_LEAK, &x,
				"TID allocation failed at step %llu with TIDs "
				"%s free (expected one of them; TID %d %s)",
				(unsigned long long)ev->step, list, firstfree,
				o->t[firstfree].ever ? "was freed" :
				"was never allocated");
	}
}

static void on_alloc(struct tid *o, const struct dfz_event *ev)
{
	struct dfz_evidence x = dfz__evidence_of(ev, -1);
	struct tid_entry *e;

	if (ev->aux == DFZ_EBUSY) {
		on_exhausted(o, ev);
		return;
	}
	if (ev->aux != 0)
		return;
	if (ev->id < 0 || ev->id >= DFZ__MCHAN_TIDS) {
		dfz_oracle_fail(o->set, "tid", DFZ_CLASS_HANDLE_STALE, &x,
				"TID allocation returned TID %lld (expected "
				"0..15)", (long long)ev->id);
		return;
	}
	e = &o->t[ev->id];
	if (e->state == T_ALLOC) {
		dfz_oracle_fail(o->set, "tid", DFZ_CLASS_HANDLE_REUSE, &x,
				"TID %lld allocated again at step %llu while "
				"allocated (allocated at step %llu, not freed)",
				(long long)ev->id, (unsigned long long)ev->step,
				(unsigned long long)e->alloc_step);
		return;
	}
	*e = (struct tid_entry){ .state = T_ALLOC, .ever = true,
				 .alloc_step = ev->step, .push_xfer = -1 };
}

static void on_free(struct tid *o, const struct dfz_event *ev)
{
	struct tid_entry *e = live_tid(o, ev, "free of");
	struct dfz_evidence x;

	if (!e)
		return;
	if (e->pending) {
		x = dfz__evidence_of(ev, e->push_xfer);
		dfz_oracle_fail(o->set, "tid", DFZ_CLASS_HANDLE_LEAK, &x,
				"free of TID %lld with %u push(es) never "
				"waited (first pushed at step %llu as "
				"transfer #%lld; expected a wait before the "
				"free)", (long long)ev->id, e->pending,
				(unsigned long long)e->push_step,
				(long long)e->push_xfer);
		return;
	}
	e->state = T_FREE;
	e->free_step = ev->step;
}

static void on_push(struct tid *o, const struct dfz_event *ev)
{
	struct tid_entry *e = live_tid(o, ev, "push on");

	if (!e)
		return;
	if (e->pending++ == 0) {
		e->push_step = ev->step;
		e->push_xfer = o->set->xfer;
	}
}

static void on_tid_waited(struct tid *o, const struct dfz_event *ev)
{
	struct tid_entry *e;

	if (ev->aux != 0 || ev->id < 0 || ev->id >= DFZ__MCHAN_TIDS)
		return;
	e = &o->t[ev->id];
	if (e->state != T_ALLOC)
		return;
	e->waited = true;
	e->wait_step = ev->step;
	e->pending = 0;
}

static void mchan_event(struct tid *o, const struct dfz_event *ev)
{
	switch (ev->kind) {
	case DFZ_EV_ID_ALLOC:
		on_alloc(o, ev);
		break;
	case DFZ_EV_ID_FREE:
		on_free(o, ev);
		break;
	case DFZ_EV_ISSUE:
		on_push(o, ev);
		break;
	case DFZ_EV_WAIT:
		live_tid(o, ev, "wait on");
		break;
	case DFZ_EV_WAITED:
		on_tid_waited(o, ev);
		break;
	default:
		break;
	}
}

/* The leak of the TID allocated first among those still allocated. */
static void mchan_end(struct tid *o, const struct dfz_event *now)
{
	const struct tid_entry *e = NULL;
	struct dfz_evidence x;
	char what[96];
	int i, tid = -1;

	for (i = 0; i < DFZ__MCHAN_TIDS; i++)
		if (o->t[i].state == T_ALLOC &&
		    (!e || o->t[i].alloc_step < e->alloc_step)) {
			e = &o->t[i];
			tid = i;
		}
	if (!e)
		return;
	if (e->pending)
		snprintf(what, sizeof(what), "pushed at step %llu as "
			 "transfer #%lld and never waited",
			 (unsigned long long)e->push_step,
			 (long long)e->push_xfer);
	else if (e->waited)
		snprintf(what, sizeof(what), "waited at step %llu",
			 (unsigned long long)e->wait_step);
	else
		snprintf(what, sizeof(what), "never waited");
	/* The evidence names the TID's first push since its last wait (or
	 * since its allocation): the transfer whose counter leaks. */
	x = dfz__evidence_of(now, e->push_xfer);
	x.handle = NULL;
	dfz_oracle_fail(o->set, "tid", DFZ_CLASS_HANDLE_LEAK, &x,
			"TID %d allocated at step %llu, %s, never freed "
			"(expected a free before the end of the run)", tid,
			(unsigned long long)e->alloc_step, what);
}

/* ------------------------------------------------------------- idma */

static void on_tx_issue(struct tid *o, const struct dfz_event *ev)
{
	struct dfz_evidence x = dfz__evidence_of(ev, o->set->xfer);

	/* iDMA hands out the counter at the push and advances it at the pop
	 * (idma-id-at-push): a start may repeat the last txid, but never
	 * one a returned wait covered. */
	if (ev->id < o->last || (ev->id == o->last && o->covered >= o->last)) {
		dfz_oracle_fail(o->set, "tid", DFZ_CLASS_HANDLE_REUSE, &x,
				"txid %lld issued at step %llu after txid %lld "
				"(expected increasing txids from 1)",
				(long long)ev->id, (unsigned long long)ev->step,
				(long long)o->last);
		return;
	}
	o->last = ev->id;
	o->ring[o->nissued++ % TX_RING] = (struct tx_issue){
		.txid = ev->id, .step = ev->step, .xfer = o->set->xfer,
	};
}

static void on_tx_wait(struct tid *o, const struct dfz_event *ev)
{
	struct dfz_evidence x = dfz__evidence_of(ev, -1);

	if (ev->id <= o->last)
		return;
	dfz_oracle_fail(o->set, "tid", DFZ_CLASS_HANDLE_STALE, &x,
			"wait on txid %lld, only %lld issued (expected a "
			"txid an issue returned)", (long long)ev->id,
			(long long)o->last);
}

static void on_tx_waited(struct tid *o, const struct dfz_event *ev)
{
	int64_t t = ev->id < 0 ? o->last : dfz__idma_covers(ev->id);

	if (ev->aux != 0)
		return;
	if (t > o->last)
		t = o->last;
	if (t > o->covered)
		o->covered = t;
}

static void idma_event(struct tid *o, const struct dfz_event *ev)
{
	switch (ev->kind) {
	case DFZ_EV_ISSUE:
		on_tx_issue(o, ev);
		break;
	case DFZ_EV_WAIT:
		on_tx_wait(o, ev);
		break;
	case DFZ_EV_WAITED:
		on_tx_waited(o, ev);
		break;
	default:
		break;
	}
}

/* The first issued txid no wait covered (the oldest remembered). */
static void idma_end(struct tid *o, const struct dfz_event *now)
{
	uint64_t k = o->nissued > TX_RING ? o->nissued - TX_RING : 0;
	const struct tx_issue *t = NULL;
	struct dfz_evidence x;

	if (o->covered >= o->last)
		return;
	for (; k < o->nissued && !t; k++)
		if (o->ring[k % TX_RING].txid > o->covered)
			t = &o->ring[k % TX_RING];
	if (!t)
		return;
	x = dfz__evidence_of(now, t->xfer);
	x.handle = NULL;
	dfz_oracle_fail(o->set, "tid", DFZ_CLASS_HANDLE_LEAK, &x,
			"txid %lld issued at step %llu as transfer #%lld and "
			"never waited (waits covered txids up to %lld of %lld; "
			"expected a wait on it or wait_all before the end of "
			"the run)", (long long)t->txid,
			(unsigned long long)t->step, (long long)t->xfer,
			(long long)o->covered, (long long)o->last);
}

/* ------------------------------------------------------------ the ops */

static void tid_event(void *st, const struct dfz_event *ev)
{
	struct tid *o = st;

	if (ev->engine == DFZ_ENGINE_MCHAN)
		mchan_event(o, ev);
	else if (ev->engine == DFZ_ENGINE_IDMA)
		idma_event(o, ev);
}

static void tid_end(void *st)
{
	struct tid *o = st;
	struct dfz_event now = { .step = dfz_rt_now(o->rt) };

	mchan_end(o, &now);
	idma_end(o, &now);
}

static const struct dfz_oracle_ops ops = {
	.name = "tid",
	.size = sizeof(struct tid),
	.events = DFZ_EV_BIT(DFZ_EV_ISSUE) | DFZ_EV_BIT(DFZ_EV_WAIT) |
		  DFZ_EV_BIT(DFZ_EV_WAITED) | DFZ_EV_BIT(DFZ_EV_ID_ALLOC) |
		  DFZ_EV_BIT(DFZ_EV_ID_FREE),
	.init = tid_init,
	.fini = tid_fini,
	.reset = tid_reset,
	.event = tid_event,
	.end = tid_end,
};

const struct dfz_oracle_ops *dfz__oracle_tid(void)
{
	return &ops;
}
