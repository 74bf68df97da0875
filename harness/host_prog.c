// SPDX-License-Identifier: MIT
/*
 * The host program a host or api plan describes (DESIGN 3.8): its tensors,
 * kernel binary and calls, and where the executor puts the data (the host
 * tensors one after another with a gap, the seeds of every fill), written
 * once for the executor (exec_host.c) and the reproducer emit-c prints.
 */
#include <string.h>

#include "harness_int.h"

static void tensor_of(const struct dfz_plan_tensor *pt,
		      struct dfz_host_tensor *t)
{
	memset(t, 0, sizeof(*t));
	for (unsigned d = 0; d < pt->rank && d < DFZ_MAX_RANK; d++)
		t->arg.shapes[d] = pt->shape[d];
	t->arg.ndims = pt->rank;
	t->arg.dtype = pt->dtype;
	t->arg.child_memory = pt->child;
	t->role = pt->role;
	t->bytes = (uint32_t)dfz_tensor_bytes(&t->arg);
}

/* A host plan's calls: init, its launches, validate, finalize. */
static void host_calls(const struct dfz_plan_host *h, struct dfz_host_prog *p)
{
	static const uint8_t host_ops[] = {
		DFZ_API_INIT, DFZ_API_RUN, DFZ_API_VALIDATE, DFZ_API_FINALIZE,
	};

	p->ncalls = sizeof(host_ops);
	for (unsigned i = 0; i < sizeof(host_ops); i++) {
		p->call[i].op = host_ops[i];
		p->call[i].repeat = 1;
	}
	p->call[1].repeat = h->launches;
}

void dfz_plan_host_prog(const struct dfz_plan *pl, struct dfz_host_prog *p,
			struct dfz_host_layout *lay)
{
	const struct dfz_plan_host *h = &pl->host;
	uint64_t at = 0;

	memset(p, 0, sizeof(*p));
	memset(lay, 0, sizeof(*lay));
	p->ntensors = h->ntensors < DFZ_HOST_MAX_ARGS ? h->ntensors :
						       DFZ_HOST_MAX_ARGS;
	for (unsigned i = 0; i < p->ntensors; i++) {
		tensor_of(&h->t[i], &p->t[i]);
		lay->seed[i] = ((uint64_t)h->seed << 8) | i;
		if (p->t[i].arg.child_memory)
			continue;
		lay->at[i] = at > UINT32_MAX ? UINT32_MAX : (uint32_t)at;
		at += p->t[i].bytes + DFZ_HOST_GAP;
	}
	lay->host_bytes = at;
	lay->bin_seed = ~(uint64_t)h->seed;
	p->graph = h->graph;
	p->dev_budget = h->budget;
	p->bin_size = h->bin_size;
	if (pl->family != DFZ_FAMILY_API) {
		host_calls(h, p);
		return;
	}
	p->ncalls = h->ncalls;
	memcpy(p->call, h->call, sizeof(p->call));
}
