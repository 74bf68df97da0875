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
 * Printing lives in plan_print.c.
 */
#include <string.h>

#include "plan_int.h"

enum key_id {
	K_FAMILY, K_RANK, K_SHAPE, K_ELEM, K_TENSOR_CAP, K_IN_ORDER, K_IN_PAD,
	K_HOPS, K_EXT, K_NODES, K_LOCAL, K_LOCAL_SIZE, K_L2_SIZE, K_L1_SIZE,
	K_CHUNKS, K_LATENCY, K_BANDWIDTH, K_SCHED, K_SEED,
	K_GLOBAL
};

enum node_key {
	N_KERNEL, N_OUT_ORDER, N_OUT_PAD, N_AUX_ORDER, N_AUX_PAD, N_TILE,
	N_TILE1, N_COUNT
};

enum hop_key {
	H_ENGINE, H_BUFFERING, H_POLICY, H_POOL, H_STRATEGY, H_DB_ORDER,
	H_COUNT
};

#define NODE_KEY(i, k) (K_GLOBAL + (i) * N_COUNT + (k))
#define HOP_KEY(h, k) (NODE_KEY(DFZ_MAX_NODES, 0) + (h) * H_COUNT + (k))
#define KEY_COUNT HOP_KEY(DFZ_MAX_HOPS, 0)

struct pstate {
	size_t seen[KEY_COUNT];  /* line each key was given on; 0: not given */
	unsigned node;           /* node of the current node key */
	unsigned hop;            /* hop of the current hop key */
	uint32_t local_size;     /* the legacy key's value, placed at the end */
	uint32_t local_level;    /* the legacy `local` key's value */
	uint32_t ext_given;      /* the `ext` key's value */
	struct dfz_plan *p;
	struct dfz__lex lx;      /* the line being read; last (see parse) */
};

typedef int (*dfz_plan_setter_fn)(struct pstate *s);

struct key_def {
	const char *name;
	dfz_plan_setter_fn set;
};

/* Fail with a message about the current line. */
#define FAIL(s, ...) dfz__lex_fail(&(s)->lx, __VA_ARGS__)

/* ------------------------------------------------------------- setters */

/* Declares set_NAME(s) that stores get_one(lo, hi) into xfer.FIELD. */
#define NUM_SETTER(name, field, lo, hi)				\
	static int set_##name(struct pstate *s)			\
	{							\
		uint32_t v = 0;					\
		int rc = dfz__lex_one(&s->lx, (lo), (hi), &v);		\
								\
		if (rc == 0)					\
			s->p->xfer.field = v;			\
		return rc;					\
	}

/* Declares set_NAME(s) that stores the index of a name into xfer.FIELD. */
#define NAME_SETTER(name, field, table)				\
	static int set_##name(struct pstate *s)			\
	{							\
		uint32_t v = 0;					\
		int rc = dfz__lex_name(&s->lx, (table), &v);	\
								\
		if (rc == 0)					\
			s->p->xfer.field = v;			\
		return rc;					\
	}

NUM_SETTER(rank, rank, 1, DFZ_MAX_RANK)
NUM_SETTER(hops, nhops, 1, DFZ_MAX_HOPS)
NUM_SETTER(nodes, nnodes, 1, DFZ_MAX_NODES)
NUM_SETTER(l2_size, l2_size, DFZ_PLAN_LOCAL_MIN, DFZ_CAP_L2)
NUM_SETTER(l1_size, l1_size, DFZ_PLAN_LOCAL_MIN, DFZ_CAP_L1)
NUM_SETTER(chunks, compute_chunks, 1, 8)
NUM_SETTER(latency, latency, 0, DFZ_CAP_LATENCY)
NUM_SETTER(bandwidth, bandwidth, 1, DFZ_CAP_BANDWIDTH)
NUM_SETTER(seed, seed, 0, UINT32_MAX)
NUM_SETTER(pool, hop[s->hop].pool_k, 1, DFZ_MAX_POOL)
NAME_SETTER(engine, hop[s->hop].engine, DFZ_NAMES_ENGINE)
NAME_SETTER(policy, hop[s->hop].policy, DFZ_NAMES_POLICY)
NAME_SETTER(strategy, hop[s->hop].strategy, DFZ_NAMES_STRATEGY)
NAME_SETTER(db_order, hop[s->hop].db_order, DFZ_NAMES_DB_ORDER)
NAME_SETTER(kernel, node[s->node].kernel, DFZ_NAMES_KERNEL)

static int set_family(struct pstate *s)
{
	uint32_t v = 0;
	int rc = dfz__lex_name(&s->lx, DFZ_NAMES_FAMILY, &v);

	if (rc == 0)
		s->p->family = (uint8_t)v;
	return rc;
}

static int set_shape(struct pstate *s)
{
	return dfz__lex_vec(&s->lx, s->p->xfer.rank, 0,
			    dfz__plan_dim_cap(&s->p->xfer), s->p->xfer.shape);
}

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

static int set_elem(struct pstate *s)
{
	unsigned k = 0;
	int rc = get_pow2(s, 0, 3, &k);

	if (rc == 0)
		s->p->xfer.elem = (uint8_t)(1u << k);
	return rc;
}

static int set_tensor_cap(struct pstate *s)
{
	unsigned k = 0;
	int rc = get_pow2(s, DFZ_TENSOR_CLASS_MIN, DFZ_TENSOR_CLASS_MAX, &k);

	if (rc == 0)
		s->p->xfer.tensor_class = (uint8_t)k;
	return rc;
}

static int set_in_order(struct pstate *s)
{
	return dfz__lex_order(&s->lx, s->p->xfer.rank, s->p->xfer.in.order);
}

static int set_in_pad(struct pstate *s)
{
	return dfz__lex_pad(&s->lx, s->p->xfer.rank, s->p->xfer.in.pad);
}

/* `ext`: derived from the hops, checked once they are known. */
static int set_ext(struct pstate *s)
{
	return dfz__lex_name(&s->lx, DFZ_NAMES_LEVEL, &s->ext_given);
}

/* The legacy `local`: hop 0's level, checked once the engines are known. */
static int set_local(struct pstate *s)
{
	return dfz__lex_name(&s->lx, DFZ_NAMES_LEVEL, &s->local_level);
}

static int set_local_size(struct pstate *s)
{
	return dfz__lex_one(&s->lx, DFZ_PLAN_LOCAL_MIN, DFZ_CAP_L2, &s->local_size);
}

static int set_buffering(struct pstate *s)
{
	uint32_t v = 0;
	int rc = dfz__lex_name(&s->lx, DFZ_NAMES_BUFFERING, &v);

	if (rc == 0)
		s->p->xfer.hop[s->hop].buffering = (uint8_t)(v + 1);
	return rc;
}

static int set_sched(struct pstate *s)
{
	struct dfz_plan_xfer *x = &s->p->xfer;
	unsigned n = s->lx.ntok - 1, j;
	uint32_t v = 0;
	int rc;

	if (n > DFZ_MAX_SCHED)
		return FAIL(s, "'sched' takes at most %d values, got %u",
			    DFZ_MAX_SCHED, n);
	for (j = 0; j < n; j++) {
		rc = dfz__lex_num(&s->lx, 1 + j, 0, DFZ_CAP_SCHED_STEPS, &v);
		if (rc)
			return rc;
		x->sched[j] = (uint8_t)v;
	}
	x->nsched = (uint8_t)n;
	return 0;
}

static int set_out_order(struct pstate *s)
{
	return dfz__lex_order(&s->lx, s->p->xfer.rank, s->p->xfer.node[s->node].out.order);
}

static int set_out_pad(struct pstate *s)
{
	return dfz__lex_pad(&s->lx, s->p->xfer.rank, s->p->xfer.node[s->node].out.pad);
}

static int set_aux_order(struct pstate *s)
{
	return dfz__lex_order(&s->lx, s->p->xfer.rank, s->p->xfer.node[s->node].aux.order);
}

static int set_aux_pad(struct pstate *s)
{
	return dfz__lex_pad(&s->lx, s->p->xfer.rank, s->p->xfer.node[s->node].aux.pad);
}

/* Tiles are checked against the shape once every key is read. */
static int set_tile(struct pstate *s)
{
	return dfz__lex_vec(&s->lx, s->p->xfer.rank, 1,
			    dfz__plan_dim_cap(&s->p->xfer),
			    s->p->xfer.node[s->node].tile[0]);
}

static int set_tile1(struct pstate *s)
{
	return dfz__lex_vec(&s->lx, s->p->xfer.rank, 1,
			    dfz__plan_dim_cap(&s->p->xfer),
			    s->p->xfer.node[s->node].tile[1]);
}

/* rank, hops and nodes are read in a first pass: the lengths of the other
 * keys, and which of them exist, depend on them. */
static const struct key_def global_keys[K_GLOBAL] = {
	[K_FAMILY] = { "family", set_family },
	[K_RANK] = { "rank", set_rank },
	[K_SHAPE] = { "shape", set_shape },
	[K_ELEM] = { "elem", set_elem },
	[K_TENSOR_CAP] = { "tensor_cap", set_tensor_cap },
	[K_IN_ORDER] = { "in.order", set_in_order },
	[K_IN_PAD] = { "in.pad", set_in_pad },
	[K_HOPS] = { "hops", set_hops },
	[K_EXT] = { "ext", set_ext },
	[K_NODES] = { "nodes", set_nodes },
	[K_LOCAL] = { "local", set_local },
	[K_LOCAL_SIZE] = { "local_size", set_local_size },
	[K_L2_SIZE] = { "l2_size", set_l2_size },
	[K_L1_SIZE] = { "l1_size", set_l1_size },
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
	[N_TILE1] = { "tile1", set_tile1 },
};

/* Without a prefix, these mean hop 0 (plans from before hops existed). */
static const struct key_def hop_keys[H_COUNT] = {
	[H_ENGINE] = { "engine", set_engine },
	[H_BUFFERING] = { "buffering", set_buffering },
	[H_POLICY] = { "policy", set_policy },
	[H_POOL] = { "pool", set_pool },
	[H_STRATEGY] = { "strategy", set_strategy },
	[H_DB_ORDER] = { "db_order", set_db_order },
};

/* ----------------------------------------------------------- the keys */

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

/* Node key @rest of node @i: 0, 1 when there is no such key, or fail when
 * the node (or, for tile1, the second hop) is not in the plan. */
static int find_node_key(struct pstate *s, const char *k, const char *rest,
			 unsigned i, unsigned *id)
{
	const struct dfz_plan_xfer *x = &s->p->xfer;

	for (unsigned n = 0; n < N_COUNT; n++) {
		if (strcmp(rest, node_keys[n].name))
			continue;
		if (i >= x->nnodes)
			return FAIL(s, "'%s' given but nodes is %u", k,
				    (unsigned)x->nnodes);
		if (n == N_TILE1 && x->nhops < 2)
			return FAIL(s, "'%s' given but hops is 1", k);
		s->node = i;
		*id = NODE_KEY(i, n);
		return 0;
	}
	return 1;
}

static int find_hop_key(struct pstate *s, const char *k, const char *rest,
			unsigned h, unsigned *id)
{
	for (unsigned n = 0; n < H_COUNT; n++) {
		if (strcmp(rest, hop_keys[n].name))
			continue;
		if (h >= s->p->xfer.nhops)
			return FAIL(s, "'%s' given but hops is %u", k,
				    (unsigned)s->p->xfer.nhops);
		s->hop = h;
		*id = HOP_KEY(h, n);
		return 0;
	}
	return 1;
}

/* The id of key @k ("node<i>.<key>", "hop<h>.<key>", a global key, or a
 * hop key without prefix), or fail. */
static int find_key(struct pstate *s, const char *k, unsigned *id)
{
	char q[DFZ_LEX_QUOTE_BYTES + 4];
	const char *rest;
	unsigned i = 0, n;
	int rc = 1;

	if ((rest = indexed(k, "node", &i)))
		rc = find_node_key(s, k, rest, i, id);
	else if ((rest = indexed(k, "hop", &i)))
		rc = find_hop_key(s, k, rest, i, id);
	if (rc <= 0)
		return rc;
	for (n = 0; n < K_GLOBAL; n++) {
		if (!strcmp(k, global_keys[n].name)) {
			*id = n;
			return 0;
		}
	}
	rc = find_hop_key(s, k, k, 0, id);
	if (rc <= 0)
		return rc;
	if (dfz__plan_is_host_key(k))
		return FAIL(s, "key '%s' is not part of an xfer plan", k);
	return FAIL(s, "unknown key '%s'", dfz__lex_quote(q, k));
}

static bool is_key_of(const struct key_def *defs, unsigned n, const char *k)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(k, defs[i].name))
			return true;
	return false;
}

bool dfz__plan_is_xfer_key(const char *k)
{
	const char *rest;
	unsigned i;

	if ((rest = indexed(k, "node", &i)))
		return is_key_of(node_keys, N_COUNT, rest);
	if ((rest = indexed(k, "hop", &i)))
		return is_key_of(hop_keys, H_COUNT, rest);
	return is_key_of(global_keys, K_GLOBAL, k) ||
	       is_key_of(hop_keys, H_COUNT, k);
}

static const struct key_def *key_of(unsigned id)
{
	if (id < K_GLOBAL)
		return &global_keys[id];
	if (id < HOP_KEY(0, 0))
		return &node_keys[(id - K_GLOBAL) % N_COUNT];
	return &hop_keys[(id - HOP_KEY(0, 0)) % H_COUNT];
}

/* Record that key @id is given on this line, or fail on a duplicate. */
static int mark_seen(struct pstate *s, unsigned id)
{
	if (s->seen[id])
		return FAIL(s, "duplicate key '%s' (first on line %zu)",
			    s->lx.tok[0], s->seen[id]);
	s->seen[id] = s->lx.lineno;
	return 0;
}

/* ------------------------------------------------------------- the passes */

static bool is_first_pass_key(const char *k, unsigned *id)
{
	static const unsigned first[] = { K_RANK, K_HOPS, K_NODES };

	for (unsigned i = 0; i < sizeof(first) / sizeof(first[0]); i++) {
		if (!strcmp(k, global_keys[first[i]].name)) {
			*id = first[i];
			return true;
		}
	}
	return false;
}

/* Pass 1: rank, hops and nodes only. */
static int first_pass(struct pstate *s)
{
	unsigned id = 0;
	int rc;

	while ((rc = dfz__lex_next(&s->lx)) == 1) {
		if (s->lx.ntok == 0 || !is_first_pass_key(s->lx.tok[0], &id))
			continue;
		rc = mark_seen(s, id);
		if (rc == 0)
			rc = global_keys[id].set(s);
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
	unsigned id = 0;
	int rc;

	while ((rc = dfz__lex_next(&s->lx)) == 1) {
		if (s->lx.ntok == 0 || is_first_pass_key(s->lx.tok[0], &id))
			continue;
		rc = find_key(s, s->lx.tok[0], &id);
		if (rc == 0)
			rc = mark_seen(s, id);
		if (rc == 0)
			rc = key_of(id)->set(s);
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
			return FAIL_AT(s, s->seen[NODE_KEY(i, N_TILE)],
				       "node%u.tile[%u] is %lu, over %lu "
				       "(shape[%u])", i, d,
				       (unsigned long)t0[d], (unsigned long)hi,
				       d);
		if (x->nhops == 2 && t1[d] > t0[d])
			return FAIL_AT(s, s->seen[NODE_KEY(i, N_TILE1)],
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
	size_t aux = s->seen[NODE_KEY(i, N_AUX_ORDER)];

	if (!aux)
		aux = s->seen[NODE_KEY(i, N_AUX_PAD)];
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
		return FAIL_AT(s, s->seen[HOP_KEY(h, H_ENGINE)],
			       "hop%u.engine is %s but hop %u of two moves "
			       "%s (%s)", h,
			       dfz__plan_name(DFZ_NAMES_ENGINE, hop->engine), h,
			       h ? "L2 -> L1" : "L3 -> L2",
			       h ? "mchan|idma" : "ram");
	if (hop->pool_k != 1 && hop->policy != DFZ_POLICY_POOL)
		return FAIL_AT(s, s->seen[HOP_KEY(h, H_POOL)], "'pool' of hop "
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
	unsigned own = level == DFZ_L2 ? K_L2_SIZE : K_L1_SIZE;
	uint32_t cap = level == DFZ_L2 ? DFZ_CAP_L2 : DFZ_CAP_L1;
	size_t line = s->seen[K_LOCAL_SIZE];

	int rc = check_level(s, s->seen[K_LOCAL], "local", s->local_level,
			     level);

	if (rc || !line)
		return rc;
	if (s->seen[own])
		return FAIL_AT(s, line, "'local_size' and '%s' both given",
			       global_keys[own].name);
	if (s->local_size > cap)
		return FAIL_AT(s, line, "'local_size' value %lu out of range "
			       "%u..%lu", (unsigned long)s->local_size,
			       DFZ_PLAN_LOCAL_MIN, (unsigned long)cap);
	*(level == DFZ_L2 ? &x->l2_size : &x->l1_size) = s->local_size;
	s->seen[own] = line;
	return 0;
}

/* A size key given for a level no hop keeps tiles in, or the level's
 * simplest size when it is used and not given. */
static int check_size(struct pstate *s, unsigned level, unsigned key,
		      uint32_t *size, uint32_t simplest)
{
	if (dfz__plan_is_level_used(&s->p->xfer, level)) {
		if (!s->seen[key])
			*size = simplest;
		return 0;
	}
	if (s->seen[key])
		return FAIL_AT(s, s->seen[key], "'%s' given but no hop keeps "
			       "tiles in %s", global_keys[key].name,
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
		rc = check_level(s, s->seen[K_EXT], "ext",
				 s->ext_given, x->ext_level);
	if (rc == 0)
		rc = place_local(s);
	if (rc == 0)
		rc = check_size(s, DFZ_L2, K_L2_SIZE, &x->l2_size, l2);
	if (rc == 0)
		rc = check_size(s, DFZ_L1, K_L1_SIZE, &x->l1_size,
				DFZ_PLAN_LOCAL_MIN);
	return rc;
}

int dfz_plan_parse(const char *text, struct dfz_plan *out, char *err,
		   size_t errlen)
{
	struct pstate s;
	int rc;

	unsigned family = DFZ_FAMILY_XFER;

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
