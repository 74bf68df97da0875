/* SPDX-License-Identifier: MIT */
/*
 * Private plan interfaces, shared by the plan files of harness/ and by the
 * executor: the choice stream (reading fuzz bytes, and writing the bytes that
 * read back as a given plan), the one field walker that both the decoder and
 * the encoder run, the clamps, and the size formulas the clamps enforce.
 */
#ifndef DMAFUZZ_PLAN_INT_H
#define DMAFUZZ_PLAN_INT_H

#include "dmafuzz/plan.h"

/*
 * Upper bound of one engine request's storage, as the local-fit clamp
 * counts it. The runtime's request (struct dfz_ram_req, and the req_size of
 * every engine) must not exceed it, or a clamped plan may not fit its local
 * level; plan_decode.c static-asserts it for the ram request.
 */
#define DFZ_PLAN_REQ_BYTES 64u

/* Handles one node may hold at once, over every waiting strategy; each has
 * up to DFZ_MAX_POOL requests. The executor must not use more. */
#define DFZ_PLAN_MAX_HANDLES 8u

/* Smallest local_size a plan draws (the clamp may raise it). */
#define DFZ_PLAN_LOCAL_MIN 1024u

/* Slack the executor may use on top of its buffers and requests. */
#define DFZ_PLAN_LOCAL_SLACK 64u

/* Longest byte stream any plan encodes to (the worst case is 180). */
#define DFZ_PLAN_MAX_STREAM 256u

/* Most candidates take_size() can offer: lo, lo+1, hi-1, hi and three per
 * power of two. */
#define DFZ_CHOICE_MAX_SIZES (4u + 3u * 32u)

/*
 * struct dfz_choice - a choice stream, read (decoding) or written
 * (encoding). Writing never allocates: a plan's stream is bounded.
 */
struct dfz_choice {
	const uint8_t *in;      /* reading: the bytes (borrowed) */
	size_t n;               /* reading: bytes in @in */
	size_t pos;             /* reading: next unread byte */
	bool writing;           /* true: draws emit instead of take */
	bool overflow;          /* writing: @out was too small (a bug) */
	size_t len;             /* writing: bytes in @out */
	size_t keep;            /* writing: end of the last draw that wrote a
				 * nonzero byte; the rest reads back as lo */
	uint8_t out[DFZ_PLAN_MAX_STREAM];
};

void dfz__choice_reader(struct dfz_choice *c, const uint8_t *buf, size_t n);
void dfz__choice_writer(struct dfz_choice *c);

/* take(lo, hi): a value in [lo, hi]; lo once the bytes run out. */
uint32_t dfz__choice_take(struct dfz_choice *c, uint32_t lo, uint32_t hi);
/* take_size(lo, hi): as take, favouring boundaries and powers of two. */
uint32_t dfz__choice_take_size(struct dfz_choice *c, uint32_t lo, uint32_t hi);
/* The emitters: write the bytes that take / take_size read back as @v
 * (@v must lie in [lo, hi]). */
void dfz__choice_emit(struct dfz_choice *c, uint32_t lo, uint32_t hi,
		      uint32_t v);
void dfz__choice_emit_size(struct dfz_choice *c, uint32_t lo, uint32_t hi,
			   uint32_t v);

/*
 * draw(lo, hi, v): the one call the field walker makes. Reading: take(lo,
 * hi), @v ignored. Writing: @v clamped to [lo, hi], emitted, and returned.
 */
uint32_t dfz__choice_draw(struct dfz_choice *c, uint32_t lo, uint32_t hi,
			  uint32_t v);
uint32_t dfz__choice_draw_size(struct dfz_choice *c, uint32_t lo, uint32_t hi,
			       uint32_t v);

/* The sorted, unique candidates of take_size(lo, hi); returns how many. */
unsigned dfz__choice_sizes(uint32_t lo, uint32_t hi,
			   uint32_t cand[DFZ_CHOICE_MAX_SIZES]);

/*
 * dfz__plan_visit() - walk every field of a plan in stream order (this walk
 * IS the byte format). Each field of @dst is drawn from @c; when @c is
 * writing, the value drawn is @src's field (clamped to its range). Fields
 * not drawn get their canonical value (zero, identity order, pool 1).
 * @src, @dst: borrowed; they must not overlap. @dst is filled completely.
 */
void dfz__plan_visit(struct dfz_choice *c, const struct dfz_plan *src,
		     struct dfz_plan *dst);

/* dfz__plan_clamp() - enforce the tensor cap and the local fit; idempotent. */
void dfz__plan_clamp(struct dfz_plan *p);

/*
 * dfz__plan_tensor_bytes() - padded bytes of a tensor of @x in layout @l:
 * the product of (shape[d] + pad[d]) times elem, saturated at UINT32_MAX.
 */
uint32_t dfz__plan_tensor_bytes(const struct dfz_plan_xfer *x,
				const struct dfz_plan_layout *l);

/*
 * dfz__plan_node_need() - local bytes node @i needs: nbuf buffers of one
 * tile, DFZ_PLAN_MAX_HANDLES handles of DFZ_MAX_POOL requests, each with
 * redzones, plus DFZ_PLAN_LOCAL_SLACK; nbuf = buffering * (2 + (kernel ==
 * add)). Saturates at SIZE_MAX.
 */
size_t dfz__plan_node_need(const struct dfz_plan_xfer *x, unsigned i);

/* dfz__plan_local_need() - the largest dfz__plan_node_need() of @x. */
size_t dfz__plan_local_need(const struct dfz_plan_xfer *x);

/* dfz__plan_same() - strict field-wise equality (no normalisation). */
bool dfz__plan_same(const struct dfz_plan *a, const struct dfz_plan *b);

#endif /* DMAFUZZ_PLAN_INT_H */
