// SPDX-License-Identifier: MIT
/*
 * Tests of host and api plans (harness/plan_host.c, plan_host_text.c) and
 * of the family draw: the decoder is total over every length, its
 * simplest plans, the boundaries it reaches (256 launches, a 1 MiB
 * budget, 64 calls, every op and fault), the clamps, the per-family
 * streams of dfz_plan_decode_as() / dfz_plan_encode_as(), the round trip
 * bytes -> plan -> text -> plan -> bytes for every family, and the
 * parser's one-line errors. Random inputs come from a fixed-seed xorshift.
 */
#include <assert.h>
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_fast.h"
#include "check_plan.h"

#define LONG_BYTES 1200 /* enough for an api plan of 64 calls */

/* ------------------------------------------------------------- checks */

static bool tensor_is_blank(const struct dfz_plan_tensor *t)
{
	static const uint32_t zero[DFZ_MAX_RANK];

	return t->rank == 0 && t->dtype == 0 && t->role == 0 &&
	       t->child == 0 && !memcmp(t->shape, zero, sizeof(zero));
}

static bool call_is_blank(const struct dfz_host_call *c)
{
	return c->op == 0 && c->fault == 0 && c->arg == 0 && c->slot == 0 &&
	       c->repeat == 0 && c->size == 0 && c->offset == 0;
}

static void check_tensor(const struct dfz_plan_tensor *t)
{
	unsigned d;

	CK_CHECK(t->rank >= 1 && t->rank <= DFZ_MAX_RANK);
	for (d = 0; d < DFZ_MAX_RANK; d++) {
		if (d < t->rank)
			CK_CHECK(t->shape[d] >= 1 &&
				 t->shape[d] <= DFZ_CAP_HOST_DIM);
		else
			CK_CHECK_UINT(t->shape[d], ==, 0);
	}
	CK_CHECK_UINT(t->dtype, <, DFZ_DT_COUNT);
	CK_CHECK_UINT(t->role, <, DFZ_ROLE_COUNT);
	CK_CHECK_UINT(t->child, <=, 1);
}

static bool is_host_op(unsigned op)
{
	for (unsigned i = 0; i < DFZ_PLAN_HOST_OPS; i++)
		if (dfz__plan_host_ops()[i] == op)
			return true;
	return false;
}

/* A field in range when its op uses it, 0 otherwise. */
static void check_field(unsigned used, uint32_t v, uint32_t lo, uint32_t hi)
{
	if (used)
		CK_CHECK(v >= lo && v <= hi);
	else
		CK_CHECK_UINT(v, ==, 0);
}

static void check_call(const struct dfz_host_call *c)
{
	unsigned f = dfz__plan_call_fields(c->op);

	CK_CHECK(is_host_op(c->op));
	CK_CHECK_UINT(c->fault, <, DFZ_FAULT_COUNT);
	check_field(dfz__plan_fault_has_arg(c->op, c->fault), c->arg, 0,
		    DFZ_HOST_MAX_ARGS - 1);
	check_field(f & DFZ_CALL_SLOT, c->slot, 0, DFZ_HOST_SLOTS - 1);
	check_field(f & DFZ_CALL_SIZE, c->size, 1, DFZ_HOST_MAX_TENSOR);
	check_field(f & DFZ_CALL_OFFSET, c->offset, 0, DFZ_HOST_MAX_TENSOR);
	check_field(f & DFZ_CALL_REPEAT, c->repeat, 1, DFZ_CAP_API_REPEAT);
}

void check_host_ranges(const struct dfz_plan *p)
{
	static const struct dfz_plan blank;
	const struct dfz_plan_host *h = &p->host;
	bool host = p->family == DFZ_FAMILY_HOST;
	unsigned k;

	CK_CHECK(p->family == DFZ_FAMILY_HOST || p->family == DFZ_FAMILY_API);
	CK_CHECK(!memcmp(&p->xfer, &blank.xfer, sizeof(blank.xfer)));
	CK_CHECK(h->ntensors >= 1 && h->ntensors <= DFZ_HOST_MAX_ARGS);
	for (k = 0; k < DFZ_HOST_MAX_ARGS; k++) {
		if (k < h->ntensors)
			check_tensor(&h->t[k]);
		else
			CK_CHECK(tensor_is_blank(&h->t[k]));
	}
	CK_CHECK_UINT(h->graph, <=, 1);
	check_field(host, h->launches, 1, DFZ_CAP_LAUNCHES);
	CK_CHECK(h->budget >= DFZ_HOST_BUDGET_MIN &&
		 h->budget <= DFZ_CAP_DEV_BUDGET);
	CK_CHECK(h->bin_size >= 1 && h->bin_size <= DFZ_CAP_BIN);
	CK_CHECK_UINT(h->ncalls, <=, host ? 0 : DFZ_HOST_MAX_CALLS);
	for (k = 0; k < DFZ_HOST_MAX_CALLS; k++) {
		if (k < h->ncalls)
			check_call(&h->call[k]);
		else
			CK_CHECK(call_is_blank(&h->call[k]));
	}
}

void check_host_caps(const struct dfz_plan *p)
{
	const struct dfz_plan_host *h = &p->host;
	uint64_t total = dfz__plan_host_total(h);

	for (unsigned k = 0; k < h->ntensors; k++)
		CK_CHECK_UINT(dfz__plan_host_tensor_bytes(&h->t[k]), <=,
			      DFZ_HOST_MAX_TENSOR);
	CK_CHECK_UINT(total, <=, DFZ_CAP_HOST_TOTAL);
	CK_CHECK_UINT(h->budget, >=, dfz__plan_host_children(h));
	if (p->family != DFZ_FAMILY_HOST)
		return;
	if (h->launches > 1)
		CK_CHECK_UINT((uint64_t)h->launches *
			      (total > DFZ_PLAN_LAUNCH_BYTES ?
			       total : DFZ_PLAN_LAUNCH_BYTES), <=,
			      DFZ_PLAN_HOST_WORK);
	CK_CHECK_UINT(h->budget, >=, dfz__plan_host_need(h));
}

/* Everything a decoded plan promises: ranges, caps, a fixed point of the
 * clamps, and decode(encode(p)) == p with a canonical stream whose tail
 * after the family byte is the per-family stream. */
static void check_decoded(const struct dfz_plan *p)
{
	uint8_t *enc, *as;
	struct dfz_plan q;
	size_t m, m_as;

	check_ranges(p);
	check_caps(p);
	q = *p;
	dfz__plan_clamp(&q);
	CK_CHECK(dfz__plan_same(p, &q));
	CK_CHECK_INT(dfz_plan_encode(p, &enc, &m), ==, 0);
	CK_CHECK_UINT(m, <=, DFZ_PLAN_MAX_STREAM);
	dfz_plan_decode(enc, m, &q);
	CK_CHECK(dfz__plan_same(p, &q));
	CK_CHECK_INT(dfz_plan_encode_as(p, &as, &m_as), ==, 0);
	dfz_plan_decode_as(p->family, as, m_as, &q);
	CK_CHECK(dfz__plan_same(p, &q));
	if (m == 0)
		ck_assert(p->family == DFZ_FAMILY_XFER && m_as == 0);
	else
		CK_CHECK(m_as == m - 1 && enc[0] == p->family &&
			 !memcmp(enc + 1, as, m_as));
	free(enc);
	free(as);
}

/* ----------------------------------------------------------- the decoder */

static void check_simplest(const struct dfz_plan *p, unsigned family)
{
	const struct dfz_plan_host *h = &p->host;

	ck_assert_uint_eq(p->family, family);
	ck_assert(h->ntensors == 1 && h->t[0].rank == 1 &&
		  h->t[0].shape[0] == 1 && h->t[0].dtype == DFZ_DT_INT8 &&
		  h->t[0].role == DFZ_ROLE_IN && h->t[0].child == 0);
	ck_assert(h->graph == 0 && h->budget == DFZ_HOST_BUDGET_MIN &&
		  h->bin_size == 1 && h->seed == 0 && h->ncalls == 0);
	ck_assert_uint_eq(h->launches, family == DFZ_FAMILY_HOST ? 1 : 0);
	check_decoded(p);
}

START_TEST(test_simplest)
{
	static const uint8_t zeros[LONG_BYTES];
	uint8_t lead[LONG_BYTES] = { 0 }, *buf;
	unsigned f = DFZ_FAMILY_HOST + (unsigned)_i;
	struct dfz_plan p, q;
	size_t n;

	dfz_plan_decode_as(f, NULL, 0, &p);
	check_simplest(&p, f);
	dfz_plan_decode_as(f, zeros, sizeof(zeros), &q);
	ck_assert(dfz__plan_same(&p, &q));
	lead[0] = (uint8_t)f; /* the family byte, then zeros */
	dfz_plan_decode(lead, 1, &q);
	ck_assert(dfz__plan_same(&p, &q));
	dfz_plan_decode(lead, sizeof(lead), &q);
	ck_assert(dfz__plan_same(&p, &q));
	lead[0] = (uint8_t)(f + DFZ_FAMILY_COUNT); /* the draw is a modulo */
	dfz_plan_decode(lead, 1, &q);
	ck_assert(dfz__plan_same(&p, &q));
	ck_assert_int_eq(dfz_plan_encode(&p, &buf, &n), 0);
	ck_assert(n == 1 && buf[0] == f);
	free(buf);
	ck_assert_int_eq(dfz_plan_encode_as(&p, &buf, &n), 0);
	ck_assert_uint_eq(n, 0);
	free(buf);
}
END_TEST

/* Every length of a few random strings, as a plan of any family and as
 * the stream of each family: never a crash, every promise kept. */
START_TEST(test_decode_every_length)
{
	uint64_t s = 0x6a09e667f3bcc909u;
	uint8_t bytes[LONG_BYTES];
	struct dfz_plan p;
	unsigned round, f, seen[DFZ_FAMILY_COUNT] = { 0 };
	size_t n, i;

	for (round = 0; round < DFZ_FAMILY_COUNT; round++) {
		for (i = 0; i < LONG_BYTES; i++)
			bytes[i] = (uint8_t)(rng_next(&s) >> 8);
		bytes[0] = (uint8_t)round; /* the family of every prefix */
		for (n = 0; n <= LONG_BYTES; n++) {
			dfz_plan_decode(bytes, n, &p);
			check_decoded(&p);
			seen[p.family]++;
			for (f = 0; f < DFZ_FAMILY_COUNT; f++) {
				dfz_plan_decode_as(f, bytes, n, &p);
				check_decoded(&p);
			}
		}
	}
	ck_assert(seen[DFZ_FAMILY_HOST] == LONG_BYTES &&
		  seen[DFZ_FAMILY_API] == LONG_BYTES);
	dfz_plan_decode_as(DFZ_FAMILY_COUNT + 4, bytes, 40, &p);
	ck_assert_uint_eq(p.family, DFZ_FAMILY_API); /* as the draw clamps */
}
END_TEST

/* What random api decodes reached. */
struct api_reach {
	unsigned op[DFZ_API_COUNT], fault[DFZ_FAULT_COUNT];
	unsigned args, repeat4, full_calls, clamped, budget_low;
};

static void count_api(const struct dfz_plan *p, struct api_reach *r)
{
	const struct dfz_plan_host *h = &p->host;

	for (unsigned k = 0; k < h->ncalls; k++) {
		const struct dfz_host_call *c = &h->call[k];

		r->op[c->op]++;
		r->fault[c->fault]++;
		r->args += dfz__plan_fault_has_arg(c->op, c->fault);
		r->repeat4 += c->repeat == DFZ_CAP_API_REPEAT;
	}
	r->full_calls += h->ncalls == DFZ_HOST_MAX_CALLS;
	r->budget_low += h->budget < dfz__plan_host_need(h);
}

START_TEST(test_api_reach)
{
	uint64_t s = 0xbb67ae8584caa73bu;
	uint8_t bytes[LONG_BYTES];
	struct api_reach r = { 0 };
	struct dfz_plan p, raw;
	struct dfz_choice c;
	unsigned i, k;
	size_t n;

	for (i = 0; i < 2000; i++) {
		n = random_bytes_max(&s, bytes, LONG_BYTES);
		dfz_plan_decode_as(DFZ_FAMILY_API, bytes, n, &p);
		count_api(&p, &r);
		dfz__choice_reader(&c, bytes, n);
		dfz__plan_visit_as(&c, DFZ_FAMILY_API, &p, &raw);
		r.clamped += !dfz__plan_same(&p, &raw);
	}
	for (k = 0; k < DFZ_PLAN_HOST_OPS; k++) /* 3800 each, malloc more */
		ck_assert_uint_gt(r.op[dfz__plan_host_ops()[k]], 1000);
	for (k = 0; k < DFZ_FAULT_COUNT; k++) /* 450 each, none most */
		ck_assert_uint_gt(r.fault[k], 200);
	ck_assert_uint_gt(r.fault[DFZ_FAULT_NONE], 3 * r.fault[DFZ_FAULT_ZERO]);
	ck_assert(r.args > 100 && r.repeat4 > 200);
	/* 1180 clamped; 880 budgets under the need: never raised */
	ck_assert(r.clamped > 500 && r.budget_low > 300);
	ck_assert_uint_gt(r.full_calls, 5);
}
END_TEST

/* A hand-made host plan: @nt int8 tensors of shape [@dim], in then out. */
static void host_plan(struct dfz_plan *p, unsigned family, unsigned nt,
		      uint32_t dim)
{
	dfz_plan_decode_as(family, NULL, 0, p);
	p->host.ntensors = (uint8_t)nt;
	for (unsigned k = 0; k < nt; k++)
		p->host.t[k] = (struct dfz_plan_tensor){
			.rank = 1, .shape = { dim },
			.role = k ? DFZ_ROLE_OUT : DFZ_ROLE_IN,
		};
}

/* @p encodes to at most @most bytes and decodes back unchanged. */
static void check_reached(const struct dfz_plan *p, size_t most)
{
	struct dfz_plan q;
	uint8_t *buf;
	size_t n;

	ck_assert_int_eq(dfz_plan_encode(p, &buf, &n), 0);
	ck_assert_uint_le(n, most);
	dfz_plan_decode(buf, n, &q);
	free(buf);
	ck_assert(dfz__plan_same(p, &q));
	check_decoded(&q);
}

START_TEST(test_boundaries)
{
	struct dfz_plan p;
	unsigned k;

	host_plan(&p, DFZ_FAMILY_HOST, 1, 1);
	p.host.launches = DFZ_CAP_LAUNCHES; /* each a size candidate */
	p.host.budget = DFZ_CAP_DEV_BUDGET;
	p.host.bin_size = DFZ_CAP_BIN;
	check_reached(&p, 16);
	/* 256 launches of 256 bytes is the most work; a byte more and the
	 * launches are lowered. */
	p.host.t[0] = (struct dfz_plan_tensor){ .rank = 3,
						.shape = { 2, 8, 16 } };
	dfz_plan_normalise(&p);
	ck_assert_uint_eq(p.host.launches, DFZ_CAP_LAUNCHES);
	p.host.ntensors = 2;
	p.host.t[1] = (struct dfz_plan_tensor){ .rank = 1, .shape = { 1 } };
	dfz_plan_normalise(&p);
	ck_assert_uint_eq(p.host.launches, DFZ_PLAN_HOST_WORK / 257);
	host_plan(&p, DFZ_FAMILY_API, 2, 8);
	p.host.ncalls = DFZ_HOST_MAX_CALLS;
	for (k = 0; k < DFZ_HOST_MAX_CALLS; k++)
		p.host.call[k] = (struct dfz_host_call){
			.op = DFZ_API_RUN, .repeat = DFZ_CAP_API_REPEAT,
			.fault = DFZ_FAULT_ZERO,
		};
	p.host.budget = DFZ_CAP_DEV_BUDGET;
	p.host.bin_size = DFZ_CAP_BIN;
	check_reached(&p, 4 * DFZ_HOST_MAX_CALLS + 32);
}
END_TEST

/* Every op with every fault, each field at its top. */
START_TEST(test_every_call)
{
	struct dfz_host_call *c;
	struct dfz_plan p;
	unsigned o, f;

	host_plan(&p, DFZ_FAMILY_API, 1, 1);
	for (o = 0; o < DFZ_PLAN_HOST_OPS; o++) {
		p.host.ncalls = DFZ_FAULT_COUNT;
		for (f = 0; f < DFZ_FAULT_COUNT; f++) {
			c = &p.host.call[f];
			*c = (struct dfz_host_call){
				.op = dfz__plan_host_ops()[o],
				.fault = (uint8_t)f,
			};
			c->arg = dfz__plan_fault_has_arg(c->op, f) ? 15 : 0;
			if (dfz__plan_call_fields(c->op) & DFZ_CALL_SLOT)
				c->slot = DFZ_HOST_SLOTS - 1;
			if (dfz__plan_call_fields(c->op) & DFZ_CALL_SIZE)
				c->size = DFZ_HOST_MAX_TENSOR;
			if (dfz__plan_call_fields(c->op) & DFZ_CALL_OFFSET)
				c->offset = DFZ_HOST_MAX_TENSOR;
			if (dfz__plan_call_fields(c->op) & DFZ_CALL_REPEAT)
				c->repeat = DFZ_CAP_API_REPEAT;
		}
		check_reached(&p, DFZ_PLAN_MAX_STREAM);
	}
}
END_TEST

/* The widest plan: 16 rank-5 tensors and 64 copies, every draw at its
 * widest; its stream is the longest one (DFZ_PLAN_MAX_STREAM bounds it). */
START_TEST(test_widest)
{
	struct dfz_plan p;
	uint8_t *buf;
	unsigned k, d;
	size_t n;

	host_plan(&p, DFZ_FAMILY_API, DFZ_HOST_MAX_ARGS, 1);
	for (k = 0; k < DFZ_HOST_MAX_ARGS; k++) {
		p.host.t[k].rank = DFZ_MAX_RANK;
		for (d = 0; d < DFZ_MAX_RANK; d++)
			p.host.t[k].shape[d] = d ? 1 : 6;
	}
	p.host.budget = 99999;
	p.host.bin_size = 9999;
	p.host.ncalls = DFZ_HOST_MAX_CALLS;
	for (k = 0; k < DFZ_HOST_MAX_CALLS; k++)
		p.host.call[k] = (struct dfz_host_call){
			.op = DFZ_API_COPY_FROM, .fault = DFZ_FAULT_HUGE,
			.slot = 5, .size = 30000, .offset = 30000,
		};
	p.host.seed = UINT32_MAX;
	ck_assert_int_eq(dfz_plan_encode(&p, &buf, &n), 0);
	free(buf);
	/* family 1, tensors 2, 16 x (rank 1, shape 5 x 2, dtype, role,
	 * child), graph 1, budget 4, bin 3, ncalls 1, 64 x (op, flag,
	 * fault, slot, size 3, offset 4), seed 4 */
	ck_assert_uint_eq(n, 1 + 2 + 16 * (1 + 5 * 2 + 3) + 1 + 4 + 3 + 1 +
				     64 * 11 + 4);
	ck_assert_uint_le(n, DFZ_PLAN_MAX_STREAM);
	check_reached(&p, DFZ_PLAN_MAX_STREAM);
}
END_TEST

/* ------------------------------------------------------------ the clamps */

START_TEST(test_tensor_clamps)
{
	struct dfz_plan p;
	unsigned k, d;

	host_plan(&p, DFZ_FAMILY_API, 1, 1); /* 256^5 fp64: 27 halvings */
	p.host.t[0].rank = DFZ_MAX_RANK;
	p.host.t[0].dtype = DFZ_DT_FP64;
	for (d = 0; d < DFZ_MAX_RANK; d++)
		p.host.t[0].shape[d] = 256;
	dfz_plan_normalise(&p);
	ck_assert(p.host.t[0].shape[0] == 4 && p.host.t[0].shape[1] == 4 &&
		  p.host.t[0].shape[2] == 8 && p.host.t[0].shape[4] == 8);
	ck_assert_uint_eq(dfz__plan_host_tensor_bytes(&p.host.t[0]),
			  DFZ_HOST_MAX_TENSOR);
	/* 16 tensors of 64 KiB: the largest (lowest first) halve to 16 KiB. */
	host_plan(&p, DFZ_FAMILY_API, DFZ_HOST_MAX_ARGS, 256);
	for (k = 0; k < DFZ_HOST_MAX_ARGS; k++) {
		p.host.t[k].rank = 2;
		p.host.t[k].shape[1] = 256;
	}
	p.host.t[3].shape[0] = 255; /* smaller: halved last, once less */
	dfz_plan_normalise(&p);
	for (k = 0; k < DFZ_HOST_MAX_ARGS; k++)
		ck_assert_msg(p.host.t[k].shape[0] == (k == 3 ? 127 : 128) &&
			      p.host.t[k].shape[1] == 128, "t%u", k);
	ck_assert_uint_le(dfz__plan_host_total(&p.host), DFZ_CAP_HOST_TOTAL);
	check_decoded(&p);
}
END_TEST

START_TEST(test_run_clamps)
{
	struct dfz_plan p, q;

	host_plan(&p, DFZ_FAMILY_HOST, 1, 256); /* 64 KiB */
	p.host.t[0].rank = 2;
	p.host.t[0].shape[1] = 256;
	p.host.launches = DFZ_CAP_LAUNCHES;
	dfz_plan_normalise(&p);
	ck_assert_uint_eq(p.host.launches, DFZ_PLAN_HOST_WORK / (1u << 16));
	/* The budget: a child (staged first), an in, the graph output (the
	 * first OUT, here 100 bytes) and the binary. */
	host_plan(&p, DFZ_FAMILY_HOST, 3, 100);
	p.host.t[0].child = 1;
	p.host.t[0].shape[0] = 200;
	p.host.t[2].role = DFZ_ROLE_INOUT;
	p.host.graph = 1;
	p.host.bin_size = DFZ_CAP_BIN;
	dfz_plan_normalise(&p);
	ck_assert_uint_eq(p.host.budget, 200 + 100 + 100 + 100 + DFZ_CAP_BIN);
	p.host.t[1].role = DFZ_ROLE_INOUT; /* no OUT: no graph buffer */
	p.host.budget = DFZ_HOST_BUDGET_MIN;
	dfz_plan_normalise(&p);
	ck_assert_uint_eq(p.host.budget, 400 + DFZ_CAP_BIN);
	p.host.budget = 500000; /* above the need: kept */
	dfz_plan_normalise(&p);
	ck_assert_uint_eq(p.host.budget, 500000);
	q = p; /* an api plan's budget: raised to its children only */
	q.family = DFZ_FAMILY_API;
	q.host.budget = DFZ_HOST_BUDGET_MIN;
	dfz_plan_normalise(&q);
	ck_assert(q.host.budget == DFZ_HOST_BUDGET_MIN && q.host.launches == 0);
	q.host.t[0].rank = 2;
	q.host.t[0].shape[1] = 100; /* a 20000-byte child */
	dfz_plan_normalise(&q);
	ck_assert_uint_eq(q.host.budget, 20000);
	ck_assert_uint_lt(q.host.budget, dfz__plan_host_need(&q.host));
}
END_TEST

/* Fields a plan does not draw are canonical after normalise, and equal()
 * does not see them. */
START_TEST(test_canonical)
{
	struct dfz_plan a, b;

	host_plan(&a, DFZ_FAMILY_API, 2, 4);
	a.host.ncalls = 2;
	a.host.call[0] = (struct dfz_host_call){ .op = DFZ_API_INIT,
		.fault = DFZ_FAULT_NDIMS, .arg = 1 };
	a.host.call[1] = (struct dfz_host_call){ .op = DFZ_API_FREE,
		.slot = 3 };
	b = a;
	b.host.t[0].shape[3] = 9;          /* beyond rank */
	b.host.t[5].rank = 3;              /* beyond ntensors */
	b.host.call[1].size = 77;          /* free takes no size */
	b.host.call[1].repeat = 1;
	b.host.call[9].op = DFZ_API_RUN;   /* beyond ncalls */
	b.host.launches = 500;             /* host only */
	b.xfer.rank = 3;                   /* another family's */
	ck_assert(!dfz__plan_same(&a, &b));
	ck_assert(dfz_plan_equal(&a, &b));
	dfz_plan_normalise(&b);
	check_ranges(&b);
	b.host.call[0].fault = DFZ_FAULT_NULL_CTX; /* arg 1 now unused */
	ck_assert(!dfz_plan_equal(&a, &b));
	dfz_plan_normalise(&b);
	ck_assert_uint_eq(b.host.call[0].arg, 0);
	b = a;
	b.host.call[1].op = DFZ_API_COPY_DEV; /* not drawn: the simplest op */
	dfz_plan_normalise(&b);
	ck_assert(b.host.call[1].op == DFZ_API_MALLOC &&
		  b.host.call[1].size == 1 && b.host.call[1].slot == 3);
	b = a;
	b.host.seed = 1;
	ck_assert(!dfz_plan_equal(&a, &b));
	b = a;
	b.family = DFZ_FAMILY_HOST;
	ck_assert(!dfz_plan_equal(&a, &b));
}
END_TEST

/* -------------------------------------------------------------- the text */

static const char host_text[] =
	"family host\n"
	"tensors 2\n"
	"t0 shape 2 3 dtype fp16 role in\n"
	"t1 shape 4 dtype int8 role out child\n"
	"graph 1\n"
	"launches 200\n"
	"budget 65536\n"
	"bin 4096\n"
	"seed 7\n";

static const char api_text[] =
	"# calls in order\n"
	"tensors 2\n"
	"t1 role inout child dtype fp64 shape 4 1 2\n"
	"budget 8192\n"
	"call malloc slot 1 size 4096\n"
	"call copy_to slot 1 offset 0 size 128\n"
	"family api\n"
	"call init fault ndims arg 2\n"
	"call run repeat 2\n"
	"call free slot 1 fault null_ctx\n";

START_TEST(test_parse_examples)
{
	const struct dfz_plan_host *h;
	struct dfz_plan p, q;
	char err[128], *text;

	ck_assert_msg(!dfz_plan_parse(host_text, &p, err, sizeof(err)), "%s",
		      err);
	h = &p.host;
	ck_assert(p.family == DFZ_FAMILY_HOST && h->ntensors == 2 &&
		  h->t[0].rank == 2 && h->t[0].shape[1] == 3 &&
		  h->t[0].dtype == DFZ_DT_FP16 && h->t[1].child == 1 &&
		  h->t[1].role == DFZ_ROLE_OUT && h->graph == 1 &&
		  h->launches == 200 && h->budget == 65536 &&
		  h->bin_size == 4096 && h->seed == 7);
	check_ranges(&p);
	text = print_to_string(&p);
	ck_assert_str_eq(text, "# dmafuzz plan\nfamily host\ntensors 2\n"
		"t0 shape 2 3 dtype fp16 role in  # 12 bytes\n"
		"t1 shape 4 dtype int8 role out child  # 4 bytes\n"
		"graph 1\nlaunches 200\nbudget 65536\nbin 4096\nseed 7\n");
	free(text);
	q = p; /* under every cap: its own normal form */
	dfz_plan_normalise(&q);
	ck_assert(dfz__plan_same(&p, &q));
	ck_assert_msg(!dfz_plan_parse(api_text, &p, err, sizeof(err)), "%s",
		      err);
	h = &p.host;
	ck_assert(p.family == DFZ_FAMILY_API && h->ncalls == 5 &&
		  h->t[0].rank == 1 && h->t[0].shape[0] == 1 &&
		  h->t[1].rank == 3 && h->t[1].shape[2] == 2 &&
		  h->t[1].dtype == DFZ_DT_FP64 && h->launches == 0);
	ck_assert(h->call[1].op == DFZ_API_COPY_TO && h->call[1].size == 128 &&
		  h->call[2].fault == DFZ_FAULT_NDIMS && h->call[2].arg == 2 &&
		  h->call[3].repeat == 2 && h->call[4].slot == 1 &&
		  h->call[4].fault == DFZ_FAULT_NULL_CTX);
	check_ranges(&p);
	text = print_to_string(&p);
	ck_assert_ptr_nonnull(strstr(text, "\nbin 1\nseed 0\n"
		"call malloc slot 1 size 4096\n"
		"call copy_to slot 1 offset 0 size 128\n"
		"call init fault ndims arg 2\ncall run repeat 2\n"
		"call free slot 1 fault null_ctx\n"));
	free(text);
}
END_TEST

/* print, parse and encode agree on plans of every family. */
START_TEST(test_text_roundtrip)
{
	uint64_t s = 0x3c6ef372fe94f82bu;
	unsigned i, seen[DFZ_FAMILY_COUNT] = { 0 };
	uint8_t bytes[LONG_BYTES], *enc;
	struct dfz_plan p, q, r;
	char err[128], *text;
	size_t n;

	for (i = 0; i < 4000; i++) {
		n = random_bytes_max(&s, bytes, LONG_BYTES);
		dfz_plan_decode(bytes, n, &p);
		text = print_to_string(&p);
		CK_CHECK_MSG(dfz_plan_parse(text, &q, err, sizeof(err)) == 0,
			     "%s\n%s", err, text);
		CK_CHECK_MSG(dfz__plan_same(&p, &q), "%s", text);
		CK_CHECK_INT(dfz_plan_encode(&q, &enc, &n), ==, 0);
		dfz_plan_decode(enc, n, &r);
		CK_CHECK_MSG(dfz__plan_same(&p, &r), "%s", text);
		seen[p.family]++;
		free(enc);
		free(text);
	}
	for (i = 0; i < DFZ_FAMILY_COUNT; i++) /* a quarter of bytes are 0 */
		ck_assert_uint_gt(seen[i], 800);
}
END_TEST

static const struct parse_error parse_errors[] = {
	{ "family host\nbogus 1\n", 2, "unknown key 'bogus'" },
	{ "family api\nt0 dtype fp17\n", 2, "unknown value 'fp17' for "
	  "'t0 dtype' (int8|fp16|fp32|int32|fp64)" },
	{ "family host\nt0 role sideways\n", 2, "(in|out|inout)" },
	{ "tensors 2\nfamily host\nt2 shape 1\n", 3,
	  "'t2' given but tensors is 2" },
	{ "family host\nt99 shape 1\n", 2, "'t99' given but tensors is 1" },
	{ "family host\nt100 shape 1\n", 2, "unknown key 't100'" },
	{ "family host\nt0 shape 1\n\nt0 dtype fp32\n", 4,
	  "duplicate key 't0' (first on line 2)" },
	{ "family host\nbudget\n", 2, "'budget' needs 1 value, got 0" },
	{ "family api\nt0 dtype\n", 2, "'t0 dtype' needs 1 value, got 0" },
	{ "family api\nt0 shape\n", 2, "'t0 shape' takes 1..5 values, got 0" },
	{ "family api\nt0 shape 1 2 3 4 5 6\n", 2, "got 6" },
	{ "family api\nt0 shape 0\n", 2, "out of range 1..256" },
	{ "family api\nt0 shape 2 x\n", 2, "bad number 'x'" },
	{ "family api\nt0 shape 2 shape 3\n", 2, "duplicate field 'shape'" },
	{ "family api\nt0 child 1\n", 2, "'t0 child' needs no value" },
	{ "family api\nt0 colour red\n", 2, "unknown field 'colour' of 't0'" },
	{ "family api\ncall malloc slot\n", 2, "'call slot' needs a value" },
	{ "family api\ncall\n", 2, "'call' needs an op" },
	{ "family api\ncall launch\n", 2, "unknown value 'launch' for 'call'" },
	{ "family api\ncall init slot 1\n", 2,
	  "'slot' is not used by 'call init'" },
	{ "family api\ncall run size 3\n", 2,
	  "'size' is not used by 'call run'" },
	{ "family api\ncall run repeat 5\n", 2, "out of range 1..4" },
	{ "family api\ncall copy_to offset 65537\n", 2,
	  "out of range 0..65536" },
	{ "family api\ncall malloc size 0\n", 2, "out of range 1..65536" },
	{ "family api\ncall malloc slot 8\n", 2, "out of range 0..7" },
	{ "family api\ncall init fault bad\n", 2, "unknown value 'bad' for "
	  "'call fault'" },
	{ "family api\ncall init arg 1\n", 2,
	  "'arg' given but fault none of 'call init' takes none" },
	{ "family api\ncall malloc fault huge arg 1\n", 2,
	  "fault huge of 'call malloc' takes none" },
	{ "family api\ncall init fault ndims arg 16\n", 2,
	  "out of range 0..15" },
	{ "family api\ncall free slot 1 slot 2\n", 2,
	  "duplicate field 'slot' of 'call'" },
	{ "family api\ncall free colour 2\n", 2, "unknown field 'colour'" },
	{ "family api\nlaunches 4\n", 2,
	  "key 'launches' is not part of an api plan" },
	{ "family host\ncall run\n", 2,
	  "key 'call' is not part of a host plan" },
	{ "family host\nrank 2\n", 2, "key 'rank' is not part of a host plan" },
	{ "family api\nnode0.kernel add\n", 2,
	  "key 'node0.kernel' is not part of an api plan" },
	{ "family host\nlaunches 257\n", 2, "out of range 1..256" },
	{ "family host\nbudget 4095\n", 2, "out of range 4096..1048576" },
	{ "family host\nbin 65537\n", 2, "out of range 1..65536" },
	{ "family host\ngraph 2\n", 2, "out of range 0..1" },
	{ "family host\ntensors 17\n", 2, "out of range 1..16" },
	{ "family host\ntensors 1\ntensors 1\n", 3, "duplicate key 'tensors'" },
	{ "family host\nseed 1\nseed 1\n", 3, "duplicate key 'seed'" },
	{ "family host\nfamily api\n", 2, "duplicate key 'family'" },
	{ "family\n", 1, "'family' needs 1 value, got 0" },
	{ "family api\nt0 shape 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 "
	  "1 1 1 1 1 1 1 1 1 1\n", 2, "has more than 32 values" },
};
static_assert(COUNT_OF(parse_errors) == 45, "parse_errors");

START_TEST(test_parse_errors)
{
	check_parse_case(&parse_errors[_i]);
}
END_TEST

/* 64 call lines are a plan; the 65th is an error on its own line. */
START_TEST(test_too_many_calls)
{
	size_t cap = 32 + 16 * (DFZ_HOST_MAX_CALLS + 1), len;
	char *text = malloc(cap), err[128];
	struct dfz_plan p;
	unsigned k;

	ck_assert_ptr_nonnull(text);
	len = (size_t)snprintf(text, cap, "family api\n");
	for (k = 0; k < DFZ_HOST_MAX_CALLS; k++)
		len += (size_t)snprintf(text + len, cap - len, "call run\n");
	ck_assert_int_eq(dfz_plan_parse(text, &p, err, sizeof(err)), 0);
	ck_assert(p.host.ncalls == 64 && p.host.call[63].repeat == 1);
	snprintf(text + len, cap - len, "call validate\n");
	check_parse_error(dfz_plan_parse(text, &p, err, sizeof(err)), err,
			  DFZ_HOST_MAX_CALLS + 2, "more than 64 'call' lines");
	free(text);
}
END_TEST

/* Printed host and api plans with a few bytes hit parse to a plan in
 * range or fail with a one-line message. */
START_TEST(test_parse_random)
{
	uint64_t s = 0xa54ff53a5f1d36f1u;
	uint8_t bytes[LONG_BYTES];
	unsigned i, ok = 0;
	struct dfz_plan p;
	size_t n;

	for (i = 0; i < 2000; i++) {
		n = random_bytes_max(&s, bytes, LONG_BYTES);
		dfz_plan_decode_as(DFZ_FAMILY_HOST + i % 2, bytes, n, &p);
		ok += parse_mutated(&s, &p, i);
	}
	ck_assert(ok > 100 && ok < 1900); /* both outcomes were exercised */
}
END_TEST

Suite *suite_plan_host(void)
{
	Suite *s = suite_create("plan_host");
	TCase *tc = tcase_create("decode");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_simplest, 0, 2);
	tcase_add_test(tc, test_decode_every_length);
	tcase_add_test(tc, test_api_reach);
	tcase_add_test(tc, test_boundaries);
	tcase_add_test(tc, test_every_call);
	tcase_add_test(tc, test_widest);
	tcase_add_test(tc, test_tensor_clamps);
	tcase_add_test(tc, test_run_clamps);
	tcase_add_test(tc, test_canonical);
	suite_add_tcase(s, tc);
	tc = tcase_create("text");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_parse_examples);
	tcase_add_test(tc, test_text_roundtrip);
	tcase_add_loop_test(tc, test_parse_errors, 0, COUNT_OF(parse_errors));
	tcase_add_test(tc, test_too_many_calls);
	tcase_add_test(tc, test_parse_random);
	suite_add_tcase(s, tc);
	return s;
}
