// SPDX-License-Identifier: MIT
/*
 * The plan decoder: the one walk over a plan's fields in stream order (run
 * by the decoder to draw them and by the encoder to emit them, so the two
 * cannot drift), and the clamps that keep every decoded plan inside the caps.
 * The decoder is total: any byte string is a plan, and a plan over a cap is
 * clamped (shapes halved, tiles halved, the local level grown), never
 * rejected. The clamps are idempotent, which is what makes
 * decode(encode(p)) == p for every decoded p.
 */
#include <string.h>

#include "plan_int.h"

_Static_assert(sizeof(struct dfz_ram_req) <= DFZ_PLAN_REQ_BYTES,
	       "the ram request outgrew DFZ_PLAN_REQ_BYTES");

/* ------------------------------------------------------------ the walk */

/* Position of @v in @left[0..n), or 0 (the simplest choice) when absent. */
static unsigned index_of(const uint8_t *left, unsigned n, uint8_t v)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (left[i] == v)
			return i;
	return 0;
}

static void identity_layout(unsigned rank, struct dfz_plan_layout *l)
{
	unsigned d;

	memset(l, 0, sizeof(*l));
	for (d = 0; d < rank; d++)
		l->order[d] = (uint8_t)d;
}

/* The order as a Lehmer code: each draw picks one of the dims not yet
 * placed, in ascending order, so all-zero draws give the identity. */
static void visit_layout(struct dfz_choice *c, unsigned rank,
			 const struct dfz_plan_layout *s,
			 struct dfz_plan_layout *d)
{
	uint8_t left[DFZ_MAX_RANK];
	unsigned j, i, nleft = rank;

	memset(d, 0, sizeof(*d));
	for (j = 0; j < rank; j++)
		left[j] = (uint8_t)j;
	for (j = 0; j < rank; j++, nleft--) {
		i = dfz__choice_draw(c, 0, nleft - 1,
				     index_of(left, nleft, s->order[j]));
		d->order[j] = left[i];
		memmove(&left[i], &left[i + 1], nleft - i - 1);
	}
	for (j = 0; j < rank; j++)
		d->pad[j] = (uint8_t)dfz__choice_draw(c, 0, DFZ_CAP_PAD,
						      s->pad[j]);
}

static void visit_node(struct dfz_choice *c, const struct dfz_plan_xfer *x,
		       const struct dfz_plan_node *s, struct dfz_plan_node *d)
{
	unsigned k;

	d->kernel = (uint8_t)dfz__choice_draw(c, 0, DFZ_KERNEL_COUNT - 1,
					      s->kernel);
	visit_layout(c, x->rank, &s->out, &d->out);
	if (d->kernel == DFZ_KERNEL_ADD)
		visit_layout(c, x->rank, &s->aux, &d->aux);
	else
		identity_layout(x->rank, &d->aux);
	for (k = 0; k < x->rank; k++) {
		uint32_t hi = x->shape[k] ? x->shape[k] : 1;

		d->tile[k] = dfz__choice_draw_size(c, 1, hi, s->tile[k]);
	}
}

/* floor(log2(@elem)), 0 for 0: the draw behind elem = 1 << e. */
static uint32_t elem_log2(uint32_t elem)
{
	uint32_t e = 0;

	while (elem > 1) {
		elem >>= 1;
		e++;
	}
	return e;
}

/* The tensors: shape, element size, input layout and the nodes. */
static void visit_tensors(struct dfz_choice *c, const struct dfz_plan_xfer *s,
			  struct dfz_plan_xfer *d)
{
	unsigned k;

	d->rank = (uint8_t)dfz__choice_draw(c, 1, DFZ_MAX_RANK, s->rank);
	for (k = 0; k < d->rank; k++)
		d->shape[k] = dfz__choice_draw_size(c, 0, DFZ_CAP_DIM,
						    s->shape[k]);
	d->elem = (uint8_t)(1u << dfz__choice_draw(c, 0, 3,
						   elem_log2(s->elem)));
	visit_layout(c, d->rank, &s->in, &d->in);
	d->nnodes = (uint8_t)dfz__choice_draw(c, 1, DFZ_MAX_NODES, s->nnodes);
	for (k = 0; k < d->nnodes; k++)
		visit_node(c, d, &s->node[k], &d->node[k]);
}

/* The run: engine, local level, policies, timing and schedule. */
static void visit_run(struct dfz_choice *c, const struct dfz_plan_xfer *s,
		      struct dfz_plan_xfer *d)
{
	unsigned j;

	/* The L3<->L2 hop runs on ram; the L2<->L1 engines come with the
	 * hop choice. */
	d->engine = (uint8_t)dfz__choice_draw(c, 0, DFZ_ENGINE_RAM, s->engine);
	d->ext_level = DFZ_L3;
	d->local_level = DFZ_L2;
	d->local_size = dfz__choice_draw_size(c, DFZ_PLAN_LOCAL_MIN, DFZ_CAP_L2,
					      s->local_size);
	d->buffering = (uint8_t)dfz__choice_draw(c, 1, 2, s->buffering);
	d->policy = (uint8_t)dfz__choice_draw(c, 0, DFZ_POLICY_COUNT - 1,
					      s->policy);
	d->pool_k = 1;
	if (d->policy == DFZ_POLICY_POOL)
		d->pool_k = (uint8_t)dfz__choice_draw(c, 1, DFZ_MAX_POOL,
						      s->pool_k);
	d->strategy = (uint8_t)dfz__choice_draw(c, 0, DFZ_STRAT_COUNT - 1,
						s->strategy);
	d->compute_chunks = (uint8_t)dfz__choice_draw(c, 1, 8,
						      s->compute_chunks);
	d->latency = dfz__choice_draw_size(c, 0, DFZ_CAP_LATENCY, s->latency);
	d->bandwidth = dfz__choice_draw_size(c, 1, DFZ_CAP_BANDWIDTH,
					     s->bandwidth);
	d->nsched = (uint8_t)dfz__choice_draw(c, 0, DFZ_MAX_SCHED, s->nsched);
	for (j = 0; j < d->nsched; j++)
		d->sched[j] = (uint8_t)dfz__choice_draw(c, 0,
							DFZ_CAP_SCHED_STEPS,
							s->sched[j]);
	d->seed = dfz__choice_draw(c, 0, UINT32_MAX, s->seed);
}

void dfz__plan_visit(struct dfz_choice *c, const struct dfz_plan *src,
		     struct dfz_plan *dst)
{
	memset(dst, 0, sizeof(*dst));
	dst->family = (uint8_t)dfz__choice_draw(c, 0, DFZ_FAMILY_COUNT - 1,
						src->family);
	visit_tensors(c, &src->xfer, &dst->xfer);
	visit_run(c, &src->xfer, &dst->xfer);
}

/* ---------------------------------------------------------- the formulas */

static unsigned rank_of(const struct dfz_plan_xfer *x)
{
	return x->rank < DFZ_MAX_RANK ? x->rank : DFZ_MAX_RANK;
}

static unsigned nodes_of(const struct dfz_plan_xfer *x)
{
	return x->nnodes < DFZ_MAX_NODES ? x->nnodes : DFZ_MAX_NODES;
}

uint32_t dfz__plan_tensor_bytes(const struct dfz_plan_xfer *x,
				const struct dfz_plan_layout *l)
{
	uint64_t b = x->elem;
	unsigned d;

	for (d = 0; d < rank_of(x); d++) {
		b *= (uint64_t)x->shape[d] + l->pad[d];
		if (b > UINT32_MAX)
			return UINT32_MAX;
	}
	return (uint32_t)b;
}

static uint64_t align8(uint64_t v)
{
	return (v + 7) & ~(uint64_t)7;
}

size_t dfz__plan_node_need(const struct dfz_plan_xfer *x, unsigned i)
{
	const struct dfz_plan_node *n = &x->node[i];
	uint64_t tile = x->elem, nbuf, need;
	unsigned d;

	for (d = 0; d < rank_of(x); d++) {
		tile *= n->tile[d];
		if (tile > UINT32_MAX)
			tile = UINT32_MAX; /* far over any local level */
	}
	nbuf = (uint64_t)x->buffering * (2u + (n->kernel == DFZ_KERNEL_ADD));
	need = nbuf * (align8(tile) + 2 * DFZ_REDZONE) +
	       (uint64_t)DFZ_PLAN_MAX_HANDLES * DFZ_MAX_POOL *
		       (align8(DFZ_PLAN_REQ_BYTES) + 2 * DFZ_REDZONE) +
	       DFZ_PLAN_LOCAL_SLACK;
	return need > SIZE_MAX ? SIZE_MAX : (size_t)need;
}

size_t dfz__plan_local_need(const struct dfz_plan_xfer *x)
{
	size_t need = 0, n;
	unsigned i;

	for (i = 0; i < nodes_of(x); i++) {
		n = dfz__plan_node_need(x, i);
		if (n > need)
			need = n;
	}
	return need;
}

/* ------------------------------------------------------------ the clamps */

static uint32_t largest_tensor(const struct dfz_plan_xfer *x)
{
	uint32_t most = dfz__plan_tensor_bytes(x, &x->in), b;
	unsigned i;

	for (i = 0; i < nodes_of(x); i++) {
		b = dfz__plan_tensor_bytes(x, &x->node[i].out);
		most = b > most ? b : most;
		if (x->node[i].kernel != DFZ_KERNEL_ADD)
			continue;
		b = dfz__plan_tensor_bytes(x, &x->node[i].aux);
		most = b > most ? b : most;
	}
	return most;
}

/* Halve the largest of @v[0..n) (ties: the lowest index) when it exceeds
 * @floor. Return: false when every entry was already at most @floor. */
static bool halve_largest(uint32_t *v, unsigned n, uint32_t floor)
{
	unsigned d, big = 0;

	if (n == 0)
		return false;
	for (d = 1; d < n; d++)
		if (v[d] > v[big])
			big = d;
	if (v[big] <= floor)
		return false;
	v[big] /= 2;
	return true;
}

/* Tensor cap: halve shapes until every tensor fits, then re-clamp tiles. */
static void clamp_tensors(struct dfz_plan_xfer *x)
{
	unsigned i, d;

	while (largest_tensor(x) > DFZ_CAP_TENSOR_BYTES)
		if (!halve_largest(x->shape, rank_of(x), 0))
			break;
	for (i = 0; i < nodes_of(x); i++) {
		for (d = 0; d < rank_of(x); d++) {
			uint32_t hi = x->shape[d] ? x->shape[d] : 1;

			if (x->node[i].tile[d] > hi)
				x->node[i].tile[d] = hi;
		}
	}
}

/* Local fit: halve each node's tiles until it fits the local level; when
 * even unit tiles do not fit, grow the local level to the need. */
static void clamp_local(struct dfz_plan_xfer *x)
{
	unsigned i;
	size_t need;

	for (i = 0; i < nodes_of(x); i++) {
		while (dfz__plan_node_need(x, i) > x->local_size)
			if (!halve_largest(x->node[i].tile, rank_of(x), 1))
				break;
		need = dfz__plan_node_need(x, i);
		if (need > x->local_size)
			x->local_size = (uint32_t)need; /* < 8 KiB here */
	}
}

void dfz__plan_clamp(struct dfz_plan *p)
{
	clamp_tensors(&p->xfer);
	clamp_local(&p->xfer);
}

void dfz_plan_decode(const uint8_t *buf, size_t n, struct dfz_plan *out)
{
	static const struct dfz_plan none;
	struct dfz_choice c;

	dfz__choice_reader(&c, buf, n);
	dfz__plan_visit(&c, &none, out);
	dfz__plan_clamp(out);
}
