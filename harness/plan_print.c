// SPDX-License-Identifier: MIT
/*
 * Printing the text form of a plan (.plan): every key that the plan's
 * choice stream draws, one `key value...` line each, in a fixed order that
 * reads top-down (tensors, hops, nodes, engines, sizes, timing), with the
 * levels each hop moves between as comments. dfz_plan_parse() in
 * plan_text.c reads it back to the same plan; the names of values are
 * shared with it through plan_int.h. Host and api plans print in
 * plan_host_text.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan_int.h"

static const char *const family_names[DFZ_FAMILY_COUNT] = {
	"xfer", "host", "api"
};
static const char *const kernel_names[DFZ_KERNEL_COUNT] = {
	"copy", "inc", "add"
};
static const char *const engine_names[DFZ_ENGINE_COUNT] = {
	"ram", "mchan", "idma"
};
static const char *const level_names[DFZ_NLEVELS] = { "L3", "L2", "L1" };
static const char *const buffering_names[2] = { "single", "double" };
static const char *const policy_names[DFZ_POLICY_COUNT] = {
	"async-shared", "wait-each", "pool", "blocking"
};
static const char *const strategy_names[DFZ_STRAT_COUNT] = {
	"tensor-dir", "dir", "barrier", "fresh"
};

static const char *const db_order_names[DFZ_DB_ORDER_COUNT] = {
	"generator", "eager"
};

static const char *const dtype_names[DFZ_DT_COUNT] = {
	"int8", "fp16", "fp32", "int32", "fp64"
};
static const char *const role_names[DFZ_ROLE_COUNT] = { "in", "out", "inout" };
/* Indexed by draw index (dfz__plan_host_ops()), not by enum dfz_api. */
static const char *const op_names[DFZ_PLAN_HOST_OPS] = {
	"malloc", "free", "copy_to", "copy_from", "init", "run", "validate",
	"finalize"
};
static const char *const fault_names[DFZ_FAULT_COUNT] = {
	"none", "null_ctx", "null_ptr", "null_roles", "nargs", "ndims", "dtype",
	"shape0", "huge", "data0", "role", "zero"
};

/* The tables are file-static (the library exports no variables). */
static const struct {
	const char *const *names;
	unsigned n;
} name_tables[DFZ_NAMES_COUNT] = {
	[DFZ_NAMES_FAMILY] = { family_names, DFZ_FAMILY_COUNT },
	[DFZ_NAMES_KERNEL] = { kernel_names, DFZ_KERNEL_COUNT },
	[DFZ_NAMES_ENGINE] = { engine_names, DFZ_ENGINE_COUNT },
	[DFZ_NAMES_LEVEL] = { level_names, DFZ_NLEVELS },
	[DFZ_NAMES_BUFFERING] = { buffering_names, 2 },
	[DFZ_NAMES_POLICY] = { policy_names, DFZ_POLICY_COUNT },
	[DFZ_NAMES_STRATEGY] = { strategy_names, DFZ_STRAT_COUNT },
	[DFZ_NAMES_DB_ORDER] = { db_order_names, DFZ_DB_ORDER_COUNT },
	[DFZ_NAMES_DTYPE] = { dtype_names, DFZ_DT_COUNT },
	[DFZ_NAMES_ROLE] = { role_names, DFZ_ROLE_COUNT },
	[DFZ_NAMES_OP] = { op_names, DFZ_PLAN_HOST_OPS },
	[DFZ_NAMES_FAULT] = { fault_names, DFZ_FAULT_COUNT },
};

const char *const *dfz__names(enum dfz__name_table t, unsigned *n)
{
	*n = name_tables[t].n;
	return name_tables[t].names;
}

const char *dfz__plan_name(enum dfz__name_table t, unsigned v)
{
	return v < name_tables[t].n ? name_tables[t].names[v] : "?";
}

static unsigned rank_of(const struct dfz_plan_xfer *x)
{
	return x->rank < DFZ_MAX_RANK ? x->rank : DFZ_MAX_RANK;
}

static void print_u8s(FILE *f, const char *prefix, const char *key,
		      const uint8_t *v, unsigned n)
{
	unsigned i;

	fprintf(f, "%s%s", prefix, key);
	for (i = 0; i < n; i++)
		fprintf(f, " %u", (unsigned)v[i]);
	fputc('\n', f);
}

static void print_u32s(FILE *f, const char *prefix, const char *key,
		       const uint32_t *v, unsigned n)
{
	unsigned i;

	fprintf(f, "%s%s", prefix, key);
	for (i = 0; i < n; i++)
		fprintf(f, " %lu", (unsigned long)v[i]);
	fputc('\n', f);
}

static void print_node(FILE *f, const struct dfz_plan_xfer *x, unsigned i)
{
	const struct dfz_plan_node *n = &x->node[i];
	char prefix[16];

	snprintf(prefix, sizeof(prefix), "node%u.", i);
	fprintf(f, "%skernel %s\n", prefix,
		dfz__plan_name(DFZ_NAMES_KERNEL, n->kernel));
	print_u8s(f, prefix, "out.order", n->out.order, rank_of(x));
	print_u8s(f, prefix, "out.pad", n->out.pad, rank_of(x));
	if (n->kernel == DFZ_KERNEL_ADD) {
		print_u8s(f, prefix, "aux.order", n->aux.order, rank_of(x));
		print_u8s(f, prefix, "aux.pad", n->aux.pad, rank_of(x));
	}
	print_u32s(f, prefix, "tile", n->tile[0], rank_of(x));
	if (x->nhops == 2)
		print_u32s(f, prefix, "tile1", n->tile[1], rank_of(x));
}

static void print_hop(FILE *f, const struct dfz_plan_xfer *x, unsigned h)
{
	const struct dfz_plan_hop *hop = &x->hop[h];
	unsigned to = dfz_plan_hop_level(x, h);

	fprintf(f, "hop%u.engine %s  # %s -> %s\n", h,
		dfz__plan_name(DFZ_NAMES_ENGINE, hop->engine),
		dfz__plan_name(DFZ_NAMES_LEVEL, to - 1u),
		dfz__plan_name(DFZ_NAMES_LEVEL, to));
	fprintf(f, "hop%u.buffering %s\n", h,
		dfz__plan_name(DFZ_NAMES_BUFFERING, hop->buffering - 1u));
	fprintf(f, "hop%u.policy %s\n", h,
		dfz__plan_name(DFZ_NAMES_POLICY, hop->policy));
	fprintf(f, "hop%u.pool %u\n", h, (unsigned)hop->pool_k);
	fprintf(f, "hop%u.strategy %s\n", h,
		dfz__plan_name(DFZ_NAMES_STRATEGY, hop->strategy));
	if (hop->buffering == 2)
		fprintf(f, "hop%u.db_order %s\n", h,
			dfz__plan_name(DFZ_NAMES_DB_ORDER, hop->db_order));
}

static void print_run(FILE *f, const struct dfz_plan_xfer *x)
{
	unsigned h;

	for (h = 0; h < x->nhops && h < DFZ_MAX_HOPS; h++)
		print_hop(f, x, h);
	if (dfz__plan_is_level_used(x, DFZ_L2))
		fprintf(f, "l2_size %lu\n", (unsigned long)x->l2_size);
	if (dfz__plan_is_level_used(x, DFZ_L1))
		fprintf(f, "l1_size %lu\n", (unsigned long)x->l1_size);
	fprintf(f, "compute_chunks %u\n", (unsigned)x->compute_chunks);
	fprintf(f, "latency %lu\n", (unsigned long)x->latency);
	fprintf(f, "bandwidth %lu\n", (unsigned long)x->bandwidth);
	print_u8s(f, "", "sched", x->sched,
		  x->nsched < DFZ_MAX_SCHED ? x->nsched : DFZ_MAX_SCHED);
	fprintf(f, "seed %lu\n", (unsigned long)x->seed);
}

void dfz_plan_print(const struct dfz_plan *p, FILE *f)
{
	const struct dfz_plan_xfer *x = &p->xfer;
	unsigned i;

	fputs("# dmafuzz plan\n", f);
	fprintf(f, "family %s\n",
		dfz__plan_name(DFZ_NAMES_FAMILY, p->family));
	if (p->family != DFZ_FAMILY_XFER) {
		dfz__plan_print_host(p, f);
		return;
	}
	fprintf(f, "rank %u\n", (unsigned)x->rank);
	print_u32s(f, "", "shape", x->shape, rank_of(x));
	fprintf(f, "elem %u\n", (unsigned)x->elem);
	fprintf(f, "tensor_cap %lu\n",
		(unsigned long)dfz_plan_tensor_cap(x));
	print_u8s(f, "", "in.order", x->in.order, rank_of(x));
	print_u8s(f, "", "in.pad", x->in.pad, rank_of(x));
	fprintf(f, "hops %u\n", (unsigned)x->nhops);
	fprintf(f, "ext %s\n",
		dfz__plan_name(DFZ_NAMES_LEVEL, x->ext_level));
	fprintf(f, "nodes %u\n", (unsigned)x->nnodes);
	for (i = 0; i < x->nnodes && i < DFZ_MAX_NODES; i++)
		print_node(f, x, i);
	print_run(f, x);
}

char *dfz_plan_text(const struct dfz_plan *p)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	dfz_plan_print(p, f);
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* ------------------------------------------------------------ clamps */

/* @p printed into a malloc'ed string. */
static char *print_to_string(const struct dfz_plan *p)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	if (!f)
		return NULL;
	dfz_plan_print(p, f);
	if (fclose(f) != 0) {
		free(s);
		return NULL;
	}
	return s;
}

/*
 * Is the change from line @a to line @b (lengths @na, @nb) a level size
 * that grew? A level grows to hold the plan's tiles and requests: that
 * gives the plan the memory it needs, it changes nothing it does.
 */
static bool is_grown_size(const char *a, size_t na, const char *b, size_t nb)
{
	static const char *const keys[] = { "l2_size ", "l1_size " };

	(void)na;
	(void)nb;
	for (unsigned i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		size_t k = strlen(keys[i]);

		if (!strncmp(a, keys[i], k) && !strncmp(b, keys[i], k))
			return strtoul(b + k, NULL, 10) >
			       strtoul(a + k, NULL, 10);
	}
	return false;
}

/* Append "KEY OLD -> NEW" for line @a (length @na) against @b. */
static void put_change(char *out, size_t cap, size_t *len, const char *a,
		       size_t na, const char *b, size_t nb)
{
	const char *sp = memchr(b, ' ', nb);
	size_t kl = sp ? (size_t)(sp - b) + 1 : 0;
	int k;

	if (*len >= cap)
		return;
	k = snprintf(out + *len, cap - *len, "%s%.*s -> %.*s",
		     *len ? "; " : "", (int)na, a, (int)(nb - kl), b + kl);
	*len += k > 0 ? (size_t)k : 0;
	if (*len >= cap)
		*len = cap - 1;
}

int dfz_plan_clamped(const struct dfz_plan *p, char *out, size_t n)
{
	struct dfz_plan norm = *p;
	char *a, *b;
	const char *pa, *pb;
	size_t len = 0;
	int changed = 0;

	if (n == 0)
		return DFZ_EINVAL;
	out[0] = 0;
	dfz_plan_normalise(&norm);
	a = print_to_string(p);
	b = print_to_string(&norm);
	if (!a || !b) {
		free(a);
		free(b);
		return DFZ_ENOMEM;
	}
	/* One printer, so both list the same keys in the same order. */
	for (pa = a, pb = b; *pa && *pb;) {
		size_t na = strcspn(pa, "\n"), nb = strcspn(pb, "\n");

		if ((na != nb || strncmp(pa, pb, na)) &&
		    !is_grown_size(pa, na, pb, nb)) {
			put_change(out, n, &len, pa, na, pb, nb);
			changed++;
		}
		pa += na + (pa[na] == '\n');
		pb += nb + (pb[nb] == '\n');
	}
	free(a);
	free(b);
	return changed;
}
