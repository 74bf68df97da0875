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
 * dfz_plan_normalise() clamps a parsed plan. The keys and fields, their
 * values and ranges, and which a call's op uses come from the field
 * tables of plan_fields.c; this file reads the lines.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "plan_int.h"

/* The array field of a host plan whose parts have prefix @prefix (its
 * tensors "t", its calls "call"), or NULL. */
static const struct dfz__field *array_named(const char *prefix)
{
	const struct dfz__part *h = dfz__part_host();

	for (unsigned k = 0; k < h->n; k++)
		if (h->f[k].kind == DFZ_FK_PART &&
		    !strcmp(h->f[k].sub->prefix, prefix))
			return &h->f[k];
	return NULL;
}

#define MAX_KEYS 16                       /* of the root part */

struct hstate {
	size_t seen[MAX_KEYS];            /* line of each root key */
	size_t tseen[DFZ_HOST_MAX_ARGS];  /* line of each tensor line */
	unsigned family;
	struct dfz_plan *p;
	struct dfz__lex lx;               /* the line being read; last */
};

#define FAIL(s, ...) dfz__lex_fail(&(s)->lx, __VA_ARGS__)

static const char *const family_article[DFZ_FAMILY_COUNT] = {
	"an", "a", "an"
};

/* The keys of @pt's named fields as "a|b|c", in @buf. */
static const char *alternatives(const struct dfz__part *pt, char *buf,
				size_t n)
{
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < pt->n && len < n; i++)
		if (pt->f[i].key)
			len += (size_t)snprintf(buf + len, n - len, "%s%s",
						len ? "|" : "", pt->f[i].key);
	return buf;
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

	const struct dfz__field *lines = array_named(k);

	return !strcmp(k, "family") ||
	       dfz__part_find(dfz__part_host(), k) >= 0 ||
	       (lines && !lines->sub->indexed) || is_tensor_key(k, &i);
}

/* ------------------------------------------------- fields of a line */

/* How many values the field at token @j has: the tokens after it up to
 * the next field name of @pt or the end of the line. */
static unsigned values_after(const struct dfz__lex *lx, unsigned j,
			     const struct dfz__part *pt)
{
	unsigned n = 0;

	while (j + 1 + n < lx->ntok &&
	       dfz__part_find(pt, lx->tok[j + 1 + n]) < 0)
		n++;
	return n;
}

/* The @n values (tokens @j + 1 ..) of field @fd of an inline part into
 * @part; an error names the field as "<line key> <field>". */
static int inline_field(struct hstate *s, const struct dfz__field *fd,
			void *part, unsigned j, unsigned n)
{
	unsigned want = fd->kind == DFZ_FK_FLAG ? 0 : 1, d;
	uint32_t v[DFZ_LEX_MAX_TOKENS] = { 1 };
	char label[32];
	int rc = 0;

	snprintf(label, sizeof(label), "%s %s", s->lx.tok[0], fd->key);
	if (fd->len == DFZ_LEN_COUNT && (n < 1 || n > fd->cap))
		return FAIL(s, "'%s' takes 1..%u values, got %u", label,
			    (unsigned)fd->cap, n);
	if (fd->len != DFZ_LEN_COUNT && n != want)
		return FAIL(s, "'%s' needs %s value, got %u", label,
			    want ? "1" : "no", n);
	if (fd->kind == DFZ_FK_NAME)
		rc = dfz__lex_name_at(&s->lx, j + 1, label, fd->names, v);
	for (d = 0; d < n && rc == 0 && fd->kind != DFZ_FK_NAME; d++)
		rc = dfz__lex_num(&s->lx, j + 1 + d, fd->lo, fd->hi, &v[d]);
	if (rc)
		return rc;
	if (fd->len == DFZ_LEN_COUNT) {
		memset((uint8_t *)part + fd->off, 0, (size_t)fd->cap * fd->width);
		((uint8_t *)part)[fd->count_off] = (uint8_t)n;
	}
	for (d = 0; d < (n ? n : 1); d++)
		dfz__field_set(fd, part, d, v[d]);
	return 0;
}

/* A check of field @fd of a line before its values are read. */
typedef int (*dfz_field_check_fn)(struct hstate *s,
				  const struct dfz__field *fd,
				  const struct dfz__fctx *c, unsigned j);

/* The fields of a line from token @j: each a name and its values (one
 * when @check is set: `name value` pairs; else up to the next field name),
 * each at most once. Fields given are set in @given (by index in @pt). */
static int line_fields(struct hstate *s, const struct dfz__part *pt,
		       const struct dfz__fctx *c, unsigned j,
		       dfz_field_check_fn check, unsigned *given)
{
	char q[DFZ_LEX_QUOTE_BYTES + 4], alts[80];
	const struct dfz__field *fd;
	unsigned n;
	int f, rc;

	for (; j < s->lx.ntok; j += 1 + n) {
		f = dfz__part_find(pt, s->lx.tok[j]);
		if (f < 0)
			return FAIL(s, "unknown field '%s' of '%s' (%s)",
				    dfz__lex_quote(q, s->lx.tok[j]),
				    s->lx.tok[0],
				    alternatives(pt, alts, sizeof(alts)));
		fd = &pt->f[f];
		if (*given & (1u << f))
			return FAIL(s, "duplicate field '%s' of '%s'", fd->key,
				    s->lx.tok[0]);
		*given |= 1u << f;
		n = check ? 1 : values_after(&s->lx, j, pt);
		rc = check ? check(s, fd, c, j) : 0;
		if (rc == 0)
			rc = inline_field(s, fd, (void *)c->part, j, n);
		if (rc)
			return rc;
	}
	return 0;
}

static int parse_tensor(struct hstate *s, unsigned i)
{
	const struct dfz__field *t = array_named("t");
	const char *k = s->lx.tok[0];
	struct dfz__fctx c = { .p = s->p, .i = i };
	unsigned given = 0;

	if (i >= s->p->host.ntensors)
		return FAIL(s, "'%s' given but tensors is %u", k,
			    (unsigned)s->p->host.ntensors);
	if (s->tseen[i])
		return FAIL(s, "duplicate key '%s' (first on line %zu)", k,
			    s->tseen[i]);
	s->tseen[i] = s->lx.lineno;
	c.part = &s->p->host.t[i];
	return line_fields(s, t->sub, &c, 1, NULL, &given);
}

/* --------------------------------------------------------- call lines */

/* A field of a call: one its op uses (fault and arg: any op), with a
 * value. */
static int check_call_field(struct hstate *s, const struct dfz__field *fd,
			    const struct dfz__fctx *c, unsigned j)
{
	if (fd->is_shown && !(fd->flags & DFZ_FF_ANY) && !fd->is_shown(c))
		return FAIL(s, "'%s' is not used by 'call %s'", fd->key,
			    s->lx.tok[1]);
	if (j + 1 >= s->lx.ntok)
		return FAIL(s, "'call %s' needs a value", fd->key);
	return 0;
}

/* A call starts with the simplest value of each field its op uses. */
static void call_defaults(const struct dfz__part *pt,
			  const struct dfz__fctx *c)
{
	for (unsigned k = 0; k < pt->n; k++)
		if (pt->f[k].key && dfz__field_is_shown(&pt->f[k], c))
			dfz__field_set(&pt->f[k], (void *)c->part, 0,
				       pt->f[k].lo);
}

static int parse_call(struct hstate *s)
{
	const struct dfz__part *pt = array_named("call")->sub;
	struct dfz_plan_host *h = &s->p->host;
	struct dfz__fctx c = { .p = s->p, .i = h->ncalls };
	struct dfz_host_call *call;
	unsigned given = 0;
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
	call = &h->call[h->ncalls];
	memset(call, 0, sizeof(*call));
	call->op = dfz__plan_host_ops()[i];
	c.part = call;
	call_defaults(pt, &c);
	rc = line_fields(s, pt, &c, 2, check_call_field, &given);
	if (rc == 0 && (given & (1u << dfz__part_find(pt, "arg"))) &&
	    !dfz__plan_fault_has_arg(call->op, call->fault))
		return FAIL(s, "'arg' given but fault %s of 'call %s' takes "
			    "none",
			    dfz__plan_name(DFZ_NAMES_FAULT, call->fault),
			    s->lx.tok[1]);
	if (rc == 0)
		h->ncalls++;
	return rc;
}

/* ---------------------------------------------------------- the keys */

/* A key of a family other than this plan's: a one-line error. */
static int fail_family(struct hstate *s, const char *k)
{
	return FAIL(s, "key '%s' is not part of %s %s plan", k,
		    family_article[s->family],
		    dfz__plan_name(DFZ_NAMES_FAMILY, s->family));
}

/* Key @id of the root: one number in its range, at most once. */
static int parse_root(struct hstate *s, unsigned id)
{
	const struct dfz__field *fd = &dfz__part_host()->f[id];
	uint32_t v = 0;
	int rc;

	if (s->seen[id])
		return FAIL(s, "duplicate key '%s' (first on line %zu)",
			    fd->key, s->seen[id]);
	s->seen[id] = s->lx.lineno;
	rc = dfz__lex_one(&s->lx, fd->lo, fd->hi, &v);
	if (rc == 0)
		dfz__field_set(fd, &s->p->host, 0, v);
	return rc;
}

/* One line of the second pass (every key but `tensors` and `family`). */
static int parse_line(struct hstate *s)
{
	const struct dfz__part *pt = dfz__part_host();
	struct dfz__fctx c = { .p = s->p, .part = &s->p->host };
	char q[DFZ_LEX_QUOTE_BYTES + 4];
	const char *k = s->lx.tok[0];
	const struct dfz__field *call = array_named("call");
	int id = dfz__part_find(pt, k);
	unsigned i;

	if (s->lx.ntok > DFZ_LEX_MAX_TOKENS)
		return FAIL(s, "'%s' has more than %d values", k,
			    DFZ_LEX_MAX_TOKENS - 1);
	if (is_tensor_key(k, &i))
		return parse_tensor(s, i);
	if (!strcmp(k, call->key))
		return call->is_shown(&c) ? parse_call(s) : fail_family(s, k);
	if (id < 0)
		return dfz__plan_is_xfer_key(k) ? fail_family(s, k) :
		       FAIL(s, "unknown key '%s'", dfz__lex_quote(q, k));
	if (!dfz__field_is_shown(&pt->f[id], &c))
		return fail_family(s, k);
	return parse_root(s, (unsigned)id);
}

/* Pass 1: the keys flagged first (`tensors`, which decides which tensor
 * lines exist); then every tensor it names starts as the simplest one. */
static int first_pass(struct hstate *s)
{
	const struct dfz__part *pt = dfz__part_host();
	struct dfz_plan_host *h = &s->p->host;
	unsigned k;
	int rc, id;

	while ((rc = dfz__lex_next(&s->lx)) == 1) {
		if (s->lx.ntok == 0)
			continue;
		id = dfz__part_find(pt, s->lx.tok[0]);
		if (id < 0 || !(pt->f[id].flags & DFZ_FF_FIRST))
			continue;
		rc = parse_root(s, (unsigned)id);
		if (rc)
			return rc;
	}
	for (k = 0; k < h->ntensors; k++)
		h->t[k] = (struct dfz_plan_tensor){ .rank = 1, .shape = { 1 } };
	return rc;
}

/* A key of the first pass, or `family` (read before). */
static bool is_read_before(const char *k)
{
	int id = dfz__part_find(dfz__part_host(), k);

	return !strcmp(k, "family") ||
	       (id >= 0 && (dfz__part_host()->f[id].flags & DFZ_FF_FIRST));
}

int dfz__plan_parse_host(const char *text, unsigned family,
			 struct dfz_plan *out, char *err, size_t errlen)
{
	struct hstate s;
	int rc;

	assert(dfz__part_host()->n <= MAX_KEYS);
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
		if (s.lx.ntok == 0 || is_read_before(s.lx.tok[0]))
			continue;
		rc = parse_line(&s);
		if (rc)
			return rc;
	}
	return rc;
}
