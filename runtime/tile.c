// SPDX-License-Identifier: MIT
/*
 * The tiling executor (DESIGN 3.7): runs a chain of copy-like nodes the way
 * a tiling compiler's generated code does. Per node, the logical shape is
 * cut into a row-major grid of tiles (partial at the edges); each tile is
 * loaded from external memory into local buffers through the hop's
 * transfer adapter, worked on, and stored back, with single or double
 * buffering and one of the waiting strategies deciding which handle carries
 * which transfer. With one hop the work is the compute, in chunks (yielding
 * to the engines between chunks, where races become visible); with two
 * hops it is the same tile loop one level down (nested loops, as for a
 * three-level memory), over the hop-0 tile in L2 with tiles in L1, and
 * compute runs on those. Each hop has its own adapter, buffering and
 * strategy. The bug switches early-compute, db-war, edge-tile and
 * req-escape restore the faulty code paths here, in the code they break,
 * so they apply at every hop. Buffers, handles and sizing live in
 * tile_mem.c, the compute kernels in tile_compute.c.
 */
#include <stdio.h>
#include <string.h>

#include "tile_int.h"
#include "vg.h"

/* Which tensor a transfer moves (the index into struct dfz__hop_run.ts). */
enum role { ROLE_IN, ROLE_AUX, ROLE_OUT };

/* One tile: origin and extent per logical dim. */
struct tile {
	uint32_t o[DFZ_MAX_RANK];
	uint32_t e[DFZ_MAX_RANK];
};

static int run_grid(struct dfz__hop_run *q);

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

static bool is_valid_prog(const struct dfz_prog *p)
{
	if (p->rank < 1 || p->rank > DFZ_MAX_RANK || p->elem == 0 ||
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

static bool has_bug(const struct dfz__hop_run *q, enum dfz_bug bug)
{
	return (q->r->bugs >> bug) & 1u;
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

/* Tiles of the hop's grid over its region; 0 when a dim is empty. */
static uint64_t setup_grid(struct dfz__hop_run *q)
{
	return dfz_tile_grid(q->r->p->rank, q->shape, q->tile, q->nt);
}

/* Origin and extent of tile @i (row-major), edge-tile switch included. */
static void tile_at(const struct dfz__hop_run *q, uint64_t i, struct tile *t)
{
	dfz_tile_at(q->r->p->rank, q->shape, q->tile, q->nt,
		    has_bug(q, DFZ_BUG_EDGE_TILE), i, t->o, t->e);
}

/* -------------------------------------------------------------- handles */

/*
 * The req-escape switch scopes the tile transfers' handles to one loop
 * iteration, like requests declared in the loop body: created here, released
 * in iter_end() while the prefetch and the last store may still be queued.
 * The allocator is first-fit, so the next iteration gets the same storage.
 */
static int iter_begin(struct dfz__hop_run *q)
{
	int rc;

	if (!has_bug(q, DFZ_BUG_REQ_ESCAPE))
		return 0;
	rc = dfz__tile_init_set(q, &q->set[1]);
	q->cur = &q->set[1];
	return rc;
}

static void iter_end(struct dfz__hop_run *q)
{
	if (has_bug(q, DFZ_BUG_REQ_ESCAPE))
		dfz__tile_fini_set(q, &q->set[1]);
}

/* The handle that carries the next transfer of @role. */
static struct dfz_handle *pick_handle(struct dfz__hop_run *q, enum role role)
{
	struct dfz_handle *h = q->cur->h;
	unsigned i;

	switch (q->hop->strategy) {
	case DFZ_STRAT_TENSOR_DIR:
		return &h[role];
	case DFZ_STRAT_DIR:
		return &h[role == ROLE_OUT];
	case DFZ_STRAT_BARRIER:
		return &h[0];
	default:
		i = q->fresh;
		q->fresh = (q->fresh + 1) % DFZ_TILE_RING;
		return &h[i];
	}
}

/* "Wait transfer X": wait the handle that carried X (everything on it). */
static int wait_rec(struct dfz__hop_run *q, struct dfz_handle **rec)
{
	struct dfz_handle *h = *rec;

	*rec = NULL;
	if (!h)
		return 0;
	return dfz__rt_refuse(q->r->rt, dfz_handle_wait(q->ad, h),
			      "dfz_handle_wait()", "hop %u", q->h);
}

/* ------------------------------------------------------------ transfers */

/* Tile @t of tensor @ts against the compact local buffer @buf. */
static int make_xfer(const struct dfz__hop_run *q, const struct dfz_tensor *ts,
		     void *buf, const struct tile *t, int ext2loc,
		     struct dfz_xfer *x)
{
	const struct dfz_prog *p = q->r->p;
	uint64_t off = ts->off;
	uint32_t stride = p->elem;
	struct dfz_span loc;

	memset(x, 0, sizeof(*x));
	for (unsigned d = p->rank; d-- > 0;) {
		x->shape[d] = t->e[d];
		x->ext_stride[d] = ts->stride[d];
		x->loc_stride[d] = stride;
		stride *= t->e[d];
		off += (uint64_t)t->o[d] * ts->stride[d];
		if (off > UINT32_MAX)
			return DFZ_ERANGE;
	}
	if (!dfz_mem_locate(q->r->rt, buf, q->tile_bytes, &loc))
		return DFZ_EFAULT;
	x->rank = p->rank;
	x->elem = p->elem;
	x->ext2loc = (uint8_t)ext2loc;
	x->ext_level = ts->level;
	x->loc_level = loc.level;
	x->ext_off = (uint32_t)off;
	x->loc_off = loc.off;
	return 0;
}

/* "load of tensor in, hop 0 tile [0+4,8+8] (origin+extent)" */
static void xfer_name(const struct dfz__hop_run *q, enum role role,
		      const struct tile *t, char *out, size_t cap)
{
	static const char *const names[3] = { "load of tensor in",
					      "load of tensor aux",
					      "store of tensor out" };
	const struct dfz_prog *p = q->r->p;
	char at[96];
	size_t n = 0;

	for (unsigned d = 0; d < p->rank && n < sizeof(at); d++)
		n += (size_t)snprintf(at + n, sizeof(at) - n, "%s%u+%u",
				      d ? "," : "", t->o[d], t->e[d]);
	snprintf(out, cap, "%s, hop %u tile [%s] (origin+extent)",
		 names[role], q->h, at);
}

/* Name the transfer of tile @t of @role's tensor in memcheck's messages. */
static void label(const struct dfz__hop_run *q, enum role role,
		  const struct tile *t)
{
	char name[160];

	if (!q->r->rt->vg)
		return;
	xfer_name(q, role, t, name, sizeof(name));
	dfz__vg_label(q->r->rt, "%s", name);
}

/* Record a refused tile transfer in the runtime's refusal. */
static int refused(const struct dfz__hop_run *q, int rc, const char *call,
		   enum role role, const struct tile *t)
{
	char name[160];

	if (rc >= 0 || rc == DFZ_EHANG)
		return rc;
	xfer_name(q, role, t, name, sizeof(name));
	return dfz__rt_refuse(q->r->rt, rc, call, "%s", name);
}

/* Issue one tile transfer; @rec remembers the handle that carried it. */
static int issue_one(struct dfz__hop_run *q, enum role role, void *buf,
		     const struct tile *t, struct dfz_handle **rec)
{
	struct dfz_xfer x;
	int rc = make_xfer(q, &q->ts[role], buf, t, role != ROLE_OUT, &x);

	if (rc < 0)
		return refused(q, rc, "the tile transfer's layout", role, t);
	*rec = pick_handle(q, role);
	label(q, role, t);
	rc = dfz_xfer_issue(q->ad, &x, *rec);
	dfz__vg_label(q->r->rt, NULL);
	return refused(q, rc, "dfz_xfer_issue()", role, t);
}

/* Loads of tile @t into buffer slot @buf, recorded under slot @rec. The two
 * differ only under db-war (the off-by-one buffer index). */
static int issue_loads(struct dfz__hop_run *q, const struct tile *t,
		       unsigned buf, unsigned rec)
{
	int rc = issue_one(q, ROLE_IN, q->in_buf[buf], t, &q->load_in[rec]);

	if (rc == 0 && q->r->node->kernel == DFZ_KERNEL_ADD)
		rc = issue_one(q, ROLE_AUX, q->aux_buf[buf], t,
			       &q->load_aux[rec]);
	return rc;
}

static int wait_loads(struct dfz__hop_run *q, unsigned slot)
{
	int rc = wait_rec(q, &q->load_in[slot]);

	return rc < 0 ? rc : wait_rec(q, &q->load_aux[slot]);
}

static int issue_store(struct dfz__hop_run *q, const struct tile *t,
		       unsigned slot)
{
	return issue_one(q, ROLE_OUT, q->out_buf[slot], t, &q->store[slot]);
}

/* ----------------------------------------------------------------- work */

/* The compute kernel over tile @t in slot @slot: compact row-major in
 * every buffer, so elementwise over flat arrays (dfz_compute_run()). */
static void compute_tile(struct dfz__hop_run *q, const struct tile *t,
			 unsigned slot)
{
	const struct dfz__node_run *r = q->r;
	struct dfz_compute c = {
		.rt = r->rt,
		.engine = q->ad->engine,
		.kernel = r->node->kernel,
		.elem = r->p->elem,
		.chunks = r->p->compute_chunks,
		.in = q->in_buf[slot],
		.aux = r->node->kernel == DFZ_KERNEL_ADD ? q->aux_buf[slot] : NULL,
		.out = q->out_buf[slot],
		.n = 1,
	};

	for (unsigned d = 0; d < r->p->rank; d++)
		c.n *= t->e[d];
	dfz_compute_run(&c);
}

/* Local buffer @buf of hop @q holding tile @t, as a tensor of the next
 * hop: compact row-major over the tile's extents. */
static int view_of(const struct dfz__hop_run *q, void *buf,
		   const struct tile *t, struct dfz_tensor *v)
{
	uint32_t stride = q->r->p->elem;
	struct dfz_span loc;

	memset(v, 0, sizeof(*v));
	if (!buf)
		return 0;
	if (!dfz_mem_locate(q->r->rt, buf, q->tile_bytes, &loc))
		return dfz__rt_refuse(q->r->rt, DFZ_EFAULT, "dfz_mem_locate()",
				      "hop %u tile buffer as the next hop's "
				      "tensor", q->h);
	for (unsigned d = q->r->p->rank; d-- > 0;) {
		v->stride[d] = stride;
		stride *= t->e[d];
	}
	v->level = loc.level;
	v->off = loc.off;
	v->bytes = q->tile_bytes;
	return 0;
}

/* The inner hop over tile @t of hop @q, held in slot @slot: its region is
 * the tile, its tensors the slot's buffers. */
static int run_inner(struct dfz__hop_run *q, const struct tile *t,
		     unsigned slot)
{
	struct dfz__hop_run *in = q + 1;
	int rc;

	memcpy(in->shape, t->e, sizeof(in->shape));
	rc = view_of(q, q->in_buf[slot], t, &in->ts[ROLE_IN]);
	if (rc == 0)
		rc = view_of(q, q->aux_buf[slot], t, &in->ts[ROLE_AUX]);
	if (rc == 0)
		rc = view_of(q, q->out_buf[slot], t, &in->ts[ROLE_OUT]);
	return rc < 0 ? rc : run_grid(in);
}

/* What a tile's loads feed: the compute on the innermost hop, else the
 * next hop's tile loop. */
static int work_tile(struct dfz__hop_run *q, const struct tile *t,
		     unsigned slot)
{
	if (q->h + 1 < q->r->p->nhops)
		return run_inner(q, t, slot);
	compute_tile(q, t, slot);
	return 0;
}

/* ------------------------------------------------------------ buffering */

/* Load, wait, work, store, wait; early-compute moves the load's wait
 * after the work. */
static int single_step(struct dfz__hop_run *q, uint64_t i)
{
	bool early = has_bug(q, DFZ_BUG_EARLY_COMPUTE);
	struct tile t;
	int rc;

	tile_at(q, i, &t);
	rc = issue_loads(q, &t, 0, 0);
	if (rc == 0 && !early)
		rc = wait_loads(q, 0);
	if (rc == 0)
		rc = work_tile(q, &t, 0);
	if (rc == 0 && early)
		rc = wait_loads(q, 0);
	if (rc == 0)
		rc = issue_store(q, &t, 0);
	return rc < 0 ? rc : wait_rec(q, &q->store[0]);
}

/*
 * Tile @i of double buffering in slot b: wait its loads, prefetch tile i+1
 * into the other slot (db-war: into this one), wait an earlier store, work,
 * store. The store waited is the previous tile's in the generator's order
 * (so none is in flight when this one is issued), and in the eager order
 * only tile i-2's, the last that read out_buf[b].
 */
static int double_step(struct dfz__hop_run *q, uint64_t i)
{
	bool early = has_bug(q, DFZ_BUG_EARLY_COMPUTE);
	unsigned b = (unsigned)(i % 2), nb = 1 - b;
	struct tile t;
	int rc = early ? 0 : wait_loads(q, b);

	if (rc == 0 && i + 1 < q->ntiles) {
		tile_at(q, i + 1, &t);
		rc = issue_loads(q, &t, has_bug(q, DFZ_BUG_DB_WAR) ? b : nb, nb);
	}
	if (rc == 0 && q->hop->db_order == DFZ_DB_EAGER && i >= 2)
		rc = wait_rec(q, &q->store[b]);
	else if (rc == 0 && q->hop->db_order != DFZ_DB_EAGER && i >= 1)
		rc = wait_rec(q, &q->store[nb]);
	if (rc < 0)
		return rc;
	tile_at(q, i, &t);
	rc = work_tile(q, &t, b);
	if (rc == 0 && early)
		rc = wait_loads(q, b);
	return rc < 0 ? rc : issue_store(q, &t, b);
}

static int run_tiles(struct dfz__hop_run *q)
{
	bool dbl = q->hop->buffering == 2;
	struct tile t;
	int rc = 0;

	if (dbl && q->ntiles > 0) {
		tile_at(q, 0, &t);
		rc = issue_loads(q, &t, 0, 0);
	}
	for (uint64_t i = 0; i < q->ntiles && rc == 0; i++) {
		rc = iter_begin(q);
		if (rc == 0)
			rc = dbl ? double_step(q, i) : single_step(q, i);
		iter_end(q);
	}
	if (rc < 0 || !dbl)
		return rc;
	/* The last two stores, older first. */
	rc = wait_rec(q, &q->store[q->ntiles % 2]);
	if (rc < 0)
		return rc;
	return wait_rec(q, &q->store[(q->ntiles + 1) % 2]);
}

/* One run of hop @q's tile loop over its current region. */
static int run_grid(struct dfz__hop_run *q)
{
	q->ntiles = setup_grid(q);
	q->cur = &q->set[0];
	q->fresh = 0;
	memset(q->load_in, 0, sizeof(q->load_in));
	memset(q->load_aux, 0, sizeof(q->load_aux));
	memset(q->store, 0, sizeof(q->store));
	return run_tiles(q);
}

/* ----------------------------------------------------------------- nodes */

static void init_node_run(struct dfz__node_run *r, struct dfz_adapter *ad,
			  const struct dfz_prog *p, const struct dfz_node *node)
{
	memset(r, 0, sizeof(*r));
	r->rt = ad[0].rt;
	r->p = p;
	r->node = node;
	r->bugs = dfz_rt_bugs(r->rt);
	for (unsigned h = 0; h < p->nhops; h++) {
		struct dfz__hop_run *q = &r->hop[h];

		q->r = r;
		q->ad = &ad[h];
		q->hop = &p->hop[h];
		q->h = h;
		memcpy(q->tile, node->tile[h], sizeof(q->tile));
	}
	memcpy(r->hop[0].shape, p->shape, sizeof(r->hop[0].shape));
	r->hop[0].ts[ROLE_IN] = node->in;
	r->hop[0].ts[ROLE_AUX] = node->aux;
	r->hop[0].ts[ROLE_OUT] = node->out;
}

static int run_node(struct dfz_adapter *ad, const struct dfz_prog *p,
		    const struct dfz_node *node)
{
	struct dfz__node_run r;
	int rc;

	init_node_run(&r, ad, p, node);
	if (setup_grid(&r.hop[0]) == 0)
		return 0;
	rc = dfz__tile_setup(&r);
	if (rc == 0)
		rc = run_grid(&r.hop[0]);
	dfz__tile_release(&r);
	return rc;
}

static bool are_valid_adapters(const struct dfz_adapter *ad, unsigned nhops)
{
	for (unsigned h = 0; h < nhops; h++)
		if (!ad[h].rt || ad[h].rt != ad[0].rt)
			return false;
	return true;
}

int dfz_prog_run(struct dfz_adapter *ad, const struct dfz_prog *p)
{
	int rc = 0;

	if (!ad || !p || !is_valid_prog(p) || !are_valid_adapters(ad, p->nhops))
		return DFZ_EINVAL;
	dfz__vg_enter(ad[0].rt);
	for (unsigned k = 0; k < p->nnodes && rc == 0; k++)
		rc = run_node(ad, p, &p->node[k]);
	dfz__vg_leave(ad[0].rt);
	return rc < 0 ? rc : 0;
}
