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

/* Smallest local size (l2_size, l1_size) a plan draws (the clamp may
 * raise it). */
#define DFZ_PLAN_LOCAL_MIN 1024u

/* Slack the executor may use on top of its buffers and requests, per hop. */
#define DFZ_PLAN_LOCAL_SLACK 64u

/* Scratch the adapter keeps in L2 and in L1 for an engine whose completed
 * id lags (idma: the dummy transfer's bytes, one per handle and level,
 * with redzones): a generous bound per level, counted in every local
 * level of a plan with an idma hop. */
#define DFZ_PLAN_DUMMY_SCRATCH 1024u

/*
 * Requests per handle (pool K) on an mchan hop with double buffering: up
 * to four tile transfers are in flight there (the prefetch's in and aux,
 * two stores), each holding a TID per request, and mchan has 16 TIDs.
 * Single buffering has at most two in flight, so any K fits.
 */
#define DFZ_PLAN_MCHAN_DB_POOL (DFZ_MCHAN_NTIDS / 4u)

/* Longest byte stream any plan encodes to. */
#define DFZ_PLAN_MAX_STREAM 320u

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

/*
 * draw_weighted(w, n, v): a value in [0, n) read from one byte, value i
 * covering w[i] of the 256 byte values (w sums to 256, every w[i] > 0).
 * Writing: @v (clamped) emitted as the first byte of its share.
 */
uint32_t dfz__choice_draw_weighted(struct dfz_choice *c, const uint8_t *w,
				   unsigned n, uint32_t v);

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

/* dfz__plan_clamp() - enforce the tensor caps and the local fit of every
 * hop; idempotent. */
void dfz__plan_clamp(struct dfz_plan *p);

/*
 * dfz__plan_tensor_bytes() - padded bytes of a tensor of @x in layout @l:
 * the product of (shape[d] + pad[d]) times elem, saturated at UINT32_MAX.
 */
uint32_t dfz__plan_tensor_bytes(const struct dfz_plan_xfer *x,
				const struct dfz_plan_layout *l);

/*
 * dfz__plan_hop_need() - bytes of hop @h's local level node @i needs: nbuf
 * buffers of one hop-@h tile and DFZ_PLAN_MAX_HANDLES handles of
 * DFZ_MAX_POOL requests, each with redzones, plus DFZ_PLAN_LOCAL_SLACK
 * (and DFZ_PLAN_DUMMY_SCRATCH when a hop runs on idma); nbuf = buffering *
 * (2 + (kernel == add)). Saturates at SIZE_MAX.
 */
size_t dfz__plan_hop_need(const struct dfz_plan_xfer *x, unsigned i,
			  unsigned h);

/* dfz__plan_level_need() - the largest need of any node in @level (the
 * hop whose tiles live there), or 0 when no hop keeps tiles there. */
size_t dfz__plan_level_need(const struct dfz_plan_xfer *x, unsigned level);

/* dfz__plan_level_size() - the drawn size of @level (l2_size or l1_size);
 * 0 for L3 or a level no hop keeps tiles in. */
uint32_t dfz__plan_level_size(const struct dfz_plan_xfer *x, unsigned level);

/*
 * dfz__plan_resident_bytes() - what the tensors of @x take from their
 * level's arena (sizes rounded up, redzones): bounded for a one-hop
 * L2<->L1 plan, whose tensors live in L2.
 */
uint64_t dfz__plan_resident_bytes(const struct dfz_plan_xfer *x);

/* dfz__plan_is_level_used() - true when a hop of @x keeps tiles in @level
 * (so its size is drawn). */
bool dfz__plan_is_level_used(const struct dfz_plan_xfer *x, unsigned level);

/* Names of the values of the text form, indexed by value. */
extern const char *const dfz__family_names[DFZ_FAMILY_COUNT];
extern const char *const dfz__kernel_names[DFZ_KERNEL_COUNT];
extern const char *const dfz__engine_names[DFZ_ENGINE_COUNT];
extern const char *const dfz__level_names[DFZ_NLEVELS];
extern const char *const dfz__buffering_names[2];
extern const char *const dfz__policy_names[DFZ_POLICY_COUNT];
extern const char *const dfz__strategy_names[DFZ_STRAT_COUNT];

/* The most dfz__plan_resident_bytes() may be for tensors in L2. */
#define DFZ_PLAN_L2_TENSORS (DFZ_CAP_L2 - 1024u)

/* dfz__plan_same() - strict field-wise equality (no normalisation). */
bool dfz__plan_same(const struct dfz_plan *a, const struct dfz_plan *b);

/* ------------------------------------------------------ text-form lexer */

#define DFZ_LEX_LINE_BYTES 1024                /* of a line before `#` */
#define DFZ_LEX_MAX_TOKENS (1 + DFZ_MAX_SCHED) /* a key and its values */
#define DFZ_LEX_QUOTE_BYTES 40                 /* of a bad token, quoted */

/* struct dfz__lex - the text being read and its current line, split in
 * place into tokens (the key, then the values). */
struct dfz__lex {
	const char *pos;          /* next unread byte of the text */
	size_t lineno;            /* line in @buf, from 1 */
	char *err;                /* out: the message of a failure */
	size_t errlen;
	char buf[DFZ_LEX_LINE_BYTES + 1];
	char *tok[DFZ_LEX_MAX_TOKENS];
	unsigned ntok;            /* tokens on the line; may exceed the max */
};

/* Format "line N: ..." into the error buffer. Return: DFZ_EINVAL. */
int dfz__lex_fail(struct dfz__lex *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* @src as a printable, bounded one-line excerpt in @dst. */
const char *dfz__lex_quote(char dst[DFZ_LEX_QUOTE_BYTES + 4], const char *src);
/* Read the next line. Return: 1, 0 at the end, or DFZ_EINVAL (too long). */
int dfz__lex_next(struct dfz__lex *s);
/* Value @i (1-based token index) of the line, in [lo, hi]. */
int dfz__lex_num(struct dfz__lex *s, unsigned i, uint32_t lo, uint32_t hi,
		 uint32_t *v);
/* Exactly one value, in [lo, hi]. */
int dfz__lex_one(struct dfz__lex *s, uint32_t lo, uint32_t hi, uint32_t *v);
/* Exactly @n values, each in [lo, hi]. */
int dfz__lex_vec(struct dfz__lex *s, unsigned n, uint32_t lo, uint32_t hi,
		 uint32_t *v);
/* One value among @names: its index in @v. */
int dfz__lex_name(struct dfz__lex *s, const char *const *names, unsigned n,
		  uint32_t *v);
/* A permutation of 0..rank-1; paddings of 0..DFZ_CAP_PAD per dim. */
int dfz__lex_order(struct dfz__lex *s, unsigned rank, uint8_t *order);
int dfz__lex_pad(struct dfz__lex *s, unsigned rank, uint8_t *pad);

#endif /* DMAFUZZ_PLAN_INT_H */
