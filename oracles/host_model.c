// SPDX-License-Identifier: MIT
/*
 * Helpers of the host oracles: the nesting of API events, the cursor that
 * pairs top-level calls with the host program's calls, the ABI's tensor
 * sizes computed from its text, and the names messages use.
 */
#include <stdio.h>

#include "host_model.h"

unsigned dfz__hnest_step(struct dfz__hnest *n, const struct dfz_event *ev)
{
	if (ev->kind == DFZ_EV_API_ENTER) {
		n->depth = 1;
		n->op = (uint8_t)ev->aux;
		n->nested = 0;
		n->nmalloc = 0;
		return DFZ__H_ENTER;
	}
	if (ev->kind != DFZ_EV_API_RET)
		return DFZ__H_NONE;
	if (DFZ_API_IS_HOST(ev->aux)) {
		/* A host call whose ENTER was not published (a NULL context
		 * leaves the runtime nothing to publish through) nests
		 * nothing. */
		if (n->depth == 0 || n->op != ev->aux)
			n->nested = n->nmalloc = 0;
		n->depth = 0;
		n->op = (uint8_t)ev->aux;
		return DFZ__H_TOP;
	}
	if (n->depth == 0)
		return DFZ__H_TOP;
	n->nested++;
	if (ev->aux == DFZ_API_MALLOC && ev->id == 0 &&
	    n->nmalloc < DFZ__HNEST_MALLOCS)
		n->malloc_addr[n->nmalloc++] = dfz__dev_addr(&ev->dst);
	return DFZ__H_NESTED;
}

void dfz__hcur_begin(struct dfz__hcur *c, const struct dfz_host_prog *spec)
{
	c->spec = spec;
	c->call = 0;
	c->rep = 0;
	c->lost = !spec;
}

uint32_t dfz__hcall_repeat(const struct dfz_host_call *c)
{
	return c->op == DFZ_API_RUN ? c->repeat : 1;
}

bool dfz__hcall_silent(const struct dfz_host_call *c)
{
	return c->fault == DFZ_FAULT_NULL_CTX || dfz__hcall_repeat(c) == 0;
}

int32_t dfz__hcur_take(struct dfz__hcur *c, unsigned op, uint32_t *rep)
{
	const struct dfz_host_call *call;
	int32_t k;

	*rep = 0;
	while (!c->lost && c->call < c->spec->ncalls &&
	       c->call < DFZ_HOST_MAX_CALLS &&
	       dfz__hcall_silent(&c->spec->call[c->call]))
		c->call++;
	if (c->lost || c->call >= c->spec->ncalls ||
	    c->call >= DFZ_HOST_MAX_CALLS ||
	    c->spec->call[c->call].op != op) {
		c->lost = true;
		return -1;
	}
	k = (int32_t)c->call;
	call = &c->spec->call[k];
	*rep = c->rep;
	if (++c->rep >= dfz__hcall_repeat(call)) {
		c->call++;
		c->rep = 0;
	}
	return k;
}

/* ------------------------------------------------------------ the ABI */

/* Element sizes of enum dfz_dtype, as the ABI defines them (the model's
 * own: init's checks are judged, not borrowed). */
static const uint8_t dtype_size[DFZ_DT_COUNT] = {
	[DFZ_DT_INT8] = 1, [DFZ_DT_FP16] = 2, [DFZ_DT_FP32] = 4,
	[DFZ_DT_INT32] = 4, [DFZ_DT_FP64] = 8,
};

uint64_t dfz__hbytes(const struct dfz_tensor_arg *a)
{
	uint64_t n;
	unsigned d;

	if (a->ndims == 0 || a->ndims > 5 || a->dtype >= DFZ_DT_COUNT)
		return 0;
	n = dtype_size[a->dtype];
	for (d = 0; d < a->ndims; d++) {
		if (a->shapes[d] == 0)
			return 0;
		if (n > UINT64_MAX / a->shapes[d])
			n = UINT64_MAX;   /* stays saturated: shapes are >= 1 */
		else
			n *= a->shapes[d];
	}
	return n;
}

const char *dfz__hrole_name(unsigned role)
{
	const char *name = dfz_role_name(role);

	return name ? name : "role?";
}

const char *dfz__hapi_name(unsigned op)
{
	const char *name = dfz_api_name(op);

	return name ? name : "call?";
}

void dfz__htensor_name(char *buf, size_t n, unsigned i, unsigned role,
		       const struct dfz_tensor_arg *a)
{
	unsigned d, nd = a->ndims <= 5 ? a->ndims : 5;
	int k;

	k = snprintf(buf, n, "arg %u (%s, %s[", i, dfz__hrole_name(role),
		     a->dtype < DFZ_DT_COUNT ? dfz_dtype_name(a->dtype) :
					       "dtype?");
	for (d = 0; d < nd && k >= 0 && (size_t)k < n; d++)
		k += snprintf(buf + k, n - (size_t)k, "%s%u", d ? "x" : "",
			      a->shapes[d]);
	if (k >= 0 && (size_t)k < n)
		snprintf(buf + k, n - (size_t)k, "])");
}

static const char *fault_name(unsigned f)
{
	const char *name = dfz_fault_name(f);

	return name ? name : "fault?";
}

/* Faults that name an argument of init. */
static bool fault_has_arg(unsigned f)
{
	return f >= DFZ_FAULT_NDIMS && f <= DFZ_FAULT_ROLE;
}

void dfz__hcall_name(char *buf, size_t n, const struct dfz_host_prog *spec,
		     uint32_t k, uint32_t rep)
{
	const struct dfz_host_call *c = &spec->call[k];
	const char *op = dfz__hapi_name(c->op);
	char what[64], fault[32] = "";

	if (c->op == DFZ_API_MALLOC)
		snprintf(what, sizeof(what), "%s slot %u, %u bytes", op,
			 dfz__hcall_slot(c), c->size);
	else if (c->op == DFZ_API_FREE)
		snprintf(what, sizeof(what), "%s slot %u", op,
			 dfz__hcall_slot(c));
	else if (c->op == DFZ_API_COPY_TO || c->op == DFZ_API_COPY_FROM)
		snprintf(what, sizeof(what), "%s slot %u+%u, %u bytes", op,
			 dfz__hcall_slot(c), c->offset, c->size);
	else if (c->op == DFZ_API_RUN)
		snprintf(what, sizeof(what), "%s, launch %u of %u", op,
			 rep + 1, dfz__hcall_repeat(c));
	else
		snprintf(what, sizeof(what), "%s", op);
	if (c->fault != DFZ_FAULT_NONE && fault_has_arg(c->fault) &&
	    spec->ntensors)           /* dfz_host_call_args() wraps it */
		snprintf(fault, sizeof(fault), ", fault %s on arg %u",
			 fault_name(c->fault), c->arg % spec->ntensors);
	else if (c->fault != DFZ_FAULT_NONE)
		snprintf(fault, sizeof(fault), ", fault %s",
			 fault_name(c->fault));
	snprintf(buf, n, "call %u (%s%s)", k, what, fault);
}
