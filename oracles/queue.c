// SPDX-License-Identifier: MIT
/*
 * queue.corrupt: the integrity of the ram driver's own queue, in the
 * manner of Linux list_debug. After every ISSUE and COMPLETE on the ram
 * engine the oracle walks the waiting list (bounded, Brent's cycle
 * detection) and the hardware slots, dereferencing a node only once it is
 * known to lie in L2/L1 request-sized memory. A node linking to itself, a
 * cycle, a node both in a slot and in the list, and a node that the
 * oracle's own tracking says is not in flight are violations.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle_int.h"

#define Q_MAX 1024                   /* distinct requests tracked per run */
#define Q_WALK 65536                 /* nodes walked at most */

struct q_entry {
	bool in_flight;              /* issued, not completed since */
	uint64_t issued;             /* step of the last ISSUE */
	uint64_t completed;          /* step of the last COMPLETE */
	int64_t xfer;                /* sequence number of the last ISSUE */
};

struct queue {
	struct dfz_oracles *set;
	struct dfz_rt *rt;
	struct dfz__ptab tab;
	struct q_entry *e;           /* Q_MAX, indexed by the table */
	bool overflow;
};

static int q_init(void *st)
{
	struct queue *q = st;

	q->e = calloc(Q_MAX, sizeof(*q->e));
	if (!q->e)
		return DFZ_ENOMEM;
	return dfz__ptab_init(&q->tab, Q_MAX);
}

static void q_fini(void *st)
{
	struct queue *q = st;

	dfz__ptab_fini(&q->tab);
	free(q->e);
}

static void q_reset(void *st, struct dfz_oracles *set, struct dfz_rt *rt)
{
	struct queue *q = st;

	q->set = set;
	q->rt = rt;
	q->overflow = false;
	dfz__ptab_clear(&q->tab);
}

static void q_fail(struct queue *q, const struct dfz_event *ev,
		   const void *node, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void q_fail(struct queue *q, const struct dfz_event *ev,
		   const void *node, const char *fmt, ...)
{
	struct dfz_evidence x = dfz_evidence_none();
	char msg[DFZ_MSG_MAX];
	struct dfz_span s;
	int32_t i = dfz__ptab_find(&q->tab, node);
	va_list ap;

	x.handle = node;
	x.step = (int64_t)ev->step;
	if (i >= 0)
		x.xfer = q->e[i].xfer;
	if (node && dfz_mem_locate(q->rt, node, 1, &s)) {
		x.level = s.level;
		x.off = s.off;
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	dfz_oracle_fail(q->set, "queue", DFZ_CLASS_QUEUE_CORRUPT, &x, "%s",
			msg);
}

/* Per-node checks of a list node; false once a violation is recorded. */
static bool node_ok(struct queue *q, const struct dfz_event *ev,
		    const struct dfz_ram_req *node,
		    const struct dfz_ram_req *const *slot)
{
	struct dfz_span s;
	int32_t i;
	unsigned k;

	/* Read only what is request storage: in L2/L1, or (user code keeps
	 * requests anywhere) a request issued in this run. */
	if ((uintptr_t)node % _Alignof(struct dfz_ram_req) != 0 ||
	    (!dfz_mem_locate(q->rt, node, sizeof(*node), &s) &&
	     dfz__ptab_find(&q->tab, node) < 0)) {
		q_fail(q, ev, node, "queue node %s is not request storage "
		       "(expected an aligned request in L2/L1, or one issued "
		       "in this run)", dfz__where(q->set, (const void *)node));
		return false;
	}
	if (node->next == node) {
		q_fail(q, ev, node, "request %s links to itself (expected "
		       "the next request or NULL)", dfz__where(q->set, (const void *)node));
		return false;
	}
	for (k = 0; k < DFZ_RAM_SLOTS; k++) {
		if (slot[k] != node)
			continue;
		q_fail(q, ev, node, "double add: request %s is in hardware "
		       "slot %u and in the waiting list", dfz__where(q->set, (const void *)node),
		       k);
		return false;
	}
	i = dfz__ptab_find(&q->tab, node);
	if (i < 0 && !q->overflow) {
		q_fail(q, ev, node, "queue node %s is not in flight (never "
		       "issued in this run)", dfz__where(q->set, (const void *)node));
		return false;
	}
	if (i >= 0 && !q->e[i].in_flight) {
		q_fail(q, ev, node, "queue node %s is not in flight (issued "
		       "at step %llu, completed at step %llu)",
		       dfz__where(q->set, (const void *)node), (unsigned long long)q->e[i].issued,
		       (unsigned long long)q->e[i].completed);
		return false;
	}
	return true;
}

static bool slots_ok(struct queue *q, const struct dfz_event *ev,
		     const struct dfz_ram_req *const *slot)
{
	unsigned a, b;

	for (a = 0; a < DFZ_RAM_SLOTS; a++)
		for (b = a + 1; b < DFZ_RAM_SLOTS; b++)
			if (slot[a] && slot[a] == slot[b]) {
				q_fail(q, ev, slot[a], "double add: request "
				       "%s is in hardware slots %u and %u",
				       dfz__where(q->set, (const void *)slot[a]), a, b);
				return false;
			}
	return true;
}

static void walk(struct queue *q, const struct dfz_event *ev)
{
	const struct dfz_ram *dev = dfz_ram_get(q->rt);
	const struct dfz_ram_req *slot[DFZ_RAM_SLOTS], *node, *tort = NULL;
	uint32_t power = 1, lam = 0, n;
	unsigned k;

	if (!dev)
		return;
	for (k = 0; k < DFZ_RAM_SLOTS; k++)
		slot[k] = dfz_ram_slot(dev, k);
	if (!slots_ok(q, ev, slot))
		return;
	node = dfz_ram_queue_head(dev);
	for (n = 0; node && n < Q_WALK; n++) {
		if (!node_ok(q, ev, node, slot))
			return;
		if (node == tort) {
			q_fail(q, ev, node, "queue has a cycle through "
			       "request %s (expected a NULL-terminated "
			       "list)", dfz__where(q->set, (const void *)node));
			return;
		}
		if (lam == power) {       /* Brent: teleport the tortoise */
			tort = node;
			power *= 2;
			lam = 0;
		}
		lam++;
		node = node->next;
	}
}

static void q_event(void *st, const struct dfz_event *ev)
{
	struct queue *q = st;
	struct q_entry *e;
	bool added;
	int32_t i;

	if (ev->engine != DFZ_ENGINE_RAM)
		return;
	i = dfz__ptab_add(&q->tab, ev->handle, &added);
	if (i < 0) {
		q->overflow = true;
	} else {
		e = &q->e[i];
		if (added)
			memset(e, 0, sizeof(*e));
		e->in_flight = ev->kind == DFZ_EV_ISSUE;
		if (ev->kind == DFZ_EV_ISSUE) {
			e->issued = ev->step;
			e->xfer = q->set->xfer;
		} else {
			e->completed = ev->step;
		}
	}
	walk(q, ev);
}

static const struct dfz_oracle_ops ops = {
	.name = "queue",
	.size = sizeof(struct queue),
	.events = DFZ_EV_BIT(DFZ_EV_ISSUE) | DFZ_EV_BIT(DFZ_EV_COMPLETE),
	.init = q_init,
	.fini = q_fini,
	.reset = q_reset,
	.event = q_event,
};

const struct dfz_oracle_ops *dfz__oracle_queue(void)
{
	return &ops;
}
