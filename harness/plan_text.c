// SPDX-License-Identifier: MIT
/*
 * The text form of a plan (.plan): one `key value...` per line, `#` starts a
 * comment, keys in any order, each at most once. dfz_plan_print() writes
 * every key; dfz_plan_parse() reads them back, validating every value and
 * keeping the simplest value (the decode of an empty stream) for a missing
 * key. The parser is a fuzz target: it never reads past a line's bound,
 * never trusts a number, and reports each error as one "line N: ..." line.
 * It does not apply the caps: dfz_plan_normalise() clamps a parsed plan.
 */
#include <stdarg.h>
#include <string.h>

#include "plan_int.h"

#define LINE_BYTES 1024                  /* bytes of a line before `#` */
#define MAX_TOKENS (1 + DFZ_MAX_SCHED)   /* a key and its values */
#define QUOTE_BYTES 40                   /* of a bad token, in messages */

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

static const char *const family_names[] = { "xfer" };
static const char *const kernel_names[] = { "copy", "inc", "add" };
static const char *const engine_names[] = { "ram", "mchan", "idma" };
static const char *const level_names[] = { "L3", "L2", "L1" };
static const char *const buffering_names[] = { "single", "double" };
static const char *const policy_names[] = { "async-shared", "wait-each",
					    "pool", "blocking" };
static const char *const strategy_names[] = { "tensor-dir", "dir",
					      "barrier", "fresh" };

_Static_assert(COUNT_OF(family_names) == DFZ_FAMILY_COUNT, "family names");
_Static_assert(COUNT_OF(kernel_names) == DFZ_KERNEL_COUNT, "kernel names");
_Static_assert(COUNT_OF(engine_names) == DFZ_ENGINE_COUNT, "engine names");
_Static_assert(COUNT_OF(level_names) == DFZ_NLEVELS, "level names");
_Static_assert(COUNT_OF(policy_names) == DFZ_POLICY_COUNT, "policy names");
_Static_assert(COUNT_OF(strategy_names) == DFZ_STRAT_COUNT, "strategy names");

/* ------------------------------------------------------------- printing */

static const char *name_of(const char *const *names, unsigned n, unsigned v)
{
	return v < n ? names[v] : "?";
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
		name_of(kernel_names, DFZ_KERNEL_COUNT, n->kernel));
	print_u8s(f, prefix, "out.order", n->out.order, rank_of(x));
	print_u8s(f, prefix, "out.pad", n->out.pad, rank_of(x));
	if (n->kernel == DFZ_KERNEL_ADD) {
		print_u8s(f, prefix, "aux.order", n->aux.order, rank_of(x));
		print_u8s(f, prefix, "aux.pad", n->aux.pad, rank_of(x));
	}
	print_u32s(f, prefix, "tile", n->tile, rank_of(x));
}

static void print_run(FILE *f, const struct dfz_plan_xfer *x)
{
	fprintf(f, "engine %s\n",
		name_of(engine_names, DFZ_ENGINE_COUNT, x->engine));
	fprintf(f, "ext %s\n", name_of(level_names, DFZ_NLEVELS, x->ext_level));
	fprintf(f, "local %s\n",
		name_of(level_names, DFZ_NLEVELS, x->local_level));
	fprintf(f, "local_size %lu\n", (unsigned long)x->local_size);
	fprintf(f, "buffering %s\n",
		name_of(buffering_names, 2, x->buffering - 1u));
	fprintf(f, "policy %s\n",
		name_of(policy_names, DFZ_POLICY_COUNT, x->policy));
	fprintf(f, "pool %u\n", (unsigned)x->pool_k);
	fprintf(f, "strategy %s\n",
		name_of(strategy_names, DFZ_STRAT_COUNT, x->strategy));
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
		name_of(family_names, DFZ_FAMILY_COUNT, p->family));
	fprintf(f, "rank %u\n", (unsigned)x->rank);
	print_u32s(f, "", "shape", x->shape, rank_of(x));
	fprintf(f, "elem %u\n", (unsigned)x->elem);
	print_u8s(f, "", "in.order", x->in.order, rank_of(x));
	print_u8s(f, "", "in.pad", x->in.pad, rank_of(x));
	fprintf(f, "nodes %u\n", (unsigned)x->nnodes);
	for (i = 0; i < x->nnodes && i < DFZ_MAX_NODES; i++)
		print_node(f, x, i);
	print_run(f, x);
}

/* -------------------------------------------------------------- parsing */

enum key_id {
	K_FAMILY, K_RANK, K_SHAPE, K_ELEM, K_IN_ORDER, K_IN_PAD, K_NODES,
	K_ENGINE, K_EXT, K_LOCAL, K_LOCAL_SIZE, K_BUFFERING, K_POLICY, K_POOL,
	K_STRATEGY, K_CHUNKS, K_LATENCY, K_BANDWIDTH, K_SCHED, K_SEED,
	K_GLOBAL
};

enum node_key {
	N_KERNEL, N_OUT_ORDER, N_OUT_PAD, N_AUX_ORDER, N_AUX_PAD, N_TILE,
	N_COUNT
};

#define KEY_COUNT (K_GLOBAL + DFZ_MAX_NODES * N_COUNT)
#define NODE_KEY(i, k) (K_GLOBAL + (i) * N_COUNT + (k))

/* One line without its comment, split in place into tokens. */
struct pline {
	char buf[LINE_BYTES + 1];
	char *tok[MAX_TOKENS];   /* the key, then the values */
	unsigned ntok;           /* tokens on the line; may exceed MAX_TOKENS */
};

struct pstate {
	const char *pos;         /* next unread byte of the text */
	size_t lineno;           /* line of s->ln, from 1 */
	size_t seen[KEY_COUNT];  /* line each key was given on; 0: not given */
	unsigned node;           /* node of the current node key */
	struct dfz_plan *p;
	char *err;
	size_t errlen;
	struct pline ln;
};

typedef int (*dfz_plan_setter_fn)(struct pstate *s);

struct key_def {
	const char *name;
	dfz_plan_setter_fn set;
};

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int fail(struct pstate *s, const char *fmt, ...)
{
	char msg[192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (s->err && s->errlen)
		snprintf(s->err, s->errlen, "line %zu: %s", s->lineno, msg);
	return DFZ_EINVAL;
}

/* @src as a printable, bounded one-line excerpt. */
static const char *quote(char dst[QUOTE_BYTES + 4], const char *src)
{
	size_t i;

	for (i = 0; src[i] != '\0' && i < QUOTE_BYTES; i++)
		dst[i] = (src[i] >= 0x20 && src[i] < 0x7f) ? src[i] : '?';
	strcpy(&dst[i], src[i] != '\0' ? "..." : "");
	return dst;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static void split(struct pline *ln)
{
	char *c = ln->buf;

	ln->ntok = 0;
	for (;;) {
		while (is_blank(*c))
			c++;
		if (*c == '\0')
			return;
		if (ln->ntok < MAX_TOKENS)
			ln->tok[ln->ntok] = c;
		ln->ntok++;
		while (*c != '\0' && !is_blank(*c))
			c++;
		if (*c != '\0')
			*c++ = '\0';
	}
}

/* Read the next line into s->ln. Return: 1 when a line was read, 0 at the
 * end of the text, or DFZ_EINVAL for a line over LINE_BYTES. */
static int next_line(struct pstate *s)
{
	size_t n = 0;
	bool comment = false;

	if (*s->pos == '\0')
		return 0;
	s->lineno++;
	for (; *s->pos != '\0' && *s->pos != '\n'; s->pos++) {
		if (*s->pos == '#')
			comment = true;
		if (comment)
			continue;
		if (n == LINE_BYTES)
			return fail(s, "line longer than %d bytes", LINE_BYTES);
		s->ln.buf[n++] = *s->pos;
	}
	if (*s->pos == '\n')
		s->pos++;
	s->ln.buf[n] = '\0';
	split(&s->ln);
	return 1;
}

/* ------------------------------------------------------------- values */

static int digit_of(char c, unsigned base)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (base == 16 && c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (base == 16 && c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decimal or 0x-hex. Return: 0, 1 when not a number, 2 when over 2^32-1. */
static int parse_u32(const char *t, uint32_t *v)
{
	uint64_t x = 0;
	unsigned base = 10;
	int dig;

	if (t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
		base = 16;
		t += 2;
	}
	if (*t == '\0')
		return 1;
	for (; *t != '\0'; t++) {
		dig = digit_of(*t, base);
		if (dig < 0)
			return 1;
		x = x * base + (unsigned)dig;
		if (x > UINT32_MAX)
			x = (uint64_t)UINT32_MAX + 1; /* stays over, no wrap */
	}
	*v = (uint32_t)x;
	return x > UINT32_MAX ? 2 : 0;
}

static int want_values(struct pstate *s, unsigned n)
{
	unsigned got = s->ln.ntok - 1;

	if (got == n)
		return 0;
	return fail(s, "'%s' needs %u value%s, got %u", s->ln.tok[0], n,
		    n == 1 ? "" : "s", got);
}

/* Value @i (1-based token index) of the line, in [lo, hi]. */
static int get_num(struct pstate *s, unsigned i, uint32_t lo, uint32_t hi,
		   uint32_t *v)
{
	char q[QUOTE_BYTES + 4];
	int rc = parse_u32(s->ln.tok[i], v);

	if (rc == 1)
		return fail(s, "bad number '%s' for '%s'",
			    quote(q, s->ln.tok[i]), s->ln.tok[0]);
	if (rc == 2 || *v < lo || *v > hi)
		return fail(s, "'%s' value %s out of range %lu..%lu",
			    s->ln.tok[0], quote(q, s->ln.tok[i]),
			    (unsigned long)lo, (unsigned long)hi);
	return 0;
}

static int get_one(struct pstate *s, uint32_t lo, uint32_t hi, uint32_t *v)
{
	int rc = want_values(s, 1);

	return rc ? rc : get_num(s, 1, lo, hi, v);
}

static int get_vec(struct pstate *s, unsigned n, uint32_t lo, uint32_t hi,
		   uint32_t *v)
{
	int rc = want_values(s, n);
	unsigned i;

	for (i = 0; i < n && rc == 0; i++)
		rc = get_num(s, 1 + i, lo, hi, &v[i]);
	return rc;
}

static int get_name(struct pstate *s, const char *const *names, unsigned n,
		    uint32_t *v)
{
	char q[QUOTE_BYTES + 4], alts[128] = "";
	int rc = want_values(s, 1);
	unsigned i;

	if (rc)
		return rc;
	for (i = 0; i < n; i++) {
		if (!strcmp(s->ln.tok[1], names[i])) {
			*v = i;
			return 0;
		}
		strcat(alts, i ? "|" : "");
		strcat(alts, names[i]);
	}
	return fail(s, "unknown value '%s' for '%s' (%s)",
		    quote(q, s->ln.tok[1]), s->ln.tok[0], alts);
}

static int get_order(struct pstate *s, uint8_t *order)
{
	unsigned rank = s->p->xfer.rank, d, used = 0;
	uint32_t v[DFZ_MAX_RANK];
	int rc = get_vec(s, rank, 0, rank - 1, v);

	if (rc)
		return rc;
	for (d = 0; d < rank; d++)
		used |= 1u << v[d];
	if (used != (1u << rank) - 1)
		return fail(s, "'%s' is not a permutation of 0..%u",
			    s->ln.tok[0], rank - 1);
	for (d = 0; d < rank; d++)
		order[d] = (uint8_t)v[d];
	return 0;
}

static int get_pad(struct pstate *s, uint8_t *pad)
{
	unsigned rank = s->p->xfer.rank, d;
	uint32_t v[DFZ_MAX_RANK];
	int rc = get_vec(s, rank, 0, DFZ_CAP_PAD, v);

	for (d = 0; d < rank && rc == 0; d++)
		pad[d] = (uint8_t)v[d];
	return rc;
}

/* ------------------------------------------------------------- setters */

/* Declares set_NAME(s) that stores get_one(lo, hi) into xfer.FIELD. */
#define NUM_SETTER(name, field, lo, hi)				\
	static int set_##name(struct pstate *s)			\
	{							\
		uint32_t v = 0;					\
		int rc = get_one(s, (lo), (hi), &v);		\
								\
		if (rc == 0)					\
			s->p->xfer.field = v;			\
		return rc;					\
	}

/* Declares set_NAME(s) that stores the index of a name into xfer.FIELD. */
#define NAME_SETTER(name, field, names, count)			\
	static int set_##name(struct pstate *s)			\
	{							\
		uint32_t v = 0;					\
		int rc = get_name(s, (names), (count), &v);	\
								\
		if (rc == 0)					\
			s->p->xfer.field = v;			\
		return rc;					\
	}

NUM_SETTER(rank, rank, 1, DFZ_MAX_RANK)
NUM_SETTER(nodes, nnodes, 1, DFZ_MAX_NODES)
NUM_SETTER(local_size, local_size, DFZ_PLAN_LOCAL_MIN, DFZ_CAP_L2)
NUM_SETTER(pool, pool_k, 1, DFZ_MAX_POOL)
NUM_SETTER(chunks, compute_chunks, 1, 8)
NUM_SETTER(latency, latency, 0, DFZ_CAP_LATENCY)
NUM_SETTER(bandwidth, bandwidth, 1, DFZ_CAP_BANDWIDTH)
NUM_SETTER(seed, seed, 0, UINT32_MAX)
NAME_SETTER(engine, engine, engine_names, DFZ_ENGINE_COUNT)
NAME_SETTER(policy, policy, policy_names, DFZ_POLICY_COUNT)
NAME_SETTER(strategy, strategy, strategy_names, DFZ_STRAT_COUNT)
NAME_SETTER(kernel, node[s->node].kernel, kernel_names, DFZ_KERNEL_COUNT)

static int set_family(struct pstate *s)
{
	uint32_t v = 0;
	int rc = get_name(s, family_names, DFZ_FAMILY_COUNT, &v);

	if (rc == 0)
		s->p->family = (uint8_t)v;
	return rc;
}

static int set_shape(struct pstate *s)
{
	return get_vec(s, s->p->xfer.rank, 0, DFZ_CAP_DIM, s->p->xfer.shape);
}

static int set_elem(struct pstate *s)
{
	uint32_t v = 0;
	int rc = get_one(s, 1, 8, &v);

	if (rc == 0 && (v & (v - 1)) != 0)
		return fail(s, "'elem' must be 1, 2, 4 or 8, not %lu",
			    (unsigned long)v);
	if (rc == 0)
		s->p->xfer.elem = (uint8_t)v;
	return rc;
}

static int set_in_order(struct pstate *s)
{
	return get_order(s, s->p->xfer.in.order);
}

static int set_in_pad(struct pstate *s)
{
	return get_pad(s, s->p->xfer.in.pad);
}

/* The ram engine's hop is fixed: ext must be L3 and local L2. */
static int get_level(struct pstate *s, uint32_t want, uint8_t *level)
{
	uint32_t v = 0;
	int rc = get_name(s, level_names, DFZ_NLEVELS, &v);

	if (rc == 0 && v != want)
		return fail(s, "'%s' must be %s for engine ram", s->ln.tok[0],
			    level_names[want]);
	if (rc == 0)
		*level = (uint8_t)v;
	return rc;
}

static int set_ext(struct pstate *s)
{
	return get_level(s, DFZ_L3, &s->p->xfer.ext_level);
}

static int set_local(struct pstate *s)
{
	return get_level(s, DFZ_L2, &s->p->xfer.local_level);
}

static int set_buffering(struct pstate *s)
{
	uint32_t v = 0;
	int rc = get_name(s, buffering_names, 2, &v);

	if (rc == 0)
		s->p->xfer.buffering = (uint8_t)(v + 1);
	return rc;
}

static int set_sched(struct pstate *s)
{
	struct dfz_plan_xfer *x = &s->p->xfer;
	unsigned n = s->ln.ntok - 1, j;
	uint32_t v = 0;
	int rc;

	if (n > DFZ_MAX_SCHED)
		return fail(s, "'sched' takes at most %d values, got %u",
			    DFZ_MAX_SCHED, n);
	for (j = 0; j < n; j++) {
		rc = get_num(s, 1 + j, 0, DFZ_CAP_SCHED_STEPS, &v);
		if (rc)
			return rc;
		x->sched[j] = (uint8_t)v;
	}
	x->nsched = (uint8_t)n;
	return 0;
}

static int set_out_order(struct pstate *s)
{
	return get_order(s, s->p->xfer.node[s->node].out.order);
}

static int set_out_pad(struct pstate *s)
{
	return get_pad(s, s->p->xfer.node[s->node].out.pad);
}

static int set_aux_order(struct pstate *s)
{
	return get_order(s, s->p->xfer.node[s->node].aux.order);
}

static int set_aux_pad(struct pstate *s)
{
	return get_pad(s, s->p->xfer.node[s->node].aux.pad);
}

/* Tiles are checked against the shape once every key is read. */
static int set_tile(struct pstate *s)
{
	return get_vec(s, s->p->xfer.rank, 1, DFZ_CAP_DIM,
		       s->p->xfer.node[s->node].tile);
}

/* rank and nodes are read in a first pass: the lengths of the other keys
 * depend on them. */
static const struct key_def global_keys[K_GLOBAL] = {
	[K_FAMILY] = { "family", set_family },
	[K_RANK] = { "rank", set_rank },
	[K_SHAPE] = { "shape", set_shape },
	[K_ELEM] = { "elem", set_elem },
	[K_IN_ORDER] = { "in.order", set_in_order },
	[K_IN_PAD] = { "in.pad", set_in_pad },
	[K_NODES] = { "nodes", set_nodes },
	[K_ENGINE] = { "engine", set_engine },
	[K_EXT] = { "ext", set_ext },
	[K_LOCAL] = { "local", set_local },
	[K_LOCAL_SIZE] = { "local_size", set_local_size },
	[K_BUFFERING] = { "buffering", set_buffering },
	[K_POLICY] = { "policy", set_policy },
	[K_POOL] = { "pool", set_pool },
	[K_STRATEGY] = { "strategy", set_strategy },
	[K_CHUNKS] = { "compute_chunks", set_chunks },
	[K_LATENCY] = { "latency", set_latency },
	[K_BANDWIDTH] = { "bandwidth", set_bandwidth },
	[K_SCHED] = { "sched", set_sched },
	[K_SEED] = { "seed", set_seed },
};

static const struct key_def node_keys[N_COUNT] = {
	[N_KERNEL] = { "kernel", set_kernel },
	[N_OUT_ORDER] = { "out.order", set_out_order },
	[N_OUT_PAD] = { "out.pad", set_out_pad },
	[N_AUX_ORDER] = { "aux.order", set_aux_order },
	[N_AUX_PAD] = { "aux.pad", set_aux_pad },
	[N_TILE] = { "tile", set_tile },
};

/* ------------------------------------------------------------- the passes */

/* The id of key @k ("node<i>.<key>" or a global key), or fail. */
static int find_key(struct pstate *s, const char *k, unsigned *id)
{
	char q[QUOTE_BYTES + 4];
	unsigned i, n;

	if (!strncmp(k, "node", 4) && k[4] >= '0' && k[4] <= '9' &&
	    k[5] == '.') {
		i = (unsigned)(k[4] - '0');
		for (n = 0; n < N_COUNT; n++) {
			if (strcmp(&k[6], node_keys[n].name))
				continue;
			if (i >= s->p->xfer.nnodes)
				return fail(s, "'%s' given but nodes is %u", k,
					    (unsigned)s->p->xfer.nnodes);
			s->node = i;
			*id = NODE_KEY(i, n);
			return 0;
		}
	}
	for (n = 0; n < K_GLOBAL; n++) {
		if (!strcmp(k, global_keys[n].name)) {
			*id = n;
			return 0;
		}
	}
	return fail(s, "unknown key '%s'", quote(q, k));
}

/* Record that key @id is given on this line, or fail on a duplicate. */
static int mark_seen(struct pstate *s, unsigned id)
{
	if (s->seen[id])
		return fail(s, "duplicate key '%s' (first on line %zu)",
			    s->ln.tok[0], s->seen[id]);
	s->seen[id] = s->lineno;
	return 0;
}

static void rewind_text(struct pstate *s, const char *text)
{
	s->pos = text;
	s->lineno = 0;
}

/* Pass 1: rank and nodes only. */
static int first_pass(struct pstate *s)
{
	unsigned id = 0;
	int rc;

	while ((rc = next_line(s)) == 1) {
		if (s->ln.ntok == 0)
			continue;
		if (!strcmp(s->ln.tok[0], "rank"))
			id = K_RANK;
		else if (!strcmp(s->ln.tok[0], "nodes"))
			id = K_NODES;
		else
			continue;
		rc = mark_seen(s, id);
		if (rc == 0)
			rc = global_keys[id].set(s);
		if (rc)
			return rc;
	}
	return rc;
}

/* The simplest value of every rank- or node-sized field. */
static void fill_defaults(struct dfz_plan_xfer *x)
{
	unsigned i, d;

	for (d = 0; d < x->rank; d++)
		x->in.order[d] = (uint8_t)d;
	for (i = 0; i < x->nnodes; i++) {
		for (d = 0; d < x->rank; d++) {
			x->node[i].out.order[d] = (uint8_t)d;
			x->node[i].aux.order[d] = (uint8_t)d;
			x->node[i].tile[d] = 1;
		}
	}
}

/* Pass 2: every other key. */
static int second_pass(struct pstate *s)
{
	unsigned id = 0;
	int rc;

	while ((rc = next_line(s)) == 1) {
		if (s->ln.ntok == 0 || !strcmp(s->ln.tok[0], "rank") ||
		    !strcmp(s->ln.tok[0], "nodes"))
			continue;
		rc = find_key(s, s->ln.tok[0], &id);
		if (rc == 0)
			rc = mark_seen(s, id);
		if (rc == 0 && id < K_GLOBAL)
			rc = global_keys[id].set(s);
		else if (rc == 0)
			rc = node_keys[(id - K_GLOBAL) % N_COUNT].set(s);
		if (rc)
			return rc;
	}
	return rc;
}

/* Fail as of line @line (where the offending key was given). */
#define FAIL_AT(s, line, ...) ((s)->lineno = (line), fail((s), __VA_ARGS__))

/* Checks across keys, made once every key is read. */
static int check_node(struct pstate *s, unsigned i)
{
	const struct dfz_plan_xfer *x = &s->p->xfer;
	const struct dfz_plan_node *n = &x->node[i];
	size_t aux = s->seen[NODE_KEY(i, N_AUX_ORDER)];
	unsigned d;

	if (!aux)
		aux = s->seen[NODE_KEY(i, N_AUX_PAD)];
	if (aux && n->kernel != DFZ_KERNEL_ADD)
		return FAIL_AT(s, aux, "node%u.aux given but node%u.kernel "
			       "is not add", i, i);
	for (d = 0; d < x->rank; d++) {
		uint32_t hi = x->shape[d] ? x->shape[d] : 1;

		if (n->tile[d] > hi)
			return FAIL_AT(s, s->seen[NODE_KEY(i, N_TILE)],
				       "node%u.tile[%u] is %lu, over %lu "
				       "(shape[%u])", i, d,
				       (unsigned long)n->tile[d],
				       (unsigned long)hi, d);
	}
	return 0;
}

static int check_plan(struct pstate *s)
{
	const struct dfz_plan_xfer *x = &s->p->xfer;
	unsigned i;
	int rc;

	for (i = 0; i < x->nnodes; i++) {
		rc = check_node(s, i);
		if (rc)
			return rc;
	}
	if (x->pool_k != 1 && x->policy != DFZ_POLICY_POOL)
		return FAIL_AT(s, s->seen[K_POOL], "'pool' is %u but policy "
			       "is not pool (must be 1)", (unsigned)x->pool_k);
	return 0;
}

int dfz_plan_parse(const char *text, struct dfz_plan *out, char *err,
		   size_t errlen)
{
	struct pstate s;
	int rc;

	memset(&s, 0, offsetof(struct pstate, ln));
	s.p = out;
	s.err = err;
	s.errlen = errlen;
	if (err && errlen)
		err[0] = '\0';
	dfz_plan_decode(NULL, 0, out);
	rewind_text(&s, text ? text : "");
	rc = first_pass(&s);
	if (rc)
		return rc;
	fill_defaults(&out->xfer);
	rewind_text(&s, text ? text : "");
	rc = second_pass(&s);
	return rc ? rc : check_plan(&s);
}
