// SPDX-License-Identifier: MIT
/*
 * The adapter's calls written in each engine's SDK names: the printing
 * back ends of dfz_xfer_walk() for the drop-in printer. One table per
 * engine, the way generated code drives it:
 *   RAM (PMSIS cluster RAM): pi_cl_ram_copy(_2d) on the request,
 *     pi_cl_ram_copy_wait;
 *   mchan (Deeploy's GAP9 mchan.h): a transfer id taken for each group
 *     of pushes (a push goes to the id its core took last, so a request
 *     whose id is no longer the latest takes a fresh one; mchan-push-latest
 *     leaves that out), kept in the request's list of ids, an
 *     mchan_transfer_t by value with its command word (MCHAN_CMD, the
 *     length in its low 17 bits) and the size meant, pushed 1-D or 2-D,
 *     then for each id of the request mchan_transfer_wait then _free
 *     (mchan-tid-leak leaves the free out);
 *   idma (the Snitch runtime): snrt_dma_start_1d/_2d keeping the request's
 *     transaction id, the 1-byte dummy after each copy (idma-no-dummy
 *     leaves it out: the walk does not call it), snrt_dma_wait.
 */
#include "emit_dropin_int.h"

/* "t[2] + 64" or "buf[0][1][0] + 64": where the external side of the
 * transfer printed starts, @off bytes into its tensor. */
static void ext_at(const struct dfz__dropin_printer *pr, uint32_t off,
		   char *out, size_t n)
{
	const struct dfz_walk_xfer *wx = pr->cur;

	if (wx->hop == 0)
		snprintf(out, n, "t[%u] + %u",
			 dfz__dropin_tensor(pr->x, pr->node, wx->role), off);
	else
		snprintf(out, n, "buf[%u][%u][%u] + %u", wx->hop - 1, wx->role,
			 pr->outer_slot, off);
}

static void loc_at(const struct dfz__dropin_printer *pr, uint32_t off,
		   char *out, size_t n)
{
	const struct dfz_walk_xfer *wx = pr->cur;

	snprintf(out, n, "buf[%u][%u][%u] + %u", wx->hop, wx->role, wx->slot,
		 off);
}

/* "req1[0][2][0]": request @q of the handle printed. */
static void req_at(const struct dfz__dropin_printer *pr, unsigned q,
		   char *out, size_t n)
{
	snprintf(out, n, "req%u[%u][%u][%u]", pr->hop, pr->ref.scope,
		 pr->ref.idx, q);
}

/* ------------------------------------------------------------------ RAM */

static int ram_copy(void *ctx, struct dfz_handle *h, unsigned q,
		    const struct dfz_desc *d)
{
	struct dfz__dropin_printer *pr = ctx;
	char ext[48], loc[48], req[32];

	(void)h;
	ext_at(pr, d->ext_off, ext, sizeof(ext));
	loc_at(pr, d->loc_off, loc, sizeof(loc));
	req_at(pr, q, req, sizeof(req));
	if (d->is_2d)
		dfz__emit_line(pr->f, 1, "pi_cl_ram_copy_2d(ram, %s, %s, %u, "
			       "%u, %u, %u, &%s);", ext, loc, d->size,
			       d->ext_stride, d->length, d->ext2loc, req);
	else
		dfz__emit_line(pr->f, 1, "pi_cl_ram_copy(ram, %s, %s, %u, %u, "
			       "&%s);", ext, loc, d->size, d->ext2loc, req);
	return 0;
}

/* Never called: RAM's completed id does not lag. */
static int no_dummy(void *ctx, struct dfz_handle *h)
{
	(void)ctx, (void)h;
	return DFZ_EINVAL;
}

/* One line of a call on request @q, written by @fmt ("%s": the request). */
static int req_line(void *ctx, unsigned q, const char *fmt)
{
	struct dfz__dropin_printer *pr = ctx;
	char req[32], line[64];

	req_at(pr, q, req, sizeof(req));
	snprintf(line, sizeof(line), fmt, req);
	dfz__emit_line(pr->f, 1, "%s", line);
	return 0;
}

static int ram_wait(void *ctx, struct dfz_handle *h, unsigned q)
{
	(void)h;
	return req_line(ctx, q, "pi_cl_ram_copy_wait(&%s);");
}

static const struct dfz_xfer_ops ram_calls = {
	.issue = ram_copy,
	.dummy = no_dummy,
	.wait = ram_wait,
};

/* ---------------------------------------------------------------- mchan */

/* The request's place as one number, for the core's latest TID. */
static int req_key(const struct dfz__dropin_printer *pr, unsigned q)
{
	return (int)(((pr->hop * 2u + pr->ref.scope) * DFZ_TILE_RING +
		      pr->ref.idx) * DFZ_MAX_POOL + q);
}

/*
 * A push goes to the transfer id its core took last, so a request takes
 * one before its first push, and a fresh one whenever another id was taken
 * since its last (Deeploy's pattern: take an id, push the group, wait and
 * free it), as the model's engine ops do. mchan-push-latest is the faulty
 * code that pushes on without: the push lands on the latest id.
 */
static int mchan_push(void *ctx, struct dfz_handle *h, unsigned q,
		      const struct dfz_desc *d)
{
	struct dfz__dropin_printer *pr = ctx;
	char ext[48], loc[48], req[32];

	req_at(pr, q, req, sizeof(req));
	if (h->in_flight[q] && pr->last_tid != req_key(pr, q) &&
	    (pr->aw[pr->hop].bugs & DFZ_BUG_BIT(MCHAN_PUSH_LATEST)))
		dfz__emit_line(pr->f, 1, "/* mchan-push-latest: no "
			       "mchan_transfer_get_id() for this group */");
	else if (!h->in_flight[q] || pr->last_tid != req_key(pr, q)) {
		dfz__emit_line(pr->f, 1, "%s.id[%s.n++] = "
			       "mchan_transfer_get_id();", req, req);
		pr->last_tid = req_key(pr, q);
	}
	ext_at(pr, d->ext_off, ext, sizeof(ext));
	loc_at(pr, d->loc_off, loc, sizeof(loc));
	dfz__emit_line(pr->f, 1, "trans = (mchan_transfer_t){ .cmd = MCHAN_CMD("
		       "%uu, MCHAN_DMA_TRANSFER_DIRECTION_%s, "
		       "MCHAN_CMD_FLAG_INCREMENTAL, 0, %s, 0, "
		       "MCHAN_CMD_FLAG_EVENT_ENABLE, 0), .size = %u, .loc = %s, "
		       ".ext = %s, .ext_size_1d = %u, .ext_stride_1d = %u };",
		       d->size, d->ext2loc ? "EXT2LOC" : "LOC2EXT",
		       d->is_2d ? "MCHAN_CMD_FLAG_2D_TRANSFER_EXTERNAL" : "0",
		       d->size, loc, ext, d->length, d->ext_stride);
	dfz__emit_line(pr->f, 1, "mchan_transfer_push_%s(trans);",
		       d->is_2d ? "2d" : "1d");
	return 0;
}

/* Each id of the request, oldest first: wait, then free (mchan-tid-leak
 * leaves the free out). */
static int mchan_wait(void *ctx, struct dfz_handle *h, unsigned q)
{
	struct dfz__dropin_printer *pr = ctx;
	char req[32];

	(void)h;
	req_at(pr, q, req, sizeof(req));
	dfz__emit_line(pr->f, 1, "for (int i = 0; i < %s.n; i++) {", req);
	dfz__emit_line(pr->f, 2, "mchan_transfer_wait(%s.id[i]);", req);
	if (pr->aw[pr->hop].bugs & DFZ_BUG_BIT(MCHAN_TID_LEAK))
		dfz__emit_line(pr->f, 2, "/* mchan-tid-leak: no "
			       "mchan_transfer_free(%s.id[i]) */", req);
	else
		dfz__emit_line(pr->f, 2, "mchan_transfer_free(%s.id[i]);", req);
	dfz__emit_line(pr->f, 1, "}");
	dfz__emit_line(pr->f, 1, "%s.n = 0;", req);
	return 0;
}

static const struct dfz_xfer_ops mchan_calls = {
	.issue = mchan_push,
	.dummy = no_dummy,
	.wait = mchan_wait,
};

/* ----------------------------------------------------------------- idma */

static int idma_start(void *ctx, struct dfz_handle *h, unsigned q,
		      const struct dfz_desc *d)
{
	struct dfz__dropin_printer *pr = ctx;
	char ext[48], loc[48], req[32];
	const char *dst = loc, *src = ext;
	uint32_t dst_stride = d->loc_stride, src_stride = d->ext_stride;

	(void)h;
	req_at(pr, q, req, sizeof(req));
	ext_at(pr, d->ext_off, ext, sizeof(ext));
	loc_at(pr, d->loc_off, loc, sizeof(loc));
	if (!d->ext2loc) {
		dst = ext, src = loc;
		dst_stride = d->ext_stride, src_stride = d->loc_stride;
	}
	if (d->is_2d)
		dfz__emit_line(pr->f, 1, "%s = snrt_dma_start_2d(%s, %s, %u, "
			       "%u, %u, %u);", req, dst, src, d->length,
			       dst_stride, src_stride, d->size / d->length);
	else
		dfz__emit_line(pr->f, 1, "%s = snrt_dma_start_1d(%s, %s, %u);",
			       req, dst, src, d->size);
	return 0;
}

/* The 1-byte copy between the handle's scratch bytes that makes the
 * copy's id resolve; nobody waits for it. */
static int idma_dummy(void *ctx, struct dfz_handle *h)
{
	struct dfz__dropin_printer *pr = ctx;

	(void)h;
	dfz__emit_line(pr->f, 1, "snrt_dma_start_1d(scr%u[%u][%u][1], "
		       "scr%u[%u][%u][0], 1);", pr->hop, pr->ref.scope,
		       pr->ref.idx, pr->hop, pr->ref.scope, pr->ref.idx);
	return 0;
}

static int idma_wait(void *ctx, struct dfz_handle *h, unsigned q)
{
	(void)h;
	return req_line(ctx, q, "snrt_dma_wait(%s);");
}

static const struct dfz_xfer_ops idma_calls = {
	.issue = idma_start,
	.dummy = idma_dummy,
	.wait = idma_wait,
};

/* -------------------------------------------------------------- lookup */

const struct dfz_xfer_ops *dfz__dropin_calls(unsigned engine)
{
	switch (engine) {
	case DFZ_ENGINE_RAM:
		return &ram_calls;
	case DFZ_ENGINE_MCHAN:
		return &mchan_calls;
	case DFZ_ENGINE_IDMA:
		return &idma_calls;
	default:
		return NULL;
	}
}

const char *dfz__dropin_req_type(unsigned engine)
{
	switch (engine) {
	case DFZ_ENGINE_RAM:
		return "pi_cl_ram_req_t";
	case DFZ_ENGINE_MCHAN: /* the ids of the request's groups */
		return "struct { int n, id[16]; }";
	case DFZ_ENGINE_IDMA:
		return "snrt_dma_txid_t";
	default:
		return NULL;
	}
}
