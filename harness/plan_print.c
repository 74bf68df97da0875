// SPDX-License-Identifier: MIT
/*
 * Printing the text form of a plan (.plan): every key that the plan's
 * choice stream draws, one `key value...` line each, in the order of the
 * field tables of plan_fields.c, which reads top-down (tensors, hops,
 * nodes, engines, sizes, timing), with the levels each hop moves between
 * as comments. dfz_plan_parse() in plan_text.c reads it back to the same
 * plan; the names of values are shared with it through plan_int.h. Also
 * the report of what the clamps changed in a plan (dfz_plan_clamped()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan_int.h"

#define NAME_OF(id, name) name,
#define DTYPE_NAME(id, name, size) name,
static const char *const family_names[DFZ_FAMILY_COUNT] = {
	DFZ_FAMILY_MAP(NAME_OF)
};
static const char *const kernel_names[DFZ_KERNEL_COUNT] = {
	DFZ_KERNEL_MAP(NAME_OF)
};
static const char *const engine_names[DFZ_ENGINE_COUNT] = {
	DFZ_ENGINE_MAP(NAME_OF)
};
static const char *const level_names[DFZ_NLEVELS] = {
	DFZ_LEVEL_MAP(NAME_OF)
};
static const char *const buffering_names[2] = { "single", "double" };
static const char *const policy_names[DFZ_POLICY_COUNT] = {
	DFZ_POLICY_MAP(NAME_OF)
};
static const char *const strategy_names[DFZ_STRAT_COUNT] = {
	DFZ_STRAT_MAP(NAME_OF)
};
static const char *const db_order_names[DFZ_DB_ORDER_COUNT] = {
	DFZ_DB_ORDER_MAP(NAME_OF)
};
static const char *const dtype_names[DFZ_DT_COUNT] = {
	DFZ_DTYPE_MAP(DTYPE_NAME)
};
static const char *const role_names[DFZ_ROLE_COUNT] = {
	DFZ_ROLE_MAP(NAME_OF)
};
/* Indexed by draw index (dfz__plan_host_ops()), not by enum dfz_api. */
static const char *const op_names[DFZ_PLAN_HOST_OPS] = {
	"malloc", "free", "copy_to", "copy_from", "init", "run", "validate",
	"finalize"
};
static const char *const fault_names[DFZ_FAULT_COUNT] = {
	DFZ_FAULT_MAP(NAME_OF)
};
#undef NAME_OF
#undef DTYPE_NAME

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

const char *dfz_family_name(unsigned f)
{
	return f < DFZ_FAMILY_COUNT ? family_names[f] : NULL;
}

int dfz_family_of(const char *name)
{
	for (unsigned f = 0; name && f < DFZ_FAMILY_COUNT; f++)
		if (!strcmp(name, family_names[f]))
			return (int)f;
	return -1;
}

void dfz_plan_print(const struct dfz_plan *p, FILE *f)
{
	bool xfer = p->family == DFZ_FAMILY_XFER;

	fputs("# dmafuzz plan\n", f);
	fprintf(f, "family %s\n",
		dfz__plan_name(DFZ_NAMES_FAMILY, p->family));
	dfz__part_print(f, xfer ? dfz__part_xfer() : dfz__part_host(), p,
			xfer ? (const void *)&p->xfer : (const void *)&p->host);
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
