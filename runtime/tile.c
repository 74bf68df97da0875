// SPDX-License-Identifier: MIT
/*
 * The tiling executor (DESIGN 3.7): runs a chain of copy-like nodes the way
 * a tiling compiler's generated code does. Per node, the logical shape is
 * cut into a row-major grid of tiles (partial at the edges); each tile is
 * loaded from external memory into local buffers through the transfer
 * adapter, computed on in chunks (yielding to the engines between chunks,
 * where races become visible) and stored back, with single or double
 * buffering and one of the waiting strategies deciding which handle carries
 * which transfer. The bug switches early-compute, db-war, edge-tile and
 * req-escape restore the faulty code paths here, in the code they break.
 * The compute kernels live in tile_compute.c.
 */
#include <string.h>

#include "runtime_int.h"
#include "tile_int.h"

/* Handles of the fresh-per-transfer strategy, used as a ring. */
#define RING 8

/* Which tensor a transfer moves. */
enum role { ROLE_IN, ROLE_AUX, ROLE_OUT };

/* One tile: origin and extent per logical dim. */
struct tile {
	uint32_t o[DFZ_MAX_RANK];
	uint32_t e[DFZ_MAX_RANK];
};

/* The handles of one scope: a whole node, or one loop iteration. */
struct hset {
	struct dfz_handle h[RING];
	unsigned n;               /* initialised handles */
};

/* The state of one node's run. */
struct node_run {
	struct dfz_adapter *ad;
	struct dfz_rt *rt;
	const struct dfz_prog *p;
	const struct dfz_node *node;
	uint32_t bugs;
	uint32_t nt[DFZ_MAX_RANK];  /* tiles per dim */
	uint64_t ntiles;
	uint32_t tile_bytes;        /* bytes of one local buffer */
	void *in_buf[2];
	void *aux_buf[2];
	void *out_buf[2];
	struct hset set[2];         /* node scope; iteration scope (req-escape) */
	struct hset *cur;           /* the scope new transfers use */
	unsigned fresh;             /* ring cursor of DFZ_STRAT_FRESH */
	/* Per buffer slot, the handle that carried each transfer, until it is
	 * waited. */
	struct dfz_handle *load_in[2];
	struct dfz_handle *load_aux[2];
	struct dfz_handle *store[2];
};

/* ------------------------------------------------------------ validation */

static bool is_valid_node(const struct dfz_prog *p, const struct dfz_node *n)
{
	if (n->kernel >= DFZ_KERNEL_COUNT)
		return false;
	for (unsigned d = 0; d < p->rank; d++)
		if (n->tile[d] == 0)
			return false;
	return true;
}

static bool is_valid_prog(const struct dfz_prog *p)
{
	if (p->rank < 1 || p->rank > DFZ_MAX_RANK || p->elem == 0 ||
	    p->nnodes > DFZ_MAX_NODES || p->strategy >= DFZ_STRAT_COUNT ||
	    (p->buffering != 1 && p->buffering != 2))
		return false;
	for (unsigned k = 0; k < p->nnodes; k++)
		if (!is_valid_node(p, &p->node[k]))
			return false;
	return true;
}

/* Handles a node keeps per scope under strategy @s. */
static unsigned handles_for(unsigned s)
{
	switch (s) {
	case DFZ_STRAT_TENSOR_DIR:
		return 3;
	case DFZ_STRAT_DIR:
		return 2;
	case DFZ_STRAT_BARRIER:
		return 1;
	default:
		return RING;
	}
}

static bool has_bug(const struct node_run *r, enum dfz_bug bug)
{
	return (r->bugs >> bug) & 1u;
}

/* ------------------------------------------------------------------ grid */

/* Tiles of the node's grid; 0 when a dim is empty. */
static uint64_t setup_grid(struct node_run *r)
{
	const struct dfz_prog *p = r->p;
	uint64_t total = 1;

	for (unsigned d = 0; d < p->rank; d++) {
		uint32_t s = p->shape[d], t = r->node->tile[d];

		if (s == 0)
			return 0;
		r->nt[d] = s / t + (s % t != 0);
		total *= r->nt[d];
	}
	return total;
}

/* Origin and extent of tile @i (row-major). The edge-tile switch transfers
 * and computes partial edge tiles with the full tile extent. */
static void tile_at(const struct node_run *r, uint64_t i,
		    struct tile *t)
{
	bool full = has_bug(r, DFZ_BUG_EDGE_TILE);

	for (unsigned d = r->p->rank; d-- > 0;) {
		uint32_t size = r->node->tile[d];
		uint64_t o = (i % r->nt[d]) * size;

		i /= r->nt[d];
		t->o[d] = (uint32_t)o;
		t->e[d] = full || r->p->shape[d] - o >= size ?
				  size : r->p->shape[d] - (uint32_t)o;
	}
}

/* -------------------------------------------------------------- buffers */

static int alloc_buf(struct node_run *r, void **buf)
{
	return dfz_local_alloc(r->rt, (enum dfz_level)r->p->local_level,
			       r->tile_bytes, buf);
}

static void free_buf(struct node_run *r, void **buf)
{
	if (*buf)
		dfz_local_free(r->rt, *buf);
	*buf = NULL;
}

static void release_buffers(struct node_run *r)
{
	for (unsigned b = 0; b < 2; b++) {
		free_buf(r, &r->out_buf[b]);
		free_buf(r, &r->aux_buf[b]);
		free_buf(r, &r->in_buf[b]);
	}
}

/* Per buffer slot: in, aux (ADD only) and out, each a whole tile. */
static int alloc_buffers(struct node_run *r)
{
	uint64_t bytes = r->p->elem;
	int rc = 0;

	for (unsigned d = 0; d < r->p->rank; d++)
		bytes *= r->node->tile[d];
	if (bytes > UINT32_MAX)
		return DFZ_ENOMEM;
	r->tile_bytes = (uint32_t)bytes;
	for (unsigned b = 0; b < r->p->buffering && rc == 0; b++) {
		rc = alloc_buf(r, &r->in_buf[b]);
		if (rc == 0 && r->node->kernel == DFZ_KERNEL_ADD)
			rc = alloc_buf(r, &r->aux_buf[b]);
		if (rc == 0)
			rc = alloc_buf(r, &r->out_buf[b]);
	}
	return rc;
}

/* -------------------------------------------------------------- handles */

static void fini_set(struct node_run *r, struct hset *s)
{
	for (unsigned i = 0; i < s->n; i++)
		dfz_handle_fini(r->ad, &s->h[i]);
	memset(s, 0, sizeof(*s));
}

static int init_set(struct node_run *r, struct hset *s)
{
	unsigned n = handles_for(r->p->strategy);
	int rc;

	memset(s, 0, sizeof(*s));
	for (unsigned i = 0; i < n; i++) {
		rc = dfz_handle_init(r->ad, &s->h[i]);
		if (rc < 0)
			goto err_fini_set;
		s->n = i + 1;
	}
	return 0;

err_fini_set:
	fini_set(r, s);
	return rc;
}

/*
 * The req-escape switch scopes the tile transfers' handles to one loop
 * iteration, like requests declared in the loop body: created here, released
 * in iter_end() while the prefetch and the last store may still be queued.
 * The allocator is first-fit, so the next iteration gets the same storage.
 */
static int iter_begin(struct node_run *r)
{
	int rc;

	if (!has_bug(r, DFZ_BUG_REQ_ESCAPE))
		return 0;
	rc = init_set(r, &r->set[1]);
	r->cur = &r->set[1];
	return rc;
}

static void iter_end(struct node_run *r)
{
	if (has_bug(r, DFZ_BUG_REQ_ESCAPE))
		fini_set(r, &r->set[1]);
}

/* The handle that carries the next transfer of @role. */
static struct dfz_handle *pick_handle(struct node_run *r,
				      enum role role)
{
	struct dfz_handle *h = r->cur->h;
	unsigned i;

	switch (r->p->strategy) {
	case DFZ_STRAT_TENSOR_DIR:
		return &h[role];
	case DFZ_STRAT_DIR:
		return &h[role == ROLE_OUT];
	case DFZ_STRAT_BARRIER:
		return &h[0];
	default:
		i = r->fresh;
		r->fresh = (r->fresh + 1) % RING;
		return &h[i];
	}
}

/* "Wait transfer X": wait the handle that carried X (everything on it). */
static int wait_rec(struct node_run *r, struct dfz_handle **rec)
{
	struct dfz_handle *h = *rec;

	*rec = NULL;
	return h ? dfz_handle_wait(r->ad, h) : 0;
}

/* ------------------------------------------------------------ transfers */

/* Tile @t of tensor @ts against the compact local buffer @buf. */
static int make_xfer(const struct node_run *r, const struct dfz_tensor *ts,
		     void *buf, const struct tile *t, int ext2loc,
		     struct dfz_xfer *x)
{
	uint64_t off = ts->off;
	uint32_t stride = r->p->elem;
	struct dfz_span loc;

	memset(x, 0, sizeof(*x));
	for (unsigned d = r->p->rank; d-- > 0;) {
		x->shape[d] = t->e[d];
		x->ext_stride[d] = ts->stride[d];
		x->loc_stride[d] = stride;
		stride *= t->e[d];
		off += (uint64_t)t->o[d] * ts->stride[d];
		if (off > UINT32_MAX)
			return DFZ_ERANGE;
	}
	if (!dfz_mem_locate(r->rt, buf, r->tile_bytes, &loc))
		return DFZ_EFAULT;
	x->rank = r->p->rank;
	x->elem = r->p->elem;
	x->ext2loc = (uint8_t)ext2loc;
	x->ext_level = ts->level;
	x->loc_level = loc.level;
	x->ext_off = (uint32_t)off;
	x->loc_off = loc.off;
	return 0;
}

/* Issue one tile transfer; @rec remembers the handle that carried it. */
static int issue_one(struct node_run *r, enum role role,
		     void *buf, const struct tile *t,
		     struct dfz_handle **rec)
{
	const struct dfz_tensor *ts[] = {
		[ROLE_IN] = &r->node->in,
		[ROLE_AUX] = &r->node->aux,
		[ROLE_OUT] = &r->node->out,
	};
	struct dfz_xfer x;
	int rc = make_xfer(r, ts[role], buf, t, role != ROLE_OUT, &x);

	if (rc < 0)
		return rc;
	*rec = pick_handle(r, role);
	return dfz_xfer_issue(r->ad, &x, *rec);
}

/* Loads of tile @t into buffer slot @buf, recorded under slot @rec. The two
 * differ only under db-war (the off-by-one buffer index). */
static int issue_loads(struct node_run *r, const struct tile *t,
		       unsigned buf, unsigned rec)
{
	int rc = issue_one(r, ROLE_IN, r->in_buf[buf], t, &r->load_in[rec]);

	if (rc == 0 && r->node->kernel == DFZ_KERNEL_ADD)
		rc = issue_one(r, ROLE_AUX, r->aux_buf[buf], t,
			       &r->load_aux[rec]);
	return rc;
}

static int wait_loads(struct node_run *r, unsigned slot)
{
	int rc = wait_rec(r, &r->load_in[slot]);

	return rc < 0 ? rc : wait_rec(r, &r->load_aux[slot]);
}

static int issue_store(struct node_run *r, const struct tile *t,
		       unsigned slot)
{
	return issue_one(r, ROLE_OUT, r->out_buf[slot], t, &r->store[slot]);
}

/* -------------------------------------------------------------- compute */

/* The compute kernel over tile @t in slot @slot: compact row-major in
 * every buffer, so elementwise over flat arrays (tile_compute.c). */
static void compute_tile(struct node_run *r, const struct tile *t,
			 unsigned slot)
{
	struct dfz__tile_compute c = {
		.rt = r->rt,
		.engine = r->ad->engine,
		.kernel = r->node->kernel,
		.elem = r->p->elem,
		.chunks = r->p->compute_chunks,
		.in = r->in_buf[slot],
		.aux = r->node->kernel == DFZ_KERNEL_ADD ? r->aux_buf[slot] : NULL,
		.out = r->out_buf[slot],
		.n = 1,
	};

	for (unsigned d = 0; d < r->p->rank; d++)
		c.n *= t->e[d];
	dfz__tile_compute(&c);
}

/* ------------------------------------------------------------ buffering */

/* Load, wait, compute, store, wait; early-compute moves the load's wait
 * after the compute. */
static int single_step(struct node_run *r, uint64_t i)
{
	bool early = has_bug(r, DFZ_BUG_EARLY_COMPUTE);
	struct tile t;
	int rc;

	tile_at(r, i, &t);
	rc = issue_loads(r, &t, 0, 0);
	if (rc == 0 && !early)
		rc = wait_loads(r, 0);
	if (rc < 0)
		return rc;
	compute_tile(r, &t, 0);
	if (early && (rc = wait_loads(r, 0)) < 0)
		return rc;
	rc = issue_store(r, &t, 0);
	return rc < 0 ? rc : wait_rec(r, &r->store[0]);
}

/*
 * Tile @i of double buffering in slot b: wait its loads, prefetch tile i+1
 * into the other slot (db-war: into this one), wait the store that still
 * reads out_buf[b], compute, store.
 */
static int double_step(struct node_run *r, uint64_t i)
{
	bool early = has_bug(r, DFZ_BUG_EARLY_COMPUTE);
	unsigned b = (unsigned)(i % 2), nb = 1 - b;
	struct tile t;
	int rc = early ? 0 : wait_loads(r, b);

	if (rc == 0 && i + 1 < r->ntiles) {
		tile_at(r, i + 1, &t);
		rc = issue_loads(r, &t, has_bug(r, DFZ_BUG_DB_WAR) ? b : nb, nb);
	}
	if (rc == 0 && i >= 2)
		rc = wait_rec(r, &r->store[b]);
	if (rc < 0)
		return rc;
	tile_at(r, i, &t);
	compute_tile(r, &t, b);
	if (early && (rc = wait_loads(r, b)) < 0)
		return rc;
	return issue_store(r, &t, b);
}

static int run_tiles(struct node_run *r)
{
	bool dbl = r->p->buffering == 2;
	struct tile t;
	int rc = 0;

	if (dbl) {
		tile_at(r, 0, &t);
		rc = issue_loads(r, &t, 0, 0);
	}
	for (uint64_t i = 0; i < r->ntiles && rc == 0; i++) {
		rc = iter_begin(r);
		if (rc == 0)
			rc = dbl ? double_step(r, i) : single_step(r, i);
		iter_end(r);
	}
	if (rc < 0 || !dbl)
		return rc;
	/* The last two stores, older first. */
	rc = wait_rec(r, &r->store[r->ntiles % 2]);
	if (rc < 0)
		return rc;
	return wait_rec(r, &r->store[(r->ntiles + 1) % 2]);
}

/* ----------------------------------------------------------------- nodes */

static int run_node(struct dfz_adapter *ad, const struct dfz_prog *p,
		    const struct dfz_node *node)
{
	struct node_run r = {
		.ad = ad,
		.rt = ad->rt,
		.p = p,
		.node = node,
		.bugs = dfz_rt_bugs(ad->rt),
	};
	int rc;

	r.ntiles = setup_grid(&r);
	if (r.ntiles == 0)
		return 0;
	r.cur = &r.set[0];
	rc = alloc_buffers(&r);
	if (rc < 0)
		goto err_release_buffers;
	rc = init_set(&r, &r.set[0]);
	if (rc < 0)
		goto err_release_buffers;
	rc = run_tiles(&r);
	fini_set(&r, &r.set[0]);
err_release_buffers:
	release_buffers(&r);
	return rc;
}

int dfz_prog_run(struct dfz_adapter *ad, const struct dfz_prog *p)
{
	if (!ad || !ad->rt || !p || !is_valid_prog(p))
		return DFZ_EINVAL;
	for (unsigned k = 0; k < p->nnodes; k++) {
		int rc = run_node(ad, p, &p->node[k]);

		if (rc < 0)
			return rc;
	}
	return 0;
}

/* ---------------------------------------------------------------- sizing */

/* What one allocation of @size bytes takes from an arena. */
static uint64_t alloc_cost(uint64_t size)
{
	return ((size + 7) & ~(uint64_t)7) + 2 * DFZ_REDZONE;
}

/* Local bytes of node @n's buffers; 0 when the shape is empty. */
static uint64_t node_buffer_bytes(const struct dfz_prog *p,
				  const struct dfz_node *n, unsigned rank)
{
	uint64_t tile = p->elem;
	unsigned per_slot = n->kernel == DFZ_KERNEL_ADD ? 3 : 2;

	for (unsigned d = 0; d < rank; d++) {
		if (p->shape[d] == 0)
			return 0;
		tile *= n->tile[d];
		if (tile > UINT32_MAX)
			return UINT64_MAX / 4;
	}
	return (uint64_t)(p->buffering == 2 ? 2 : 1) * per_slot *
	       alloc_cost(tile);
}

/*
 * Request storage of the two handle scopes (the node's, and the one loop
 * iteration's that req-escape adds), whatever the bug switches: a bound
 * the harness can size memory by before it picks them.
 */
static uint64_t handle_bytes(const struct dfz_prog *p,
			     const struct dfz_adapter *ad)
{
	const struct dfz_engine_ops *ops =
		dfz__engine_ops(ad ? ad->engine : DFZ_ENGINE_RAM);
	uint64_t nreq = DFZ_MAX_POOL;

	if (!ops)
		ops = dfz__engine_ops(DFZ_ENGINE_RAM);
	if (ad && ad->policy != DFZ_POLICY_POOL)
		nreq = 1;
	else if (ad && ad->pool_k >= 1 && ad->pool_k <= DFZ_MAX_POOL)
		nreq = ad->pool_k;
	return 2 * handles_for(p->strategy) * nreq * alloc_cost(ops->req_size);
}

uint32_t dfz_prog_local_bytes(const struct dfz_prog *p,
			      const struct dfz_adapter *ad)
{
	unsigned rank = p && p->rank < DFZ_MAX_RANK ? p->rank : DFZ_MAX_RANK;
	uint64_t buffers = 0, total;

	if (!p)
		return 0;
	for (unsigned k = 0; k < p->nnodes && k < DFZ_MAX_NODES; k++) {
		uint64_t b = node_buffer_bytes(p, &p->node[k], rank);

		if (b > buffers)
			buffers = b;
	}
	if (buffers == 0)
		return DFZ__MEM_RESERVED;
	total = DFZ__MEM_RESERVED + buffers + handle_bytes(p, ad);
	return total > UINT32_MAX ? UINT32_MAX : (uint32_t)total;
}
