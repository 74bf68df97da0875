// SPDX-License-Identifier: MIT
/*
 * The tiled program of an emitted xfer reproducer, written out call by
 * call. At emit time this walks the tiling executor's iteration
 * (runtime/tile.c, DESIGN 3.7) over the plan: per node the same
 * row-major tile grid with partial edge tiles, the same buffers and
 * handle scopes allocated and released in the same order, the handle each
 * waiting strategy picks, single and double buffering, the inner hop over
 * each hop-0 tile, and the four switches that change the generated code
 * (early-compute, db-war, edge-tile, req-escape). For each step it writes
 * the call the executor makes, with the concrete shape, strides, offsets
 * and handle: dfz_xfer_issue(), dfz_handle_wait(), the compute step. The
 * executor stops at the first error and only releases afterwards: the
 * written calls go through TRY(), which skips them once rc is set, while
 * the releases always run. A test compares every emitted program's
 * verdict, steps and transfers with the executor's run of the same plan.
 */
#include <string.h>

#include "emit_c_int.h"

/* Which tensor a transfer moves. */
enum role { ROLE_IN, ROLE_AUX, ROLE_OUT };

static const char *const role_buf[3] = { "in", "aux", "out" };

/* A tensor as the emitted code names it: its base offset is a C
 * expression, its strides are constants. */
struct ten {
	char base[32];
	uint8_t level;
	uint32_t stride[DFZ_MAX_RANK];
};

/* A handle that carried a transfer not yet waited: none, or index @idx
 * of the node's scope (hH[idx]) or of the iteration's (hH_it[idx]). */
struct ref {
	bool set;
	uint8_t scope;
	uint8_t idx;
};

struct tile {
	uint32_t o[DFZ_MAX_RANK];
	uint32_t e[DFZ_MAX_RANK];
};

struct walk;

/* One hop of a node's run, as the executor's struct dfz__hop_run. */
struct hop {
	struct walk *w;
	unsigned h;
	const struct dfz_plan_hop *ph;
	uint8_t level;                  /* where the hop's tiles live */
	uint32_t tile[DFZ_MAX_RANK];
	uint64_t tile_bytes;
	uint32_t shape[DFZ_MAX_RANK];   /* the region this hop tiles */
	struct ten ts[3];
	uint32_t nt[DFZ_MAX_RANK];
	uint64_t ntiles;
	unsigned cur;                   /* scope new transfers use */
	unsigned fresh;                 /* ring cursor of the fresh strategy */
	struct ref load_in[2];
	struct ref load_aux[2];
	struct ref store[2];
};

struct walk {
	FILE *f;
	const struct dfz_plan_xfer *x;
	uint32_t bugs;                  /* the switches of this body */
	uint8_t kernel;                 /* of the node being written */
	struct hop hop[DFZ_MAX_HOPS];
};

/* The enumerators' names, as the emitted program spells them. */
#define LEVEL_ID(id, name) "DFZ_" #id,
#define ENGINE_ID(id, name) "DFZ_ENGINE_" #id,
#define KERNEL_ID(id, name) "DFZ_KERNEL_" #id,
static const char *const level_names[DFZ_NLEVELS] = {
	DFZ_LEVEL_MAP(LEVEL_ID)
};
static const char *const engine_names[DFZ_ENGINE_COUNT] = {
	DFZ_ENGINE_MAP(ENGINE_ID)
};
static const char *const kernel_names[DFZ_KERNEL_COUNT] = {
	DFZ_KERNEL_MAP(KERNEL_ID)
};
#undef LEVEL_ID
#undef ENGINE_ID
#undef KERNEL_ID

const char *dfz__emit_level(unsigned level)
{
	return level < DFZ_NLEVELS ? level_names[level] : "DFZ_NLEVELS";
}

const char *dfz__emit_engine(unsigned engine)
{
	return engine < DFZ_ENGINE_COUNT ? engine_names[engine] :
					  "DFZ_ENGINE_COUNT";
}

const char *dfz__emit_kernel(unsigned kernel)
{
	return kernel < DFZ_KERNEL_COUNT ? kernel_names[kernel] :
					  "DFZ_KERNEL_COUNT";
}

static bool has_bug(const struct hop *q, enum dfz_bug bug)
{
	return (q->w->bugs >> bug) & 1u;
}

static unsigned ind(const struct hop *q)
{
	return 1 + q->h;
}

static void u32s(const struct hop *q, const uint32_t *v)
{
	dfz__emit_u32s(q->w->f, v, q->w->x->rank);
}

/* ------------------------------------------------------------------ grid */

/* The executor's own grid (dfz_tile_grid, dfz_tile_at): an emitted
 * program tiles exactly as dfz_prog_run() does, edge-tile switch included. */
static uint64_t setup_grid(struct hop *q)
{
	return dfz_tile_grid(q->w->x->rank, q->shape, q->tile, q->nt);
}

static void tile_at(const struct hop *q, uint64_t i, struct tile *t)
{
	dfz_tile_at(q->w->x->rank, q->shape, q->tile, q->nt,
		    has_bug(q, DFZ_BUG_EDGE_TILE), i, t->o, t->e);
}

static void tile_comment(const struct hop *q, uint64_t i, const struct tile *t)
{
	FILE *f = q->w->f;

	dfz__emit_tabs(f, ind(q));
	fprintf(f, "/* hop %u, tile %llu of %llu: origin ", q->h,
		(unsigned long long)i, (unsigned long long)q->ntiles);
	u32s(q, t->o);
	fputs(", extent ", f);
	u32s(q, t->e);
	fputs(" */\n", f);
}

/* -------------------------------------------------------------- handles */

static void handle_name(const struct hop *q, struct ref r, char *buf,
			size_t n)
{
	snprintf(buf, n, "h%u%s[%u]", q->h, r.scope ? "_it" : "", r.idx);
}

static void iter_begin(struct hop *q)
{
	if (!has_bug(q, DFZ_BUG_REQ_ESCAPE))
		return;
	dfz__emit_line(q->w->f, ind(q),
		       "/* req-escape: the requests are declared in the loop "
		       "body */");
	dfz__emit_line(q->w->f, ind(q), "scope_init(&ad[%u], h%u_it, %u);",
		       q->h, q->h, dfz_tile_handles(q->ph->strategy));
	q->cur = 1;
}

static void iter_end(struct hop *q)
{
	if (has_bug(q, DFZ_BUG_REQ_ESCAPE))
		dfz__emit_line(q->w->f, ind(q), "scope_fini(&ad[%u], h%u_it, %u);",
			       q->h, q->h,
			       dfz_tile_handles(q->ph->strategy));
}

static struct ref pick_handle(struct hop *q, enum role role)
{
	struct ref r = { .set = true, .scope = (uint8_t)q->cur };

	switch (q->ph->strategy) {
	case DFZ_STRAT_TENSOR_DIR:
		r.idx = (uint8_t)role;
		break;
	case DFZ_STRAT_DIR:
		r.idx = role == ROLE_OUT;
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

static void wait_rec(struct hop *q, struct ref *rec)
{
	char name[16];

	if (!rec->set)
		return;
	handle_name(q, *rec, name, sizeof(name));
	dfz__emit_line(q->w->f, ind(q), "TRY(dfz_handle_wait(&ad[%u], &%s));",
		       q->h, name);
	rec->set = false;
}

/* ------------------------------------------------------------ transfers */

/* The transfer of tile @t of tensor @role against buffer slot @slot. */
static void issue_one(struct hop *q, enum role role, unsigned slot,
		      const struct tile *t, struct ref *rec)
{
	const struct ten *ts = &q->ts[role];
	uint32_t shape[DFZ_MAX_RANK] = { 0 }, ext[DFZ_MAX_RANK] = { 0 };
	uint32_t loc[DFZ_MAX_RANK] = { 0 }, stride = q->w->x->elem;
	uint64_t add = 0;
	unsigned i = ind(q);
	FILE *f = q->w->f;
	char name[16];

	for (unsigned d = q->w->x->rank; d-- > 0;) {
		shape[d] = t->e[d];
		ext[d] = ts->stride[d];
		loc[d] = stride;
		stride *= t->e[d];
		add += (uint64_t)t->o[d] * ts->stride[d];
	}
	*rec = pick_handle(q, role);
	handle_name(q, *rec, name, sizeof(name));
	dfz__emit_line(f, i, "TRY(dfz_xfer_issue(&ad[%u], &(struct dfz_xfer){",
		       q->h);
	dfz__emit_line(f, i + 1, ".rank = %u, .elem = %u, .ext2loc = %u,",
		       q->w->x->rank, q->w->x->elem, role != ROLE_OUT);
	if (add)
		dfz__emit_line(f, i + 1, ".ext_level = %s, .ext_off = %s + %llu,",
			       dfz__emit_level(ts->level), ts->base,
			       (unsigned long long)add);
	else
		dfz__emit_line(f, i + 1, ".ext_level = %s, .ext_off = %s,",
			       dfz__emit_level(ts->level), ts->base);
	dfz__emit_line(f, i + 1, ".loc_level = %s, .loc_off = off_of(%s%u[%u]),",
		       dfz__emit_level(q->level), role_buf[role], q->h, slot);
	dfz__emit_tabs(f, i + 1);
	fputs(".shape = ", f);
	u32s(q, shape);
	fputs(", .ext_stride = ", f);
	u32s(q, ext);
	fputs(",\n", f);
	dfz__emit_tabs(f, i + 1);
	fputs(".loc_stride = ", f);
	u32s(q, loc);
	fprintf(f, " }, &%s));\n", name);
}

static void issue_loads(struct hop *q, const struct tile *t, unsigned buf,
			unsigned rec)
{
	issue_one(q, ROLE_IN, buf, t, &q->load_in[rec]);
	if (q->w->kernel == DFZ_KERNEL_ADD)
		issue_one(q, ROLE_AUX, buf, t, &q->load_aux[rec]);
}

static void wait_loads(struct hop *q, unsigned slot)
{
	wait_rec(q, &q->load_in[slot]);
	wait_rec(q, &q->load_aux[slot]);
}

static void issue_store(struct hop *q, const struct tile *t, unsigned slot)
{
	issue_one(q, ROLE_OUT, slot, t, &q->store[slot]);
}

/* ----------------------------------------------------------------- work */

static void run_grid(struct hop *q);

static void compute_tile(struct hop *q, const struct tile *t, unsigned slot)
{
	uint64_t n = 1;
	char aux[16] = "NULL";

	for (unsigned d = 0; d < q->w->x->rank; d++)
		n *= t->e[d];
	if (q->w->kernel == DFZ_KERNEL_ADD)
		snprintf(aux, sizeof(aux), "aux%u[%u]", q->h, slot);
	dfz__emit_line(q->w->f, ind(q),
		       "compute(%s, %s, in%u[%u], %s, out%u[%u], %llu);",
		       dfz__emit_engine(q->ph->engine),
		       dfz__emit_kernel(q->w->kernel), q->h, slot, aux, q->h,
		       slot, (unsigned long long)n);
}

/* Buffer slot @slot of hop @q, holding tile @t, as a tensor of the next
 * hop: compact row-major over the tile's extents. */
static void view_of(const struct hop *q, enum role role, unsigned slot,
		    const struct tile *t, struct ten *v)
{
	uint32_t stride = q->w->x->elem;

	memset(v, 0, sizeof(*v));
	snprintf(v->base, sizeof(v->base), "off_of(%s%u[%u])", role_buf[role],
		 q->h, slot);
	v->level = q->level;
	for (unsigned d = q->w->x->rank; d-- > 0;) {
		v->stride[d] = stride;
		stride *= t->e[d];
	}
}

static void run_inner(struct hop *q, const struct tile *t, unsigned slot)
{
	struct hop *in = q + 1;

	memcpy(in->shape, t->e, sizeof(in->shape));
	view_of(q, ROLE_IN, slot, t, &in->ts[ROLE_IN]);
	view_of(q, ROLE_AUX, slot, t, &in->ts[ROLE_AUX]);
	view_of(q, ROLE_OUT, slot, t, &in->ts[ROLE_OUT]);
	dfz__emit_line(q->w->f, ind(q), "{ /* hop %u over this tile, in slot %u */",
		       in->h, slot);
	run_grid(in);
	dfz__emit_line(q->w->f, ind(q), "}");
}

static void work_tile(struct hop *q, const struct tile *t, unsigned slot)
{
	if (q->h + 1 < q->w->x->nhops)
		run_inner(q, t, slot);
	else
		compute_tile(q, t, slot);
}

/* ------------------------------------------------------------ buffering */

static void single_step(struct hop *q, uint64_t i)
{
	bool early = has_bug(q, DFZ_BUG_EARLY_COMPUTE);
	struct tile t;

	tile_at(q, i, &t);
	tile_comment(q, i, &t);
	issue_loads(q, &t, 0, 0);
	if (!early)
		wait_loads(q, 0);
	else
		dfz__emit_line(q->w->f, ind(q),
			       "/* early-compute: the loads are waited after "
			       "the work */");
	work_tile(q, &t, 0);
	if (early)
		wait_loads(q, 0);
	issue_store(q, &t, 0);
	wait_rec(q, &q->store[0]);
}

static void double_step(struct hop *q, uint64_t i)
{
	bool early = has_bug(q, DFZ_BUG_EARLY_COMPUTE);
	bool war = has_bug(q, DFZ_BUG_DB_WAR);
	unsigned b = (unsigned)(i % 2), nb = 1 - b;
	struct tile t;

	tile_at(q, i, &t);
	tile_comment(q, i, &t);
	if (!early)
		wait_loads(q, b);
	if (i + 1 < q->ntiles) {
		struct tile next;

		tile_at(q, i + 1, &next);
		dfz__emit_line(q->w->f, ind(q),
			       "/* prefetch tile %llu into slot %u%s */",
			       (unsigned long long)(i + 1), war ? b : nb,
			       war ? " (db-war: the slot being worked on)" : "");
		issue_loads(q, &next, war ? b : nb, nb);
	}
	if (q->ph->db_order == DFZ_DB_EAGER && i >= 2) {
		dfz__emit_line(q->w->f, ind(q), "/* eager order: the store "
			       "of tile i-2 only */");
		wait_rec(q, &q->store[b]);
	} else if (q->ph->db_order != DFZ_DB_EAGER && i >= 1) {
		wait_rec(q, &q->store[nb]);
	}
	work_tile(q, &t, b);
	if (early)
		wait_loads(q, b);
	issue_store(q, &t, b);
}

static void run_tiles(struct hop *q)
{
	bool dbl = q->ph->buffering == 2;
	struct tile t;

	if (dbl && q->ntiles > 0) {
		tile_at(q, 0, &t);
		dfz__emit_line(q->w->f, ind(q), "/* prefetch tile 0 into slot 0 */");
		issue_loads(q, &t, 0, 0);
	}
	for (uint64_t i = 0; i < q->ntiles; i++) {
		iter_begin(q);
		if (dbl)
			double_step(q, i);
		else
			single_step(q, i);
		iter_end(q);
	}
	if (!dbl)
		return;
	dfz__emit_line(q->w->f, ind(q), "/* the last two stores, older first */");
	wait_rec(q, &q->store[q->ntiles % 2]);
	wait_rec(q, &q->store[(q->ntiles + 1) % 2]);
}

static void run_grid(struct hop *q)
{
	q->ntiles = setup_grid(q);
	q->cur = 0;
	q->fresh = 0;
	memset(q->load_in, 0, sizeof(q->load_in));
	memset(q->load_aux, 0, sizeof(q->load_aux));
	memset(q->store, 0, sizeof(q->store));
	dfz__emit_line(q->w->f, ind(q), "/* hop %u: %llu tile(s), %s buffering */",
		       q->h, (unsigned long long)q->ntiles,
		       q->ph->buffering == 2 ? "double" : "single");
	run_tiles(q);
}

/* ----------------------------------------------------------------- nodes */

/* Node @k's buffers and handles, per hop (hop 0 first; buffers first). */
static void node_setup(struct walk *w)
{
	for (unsigned h = 0; h < w->x->nhops; h++) {
		struct hop *q = &w->hop[h];

		dfz__emit_line(w->f, 1, "/* hop %u: buffers and handles in %s */",
			       h, dfz__emit_level(q->level) + 4);
		for (unsigned b = 0; b < q->ph->buffering; b++)
			for (unsigned r = 0; r < 3; r++) {
				if (r == ROLE_AUX && w->kernel != DFZ_KERNEL_ADD)
					continue;
				if (q->tile_bytes > UINT32_MAX) {
					dfz__emit_line(w->f, 1, "TRY(DFZ_ENOMEM);");
					break;
				}
				dfz__emit_line(w->f, 1,
					       "TRY(dfz_local_alloc(rt, %s, %llu, &%s%u[%u]));",
					       dfz__emit_level(q->level),
					       (unsigned long long)q->tile_bytes,
					       role_buf[r], h, b);
			}
		dfz__emit_line(w->f, 1, "scope_init(&ad[%u], h%u, %u);", h, h,
			       dfz_tile_handles(q->ph->strategy));
	}
}

static void node_release(struct walk *w)
{
	for (unsigned h = w->x->nhops; h-- > 0;) {
		const struct hop *q = &w->hop[h];

		dfz__emit_line(w->f, 1, "scope_fini(&ad[%u], h%u, %u);", h, h,
			       dfz_tile_handles(q->ph->strategy));
		for (unsigned b = 0; b < q->ph->buffering; b++)
			for (unsigned r = 3; r-- > 0;)
				if (r != ROLE_AUX || w->kernel == DFZ_KERNEL_ADD)
					dfz__emit_line(w->f, 1, "buf_free(&%s%u[%u]);",
						       role_buf[r], h, b);
	}
}

static void init_node(struct walk *w, unsigned k,
		      const struct ten ts[3])
{
	const struct dfz_plan_xfer *x = w->x;

	memset(w->hop, 0, sizeof(w->hop));
	w->kernel = x->node[k].kernel;
	for (unsigned h = 0; h < x->nhops; h++) {
		struct hop *q = &w->hop[h];

		q->w = w;
		q->h = h;
		q->ph = &x->hop[h];
		q->level = (uint8_t)dfz_plan_hop_level(x, h);
		q->tile_bytes = x->elem;
		for (unsigned d = 0; d < x->rank; d++) {
			q->tile[d] = x->node[k].tile[h][d];
			q->tile_bytes *= q->tile[d];
		}
	}
	memcpy(w->hop[0].shape, x->shape, sizeof(w->hop[0].shape));
	memcpy(w->hop[0].ts, ts, sizeof(w->hop[0].ts));
}

/* The tensors of node @k as the program names them. */
static void node_tensors(const struct dfz_plan_xfer *x, unsigned k,
			 struct ten ts[3])
{
	static const char *const field[3] = { "in", "aux", "out" };

	for (unsigned r = 0; r < 3; r++) {
		const struct dfz_plan_layout *l =
			r == ROLE_OUT ? &x->node[k].out :
			r == ROLE_AUX ? &x->node[k].aux :
			k == 0 ? &x->in : &x->node[k - 1].out;

		memset(&ts[r], 0, sizeof(ts[r]));
		snprintf(ts[r].base, sizeof(ts[r].base), "prog.node[%u].%s.off",
			 k, field[r]);
		ts[r].level = x->ext_level;
		if (r != ROLE_AUX || x->node[k].kernel == DFZ_KERNEL_ADD)
			dfz_plan_layout_strides(x, l, ts[r].stride);
	}
}

static void emit_node(struct walk *w, unsigned k)
{
	struct ten ts[3];

	node_tensors(w->x, k, ts);
	init_node(w, k, ts);
	if (k)
		fputc('\n', w->f);
	dfz__emit_line(w->f, 1, "/* ---- node %u: %s ---- */", k,
		       dfz_kernel_name(w->kernel));
	if (setup_grid(&w->hop[0]) == 0) {
		dfz__emit_line(w->f, 1, "/* an empty shape: no tiles, nothing "
				       "allocated */");
		return;
	}
	node_setup(w);
	run_grid(&w->hop[0]);
	dfz__emit_line(w->f, 1, "/* node %u: release */", k);
	node_release(w);
	if (k + 1 < w->x->nnodes) {
		dfz__emit_line(w->f, 1, "if (rc < 0)");
		dfz__emit_line(w->f, 2, "return rc;");
	}
}

/* The checks dfz_prog_run() makes before it runs anything. */
static bool is_valid(const struct dfz_plan_xfer *x)
{
	if (x->rank < 1 || x->rank > DFZ_MAX_RANK || x->elem == 0 ||
	    x->nnodes > DFZ_MAX_NODES || x->nhops < 1 ||
	    x->nhops > DFZ_MAX_HOPS)
		return false;
	for (unsigned h = 0; h < x->nhops; h++) {
		unsigned level = dfz_plan_hop_level(x, h);

		if (x->hop[h].strategy >= DFZ_STRAT_COUNT ||
		    (x->hop[h].buffering != 1 && x->hop[h].buffering != 2) ||
		    (level != DFZ_L2 && level != DFZ_L1))
			return false;
	}
	for (unsigned k = 0; k < x->nnodes; k++) {
		if (x->node[k].kernel >= DFZ_KERNEL_COUNT)
			return false;
		for (unsigned h = 0; h < x->nhops; h++)
			for (unsigned d = 0; d < x->rank; d++)
				if (x->node[k].tile[h][d] == 0)
					return false;
	}
	return true;
}

bool dfz__emit_has_tiles(const struct dfz_plan_xfer *x)
{
	if (!is_valid(x))
		return false;
	for (unsigned d = 0; d < x->rank; d++)
		if (x->shape[d] == 0)
			return false;
	return true;
}

void dfz__emit_tiles(FILE *f, const struct dfz_plan_xfer *x, uint32_t bugs,
		     const char *fn)
{
	struct walk w = { .f = f, .x = x, .bugs = bugs };

	fprintf(f, "\nstatic int %s(void)\n{\n", fn);
	if (!is_valid(x)) {
		dfz__emit_line(f, 1, "return DFZ_EINVAL; /* dfz_prog_run() "
				     "refuses this program */");
		fputs("}\n", f);
		return;
	}
	for (unsigned k = 0; k < x->nnodes; k++)
		emit_node(&w, k);
	dfz__emit_line(f, 1, "return rc;");
	fputs("}\n", f);
}
