// SPDX-License-Identifier: MIT
/*
 * Tests of harness/ plans: the choice stream (take, take_size and their
 * emitters), the decoder's clamps, the encoder's round trip, and the text
 * form (print, parse, and the parser's errors on bad and random input).
 * Random inputs come from a fixed-seed xorshift, so every run is the same.
 */
#include <assert.h>
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan_int.h"

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_BYTES 300

Suite *suite_plan(void);

/* ------------------------------------------------------------- helpers */

static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* A random byte string, a quarter of its bytes zero. */
static size_t random_bytes(uint64_t *s, uint8_t *buf)
{
	size_t n = rng_next(s) % (MAX_BYTES + 1), i;

	for (i = 0; i < n; i++) {
		uint64_t r = rng_next(s);

		buf[i] = (r & 3) == 0 ? 0 : (uint8_t)(r >> 8);
	}
	return n;
}

/* The text form of @p; caller owns, release with free(). */
static char *print_to_string(const struct dfz_plan *p)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(f);
	dfz_plan_print(p, f);
	ck_assert_int_eq(fclose(f), 0);
	return text;
}

static bool is_perm(const uint8_t *order, unsigned rank)
{
	unsigned d, used = 0;

	for (d = 0; d < rank; d++)
		if (order[d] < rank)
			used |= 1u << order[d];
	for (d = rank; d < DFZ_MAX_RANK; d++)
		if (order[d] != 0)
			return false;
	return used == (1u << rank) - 1;
}

static void check_layout(const struct dfz_plan_xfer *x,
			 const struct dfz_plan_layout *l)
{
	unsigned d;

	ck_assert(is_perm(l->order, x->rank));
	for (d = 0; d < DFZ_MAX_RANK; d++)
		ck_assert_uint_le(l->pad[d], d < x->rank ? DFZ_CAP_PAD : 0);
}

static void check_node(const struct dfz_plan_xfer *x, unsigned i)
{
	const struct dfz_plan_node *n = &x->node[i];
	static const struct dfz_plan_node zero;
	unsigned d;

	if (i >= x->nnodes) {
		ck_assert(!memcmp(n, &zero, sizeof(zero)));
		return;
	}
	ck_assert_uint_lt(n->kernel, DFZ_KERNEL_COUNT);
	check_layout(x, &n->out);
	check_layout(x, &n->aux);
	for (d = 0; d < x->rank && n->kernel != DFZ_KERNEL_ADD; d++)
		ck_assert(n->aux.order[d] == d && n->aux.pad[d] == 0);
	for (d = 0; d < DFZ_MAX_RANK; d++) {
		uint32_t hi = x->shape[d] ? x->shape[d] : 1;

		if (d >= x->rank) {
			ck_assert_uint_eq(n->tile[d], 0);
			continue;
		}
		ck_assert_uint_ge(n->tile[d], 1);
		ck_assert_uint_le(n->tile[d], hi);
	}
}

/* Every field in its range, every undrawn field canonical. */
static void check_ranges(const struct dfz_plan *p)
{
	const struct dfz_plan_xfer *x = &p->xfer;
	unsigned d, i;

	ck_assert_uint_lt(p->family, DFZ_FAMILY_COUNT);
	ck_assert(x->rank >= 1 && x->rank <= DFZ_MAX_RANK);
	ck_assert(x->elem == 1 || x->elem == 2 || x->elem == 4 || x->elem == 8);
	for (d = 0; d < DFZ_MAX_RANK; d++)
		ck_assert_uint_le(x->shape[d], d < x->rank ? DFZ_CAP_DIM : 0);
	check_layout(x, &x->in);
	ck_assert(x->nnodes >= 1 && x->nnodes <= DFZ_MAX_NODES);
	for (i = 0; i < DFZ_MAX_NODES; i++)
		check_node(x, i);
	ck_assert(x->engine == DFZ_ENGINE_RAM && x->ext_level == DFZ_L3 &&
		  x->local_level == DFZ_L2);
	ck_assert(x->local_size >= 1024 && x->local_size <= DFZ_CAP_L2);
	ck_assert(x->buffering == 1 || x->buffering == 2);
	ck_assert_uint_lt(x->policy, DFZ_POLICY_COUNT);
	ck_assert(x->pool_k >= 1 && x->pool_k <= DFZ_MAX_POOL);
	ck_assert(x->policy == DFZ_POLICY_POOL || x->pool_k == 1);
	ck_assert_uint_lt(x->strategy, DFZ_STRAT_COUNT);
	ck_assert(x->compute_chunks >= 1 && x->compute_chunks <= 8);
	ck_assert_uint_le(x->latency, DFZ_CAP_LATENCY);
	ck_assert(x->bandwidth >= 1 && x->bandwidth <= DFZ_CAP_BANDWIDTH);
	ck_assert_uint_le(x->nsched, DFZ_MAX_SCHED);
	for (i = 0; i < DFZ_MAX_SCHED; i++)
		ck_assert_uint_le(x->sched[i],
				  i < x->nsched ? DFZ_CAP_SCHED_STEPS : 0);
}

/* The caps: every tensor under DFZ_CAP_TENSOR_BYTES, every node local. */
static void check_caps(const struct dfz_plan *p)
{
	const struct dfz_plan_xfer *x = &p->xfer;
	unsigned i;

	ck_assert_uint_le(dfz__plan_tensor_bytes(x, &x->in),
			  DFZ_CAP_TENSOR_BYTES);
	for (i = 0; i < x->nnodes; i++) {
		ck_assert_uint_le(dfz__plan_tensor_bytes(x, &x->node[i].out),
				  DFZ_CAP_TENSOR_BYTES);
		if (x->node[i].kernel == DFZ_KERNEL_ADD)
			ck_assert_uint_le(dfz__plan_tensor_bytes(
						  x, &x->node[i].aux),
					  DFZ_CAP_TENSOR_BYTES);
		ck_assert_uint_le(dfz__plan_node_need(x, i), x->local_size);
	}
	ck_assert_uint_le(dfz__plan_local_need(x), x->local_size);
}

/* The plan a hand-written, over-cap rank-@rank plan starts from. */
static void hand_plan(struct dfz_plan *p, unsigned rank)
{
	unsigned d;

	dfz_plan_decode(NULL, 0, p);
	p->xfer.rank = (uint8_t)rank;
	for (d = 0; d < rank; d++) {
		p->xfer.in.order[d] = (uint8_t)d;
		p->xfer.node[0].out.order[d] = (uint8_t)d;
		p->xfer.node[0].aux.order[d] = (uint8_t)d;
		p->xfer.node[0].tile[d] = 1;
	}
}

/* -------------------------------------------------------- choice stream */

struct take_case {
	uint8_t bytes[4];
	size_t n;
	uint32_t lo, hi;
	uint32_t want;
	size_t pos;          /* bytes consumed */
};

static const struct take_case take_cases[] = {
	{ { 0x19 }, 1, 10, 20, 13, 1 },                /* 10 + 25 % 11 */
	{ { 0x2c, 0x01 }, 2, 0, 300, 300, 2 },         /* two bytes, LE */
	{ { 0x2d, 0x01 }, 2, 0, 300, 0, 2 },           /* 301 % 301 */
	{ { 0x07 }, 1, 0, 300, 0, 1 },                 /* short: rest, lo */
	{ { 1, 2, 3, 4 }, 4, 0, UINT32_MAX, 0x04030201, 4 },
	{ { 1, 2, 3, 4 }, 4, 5, UINT32_MAX, 0x04030206, 4 },
	{ { 0xff, 0xff, 0xff }, 3, 0, 1u << 24, 0, 3 }, /* needs 4 bytes */
	{ { 0xff, 0xff, 0xff }, 3, 0, (1u << 24) - 1, (1u << 24) - 1, 3 },
	{ { 0xff }, 1, 7, 7, 7, 0 },                   /* hi == lo: no read */
	{ { 0xff }, 1, 9, 3, 9, 0 },                   /* hi < lo: no read */
	{ { 0 }, 0, 42, 1000, 42, 0 },                 /* exhausted */
};
static_assert(COUNT_OF(take_cases) == 11, "take_cases");

START_TEST(test_take_vectors)
{
	const struct take_case *tc = &take_cases[_i];
	struct dfz_choice c;

	dfz__choice_reader(&c, tc->bytes, tc->n);
	ck_assert_uint_eq(dfz__choice_take(&c, tc->lo, tc->hi), tc->want);
	ck_assert_uint_eq(c.pos, tc->pos);
	ck_assert_uint_eq(dfz__choice_take(&c, tc->lo, tc->hi), tc->lo);
}
END_TEST

START_TEST(test_take_exhausted)
{
	static const uint8_t one[] = { 0x80 };
	struct dfz_choice c;

	dfz__choice_reader(&c, NULL, 0);
	ck_assert_uint_eq(dfz__choice_take(&c, 5, 1000), 5);
	ck_assert_uint_eq(dfz__choice_take_size(&c, 3, 9000), 3);
	ck_assert_uint_eq(c.pos, 0);
	/* A uniform mode byte with no bytes after it still gives lo. */
	dfz__choice_reader(&c, one, sizeof(one));
	ck_assert_uint_eq(dfz__choice_take_size(&c, 3, 9000), 3);
	ck_assert_uint_eq(c.pos, 1);
	/* A candidate mode byte too. */
	dfz__choice_reader(&c, (const uint8_t[]){ 0x05 }, 1);
	ck_assert_uint_eq(dfz__choice_take_size(&c, 3, 9000), 3);
}
END_TEST

static bool has_size(const uint32_t *cand, unsigned n, uint32_t v)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (cand[i] == v)
			return true;
	return false;
}

static void check_sorted(const uint32_t *cand, unsigned n, uint32_t lo,
			 uint32_t hi)
{
	unsigned i;

	ck_assert_uint_eq(cand[0], lo);
	ck_assert_uint_eq(cand[n - 1], hi);
	for (i = 1; i < n; i++)
		ck_assert_uint_lt(cand[i - 1], cand[i]);
}

START_TEST(test_size_candidates)
{
	uint32_t cand[DFZ_CHOICE_MAX_SIZES];
	unsigned n, j;

	n = dfz__choice_sizes(0, 4096, cand);
	check_sorted(cand, n, 0, 4096);
	ck_assert_uint_eq(n, 35); /* 0..5, 3 per 2^3..2^11, 4095, 4096 */
	for (j = 0; j <= 12; j++) {
		ck_assert(has_size(cand, n, (1u << j) - 1));
		ck_assert(has_size(cand, n, 1u << j));
		ck_assert(j == 12 || has_size(cand, n, (1u << j) + 1));
	}
	ck_assert(!has_size(cand, n, 6) && !has_size(cand, n, 4097));
	n = dfz__choice_sizes(1024, DFZ_CAP_L2, cand);
	check_sorted(cand, n, 1024, DFZ_CAP_L2);
	ck_assert_uint_eq(n, 31);
	ck_assert(has_size(cand, n, 1u << 17) && !has_size(cand, n, 1023));
	n = dfz__choice_sizes(0, UINT32_MAX, cand);
	check_sorted(cand, n, 0, UINT32_MAX);
	ck_assert(has_size(cand, n, 0x80000001u) && has_size(cand, n, 0xfffffffeu));
	ck_assert_uint_le(n, DFZ_CHOICE_MAX_SIZES);
}
END_TEST

/* @v of take_size(lo, hi) is two bytes away: some candidate index. */
static void check_two_bytes(uint32_t lo, uint32_t hi, uint32_t v)
{
	struct dfz_choice c;
	uint8_t b[2] = { 0, 0 };
	unsigned i, hits = 0;

	for (i = 0; i < 256; i++) {
		b[1] = (uint8_t)i;
		dfz__choice_reader(&c, b, 2);
		hits += dfz__choice_take_size(&c, lo, hi) == v;
	}
	ck_assert_uint_ge(hits, 1);
	dfz__choice_writer(&c);
	dfz__choice_emit_size(&c, lo, hi, v);
	ck_assert_uint_eq(c.len, 2);
	dfz__choice_reader(&c, c.out, c.len);
	ck_assert_uint_eq(dfz__choice_take_size(&c, lo, hi), v);
}

START_TEST(test_size_two_bytes)
{
	static const uint8_t uni[] = { 0x80, 0x39, 0x05 };
	struct dfz_choice c;

	check_two_bytes(0, DFZ_CAP_DIM, 4096);
	check_two_bytes(0, DFZ_CAP_DIM, 4095);
	check_two_bytes(0, DFZ_CAP_DIM, 2049);
	check_two_bytes(1024, DFZ_CAP_L2, 1u << 17);
	check_two_bytes(1024, DFZ_CAP_L2, (1u << 17) + 1);
	check_two_bytes(1, DFZ_CAP_BANDWIDTH, 4096);
	/* A mode byte >= 0x80 draws uniformly: 0x0539 % 4097. */
	dfz__choice_reader(&c, uni, sizeof(uni));
	ck_assert_uint_eq(dfz__choice_take_size(&c, 0, 4096), 1337);
	ck_assert_uint_eq(c.pos, 3);
}
END_TEST

/* A random range: small, medium or full-width. */
static void random_range(uint64_t *s, uint32_t *lo, uint32_t *hi)
{
	static const uint32_t spans[] = { 0, 1, 255, 256, 65535, 65536,
					  (1u << 24) - 1, 1u << 24, UINT32_MAX };
	uint32_t span = spans[rng_next(s) % COUNT_OF(spans)];

	*lo = span == UINT32_MAX ? 0 : (uint32_t)rng_next(s) % 5000;
	*hi = *lo + (uint32_t)(rng_next(s) % ((uint64_t)span + 1));
	if (*hi < *lo)
		*hi = UINT32_MAX;
}

START_TEST(test_emit_roundtrip)
{
	uint64_t s = 0x9e3779b97f4a7c15u;
	uint32_t lo[16], hi[16], v[16], cand[DFZ_CHOICE_MAX_SIZES];
	struct dfz_choice w, r;
	unsigned round, i, n;

	for (round = 0; round < 2000; round++) {
		dfz__choice_writer(&w);
		for (i = 0; i < 16; i++) {
			random_range(&s, &lo[i], &hi[i]);
			n = dfz__choice_sizes(lo[i], hi[i], cand);
			v[i] = (rng_next(&s) & 1) ? cand[rng_next(&s) % n] :
			       lo[i] + (uint32_t)(rng_next(&s) %
					((uint64_t)hi[i] - lo[i] + 1));
			if (i & 1)
				dfz__choice_emit_size(&w, lo[i], hi[i], v[i]);
			else
				dfz__choice_emit(&w, lo[i], hi[i], v[i]);
		}
		ck_assert(!w.overflow);
		dfz__choice_reader(&r, w.out, w.len);
		for (i = 0; i < 16; i++)
			ck_assert_uint_eq(i & 1 ?
				dfz__choice_take_size(&r, lo[i], hi[i]) :
				dfz__choice_take(&r, lo[i], hi[i]), v[i]);
		ck_assert_uint_eq(r.pos, w.len);
	}
}
END_TEST

/* ----------------------------------------------------------- the decoder */

START_TEST(test_empty_is_simplest)
{
	static const uint8_t zeros[MAX_BYTES];
	struct dfz_plan p, z;
	const struct dfz_plan_xfer *x = &p.xfer;
	uint8_t *buf;
	size_t n;

	dfz_plan_decode(NULL, 0, &p);
	check_ranges(&p);
	ck_assert(p.family == DFZ_FAMILY_XFER && x->rank == 1 &&
		  x->shape[0] == 0 && x->elem == 1 && x->nnodes == 1);
	ck_assert(x->node[0].kernel == DFZ_KERNEL_COPY &&
		  x->node[0].tile[0] == 1);
	ck_assert(x->buffering == 1 && x->policy == DFZ_POLICY_ASYNC_SHARED &&
		  x->pool_k == 1 && x->strategy == DFZ_STRAT_TENSOR_DIR);
	ck_assert(x->compute_chunks == 1 && x->latency == 0 &&
		  x->bandwidth == 1 && x->nsched == 0 && x->seed == 0);
	/* 1024 cannot hold 2 unit buffers + 8 handles of 8 requests: raised
	 * to 2 * (8 + 32) + 64 * (64 + 32) + 64. */
	ck_assert_uint_eq(x->local_size, 6288);
	ck_assert_uint_eq(dfz__plan_local_need(x), 6288);
	/* Zero bytes are the simplest choices too, and encode to nothing. */
	dfz_plan_decode(zeros, sizeof(zeros), &z);
	ck_assert(dfz__plan_same(&p, &z));
	ck_assert_int_eq(dfz_plan_encode(&p, &buf, &n), 0);
	ck_assert_uint_eq(n, 0);
	free(buf);
}
END_TEST

/* The plan as drawn, before the clamps. */
static void decode_unclamped(const uint8_t *b, size_t n, struct dfz_plan *p)
{
	static const struct dfz_plan none;
	struct dfz_choice c;

	dfz__choice_reader(&c, b, n);
	dfz__plan_visit(&c, &none, p);
}

/* Every decoded plan is in range and under the caps, the clamps are
 * idempotent, decode(encode(p)) == p, and the draws (and clamps) reach
 * far. */
START_TEST(test_decode_random)
{
	uint64_t s = 0x2545f4914f6cdd1du;
	unsigned i, rank5 = 0, add = 0, halved = 0, tiled = 0, raised = 0;
	uint8_t bytes[MAX_BYTES], *enc, *enc2;
	struct dfz_plan p, q, raw;
	size_t n, m, m2;

	for (i = 0; i < 3000; i++) {
		n = random_bytes(&s, bytes);
		dfz_plan_decode(bytes, n, &p);
		check_ranges(&p);
		check_caps(&p);
		q = p;
		dfz__plan_clamp(&q);
		ck_assert(dfz__plan_same(&p, &q));
		ck_assert_int_eq(dfz_plan_encode(&p, &enc, &m), 0);
		ck_assert_uint_le(m, DFZ_PLAN_MAX_STREAM);
		dfz_plan_decode(enc, m, &q);
		ck_assert_msg(dfz__plan_same(&p, &q), "round trip %u", i);
		ck_assert_int_eq(dfz_plan_encode(&q, &enc2, &m2), 0);
		ck_assert(m == m2 && !memcmp(enc, enc2, m)); /* canonical */
		free(enc);
		free(enc2);
		decode_unclamped(bytes, n, &raw);
		rank5 += p.xfer.rank == 5;
		add += p.xfer.node[0].kernel == DFZ_KERNEL_ADD;
		halved += !!memcmp(raw.xfer.shape, p.xfer.shape,
				   sizeof(p.xfer.shape));
		tiled += !memcmp(raw.xfer.shape, p.xfer.shape,
				 sizeof(p.xfer.shape)) &&
			 memcmp(raw.xfer.node, p.xfer.node,
				sizeof(p.xfer.node));
		raised += raw.xfer.local_size != p.xfer.local_size;
	}
	ck_assert(rank5 > 300 && add > 300);
	ck_assert_msg(halved > 100 && tiled > 100 && raised > 100,
		      "halved %u tiled %u raised %u", halved, tiled, raised);
}
END_TEST

START_TEST(test_tensor_clamp)
{
	struct dfz_plan p;
	struct dfz_plan_xfer *x = &p.xfer;

	hand_plan(&p, 2); /* 4096 x 4096 halves to 128 x 128, tiles follow */
	x->shape[0] = x->shape[1] = 4096;
	x->node[0].tile[0] = x->node[0].tile[1] = 4096;
	x->local_size = DFZ_CAP_L2;
	dfz_plan_normalise(&p);
	ck_assert(x->shape[0] == 128 && x->shape[1] == 128);
	ck_assert(x->node[0].tile[0] == 128 && x->node[0].tile[1] == 128);
	hand_plan(&p, 2); /* ties halve the lowest dim */
	x->shape[0] = x->shape[1] = 300;
	dfz_plan_normalise(&p);
	ck_assert(x->shape[0] == 75 && x->shape[1] == 150);
	hand_plan(&p, 2); /* padding counts: 4096 * (3 + 3) * 2 */
	x->shape[0] = 4096;
	x->shape[1] = 3;
	x->in.pad[1] = 3;
	x->elem = 2;
	dfz_plan_normalise(&p);
	ck_assert(x->shape[0] == 1024 && x->shape[1] == 3);
	hand_plan(&p, 2); /* an add node's aux counts; 2048 * 4 * 2 fits */
	x->shape[0] = 2048;
	x->shape[1] = 4;
	x->elem = 2;
	x->node[0].kernel = DFZ_KERNEL_ADD;
	x->node[0].aux.pad[1] = 1;
	dfz_plan_normalise(&p);
	ck_assert(x->shape[0] == 1024 && x->shape[1] == 4);
	x->node[0].kernel = DFZ_KERNEL_COPY; /* aux ignored: nothing to do */
	x->shape[0] = 2048;
	dfz_plan_normalise(&p);
	ck_assert(x->shape[0] == 2048 && x->node[0].aux.pad[1] == 0);
}
END_TEST

START_TEST(test_local_clamp)
{
	struct dfz_plan p;
	struct dfz_plan_xfer *x = &p.xfer;

	hand_plan(&p, 1); /* 2 * (16384 + 32) + 6208 > 20000: halve twice */
	x->shape[0] = 4096;
	x->elem = 4;
	x->node[0].tile[0] = 4096;
	x->local_size = 20000;
	dfz_plan_normalise(&p);
	ck_assert_uint_eq(x->node[0].tile[0], 1024);
	ck_assert_uint_eq(x->local_size, 20000);
	ck_assert_uint_eq(dfz__plan_local_need(x), 2 * (4096 + 32) + 6208);
	hand_plan(&p, 1); /* unit tiles, add, double: the level grows */
	x->shape[0] = 4096;
	x->elem = 8;
	x->buffering = 2;
	x->node[0].kernel = DFZ_KERNEL_ADD;
	x->node[0].tile[0] = 4096;
	x->local_size = 1024;
	dfz_plan_normalise(&p);
	ck_assert_uint_eq(x->node[0].tile[0], 1);
	ck_assert_uint_eq(x->local_size, 6 * (8 + 32) + 6208);
	/* The largest node decides; the other keeps its tiles. */
	hand_plan(&p, 1);
	x->shape[0] = 4096;
	x->nnodes = 2;
	x->node[0].tile[0] = 4096;
	x->node[1].tile[0] = 64;
	x->local_size = 8192;
	dfz_plan_normalise(&p);
	ck_assert(x->node[0].tile[0] == 512 && x->node[1].tile[0] == 64);
	check_caps(&p);
}
END_TEST

/* A wide plan (uniform draws everywhere) fits the writer's buffer. */
START_TEST(test_encode_widest)
{
	struct dfz_plan p, q;
	struct dfz_plan_xfer *x = &p.xfer;
	unsigned i, d;
	uint8_t *buf;
	size_t n;

	hand_plan(&p, 5);
	x->elem = 2; /* 6^5 * 2 bytes stays under the tensor cap */
	x->nnodes = DFZ_MAX_NODES;
	for (d = 0; d < 5; d++) {
		x->shape[d] = 6; /* not a candidate: three bytes each */
		x->in.order[d] = (uint8_t)(4 - d);
		x->in.pad[d] = 0;
	}
	for (i = 0; i < DFZ_MAX_NODES; i++) {
		x->node[i] = x->node[0];
		x->node[i].kernel = DFZ_KERNEL_ADD;
		x->node[i].out = x->node[i].aux = x->in;
		for (d = 0; d < 5; d++)
			x->node[i].tile[d] = 6;
	}
	x->local_size = 999999;
	x->policy = DFZ_POLICY_POOL;
	x->pool_k = 8;
	x->latency = 6;
	x->bandwidth = 1000;
	x->nsched = DFZ_MAX_SCHED;
	memset(x->sched, DFZ_CAP_SCHED_STEPS, sizeof(x->sched));
	x->seed = UINT32_MAX;
	ck_assert_int_eq(dfz_plan_encode(&p, &buf, &n), 0);
	ck_assert_uint_eq(n, 165); /* all but the tiles drawn at full width */
	ck_assert_uint_le(n, DFZ_PLAN_MAX_STREAM);
	dfz_plan_decode(buf, n, &q);
	free(buf);
	ck_assert(dfz__plan_same(&p, &q)); /* it was under every cap */
}
END_TEST

START_TEST(test_equal)
{
	struct dfz_plan a, b;

	hand_plan(&a, 3);
	a.xfer.shape[0] = 4096;
	a.xfer.shape[1] = 4096;
	a.xfer.shape[2] = 7;
	b = a;
	dfz_plan_normalise(&b);
	ck_assert(!dfz__plan_same(&a, &b));
	ck_assert(dfz_plan_equal(&a, &b));
	b.xfer.sched[9] = 3;   /* undrawn: nsched is 0 */
	b.xfer.shape[4] = 77;  /* undrawn: rank is 3 */
	b.xfer.pool_k = 5;     /* undrawn: policy is not pool */
	ck_assert(dfz_plan_equal(&a, &b));
	b.xfer.seed = 1;
	ck_assert(!dfz_plan_equal(&a, &b));
	b = a;
	b.xfer.node[0].out.order[0] = 2;
	b.xfer.node[0].out.order[2] = 0;
	ck_assert(!dfz_plan_equal(&a, &b));
}
END_TEST

/* ------------------------------------------------------------- the text */

static const char example[] =
	"# dmafuzz plan\n"
	"family xfer\n"
	"rank 3\n"
	"shape 2 8 16\n"
	"elem 4\n"
	"in.order 0 1 2\n"
	"in.pad 0 0 1\n"
	"nodes 1\n"
	"node0.kernel add               # copy | inc | add\n"
	"node0.out.order 0 2 1\n"
	"node0.out.pad 0 0 0\n"
	"node0.aux.order 1 0 2\n"
	"node0.aux.pad 0 0 2\n"
	"node0.tile 1 4 16\n"
	"engine ram\n"
	"ext L3\n"
	"local L2\n"
	"local_size 1048576\n"
	"buffering double             # single | double\n"
	"policy async-shared\n"
	"pool 1\n"
	"strategy tensor-dir\n"
	"compute_chunks 2\n"
	"latency 4\n"
	"bandwidth 64\n"
	"sched 0 3 1\n"
	"seed 7\n";

START_TEST(test_parse_example)
{
	static const uint8_t order[] = { 0, 2, 1 }, aux[] = { 1, 0, 2 };
	struct dfz_plan p, q;
	const struct dfz_plan_xfer *x = &p.xfer;
	char err[128], *text;

	ck_assert_int_eq(dfz_plan_parse(example, &p, err, sizeof(err)), 0);
	ck_assert(x->rank == 3 && x->shape[0] == 2 && x->shape[1] == 8 &&
		  x->shape[2] == 16 && x->elem == 4 && x->in.pad[2] == 1);
	ck_assert(!memcmp(x->node[0].out.order, order, 3));
	ck_assert(!memcmp(x->node[0].aux.order, aux, 3));
	ck_assert(x->node[0].kernel == DFZ_KERNEL_ADD &&
		  x->node[0].aux.pad[2] == 2 && x->node[0].tile[1] == 4);
	ck_assert(x->local_size == DFZ_CAP_L2 && x->buffering == 2 &&
		  x->compute_chunks == 2 && x->latency == 4 &&
		  x->bandwidth == 64 && x->seed == 7);
	ck_assert(x->nsched == 3 && x->sched[1] == 3 && x->sched[2] == 1);
	check_ranges(&p);
	q = p; /* a plan under the caps is its own normal form */
	dfz_plan_normalise(&q);
	ck_assert(dfz__plan_same(&p, &q));
	text = print_to_string(&p); /* printing gives the same text back */
	ck_assert_str_eq(text, "# dmafuzz plan\nfamily xfer\nrank 3\n"
		"shape 2 8 16\nelem 4\nin.order 0 1 2\nin.pad 0 0 1\nnodes 1\n"
		"node0.kernel add\nnode0.out.order 0 2 1\nnode0.out.pad 0 0 0\n"
		"node0.aux.order 1 0 2\nnode0.aux.pad 0 0 2\nnode0.tile 1 4 16\n"
		"engine ram\next L3\nlocal L2\nlocal_size 1048576\n"
		"buffering double\npolicy async-shared\npool 1\n"
		"strategy tensor-dir\ncompute_chunks 2\nlatency 4\n"
		"bandwidth 64\nsched 0 3 1\nseed 7\n");
	free(text);
}
END_TEST

START_TEST(test_parse_defaults)
{
	struct dfz_plan simplest, p, q;
	char err[128];

	dfz_plan_decode(NULL, 0, &simplest);
	ck_assert_int_eq(dfz_plan_parse("", &p, err, sizeof(err)), 0);
	ck_assert(dfz__plan_same(&p, &simplest));
	ck_assert_int_eq(dfz_plan_parse("# nothing\n\n  \t\n", &p, NULL, 0), 0);
	ck_assert(dfz__plan_same(&p, &simplest));
	/* Rank and node counts anywhere; the rest takes their sizes. */
	ck_assert_int_eq(dfz_plan_parse("node1.kernel inc\r\nnodes 2\r\n"
					"rank 3\r\nsched\r\n", &p, err,
					sizeof(err)), 0);
	ck_assert(p.xfer.rank == 3 && p.xfer.nnodes == 2 &&
		  p.xfer.node[1].kernel == DFZ_KERNEL_INC && p.xfer.nsched == 0);
	ck_assert(p.xfer.node[1].tile[2] == 1 && p.xfer.in.order[2] == 2 &&
		  p.xfer.node[1].aux.order[1] == 1);
	check_ranges(&p);
	q = p;
	dfz_plan_normalise(&q);
	ck_assert(dfz__plan_same(&p, &q));
	/* Parse does not clamp; normalise does. */
	ck_assert_int_eq(dfz_plan_parse("rank 2\nshape 4096 4096\n", &p, err,
					sizeof(err)), 0);
	ck_assert_uint_eq(p.xfer.shape[0], 4096);
	dfz_plan_normalise(&p);
	ck_assert_uint_eq(p.xfer.shape[0], 128);
}
END_TEST

/* print, parse and encode agree on every decoded plan. */
START_TEST(test_text_roundtrip)
{
	uint64_t s = 0x853c49e6748fea9bu;
	uint8_t bytes[MAX_BYTES], *enc;
	struct dfz_plan p, q, r;
	char err[128], *text;
	unsigned i;
	size_t n;

	for (i = 0; i < 1500; i++) {
		n = random_bytes(&s, bytes);
		dfz_plan_decode(bytes, n, &p);
		text = print_to_string(&p);
		ck_assert_msg(dfz_plan_parse(text, &q, err, sizeof(err)) == 0,
			      "%s\n%s", err, text);
		ck_assert_msg(dfz__plan_same(&p, &q), "%s", text);
		ck_assert(dfz_plan_equal(&p, &q));
		ck_assert_int_eq(dfz_plan_encode(&q, &enc, &n), 0);
		dfz_plan_decode(enc, n, &r);
		ck_assert(dfz__plan_same(&p, &r));
		free(enc);
		free(text);
	}
}
END_TEST

struct parse_error {
	const char *text;
	unsigned line;
	const char *needle;
};

static const struct parse_error parse_errors[] = {
	{ "rank 2\nbogus 1\n", 2, "unknown key 'bogus'" },
	{ "rank x\n", 1, "bad number 'x'" },
	{ "shape -1\n", 1, "bad number '-1'" },
	{ "seed 0x\n", 1, "bad number" },
	{ "seed 12a\n", 1, "bad number" },
	{ "rank 9\n", 1, "out of range 1..5" },
	{ "seed 4294967296\n", 1, "out of range" },
	{ "nodes 0\n", 1, "out of range 1..3" },
	{ "rank 3\nin.order 0 1 1\n", 2, "not a permutation of 0..2" },
	{ "rank 2\nshape 1 2 3\n", 2, "needs 2 values, got 3" },
	{ "node0.tile\n", 1, "needs 1 value, got 0" },
	{ "seed 1\nseed 2\n", 2, "duplicate key 'seed' (first on line 1)" },
	{ "rank 1\n\nrank 1\n", 3, "duplicate key 'rank'" },
	{ "\x01\x02\xff\xfe garbage\n", 1, "unknown key '\?\?\?\?'" },
	{ "elem 3\n", 1, "1, 2, 4 or 8" },
	{ "node1.kernel copy\n", 1, "given but nodes is 1" },
	{ "node0.kernel frob\n", 1, "unknown value 'frob' for 'node0.kernel' "
	  "(copy|inc|add)" },
	{ "node0.aux.pad 0\n", 1, "not add" },
	{ "nodes 2\nnode1.kernel add\n\nnode1.aux.order 0\nnode0.aux.order 0\n",
	  5, "node0.aux given" },
	{ "shape 4\nnode0.tile 5\n", 2, "over 4" },
	{ "pool 3\n", 1, "policy is not pool" },
	{ "ext L2\n", 1, "must be L3" },
	{ "local L1\n", 1, "must be L2" },
	{ "buffering triple\n", 1, "(single|double)" },
	{ "sched 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 "
	  "1 1 1 1 1 1\n", 1, "at most 32 values, got 36" },
	{ "sched 16\n", 1, "out of range 0..15" },
	{ "\n\nfamily host\n", 3, "unknown value 'host'" },
	{ "node0.aux.order 0 1 2 # the brief's own example: kernel copy\n"
	  "node0.kernel copy\nrank 3\n", 1, "not add" },
	{ "nodes\n", 1, "needs 1 value, got 0" },
};
static_assert(COUNT_OF(parse_errors) == 29, "parse_errors");

static void check_error(int rc, const char *err, unsigned line,
			const char *needle)
{
	char prefix[32];

	snprintf(prefix, sizeof(prefix), "line %u: ", line);
	ck_assert_int_eq(rc, DFZ_EINVAL);
	ck_assert_msg(!strncmp(err, prefix, strlen(prefix)), "%s", err);
	ck_assert_msg(strstr(err, needle) != NULL, "%s", err);
	ck_assert(strchr(err, '\n') == NULL);
}

START_TEST(test_parse_errors)
{
	const struct parse_error *e = &parse_errors[_i];
	struct dfz_plan p;
	char err[256];

	check_error(dfz_plan_parse(e->text, &p, err, sizeof(err)), err,
		    e->line, e->needle);
}
END_TEST

START_TEST(test_parse_long_lines)
{
	size_t n = 1u << 20;
	char *text = malloc(n + 32), err[128];
	struct dfz_plan p;

	ck_assert_ptr_nonnull(text);
	strcpy(text, "rank 2\nshape");
	memset(text + 12, ' ', n);
	strcpy(text + 12 + n, "1 2\n");
	check_error(dfz_plan_parse(text, &p, err, sizeof(err)), err, 2,
		    "longer than");
	/* A long comment is fine: only the part before `#` is bounded. */
	memcpy(text + 12, " 1 2 #", 6);
	memset(text + 18, 'x', n - 6);
	ck_assert_int_eq(dfz_plan_parse(text, &p, err, sizeof(err)), 0);
	ck_assert_uint_eq(p.xfer.shape[1], 2);
	free(text);
	/* A short error buffer truncates, never overflows. */
	ck_assert_int_eq(dfz_plan_parse("bogus\n", &p, err, 6), DFZ_EINVAL);
	ck_assert_str_eq(err, "line ");
	ck_assert_int_eq(dfz_plan_parse("bogus\n", &p, NULL, 0), DFZ_EINVAL);
}
END_TEST

/* Parse @text; it must either succeed with a plan in range or fail with a
 * one-line message. */
static void parse_any(const char *text)
{
	struct dfz_plan p;
	char err[96];
	int rc = dfz_plan_parse(text, &p, err, sizeof(err));

	if (rc == 0) {
		check_ranges(&p);
		dfz_plan_normalise(&p);
		check_ranges(&p);
		check_caps(&p);
		return;
	}
	ck_assert_int_eq(rc, DFZ_EINVAL);
	ck_assert_msg(!strncmp(err, "line ", 5), "%s", err);
	ck_assert(strchr(err, '\n') == NULL);
}

START_TEST(test_parse_random)
{
	uint64_t s = 0xda942042e4dd58b5u;
	char buf[MAX_BYTES + 1], *text;
	unsigned i, k, ok = 0;
	uint8_t bytes[MAX_BYTES];
	struct dfz_plan p;
	size_t n, len;

	for (i = 0; i < 3000; i++) { /* raw bytes */
		n = random_bytes(&s, (uint8_t *)buf);
		buf[n] = '\0';
		parse_any(buf);
	}
	for (i = 0; i < 1500; i++) { /* printed plans with a few bytes hit */
		n = random_bytes(&s, bytes);
		dfz_plan_decode(bytes, n, &p);
		text = print_to_string(&p);
		len = strlen(text);
		for (k = 0; k < 1 + i % 3; k++)
			text[rng_next(&s) % len] =
				"0123456789 \n#x-.:"[rng_next(&s) % 17];
		parse_any(text);
		ok += dfz_plan_parse(text, &p, NULL, 0) == 0;
		free(text);
	}
	ck_assert(ok > 50 && ok < 1450); /* both outcomes were exercised */
}
END_TEST

Suite *suite_plan(void)
{
	Suite *s = suite_create("plan");
	TCase *tc = tcase_create("choice");

	tcase_add_loop_test(tc, test_take_vectors, 0, COUNT_OF(take_cases));
	tcase_add_test(tc, test_take_exhausted);
	tcase_add_test(tc, test_size_candidates);
	tcase_add_test(tc, test_size_two_bytes);
	tcase_add_test(tc, test_emit_roundtrip);
	suite_add_tcase(s, tc);
	tc = tcase_create("decode");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_empty_is_simplest);
	tcase_add_test(tc, test_decode_random);
	tcase_add_test(tc, test_tensor_clamp);
	tcase_add_test(tc, test_local_clamp);
	tcase_add_test(tc, test_encode_widest);
	tcase_add_test(tc, test_equal);
	suite_add_tcase(s, tc);
	tc = tcase_create("text");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_parse_example);
	tcase_add_test(tc, test_parse_defaults);
	tcase_add_test(tc, test_text_roundtrip);
	tcase_add_loop_test(tc, test_parse_errors, 0, COUNT_OF(parse_errors));
	tcase_add_test(tc, test_parse_long_lines);
	tcase_add_test(tc, test_parse_random);
	suite_add_tcase(s, tc);
	return s;
}
