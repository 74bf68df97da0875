// SPDX-License-Identifier: MIT
/*
 * Structural edits for the minimizer: simplifications of a decoded plan
 * that no edit of a few bytes reaches, because the decoder draws the
 * fields they remove in many places (a node's tiles sit between the other
 * nodes' fields, a hop's tile extents inside every node). Each edit drops
 * one part: a node, the second hop, a dim of the tensors, a tensor, a
 * host tensor's last dim, an api call. The shrinker encodes the edited plan and treats its stream
 * like any other candidate: kept only when shortlex-smaller and still
 * the same bug.
 */
#include <string.h>

#include "shrink_int.h"

#define EDIT_NODES 0
#define EDIT_HOP (EDIT_NODES + DFZ_MAX_NODES)
#define EDIT_DIMS (EDIT_HOP + 1)
#define EDIT_TENSORS (EDIT_DIMS + DFZ_MAX_RANK)
#define EDIT_RANKS (EDIT_TENSORS + DFZ_HOST_MAX_ARGS)
#define EDIT_CALLS (EDIT_RANKS + DFZ_HOST_MAX_ARGS)
_Static_assert(EDIT_CALLS + DFZ_HOST_MAX_CALLS == DFZ__MIN_EDITS,
	       "DFZ__MIN_EDITS counts every edit");

/* Remove entry @i of an array of @n entries of @size bytes. */
static void drop_entry(void *base, size_t size, unsigned n, unsigned i)
{
	char *b = base;

	memmove(b + i * size, b + (i + 1) * size, (n - i - 1) * size);
	memset(b + (n - 1) * size, 0, size);
}

/* Remove dim @d of a layout of @rank dims: the order loses @d and the
 * dims after it move down one. */
static void layout_drop_dim(struct dfz_plan_layout *l, unsigned rank,
			    unsigned d)
{
	unsigned j, k = 0;

	for (j = 0; j < rank; j++)
		if (l->order[j] != d)
			l->order[k++] = (uint8_t)(l->order[j] - (l->order[j] > d));
	l->order[rank - 1] = 0;
	drop_entry(l->pad, 1, rank, d);
}

static bool drop_dim(struct dfz_plan_xfer *x, unsigned d)
{
	if (x->rank <= 1 || d >= x->rank)
		return false;
	drop_entry(x->shape, sizeof(x->shape[0]), x->rank, d);
	layout_drop_dim(&x->in, x->rank, d);
	for (unsigned i = 0; i < DFZ_MAX_NODES; i++) {
		struct dfz_plan_node *nd = &x->node[i];

		layout_drop_dim(&nd->out, x->rank, d);
		layout_drop_dim(&nd->aux, x->rank, d);
		for (unsigned h = 0; h < DFZ_MAX_HOPS; h++)
			drop_entry(nd->tile[h], sizeof(nd->tile[h][0]), x->rank, d);
	}
	x->rank--;
	return true;
}

static bool drop_node(struct dfz_plan_xfer *x, unsigned i)
{
	if (x->nnodes <= 1 || i >= x->nnodes)
		return false;
	drop_entry(x->node, sizeof(x->node[0]), DFZ_MAX_NODES, i);
	x->nnodes--;
	return true;
}

static bool drop_hop(struct dfz_plan_xfer *x)
{
	if (x->nhops != 2)
		return false;
	x->nhops = 1;
	memset(&x->hop[1], 0, sizeof(x->hop[1]));
	for (unsigned i = 0; i < DFZ_MAX_NODES; i++)
		memset(x->node[i].tile[1], 0, sizeof(x->node[i].tile[1]));
	return true;
}

static bool drop_tensor(struct dfz_plan_host *h, unsigned i)
{
	if (h->ntensors <= 1 || i >= h->ntensors)
		return false;
	drop_entry(h->t, sizeof(h->t[0]), DFZ_HOST_MAX_ARGS, i);
	h->ntensors--;
	return true;
}

/* Drop the last dim of tensor @i. */
static bool drop_tensor_dim(struct dfz_plan_host *h, unsigned i)
{
	struct dfz_plan_tensor *t = &h->t[i];

	if (i >= h->ntensors || t->rank <= 1)
		return false;
	t->shape[--t->rank] = 0;
	return true;
}

static bool drop_call(struct dfz_plan_host *h, unsigned i)
{
	if (i >= h->ncalls)
		return false;
	drop_entry(h->call, sizeof(h->call[0]), DFZ_HOST_MAX_CALLS, i);
	h->ncalls--;
	return true;
}

bool dfz__min_plan_edit(const struct dfz_plan *in, unsigned k,
			struct dfz_plan *out)
{
	bool xfer = in->family == DFZ_FAMILY_XFER;

	*out = *in;
	if (k < EDIT_HOP)
		return xfer && drop_node(&out->xfer, k - EDIT_NODES);
	if (k < EDIT_DIMS)
		return xfer && drop_hop(&out->xfer);
	if (k < EDIT_TENSORS)
		return xfer && drop_dim(&out->xfer, k - EDIT_DIMS);
	if (k < EDIT_RANKS)
		return !xfer && drop_tensor(&out->host, k - EDIT_TENSORS);
	if (k < EDIT_CALLS)
		return !xfer && drop_tensor_dim(&out->host, k - EDIT_RANKS);
	return in->family == DFZ_FAMILY_API && k < DFZ__MIN_EDITS &&
	       drop_call(&out->host, k - EDIT_CALLS);
}
