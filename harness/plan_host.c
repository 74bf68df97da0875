// SPDX-License-Identifier: MIT
/*
 * The host and api families of plans: their part of the one field walk
 * (run by the decoder to draw and by the encoder to emit, as the xfer walk
 * in plan_decode.c), their clamps, and the size formulas the clamps
 * enforce. Both families draw the same tensors; a host plan then draws its
 * launches, an api plan its sequence of calls, each call only the fields
 * its op uses (the others stay 0) and a fault one time in four.
 * The clamps halve tensor dims until every tensor and all of them together
 * fit their caps, lower a host plan's launches until its work is bounded,
 * and raise a host plan's budget to what it needs to run cleanly. An api
 * plan's budget is drawn, its calls' errors are the point: it is raised
 * only as far as the child tensors, which the harness stages on the
 * device before the first call (a plan whose staging fails would not run
 * at all). The clamps are idempotent, so decode(encode(p)) == p for every
 * decoded p.
 */
#include <string.h>

#include "plan_int.h"

static const uint8_t host_ops[DFZ_PLAN_HOST_OPS] = {
	DFZ_API_MALLOC, DFZ_API_FREE, DFZ_API_COPY_TO, DFZ_API_COPY_FROM,
	DFZ_API_INIT, DFZ_API_RUN, DFZ_API_VALIDATE, DFZ_API_FINALIZE,
};

const uint8_t *dfz__plan_host_ops(void)
{
	return host_ops;
}

/* Of enum dfz_dtype: int8, fp16, fp32, int32, fp64. */
static const uint8_t dtype_sizes[DFZ_DT_COUNT] = { 1, 2, 4, 4, 8 };

/* A call draws a fault when its fault flag (0..FAULT_FLAG) is FAULT_FLAG. */
#define FAULT_FLAG 3u

/* ---------------------------------------------------------- the formulas */

unsigned dfz__plan_dtype_size(unsigned dtype)
{
	return dtype < DFZ_DT_COUNT ? dtype_sizes[dtype] : 0;
}

unsigned dfz__plan_call_fields(unsigned op)
{
	switch (op) {
	case DFZ_API_MALLOC:
		return DFZ_CALL_SLOT | DFZ_CALL_SIZE;
	case DFZ_API_FREE:
		return DFZ_CALL_SLOT;
	case DFZ_API_COPY_TO:
	case DFZ_API_COPY_FROM:
		return DFZ_CALL_SLOT | DFZ_CALL_SIZE | DFZ_CALL_OFFSET;
	case DFZ_API_RUN:
		return DFZ_CALL_REPEAT;
	default:
		return 0;
	}
}

bool dfz__plan_fault_has_arg(unsigned op, unsigned fault)
{
	if (op != DFZ_API_INIT)
		return false;
	switch (fault) {
	case DFZ_FAULT_NARGS:
	case DFZ_FAULT_NDIMS:
	case DFZ_FAULT_DTYPE:
	case DFZ_FAULT_SHAPE0:
	case DFZ_FAULT_HUGE:
	case DFZ_FAULT_DATA0:
	case DFZ_FAULT_ROLE:
		return true;
	default:
		return false;
	}
}

static unsigned rank_of(const struct dfz_plan_tensor *t)
{
	return t->rank < DFZ_MAX_RANK ? t->rank : DFZ_MAX_RANK;
}

static unsigned ntensors_of(const struct dfz_plan_host *h)
{
	return h->ntensors < DFZ_HOST_MAX_ARGS ? h->ntensors :
						 DFZ_HOST_MAX_ARGS;
}

uint64_t dfz__plan_host_tensor_bytes(const struct dfz_plan_tensor *t)
{
	uint64_t b = dfz__plan_dtype_size(t->dtype);
	unsigned d;

	for (d = 0; d < rank_of(t); d++) {
		if (t->shape[d] != 0 && b > UINT64_MAX / t->shape[d])
			return UINT64_MAX;
		b *= t->shape[d];
	}
	return b;
}

uint64_t dfz__plan_host_total(const struct dfz_plan_host *h)
{
	uint64_t total = 0, b;
	unsigned k;

	for (k = 0; k < ntensors_of(h); k++) {
		b = dfz__plan_host_tensor_bytes(&h->t[k]);
		total = b > UINT64_MAX - total ? UINT64_MAX : total + b;
	}
	return total;
}

/* Bytes of the packed graph output: the first OUT tensor's, when any. */
static uint64_t graph_bytes(const struct dfz_plan_host *h)
{
	unsigned k;

	if (!h->graph)
		return 0;
	for (k = 0; k < ntensors_of(h); k++)
		if (h->t[k].role == DFZ_ROLE_OUT)
			return dfz__plan_host_tensor_bytes(&h->t[k]);
	return 0;
}

uint64_t dfz__plan_host_children(const struct dfz_plan_host *h)
{
	uint64_t total = 0, b;
	unsigned k;

	for (k = 0; k < ntensors_of(h); k++) {
		if (!h->t[k].child)
			continue;
		b = dfz__plan_host_tensor_bytes(&h->t[k]);
		total = b > UINT64_MAX - total ? UINT64_MAX : total + b;
	}
	return total;
}

uint64_t dfz__plan_host_need(const struct dfz_plan_host *h)
{
	uint64_t total = dfz__plan_host_total(h), graph = graph_bytes(h);

	if (total > UINT64_MAX / 4 || graph > UINT64_MAX / 4)
		return UINT64_MAX;
	return total + graph + h->bin_size;
}

/* ------------------------------------------------------------ the walk */

static void visit_tensor(struct dfz_choice *c, const struct dfz_plan_tensor *s,
			 struct dfz_plan_tensor *d)
{
	unsigned k;

	d->rank = (uint8_t)dfz__choice_draw(c, 1, DFZ_MAX_RANK, s->rank);
	for (k = 0; k < d->rank; k++)
		d->shape[k] = dfz__choice_draw_size(c, 1, DFZ_CAP_HOST_DIM,
						    s->shape[k]);
	d->dtype = (uint8_t)dfz__choice_draw(c, 0, DFZ_DT_COUNT - 1, s->dtype);
	d->role = (uint8_t)dfz__choice_draw(c, 0, DFZ_ROLE_COUNT - 1, s->role);
	d->child = (uint8_t)dfz__choice_draw(c, 0, 1, s->child);
}

/* The draw index of @op, or 0 (the simplest op) for one no plan draws. */
static unsigned op_index(unsigned op)
{
	unsigned i;

	for (i = 0; i < DFZ_PLAN_HOST_OPS; i++)
		if (dfz__plan_host_ops()[i] == op)
			return i;
	return 0;
}

/* The op, then the fault (and the argument it applies to), then the
 * fields the op uses. */
static void visit_call(struct dfz_choice *c, const struct dfz_host_call *s,
		       struct dfz_host_call *d)
{
	unsigned fields;

	d->op = dfz__plan_host_ops()[dfz__choice_draw(
		c, 0, DFZ_PLAN_HOST_OPS - 1, op_index(s->op))];
	if (dfz__choice_draw(c, 0, FAULT_FLAG,
			     s->fault ? FAULT_FLAG : 0) == FAULT_FLAG)
		d->fault = (uint8_t)dfz__choice_draw(c, 1, DFZ_FAULT_COUNT - 1,
						     s->fault);
	if (dfz__plan_fault_has_arg(d->op, d->fault))
		d->arg = (uint8_t)dfz__choice_draw(c, 0, DFZ_HOST_MAX_ARGS - 1,
						   s->arg);
	fields = dfz__plan_call_fields(d->op);
	if (fields & DFZ_CALL_SLOT)
		d->slot = (uint8_t)dfz__choice_draw(c, 0, DFZ_HOST_SLOTS - 1,
						    s->slot);
	if (fields & DFZ_CALL_SIZE)
		d->size = dfz__choice_draw_size(c, 1, DFZ_HOST_MAX_TENSOR,
						s->size);
	if (fields & DFZ_CALL_OFFSET)
		d->offset = dfz__choice_draw_size(c, 0, DFZ_HOST_MAX_TENSOR,
						  s->offset);
	if (fields & DFZ_CALL_REPEAT)
		d->repeat = dfz__choice_draw(c, 1, DFZ_CAP_API_REPEAT,
					     s->repeat);
}

/* What the device gets: its budget and the kernel binary's size. */
static void visit_device(struct dfz_choice *c, const struct dfz_plan_host *s,
			 struct dfz_plan_host *d)
{
	d->budget = dfz__choice_draw_size(c, DFZ_HOST_BUDGET_MIN,
					  DFZ_CAP_DEV_BUDGET, s->budget);
	d->bin_size = dfz__choice_draw_size(c, 1, DFZ_CAP_BIN, s->bin_size);
}

void dfz__plan_visit_host(struct dfz_choice *c, const struct dfz_plan *src,
			  struct dfz_plan *dst)
{
	const struct dfz_plan_host *s = &src->host;
	struct dfz_plan_host *d = &dst->host;
	unsigned k;

	d->ntensors = (uint8_t)dfz__choice_draw_size(c, 1, DFZ_HOST_MAX_ARGS,
						     s->ntensors);
	for (k = 0; k < d->ntensors; k++)
		visit_tensor(c, &s->t[k], &d->t[k]);
	d->graph = (uint8_t)dfz__choice_draw(c, 0, 1, s->graph);
	if (dst->family == DFZ_FAMILY_HOST) {
		d->launches = dfz__choice_draw_size(c, 1, DFZ_CAP_LAUNCHES,
						    s->launches);
		visit_device(c, s, d);
	} else {
		visit_device(c, s, d);
		d->ncalls = (uint8_t)dfz__choice_draw(c, 0, DFZ_HOST_MAX_CALLS,
						      s->ncalls);
		for (k = 0; k < d->ncalls; k++)
			visit_call(c, &s->call[k], &d->call[k]);
	}
	d->seed = dfz__choice_draw(c, 0, UINT32_MAX, s->seed);
}

/* ------------------------------------------------------------ the clamps */

/* The tensor with the most bytes (ties: the lowest index). */
static unsigned largest_tensor(const struct dfz_plan_host *h)
{
	unsigned k, big = 0;

	for (k = 1; k < ntensors_of(h); k++)
		if (dfz__plan_host_tensor_bytes(&h->t[k]) >
		    dfz__plan_host_tensor_bytes(&h->t[big]))
			big = k;
	return big;
}

/* Tensor caps: halve the largest dim of each tensor over its cap, then of
 * the largest tensor while all of them are over theirs (dims stay >= 1). */
static void clamp_tensors(struct dfz_plan_host *h)
{
	struct dfz_plan_tensor *t;
	unsigned k;

	for (k = 0; k < ntensors_of(h); k++) {
		t = &h->t[k];
		while (dfz__plan_host_tensor_bytes(t) > DFZ_HOST_MAX_TENSOR)
			if (!dfz__plan_halve_largest(t->shape, rank_of(t), 1))
				break;
	}
	while (dfz__plan_host_total(h) > DFZ_CAP_HOST_TOTAL) {
		t = &h->t[largest_tensor(h)];
		if (!dfz__plan_halve_largest(t->shape, rank_of(t), 1))
			break;
	}
}

/* A host plan's launches bound its work. */
static void clamp_launches(struct dfz_plan_host *h)
{
	uint64_t per = dfz__plan_host_total(h), most;

	per = per > DFZ_PLAN_LAUNCH_BYTES ? per : DFZ_PLAN_LAUNCH_BYTES;
	if ((uint64_t)h->launches * per > DFZ_PLAN_HOST_WORK) {
		most = DFZ_PLAN_HOST_WORK / per;
		h->launches = most ? (uint32_t)most : 1;
	}
}

/* The budget at least @need (never above the cap). */
static void raise_budget(struct dfz_plan_host *h, uint64_t need)
{
	if (need > h->budget)
		h->budget = need < DFZ_CAP_DEV_BUDGET ? (uint32_t)need :
							 DFZ_CAP_DEV_BUDGET;
}

void dfz__plan_clamp_host(struct dfz_plan *p)
{
	struct dfz_plan_host *h = &p->host;

	clamp_tensors(h);
	if (p->family != DFZ_FAMILY_HOST) {
		raise_budget(h, dfz__plan_host_children(h));
		return;
	}
	clamp_launches(h);
	raise_budget(h, dfz__plan_host_need(h));
}
