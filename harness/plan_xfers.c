// SPDX-License-Identifier: MIT
/*
 * The transfers of a plan, as the runtime will see them. The transfer
 * rank: the largest rank, after the adapter's normalisation, of the hop-0
 * tile transfers its program issues (an interior tile's load, aux load
 * and store); `dmafuzz matrix` buckets plans by it, since the rank of the
 * transfers, not of the tensors, decides how a transfer is decomposed.
 * The work: how many pushes the program makes, which the decoder caps so
 * that every execution stays small.
 */
#include "harness_int.h"
#include "plan_int.h"

/* Row-major byte strides of extents @ext (the layout of a tile buffer). */
static void dense_strides(const struct dfz_plan_xfer *x, const uint32_t *ext,
			  uint32_t *stride)
{
	uint32_t s = x->elem;

	for (int d = x->rank - 1; d >= 0; d--) {
		stride[d] = s;
		s *= ext[d] ? ext[d] : 1;
	}
}

/* One tile transfer of extents @tile between a tensor in layout @l (NULL:
 * the dense hop-0 tile buffer of extents @outer) and a dense tile buffer. */
static void tile_xfer(const struct dfz_plan_xfer *x,
		      const struct dfz_plan_layout *l, const uint32_t *outer,
		      const uint32_t *tile, struct dfz_xfer *t)
{
	*t = (struct dfz_xfer){ .rank = x->rank, .elem = x->elem };
	if (l)
		dfz__layout_strides(x, l, t->ext_stride);
	else
		dense_strides(x, outer, t->ext_stride);
	for (unsigned d = 0; d < x->rank; d++)
		t->shape[d] = tile[d] < outer[d] ? tile[d] : outer[d];
	dense_strides(x, t->shape, t->loc_stride);
}

static unsigned tile_rank(const struct dfz_plan_xfer *x,
			  const struct dfz_plan_layout *l, const uint32_t *tile)
{
	struct dfz_xfer t;

	tile_xfer(x, l, x->shape, tile, &t);
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

/* ------------------------------------------------------------- the work */

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
	return b ? (a + b - 1) / b : a;
}

/* Pushes of one hop-@h tile of node @k: one transfer per tensor (from
 * layouts @in, @aux, @out; the hop-0 tile buffer on hop 1), and on idma a
 * dummy after each push. */
static uint64_t tile_pushes(const struct dfz_plan_xfer *x, unsigned k,
			    unsigned h, const struct dfz_plan_layout *in)
{
	const struct dfz_plan_node *n = &x->node[k];
	const struct dfz_plan_layout *l[3] = {
		in, n->kernel == DFZ_KERNEL_ADD ? &n->aux : NULL, &n->out
	};
	unsigned engine = x->hop[h].engine;
	uint64_t sum = 0;
	struct dfz_xfer t;

	for (unsigned i = 0; i < 3; i++) {
		if (i == 1 && !l[1])
			continue;
		if (h == 0)
			tile_xfer(x, l[i], x->shape, n->tile[0], &t);
		else
			tile_xfer(x, NULL, n->tile[0], n->tile[1], &t);
		sum += dfz_xfer_calls(&t, engine);
	}
	return engine == DFZ_ENGINE_IDMA ? 2 * sum : sum;
}

uint64_t dfz__plan_xfer_work(const struct dfz_plan_xfer *x)
{
	const struct dfz_plan_layout *in = &x->in;
	unsigned hops = x->nhops < DFZ_MAX_HOPS ? x->nhops : DFZ_MAX_HOPS;
	uint64_t work = 0;

	for (unsigned k = 0; k < x->nnodes && k < DFZ_MAX_NODES; k++) {
		const struct dfz_plan_node *n = &x->node[k];
		uint64_t tiles = 1;

		for (unsigned h = 0; h < hops; h++) {
			for (unsigned d = 0; d < x->rank; d++)
				tiles *= h == 0 ?
					ceil_div(x->shape[d], n->tile[0][d]) :
					ceil_div(n->tile[0][d], n->tile[1][d]);
			work += tiles * tile_pushes(x, k, h, in);
		}
		in = &n->out;
	}
	return work;
}

uint64_t dfz__plan_xfer_bytes(const struct dfz_plan_xfer *x)
{
	unsigned hops = x->nhops < DFZ_MAX_HOPS ? x->nhops : DFZ_MAX_HOPS;
	uint64_t elems = x->elem, bytes = 0;

	for (unsigned d = 0; d < x->rank; d++)
		elems *= x->shape[d];
	for (unsigned k = 0; k < x->nnodes && k < DFZ_MAX_NODES; k++)
		bytes += (x->node[k].kernel == DFZ_KERNEL_ADD ? 3 : 2) * hops *
			 elems;
	return bytes;
}
