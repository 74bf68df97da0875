// SPDX-License-Identifier: MIT
/*
 * The plan decoder: the one walk over a plan's fields in stream order (run
 * by the decoder to draw them and by the encoder to emit them, so the two
 * cannot drift), and the clamps that keep every decoded plan inside the caps.
 * The family is the first draw; this file walks and clamps the xfer
 * family, plan_host.c the host and api families.
 * The decoder is total: any byte string is a plan, and a plan over a cap is
 * clamped (shapes halved, each hop's tiles halved, its local level grown),
 * never rejected. The clamps are idempotent, which is what makes
 * decode(encode(p)) == p for every decoded p.
 */
#include <string.h>

#include "plan_int.h"

_Static_assert(sizeof(struct dfz_ram_req) <= DFZ_PLAN_REQ_BYTES,
	       "the ram request outgrew DFZ_PLAN_REQ_BYTES");

/* ------------------------------------------------------------ the walk */

/* Position of @v in @left[0..n), or 0 (the simplest choice) when absent. */
static unsigned index_of(const uint8_t *left, unsigned n, uint8_t v)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (left[i] == v)
			return i;
	return 0;
}

static void identity_layout(unsigned rank, struct dfz_plan_layout *l)
{
	unsigned d;

	memset(l, 0, sizeof(*l));
	for (d = 0; d < rank; d++)
		l->order[d] = (uint8_t)d;
}

/* The order as a Lehmer code: each draw picks one of the dims not yet
 * placed, in ascending order, so all-zero draws give the identity. */
static void visit_layout(struct dfz_choice *c, unsigned rank,
			 const struct dfz_plan_layout *s,
			 struct dfz_plan_layout *d)
{
	uint8_t left[DFZ_MAX_RANK];
	unsigned j, i, nleft = rank;

	memset(d, 0, sizeof(*d));
	for (j = 0; j < rank; j++)
		left[j] = (uint8_t)j;
	for (j = 0; j < rank; j++, nleft--) {
		i = dfz__choice_draw(c, 0, nleft - 1,
				     index_of(left, nleft, s->order[j]));
		d->order[j] = left[i];
		memmove(&left[i], &left[i + 1], nleft - i - 1);
	}
	for (j = 0; j < rank; j++)
		d->pad[j] = (uint8_t)dfz__choice_draw(c, 0, DFZ_CAP_PAD,
						      s->pad[j]);
}

static void visit_node(struct dfz_choice *c, const struct dfz_plan_xfer *x,
		       const struct dfz_plan_node *s, struct dfz_plan_node *d)
{
	unsigned k;

	d->kernel = (uint8_t)dfz__choice_draw(c, 0, DFZ_KERNEL_COUNT - 1,
					      s->kernel);
	visit_layout(c, x->rank, &s->out, &d->out);
	if (d->kernel == DFZ_KERNEL_ADD)
		visit_layout(c, x->rank, &s->aux, &d->aux);
	else
		identity_layout(x->rank, &d->aux);
	for (k = 0; k < x->rank; k++) {
		uint32_t hi = x->shape[k] ? x->shape[k] : 1;

		d->tile[0][k] = dfz__choice_draw_size(c, 1, hi, s->tile[0][k]);
		if (x->nhops == 2)
			d->tile[1][k] = dfz__choice_draw_size(c, 1, d->tile[0][k],
							      s->tile[1][k]);
	}
}

/* floor(log2(@elem)), 0 for 0: the draw behind elem = 1 << e. */
static uint32_t elem_log2(uint32_t elem)
{
	uint32_t e = 0;

	while (elem > 1) {
		elem >>= 1;
		e++;
	}
	return e;
}

/*
 * Odds, out of 256, of the draws whose values differ most in cost (a run
 * costs about its bytes, and a two-hop run about three one-hop runs), set
 * so that an average run stays about as cheap as with a fixed 16 KiB
 * tensor cap on ram alone. The simplest draw is the first value.
 * Tensor byte cap classes 2^10 .. 2^18: mostly 16 KiB and below, the low
 * end well above its neighbour, big tensors (a 2^17-byte transfer) rare.
 */
static const uint8_t class_odds[] = { 44, 26, 46, 60, 74, 3, 1, 1, 1 };
/* One hop or two. */
static const uint8_t hops_odds[] = { 160, 96 };
/* The engine of a single hop: ram (L3<->L2), mchan, idma (L2<->L1). */
static const uint8_t engine_odds[] = { 128, 64, 64 };
_Static_assert(sizeof(hops_odds) == DFZ_MAX_HOPS, "hops odds");
_Static_assert(sizeof(engine_odds) == DFZ_ENGINE_COUNT, "engine odds");
_Static_assert(sizeof(class_odds) ==
	       DFZ_TENSOR_CLASS_MAX - DFZ_TENSOR_CLASS_MIN + 1, "class odds");

/* The tensors: shape, element size, tensor cap and input layout. */
static void visit_tensors(struct dfz_choice *c, const struct dfz_plan_xfer *s,
			  struct dfz_plan_xfer *d)
{
	unsigned k, cls = s->tensor_class;

	d->rank = (uint8_t)dfz__choice_draw(c, 1, DFZ_MAX_RANK, s->rank);
	for (k = 0; k < d->rank; k++)
		d->shape[k] = dfz__choice_draw_size(c, 0, dfz__plan_dim_cap(d),
						    s->shape[k]);
	d->elem = (uint8_t)(1u << dfz__choice_draw(c, 0, 3,
						   elem_log2(s->elem)));
	cls = cls > DFZ_TENSOR_CLASS_MIN ? cls - DFZ_TENSOR_CLASS_MIN : 0;
	d->tensor_class = (uint8_t)(DFZ_TENSOR_CLASS_MIN +
		dfz__choice_draw_weighted(c, class_odds, sizeof(class_odds),
					  cls));
	visit_layout(c, d->rank, &s->in, &d->in);
}

/*
 * The hops and their engines: one hop on ram (L3<->L2, the simplest), on
 * mchan or idma (L2<->L1, tensors in L2), or two hops, ram then mchan or
 * idma.
 */
static void visit_hops(struct dfz_choice *c, const struct dfz_plan_xfer *s,
		       struct dfz_plan_xfer *d)
{
	d->nhops = (uint8_t)(1 + dfz__choice_draw_weighted(
		c, hops_odds, sizeof(hops_odds), s->nhops ? s->nhops - 1u : 0));
	if (d->nhops == 1) {
		d->hop[0].engine = (uint8_t)dfz__choice_draw_weighted(
			c, engine_odds, sizeof(engine_odds), s->hop[0].engine);
	} else {
		d->hop[0].engine = DFZ_ENGINE_RAM;
		d->hop[1].engine = (uint8_t)dfz__choice_draw(
			c, DFZ_ENGINE_MCHAN, DFZ_ENGINE_IDMA, s->hop[1].engine);
	}
	d->ext_level = d->nhops == 1 && d->hop[0].engine != DFZ_ENGINE_RAM ?
			       DFZ_L2 : DFZ_L3;
}

static void visit_nodes(struct dfz_choice *c, const struct dfz_plan_xfer *s,
			struct dfz_plan_xfer *d)
{
	unsigned k;

	d->nnodes = (uint8_t)dfz__choice_draw(c, 1, DFZ_MAX_NODES, s->nnodes);
	for (k = 0; k < d->nnodes; k++)
		visit_node(c, d, &s->node[k], &d->node[k]);
}

/* The largest pool a hop may draw: mchan's TIDs bound it (see
 * DFZ_PLAN_MCHAN_DB_POOL). */
static unsigned pool_max(const struct dfz_plan_hop *d)
{
	if (d->engine == DFZ_ENGINE_MCHAN && d->buffering == 2)
		return DFZ_PLAN_MCHAN_DB_POOL;
	return DFZ_MAX_POOL;
}

/* How generated code drives one hop's engine: the engine is drawn with
 * the hops, so the pool's bound can depend on it. */
static void visit_hop_use(struct dfz_choice *c, const struct dfz_plan_hop *s,
			  struct dfz_plan_hop *d)
{
	d->buffering = (uint8_t)dfz__choice_draw(c, 1, 2, s->buffering);
	d->policy = (uint8_t)dfz__choice_draw(c, 0, DFZ_POLICY_COUNT - 1,
					      s->policy);
	d->pool_k = 1;
	if (d->policy == DFZ_POLICY_POOL)
		d->pool_k = (uint8_t)dfz__choice_draw(c, 1, pool_max(d), s->pool_k);
	d->strategy = (uint8_t)dfz__choice_draw(c, 0, DFZ_STRAT_COUNT - 1,
						s->strategy);
	if (d->buffering == 2)
		d->db_order = (uint8_t)dfz__choice_draw(
			c, 0, DFZ_DB_ORDER_COUNT - 1, s->db_order);
}

/* The size of every level a hop keeps its tiles in, L2 before L1. */
static void visit_sizes(struct dfz_choice *c, const struct dfz_plan_xfer *s,
			struct dfz_plan_xfer *d)
{
	if (dfz__plan_is_level_used(d, DFZ_L2))
		d->l2_size = dfz__choice_draw_size(c, DFZ_PLAN_LOCAL_MIN,
						   DFZ_CAP_L2, s->l2_size);
	if (dfz__plan_is_level_used(d, DFZ_L1))
		d->l1_size = dfz__choice_draw_size(c, DFZ_PLAN_LOCAL_MIN,
						   DFZ_CAP_L1, s->l1_size);
}

/* The run: per hop its use of the engine, the sizes, timing, schedule. */
static void visit_run(struct dfz_choice *c, const struct dfz_plan_xfer *s,
		      struct dfz_plan_xfer *d)
{
	unsigned j;

	for (j = 0; j < d->nhops; j++)
		visit_hop_use(c, &s->hop[j], &d->hop[j]);
	visit_sizes(c, s, d);
	d->compute_chunks = (uint8_t)dfz__choice_draw(c, 1, 8,
						      s->compute_chunks);
	d->latency = dfz__choice_draw_size(c, 0, DFZ_CAP_LATENCY, s->latency);
	d->bandwidth = dfz__choice_draw_size(c, 1, DFZ_CAP_BANDWIDTH,
					     s->bandwidth);
	d->nsched = (uint8_t)dfz__choice_draw(c, 0, DFZ_MAX_SCHED, s->nsched);
	for (j = 0; j < d->nsched; j++)
		d->sched[j] = (uint8_t)dfz__choice_draw(c, 0,
							DFZ_CAP_SCHED_STEPS,
							s->sched[j]);
	d->seed = dfz__choice_draw(c, 0, UINT32_MAX, s->seed);
}

void dfz__plan_visit_as(struct dfz_choice *c, unsigned family,
			const struct dfz_plan *src, struct dfz_plan *dst)
{
	memset(dst, 0, sizeof(*dst));
	dst->family = (uint8_t)(family < DFZ_FAMILY_COUNT ? family :
				DFZ_FAMILY_COUNT - 1);
	if (dst->family != DFZ_FAMILY_XFER) {
		dfz__plan_visit_host(c, src, dst);
		return;
	}
	visit_tensors(c, &src->xfer, &dst->xfer);
	visit_hops(c, &src->xfer, &dst->xfer);
	visit_nodes(c, &src->xfer, &dst->xfer);
	visit_run(c, &src->xfer, &dst->xfer);
}

/* The family is the first draw: xfer (the simplest), host or api. */
void dfz__plan_visit(struct dfz_choice *c, const struct dfz_plan *src,
		     struct dfz_plan *dst)
{
	unsigned family = dfz__choice_draw(c, 0, DFZ_FAMILY_COUNT - 1,
					   src->family);

	dfz__plan_visit_as(c, family, src, dst);
}

/* ---------------------------------------------------------- the formulas */

static unsigned rank_of(const struct dfz_plan_xfer *x)
{
	return x->rank < DFZ_MAX_RANK ? x->rank : DFZ_MAX_RANK;
}

static unsigned nodes_of(const struct dfz_plan_xfer *x)
{
	return x->nnodes < DFZ_MAX_NODES ? x->nnodes : DFZ_MAX_NODES;
}

static unsigned hops_of(const struct dfz_plan_xfer *x)
{
	return x->nhops < DFZ_MAX_HOPS ? x->nhops : DFZ_MAX_HOPS;
}

unsigned dfz_plan_hop_level(const struct dfz_plan_xfer *x, unsigned h)
{
	unsigned level = (unsigned)x->ext_level + 1 + h;

	return h < hops_of(x) && level < DFZ_NLEVELS ? level : DFZ_NLEVELS;
}

bool dfz__plan_is_level_used(const struct dfz_plan_xfer *x, unsigned level)
{
	for (unsigned h = 0; h < hops_of(x); h++)
		if (dfz_plan_hop_level(x, h) == level)
			return true;
	return false;
}

uint32_t dfz_plan_tensor_cap(const struct dfz_plan_xfer *x)
{
	unsigned k = x->tensor_class;

	k = k < DFZ_TENSOR_CLASS_MIN ? DFZ_TENSOR_CLASS_MIN :
	    k > DFZ_TENSOR_CLASS_MAX ? DFZ_TENSOR_CLASS_MAX : k;
	return 1u << k;
}

uint32_t dfz__plan_tensor_bytes(const struct dfz_plan_xfer *x,
				const struct dfz_plan_layout *l)
{
	uint64_t b = x->elem;
	unsigned d;

	for (d = 0; d < rank_of(x); d++) {
		b *= (uint64_t)x->shape[d] + l->pad[d];
		if (b > UINT32_MAX)
			return UINT32_MAX;
	}
	return (uint32_t)b;
}

static uint64_t align8(uint64_t v)
{
	return (v + 7) & ~(uint64_t)7;
}

/* What the executor allocates for a tensor of @bytes bytes. */
static uint64_t alloc_cost(uint64_t bytes)
{
	return align8(bytes ? bytes : 1) + 2 * DFZ_REDZONE;
}

static bool has_idma(const struct dfz_plan_xfer *x)
{
	for (unsigned h = 0; h < hops_of(x); h++)
		if (x->hop[h].engine == DFZ_ENGINE_IDMA)
			return true;
	return false;
}

/* Request storage and slack of one hop, whatever its policy and strategy,
 * and the dummy's scratch when any hop runs on idma. */
static uint64_t hop_reserve(const struct dfz_plan_xfer *x)
{
	uint64_t r = (uint64_t)DFZ_PLAN_MAX_HANDLES * DFZ_MAX_POOL *
		     (align8(DFZ_PLAN_REQ_BYTES) + 2 * DFZ_REDZONE) +
		     DFZ_PLAN_LOCAL_SLACK;

	return has_idma(x) ? r + DFZ_PLAN_DUMMY_SCRATCH : r;
}

size_t dfz__plan_hop_need(const struct dfz_plan_xfer *x, unsigned i,
			  unsigned h)
{
	const struct dfz_plan_node *n = &x->node[i];
	uint64_t tile = x->elem, nbuf, need;
	unsigned d;

	for (d = 0; d < rank_of(x); d++) {
		tile *= n->tile[h][d];
		if (tile > UINT32_MAX)
			tile = UINT32_MAX; /* far over any local level */
	}
	nbuf = (uint64_t)x->hop[h].buffering *
	       (2u + (n->kernel == DFZ_KERNEL_ADD));
	need = nbuf * (align8(tile) + 2 * DFZ_REDZONE) + hop_reserve(x);
	return need > SIZE_MAX ? SIZE_MAX : (size_t)need;
}

size_t dfz__plan_level_need(const struct dfz_plan_xfer *x, unsigned level)
{
	size_t need = 0, n;
	unsigned i, h;

	for (h = 0; h < hops_of(x); h++) {
		if (dfz_plan_hop_level(x, h) != level)
			continue;
		for (i = 0; i < nodes_of(x); i++) {
			n = dfz__plan_hop_need(x, i, h);
			need = n > need ? n : need;
		}
	}
	return need;
}

uint32_t dfz__plan_level_size(const struct dfz_plan_xfer *x, unsigned level)
{
	return level == DFZ_L2 ? x->l2_size : level == DFZ_L1 ? x->l1_size : 0;
}

uint64_t dfz__plan_resident_bytes(const struct dfz_plan_xfer *x)
{
	uint64_t total = alloc_cost(dfz__plan_tensor_bytes(x, &x->in));
	unsigned i;

	for (i = 0; i < nodes_of(x); i++) {
		const struct dfz_plan_node *n = &x->node[i];

		total += alloc_cost(dfz__plan_tensor_bytes(x, &n->out));
		if (n->kernel == DFZ_KERNEL_ADD)
			total += alloc_cost(dfz__plan_tensor_bytes(x, &n->aux));
	}
	return total;
}

/* ------------------------------------------------------------ the clamps */

static uint32_t largest_tensor(const struct dfz_plan_xfer *x)
{
	uint32_t most = dfz__plan_tensor_bytes(x, &x->in), b;
	unsigned i;

	for (i = 0; i < nodes_of(x); i++) {
		b = dfz__plan_tensor_bytes(x, &x->node[i].out);
		most = b > most ? b : most;
		if (x->node[i].kernel != DFZ_KERNEL_ADD)
			continue;
		b = dfz__plan_tensor_bytes(x, &x->node[i].aux);
		most = b > most ? b : most;
	}
	return most;
}

bool dfz__plan_halve_largest(uint32_t *v, unsigned n, uint32_t floor)
{
	unsigned d, big = 0;

	if (n == 0)
		return false;
	for (d = 1; d < n; d++)
		if (v[d] > v[big])
			big = d;
	if (v[big] <= floor)
		return false;
	v[big] /= 2;
	return true;
}

/* The limits of a plan's caps (enum dfz_caps). */
struct limits {
	bool tensor_cap;              /* the plan's tensor_cap applies */
	bool grow_first;              /* a level grows before tiles shrink */
	uint64_t work;                /* engine pushes of the whole plan */
	uint64_t steps;               /* engine steps of the plan's bytes */
};

static const struct limits limits_of[DFZ_CAPS_COUNT] = {
	[DFZ_CAPS_FUZZ] = { true, false, DFZ_PLAN_XFER_WORK,
			    DFZ_PLAN_XFER_STEPS },
	[DFZ_CAPS_NONE] = { false, true, DFZ_PLAN_XFER_WORK_HARD,
			    DFZ_PLAN_XFER_STEPS_HARD },
};

static bool is_over_tensor_caps(const struct dfz_plan_xfer *x,
				const struct limits *l)
{
	uint32_t cap = l->tensor_cap ? dfz_plan_tensor_cap(x) :
				       DFZ_CAP_TENSOR_BYTES;

	if (largest_tensor(x) > cap)
		return true;
	return x->ext_level == DFZ_L2 &&
	       dfz__plan_resident_bytes(x) > DFZ_PLAN_L2_TENSORS;
}

/* Every tile within its bound: hop 0 within the shape, hop 1 within
 * hop 0's tile. */
static void clamp_tiles(struct dfz_plan_xfer *x)
{
	unsigned i, d;

	for (i = 0; i < nodes_of(x); i++) {
		uint32_t *t0 = x->node[i].tile[0], *t1 = x->node[i].tile[1];

		for (d = 0; d < rank_of(x); d++) {
			uint32_t hi = x->shape[d] ? x->shape[d] : 1;

			t0[d] = t0[d] > hi ? hi : t0[d];
			if (hops_of(x) == 2 && t1[d] > t0[d])
				t1[d] = t0[d];
		}
	}
}

/* Tensor caps: halve shapes until every tensor fits its cap (and tensors
 * in L2 fit there together), then re-clamp the tiles. */
static void clamp_tensors(struct dfz_plan_xfer *x, const struct limits *l)
{
	while (is_over_tensor_caps(x, l))
		if (!dfz__plan_halve_largest(x->shape, rank_of(x), 0))
			break;
	clamp_tiles(x);
}

/* Local fit of hop @h: halve each node's hop-@h tiles until it fits the
 * hop's level; when even unit tiles do not fit, grow the level. A written
 * plan grows the level first, up to its cap, and keeps its tiles. */
static void clamp_hop(struct dfz_plan_xfer *x, unsigned h,
		      const struct limits *l)
{
	unsigned level = dfz_plan_hop_level(x, h), i;
	uint32_t *size = level == DFZ_L2 ? &x->l2_size : &x->l1_size;
	uint32_t cap = level == DFZ_L2 ? DFZ_CAP_L2 : DFZ_CAP_L1;
	size_t need;

	for (i = 0; i < nodes_of(x); i++) {
		need = dfz__plan_hop_need(x, i, h);
		if (l->grow_first && need > *size && need <= cap)
			*size = (uint32_t)need;
		while (dfz__plan_hop_need(x, i, h) > *size)
			if (!dfz__plan_halve_largest(x->node[i].tile[h],
						     rank_of(x), 1))
				break;
		need = dfz__plan_hop_need(x, i, h);
		if (need > *size)
			*size = (uint32_t)need; /* < 8 KiB here */
	}
}

/* The step cap: the plan's bytes in at most DFZ_PLAN_XFER_STEPS steps of
 * the bandwidth (which stays within its cap). */
static void clamp_bandwidth(struct dfz_plan_xfer *x, const struct limits *l)
{
	uint64_t need = (dfz__plan_xfer_bytes(x) + l->steps - 1) / l->steps;

	if (x->bandwidth < need)
		x->bandwidth = need < DFZ_CAP_BANDWIDTH ? (uint32_t)need :
							   DFZ_CAP_BANDWIDTH;
}

void dfz__plan_clamp(struct dfz_plan *p)
{
	struct dfz_plan_xfer *x = &p->xfer;
	const struct limits *l = &limits_of[p->caps < DFZ_CAPS_COUNT ?
					    p->caps : DFZ_CAPS_FUZZ];
	unsigned h;

	if (p->family != DFZ_FAMILY_XFER) {
		dfz__plan_clamp_host(p);
		return;
	}
	for (;;) {
		clamp_tensors(x, l);
		for (h = 0; h < hops_of(x); h++) {
			clamp_hop(x, h, l);
			clamp_tiles(x); /* hop 1 within the clamped hop 0 */
		}
		/* The work cap: fewer tiles through a smaller shape. */
		if (dfz__plan_xfer_work(x) <= l->work ||
		    !dfz__plan_halve_largest(x->shape, rank_of(x), 0))
			break;
	}
	clamp_bandwidth(x, l);
}

void dfz__plan_decode_caps(const uint8_t *buf, size_t n, unsigned caps,
			   struct dfz_plan *out)
{
	static const struct dfz_plan none;
	struct dfz_choice c;

	dfz__choice_reader(&c, buf, n);
	dfz__plan_visit(&c, &none, out);
	out->caps = (uint8_t)(caps < DFZ_CAPS_COUNT ? caps : DFZ_CAPS_FUZZ);
	dfz__plan_clamp(out);
}

void dfz_plan_decode(const uint8_t *buf, size_t n, struct dfz_plan *out)
{
	dfz__plan_decode_caps(buf, n, DFZ_CAPS_FUZZ, out);
}

void dfz_plan_decode_as(unsigned family, const uint8_t *buf, size_t n,
			struct dfz_plan *out)
{
	static const struct dfz_plan none;
	struct dfz_choice c;

	dfz__choice_reader(&c, buf, n);
	dfz__plan_visit_as(&c, family, &none, out);
	dfz__plan_clamp(out);
}
