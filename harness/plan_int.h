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

/*
 * Handles one node may hold at once on a hop, over every waiting strategy
 * and bug switch; each has up to DFZ_MAX_POOL requests. The executor must
 * not use more. A scope holds at most DFZ_TILE_RING (the fresh strategy),
 * and req-escape opens a second one per loop iteration while the node's
 * is still held (tile_walk.c, iter_begin()): two scopes, as the runtime's
 * own bound dfz_prog_local_bytes() counts them.
 */
#define DFZ_PLAN_MAX_HANDLES (2u * DFZ_TILE_RING)

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

/*
 * Longest byte stream any plan encodes to: an api plan of 64 copy calls
 * with 16 rank-5 tensors drawn uniformly takes 944 bytes (check_plan_host.c
 * encodes it); an xfer plan at most about 210.
 */
#define DFZ_PLAN_MAX_STREAM 1024u

/* At most this many pushes per xfer plan (dfz__plan_xfer_work()): each
 * fuzz execution stays small. The shipped corpus needs at most 108. */
#define DFZ_PLAN_XFER_WORK 128u
#define DFZ_PLAN_XFER_STEPS 128u
/* The hard limits of a plan run as written (DFZ_CAPS_NONE). */
#define DFZ_PLAN_XFER_WORK_HARD (1u << 16)
#define DFZ_PLAN_XFER_STEPS_HARD (1u << 16)

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
	struct dfz_choice_span *spans; /* reading: when set, where each draw
				 * that read bytes took them (the recording
				 * hook of the shrinker); NULL normally */
	unsigned nspans;        /* draws recorded (may exceed @maxspans:
				 * only the first @maxspans are stored) */
	unsigned maxspans;      /* room in @spans */
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

/*
 * dfz__plan_visit_as() - the same walk without the family draw: @dst gets
 * family @family (at most DFZ_FAMILY_COUNT - 1, as the draw would clamp
 * it) and that family's fields. dfz__plan_visit() is the family draw
 * followed by this walk.
 */
void dfz__plan_visit_as(struct dfz_choice *c, unsigned family,
			const struct dfz_plan *src, struct dfz_plan *dst);

/* dfz__plan_visit_host() - the walk of the host and api families (the
 * family of @dst, already set); plan_host.c. */
void dfz__plan_visit_host(struct dfz_choice *c, const struct dfz_plan *src,
			  struct dfz_plan *dst);

/* dfz__plan_clamp() - enforce the caps of @p's family (for xfer the tensor
 * caps and the local fit of every hop); idempotent. */
void dfz__plan_clamp(struct dfz_plan *p);

/* dfz__plan_decode_caps() - dfz_plan_decode() clamping under @caps. */
void dfz__plan_decode_caps(const uint8_t *buf, size_t n, unsigned caps,
			   struct dfz_plan *out);

/* dfz__plan_clamp_host() - the caps of a host or api plan (plan_host.c):
 * tensor bytes, total bytes; for host the launches and the budget (raised
 * to dfz__plan_host_need()), for api the budget raised to the children's
 * bytes only. */
void dfz__plan_clamp_host(struct dfz_plan *p);

/*
 * dfz__plan_halve_largest() - halve the largest of @v[0..n) (ties: the
 * lowest index) when it exceeds @floor. Return: false when every entry
 * was already at most @floor.
 */
bool dfz__plan_halve_largest(uint32_t *v, unsigned n, uint32_t floor);

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

/*
 * dfz__plan_xfer_work() - the pushes @x makes, counted from above: per
 * node and hop, its tiles times the pushes of an interior tile's transfers
 * (dfz_xfer_calls(), doubled on idma for the dummy copies). Edge tiles
 * decompose into no more. The decoder keeps it at most DFZ_PLAN_XFER_WORK.
 */
uint64_t dfz__plan_xfer_work(const struct dfz_plan_xfer *x);

/*
 * dfz__plan_xfer_bytes() - the bytes @x moves: every tensor of every node
 * once per hop (edge tiles included, padding not). At the plan's bandwidth
 * they take this over the bandwidth in engine steps, each a few events;
 * the decoder raises the bandwidth until they take at most
 * DFZ_PLAN_XFER_STEPS.
 */
uint64_t dfz__plan_xfer_bytes(const struct dfz_plan_xfer *x);

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

/* ------------------------------------------- host and api plans (formulas) */

/* The api calls a plan draws, in the order of their draw index. */
#define DFZ_PLAN_HOST_OPS 8u
/* dfz__plan_host_ops() - the DFZ_PLAN_HOST_OPS ops, by draw index. */
const uint8_t *dfz__plan_host_ops(void);

/* The fields of a call an op uses (the others are 0). */
enum dfz__call_field {
	DFZ_CALL_SLOT = 1u << 0,
	DFZ_CALL_SIZE = 1u << 1,
	DFZ_CALL_OFFSET = 1u << 2,
	DFZ_CALL_REPEAT = 1u << 3,
};

/* dfz__plan_call_fields() - the DFZ_CALL_* fields @op uses; 0 for an op
 * a plan does not draw. */
unsigned dfz__plan_call_fields(unsigned op);

/* dfz__plan_fault_has_arg() - true when @fault on a call of @op applies
 * to one argument (the call's arg): an init argument fault. */
bool dfz__plan_fault_has_arg(unsigned op, unsigned fault);

/* dfz__plan_dtype_size() - bytes of one element of @dtype; 0 when out of
 * range (the plan layer's own table: see dfz_dtype_size()). */
unsigned dfz__plan_dtype_size(unsigned dtype);

/* dfz__plan_host_tensor_bytes() - bytes of @t: the product of its first
 * rank dims times its element size, saturated at UINT64_MAX. */
uint64_t dfz__plan_host_tensor_bytes(const struct dfz_plan_tensor *t);

/* dfz__plan_host_total() - bytes of the first ntensors tensors of @h. */
uint64_t dfz__plan_host_total(const struct dfz_plan_host *h);

/* dfz__plan_host_children() - bytes of the child tensors of @h: what the
 * harness stages on the device before a host or api program starts. */
uint64_t dfz__plan_host_children(const struct dfz_plan_host *h);

/*
 * dfz__plan_host_need() - the device bytes a host plan needs to run
 * cleanly: every tensor (the children staged before init, the others by
 * init), the graph buffer (the first OUT tensor's bytes, when graph is set
 * and an OUT tensor exists) and one kernel image of bin_size bytes.
 */
uint64_t dfz__plan_host_need(const struct dfz_plan_host *h);

/* The most work of a host plan: its launches times its total tensor bytes,
 * a launch counted as at least DFZ_PLAN_LAUNCH_BYTES (its fixed cost):
 * about 100 us of a run at most. */
#define DFZ_PLAN_HOST_WORK (1u << 16)
#define DFZ_PLAN_LAUNCH_BYTES 256u

/* The name tables of the values of the text form, indexed by value. */
enum dfz__name_table {
	DFZ_NAMES_FAMILY,
	DFZ_NAMES_KERNEL,
	DFZ_NAMES_ENGINE,
	DFZ_NAMES_LEVEL,
	DFZ_NAMES_BUFFERING,          /* single, double */
	DFZ_NAMES_POLICY,
	DFZ_NAMES_STRATEGY,
	DFZ_NAMES_DB_ORDER,
	DFZ_NAMES_DTYPE,
	DFZ_NAMES_ROLE,
	DFZ_NAMES_OP,                 /* by draw index (dfz__plan_host_ops()) */
	DFZ_NAMES_FAULT,
	DFZ_NAMES_COUNT
};

/* dfz__names() - table @t and its size in @n (the tables are file-static
 * in plan_print.c: the library exports no variables). */
const char *const *dfz__names(enum dfz__name_table t, unsigned *n);
/* dfz__plan_name() - the name of @v in table @t, or "?" when out of range. */
const char *dfz__plan_name(enum dfz__name_table t, unsigned v);

/* The most dfz__plan_resident_bytes() may be for tensors in L2. */
#define DFZ_PLAN_L2_TENSORS (DFZ_CAP_L2 - 1024u)

/* dfz__plan_same() - strict field-wise equality (no normalisation). */
bool dfz__plan_same(const struct dfz_plan *a, const struct dfz_plan *b);
/* dfz__plan_host_same() - the same for the host part of a plan. */
bool dfz__plan_host_same(const struct dfz_plan_host *a,
			 const struct dfz_plan_host *b);

/* ------------------------------------------------ the field description */

/*
 * The fields of a plan, described once (plan_fields.c), in the order of
 * the text form: printing, parsing and strict equality are derived from
 * these tables. The choice stream is the walk dfz__plan_visit(), whose
 * order is the byte format. check_plan_fields.c checks that the tables
 * cover every byte of the plan's structs, and that every field, changed
 * in a plan, survives the walk (encode, decode) and is noticed by
 * equality, by the printed text and by parse(print).
 */
enum dfz__fkind {
	DFZ_FK_NUM,           /* numbers in [lo, hi]; hi 0: the dim cap */
	DFZ_FK_NAME,          /* a name of table @names; stores index + lo */
	DFZ_FK_POW2,          /* 2^lo..2^hi, stored as is */
	DFZ_FK_LOG2,          /* 2^lo..2^hi, stored as its log2 */
	DFZ_FK_ORDER,         /* a permutation of 0..rank-1 */
	DFZ_FK_FLAG,          /* a bare word (inline parts): 1 when given */
	DFZ_FK_OP,            /* an api op, named by its draw index */
	DFZ_FK_PART,          /* an array of @sub parts, @count_off long */
	DFZ_FK_HIDDEN,        /* not in the text (a count): compared only */
};

/* How many values a field has. */
enum dfz__flen {
	DFZ_LEN_ONE,
	DFZ_LEN_RANK,         /* the xfer plan's rank */
	DFZ_LEN_COUNT,        /* the uint8_t at @count_off of the same part */
};

/* Field flags. */
#define DFZ_FF_FIRST 1u   /* read in the parser's first pass */
#define DFZ_FF_CHECKED 2u /* derived from other fields: parsed, checked */
#define DFZ_FF_ANY 4u     /* may be given where it is not printed */

/* Where a field is: the plan, the part holding it and its index there. */
struct dfz__fctx {
	const struct dfz_plan *p;
	const void *part;         /* the struct the field's offset is in */
	unsigned i;               /* index of @part in its array; 0 */
};

struct dfz__part;

struct dfz__field {
	const char *key;          /* text key (after the part's prefix);
				   * NULL: printed as its value alone */
	uint16_t off;             /* of the member in its part */
	uint16_t count_off;       /* DFZ_LEN_COUNT, DFZ_FK_PART: the count */
	uint8_t width;            /* bytes of one value: 1 or 4 */
	uint8_t cap;              /* values (parts) the member holds */
	uint8_t kind;             /* enum dfz__fkind */
	uint8_t len;              /* enum dfz__flen */
	uint8_t names;            /* DFZ_FK_NAME: enum dfz__name_table */
	uint8_t flags;            /* DFZ_FF_* */
	uint32_t lo, hi;          /* range of a value as stored */
	/* Printed (and allowed in the text) only when true; NULL: always. */
	bool (*is_shown)(const struct dfz__fctx *c);
	/* A comment printed after the field's line; NULL: none. */
	void (*note)(FILE *f, const struct dfz__fctx *c);
	const struct dfz__part *sub; /* DFZ_FK_PART */
};

/* A struct of fields: the root of a family, or an element of an array. */
struct dfz__part {
	const char *prefix;       /* "node", "hop", "t", "call"; "" */
	const struct dfz__field *f;
	unsigned n;               /* fields in @f */
	size_t size;              /* of one element */
	bool inline_fields;       /* one line per element: "prefixK f v..." */
	bool indexed;             /* the prefix carries the index */
	/* Inline parts: a comment at the end of the line; NULL: none. */
	void (*note)(FILE *f, const struct dfz__fctx *c);
};

/* The roots: an xfer plan's part (struct dfz_plan_xfer), a host or api
 * plan's (struct dfz_plan_host). */
const struct dfz__part *dfz__part_xfer(void);
const struct dfz__part *dfz__part_host(void);

/* dfz__field_count() - values field @fd has at @c (rank, a count, 1). */
unsigned dfz__field_count(const struct dfz__field *fd,
			  const struct dfz__fctx *c);
/* dfz__field_get() - value @j of field @fd of part @part. */
uint32_t dfz__field_get(const struct dfz__field *fd, const void *part,
			unsigned j);
/* dfz__field_set() - value @j of field @fd of part @part to @v. */
void dfz__field_set(const struct dfz__field *fd, void *part, unsigned j,
		    uint32_t v);
/* dfz__field_is_shown() - @fd is printed at @c. */
bool dfz__field_is_shown(const struct dfz__field *fd,
			 const struct dfz__fctx *c);
/* dfz__part_find() - the index in @pt of the field with text key @key
 * (not an array, not positional), or -1. */
int dfz__part_find(const struct dfz__part *pt, const char *key);
/* dfz__part_print() - the lines of part @pt of plan @p at @base. */
void dfz__part_print(FILE *f, const struct dfz__part *pt,
		     const struct dfz_plan *p, const void *base);
/* dfz__part_same() - every field of @pt the same in @a and @b (strict:
 * every value a member holds, shown or not). */
bool dfz__part_same(const struct dfz__part *pt, const void *a, const void *b);

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
/* Start reading @text (NULL reads as empty) from its first line. */
void dfz__lex_rewind(struct dfz__lex *s, const char *text);
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
/* One value among the names of table @t: its index in @v. */
int dfz__lex_name(struct dfz__lex *s, enum dfz__name_table t, uint32_t *v);
/* Token @i (1-based) among the names of table @t, its index in @v; an
 * error names the value as @label. */
int dfz__lex_name_at(struct dfz__lex *s, unsigned i, const char *label,
		     enum dfz__name_table t, uint32_t *v);
/* A permutation of 0..rank-1; paddings of 0..DFZ_CAP_PAD per dim. */
int dfz__lex_order(struct dfz__lex *s, unsigned rank, uint8_t *order);
int dfz__lex_pad(struct dfz__lex *s, unsigned rank, uint8_t *pad);

/*
 * dfz__lex_family() - the family of the plan in @s's text (from its
 * `family` line, which may stand anywhere; xfer without one). Reads the
 * whole text: a bad or repeated `family` line, or a line too long, fails.
 */
int dfz__lex_family(struct dfz__lex *s, unsigned *family);

/* ---------------------------------------------------- text form, by family */

/* dfz__plan_is_xfer_key() - true when @k is a key of the xfer text form
 * (plan_text.c); `family` and `seed` are keys of every family. */
bool dfz__plan_is_xfer_key(const char *k);
/* dfz__plan_is_host_key() - the same for the host and api forms. */
bool dfz__plan_is_host_key(const char *k);

/* dfz__plan_parse_host() - dfz_plan_parse() of a host or api plan
 * (plan_host_text.c); @family is the one its `family` line names. */
int dfz__plan_parse_host(const char *text, unsigned family,
			 struct dfz_plan *out, char *err, size_t errlen);

/** dfz__plan_dim_cap() - the element cap of one dim of @x's shape. */
static inline uint32_t dfz__plan_dim_cap(const struct dfz_plan_xfer *x)
{
	return x->rank == 1 ? DFZ_CAP_DIM_1D : DFZ_CAP_DIM;
}

#endif /* DMAFUZZ_PLAN_INT_H */
