// SPDX-License-Identifier: MIT
/*
 * The data side of the host runtime (runtime_host.h): names of dtypes,
 * roles, API calls and faults, the byte size of a tensor argument, and the init
 * arguments of a host program's call with its fault applied. Shared by the
 * harness that performs a program and the oracles that read it.
 */
#include <string.h>

#include "runtime_int.h"

#define DTYPE_NAME(id, name, size) name,
#define DTYPE_SIZE(id, name, size) size,
#define NAME_OF(id, name) name,
#define API_NAME(id, name, key) name,
static const char *const dtype_names[DFZ_DT_COUNT] = {
	DFZ_DTYPE_MAP(DTYPE_NAME)
};
static const uint8_t dtype_sizes[DFZ_DT_COUNT] = { DFZ_DTYPE_MAP(DTYPE_SIZE) };
static const char *const role_names[DFZ_ROLE_COUNT] = {
	DFZ_ROLE_MAP(NAME_OF)
};
static const char *const api_names[DFZ_API_COUNT] = { DFZ_API_MAP(API_NAME) };
static const char *const fault_names[DFZ_FAULT_COUNT] = {
	DFZ_FAULT_MAP(NAME_OF)
};
#undef DTYPE_NAME
#undef DTYPE_SIZE
#undef NAME_OF
#undef API_NAME

unsigned dfz_dtype_size(unsigned dt)
{
	return dt < DFZ_DT_COUNT ? dtype_sizes[dt] : 0;
}

const char *dfz_dtype_name(unsigned dt)
{
	return dt < DFZ_DT_COUNT ? dtype_names[dt] : NULL;
}

const char *dfz_role_name(unsigned role)
{
	return role < DFZ_ROLE_COUNT ? role_names[role] : NULL;
}

const char *dfz_api_name(unsigned call)
{
	return call < DFZ_API_COUNT ? api_names[call] : NULL;
}

const char *dfz_fault_name(unsigned f)
{
	return f < DFZ_FAULT_COUNT ? fault_names[f] : NULL;
}

/* Zero cases first, so a zero shape wins over an overflow. */
uint64_t dfz_tensor_bytes(const struct dfz_tensor_arg *a)
{
	uint64_t bytes;

	if (!a || a->ndims == 0 || a->ndims > 5 || a->dtype >= DFZ_DT_COUNT)
		return 0;
	for (uint32_t d = 0; d < a->ndims; d++)
		if (a->shapes[d] == 0)
			return 0;
	bytes = dtype_sizes[a->dtype];
	for (uint32_t d = 0; d < a->ndims; d++) {
		if (bytes > UINT64_MAX / a->shapes[d])
			return UINT64_MAX;
		bytes *= a->shapes[d];
	}
	return bytes;
}

/* The table faults: one argument of the copied table made bad. */
static void apply_fault(struct dfz_tensor_arg *a, uint8_t *role,
			unsigned fault)
{
	switch (fault) {
	case DFZ_FAULT_NDIMS:
		a->ndims = 0;
		break;
	case DFZ_FAULT_DTYPE:
		a->dtype = DFZ_DT_COUNT;
		break;
	case DFZ_FAULT_SHAPE0:
		a->shapes[0] = 0;
		break;
	case DFZ_FAULT_HUGE:
		a->shapes[0] = 1u << 31;
		break;
	case DFZ_FAULT_DATA0:
		a->data = 0;
		break;
	case DFZ_FAULT_ROLE:
		*role = DFZ_ROLE_COUNT;
		break;
	default:
		break;
	}
}

/* A NULL @c passes the table unchanged; a program without tensors (or a
 * NULL one) passes nargs 0. */
uint32_t dfz_host_call_args(const struct dfz_host_prog *p,
			    const struct dfz_host_call *c,
			    struct dfz_tensor_arg *args, uint8_t *roles)
{
	uint32_t n;

	if (!p || !args || !roles)
		return 0;
	n = p->ntensors < DFZ_HOST_MAX_ARGS ? p->ntensors : DFZ_HOST_MAX_ARGS;
	memset(args, 0, DFZ_HOST_MAX_ARGS * sizeof(*args));
	memset(roles, 0, DFZ_HOST_MAX_ARGS * sizeof(*roles));
	for (uint32_t i = 0; i < n; i++) {
		args[i] = p->t[i].arg;
		roles[i] = p->t[i].role;
	}
	if (!c || n == 0)
		return n;
	apply_fault(&args[c->arg % n], &roles[c->arg % n], c->fault);
	if (c->fault == DFZ_FAULT_NARGS)
		return c->arg % 2 ? DFZ_HOST_MAX_ARGS + 1 : 0;
	return n;
}
