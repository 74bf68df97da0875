// SPDX-License-Identifier: MIT
/*
 * dma.hang and crash: the two ways a run stops making progress. A wait
 * that hits the runtime's step bound (DFZ_EV_HANG) is a hang, reported
 * with how long the wait ran by the oracle's own clock (its WAIT event)
 * and named by what was waited: a ram request, an mchan TID, an idma txid.
 * A HANG outside any wait is an issue that found the engine's queue full
 * for the whole bound (mchan and idma apply back-pressure). An engine
 * that meets an address outside memory (DFZ_EV_FAULT) is a bus fault,
 * which on hardware is a crash.
 */
#include <stdio.h>

#include "oracle_int.h"

struct hang {
	struct dfz_oracles *set;
	struct dfz_event wait;        /* the last WAIT */
	bool has_wait;                /* ... and its WAITED has not come */
};

static int hang_init(void *st)
{
	(void)st;
	return 0;
}

static void hang_fini(void *st)
{
	(void)st;
}

static void hang_reset(void *st, struct dfz_oracles *set, struct dfz_rt *rt)
{
	struct hang *g = st;

	(void)rt;
	g->set = set;
	g->has_wait = false;
}

/* Does the WAIT @w begin the wait that @ev ends? Keyed as the engine's
 * waits name their object: ram by request, mchan and idma by id. */
static bool same_wait(const struct dfz_event *w, const struct dfz_event *ev)
{
	if (w->engine != ev->engine)
		return false;
	return ev->engine == DFZ_ENGINE_RAM ? w->handle == ev->handle :
					      w->id == ev->id;
}

/* A HANG with no wait open: an issue blocked on a full queue. */
static void on_blocked(struct hang *g, const struct dfz_event *ev,
		       struct dfz_evidence *x)
{
	dfz_oracle_fail(g->set, "hang", DFZ_CLASS_DMA_HANG, x,
			"issue on %s blocked until step %llu: the engine "
			"queue stayed full (expected room within the step "
			"bound)",
			dfz__owner(g->set, ev->engine, ev->handle, ev->id),
			(unsigned long long)ev->step);
}

static void on_hang(struct hang *g, const struct dfz_event *ev)
{
	struct dfz_evidence x = dfz_evidence_none();
	uint64_t since = g->wait.step;
	const char *what = ev->engine == DFZ_ENGINE_RAM ? "the transfer" :
			   ev->engine == DFZ_ENGINE_MCHAN ?
			   "the transfers pushed under it" :
			   ev->id < 0 ? "every transfer" :
			   "every transfer up to it";

	x.handle = ev->handle;
	x.step = (int64_t)ev->step;
	if (!g->has_wait || !same_wait(&g->wait, ev)) {
		on_blocked(g, ev, &x);
		return;
	}
	dfz_oracle_fail(g->set, "hang", DFZ_CLASS_DMA_HANG, &x,
			"wait on %s did not complete within %llu steps "
			"(waiting since step %llu; expected %s to finish)",
			dfz__owner(g->set, ev->engine, ev->handle, ev->id),
			(unsigned long long)(ev->step - since),
			(unsigned long long)since, what);
}

/*
 * The ram engine reports an L3 offset or a queue node; mchan and idma
 * report the host address they could not place, named from the arena it
 * points into so that the message reads the same in every run.
 */
static void on_fault(struct hang *g, const struct dfz_event *ev)
{
	const void *p = (const void *)(uintptr_t)ev->aux;
	struct dfz_evidence x = dfz_evidence_none();
	unsigned level;
	uint64_t off;
	char at[40];

	x.handle = ev->handle;
	x.step = (int64_t)ev->step;
	x.off = ev->aux;
	snprintf(at, sizeof(at), "0x%llx", (unsigned long long)ev->aux);
	if (ev->engine != DFZ_ENGINE_RAM) {
		x.off = -1;               /* a host address: not evidence */
		if (dfz__place(g->set, p, &level, &off)) {
			x.level = level;
			x.off = (int64_t)off;
			snprintf(at, sizeof(at), "%s", dfz__where(g->set, p));
		} else {
			snprintf(at, sizeof(at), "%p", p); /* an address */
		}
	}
	dfz_oracle_fail(g->set, "hang", DFZ_CLASS_CRASH, &x,
			"engine bus fault at %s while serving %s "
			"(expected every address inside L3/L2/L1)", at,
			dfz__owner(g->set, ev->engine, ev->handle, ev->id));
}

static void hang_event(void *st, const struct dfz_event *ev)
{
	struct hang *g = st;

	switch (ev->kind) {
	case DFZ_EV_WAIT:
		g->wait = *ev;
		g->has_wait = true;
		break;
	case DFZ_EV_WAITED:
		g->has_wait = false;
		break;
	case DFZ_EV_HANG:
		on_hang(g, ev);
		break;
	default:
		on_fault(g, ev);
		break;
	}
}

static const struct dfz_oracle_ops ops = {
	.name = "hang",
	.size = sizeof(struct hang),
	.events = DFZ_EV_BIT(DFZ_EV_WAIT) | DFZ_EV_BIT(DFZ_EV_WAITED) |
		  DFZ_EV_BIT(DFZ_EV_HANG) | DFZ_EV_BIT(DFZ_EV_FAULT),
	.init = hang_init,
	.fini = hang_fini,
	.reset = hang_reset,
	.event = hang_event,
};

const struct dfz_oracle_ops *dfz__oracle_hang(void)
{
	return &ops;
}
