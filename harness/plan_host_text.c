// SPDX-License-Identifier: MIT
/*
 * The text form of host and api plans: parsing once dfz_plan_parse()
 * (plan_text.c) has found the `family` line (printing is derived from the
 * field tables of plan_fields.c). Keys:
 *
 *   tensors N                          the number of tensors (first pass)
 *   tK shape D... dtype T role R child one line per tensor, fields in any
 *                                      order, each optional
 *   graph 0|1, launches N (host), budget N, bin N, seed N
 *   call OP [slot N] [offset N] [size N] [repeat N] [fault F] [arg N]
 *                                      (api) one line per call, in order
 *
 * A key or field not given keeps the simplest value (the decode of an
 * empty stream); a field the call's op does not use, an `arg` its fault
 * does not use, or a key of another family is an error. As for xfer
 * plans, the parser is a fuzz target (bounded, never trusting a number),
 * each error is one "line N: ..." line, and the caps are not applied:
 * dfz_plan_normalise() clamps a parsed plan.
 */
#include <string.h>

#include "plan_int.h"

enum hkey {
	HK_FAMILY, HK_TENSORS, HK_GRAPH, HK_LAUNCHES, HK_BUDGET, HK_BIN,
	HK_SEED, HK_CALL, HK_COUNT
};

static const char *const hkey_names[HK_COUNT] = {
	"family", "tensors", "graph", "launches", "budget", "bin", "seed",
	"call"
};

/* The fields of a tensor line, and of a call line. */
enum { TF_SHAPE, TF_DTYPE, TF_ROLE, TF_CHILD, TF_COUNT };
static const char *const tfield_names[TF_COUNT] = {
	"shape", "dtype", "role", "child"
};
enum { CF_SLOT, CF_OFFSET, CF_SIZE, CF_REPEAT, CF_FAULT, CF_ARG, CF_COUNT };
static const char *const cfield_names[CF_COUNT] = {
	"slot", "offset", "size", "repeat", "fault", "arg"
};

struct hstate {
	size_t seen[HK_COUNT];            /* line of each key; 0: not given */
	size_t tseen[DFZ_HOST_MAX_ARGS];  /* line of each tensor line */
	unsigned family;
	struct dfz_plan *p;
	struct dfz__lex lx;               /* the line being read; last */
};

#define FAIL(s, ...) dfz__lex_fail(&(s)->lx, __VA_ARGS__)

static const char *const family_article[DFZ_FAMILY_COUNT] = {
	"an", "a", "an"
};

static int index_in(const char *const *names, unsigned n, const char *k)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(k, names[i]))
			return (int)i;
	return -1;
}

/* "t<K>" with one or two digits: true, and K in @i. */
static bool is_tensor_key(const char *k, unsigned *i)
{
	if (k[0] != 't' || k[1] < '0' || k[1] > '9')
		return false;
	if (k[2] == '\0') {
		*i = (unsigned)(k[1] - '0');
		return true;
	}
	if (k[2] < '0' || k[2] > '9' || k[3] != '\0')
		return false;
	*i = (unsigned)(k[1] - '0') * 10 + (unsigned)(k[2] - '0');
	return true;
}

bool dfz__plan_is_host_key(const char *k)
{
	unsigned i;

	return index_in(hkey_names, HK_COUNT, k) >= 0 || is_tensor_key(k, &i);
}

/* ------------------------------------------------------- tensor lines */

/* How many values the field at token @j has: the tokens after it up to
 * the next name of @fields or the end of the line. */
static unsigned values_after(const struct dfz__lex *lx, unsigned j,
			     const char *const *fields, unsigned nfields)
{
	unsigned n = 0;

	while (j + 1 + n < lx->ntok &&
	       index_in(fields, nfields, lx->tok[j + 1 + n]) < 0)
		n++;
	return n;
}

static int tensor_shape(struct hstate *s, struct dfz_plan_tensor *t,
			unsigned j, unsigned n)
{
	uint32_t v[DFZ_MAX_RANK];
	unsigned d;
	int rc;

	if (n < 1 || n > DFZ_MAX_RANK)
		return FAIL(s, "'%s shape' takes 1..%d values, got %u",
			    s->lx.tok[0], DFZ_MAX_RANK, n);
	for (d = 0; d < n; d++) {
		rc = dfz__lex_num(&s->lx, j + 1 + d, 1, DFZ_CAP_HOST_DIM,
				  &v[d]);
		if (rc)
			return rc;
	}
	memset(t->shape, 0, sizeof(t->shape));
	memcpy(t->shape, v, n * sizeof(v[0]));
	t->rank = (uint8_t)n;
	return 0;
}

/* Field @f of tensor @t, its values at tokens @j + 1 .. @j + @n. */
static int tensor_field(struct hstate *s, struct dfz_plan_tensor *t,
			unsigned f, unsigned j, unsigned n)
{
	char label[32];
	uint32_t v = 0;
	int rc;

	if (f == TF_SHAPE)
		return tensor_shape(s, t, j, n);
	if (n != (f == TF_CHILD ? 0u : 1u))
		return FAIL(s, "'%s %s' needs %s value, got %u", s->lx.tok[0],
			    tfield_names[f], f == TF_CHILD ? "no" : "1", n);
	if (f == TF_CHILD) {
		t->child = 1;
		return 0;
	}
	snprintf(label, sizeof(label), "%s %s", s->lx.tok[0], tfield_names[f]);
	if (f == TF_DTYPE)
		rc = dfz__lex_name_at(&s->lx, j + 1, label, DFZ_NAMES_DTYPE,
				      &v);
	else
		rc = dfz__lex_name_at(&s->lx, j + 1, label, DFZ_NAMES_ROLE, &v);
	if (rc == 0)
		*(f == TF_DTYPE ? &t->dtype : &t->role) = (uint8_t)v;
	return rc;
}

static int parse_tensor(struct hstate *s, unsigned i)
{
	const char *k = s->lx.tok[0];
	struct dfz_plan_tensor *t;
	unsigned j = 1, given = 0, n;
	int f, rc;

	if (i >= s->p->host.ntensors)
		return FAIL(s, "'%s' given but tensors is %u", k,
			    (unsigned)s->p->host.ntensors);
	t = &s->p->host.t[i];
	if (s->tseen[i])
		return FAIL(s, "duplicate key '%s' (first on line %zu)", k,
			    s->tseen[i]);
	s->tseen[i] = s->lx.lineno;
	for (; j < s->lx.ntok; j += 1 + n) {
		char q[DFZ_LEX_QUOTE_BYTES + 4];

		f = index_in(tfield_names, TF_COUNT, s->lx.tok[j]);
		if (f < 0)
			return FAIL(s, "unknown field '%s' of '%s' "
				    "(shape|dtype|role|child)",
				    dfz__lex_quote(q, s->lx.tok[j]), k);
		if (given & (1u << f))
			return FAIL(s, "duplicate field '%s' of '%s'",
				    tfield_names[f], k);
		given |= 1u << f;
		n = values_after(&s->lx, j, tfield_names, TF_COUNT);
		rc = tensor_field(s, t, (unsigned)f, j, n);
		if (rc)
			return rc;
	}
	return 0;
}

/* --------------------------------------------------------- call lines */

/* Is field @f (a CF_* number) one that @c's op uses? */
static bool call_uses(const struct dfz_host_call *c, unsigned f)
{
	static const unsigned bit[CF_REPEAT + 1] = {
		[CF_SLOT] = DFZ_CALL_SLOT, [CF_OFFSET] = DFZ_CALL_OFFSET,
		[CF_SIZE] = DFZ_CALL_SIZE, [CF_REPEAT] = DFZ_CALL_REPEAT,
	};

	return f > CF_REPEAT || (dfz__plan_call_fields(c->op) & bit[f]);
}

/* Field @f of call @c from token @j + 1, a number in range or a name. */
static int call_field(struct hstate *s, struct dfz_host_call *c, unsigned f,
		      unsigned j)
{
	static const uint32_t hi[CF_COUNT] = {
		[CF_SLOT] = DFZ_HOST_SLOTS - 1,
		[CF_OFFSET] = DFZ_HOST_MAX_TENSOR,
		[CF_SIZE] = DFZ_HOST_MAX_TENSOR,
		[CF_REPEAT] = DFZ_CAP_API_REPEAT,
		[CF_ARG] = DFZ_HOST_MAX_ARGS - 1,
	};
	uint32_t v = 0;
	int rc;

	if (f == CF_FAULT)
		rc = dfz__lex_name_at(&s->lx, j + 1, "call fault",
				      DFZ_NAMES_FAULT, &v);
	else
		rc = dfz__lex_num(&s->lx, j + 1,
				  f == CF_SIZE || f == CF_REPEAT ? 1 : 0,
				  hi[f], &v);
	if (rc)
		return rc;
	switch (f) {
	case CF_SLOT: c->slot = (uint8_t)v; break;
	case CF_OFFSET: c->offset = v; break;
	case CF_SIZE: c->size = v; break;
	case CF_REPEAT: c->repeat = v; break;
	case CF_FAULT: c->fault = (uint8_t)v; break;
	default: c->arg = (uint8_t)v; break;
	}
	return 0;
}

/* The fields after the op: `name value` pairs, each at most once. */
static int call_fields(struct hstate *s, struct dfz_host_call *c,
		       const char *op)
{
	char q[DFZ_LEX_QUOTE_BYTES + 4];
	unsigned j, given = 0;
	int f, rc;

	for (j = 2; j < s->lx.ntok; j += 2) {
		f = index_in(cfield_names, CF_COUNT, s->lx.tok[j]);
		if (f < 0)
			return FAIL(s, "unknown field '%s' of 'call' "
				    "(slot|offset|size|repeat|fault|arg)",
				    dfz__lex_quote(q, s->lx.tok[j]));
		if (given & (1u << f))
			return FAIL(s, "duplicate field '%s' of 'call'",
				    cfield_names[f]);
		given |= 1u << f;
		if (!call_uses(c, (unsigned)f))
			return FAIL(s, "'%s' is not used by 'call %s'",
				    cfield_names[f], op);
		if (j + 1 >= s->lx.ntok)
			return FAIL(s, "'call %s' needs a value",
				    cfield_names[f]);
		rc = call_field(s, c, (unsigned)f, j);
		if (rc)
			return rc;
	}
	if ((given & (1u << CF_ARG)) &&
	    !dfz__plan_fault_has_arg(c->op, c->fault))
		return FAIL(s, "'arg' given but fault %s of 'call %s' takes "
			    "none",
			    dfz__plan_name(DFZ_NAMES_FAULT, c->fault), op);
	return 0;
}

static int parse_call(struct hstate *s)
{
	struct dfz_plan_host *h = &s->p->host;
	struct dfz_host_call *c;
	unsigned fields;
	uint32_t i = 0;
	int rc;

	if (h->ncalls >= DFZ_HOST_MAX_CALLS)
		return FAIL(s, "more than %d 'call' lines", DFZ_HOST_MAX_CALLS);
	if (s->lx.ntok < 2)
		return FAIL(s, "'call' needs an op (malloc|free|copy_to|"
			    "copy_from|init|run|validate|finalize)");
	rc = dfz__lex_name_at(&s->lx, 1, "call", DFZ_NAMES_OP, &i);
	if (rc)
		return rc;
	c = &h->call[h->ncalls];
	memset(c, 0, sizeof(*c));
	c->op = dfz__plan_host_ops()[i];
	fields = dfz__plan_call_fields(c->op);
	c->size = fields & DFZ_CALL_SIZE ? 1 : 0;
	c->repeat = fields & DFZ_CALL_REPEAT ? 1 : 0;
	rc = call_fields(s, c, dfz__plan_name(DFZ_NAMES_OP, i));
	if (rc == 0)
		h->ncalls++;
	return rc;
}

/* ---------------------------------------------------------- the keys */

static int parse_number(struct hstate *s, enum hkey k)
{
	static const uint32_t lo[HK_COUNT] = {
		[HK_LAUNCHES] = 1, [HK_BUDGET] = DFZ_HOST_BUDGET_MIN,
		[HK_BIN] = 1,
	};
	static const uint32_t hi[HK_COUNT] = {
		[HK_GRAPH] = 1, [HK_LAUNCHES] = DFZ_CAP_LAUNCHES,
		[HK_BUDGET] = DFZ_CAP_DEV_BUDGET, [HK_BIN] = DFZ_CAP_BIN,
		[HK_SEED] = UINT32_MAX,
	};
	struct dfz_plan_host *h = &s->p->host;
	uint32_t v = 0;
	int rc = dfz__lex_one(&s->lx, lo[k], hi[k], &v);

	if (rc)
		return rc;
	switch (k) {
	case HK_GRAPH: h->graph = (uint8_t)v; break;
	case HK_LAUNCHES: h->launches = v; break;
	case HK_BUDGET: h->budget = v; break;
	case HK_BIN: h->bin_size = v; break;
	default: h->seed = v; break;
	}
	return 0;
}

/* A key of a family other than this plan's: a one-line error. */
static int fail_family(struct hstate *s, const char *k)
{
	return FAIL(s, "key '%s' is not part of %s %s plan", k,
		    family_article[s->family],
		    dfz__plan_name(DFZ_NAMES_FAMILY, s->family));
}

/* One line of the second pass (every key but `tensors` and `family`). */
static int parse_line(struct hstate *s)
{
	char q[DFZ_LEX_QUOTE_BYTES + 4];
	const char *k = s->lx.tok[0];
	int id = index_in(hkey_names, HK_COUNT, k);
	unsigned i;

	if (s->lx.ntok > DFZ_LEX_MAX_TOKENS)
		return FAIL(s, "'%s' has more than %d values", k,
			    DFZ_LEX_MAX_TOKENS - 1);
	if (is_tensor_key(k, &i))
		return parse_tensor(s, i);
	if (id < 0)
		return dfz__plan_is_xfer_key(k) ? fail_family(s, k) :
		       FAIL(s, "unknown key '%s'", dfz__lex_quote(q, k));
	if ((id == HK_LAUNCHES && s->family != DFZ_FAMILY_HOST) ||
	    (id == HK_CALL && s->family != DFZ_FAMILY_API))
		return fail_family(s, k);
	if (id == HK_CALL)
		return parse_call(s);
	if (s->seen[id])
		return FAIL(s, "duplicate key '%s' (first on line %zu)", k,
			    s->seen[id]);
	s->seen[id] = s->lx.lineno;
	return parse_number(s, (enum hkey)id);
}

/* Pass 1: `tensors`, which decides which tensor lines exist; then every
 * tensor it names starts as the simplest one. */
static int first_pass(struct hstate *s)
{
	struct dfz_plan_host *h = &s->p->host;
	uint32_t v = 1;
	unsigned k;
	int rc;

	while ((rc = dfz__lex_next(&s->lx)) == 1) {
		if (s->lx.ntok == 0 || strcmp(s->lx.tok[0], "tensors"))
			continue;
		if (s->seen[HK_TENSORS])
			return FAIL(s, "duplicate key 'tensors' (first on "
				    "line %zu)", s->seen[HK_TENSORS]);
		s->seen[HK_TENSORS] = s->lx.lineno;
		rc = dfz__lex_one(&s->lx, 1, DFZ_HOST_MAX_ARGS, &v);
		if (rc)
			return rc;
	}
	h->ntensors = (uint8_t)v;
	for (k = 0; k < h->ntensors; k++)
		h->t[k] = (struct dfz_plan_tensor){ .rank = 1, .shape = { 1 } };
	return rc;
}

int dfz__plan_parse_host(const char *text, unsigned family,
			 struct dfz_plan *out, char *err, size_t errlen)
{
	struct hstate s;
	int rc;

	memset(&s, 0, offsetof(struct hstate, lx));
	s.family = family < DFZ_FAMILY_COUNT ? family : DFZ_FAMILY_API;
	s.p = out;
	s.lx.err = err;
	s.lx.errlen = errlen;
	dfz_plan_decode_as(s.family, NULL, 0, out);
	dfz__lex_rewind(&s.lx, text);
	rc = first_pass(&s);
	if (rc)
		return rc;
	dfz__lex_rewind(&s.lx, text);
	while ((rc = dfz__lex_next(&s.lx)) == 1) {
		if (s.lx.ntok == 0 || !strcmp(s.lx.tok[0], "tensors") ||
		    !strcmp(s.lx.tok[0], "family"))
			continue;
		rc = parse_line(&s);
		if (rc)
			return rc;
	}
	return rc;
}
