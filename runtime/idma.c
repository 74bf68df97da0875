// SPDX-License-Identifier: MIT
/*
 * The idma engine (L2 <-> L1). Placeholder until the engine lands: it exists,
 * is idle, and refuses every transfer, so the runtime builds and runs.
 */
#include <stdlib.h>

#include "runtime_int.h"

struct dfz_idma {
	struct dfz_rt *rt;
};

int dfz__idma_create(struct dfz_rt *rt, struct dfz_idma **out)
{
	struct dfz_idma *x = calloc(1, sizeof(*x));

	if (!x)
		return DFZ_ENOMEM;
	x->rt = rt;
	*out = x;
	return 0;
}

void dfz__idma_destroy(struct dfz_idma *x)
{
	free(x);
}

void dfz__idma_reset(struct dfz_idma *x)
{
	(void)x;
}

void dfz__idma_step(struct dfz_idma *x)
{
	(void)x;
}

bool dfz__idma_is_idle(const struct dfz_idma *x)
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

const struct dfz_engine_ops dfz__idma_ops = {
	.name = "idma",
	.kernel_ranks = 1u << 2,
	.can_share = true,
	.req_size = 16,
	.issue = refuse_issue,
	.wait = refuse_wait,
};
