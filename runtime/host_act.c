// SPDX-License-Identifier: MIT
/*
 * The calls of a host program as they are made (runtime_host.h): each
 * call's fault applied to its concrete arguments once (dfz_host_act_of()),
 * and one call made on the runtime's device or host context
 * (dfz_host_act_perform()). The harness's executor performs a program's
 * acts, `dmafuzz emit-c` prints them, the tests' interpreter performs
 * them: the three make the same calls by construction.
 */
#include <string.h>

#include "runtime_int.h"

static uint64_t size_of(const struct dfz_host_call *c)
{
	if (c->fault == DFZ_FAULT_ZERO)
		return 0;
	if (c->fault == DFZ_FAULT_HUGE)
		return DFZ_HOST_HUGE_SIZE;
	return c->size;
}

void dfz_host_act_of(const struct dfz_host_prog *p, unsigned k,
		     struct dfz_host_act *a)
{
	const struct dfz_host_call *c = &p->call[k];

	/* Field by field: the argument table (640 bytes) is INIT's only,
	 * and an api plan makes up to 64 calls a run. */
	a->size = 0;
	a->offset = 0;
	a->nargs = 0;
	a->graph = 0;
	a->null_roles = false;
	a->op = c->op;
	a->null_ctx = c->fault == DFZ_FAULT_NULL_CTX;
	a->null_ptr = c->fault == DFZ_FAULT_NULL_PTR;
	a->slot = c->slot % DFZ_HOST_SLOTS;
	a->times = 1;
	switch (c->op) {
	case DFZ_API_MALLOC:
	case DFZ_API_COPY_TO:
	case DFZ_API_COPY_FROM:
		a->size = size_of(c);
		a->offset = c->offset;
		break;
	case DFZ_API_FREE:
	case DFZ_API_VALIDATE:
	case DFZ_API_FINALIZE:
		break;
	case DFZ_API_INIT:
		a->null_roles = c->fault == DFZ_FAULT_NULL_ROLES;
		a->nargs = dfz_host_call_args(p, c, a->args, a->roles);
		a->graph = p->graph;
		break;
	case DFZ_API_RUN:
		a->times = c->repeat;
		a->size = c->fault == DFZ_FAULT_ZERO ? 0 : p->bin_size;
		break;
	default:
		a->times = 0;
	}
}

static int perform_driver(struct dfz_dev *dev, const struct dfz_host_act *a,
			  const struct dfz_host_io *io)
{
	uint64_t addr = io->slot[a->slot] + a->offset, got = 0;
	int rc;

	switch (a->op) {
	case DFZ_API_MALLOC:
		rc = dfz_dev_malloc(dev, a->size, a->null_ptr ? NULL : &got);
		if (rc == 0)
			io->slot[a->slot] = got;
		return rc;
	case DFZ_API_FREE:
		return dfz_dev_free(dev, io->slot[a->slot]);
	case DFZ_API_COPY_TO:
		return dfz_dev_copy_to(dev, addr,
				       a->null_ptr ? NULL : io->scratch, a->size);
	default:
		return dfz_dev_copy_from(dev, a->null_ptr ? NULL : io->scratch,
					 addr, a->size);
	}
}

static int perform_host(struct dfz_host *h, const struct dfz_host_act *a,
			const struct dfz_host_io *io)
{
	switch (a->op) {
	case DFZ_API_INIT:
		return dfz_host_init(h, a->null_ptr ? NULL : a->args,
				     a->null_roles ? NULL : a->roles, a->nargs,
				     a->graph);
	case DFZ_API_RUN:
		return dfz_host_launch(h, a->null_ptr ? NULL : io->bin,
				       (uint32_t)a->size);
	case DFZ_API_VALIDATE:
		return dfz_host_validate(h);
	default:
		return dfz_host_finalize(h);
	}
}

int dfz_host_act_perform(struct dfz_rt *rt, const struct dfz_host_act *a,
			 const struct dfz_host_io *io)
{
	if (a->times == 0)
		return 0;
	if (DFZ_API_IS_HOST(a->op))
		return perform_host(a->null_ctx ? NULL : dfz_host_get(rt), a, io);
	return perform_driver(a->null_ctx ? NULL : dfz_dev_get(rt), a, io);
}
