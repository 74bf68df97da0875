// SPDX-License-Identifier: MIT
/*
 * The mchan engine (L2 <-> L1). Placeholder until the engine lands: it exists,
 * is idle, and refuses every transfer, so the runtime builds and runs.
 */
#include <stdlib.h>

#include "runtime_int.h"

struct dfz_mchan {
	struct dfz_rt *rt;
};

int dfz__mchan_create(struct dfz_rt *rt, struct dfz_mchan **out)
{
	struct dfz_mchan *x = calloc(1, sizeof(*x));

	if (!x)
		return DFZ_ENOMEM;
	x->rt = rt;
	*out = x;
	return 0;
}

void dfz__mchan_destroy(struct dfz_mchan *x)
{
	free(x);
}

void dfz__mchan_reset(struct dfz_mchan *x)
{
	(void)x;
}

void dfz__mchan_step(struct dfz_mchan *x)
{
	(void)x;
}

bool dfz__mchan_is_idle(const struct dfz_mchan *x)
{
	(void)x;
	return true;
}

static int refuse_issue(struct dfz_rt *rt, void *req, const struct dfz_desc *d)
{
	(void)rt;
	(void)req;
	(void)d;
	return DFZ_EINVAL;
}

static int refuse_wait(struct dfz_rt *rt, void *req)
{
	(void)rt;
	(void)req;
	return DFZ_EINVAL;
}

const struct dfz_engine_ops dfz__mchan_ops = {
	.name = "mchan",
	.kernel_ranks = 1u << 2,
	.can_share = true,
	.req_size = 16,
	.issue = refuse_issue,
	.wait = refuse_wait,
};
