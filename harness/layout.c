// SPDX-License-Identifier: MIT
/*
 * Tensor layouts: the byte strides of a plan's logical shape stored in a
 * physical dim order with per-dim padding (a transposed or padded tensor),
 * and the tiled program an xfer plan describes, in those layouts.
 */
#include <string.h>

#include "harness_int.h"

uint32_t dfz__layout_strides(const struct dfz_plan_xfer *x,
			     const struct dfz_plan_layout *l,
			     uint32_t stride[DFZ_MAX_RANK])
{
	uint64_t s = x->elem;

	for (unsigned d = 0; d < DFZ_MAX_RANK; d++)
		stride[d] = 0;
	for (int j = x->rank - 1; j >= 0; j--) {
		unsigned d = l->order[j];

		stride[d] = (uint32_t)s;
		s *= (uint64_t)x->shape[d] + l->pad[d];
	}
	return s > UINT32_MAX ? UINT32_MAX : (uint32_t)s;
}

uint32_t dfz_plan_layout_strides(const struct dfz_plan_xfer *x,
				 const struct dfz_plan_layout *l,
				 uint32_t stride[DFZ_MAX_RANK])
{
	return dfz__layout_strides(x, l, stride);
}

/* A tensor of layout @l where the plan's tensors live; no offset yet. */
static struct dfz_tensor tensor_of(const struct dfz_plan_xfer *x,
				   const struct dfz_plan_layout *l)
{
	struct dfz_tensor t = { .level = x->ext_level };

	t.bytes = dfz__layout_strides(x, l, t.stride);
	return t;
}

void dfz_plan_prog(const struct dfz_plan_xfer *x, struct dfz_prog *p)
{
	memset(p, 0, sizeof(*p));
	p->rank = x->rank;
	p->elem = x->elem;
	memcpy(p->shape, x->shape, sizeof(p->shape));
	p->nnodes = x->nnodes;
	p->nhops = x->nhops;
	p->compute_chunks = x->compute_chunks;
	for (unsigned h = 0; h < x->nhops && h < DFZ_MAX_HOPS; h++)
		p->hop[h] = (struct dfz_hop){
			.local_level = (uint8_t)dfz_plan_hop_level(x, h),
			.buffering = x->hop[h].buffering,
			.strategy = x->hop[h].strategy,
			.db_order = x->hop[h].db_order };
	p->node[0].in = tensor_of(x, &x->in);
	for (unsigned k = 0; k < x->nnodes && k < DFZ_MAX_NODES; k++) {
		const struct dfz_plan_node *pn = &x->node[k];
		struct dfz_node *n = &p->node[k];

		n->kernel = pn->kernel;
		memcpy(n->tile, pn->tile, sizeof(n->tile));
		if (k)
			n->in = p->node[k - 1].out;
		if (pn->kernel == DFZ_KERNEL_ADD)
			n->aux = tensor_of(x, &pn->aux);
		n->out = tensor_of(x, &pn->out);
	}
}
