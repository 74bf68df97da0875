// SPDX-License-Identifier: MIT
/*
 * The tiling executor (DESIGN 3.7): runs a chain of copy-like nodes the way
 * a tiling compiler's generated code does. The order of everything it does
 * is the walk's (tile_walk.c: grids, buffering, the handle each strategy
 * picks, the inner hop, the bug switches that change the generated code);
 * this file is the walk's runtime back end, which performs each step:
 * allocates the buffers and handle scopes (tile_mem.c), issues each tile
 * transfer through the hop's transfer adapter at the places the buffers
 * and tensors live, waits handles, and runs the compute kernels
 * (tile_compute.c). A step the runtime refuses ends the run, named in the
 * runtime's refusal (rt.refused).
 */
#include <stdio.h>
#include <string.h>

#include "tile_int.h"
#include "vg.h"

static struct dfz__hop_run *hop_of(void *ctx, unsigned h)
{
	return &((struct dfz__node_run *)ctx)->hop[h];
}

/* ------------------------------------------------------------ transfers */

/* "load of tensor in, hop 0 tile [0+4,8+8] (origin+extent)" */
static void xfer_name(const struct dfz__hop_run *q,
		      const struct dfz_walk_xfer *wx, char *out, size_t cap)
{
	static const char *const names[DFZ_WALK_ROLES] = {
		"load of tensor in", "load of tensor aux",
		"store of tensor out"
	};
	char at[96];
	size_t n = 0;

	for (unsigned d = 0; d < q->r->p->rank && n < sizeof(at); d++)
		n += (size_t)snprintf(at + n, sizeof(at) - n, "%s%u+%u",
				      d ? "," : "", wx->tile->o[d],
				      wx->tile->e[d]);
	snprintf(out, cap, "%s, hop %u tile [%s] (origin+extent)",
		 names[wx->role], q->h, at);
}

/* Record a refused tile transfer in the runtime's refusal. */
static int refused(const struct dfz__hop_run *q, int rc, const char *call,
		   const struct dfz_walk_xfer *wx)
{
	char name[160];

	if (rc >= 0 || rc == DFZ_EHANG)
		return rc;
	xfer_name(q, wx, name, sizeof(name));
	return dfz__rt_refuse(q->r->rt, rc, call, "%s", name);
}

/* Where the transfer's two sides live: the tensor's base plus the tile's
 * origin, and the slot's buffer. */
static int place(const struct dfz__hop_run *q, const struct dfz_walk_xfer *wx,
		 struct dfz_xfer *x)
{
	const struct dfz_tensor *ts = &q->ts[wx->role];
	uint64_t off = ts->off + wx->ext_add;
	struct dfz_span loc;

	if (off > UINT32_MAX)
		return DFZ_ERANGE;
	if (!dfz_mem_locate(q->r->rt, q->buf[wx->role][wx->slot],
			    q->tile_bytes, &loc))
		return DFZ_EFAULT;
	x->ext_level = ts->level;
	x->ext_off = (uint32_t)off;
	x->loc_level = loc.level;
	x->loc_off = loc.off;
	return 0;
}

static struct dfz_handle *handle_of(struct dfz__hop_run *q,
				    struct dfz_walk_ref ref)
{
	return &q->set[ref.scope].h[ref.idx];
}

static int do_issue(void *ctx, const struct dfz_walk_xfer *wx)
{
	struct dfz__hop_run *q = hop_of(ctx, wx->hop);
	struct dfz_xfer x = wx->x;
	char name[160];
	int rc = place(q, wx, &x);

	if (rc < 0)
		return refused(q, rc, "the tile transfer's layout", wx);
	if (q->r->rt->vg) {
		xfer_name(q, wx, name, sizeof(name));
		dfz__vg_label(q->r->rt, "%s", name);
	}
	rc = dfz_xfer_issue(q->ad, &x, handle_of(q, wx->ref));
	dfz__vg_label(q->r->rt, NULL);
	return refused(q, rc, "dfz_xfer_issue()", wx);
}

static int do_wait(void *ctx, unsigned h, struct dfz_walk_ref ref)
{
	struct dfz__hop_run *q = hop_of(ctx, h);

	return dfz__rt_refuse(q->r->rt, dfz_handle_wait(q->ad, handle_of(q, ref)),
			      "dfz_handle_wait()", "hop %u", h);
}

/* ----------------------------------------------------------------- work */

/* The compute kernel over slot @slot: compact row-major in every buffer,
 * so elementwise over flat arrays (dfz_compute_run()). */
static int do_compute(void *ctx, unsigned h, unsigned slot, uint64_t n)
{
	struct dfz__hop_run *q = hop_of(ctx, h);
	const struct dfz__node_run *r = q->r;
	struct dfz_compute c = {
		.rt = r->rt,
		.engine = q->ad->engine,
		.kernel = r->node->kernel,
		.elem = r->p->elem,
		.chunks = r->p->compute_chunks,
		.in = q->buf[DFZ_WALK_IN][slot],
		.aux = q->buf[DFZ_WALK_AUX][slot],
		.out = q->buf[DFZ_WALK_OUT][slot],
		.n = n,
	};

	dfz_compute_run(&c);
	return 0;
}

/* Buffer @buf of hop @q as a tensor of the next hop (its strides are the
 * walk's); none when the buffer is not allocated. */
static int view_of(const struct dfz__hop_run *q, void *buf,
		   struct dfz_tensor *v)
{
	struct dfz_span loc;

	memset(v, 0, sizeof(*v));
	if (!buf)
		return 0;
	if (!dfz_mem_locate(q->r->rt, buf, q->tile_bytes, &loc))
		return dfz__rt_refuse(q->r->rt, DFZ_EFAULT, "dfz_mem_locate()",
				      "hop %u tile buffer as the next hop's "
				      "tensor", q->h);
	v->level = loc.level;
	v->off = loc.off;
	v->bytes = q->tile_bytes;
	return 0;
}

static int do_enter(void *ctx, unsigned h, unsigned slot,
		    const struct dfz_walk_tile *tile)
{
	struct dfz__hop_run *q = hop_of(ctx, h), *in = q + 1;
	int rc = 0;

	(void)tile;
	for (unsigned r = 0; r < DFZ_WALK_ROLES && rc == 0; r++)
		rc = view_of(q, q->buf[r][slot], &in->ts[r]);
	return rc;
}

static void do_leave(void *ctx, unsigned h)
{
	(void)ctx;
	(void)h;
}

/* --------------------------------------------------------------- memory */

static int do_alloc_buf(void *ctx, unsigned h, enum dfz_walk_role role,
			unsigned slot, uint64_t bytes)
{
	return dfz__tile_alloc_buf(hop_of(ctx, h), role, slot, bytes);
}

static void do_free_buf(void *ctx, unsigned h, enum dfz_walk_role role,
			unsigned slot)
{
	dfz__tile_free_buf(hop_of(ctx, h), role, slot);
}

static int do_scope_init(void *ctx, unsigned h, unsigned scope, unsigned n)
{
	struct dfz__hop_run *q = hop_of(ctx, h);

	(void)n;        /* dfz_tile_handles() of the hop's strategy */
	return dfz__tile_init_set(q, &q->set[scope]);
}

static void do_scope_fini(void *ctx, unsigned h, unsigned scope, unsigned n)
{
	struct dfz__hop_run *q = hop_of(ctx, h);

	(void)n;
	dfz__tile_fini_set(q, &q->set[scope]);
}

/* A new node's hop-0 tensors are the node's; the walk's notes mark it. */
static void do_note(void *ctx, enum dfz_walk_note what,
		    const struct dfz_walk_at *at)
{
	struct dfz__node_run *r = ctx;
	const struct dfz_node *n;

	if (what != DFZ_NOTE_NODE)
		return;
	n = &r->p->node[at->node];
	r->node = n;
	r->hop[0].ts[DFZ_WALK_IN] = n->in;
	r->hop[0].ts[DFZ_WALK_AUX] = n->aux;
	r->hop[0].ts[DFZ_WALK_OUT] = n->out;
}

static const struct dfz_walk_ops runtime_ops = {
	.alloc_buf = do_alloc_buf,
	.free_buf = do_free_buf,
	.scope_init = do_scope_init,
	.scope_fini = do_scope_fini,
	.issue = do_issue,
	.wait = do_wait,
	.compute = do_compute,
	.enter = do_enter,
	.leave = do_leave,
	.note = do_note,
};

/* ---------------------------------------------------------------- program */

static bool are_valid_adapters(const struct dfz_adapter *ad, unsigned nhops)
{
	for (unsigned h = 0; h < nhops; h++)
		if (!ad[h].rt || ad[h].rt != ad[0].rt)
			return false;
	return true;
}

static void init_run(struct dfz__node_run *r, struct dfz_adapter *ad,
		     const struct dfz_prog *p)
{
	memset(r, 0, sizeof(*r));
	r->rt = ad[0].rt;
	r->p = p;
	for (unsigned h = 0; h < p->nhops; h++) {
		r->hop[h].r = r;
		r->hop[h].ad = &ad[h];
		r->hop[h].hop = &p->hop[h];
		r->hop[h].h = h;
	}
}

int dfz_prog_run(struct dfz_adapter *ad, const struct dfz_prog *p)
{
	struct dfz__node_run r;
	int rc;

	if (!ad || !dfz_prog_is_valid(p) || !are_valid_adapters(ad, p->nhops))
		return DFZ_EINVAL;
	init_run(&r, ad, p);
	dfz__vg_enter(r.rt);
	rc = dfz_prog_walk(p, dfz_rt_bugs(r.rt), &runtime_ops, &r);
	dfz__vg_leave(r.rt);
	return rc < 0 ? rc : 0;
}
