// SPDX-License-Identifier: MIT
/*
 * dma.hang and crash: the two ways a run stops making progress. A wait
 * that hits the runtime's step bound (DFZ_EV_HANG) is a hang, reported
 * with how long the wait ran by the oracle's own clock (its WAIT event);
 * an engine that meets an address outside memory (DFZ_EV_FAULT) is a bus
 * fault, which on hardware is a crash.
 */
#include "oracle_int.h"

struct hang {
	struct dfz_oracles *set;
	const void *waiting;          /* request of the last WAIT */
	uint64_t wait_step;           /* step of the last WAIT */
	bool has_wait;
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
	g->waiting = NULL;
	g->wait_step = 0;
	g->has_wait = false;
}

static void on_hang(struct hang *g, const struct dfz_event *ev)
{
	struct dfz_evidence x = dfz_evidence_none();
	uint64_t since = g->has_wait && g->waiting == ev->handle ?
			 g->wait_step : 0;

	x.handle = ev->handle;
	x.step = (int64_t)ev->step;
	dfz_oracle_fail(g->set, "hang", DFZ_CLASS_DMA_HANG, &x,
			"wait on request %s did not complete within %llu "
			"steps (waiting since step %llu; expected the "
			"transfer to finish)", dfz__where(g->set, ev->handle),
			(unsigned long long)(ev->step - since),
			(unsigned long long)since);
}

static void on_fault(struct hang *g, const struct dfz_event *ev)
{
	struct dfz_evidence x = dfz_evidence_none();

	x.handle = ev->handle;
	x.step = (int64_t)ev->step;
	x.off = ev->aux;
	dfz_oracle_fail(g->set, "hang", DFZ_CLASS_CRASH, &x,
			"engine bus fault at 0x%llx while serving request %s "
			"(expected every address inside L3/L2/L1)",
			(unsigned long long)ev->aux, dfz__where(g->set, ev->handle));
}

static void hang_event(void *st, const struct dfz_event *ev)
{
	struct hang *g = st;

	switch (ev->kind) {
	case DFZ_EV_WAIT:
		g->waiting = ev->handle;
		g->wait_step = ev->step;
		g->has_wait = true;
		break;
	case DFZ_EV_HANG:
		on_hang(g, ev);
		break;
	default:
		on_fault(g, ev);
		break;
	}
}

const struct dfz_oracle_ops dfz__oracle_hang = {
	.name = "hang",
	.size = sizeof(struct hang),
	.events = DFZ_EV_BIT(DFZ_EV_WAIT) | DFZ_EV_BIT(DFZ_EV_HANG) |
		  DFZ_EV_BIT(DFZ_EV_FAULT),
	.init = hang_init,
	.fini = hang_fini,
	.reset = hang_reset,
	.event = hang_event,
};
