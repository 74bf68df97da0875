/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz plans: the full description of one run.
 *
 * Fuzz bytes are decoded as a choice stream: every field is drawn by
 * take(lo, hi) from the next bytes, and when the bytes run out every draw
 * returns its simplest value. The first draw is the family (xfer, the
 * simplest, then host and api); the rest depends on it. The decoder is
 * total: any byte string is a valid plan, and plans over a cap are
 * clamped, never rejected. The text form (.plan, `key value` lines, `#`
 * comments) is what people read and write; encode(parse(print(decode(b))))
 * decodes to the same plan.
 */
#ifndef DMAFUZZ_PLAN_H
#define DMAFUZZ_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dmafuzz/runtime.h"

/* The plan families: enumerator suffix, name (plan text, CLI, targets). */
#define DFZ_FAMILY_MAP(X) X(XFER, "xfer") X(HOST, "host") X(API, "api")

enum dfz_family {
#define DFZ_FAMILY_ENUM(id, name) DFZ_FAMILY_##id,
	DFZ_FAMILY_MAP(DFZ_FAMILY_ENUM)
#undef DFZ_FAMILY_ENUM
	DFZ_FAMILY_COUNT
};

/** dfz_family_name() - the name of family @f; NULL when out of range. */
const char *dfz_family_name(unsigned f);

/** dfz_family_of() - the enum dfz_family named @name, or -1. */
int dfz_family_of(const char *name);

#define DFZ_MAX_SCHED 32

/*
 * Caps: a plan over them is clamped by the decoder. The tensor byte cap is
 * drawn per plan as a size class, 2^k bytes for k in
 * DFZ_TENSOR_CLASS_MIN..DFZ_TENSOR_CLASS_MAX, mostly small: big tensors
 * (and a single 2^17-byte transfer) are possible but rare.
 */
#define DFZ_TENSOR_CLASS_MIN 10u
#define DFZ_TENSOR_CLASS_MAX 18u
#define DFZ_CAP_TENSOR_BYTES (1u << DFZ_TENSOR_CLASS_MAX) /* of any plan */
#define DFZ_CAP_DIM 4096u                 /* elements of one dim */
#define DFZ_CAP_DIM_1D (1u << 18)         /* the one dim of a rank-1 plan,
					   * so any 1-D transfer length up to
					   * the tensor cap is spelled */
#define DFZ_CAP_PAD 3u                    /* padding elements per dim */
#define DFZ_CAP_LATENCY 16u
#define DFZ_CAP_BANDWIDTH 4096u
#define DFZ_CAP_SCHED_STEPS 15u

/* Physical layout of a tensor over the plan's logical shape. */
struct dfz_plan_layout {
	uint8_t order[DFZ_MAX_RANK]; /* physical dim order, outermost first:
				      * a permutation of 0..rank-1 */
	uint8_t pad[DFZ_MAX_RANK];   /* padding elements after each logical dim */
};

struct dfz_plan_node {
	uint8_t kernel;                  /* enum dfz_kernel */
	struct dfz_plan_layout out;      /* this node's output tensor */
	struct dfz_plan_layout aux;      /* second input (DFZ_KERNEL_ADD) */
	/* Tile extents per hop: hop 0 in 1..shape[d] (1 when shape[d] is 0),
	 * hop 1 in 1..tile[0][d] (two-hop plans; else 0). */
	uint32_t tile[DFZ_MAX_HOPS][DFZ_MAX_RANK];
};

/* One hop: the engine that moves its tiles and how generated code uses it. */
struct dfz_plan_hop {
	uint8_t engine;                  /* enum dfz_engine_id */
	uint8_t buffering;               /* 1 or 2 */
	uint8_t policy;                  /* enum dfz_policy */
	uint8_t pool_k;                  /* 1..DFZ_MAX_POOL (1 unless pool) */
	uint8_t strategy;                /* enum dfz_strategy */
	uint8_t db_order;                /* enum dfz_db_order: drawn, and
					  * printed, for double buffering */
};

/*
 * The xfer family: a tiled chain of copy-like nodes on one hop (L3<->L2 on
 * ram, or L2<->L1 on mchan or idma with the tensors in L2) or on two nested
 * hops (L3->L2 on ram, then L2->L1 on mchan or idma inside each hop-0
 * tile). Hop h's tiles live in level ext_level + 1 + h.
 */
struct dfz_plan_xfer {
	uint8_t rank;                    /* 1..DFZ_MAX_RANK */
	uint8_t elem;                    /* 1, 2, 4 or 8 */
	uint32_t shape[DFZ_MAX_RANK];    /* 0..DFZ_CAP_DIM (rank 1:
					  * DFZ_CAP_DIM_1D); 0 is legal */
	uint8_t tensor_class;            /* tensor byte cap 2^tensor_class */
	struct dfz_plan_layout in;       /* layout of the program input */
	uint8_t nhops;                   /* 1 or 2 */
	uint8_t ext_level;               /* where the tensors live: DFZ_L3, or
					  * DFZ_L2 for a one-hop L2<->L1 plan
					  * (derived from the hops) */
	struct dfz_plan_hop hop[DFZ_MAX_HOPS]; /* hop 1: two-hop plans only */
	uint8_t nnodes;                  /* 1..DFZ_MAX_NODES */
	struct dfz_plan_node node[DFZ_MAX_NODES];
	uint32_t l2_size;                /* usable L2 bytes when tiles live in
					  * L2; 0 (the cap) otherwise */
	uint32_t l1_size;                /* usable L1 bytes when tiles live in
					  * L1; 0 (the cap) otherwise */
	uint8_t compute_chunks;          /* 1..8 */
	uint32_t latency;                /* 0..DFZ_CAP_LATENCY */
	uint32_t bandwidth;              /* 1..DFZ_CAP_BANDWIDTH */
	uint8_t nsched;                  /* 0..DFZ_MAX_SCHED; 0: no steps */
	uint8_t sched[DFZ_MAX_SCHED];    /* steps per yield, cycled */
	uint32_t seed;                   /* input data fill */
};

/* Caps of the host and api families. */
#define DFZ_CAP_LAUNCHES 256u            /* launches of a host plan */
#define DFZ_HOST_BUDGET_MIN 4096u        /* device budget range */
#define DFZ_CAP_BIN (64u << 10)          /* kernel binary bytes */
#define DFZ_CAP_HOST_DIM 256u            /* elements of one tensor dim */
#define DFZ_CAP_HOST_TOTAL (256u << 10)  /* bytes of all tensors of a plan */
#define DFZ_CAP_API_REPEAT 4u            /* launches of one api RUN call */

/* One tensor of a host or api plan. */
struct dfz_plan_tensor {
	uint8_t rank;                    /* 1..DFZ_MAX_RANK */
	uint32_t shape[DFZ_MAX_RANK];    /* 1..DFZ_CAP_HOST_DIM */
	uint8_t dtype;                   /* enum dfz_dtype */
	uint8_t role;                    /* enum dfz_role */
	uint8_t child;                   /* 1: staged on the device beforehand */
};

/*
 * The host family: tensors staged by the host runtime, then one init,
 * `launches` kernel launches, validate and finalize (DESIGN 3.8). The api
 * family: the same tensors and kernel, then a sequence of calls with valid
 * and invalid arguments (ncalls may be 0).
 */
struct dfz_plan_host {
	uint8_t ntensors;                /* 1..DFZ_HOST_MAX_ARGS */
	struct dfz_plan_tensor t[DFZ_HOST_MAX_ARGS];
	uint8_t graph;                   /* a packed graph output: 0 or 1 */
	uint32_t launches;               /* host: 1..DFZ_CAP_LAUNCHES */
	uint32_t budget;                 /* DFZ_HOST_BUDGET_MIN..
					  * DFZ_CAP_DEV_BUDGET */
	uint32_t bin_size;               /* 1..DFZ_CAP_BIN */
	uint8_t ncalls;                  /* api: 0..DFZ_HOST_MAX_CALLS */
	struct dfz_host_call call[DFZ_HOST_MAX_CALLS]; /* api only */
	uint32_t seed;                   /* tensor and binary fill */
};

/*
 * enum dfz_caps - how an xfer plan is clamped. The fuzz caps keep each
 * fuzz execution small (the decoder applies them to every choice stream);
 * a plan a person wrote is a specification and runs as written, up to the
 * hard limits (tensors of DFZ_CAP_TENSOR_BYTES, a level's cap, 65536
 * engine pushes): dfz_plan_parse() marks text plans DFZ_CAPS_NONE.
 */
enum dfz_caps {
	DFZ_CAPS_FUZZ,
	DFZ_CAPS_NONE,
	DFZ_CAPS_COUNT
};

struct dfz_plan {
	uint8_t family;                  /* enum dfz_family */
	uint8_t caps;                    /* enum dfz_caps (not encoded: a
					  * choice stream is always fuzz) */
	struct dfz_plan_xfer xfer;       /* DFZ_FAMILY_XFER */
	struct dfz_plan_host host;       /* DFZ_FAMILY_HOST and _API */
};

/**
 * dfz_plan_decode() - decode @n bytes of @buf as a choice stream.
 * @buf: borrowed; may be NULL when @n is 0. @out: filled completely.
 * Never fails: the decoder is total and clamps every cap.
 */
void dfz_plan_decode(const uint8_t *buf, size_t n, struct dfz_plan *out);

/**
 * dfz_plan_clamped() - describe, in @out (NUL-terminated, cut at @n), the
 * fields that normalising @p under its caps changes, as
 * "KEY OLD -> NEW; ..." ("" when none: the plan runs as written). A level
 * size that grows to hold the plan's tiles is not a change.
 * Return: the number of fields changed, or a negative DFZ_E* code.
 */
int dfz_plan_clamped(const struct dfz_plan *p, char *out, size_t n);

/**
 * dfz_plan_encode() - the choice stream that decodes to @p (after the
 * decoder's clamping, so decode(encode(p)) == normalise(p)).
 * @buf: out, caller owns; release with free().
 * Return: 0 or DFZ_ENOMEM.
 */
int dfz_plan_encode(const struct dfz_plan *p, uint8_t **buf, size_t *n);

/**
 * dfz_plan_decode_as() - decode @n bytes of @buf as the choice stream of a
 * plan of family @family, without the family draw (for fuzz targets of
 * one family). A family out of range reads as the last one (the
 * encoder clamps it so too).
 * @buf: borrowed; may be NULL when @n is 0. @out: filled completely.
 * Never fails, as dfz_plan_decode().
 */
void dfz_plan_decode_as(unsigned family, const uint8_t *buf, size_t n,
			struct dfz_plan *out);

/* struct dfz_choice_span - where one draw of a read stream took its bytes
 * (a size draw is two spans: its mode byte, then its value). */
struct dfz_choice_span {
	uint32_t off;           /* first byte in the stream */
	uint32_t len;           /* bytes read, 1..4 */
};

/**
 * dfz_plan_spans() - decode @n bytes of @buf as the bare stream of a plan
 * of @family (as dfz_plan_decode_as()) and record where each draw took its
 * bytes, in stream order, into @spans (room for @max; borrowed): the
 * choices a shrinker edits one at a time.
 * Return: the number of draws that read bytes (more than @max when @spans
 * was too small: only the first @max are stored).
 */
unsigned dfz_plan_spans(unsigned family, const uint8_t *buf, size_t n,
			struct dfz_choice_span *spans, unsigned max);

/**
 * dfz_plan_encode_as() - the stream of dfz_plan_encode() without the
 * family draw: dfz_plan_decode_as(p->family, ...) reads it back as
 * normalise(@p).
 * @buf: out, caller owns; release with free().
 * Return: 0 or DFZ_ENOMEM.
 */
int dfz_plan_encode_as(const struct dfz_plan *p, uint8_t **buf, size_t *n);

/** dfz_plan_normalise() - decode(encode(@p)) in place: clamp to the caps. */
int dfz_plan_normalise(struct dfz_plan *p);

/** dfz_plan_print() - write @p in the text form to @f. */
void dfz_plan_print(const struct dfz_plan *p, FILE *f);

/**
 * dfz_plan_text() - @p in the text form, as dfz_plan_print() writes it.
 * Return: a NUL-terminated string the caller frees, or NULL when out of
 * memory.
 */
char *dfz_plan_text(const struct dfz_plan *p);

/**
 * dfz_plan_parse() - parse the text form.
 * @text: borrowed, NUL-terminated. Keys not given keep the simplest value.
 * @err: out, a one-line message on failure ("line 3: unknown key 'x'").
 * Return: 0, or DFZ_EINVAL on bad input (@out unspecified).
 */
int dfz_plan_parse(const char *text, struct dfz_plan *out, char *err,
		   size_t errlen);

/** dfz_plan_equal() - true when @a and @b describe the same run. */
bool dfz_plan_equal(const struct dfz_plan *a, const struct dfz_plan *b);

/**
 * dfz_plan_hop_level() - the level hop @h of @x keeps its tiles in
 * (ext_level + 1 + h), or DFZ_NLEVELS when @x has no hop @h.
 */
unsigned dfz_plan_hop_level(const struct dfz_plan_xfer *x, unsigned h);

/**
 * dfz_plan_tensor_cap() - the tensor byte cap of @x (2^tensor_class, the
 * class clamped to its range).
 */
uint32_t dfz_plan_tensor_cap(const struct dfz_plan_xfer *x);

#endif /* DMAFUZZ_PLAN_H */
