// SPDX-License-Identifier: MIT
/*
 * The transfer rank of a plan: the largest rank, after the adapter's
 * normalisation, of the hop-0 tile transfers its program issues (an
 * interior tile's load, aux load and store). `dmafuzz matrix` buckets
 * plans by it, since the rank of the transfers, not of the tensors,
 * decides how a transfer is decomposed.
 */
#include "harness_int.h"

static unsigned tile_rank(const struct dfz_plan_xfer *x,
			  const struct dfz_plan_layout *l, const uint32_t *tile)
{
	struct dfz_xfer t = { .rank = x->rank, .elem = x->elem };
	uint32_t loc = x->elem;

	dfz__layout_strides(x, l, t.ext_stride);
	for (int d = x->rank - 1; d >= 0; d--) {
		t.shape[d] = tile[d] < x->shape[d] ? tile[d] : x->shape[d];
		t.loc_stride[d] = loc;
		loc *= t.shape[d];
	}
	return dfz_xfer_rank(&t);
}

unsigned dfz_plan_xfer_rank(const struct dfz_plan *p)
{
	const struct dfz_plan_xfer *x = &p->xfer;
	const struct dfz_plan_layout *in = &x->in;
	unsigned best = 0, r;

	for (unsigned k = 0; k < x->nnodes && k < DFZ_MAX_NODES; k++) {
		const struct dfz_plan_node *n = &x->node[k];

		r = tile_rank(x, in, n->tile[0]);
		best = r > best ? r : best;
		if (n->kernel == DFZ_KERNEL_ADD) {
			r = tile_rank(x, &n->aux, n->tile[0]);
			best = r > best ? r : best;
		}
		r = tile_rank(x, &n->out, n->tile[0]);
		best = r > best ? r : best;
		in = &n->out;
	}
	return best;
}
