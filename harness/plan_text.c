// SPDX-License-Identifier: MIT
/*
 * Parsing the text form of a plan (.plan): one `key value...` per line, `#`
 * starts a comment, keys in any order, each at most once. The `family`
 * line (xfer without one) decides which keys exist: this file reads xfer
 * plans, plan_host_text.c host and api plans. For an xfer plan,
 * dfz_plan_parse() validates every value, keeps the simplest value (the
 * decode of an empty stream) for a missing key, and checks the keys
 * against each other once all are read. Single-hop plans written before
 * hops existed still parse: `engine`, `buffering`, `policy`, `pool` and
 * `strategy` without a prefix mean hop 0, `local_size` the size of hop
 * 0's level, `local` its name.
 * The parser is a fuzz target: it never reads past a line's bound, never
 * trusts a number, and reports each error as one "line N: ..." line. It
 * does not apply the caps: dfz_plan_normalise() clamps a parsed plan.
 * The keys, the values each takes and the member each value goes to come
 * from the field tables of plan_fields.c (which printing and equality use
 * too); this file adds the two passes, the keys outside the tables
 * (`family`, the legacy `local` and `local_size`) and the checks across
 * keys.
 */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "plan_int.h"

/* The ids of keys, for `seen`: the fields of the root (xfer) part by
 * index, then each array's fields per element, then the legacy keys. */
#define MAX_KEYS 96

struct pstate {
	size_t seen[MAX_KEYS];   /* line each key was given on; 0: not given */
	uint32_t local_size;     /* the legacy key's value, placed at the end */
	uint32_t local_level;    /* the legacy `local` key's value */
	uint32_t ext_given;      /* the `ext` key's value */
	struct dfz_plan *p;
	struct dfz__lex lx;      /* the line being read; last (see parse) */
};

/* A key found: its field (NULL for a legacy key), its id and the part
 * its value goes to (an array field's element, or the plan's root). */
struct key {
	const struct dfz__field *fd;
	const struct dfz__field *arr; /* the array field; NULL at the root */
	unsigned i;                   /* element of @arr */
	unsigned id;
};

/* Keys outside the xfer part: the family (of every plan), and the legacy
 * `local` and `local_size`. */
enum { LEGACY_FAMILY, LEGACY_LOCAL, LEGACY_LOCAL_SIZE, LEGACY_COUNT };
static const char *const legacy_names[LEGACY_COUNT] = {
	"family", "local", "local_size"
};

/* Fail with a message about the current line. */
#define FAIL(s, ...) dfz__lex_fail(&(s)->lx, __VA_ARGS__)

/* ----------------------------------------------------------- the keys */

/* The first id of array field @a's keys (the ids after the root's). */
static unsigned array_base(const struct dfz__field *a)
{
	const struct dfz__part *x = dfz__part_xfer();
	unsigned id = x->n;

	for (const struct dfz__field *fd = x->f; fd < a; fd++)
		if (fd->kind == DFZ_FK_PART)
			id += fd->cap * fd->sub->n;
	return id;
}

/* The id of the first legacy key. */
static unsigned legacy_base(void)
{
	const struct dfz__part *x = dfz__part_xfer();

	return array_base(x->f + x->n);
}

/* Field @name of @pt (not an array), or NULL. */
static const struct dfz__field *field_named(const struct dfz__part *pt,
					    const char *name)
{
	int k = dfz__part_find(pt, name);

	return k < 0 ? NULL : &pt->f[k];
}

/* The root field holding array @a's count ("nodes", "hops"). */
static const struct dfz__field *count_of(const struct dfz__field *a)
{
	const struct dfz__part *x = dfz__part_xfer();

	for (unsigned k = 0; k < x->n; k++)
		if (x->f[k].kind != DFZ_FK_PART && x->f[k].off == a->count_off)
			return &x->f[k];
	return NULL;
}

/* The index in "<prefix><i>.<rest>" (one digit), and the rest; NULL when
 * @k does not start that way. */
static const char *indexed(const char *k, const char *prefix, unsigned *i)
{
	size_t n = strlen(prefix);

	if (strncmp(k, prefix, n) || k[n] < '0' || k[n] > '9' ||
	    k[n + 1] != '.')
		return NULL;
	*i = (unsigned)(k[n] - '0');
	return &k[n + 2];
}

/* Field @name of element @i of array @a: true and @r filled, or false.
 * An element past the array's end is a key (find_key() rejects it
 * before it is marked seen: its id is MAX_KEYS). */
static bool element_key(const struct dfz__field *a, unsigned i,
			const char *name, struct key *r)
{
	const struct dfz__field *fd = field_named(a->sub, name);

	if (!fd)
		return false;
	*r = (struct key){ fd, a, i, i >= a->cap ? MAX_KEYS :
			   array_base(a) + i * a->sub->n +
			   (unsigned)(fd - a->sub->f) };
	return true;
}

/* Key @k: "<prefix><i>.<key>" of an array ("node0.tile"), a key of the
 * root, a legacy key, or a hop key without prefix (hop 0). */
static bool lookup(const char *k, struct key *r)
{
	const struct dfz__part *x = dfz__part_xfer();
	const struct dfz__field *fd, *hop = NULL;
	const char *rest;
	unsigned i = 0, n;

	for (fd = x->f; fd < x->f + x->n; fd++) {
		if (fd->kind != DFZ_FK_PART)
			continue;
		if ((rest = indexed(k, fd->sub->prefix, &i)))
			return element_key(fd, i, rest, r);
		if (!strcmp(fd->sub->prefix, "hop"))
			hop = fd;
	}
	if ((fd = field_named(x, k))) {
		*r = (struct key){ fd, NULL, 0, (unsigned)(fd - x->f) };
		return true;
	}
	for (n = 0; n < LEGACY_COUNT; n++) {
		if (!strcmp(k, legacy_names[n])) {
			*r = (struct key){ NULL, NULL, 0, legacy_base() + n };
			return true;
		}
	}
	return hop && element_key(hop, 0, k, r);
}

/* Where the line of key @k (a key of the xfer form) is kept. */
static size_t *seen_ref(struct pstate *s, const char *k)
{
	struct key r = { 0 };
	bool found = lookup(k, &r);

	assert(found && r.id < MAX_KEYS);
	(void)found;
	return &s->seen[r.id];
}

/* The line key @fmt (a printf format) was given on; 0: not given. */
__attribute__((format(printf, 2, 3)))
static size_t seen_at(struct pstate *s, const char *fmt, ...)
{
	char k[32];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(k, sizeof(k), fmt, ap);
	va_end(ap);
	return *seen_ref(s, k);
}

bool dfz__plan_is_xfer_key(const char *k)
{
	struct key r;

	return lookup(k, &r);
}

/* The id of key @k, or fail: an unknown key, a key of another family, an
 * element the plan does not have, tile1 of a one-hop plan. */
static int find_key(struct pstate *s, const char *k, struct key *r)
{
	const struct dfz_plan_xfer *x = &s->p->xfer;
	const struct dfz__field *count;
	char q[DFZ_LEX_QUOTE_BYTES + 4];
	unsigned have;

	if (!lookup(k, r)) {
		if (dfz__plan_is_host_key(k))
			return FAIL(s, "key '%s' is not part of an xfer plan", k);
		return FAIL(s, "unknown key '%s'", dfz__lex_quote(q, k));
	}
	if (!r->arr)
		return 0;
	count = count_of(r->arr);
	have = dfz__field_get(count, x, 0);
	if (r->i >= have)
		return FAIL(s, "'%s' given but %s is %u", k, count->key, have);
	if (!strcmp(r->fd->key, "tile1") && x->nhops < 2)
		return FAIL(s, "'%s' given but hops is 1", k);
	return 0;
}

/* Record that key @id is given on this line, or fail on a duplicate. */
static int mark_seen(struct pstate *s, unsigned id)
{
	assert(id < MAX_KEYS);
	if (s->seen[id])
		return FAIL(s, "duplicate key '%s' (first on line %zu)",
			    s->lx.tok[0], s->seen[id]);
	s->seen[id] = s->lx.lineno;
	return 0;
}

/* ------------------------------------------------------------- setters */

/* A power of two in [2^lo, 2^hi]: its log2 in @k. */
static int get_pow2(struct pstate *s, unsigned lo, unsigned hi, unsigned *k)
{
	uint32_t v = 0;
	int rc = dfz__lex_one(&s->lx, 1u << lo, 1u << hi, &v);

	if (rc == 0 && (v & (v - 1)) != 0)
		return FAIL(s, "'%s' must be a power of two, not %lu",
			    s->lx.tok[0], (unsigned long)v);
	for (*k = 0; rc == 0 && (1u << *k) < v; (*k)++)
		;
	return rc;
}

/* The values of a counted field (sched): 0..cap of them. */
static int get_counted(struct pstate *s, const struct dfz__field *fd,
		       uint32_t *v, unsigned *n)
{
	unsigned j;
	int rc = 0;

	*n = s->lx.ntok - 1;
	if (*n > fd->cap)
		return FAIL(s, "'%s' takes at most %u values, got %u",
			    s->lx.tok[0], (unsigned)fd->cap, *n);
	for (j = 0; j < *n && rc == 0; j++)
		rc = dfz__lex_num(&s->lx, 1 + j, fd->lo, fd->hi, &v[j]);
	return rc;
}

/* The values of the line for field @fd, as stored, in @v[0..*n). */
static int get_values(struct pstate *s, const struct dfz__field *fd,
		      uint32_t *v, unsigned *n)
{
	const struct dfz_plan_xfer *x = &s->p->xfer;
	unsigned k = 0, j;
	uint8_t order[DFZ_MAX_RANK];
	int rc;

	*n = fd->len == DFZ_LEN_RANK ? x->rank : 1;
	switch (fd->kind) {
	case DFZ_FK_NAME:
		rc = dfz__lex_name(&s->lx, fd->names, v);
		v[0] += fd->lo;
		return rc;
	case DFZ_FK_POW2:
	case DFZ_FK_LOG2:
		rc = get_pow2(s, fd->lo, fd->hi, &k);
		v[0] = fd->kind == DFZ_FK_POW2 ? 1u << k : k;
		return rc;
	case DFZ_FK_ORDER:
		rc = dfz__lex_order(&s->lx, *n, order);
		for (j = 0; j < *n; j++)
			v[j] = order[j];
		return rc;
	default:
		if (fd->len == DFZ_LEN_COUNT)
			return get_counted(s, fd, v, n);
		return dfz__lex_vec(&s->lx, *n, fd->lo,
				    fd->hi ? fd->hi : dfz__plan_dim_cap(x), v);
	}
}

/* A key outside the xfer part. */
static int set_legacy(struct pstate *s, unsigned k)
{
	uint32_t v = 0;
	int rc;

	if (k == LEGACY_LOCAL)
		return dfz__lex_name(&s->lx, DFZ_NAMES_LEVEL, &s->local_level);
	if (k == LEGACY_LOCAL_SIZE)
		return dfz__lex_one(&s->lx, DFZ_PLAN_LOCAL_MIN, DFZ_CAP_L2,
				    &s->local_size);
	rc = dfz__lex_name(&s->lx, DFZ_NAMES_FAMILY, &v);
	if (rc == 0)
		s->p->family = (uint8_t)v;
	return rc;
}

/* The line's values into the field of key @r. */
static int set_key(struct pstate *s, const struct key *r)
{
	uint32_t v[DFZ_LEX_MAX_TOKENS] = { 0 };
	uint8_t *part = (uint8_t *)&s->p->xfer;
	unsigned n = 0, j;
	int rc;

	if (!r->fd)
		return set_legacy(s, r->id - legacy_base());
	if (r->fd->flags & DFZ_FF_CHECKED) /* ext: checked once all is read */
		return dfz__lex_name(&s->lx, r->fd->names, &s->ext_given);
	rc = get_values(s, r->fd, v, &n);
	if (rc)
		return rc;
	if (r->arr)
		part += r->arr->off + r->i * r->arr->sub->size;
	for (j = 0; j < n; j++)
		dfz__field_set(r->fd, part, j, v[j]);
	if (r->fd->len == DFZ_LEN_COUNT)
		part[r->fd->count_off] = (uint8_t)n;
	return 0;
}

/* ------------------------------------------------------------- the passes */

/* Pass 1: the keys other keys depend on (rank, hops, nodes) only. */
static int first_pass(struct pstate *s)
{
	struct key r;
	int rc;

	while ((rc = dfz__lex_next(&s->lx)) == 1) {
		if (s->lx.ntok == 0 || !lookup(s->lx.tok[0], &r) || !r.fd ||
		    !(r.fd->flags & DFZ_FF_FIRST))
			continue;
		rc = mark_seen(s, r.id);
		if (rc == 0)
			rc = set_key(s, &r);
		if (rc)
			return rc;
	}
	return rc;
}

/* The simplest value of every rank-, hop- or node-sized field. */
static void fill_defaults(struct dfz_plan_xfer *x)
{
	static const struct dfz_plan_hop inner = {
		.engine = DFZ_ENGINE_MCHAN, .buffering = 1, .pool_k = 1,
	};
	unsigned i, d;

	for (d = 0; d < x->rank; d++)
		x->in.order[d] = (uint8_t)d;
	for (i = 0; i < x->nnodes; i++) {
		for (d = 0; d < x->rank; d++) {
			x->node[i].out.order[d] = (uint8_t)d;
			x->node[i].aux.order[d] = (uint8_t)d;
			x->node[i].tile[0][d] = 1;
			x->node[i].tile[1][d] = x->nhops == 2;
		}
	}
	if (x->nhops == 2)
		x->hop[1] = inner;
}

/* Pass 2: every other key. */
static int second_pass(struct pstate *s)
{
	struct key r;
	int rc;

	while ((rc = dfz__lex_next(&s->lx)) == 1) {
		if (s->lx.ntok == 0 || (lookup(s->lx.tok[0], &r) && r.fd &&
					(r.fd->flags & DFZ_FF_FIRST)))
			continue;
		rc = find_key(s, s->lx.tok[0], &r);
		if (rc == 0)
			rc = mark_seen(s, r.id);
		if (rc == 0)
			rc = set_key(s, &r);
		if (rc)
			return rc;
	}
	return rc;
}

/* ------------------------------------------------------------- the checks */

/* Fail as of line @line (where the offending key was given). */
#define FAIL_AT(s, line, ...) ((s)->lx.lineno = (line), FAIL((s), __VA_ARGS__))

static int check_tiles(struct pstate *s, unsigned i)
{
	const struct dfz_plan_xfer *x = &s->p->xfer;
	const uint32_t *t0 = x->node[i].tile[0], *t1 = x->node[i].tile[1];
	unsigned d;

	for (d = 0; d < x->rank; d++) {
		uint32_t hi = x->shape[d] ? x->shape[d] : 1;

		if (t0[d] > hi)
			return FAIL_AT(s, seen_at(s, "node%u.tile", i),
				       "node%u.tile[%u] is %lu, over %lu "
				       "(shape[%u])", i, d,
				       (unsigned long)t0[d], (unsigned long)hi,
				       d);
		if (x->nhops == 2 && t1[d] > t0[d])
			return FAIL_AT(s, seen_at(s, "node%u.tile1", i),
				       "node%u.tile1[%u] is %lu, over %lu "
				       "(node%u.tile[%u])", i, d,
				       (unsigned long)t1[d],
				       (unsigned long)t0[d], i, d);
	}
	return 0;
}

static int check_node(struct pstate *s, unsigned i)
{
	const struct dfz_plan_node *n = &s->p->xfer.node[i];
	size_t aux = seen_at(s, "node%u.aux.order", i);

	if (!aux)
		aux = seen_at(s, "node%u.aux.pad", i);
	if (aux && n->kernel != DFZ_KERNEL_ADD)
		return FAIL_AT(s, aux, "node%u.aux given but node%u.kernel "
			       "is not add", i, i);
	return check_tiles(s, i);
}

/* Hop @h: its engine moves between the right levels, and pool is 1
 * unless the policy is pool. */
static int check_hop(struct pstate *s, unsigned h)
{
	const struct dfz_plan_xfer *x = &s->p->xfer;
	const struct dfz_plan_hop *hop = &x->hop[h];
	bool l2l1 = hop->engine != DFZ_ENGINE_RAM;

	if (x->nhops == 2 && l2l1 == (h == 0))
		return FAIL_AT(s, seen_at(s, "hop%u.engine", h),
			       "hop%u.engine is %s but hop %u of two moves "
			       "%s (%s)", h,
			       dfz__plan_name(DFZ_NAMES_ENGINE, hop->engine), h,
			       h ? "L2 -> L1" : "L3 -> L2",
			       h ? "mchan|idma" : "ram");
	if (hop->pool_k != 1 && hop->policy != DFZ_POLICY_POOL)
		return FAIL_AT(s, seen_at(s, "hop%u.pool", h), "'pool' of hop "
			       "%u is %u but its policy is not pool (must be "
			       "1)", h, (unsigned)hop->pool_k);
	return 0;
}

/* A level key (`ext`, `local`) given on line @line names @level. */
static int check_level(struct pstate *s, size_t line, const char *key,
		       unsigned got, unsigned want)
{
	if (!line || got == want)
		return 0;
	return FAIL_AT(s, line, "'%s' is %s but the hops make it %s", key,
		       dfz__plan_name(DFZ_NAMES_LEVEL, got),
		       dfz__plan_name(DFZ_NAMES_LEVEL, want));
}

/* The legacy `local` and `local_size`: hop 0's level and its size. */
static int place_local(struct pstate *s)
{
	struct dfz_plan_xfer *x = &s->p->xfer;
	unsigned level = dfz_plan_hop_level(x, 0);
	const char *own = level == DFZ_L2 ? "l2_size" : "l1_size";
	uint32_t cap = level == DFZ_L2 ? DFZ_CAP_L2 : DFZ_CAP_L1;
	size_t line = seen_at(s, "local_size");
	int rc = check_level(s, seen_at(s, "local"), "local", s->local_level,
			     level);

	if (rc || !line)
		return rc;
	if (*seen_ref(s, own))
		return FAIL_AT(s, line, "'local_size' and '%s' both given",
			       own);
	if (s->local_size > cap)
		return FAIL_AT(s, line, "'local_size' value %lu out of range "
			       "%u..%lu", (unsigned long)s->local_size,
			       DFZ_PLAN_LOCAL_MIN, (unsigned long)cap);
	*(level == DFZ_L2 ? &x->l2_size : &x->l1_size) = s->local_size;
	*seen_ref(s, own) = line;
	return 0;
}

/* A size key given for a level no hop keeps tiles in, or the level's
 * simplest size when it is used and not given. */
static int check_size(struct pstate *s, unsigned level, const char *key,
		      uint32_t *size, uint32_t simplest)
{
	size_t line = seen_at(s, "%s", key);

	if (dfz__plan_is_level_used(&s->p->xfer, level)) {
		if (!line)
			*size = simplest;
		return 0;
	}
	if (line)
		return FAIL_AT(s, line, "'%s' given but no hop keeps "
			       "tiles in %s", key,
			       dfz__plan_name(DFZ_NAMES_LEVEL, level));
	*size = 0;
	return 0;
}

/* The fields the hops decide: the tensors' level, the canonical zeros of a
 * second hop that is not there. */
static void derive(struct dfz_plan_xfer *x)
{
	unsigned i;

	x->ext_level = x->nhops == 1 && x->hop[0].engine != DFZ_ENGINE_RAM ?
			       DFZ_L2 : DFZ_L3;
	if (x->nhops == 2)
		return;
	memset(&x->hop[1], 0, sizeof(x->hop[1]));
	for (i = 0; i < DFZ_MAX_NODES; i++)
		memset(x->node[i].tile[1], 0, sizeof(x->node[i].tile[1]));
}

static int check_plan(struct pstate *s)
{
	struct dfz_plan_xfer *x = &s->p->xfer;
	uint32_t l2 = x->l2_size;
	unsigned i;
	int rc = 0;

	derive(x);
	for (i = 0; i < x->nnodes && rc == 0; i++)
		rc = check_node(s, i);
	for (i = 0; i < x->nhops && rc == 0; i++)
		rc = check_hop(s, i);
	if (rc == 0)
		rc = check_level(s, seen_at(s, "ext"), "ext",
				 s->ext_given, x->ext_level);
	if (rc == 0)
		rc = place_local(s);
	if (rc == 0)
		rc = check_size(s, DFZ_L2, "l2_size", &x->l2_size, l2);
	if (rc == 0)
		rc = check_size(s, DFZ_L1, "l1_size", &x->l1_size,
				DFZ_PLAN_LOCAL_MIN);
	return rc;
}

int dfz_plan_parse(const char *text, struct dfz_plan *out, char *err,
		   size_t errlen)
{
	struct pstate s;
	int rc;

	unsigned family = DFZ_FAMILY_XFER;

	assert(legacy_base() + LEGACY_COUNT <= MAX_KEYS);
	memset(&s, 0, offsetof(struct pstate, lx));
	s.p = out;
	s.lx.err = err;
	s.lx.errlen = errlen;
	if (err && errlen)
		err[0] = '\0';
	dfz__lex_rewind(&s.lx, text);
	rc = dfz__lex_family(&s.lx, &family);
	if (rc)
		return rc;
	if (family != DFZ_FAMILY_XFER) {
		rc = dfz__plan_parse_host(text, family, out, err, errlen);
		out->caps = DFZ_CAPS_NONE;
		return rc;
	}
	dfz_plan_decode(NULL, 0, out);
	dfz__lex_rewind(&s.lx, text);
	rc = first_pass(&s);
	if (rc)
		return rc;
	fill_defaults(&out->xfer);
	dfz__lex_rewind(&s.lx, text);
	rc = second_pass(&s);
	if (rc == 0)
		rc = check_plan(&s);
	out->caps = DFZ_CAPS_NONE;     /* a written plan runs as written */
	return rc;
}
