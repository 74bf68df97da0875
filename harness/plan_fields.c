// SPDX-License-Identifier: MIT
/*
 * The fields of a plan, described once: one table per struct (the xfer
 * plan, its nodes and hops; the host plan, its tensors and calls), in the
 * order of the text form, each field with its text key, where it lives,
 * how its values read and print, their range, and when it is printed.
 * Printing (plan_print.c), parsing (plan_text.c, plan_host_text.c) and
 * strict equality (plan_encode.c) are derived from these tables, so
 * adding a field is one entry here (and its draw in the walk of
 * plan_decode.c or plan_host.c, which is the byte format). The names of
 * values are in plan_print.c.
 */
#include <stddef.h>
#include <string.h>

#include "plan_int.h"

/* A member holding one value, and one holding an array of them. */
#define ONE(s, m)							\
	.off = offsetof(s, m), .width = sizeof(((s *)0)->m), .cap = 1
#define VEC(s, m)							\
	.off = offsetof(s, m), .width = sizeof(((s *)0)->m[0]),	\
	.cap = sizeof(((s *)0)->m) / sizeof(((s *)0)->m[0])
/* A part: its prefix, fields, struct, style and line note. */
#define PART(name, prefix, fields, type, inl, idx, note)			\
	static const struct dfz__part name = {				\
		prefix, fields, sizeof(fields) / sizeof(fields[0]),	\
		sizeof(type), inl, idx, note				\
	}
/* An array whose length is the uint8_t member @n of the same struct. */
#define COUNTED(s, m, n)						\
	VEC(s, m), .len = DFZ_LEN_COUNT, .count_off = offsetof(s, n)

/* ------------------------------------------------------ when printed */

static const struct dfz_plan_xfer *xfer_of(const struct dfz__fctx *c)
{
	return &c->p->xfer;
}

static bool has_aux(const struct dfz__fctx *c)
{
	return ((const struct dfz_plan_node *)c->part)->kernel ==
	       DFZ_KERNEL_ADD;
}

static bool has_two_hops(const struct dfz__fctx *c)
{
	return xfer_of(c)->nhops == 2;
}

static bool is_double_buffered(const struct dfz__fctx *c)
{
	return ((const struct dfz_plan_hop *)c->part)->buffering == 2;
}

static bool uses_l2(const struct dfz__fctx *c)
{
	return dfz__plan_is_level_used(xfer_of(c), DFZ_L2);
}

static bool uses_l1(const struct dfz__fctx *c)
{
	return dfz__plan_is_level_used(xfer_of(c), DFZ_L1);
}

static bool is_host(const struct dfz__fctx *c)
{
	return c->p->family == DFZ_FAMILY_HOST;
}

static bool is_api(const struct dfz__fctx *c)
{
	return c->p->family == DFZ_FAMILY_API;
}

static bool is_child(const struct dfz__fctx *c)
{
	return ((const struct dfz_plan_tensor *)c->part)->child != 0;
}

static unsigned call_fields(const struct dfz__fctx *c)
{
	return dfz__plan_call_fields(
		((const struct dfz_host_call *)c->part)->op);
}

static bool uses_slot(const struct dfz__fctx *c)
{
	return call_fields(c) & DFZ_CALL_SLOT;
}

static bool uses_offset(const struct dfz__fctx *c)
{
	return call_fields(c) & DFZ_CALL_OFFSET;
}

static bool uses_size(const struct dfz__fctx *c)
{
	return call_fields(c) & DFZ_CALL_SIZE;
}

static bool uses_repeat(const struct dfz__fctx *c)
{
	return call_fields(c) & DFZ_CALL_REPEAT;
}

static bool has_fault(const struct dfz__fctx *c)
{
	return ((const struct dfz_host_call *)c->part)->fault !=
	       DFZ_FAULT_NONE;
}

static bool has_arg(const struct dfz__fctx *c)
{
	const struct dfz_host_call *call = c->part;

	return dfz__plan_fault_has_arg(call->op, call->fault);
}

/* ------------------------------------------------------------- notes */

/* The levels a hop moves between. */
static void note_levels(FILE *f, const struct dfz__fctx *c)
{
	unsigned to = dfz_plan_hop_level(xfer_of(c), c->i);

	fprintf(f, "  # %s -> %s", dfz__plan_name(DFZ_NAMES_LEVEL, to - 1u),
		dfz__plan_name(DFZ_NAMES_LEVEL, to));
}

static void note_bytes(FILE *f, const struct dfz__fctx *c)
{
	fprintf(f, "  # %llu bytes", (unsigned long long)
		dfz__plan_host_tensor_bytes(c->part));
}

/* ------------------------------------------------------- xfer plans */

#define X struct dfz_plan_xfer
#define N struct dfz_plan_node
#define H struct dfz_plan_hop

static const struct dfz__field node_fields[] = {
	{ .key = "kernel", ONE(N, kernel), .kind = DFZ_FK_NAME,
	  .names = DFZ_NAMES_KERNEL },
	{ .key = "out.order", VEC(N, out.order), .kind = DFZ_FK_ORDER,
	  .len = DFZ_LEN_RANK },
	{ .key = "out.pad", VEC(N, out.pad), .len = DFZ_LEN_RANK,
	  .hi = DFZ_CAP_PAD },
	{ .key = "aux.order", VEC(N, aux.order), .kind = DFZ_FK_ORDER,
	  .len = DFZ_LEN_RANK, .is_shown = has_aux },
	{ .key = "aux.pad", VEC(N, aux.pad), .len = DFZ_LEN_RANK,
	  .hi = DFZ_CAP_PAD, .is_shown = has_aux },
	{ .key = "tile", VEC(N, tile[0]), .len = DFZ_LEN_RANK, .lo = 1 },
	{ .key = "tile1", VEC(N, tile[1]), .len = DFZ_LEN_RANK, .lo = 1,
	  .is_shown = has_two_hops },
};

static const struct dfz__field hop_fields[] = {
	{ .key = "engine", ONE(H, engine), .kind = DFZ_FK_NAME,
	  .names = DFZ_NAMES_ENGINE, .note = note_levels },
	{ .key = "buffering", ONE(H, buffering), .kind = DFZ_FK_NAME,
	  .names = DFZ_NAMES_BUFFERING, .lo = 1 },
	{ .key = "policy", ONE(H, policy), .kind = DFZ_FK_NAME,
	  .names = DFZ_NAMES_POLICY },
	{ .key = "pool", ONE(H, pool_k), .lo = 1, .hi = DFZ_MAX_POOL },
	{ .key = "strategy", ONE(H, strategy), .kind = DFZ_FK_NAME,
	  .names = DFZ_NAMES_STRATEGY },
	{ .key = "db_order", ONE(H, db_order), .kind = DFZ_FK_NAME,
	  .names = DFZ_NAMES_DB_ORDER, .is_shown = is_double_buffered },
};

PART(node_part, "node", node_fields, N, false, true, NULL);
PART(hop_part, "hop", hop_fields, H, false, true, NULL);

static const struct dfz__field xfer_fields[] = {
	{ .key = "rank", ONE(X, rank), .lo = 1, .hi = DFZ_MAX_RANK,
	  .flags = DFZ_FF_FIRST },
	{ .key = "shape", VEC(X, shape), .len = DFZ_LEN_RANK },
	{ .key = "elem", ONE(X, elem), .kind = DFZ_FK_POW2, .hi = 3 },
	{ .key = "tensor_cap", ONE(X, tensor_class), .kind = DFZ_FK_LOG2,
	  .lo = DFZ_TENSOR_CLASS_MIN, .hi = DFZ_TENSOR_CLASS_MAX },
	{ .key = "in.order", VEC(X, in.order), .kind = DFZ_FK_ORDER,
	  .len = DFZ_LEN_RANK },
	{ .key = "in.pad", VEC(X, in.pad), .len = DFZ_LEN_RANK,
	  .hi = DFZ_CAP_PAD },
	{ .key = "hops", ONE(X, nhops), .lo = 1, .hi = DFZ_MAX_HOPS,
	  .flags = DFZ_FF_FIRST },
	{ .key = "ext", ONE(X, ext_level), .kind = DFZ_FK_NAME,
	  .names = DFZ_NAMES_LEVEL, .flags = DFZ_FF_CHECKED },
	{ .key = "nodes", ONE(X, nnodes), .lo = 1, .hi = DFZ_MAX_NODES,
	  .flags = DFZ_FF_FIRST },
	{ .key = "node", VEC(X, node), .kind = DFZ_FK_PART,
	  .count_off = offsetof(X, nnodes), .sub = &node_part },
	{ .key = "hop", VEC(X, hop), .kind = DFZ_FK_PART,
	  .count_off = offsetof(X, nhops), .sub = &hop_part },
	{ .key = "l2_size", ONE(X, l2_size), .lo = DFZ_PLAN_LOCAL_MIN,
	  .hi = DFZ_CAP_L2, .is_shown = uses_l2 },
	{ .key = "l1_size", ONE(X, l1_size), .lo = DFZ_PLAN_LOCAL_MIN,
	  .hi = DFZ_CAP_L1, .is_shown = uses_l1 },
	{ .key = "compute_chunks", ONE(X, compute_chunks), .lo = 1, .hi = 8 },
	{ .key = "latency", ONE(X, latency), .hi = DFZ_CAP_LATENCY },
	{ .key = "bandwidth", ONE(X, bandwidth), .lo = 1,
	  .hi = DFZ_CAP_BANDWIDTH },
	{ .key = "sched", COUNTED(X, sched, nsched),
	  .hi = DFZ_CAP_SCHED_STEPS },
	{ .key = "seed", ONE(X, seed), .hi = UINT32_MAX },
};

PART(xfer_part, "", xfer_fields, X, false, false, NULL);

#undef X
#undef N
#undef H

/* ------------------------------------------------- host and api plans */

#define P struct dfz_plan_host
#define T struct dfz_plan_tensor
#define C struct dfz_host_call

static const struct dfz__field tensor_fields[] = {
	{ .key = "shape", COUNTED(T, shape, rank), .lo = 1,
	  .hi = DFZ_CAP_HOST_DIM },
	{ .key = "dtype", ONE(T, dtype), .kind = DFZ_FK_NAME,
	  .names = DFZ_NAMES_DTYPE },
	{ .key = "role", ONE(T, role), .kind = DFZ_FK_NAME,
	  .names = DFZ_NAMES_ROLE },
	{ .key = "child", ONE(T, child), .kind = DFZ_FK_FLAG, .hi = 1,
	  .is_shown = is_child },
};

static const struct dfz__field call_fields_desc[] = {
	{ .key = NULL, ONE(C, op), .kind = DFZ_FK_OP, .names = DFZ_NAMES_OP },
	{ .key = "slot", ONE(C, slot), .hi = DFZ_HOST_SLOTS - 1,
	  .is_shown = uses_slot },
	{ .key = "offset", ONE(C, offset), .hi = DFZ_HOST_MAX_TENSOR,
	  .is_shown = uses_offset },
	{ .key = "size", ONE(C, size), .lo = 1, .hi = DFZ_HOST_MAX_TENSOR,
	  .is_shown = uses_size },
	{ .key = "repeat", ONE(C, repeat), .lo = 1, .hi = DFZ_CAP_API_REPEAT,
	  .is_shown = uses_repeat },
	{ .key = "fault", ONE(C, fault), .kind = DFZ_FK_NAME,
	  .names = DFZ_NAMES_FAULT, .flags = DFZ_FF_ANY,
	  .is_shown = has_fault },
	{ .key = "arg", ONE(C, arg), .hi = DFZ_HOST_MAX_ARGS - 1,
	  .flags = DFZ_FF_ANY, .is_shown = has_arg },
};

PART(tensor_part, "t", tensor_fields, T, true, true, note_bytes);
PART(call_part, "call", call_fields_desc, C, true, false, NULL);

static const struct dfz__field host_fields[] = {
	{ .key = "tensors", ONE(P, ntensors), .lo = 1,
	  .hi = DFZ_HOST_MAX_ARGS, .flags = DFZ_FF_FIRST },
	{ .key = "t", VEC(P, t), .kind = DFZ_FK_PART,
	  .count_off = offsetof(P, ntensors), .sub = &tensor_part },
	{ .key = "graph", ONE(P, graph), .hi = 1 },
	{ .key = "launches", ONE(P, launches), .lo = 1,
	  .hi = DFZ_CAP_LAUNCHES, .is_shown = is_host },
	{ .key = "budget", ONE(P, budget), .lo = DFZ_HOST_BUDGET_MIN,
	  .hi = DFZ_CAP_DEV_BUDGET },
	{ .key = "bin", ONE(P, bin_size), .lo = 1, .hi = DFZ_CAP_BIN },
	{ .key = "seed", ONE(P, seed), .hi = UINT32_MAX },
	{ .key = "call", VEC(P, call), .kind = DFZ_FK_PART,
	  .count_off = offsetof(P, ncalls), .sub = &call_part,
	  .is_shown = is_api },
};

PART(host_part, "", host_fields, P, false, false, NULL);

#undef P
#undef T
#undef C

const struct dfz__part *dfz__part_xfer(void)
{
	return &xfer_part;
}

const struct dfz__part *dfz__part_host(void)
{
	return &host_part;
}

/* ------------------------------------------------------ values */

uint32_t dfz__field_get(const struct dfz__field *fd, const void *part,
			unsigned j)
{
	const uint8_t *at = (const uint8_t *)part + fd->off + j * fd->width;
	uint32_t v;

	if (fd->width == 1)
		return *at;
	memcpy(&v, at, sizeof(v));
	return v;
}

void dfz__field_set(const struct dfz__field *fd, void *part, unsigned j,
		    uint32_t v)
{
	uint8_t *at = (uint8_t *)part + fd->off + j * fd->width;

	if (fd->width == 1)
		*at = (uint8_t)v;
	else
		memcpy(at, &v, sizeof(v));
}

unsigned dfz__field_count(const struct dfz__field *fd,
			  const struct dfz__fctx *c)
{
	unsigned n = 1;

	if (fd->kind == DFZ_FK_PART || fd->len == DFZ_LEN_COUNT)
		n = ((const uint8_t *)c->part)[fd->count_off];
	else if (fd->len == DFZ_LEN_RANK)
		n = c->p->xfer.rank;
	return n < fd->cap ? n : fd->cap;
}

bool dfz__field_is_shown(const struct dfz__field *fd,
			 const struct dfz__fctx *c)
{
	return fd->kind != DFZ_FK_HIDDEN && fd->kind != DFZ_FK_PART &&
	       (!fd->is_shown || fd->is_shown(c));
}

int dfz__part_find(const struct dfz__part *pt, const char *key)
{
	for (unsigned k = 0; k < pt->n; k++)
		if (pt->f[k].key && pt->f[k].kind != DFZ_FK_PART &&
		    !strcmp(key, pt->f[k].key))
			return (int)k;
	return -1;
}

/* ------------------------------------------------------ printing */

/* The draw index of api op @op (DFZ_PLAN_HOST_OPS when none). */
static unsigned op_index(unsigned op)
{
	unsigned i;

	for (i = 0; i < DFZ_PLAN_HOST_OPS; i++)
		if (dfz__plan_host_ops()[i] == op)
			break;
	return i;
}

static void print_value(FILE *f, const struct dfz__field *fd, uint32_t v)
{
	switch (fd->kind) {
	case DFZ_FK_NAME:
		fprintf(f, " %s", dfz__plan_name(fd->names, v - fd->lo));
		break;
	case DFZ_FK_OP:
		fprintf(f, " %s", dfz__plan_name(fd->names, op_index(v)));
		break;
	case DFZ_FK_LOG2:
		v = v < fd->lo ? fd->lo : v > fd->hi ? fd->hi : v;
		fprintf(f, " %lu", 1ul << v);
		break;
	case DFZ_FK_FLAG:
		break;
	default:
		fprintf(f, " %lu", (unsigned long)v);
		break;
	}
}

/* The values of @fd at @c, each after a space. */
static void print_values(FILE *f, const struct dfz__field *fd,
			 const struct dfz__fctx *c)
{
	unsigned j, n = dfz__field_count(fd, c);

	for (j = 0; j < n; j++)
		print_value(f, fd, dfz__field_get(fd, c->part, j));
}

/* One line per element: "prefixK key values... key values...". */
static void print_inline(FILE *f, const struct dfz__part *pt,
			 const struct dfz__fctx *c)
{
	const struct dfz__field *fd;
	unsigned k;

	fputs(pt->prefix, f);
	if (pt->indexed)
		fprintf(f, "%u", c->i);
	for (k = 0; k < pt->n; k++) {
		fd = &pt->f[k];
		if (!dfz__field_is_shown(fd, c))
			continue;
		if (fd->key)
			fprintf(f, " %s", fd->key);
		print_values(f, fd, c);
	}
	if (pt->note)
		pt->note(f, c);
	fputc('\n', f);
}

static void print_keyed(FILE *f, const struct dfz__part *pt,
			const struct dfz__fctx *c);

/* The elements of array field @fd, each a part. */
static void print_array(FILE *f, const struct dfz__field *fd,
			const struct dfz__fctx *c)
{
	const uint8_t *base = (const uint8_t *)c->part + fd->off;
	struct dfz__fctx e = { .p = c->p };
	unsigned n = dfz__field_count(fd, c);

	for (e.i = 0; e.i < n; e.i++) {
		e.part = base + e.i * fd->sub->size;
		if (fd->sub->inline_fields)
			print_inline(f, fd->sub, &e);
		else
			print_keyed(f, fd->sub, &e);
	}
}

/* One line per field: "[prefixK.]key values". */
static void print_keyed(FILE *f, const struct dfz__part *pt,
			const struct dfz__fctx *c)
{
	const struct dfz__field *fd;
	unsigned k;

	for (k = 0; k < pt->n; k++) {
		fd = &pt->f[k];
		if (fd->kind == DFZ_FK_PART)
			print_array(f, fd, c);
		if (!dfz__field_is_shown(fd, c))
			continue;
		if (pt->indexed)
			fprintf(f, "%s%u.", pt->prefix, c->i);
		fputs(fd->key, f);
		print_values(f, fd, c);
		if (fd->note)
			fd->note(f, c);
		fputc('\n', f);
	}
}

void dfz__part_print(FILE *f, const struct dfz__part *pt,
		     const struct dfz_plan *p, const void *base)
{
	struct dfz__fctx c = { .p = p, .part = base };

	print_keyed(f, pt, &c);
}

/* ------------------------------------------------------ equality */

bool dfz__part_same(const struct dfz__part *pt, const void *a, const void *b)
{
	const uint8_t *pa = a, *pb = b;
	const struct dfz__field *fd;
	unsigned k, i;

	for (k = 0; k < pt->n; k++) {
		fd = &pt->f[k];
		if ((fd->kind == DFZ_FK_PART || fd->len == DFZ_LEN_COUNT) &&
		    pa[fd->count_off] != pb[fd->count_off])
			return false;
		if (fd->kind != DFZ_FK_PART) {
			if (memcmp(pa + fd->off, pb + fd->off,
				   (size_t)fd->width * fd->cap))
				return false;
			continue;
		}
		for (i = 0; i < fd->cap; i++)
			if (!dfz__part_same(fd->sub,
					    pa + fd->off + i * fd->sub->size,
					    pb + fd->off + i * fd->sub->size))
				return false;
	}
	return true;
}
