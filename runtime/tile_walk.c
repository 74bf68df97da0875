// SPDX-License-Identifier: MIT
/*
 * The walk of the tiling executor (DESIGN 3.7; dmafuzz/runtime_walk.h):
 * the order of everything a tiled program does, apart from doing it. Per
 * node, the logical shape is cut into a row-major grid of tiles (partial
 * at the edges); each tile is loaded into local buffers, worked on and
 * stored back, with single or double buffering and one of the waiting
 * strategies deciding which handle carries which transfer. With one hop
 * the work is the compute; with two it is the same tile loop one level
 * down over the hop-0 tile. The bug switches early-compute, db-war,
 * edge-tile and req-escape restore the faulty code paths here, in the
 * walk they break, so both back ends (the runtime's, tile.c, and the C
 * printer's) carry them.
 */
#include <string.h>

#include "dmafuzz/runtime.h"

/* The walk's state of one hop: the region it tiles and its handles. */
struct hop {
	const struct dfz_hop *hop;
	unsigned h;
	uint32_t tile[DFZ_MAX_RANK];
	uint32_t shape[DFZ_MAX_RANK];           /* the region */
	uint32_t stride[DFZ_WALK_ROLES][DFZ_MAX_RANK]; /* its tensors */
	uint32_t nt[DFZ_MAX_RANK];
	uint64_t ntiles;
	uint8_t cur;                            /* scope new transfers use */
	unsigned fresh;                         /* ring cursor (fresh) */
	/* Per buffer slot, the handle that carried each transfer, until it
	 * is waited. */
	struct dfz_walk_ref load_in[2];
	struct dfz_walk_ref load_aux[2];
	struct dfz_walk_ref store[2];
};

struct walk {
	const struct dfz_prog *p;
	const struct dfz_node *node;
	unsigned k;
	uint32_t bugs;
	const struct dfz_walk_ops *ops;
	void *ctx;
	struct hop hop[DFZ_MAX_HOPS];
};

static int run_grid(struct walk *w, struct hop *q);

static bool has_bug(const struct walk *w, enum dfz_bug bug)
{
	return (w->bugs >> bug) & 1u;
}

static bool has_aux(const struct walk *w)
{
	return w->node->kernel == DFZ_KERNEL_ADD;
}

static void note(const struct walk *w, enum dfz_walk_note what,
		 const struct hop *q, uint64_t i, unsigned slot,
		 const struct dfz_walk_tile *t)
{
	struct dfz_walk_at at = { .node = w->k, .hop = q ? q->h : 0,
				  .slot = slot, .i = i,
				  .ntiles = q ? q->ntiles : 0, .tile = t };

	if (w->ops->note)
		w->ops->note(w->ctx, what, &at);
}

/* ------------------------------------------------------------ validation */

static bool is_valid_node(const struct dfz_prog *p, const struct dfz_node *n)
{
	if (n->kernel >= DFZ_KERNEL_COUNT)
		return false;
	for (unsigned h = 0; h < p->nhops; h++)
		for (unsigned d = 0; d < p->rank; d++)
			if (n->tile[h][d] == 0)
				return false;
	return true;
}

static bool is_valid_hop(const struct dfz_hop *hop)
{
	return hop->strategy < DFZ_STRAT_COUNT &&
	       (hop->buffering == 1 || hop->buffering == 2) &&
	       (hop->local_level == DFZ_L2 || hop->local_level == DFZ_L1);
}

bool dfz_prog_is_valid(const struct dfz_prog *p)
{
	if (!p || p->rank < 1 || p->rank > DFZ_MAX_RANK || p->elem == 0 ||
	    p->nnodes > DFZ_MAX_NODES || p->nhops < 1 ||
	    p->nhops > DFZ_MAX_HOPS)
		return false;
	for (unsigned h = 0; h < p->nhops; h++)
		if (!is_valid_hop(&p->hop[h]))
			return false;
	for (unsigned k = 0; k < p->nnodes; k++)
		if (!is_valid_node(p, &p->node[k]))
			return false;
	return true;
}

/* ------------------------------------------------------------------ grid */

uint64_t dfz_tile_grid(unsigned rank, const uint32_t *shape,
		       const uint32_t *tile, uint32_t *nt)
{
	uint64_t total = 1;

	/* Every dim's count is set, 0 for an empty one (or a 0 tile), so
	 * that dfz_tile_at() never reads an unset count. */
	for (unsigned d = 0; d < rank; d++) {
		uint32_t s = shape[d], t = tile[d];

		nt[d] = s == 0 || t == 0 ? 0 : s / t + (s % t != 0);
		total *= nt[d];
	}
	return total;
}

void dfz_tile_at(unsigned rank, const uint32_t *shape, const uint32_t *tile,
		 const uint32_t *nt, bool full_edges, uint64_t i, uint32_t *o,
		 uint32_t *e)
{
	for (unsigned d = rank; d-- > 0;) {
		uint32_t size = tile[d];
		uint64_t at;

		if (nt[d] == 0) {        /* an empty dimension: no tile */
			o[d] = e[d] = 0;
			continue;
		}
		at = (i % nt[d]) * size;
		i /= nt[d];
		o[d] = (uint32_t)at;
		e[d] = full_edges || shape[d] - at >= size ?
			       size : shape[d] - (uint32_t)at;
	}
}

/* Origin and extent of tile @i (row-major), edge-tile switch included. */
static void tile_at(const struct walk *w, const struct hop *q, uint64_t i,
		    struct dfz_walk_tile *t)
{
	dfz_tile_at(w->p->rank, q->shape, q->tile, q->nt,
		    has_bug(w, DFZ_BUG_EDGE_TILE), i, t->o, t->e);
}

/* -------------------------------------------------------------- handles */

/*
 * The req-escape switch scopes the tile transfers' handles to one loop
 * iteration, like requests declared in the loop body: initialised here,
 * released in iter_end() while the prefetch and the last store may still
 * be queued. The allocator is first-fit, so the next iteration gets the
 * same storage.
 */
static int iter_begin(struct walk *w, struct hop *q)
{
	if (!has_bug(w, DFZ_BUG_REQ_ESCAPE))
		return 0;
	note(w, DFZ_NOTE_ESCAPE, q, 0, 0, NULL);
	q->cur = 1;
	return w->ops->scope_init(w->ctx, q->h, 1,
				  dfz_tile_handles(q->hop->strategy));
}

static void iter_end(struct walk *w, struct hop *q)
{
	if (has_bug(w, DFZ_BUG_REQ_ESCAPE))
		w->ops->scope_fini(w->ctx, q->h, 1,
				   dfz_tile_handles(q->hop->strategy));
}

/* The handle that carries the next transfer of @role. */
static struct dfz_walk_ref pick_handle(struct hop *q, enum dfz_walk_role role)
{
	struct dfz_walk_ref r = { .set = true, .scope = q->cur };

	switch (q->hop->strategy) {
	case DFZ_STRAT_TENSOR_DIR:
		r.idx = (uint8_t)role;
		break;
	case DFZ_STRAT_DIR:
		r.idx = role == DFZ_WALK_OUT;
		break;
	case DFZ_STRAT_BARRIER:
		r.idx = 0;
		break;
	default:
		r.idx = (uint8_t)q->fresh;
		q->fresh = (q->fresh + 1) % DFZ_TILE_RING;
	}
	return r;
}

/* "Wait transfer X": wait the handle that carried X (everything on it). */
static int wait_rec(struct walk *w, struct hop *q, struct dfz_walk_ref *rec)
{
	struct dfz_walk_ref r = *rec;

	rec->set = false;
	return r.set ? w->ops->wait(w->ctx, q->h, r) : 0;
}

/* ------------------------------------------------------------ transfers */

/* Tile @t of tensor @role against the compact buffer of slot @slot. */
static int issue_one(struct walk *w, struct hop *q, enum dfz_walk_role role,
		     unsigned slot, const struct dfz_walk_tile *t,
		     struct dfz_walk_ref *rec)
{
	struct dfz_walk_xfer wx = { .hop = q->h, .role = role, .slot = slot,
				    .tile = t };
	struct dfz_xfer *x = &wx.x;
	uint32_t stride = w->p->elem;

	for (unsigned d = w->p->rank; d-- > 0;) {
		x->shape[d] = t->e[d];
		x->ext_stride[d] = q->stride[role][d];
		x->loc_stride[d] = stride;
		stride *= t->e[d];
		wx.ext_add += (uint64_t)t->o[d] * q->stride[role][d];
	}
	x->rank = w->p->rank;
	x->elem = w->p->elem;
	x->ext2loc = role != DFZ_WALK_OUT;
	*rec = pick_handle(q, role);
	wx.ref = *rec;
	return w->ops->issue(w->ctx, &wx);
}

/* Loads of tile @t into buffer slot @buf, recorded under slot @rec. The two
 * differ only under db-war (the off-by-one buffer index). */
static int issue_loads(struct walk *w, struct hop *q,
		       const struct dfz_walk_tile *t, unsigned buf,
		       unsigned rec)
{
	int rc = issue_one(w, q, DFZ_WALK_IN, buf, t, &q->load_in[rec]);

	if (rc == 0 && has_aux(w))
		rc = issue_one(w, q, DFZ_WALK_AUX, buf, t, &q->load_aux[rec]);
	return rc;
}

static int wait_loads(struct walk *w, struct hop *q, unsigned slot)
{
	int rc = wait_rec(w, q, &q->load_in[slot]);

	return rc < 0 ? rc : wait_rec(w, q, &q->load_aux[slot]);
}

static int issue_store(struct walk *w, struct hop *q,
		       const struct dfz_walk_tile *t, unsigned slot)
{
	return issue_one(w, q, DFZ_WALK_OUT, slot, t, &q->store[slot]);
}

/* ----------------------------------------------------------------- work */

/* The inner hop over tile @t of hop @q, held in slot @slot: its region is
 * the tile, its tensors the slot's buffers (compact row-major). */
static int run_inner(struct walk *w, struct hop *q,
		     const struct dfz_walk_tile *t, unsigned slot)
{
	struct hop *in = q + 1;
	uint32_t stride = w->p->elem;
	int rc;

	memcpy(in->shape, t->e, sizeof(in->shape));
	memset(in->stride, 0, sizeof(in->stride));
	for (unsigned d = w->p->rank; d-- > 0;) {
		for (unsigned r = 0; r < DFZ_WALK_ROLES; r++)
			if (r != DFZ_WALK_AUX || has_aux(w))
				in->stride[r][d] = stride;
		stride *= t->e[d];
	}
	rc = w->ops->enter(w->ctx, q->h, slot, t);
	if (rc == 0)
		rc = run_grid(w, in);
	w->ops->leave(w->ctx, q->h);
	return rc;
}

/* What a tile's loads feed: the compute on the innermost hop, else the
 * next hop's tile loop. */
static int work_tile(struct walk *w, struct hop *q,
		     const struct dfz_walk_tile *t, unsigned slot)
{
	uint64_t n = 1;

	if (q->h + 1 < w->p->nhops)
		return run_inner(w, q, t, slot);
	for (unsigned d = 0; d < w->p->rank; d++)
		n *= t->e[d];
	return w->ops->compute(w->ctx, q->h, slot, n);
}

/* ------------------------------------------------------------ buffering */

/* Load, wait, work, store, wait; early-compute moves the load's wait
 * after the work. */
static int single_step(struct walk *w, struct hop *q, uint64_t i)
{
	bool early = has_bug(w, DFZ_BUG_EARLY_COMPUTE);
	struct dfz_walk_tile t;
	int rc;

	tile_at(w, q, i, &t);
	note(w, DFZ_NOTE_TILE, q, i, 0, &t);
	rc = issue_loads(w, q, &t, 0, 0);
	if (rc == 0 && !early)
		rc = wait_loads(w, q, 0);
	if (rc == 0 && early)
		note(w, DFZ_NOTE_EARLY, q, i, 0, &t);
	if (rc == 0)
		rc = work_tile(w, q, &t, 0);
	if (rc == 0 && early)
		rc = wait_loads(w, q, 0);
	if (rc == 0)
		rc = issue_store(w, q, &t, 0);
	return rc < 0 ? rc : wait_rec(w, q, &q->store[0]);
}

/*
 * The wait for an earlier store before tile @i's work in slot @b: the
 * previous tile's in the generator's order (so none is in flight when
 * this one is issued), and in the eager order only tile i-2's, the last
 * that read this slot's output buffer.
 */
static int wait_earlier_store(struct walk *w, struct hop *q, uint64_t i,
			      unsigned b)
{
	if (q->hop->db_order == DFZ_DB_EAGER) {
		if (i < 2)
			return 0;
		note(w, DFZ_NOTE_EAGER, q, i, b, NULL);
		return wait_rec(w, q, &q->store[b]);
	}
	return i >= 1 ? wait_rec(w, q, &q->store[1 - b]) : 0;
}

/*
 * Tile @i of double buffering in slot b: wait its loads, prefetch tile i+1
 * into the other slot (db-war: into this one), wait an earlier store,
 * work, store.
 */
static int double_step(struct walk *w, struct hop *q, uint64_t i)
{
	bool early = has_bug(w, DFZ_BUG_EARLY_COMPUTE);
	bool war = has_bug(w, DFZ_BUG_DB_WAR);
	unsigned b = (unsigned)(i % 2), nb = 1 - b;
	struct dfz_walk_tile t, next;
	int rc;

	tile_at(w, q, i, &t);
	note(w, DFZ_NOTE_TILE, q, i, b, &t);
	rc = early ? 0 : wait_loads(w, q, b);
	if (rc == 0 && i + 1 < q->ntiles) {
		tile_at(w, q, i + 1, &next);
		note(w, war ? DFZ_NOTE_PREFETCH_WAR : DFZ_NOTE_PREFETCH, q,
		     i + 1, war ? b : nb, &next);
		rc = issue_loads(w, q, &next, war ? b : nb, nb);
	}
	if (rc == 0)
		rc = wait_earlier_store(w, q, i, b);
	if (rc == 0)
		rc = work_tile(w, q, &t, b);
	if (rc == 0 && early)
		rc = wait_loads(w, q, b);
	return rc < 0 ? rc : issue_store(w, q, &t, b);
}

static int run_tiles(struct walk *w, struct hop *q)
{
	bool dbl = q->hop->buffering == 2;
	struct dfz_walk_tile t;
	int rc = 0;

	if (dbl && q->ntiles > 0) {
		tile_at(w, q, 0, &t);
		note(w, DFZ_NOTE_PREFETCH, q, 0, 0, &t);
		rc = issue_loads(w, q, &t, 0, 0);
	}
	for (uint64_t i = 0; i < q->ntiles && rc == 0; i++) {
		rc = iter_begin(w, q);
		if (rc == 0)
			rc = dbl ? double_step(w, q, i) : single_step(w, q, i);
		iter_end(w, q);
	}
	if (rc < 0 || !dbl)
		return rc;
	note(w, DFZ_NOTE_DRAIN, q, q->ntiles, 0, NULL);
	rc = wait_rec(w, q, &q->store[q->ntiles % 2]);
	return rc < 0 ? rc : wait_rec(w, q, &q->store[(q->ntiles + 1) % 2]);
}

/* One run of hop @q's tile loop over its current region. */
static int run_grid(struct walk *w, struct hop *q)
{
	q->ntiles = dfz_tile_grid(w->p->rank, q->shape, q->tile, q->nt);
	q->cur = 0;
	q->fresh = 0;
	memset(q->load_in, 0, sizeof(q->load_in));
	memset(q->load_aux, 0, sizeof(q->load_aux));
	memset(q->store, 0, sizeof(q->store));
	note(w, DFZ_NOTE_GRID, q, 0, 0, NULL);
	return run_tiles(w, q);
}

/* ----------------------------------------------------------------- nodes */

/* Bytes of one of hop @q's buffers: a whole tile. */
static uint64_t tile_bytes(const struct walk *w, const struct hop *q)
{
	uint64_t bytes = w->p->elem;

	for (unsigned d = 0; d < w->p->rank; d++)
		bytes *= q->tile[d];
	return bytes;
}

/* Per hop (hop 0 first): per slot in, aux (add only) and out, then the
 * node scope's handles. */
static int setup(struct walk *w)
{
	int rc = 0;

	for (unsigned h = 0; h < w->p->nhops && rc == 0; h++) {
		struct hop *q = &w->hop[h];
		uint64_t bytes = tile_bytes(w, q);

		note(w, DFZ_NOTE_SETUP_HOP, q, 0, 0, NULL);
		for (unsigned b = 0; b < q->hop->buffering && rc == 0; b++)
			for (unsigned r = 0; r < DFZ_WALK_ROLES && rc == 0; r++)
				if (r != DFZ_WALK_AUX || has_aux(w))
					rc = w->ops->alloc_buf(w->ctx, h, r, b,
							       bytes);
		if (rc == 0)
			rc = w->ops->scope_init(w->ctx, h, 0,
						dfz_tile_handles(q->hop->strategy));
	}
	return rc;
}

/* What setup() allocated, in the reverse order (releasing nothing twice
 * is the back end's: it frees what it holds). */
static void release(struct walk *w)
{
	note(w, DFZ_NOTE_RELEASE, NULL, 0, 0, NULL);
	for (unsigned h = w->p->nhops; h-- > 0;) {
		const struct hop *q = &w->hop[h];

		w->ops->scope_fini(w->ctx, h, 0,
				   dfz_tile_handles(q->hop->strategy));
		for (unsigned b = 0; b < q->hop->buffering; b++)
			for (unsigned r = DFZ_WALK_ROLES; r-- > 0;)
				if (r != DFZ_WALK_AUX || has_aux(w))
					w->ops->free_buf(w->ctx, h, r, b);
	}
}

static void init_node(struct walk *w, unsigned k)
{
	const struct dfz_prog *p = w->p;
	const struct dfz_node *n = &p->node[k];
	const struct dfz_tensor *ts[DFZ_WALK_ROLES] = { &n->in, &n->aux,
							&n->out };

	memset(w->hop, 0, sizeof(w->hop));
	w->k = k;
	w->node = n;
	for (unsigned h = 0; h < p->nhops; h++) {
		w->hop[h].hop = &p->hop[h];
		w->hop[h].h = h;
		memcpy(w->hop[h].tile, n->tile[h], sizeof(w->hop[h].tile));
	}
	memcpy(w->hop[0].shape, p->shape, sizeof(w->hop[0].shape));
	for (unsigned r = 0; r < DFZ_WALK_ROLES; r++)
		memcpy(w->hop[0].stride[r], ts[r]->stride,
		       sizeof(w->hop[0].stride[r]));
}

static int walk_node(struct walk *w, unsigned k)
{
	struct hop *q = &w->hop[0];
	int rc;

	init_node(w, k);
	note(w, DFZ_NOTE_NODE, NULL, 0, 0, NULL);
	if (dfz_tile_grid(w->p->rank, q->shape, q->tile, q->nt) == 0) {
		note(w, DFZ_NOTE_EMPTY, NULL, 0, 0, NULL);
		return 0;
	}
	rc = setup(w);
	if (rc == 0)
		rc = run_grid(w, q);
	release(w);
	if (k + 1 < w->p->nnodes)
		note(w, DFZ_NOTE_NODE_END, NULL, 0, 0, NULL);
	return rc;
}

int dfz_prog_walk(const struct dfz_prog *p, uint32_t bugs,
		  const struct dfz_walk_ops *ops, void *ctx)
{
	struct walk w = { .p = p, .bugs = bugs, .ops = ops, .ctx = ctx };
	int rc = 0;

	if (!ops || !dfz_prog_is_valid(p))
		return DFZ_EINVAL;
	for (unsigned k = 0; k < p->nnodes && rc == 0; k++)
		rc = walk_node(&w, k);
	return rc < 0 ? rc : 0;
}
