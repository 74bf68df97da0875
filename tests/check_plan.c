// SPDX-License-Identifier: MIT
/*
 * Tests of harness/ plans: the choice stream (take, take_size, the weighted
 * draw and their emitters), the decoder's draws and clamps over one and
 * two hops, the encoder's round trip, and the reach of the decoder (a
 * single 2^17-byte mchan transfer from a short byte string). The text form
 * is tested in check_plan_text.c; the helpers both share are declared in
 * check_plan.h. Random inputs come from a fixed-seed xorshift, so every
 * run is the same.
 */
#include <assert.h>
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_fast.h"
#include "check_plan.h"
#include "dmafuzz/harness.h"

/* One hop-0 tile per tensor (the clamps cut it to the shape), so that a
 * test of the tensor caps does not meet the work cap. */
static void whole_tiles(struct dfz_plan *p)
{
	for (unsigned i = 0; i < DFZ_MAX_NODES; i++)
		for (unsigned d = 0; d < DFZ_MAX_RANK; d++)
			p->xfer.node[i].tile[0][d] = DFZ_CAP_DIM_1D;
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
		CK_CHECK_UINT(cand[i - 1], <, cand[i]);
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
		CK_CHECK(!w.overflow);
		dfz__choice_reader(&r, w.out, w.len);
		for (i = 0; i < 16; i++)
			CK_CHECK_UINT(i & 1 ?
			    dfz__choice_take_size(&r, lo[i], hi[i]) :
			    dfz__choice_take(&r, lo[i], hi[i]), ==, v[i]);
		CK_CHECK_UINT(r.pos, ==, w.len);
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
		  x->shape[0] == 0 && x->elem == 1 && x->nnodes == 1 &&
		  x->tensor_class == DFZ_TENSOR_CLASS_MIN);
	ck_assert(x->node[0].kernel == DFZ_KERNEL_COPY &&
		  x->node[0].tile[0][0] == 1 && x->node[0].tile[1][0] == 0);
	/* One hop, on ram, L3 <-> L2. */
	ck_assert(x->nhops == 1 && x->hop[0].engine == DFZ_ENGINE_RAM &&
		  x->ext_level == DFZ_L3 && dfz_plan_hop_level(x, 0) == DFZ_L2);
	ck_assert(x->hop[0].buffering == 1 &&
		  x->hop[0].policy == DFZ_POLICY_ASYNC_SHARED &&
		  x->hop[0].pool_k == 1 &&
		  x->hop[0].strategy == DFZ_STRAT_TENSOR_DIR);
	ck_assert(x->compute_chunks == 1 && x->latency == 0 &&
		  x->bandwidth == 1 && x->nsched == 0 && x->seed == 0);
	/* 1024 cannot hold 2 unit buffers + 16 handles (two scopes: the
	 * node's and req-escape's iteration's) of 8 requests: raised to
	 * 2 * (8 + 32) + 128 * (64 + 32) + 64. */
	ck_assert_uint_eq(x->l2_size, 12432);
	ck_assert_uint_eq(x->l1_size, 0);
	ck_assert_uint_eq(dfz__plan_level_need(x, DFZ_L2), 12432);
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
	dfz__plan_visit_as(&c, DFZ_FAMILY_XFER, &none, p);
}

/* What the random decodes reached. */
struct reach {
	unsigned rank5, add, halved, tiled, raised, two_hops, inner_halved;
	unsigned engine[DFZ_MAX_HOPS][DFZ_ENGINE_COUNT];
	unsigned cls[DFZ_TENSOR_CLASS_MAX + 1];
};

static void count_reach(const struct dfz_plan *raw, const struct dfz_plan *p,
			struct reach *r)
{
	const struct dfz_plan_xfer *x = &p->xfer, *w = &raw->xfer;
	bool same_shape = !memcmp(w->shape, x->shape, sizeof(x->shape));

	r->rank5 += x->rank == 5;
	r->add += x->node[0].kernel == DFZ_KERNEL_ADD;
	r->halved += !same_shape;
	r->tiled += same_shape && memcmp(w->node, x->node, sizeof(x->node));
	r->raised += w->l2_size != x->l2_size || w->l1_size != x->l1_size;
	r->two_hops += x->nhops == 2;
	r->inner_halved += x->nhops == 2 && same_shape &&
			   w->node[0].tile[1][0] != x->node[0].tile[1][0] &&
			   w->node[0].tile[0][0] == x->node[0].tile[0][0];
	r->engine[x->nhops - 1][x->hop[x->nhops - 1].engine]++;
	r->cls[x->tensor_class]++;
}

/* Every decoded plan is in range and under the caps, the clamps are
 * idempotent, decode(encode(p)) == p, and the draws (and clamps) reach
 * far: every engine on one hop, both on the inner hop, every class. */
START_TEST(test_decode_random)
{
	uint64_t s = 0x2545f4914f6cdd1du;
	uint8_t bytes[MAX_BYTES], *enc, *enc2;
	struct dfz_plan p, q, raw;
	struct reach r = { 0 };
	size_t n, m, m2;
	unsigned i, k;

	for (i = 0; i < 3000; i++) {
		n = random_bytes(&s, bytes);
		dfz_plan_decode_as(DFZ_FAMILY_XFER, bytes, n, &p);
		check_ranges(&p);
		check_caps(&p);
		q = p;
		dfz__plan_clamp(&q);
		CK_CHECK(dfz__plan_same(&p, &q));
		CK_CHECK_INT(dfz_plan_encode(&p, &enc, &m), ==, 0);
		CK_CHECK_UINT(m, <=, DFZ_PLAN_MAX_STREAM);
		dfz_plan_decode(enc, m, &q);
		CK_CHECK_MSG(dfz__plan_same(&p, &q), "round trip %u", i);
		CK_CHECK_INT(dfz_plan_encode(&q, &enc2, &m2), ==, 0);
		CK_CHECK(m == m2 && !memcmp(enc, enc2, m)); /* canonical */
		free(enc);
		free(enc2);
		decode_unclamped(bytes, n, &raw);
		count_reach(&raw, &p, &r);
	}
	ck_assert(r.rank5 > 300 && r.add > 300 && r.two_hops > 600);
	ck_assert_msg(r.halved > 100 && r.tiled > 100 && r.raised > 100 &&
		      r.inner_halved > 0, "halved %u tiled %u raised %u "
		      "inner %u", r.halved, r.tiled, r.raised, r.inner_halved);
	for (k = 0; k < DFZ_ENGINE_COUNT; k++)
		ck_assert_uint_gt(r.engine[0][k], 100);
	ck_assert(r.engine[1][DFZ_ENGINE_MCHAN] > 100 &&
		  r.engine[1][DFZ_ENGINE_IDMA] > 100 &&
		  r.engine[1][DFZ_ENGINE_RAM] == 0);
	for (k = DFZ_TENSOR_CLASS_MIN; k <= DFZ_TENSOR_CLASS_MAX; k++)
		ck_assert_uint_gt(r.cls[k], 0); /* the big ones are 1 in 256 */
}
END_TEST

START_TEST(test_tensor_clamp)
{
	struct dfz_plan p;
	struct dfz_plan_xfer *x = &p.xfer;

	hand_plan(&p, 2); /* 4096 x 4096 halves to 128 x 128, tiles follow */
	whole_tiles(&p);
	x->l2_size = DFZ_CAP_L2;
	x->shape[0] = x->shape[1] = 4096;
	x->node[0].tile[0][0] = x->node[0].tile[0][1] = 4096;
	x->l2_size = DFZ_CAP_L2;
	dfz_plan_normalise(&p);
	ck_assert(x->shape[0] == 128 && x->shape[1] == 128);
	ck_assert(x->node[0].tile[0][0] == 128 && x->node[0].tile[0][1] == 128);
	hand_plan(&p, 2); /* ties halve the lowest dim */
	whole_tiles(&p);
	x->l2_size = DFZ_CAP_L2;
	x->shape[0] = x->shape[1] = 300;
	dfz_plan_normalise(&p);
	ck_assert(x->shape[0] == 75 && x->shape[1] == 150);
	hand_plan(&p, 2); /* padding counts: 4096 * (3 + 3) * 2 */
	whole_tiles(&p);
	x->l2_size = DFZ_CAP_L2;
	x->shape[0] = 4096;
	x->shape[1] = 3;
	x->in.pad[1] = 3;
	x->elem = 2;
	dfz_plan_normalise(&p);
	ck_assert(x->shape[0] == 1024 && x->shape[1] == 3);
	hand_plan(&p, 2); /* an add node's aux counts; 2048 * 4 * 2 fits */
	whole_tiles(&p);
	x->l2_size = DFZ_CAP_L2;
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

/* The work cap: tiles of one element over 4096 elements make 8192
 * transfers; the shape halves until 2 * shape fits 512. */
START_TEST(test_work_clamp)
{
	struct dfz_plan p, q;
	struct dfz_plan_xfer *x = &p.xfer;

	hand_plan(&p, 1);
	x->shape[0] = 4096;
	x->l2_size = DFZ_CAP_L2;
	ck_assert_uint_eq(dfz__plan_xfer_work(x), 8192);
	dfz_plan_normalise(&p);
	ck_assert_uint_eq(x->shape[0], DFZ_PLAN_XFER_WORK / 2);
	ck_assert_uint_eq(dfz__plan_xfer_work(x), DFZ_PLAN_XFER_WORK);
	q = p; /* at the cap: its own normal form */
	dfz_plan_normalise(&q);
	ck_assert(dfz__plan_same(&p, &q));
}
END_TEST

/* The step cap: 8192 bytes (one tensor in, one out) at 1 byte per step
 * would be 8192 steps; the bandwidth rises to 16 so they take 512. */
START_TEST(test_bandwidth_clamp)
{
	struct dfz_plan p, q;
	struct dfz_plan_xfer *x = &p.xfer;

	hand_plan(&p, 1);
	whole_tiles(&p);
	x->shape[0] = 4096;
	x->l2_size = DFZ_CAP_L2;
	x->bandwidth = 1;
	ck_assert_uint_eq(dfz__plan_xfer_bytes(x), 8192);
	dfz_plan_normalise(&p);
	ck_assert_uint_eq(x->shape[0], 4096);
	ck_assert_uint_eq(x->bandwidth, 8192 / DFZ_PLAN_XFER_STEPS);
	q = p;
	dfz_plan_normalise(&q);
	ck_assert(dfz__plan_same(&p, &q));
	x->bandwidth = 1000; /* already fast enough: untouched */
	dfz_plan_normalise(&p);
	ck_assert_uint_eq(x->bandwidth, 1000);
}
END_TEST

/* Random plans: within the cap, and the work bounds what a run issues. */
START_TEST(test_work_bounds_runs)
{
	struct dfz_exec *ex;
	struct dfz_gen g;
	uint8_t buf[96];
	unsigned i, bad = 0;

	ck_assert_int_eq(dfz_exec_create(DFZ_ORACLES_ALL, &ex), 0);
	dfz_gen_init(&g, 11);
	for (i = 0; i < 1500; i++) {
		struct dfz_plan p;
		struct dfz_verdict v;
		uint64_t w;

		dfz_gen_bytes(&g, buf, sizeof(buf));
		dfz_plan_decode_as(DFZ_FAMILY_XFER, buf, sizeof(buf), &p);
		w = dfz__plan_xfer_work(&p.xfer);
		dfz_exec_run(ex, &p, 0, &v);
		if (w > DFZ_PLAN_XFER_WORK || v.xfers > w)
			bad++;
	}
	dfz_exec_destroy(ex);
	ck_assert_uint_eq(bad, 0);
}
END_TEST

/* The per-plan tensor cap: its class, clamped to its range. */
START_TEST(test_tensor_class)
{
	struct dfz_plan p;
	struct dfz_plan_xfer *x = &p.xfer;

	hand_plan(&p, 1);
	whole_tiles(&p);
	x->shape[0] = 4096;
	x->elem = 8;
	x->tensor_class = 10; /* 1 KiB: 128 elements */
	x->l2_size = DFZ_CAP_L2;
	dfz_plan_normalise(&p);
	ck_assert_uint_eq(x->shape[0], 128);
	hand_plan(&p, 1);
	whole_tiles(&p);
	x->shape[0] = 4096;
	x->elem = 8;
	x->tensor_class = 18; /* 256 KiB: 32768 > 4096, untouched */
	x->l2_size = DFZ_CAP_L2;
	dfz_plan_normalise(&p);
	ck_assert_uint_eq(x->shape[0], 4096);
	ck_assert_uint_eq(dfz_plan_tensor_cap(x), 1u << 18);
	x->tensor_class = 30; /* out of range: the nearest class */
	ck_assert_uint_eq(dfz_plan_tensor_cap(x), 1u << 18);
	dfz_plan_normalise(&p);
	ck_assert_uint_eq(x->tensor_class, 18);
	x->tensor_class = 3;
	dfz_plan_normalise(&p);
	ck_assert_uint_eq(x->tensor_class, DFZ_TENSOR_CLASS_MIN);
}
END_TEST

START_TEST(test_local_clamp)
{
	struct dfz_plan p;
	struct dfz_plan_xfer *x = &p.xfer;

	/* The hop's reserve: 16 handles of 8 requests, (64 + 32) bytes
	 * each, and 64 of slack: 12352. */
	hand_plan(&p, 1); /* 2 * (8192 + 32) + 12352 > 26000: halve twice */
	x->shape[0] = 4096;
	x->elem = 4;
	x->node[0].tile[0][0] = 4096;
	x->l2_size = 26000;
	dfz_plan_normalise(&p);
	ck_assert_uint_eq(x->node[0].tile[0][0], 1024);
	ck_assert_uint_eq(x->l2_size, 26000);
	ck_assert_uint_eq(dfz__plan_level_need(x, DFZ_L2),
			  2 * (4096 + 32) + 12352);
	hand_plan(&p, 1); /* unit tiles, add, double: the level grows */
	x->shape[0] = 4096;
	x->elem = 8;
	x->hop[0].buffering = 2;
	x->node[0].kernel = DFZ_KERNEL_ADD;
	x->node[0].tile[0][0] = 4096;
	x->l2_size = 1024;
	dfz_plan_normalise(&p);
	ck_assert_uint_eq(x->node[0].tile[0][0], 1);
	ck_assert_uint_eq(x->l2_size, 6 * (8 + 32) + 12352);
	/* The largest node decides; the other keeps its tiles. */
	hand_plan(&p, 1);
	x->shape[0] = 4096;
	x->nnodes = 2;
	x->node[0].tile[0][0] = 4096;
	x->node[1].tile[0][0] = 64;
	x->l2_size = 14336; /* 2 * (t + 32) + 12352 <= 14336: t = 512 */
	dfz_plan_normalise(&p);
	ck_assert(x->node[0].tile[0][0] == 512 && x->node[1].tile[0][0] == 64);
	check_caps(&p);
}
END_TEST

/*
 * Two hops: the inner tiles stay within the outer ones (also after the
 * outer ones are halved), each hop fits its own level, and the idma dummy's
 * scratch is reserved in both levels.
 */
START_TEST(test_hops_clamp)
{
	struct dfz_plan p;
	struct dfz_plan_xfer *x = &p.xfer;

	hand_plan(&p, 1);
	two_hops(&p, DFZ_ENGINE_MCHAN);
	x->shape[0] = 4096;
	x->elem = 4;
	x->node[0].tile[0][0] = 4096;
	x->node[0].tile[1][0] = 4096;
	x->l2_size = 26000; /* outer tiles halve to 1024 */
	x->l1_size = 14144; /* 2 * (4 * t + 32) + 12352 <= 14144: t = 128 */
	dfz_plan_normalise(&p);
	ck_assert_uint_eq(x->node[0].tile[0][0], 1024);
	ck_assert_uint_eq(x->node[0].tile[1][0], 128);
	ck_assert(x->l2_size == 26000 && x->l1_size == 14144);
	check_ranges(&p);
	check_caps(&p);
	x->node[0].tile[1][0] = 2048; /* over the outer tile */
	dfz_plan_normalise(&p);
	ck_assert_uint_eq(x->node[0].tile[1][0], 128);
	x->hop[1].engine = DFZ_ENGINE_IDMA; /* the dummy's scratch */
	x->l2_size = 1024;
	x->l1_size = 1024;
	x->node[0].tile[0][0] = x->node[0].tile[1][0] = 1;
	dfz_plan_normalise(&p);
	ck_assert_uint_eq(x->l2_size, 2 * (8 + 32) + 12352 + 1024);
	ck_assert_uint_eq(x->l1_size, x->l2_size);
	/* A ram inner hop or an idma outer hop is not a two-hop plan: the
	 * walk draws what it can (the inner engine) and fixes the rest. */
	x->hop[0].engine = DFZ_ENGINE_IDMA;
	x->hop[1].engine = DFZ_ENGINE_RAM;
	dfz_plan_normalise(&p);
	ck_assert(x->hop[0].engine == DFZ_ENGINE_RAM &&
		  x->hop[1].engine == DFZ_ENGINE_MCHAN);
}
END_TEST

/* One L2<->L1 hop: the tensors live in L2 and must fit there together. */
START_TEST(test_l2_tensors_clamp)
{
	struct dfz_plan p;
	struct dfz_plan_xfer *x = &p.xfer;
	unsigned i;

	hand_plan(&p, 1);
	whole_tiles(&p);
	x->hop[0].engine = DFZ_ENGINE_IDMA;
	x->tensor_class = 18;
	x->elem = 8;
	x->shape[0] = 4096 * 8;
	x->nnodes = DFZ_MAX_NODES;
	for (i = 0; i < DFZ_MAX_NODES; i++) {
		x->node[i] = x->node[0];
		x->node[i].kernel = DFZ_KERNEL_ADD;
	}
	x->l1_size = DFZ_CAP_L1;
	dfz_plan_normalise(&p);
	ck_assert(x->ext_level == DFZ_L2 && x->l2_size == 0);
	/* A rank-1 dim may exceed DFZ_CAP_DIM: 32768 elements of 8 bytes
	 * fill the 256 KiB tensor cap, and seven such tensors do not fit L2;
	 * halved once, seven tensors of 128 KiB do. */
	ck_assert_uint_eq(x->shape[0], 16384);
	ck_assert_uint_le(dfz__plan_resident_bytes(x), DFZ_PLAN_L2_TENSORS);
	check_ranges(&p);
	check_caps(&p);
}
END_TEST

/*
 * The mchan-len-overflow reach: one L2<->L1 mchan hop copying a contiguous
 * 8 x 2048 tensor of 8-byte elements (2^17 bytes) in one tile, so its load
 * is a single mchan transfer of exactly 131072 bytes; the decoder reaches
 * it from a short byte string and keeps it through the clamps.
 */
START_TEST(test_mchan_2p17_reach)
{
	struct dfz_plan p, q;
	struct dfz_plan_xfer *x = &p.xfer;
	uint64_t tile;
	uint8_t *buf;
	size_t n;

	hand_plan(&p, 2);
	x->hop[0].engine = DFZ_ENGINE_MCHAN;
	x->tensor_class = 17;
	x->elem = 8;
	x->shape[0] = x->node[0].tile[0][0] = 8;
	x->shape[1] = x->node[0].tile[0][1] = 2048;
	x->l1_size = DFZ_CAP_L1;
	ck_assert_int_eq(dfz_plan_encode(&p, &buf, &n), 0);
	ck_assert_uint_le(n, 32); /* a short string: 27 bytes */
	dfz_plan_decode(buf, n, &q);
	free(buf);
	tile = (uint64_t)q.xfer.elem * q.xfer.node[0].tile[0][0] *
	       q.xfer.node[0].tile[0][1];
	ck_assert_msg(tile == 1u << 17, "the mchan tile is %llu bytes after "
		      "the clamps: L1 (cap %u) must hold two 2^17-byte "
		      "buffers and the hop's reserve (%zu bytes)",
		      (unsigned long long)tile, DFZ_CAP_L1,
		      dfz__plan_hop_need(x, 0, 0));
	ck_assert(q.xfer.hop[0].engine == DFZ_ENGINE_MCHAN &&
		  q.xfer.ext_level == DFZ_L2);
	check_caps(&q);
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
	two_hops(&p, DFZ_ENGINE_IDMA);
	x->elem = 2; /* 6^5 * 2 bytes stays under the tensor cap */
	x->tensor_class = 15;
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
		for (d = 0; d < 5; d++) {
			x->node[i].tile[0][d] = 6;
			x->node[i].tile[1][d] = d == 4 ? 6 : 1;
		}
	}
	x->l2_size = 999999;
	x->l1_size = 199999;
	for (i = 0; i < 2; i++) {
		x->hop[i].policy = DFZ_POLICY_POOL;
		x->hop[i].pool_k = 8;
	}
	x->latency = 6;
	x->bandwidth = 1000;
	x->nsched = DFZ_MAX_SCHED;
	memset(x->sched, DFZ_CAP_SCHED_STEPS, sizeof(x->sched));
	x->seed = UINT32_MAX;
	ck_assert_uint_gt(dfz__plan_xfer_work(x), DFZ_PLAN_XFER_WORK);
	ck_assert_int_eq(dfz_plan_encode(&p, &buf, &n), 0);
	ck_assert_uint_le(n, DFZ_PLAN_MAX_STREAM);
	dfz_plan_decode(buf, n, &q);
	free(buf);
	/* Over the work cap: what comes back is the clamped plan, whole. */
	dfz_plan_normalise(&p);
	ck_assert_uint_le(dfz__plan_xfer_work(x), DFZ_PLAN_XFER_WORK);
	ck_assert(dfz__plan_same(&p, &q));
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
	b.xfer.sched[9] = 3;        /* undrawn: nsched is 0 */
	b.xfer.shape[4] = 77;       /* undrawn: rank is 3 */
	b.xfer.hop[0].pool_k = 5;   /* undrawn: policy is not pool */
	b.xfer.hop[1].engine = 2;   /* undrawn: one hop */
	b.xfer.node[0].tile[1][0] = 9;
	b.xfer.l1_size = 4444;      /* undrawn: no hop in L1 */
	b.xfer.ext_level = DFZ_L2;  /* derived from the hops */
	ck_assert(dfz_plan_equal(&a, &b));
	b.xfer.seed = 1;
	ck_assert(!dfz_plan_equal(&a, &b));
	b = a;
	b.xfer.node[0].out.order[0] = 2;
	b.xfer.node[0].out.order[2] = 0;
	ck_assert(!dfz_plan_equal(&a, &b));
	b = a;
	two_hops(&b, DFZ_ENGINE_MCHAN);
	ck_assert(!dfz_plan_equal(&a, &b));
}
END_TEST

/* draw_weighted: one byte, each value its share, the first byte of a
 * share written back. */
START_TEST(test_draw_weighted)
{
	static const uint8_t w[] = { 100, 1, 155 };
	struct dfz_choice c;
	unsigned b, hits[3] = { 0 };

	for (b = 0; b < 256; b++) {
		uint8_t byte = (uint8_t)b;

		dfz__choice_reader(&c, &byte, 1);
		hits[dfz__choice_draw_weighted(&c, w, 3, 0)]++;
		CK_CHECK_UINT(c.pos, ==, 1);
	}
	ck_assert(hits[0] == 100 && hits[1] == 1 && hits[2] == 155);
	dfz__choice_reader(&c, NULL, 0);
	ck_assert_uint_eq(dfz__choice_draw_weighted(&c, w, 3, 2), 0);
	for (b = 0; b < 3; b++) {
		dfz__choice_writer(&c);
		ck_assert_uint_eq(dfz__choice_draw_weighted(&c, w, 3, b), b);
		ck_assert_uint_eq(c.len, 1);
		dfz__choice_reader(&c, c.out, c.len);
		ck_assert_uint_eq(dfz__choice_draw_weighted(&c, w, 3, 0), b);
	}
	dfz__choice_writer(&c); /* out of range: the last value */
	ck_assert_uint_eq(dfz__choice_draw_weighted(&c, w, 3, 7), 2);
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
	tcase_add_test(tc, test_draw_weighted);
	suite_add_tcase(s, tc);
	tc = tcase_create("decode");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_empty_is_simplest);
	tcase_add_test(tc, test_decode_random);
	tcase_add_test(tc, test_tensor_clamp);
	tcase_add_test(tc, test_work_clamp);
	tcase_add_test(tc, test_bandwidth_clamp);
	tcase_add_test(tc, test_work_bounds_runs);
	tcase_add_test(tc, test_tensor_class);
	tcase_add_test(tc, test_local_clamp);
	tcase_add_test(tc, test_hops_clamp);
	tcase_add_test(tc, test_l2_tensors_clamp);
	tcase_add_test(tc, test_mchan_2p17_reach);
	tcase_add_test(tc, test_encode_widest);
	tcase_add_test(tc, test_equal);
	suite_add_tcase(s, tc);
	return s;
}
