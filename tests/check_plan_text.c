// SPDX-License-Identifier: MIT
/*
 * Tests of the text form of xfer plans (harness/plan_print.c, plan_text.c,
 * plan_lex.c): print and parse agree with the decoder and the encoder on
 * one- and two-hop plans, keys missing take the simplest values, plans
 * written before hops existed still read the same, and the parser's
 * errors on bad and random input are one line each. The helpers shared
 * with check_plan.c live here too (declared in check_plan.h).
 */
#include <assert.h>
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_fast.h"
#include "check_plan.h"

/* ------------------------------------------------------------- helpers */

uint64_t rng_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

size_t random_bytes(uint64_t *s, uint8_t *buf)
{
	return random_bytes_max(s, buf, MAX_BYTES);
}

/* A random byte string, a quarter of its bytes zero. */
size_t random_bytes_max(uint64_t *s, uint8_t *buf, size_t max)
{
	size_t n = rng_next(s) % (max + 1), i;

	for (i = 0; i < n; i++) {
		uint64_t r = rng_next(s);

		buf[i] = (r & 3) == 0 ? 0 : (uint8_t)(r >> 8);
	}
	return n;
}

/* The text form of @p; caller owns, release with free(). */
char *print_to_string(const struct dfz_plan *p)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CK_CHECK(f != NULL);
	dfz_plan_print(p, f);
	CK_CHECK_INT(fclose(f), ==, 0);
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

	CK_CHECK(is_perm(l->order, x->rank));
	for (d = 0; d < DFZ_MAX_RANK; d++)
		CK_CHECK_UINT(l->pad[d], <=, d < x->rank ? DFZ_CAP_PAD : 0);
}

static void check_node(const struct dfz_plan_xfer *x, unsigned i)
{
	const struct dfz_plan_node *n = &x->node[i];
	static const struct dfz_plan_node zero;
	unsigned d;

	if (i >= x->nnodes) {
		CK_CHECK(!memcmp(n, &zero, sizeof(zero)));
		return;
	}
	CK_CHECK_UINT(n->kernel, <, DFZ_KERNEL_COUNT);
	check_layout(x, &n->out);
	check_layout(x, &n->aux);
	for (d = 0; d < x->rank && n->kernel != DFZ_KERNEL_ADD; d++)
		CK_CHECK(n->aux.order[d] == d && n->aux.pad[d] == 0);
	for (d = 0; d < DFZ_MAX_RANK; d++) {
		uint32_t hi = x->shape[d] ? x->shape[d] : 1;

		if (d >= x->rank) {
			CK_CHECK(n->tile[0][d] == 0 && n->tile[1][d] == 0);
			continue;
		}
		CK_CHECK_UINT(n->tile[0][d], >=, 1);
		CK_CHECK_UINT(n->tile[0][d], <=, hi);
		if (x->nhops == 2)
			CK_CHECK(n->tile[1][d] >= 1 &&
				 n->tile[1][d] <= n->tile[0][d]);
		else
			CK_CHECK_UINT(n->tile[1][d], ==, 0);
	}
}

static void check_hop(const struct dfz_plan_hop *h)
{
	CK_CHECK(h->buffering == 1 || h->buffering == 2);
	CK_CHECK_UINT(h->policy, <, DFZ_POLICY_COUNT);
	CK_CHECK(h->pool_k >= 1 && h->pool_k <= DFZ_MAX_POOL);
	CK_CHECK(h->policy == DFZ_POLICY_POOL || h->pool_k == 1);
	CK_CHECK_UINT(h->strategy, <, DFZ_STRAT_COUNT);
}

/* The hops, their engines and levels, and the sizes of those levels. */
static void check_hops(const struct dfz_plan_xfer *x)
{
	static const struct dfz_plan_hop zero;
	bool l2l1 = x->hop[0].engine != DFZ_ENGINE_RAM;

	CK_CHECK(x->nhops == 1 || x->nhops == 2);
	CK_CHECK_UINT(x->hop[0].engine, <, DFZ_ENGINE_COUNT);
	check_hop(&x->hop[0]);
	if (x->nhops == 2) {
		CK_CHECK(!l2l1 && x->hop[1].engine != DFZ_ENGINE_RAM &&
			 x->hop[1].engine < DFZ_ENGINE_COUNT);
		check_hop(&x->hop[1]);
	} else {
		CK_CHECK(!memcmp(&x->hop[1], &zero, sizeof(zero)));
	}
	CK_CHECK_UINT(x->ext_level, ==,
		      x->nhops == 1 && l2l1 ? DFZ_L2 : DFZ_L3);
	if (x->ext_level == DFZ_L3)
		CK_CHECK(x->l2_size >= 1024 && x->l2_size <= DFZ_CAP_L2);
	else
		CK_CHECK_UINT(x->l2_size, ==, 0);
	if (x->nhops == 2 || l2l1)
		CK_CHECK(x->l1_size >= 1024 && x->l1_size <= DFZ_CAP_L1);
	else
		CK_CHECK_UINT(x->l1_size, ==, 0);
}

/* Every field in its range, every undrawn field canonical. */
void check_ranges(const struct dfz_plan *p)
{
	static const struct dfz_plan blank;
	const struct dfz_plan_xfer *x = &p->xfer;
	unsigned d, i;

	CK_CHECK_UINT(p->family, <, DFZ_FAMILY_COUNT);
	if (p->family != DFZ_FAMILY_XFER) {
		check_host_ranges(p);
		return;
	}
	CK_CHECK(dfz__plan_host_same(&p->host, &blank.host));
	CK_CHECK(x->rank >= 1 && x->rank <= DFZ_MAX_RANK);
	CK_CHECK(x->elem == 1 || x->elem == 2 || x->elem == 4 || x->elem == 8);
	CK_CHECK(x->tensor_class >= DFZ_TENSOR_CLASS_MIN &&
		 x->tensor_class <= DFZ_TENSOR_CLASS_MAX);
	for (d = 0; d < DFZ_MAX_RANK; d++)
		CK_CHECK_UINT(x->shape[d], <=, d >= x->rank ? 0 :
			      x->rank == 1 ? DFZ_CAP_DIM_1D : DFZ_CAP_DIM);
	check_layout(x, &x->in);
	CK_CHECK(x->nnodes >= 1 && x->nnodes <= DFZ_MAX_NODES);
	check_hops(x);
	for (i = 0; i < DFZ_MAX_NODES; i++)
		check_node(x, i);
	CK_CHECK(x->compute_chunks >= 1 && x->compute_chunks <= 8);
	CK_CHECK_UINT(x->latency, <=, DFZ_CAP_LATENCY);
	CK_CHECK(x->bandwidth >= 1 && x->bandwidth <= DFZ_CAP_BANDWIDTH);
	CK_CHECK_UINT(x->nsched, <=, DFZ_MAX_SCHED);
	for (i = 0; i < DFZ_MAX_SCHED; i++)
		CK_CHECK_UINT(x->sched[i], <=,
			      i < x->nsched ? DFZ_CAP_SCHED_STEPS : 0);
}

/* The caps: every tensor under its plan's cap (tensors in L2 fitting
 * there together), every hop's tiles fitting the hop's level. */
void check_caps(const struct dfz_plan *p)
{
	const struct dfz_plan_xfer *x = &p->xfer;
	uint32_t cap = dfz_plan_tensor_cap(x);
	unsigned i, h;

	if (p->family != DFZ_FAMILY_XFER) {
		check_host_caps(p);
		return;
	}

	CK_CHECK_UINT(dfz__plan_tensor_bytes(x, &x->in), <=, cap);
	for (i = 0; i < x->nnodes; i++) {
		CK_CHECK_UINT(dfz__plan_tensor_bytes(x, &x->node[i].out), <=,
			      cap);
		if (x->node[i].kernel == DFZ_KERNEL_ADD)
			CK_CHECK_UINT(dfz__plan_tensor_bytes(
					      x, &x->node[i].aux), <=, cap);
		for (h = 0; h < x->nhops; h++)
			CK_CHECK_UINT(dfz__plan_hop_need(x, i, h), <=,
				      dfz__plan_level_size(
					      x, dfz_plan_hop_level(x, h)));
	}
	if (x->ext_level == DFZ_L2)
		CK_CHECK_UINT(dfz__plan_resident_bytes(x), <=,
			      DFZ_PLAN_L2_TENSORS);
	CK_CHECK_UINT(dfz__plan_level_need(x, DFZ_L2), <=, x->l2_size);
	CK_CHECK_UINT(dfz__plan_level_need(x, DFZ_L1), <=, x->l1_size);
}

/* The plan a hand-written, over-cap rank-@rank plan starts from: one ram
 * hop, the 16 KiB tensor cap. */
void hand_plan(struct dfz_plan *p, unsigned rank)
{
	unsigned d;

	dfz_plan_decode(NULL, 0, p);
	p->xfer.rank = (uint8_t)rank;
	p->xfer.tensor_class = 14;
	for (d = 0; d < rank; d++) {
		p->xfer.in.order[d] = (uint8_t)d;
		p->xfer.node[0].out.order[d] = (uint8_t)d;
		p->xfer.node[0].aux.order[d] = (uint8_t)d;
		p->xfer.node[0].tile[0][d] = 1;
	}
}

/* A two-hop (ram then @engine) version of the hand plan @p. */
void two_hops(struct dfz_plan *p, unsigned engine)
{
	struct dfz_plan_xfer *x = &p->xfer;
	unsigned i, d;

	x->nhops = 2;
	x->hop[1] = (struct dfz_plan_hop){ .engine = (uint8_t)engine,
					   .buffering = 1, .pool_k = 1 };
	x->l1_size = DFZ_CAP_L1;
	for (i = 0; i < DFZ_MAX_NODES; i++)
		for (d = 0; d < x->rank; d++)
			x->node[i].tile[1][d] = 1;
}

/* ------------------------------------------------------------- the text */

static const char example[] =
	"# dmafuzz plan\n"
	"family xfer\n"
	"rank 3\n"
	"shape 2 8 16\n"
	"elem 4\n"
	"tensor_cap 16384\n"
	"in.order 0 1 2\n"
	"in.pad 0 0 1\n"
	"hops 2\n"
	"ext L3\n"
	"nodes 1\n"
	"node0.kernel add               # copy | inc | add\n"
	"node0.out.order 0 2 1\n"
	"node0.out.pad 0 0 0\n"
	"node0.aux.order 1 0 2\n"
	"node0.aux.pad 0 0 2\n"
	"node0.tile 1 4 16\n"
	"node0.tile1 1 3 8\n"
	"hop0.engine ram  # L3 -> L2\n"
	"hop0.buffering double             # single | double\n"
	"hop0.policy async-shared\n"
	"hop0.pool 1\n"
	"hop0.strategy tensor-dir\nhop0.db_order eager\n"
	"hop1.engine idma  # L2 -> L1\n"
	"hop1.buffering single\n"
	"hop1.policy pool\n"
	"hop1.pool 3\n"
	"hop1.strategy fresh\n"
	"l2_size 1048576\n"
	"l1_size 65536\n"
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
		  x->shape[2] == 16 && x->elem == 4 && x->in.pad[2] == 1 &&
		  x->tensor_class == 14);
	ck_assert(!memcmp(x->node[0].out.order, order, 3));
	ck_assert(!memcmp(x->node[0].aux.order, aux, 3));
	ck_assert(x->node[0].kernel == DFZ_KERNEL_ADD &&
		  x->node[0].aux.pad[2] == 2 && x->node[0].tile[0][1] == 4 &&
		  x->node[0].tile[1][2] == 8);
	ck_assert(x->nhops == 2 && x->ext_level == DFZ_L3 &&
		  x->hop[0].engine == DFZ_ENGINE_RAM &&
		  x->hop[0].buffering == 2 &&
		  x->hop[0].db_order == DFZ_DB_EAGER &&
		  x->hop[1].engine == DFZ_ENGINE_IDMA &&
		  x->hop[1].policy == DFZ_POLICY_POOL &&
		  x->hop[1].pool_k == 3 && x->hop[1].strategy == DFZ_STRAT_FRESH);
	ck_assert(x->l2_size == DFZ_CAP_L2 && x->l1_size == 65536 &&
		  x->compute_chunks == 2 && x->latency == 4 &&
		  x->bandwidth == 64 && x->seed == 7);
	ck_assert(x->nsched == 3 && x->sched[1] == 3 && x->sched[2] == 1);
	check_ranges(&p);
	q = p; /* a plan under the caps is its own normal form */
	dfz_plan_normalise(&q);
	ck_assert(dfz__plan_same(&p, &q));
	text = print_to_string(&p); /* printing gives the same text back */
	ck_assert_str_eq(text, "# dmafuzz plan\nfamily xfer\nrank 3\n"
		"shape 2 8 16\nelem 4\ntensor_cap 16384\nin.order 0 1 2\n"
		"in.pad 0 0 1\nhops 2\next L3\nnodes 1\n"
		"node0.kernel add\nnode0.out.order 0 2 1\nnode0.out.pad 0 0 0\n"
		"node0.aux.order 1 0 2\nnode0.aux.pad 0 0 2\nnode0.tile 1 4 16\n"
		"node0.tile1 1 3 8\n"
		"hop0.engine ram  # L3 -> L2\nhop0.buffering double\n"
		"hop0.policy async-shared\nhop0.pool 1\n"
		"hop0.strategy tensor-dir\nhop0.db_order eager\n"
		"hop1.engine idma  # L2 -> L1\nhop1.buffering single\n"
		"hop1.policy pool\nhop1.pool 3\nhop1.strategy fresh\n"
		"l2_size 1048576\nl1_size 65536\ncompute_chunks 2\nlatency 4\n"
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
	/* Rank, hop and node counts anywhere; the rest takes their sizes. */
	ck_assert_int_eq(dfz_plan_parse("node1.kernel inc\r\nnodes 2\r\n"
					"rank 3\r\nsched\r\nhops 2\r\n", &p, err,
					sizeof(err)), 0);
	ck_assert(p.xfer.rank == 3 && p.xfer.nnodes == 2 &&
		  p.xfer.node[1].kernel == DFZ_KERNEL_INC && p.xfer.nsched == 0);
	ck_assert(p.xfer.node[1].tile[0][2] == 1 && p.xfer.in.order[2] == 2 &&
		  p.xfer.node[1].aux.order[1] == 1 &&
		  p.xfer.node[1].tile[1][2] == 1);
	/* The simplest second hop: mchan, single, async-shared. */
	ck_assert(p.xfer.nhops == 2 && p.xfer.hop[1].engine == DFZ_ENGINE_MCHAN &&
		  p.xfer.hop[1].buffering == 1 && p.xfer.hop[1].pool_k == 1 &&
		  p.xfer.l1_size == DFZ_PLAN_LOCAL_MIN);
	check_ranges(&p);
	q = p;
	dfz_plan_normalise(&q);
	ck_assert_uint_gt(q.xfer.l1_size, DFZ_PLAN_LOCAL_MIN); /* raised */
	q.xfer.l1_size = p.xfer.l1_size;
	ck_assert(dfz__plan_same(&p, &q));
	/* Parse does not clamp; normalise does. */
	ck_assert_int_eq(dfz_plan_parse("rank 2\nshape 4096 4096\n"
					"node0.tile 4096 4096\n"
					"l2_size 1048576\n"
					"tensor_cap 16384\n", &p, err,
					sizeof(err)), 0);
	ck_assert_uint_eq(p.xfer.shape[0], 4096);
	q = p;
	/* As written: only the hard tensor limit (2^18 bytes) applies. */
	dfz_plan_normalise(&p);
	ck_assert_uint_eq(p.xfer.shape[0], 512);
	ck_assert_int_eq(dfz_plan_clamped(&q, err, sizeof(err)), 3);
	ck_assert_str_eq(err, "shape 4096 4096 -> 512 512; "
			 "node0.tile 4096 4096 -> 512 512; bandwidth 1 -> 8");
	/* Under the fuzz caps: the plan's tensor_cap and the work cap. */
	q.caps = DFZ_CAPS_FUZZ;
	dfz_plan_normalise(&q);
	ck_assert_uint_eq(q.xfer.shape[0], 128);
}
END_TEST

/* A plan written before hops existed reads as the same one-hop plan. */
START_TEST(test_parse_legacy)
{
	static const char legacy[] =
		"rank 1\nshape 64\nelem 4\ntensor_cap 1024\nnode0.tile 16\n"
		"engine ram\next L3\nlocal L2\nlocal_size 8192\n"
		"buffering double\npolicy pool\npool 2\nstrategy dir\n";
	static const char now[] =
		"rank 1\nshape 64\nelem 4\ntensor_cap 1024\nnode0.tile 16\n"
		"hop0.engine ram\next L3\nl2_size 8192\nhop0.buffering double\n"
		"hop0.policy pool\nhop0.pool 2\nhop0.strategy dir\n";
	struct dfz_plan a, b;
	char err[128];

	ck_assert_msg(dfz_plan_parse(legacy, &a, err, sizeof(err)) == 0, "%s",
		      err);
	ck_assert_msg(dfz_plan_parse(now, &b, err, sizeof(err)) == 0, "%s",
		      err);
	ck_assert(dfz__plan_same(&a, &b));
	ck_assert(a.xfer.l2_size == 8192 && a.xfer.hop[0].pool_k == 2);
	/* local_size is the size of hop 0's level: L1 for mchan. */
	ck_assert_int_eq(dfz_plan_parse("engine mchan\nlocal L1\n"
					"local_size 9000\n", &a, err,
					sizeof(err)), 0);
	ck_assert(a.xfer.ext_level == DFZ_L2 && a.xfer.l1_size == 9000 &&
		  a.xfer.l2_size == 0);
	check_ranges(&a);
}
END_TEST

/* print, parse and encode agree on every decoded plan. */
START_TEST(test_text_roundtrip)
{
	uint64_t s = 0x853c49e6748fea9bu;
	uint8_t bytes[MAX_BYTES], *enc;
	struct dfz_plan p, q, r;
	char err[128], *text;
	unsigned i, two = 0;
	size_t n;

	for (i = 0; i < 1500; i++) {
		n = random_bytes(&s, bytes);
		dfz_plan_decode_as(DFZ_FAMILY_XFER, bytes, n, &p);
		text = print_to_string(&p);
		CK_CHECK_MSG(dfz_plan_parse(text, &q, err, sizeof(err)) == 0,
			     "%s\n%s", err, text);
		CK_CHECK_MSG(dfz__plan_same(&p, &q), "%s", text);
		CK_CHECK(dfz_plan_equal(&p, &q));
		CK_CHECK_INT(dfz_plan_encode(&q, &enc, &n), ==, 0);
		dfz_plan_decode(enc, n, &r);
		CK_CHECK(dfz__plan_same(&p, &r));
		two += p.xfer.nhops == 2;
		free(enc);
		free(text);
	}
	ck_assert_uint_gt(two, 300);
}
END_TEST

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
	{ "elem 3\n", 1, "must be a power of two" },
	{ "node1.kernel copy\n", 1, "given but nodes is 1" },
	{ "node0.kernel frob\n", 1, "unknown value 'frob' for 'node0.kernel' "
	  "(copy|inc|add)" },
	{ "node0.aux.pad 0\n", 1, "not add" },
	{ "nodes 2\nnode1.kernel add\n\nnode1.aux.order 0\nnode0.aux.order 0\n",
	  5, "node0.aux given" },
	{ "shape 4\nnode0.tile 5\n", 2, "over 4" },
	{ "pool 3\n", 1, "policy is not pool" },
	{ "ext L2\n", 1, "'ext' is L2 but the hops make it L3" },
	{ "local L1\n", 1, "'local' is L1 but the hops make it L2" },
	{ "buffering triple\n", 1, "(single|double)" },
	{ "sched 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 "
	  "1 1 1 1 1 1\n", 1, "at most 32 values, got 36" },
	{ "sched 16\n", 1, "out of range 0..15" },
	{ "\n\nfamily frob\n", 3, "unknown value 'frob' for 'family' "
	  "(xfer|host|api)" },
	{ "rank 2\nseed 1\n\nlaunches 5\n", 4,
	  "key 'launches' is not part of an xfer plan" },
	{ "family xfer\nt0 shape 2\n", 2, "key 't0' is not part of an xfer" },
	{ "rank 1\nfamily xfer\n# x\nfamily xfer\n", 4,
	  "duplicate key 'family' (first on line 2)" },
	{ "node0.aux.order 0 1 2 # the brief's own example: kernel copy\n"
	  "node0.kernel copy\nrank 3\n", 1, "not add" },
	{ "nodes\n", 1, "needs 1 value, got 0" },
	{ "hops 3\n", 1, "out of range 1..2" },
	{ "hop1.engine mchan\n", 1, "'hop1.engine' given but hops is 1" },
	{ "node0.tile1 1\n", 1, "'node0.tile1' given but hops is 1" },
	{ "hops 2\nhop0.engine mchan\n", 2, "hop0.engine is mchan but hop 0" },
	{ "hops 2\nhop1.engine ram\n", 2, "hop1.engine is ram but hop 1" },
	{ "hops 2\nshape 4\nnode0.tile 2\nnode0.tile1 3\n", 4,
	  "node0.tile1[0] is 3, over 2 (node0.tile[0])" },
	{ "engine ram\nhop0.engine ram\n", 2, "duplicate key 'hop0.engine'" },
	{ "l1_size 4096\n", 1, "'l1_size' given but no hop keeps tiles in L1" },
	{ "hop0.engine idma\nl2_size 4096\n", 2, "no hop keeps tiles in L2" },
	{ "local_size 4096\nl2_size 4096\n", 1, "both given" },
	{ "tensor_cap 3000\n", 1, "must be a power of two" },
	{ "tensor_cap 512\n", 1, "out of range 1024..262144" },
	{ "hop0.engine mchan\nlocal_size 1048576\n", 2, "out of range" },
	{ "hop0.pool 2\n", 1, "'pool' of hop 0 is 2" },
};
static_assert(COUNT_OF(parse_errors) == 46, "parse_errors");

void check_parse_error(int rc, const char *err, unsigned line,
		       const char *needle)
{
	char prefix[32];

	snprintf(prefix, sizeof(prefix), "line %u: ", line);
	ck_assert_int_eq(rc, DFZ_EINVAL);
	ck_assert_msg(!strncmp(err, prefix, strlen(prefix)), "%s", err);
	ck_assert_msg(strstr(err, needle) != NULL, "%s", err);
	ck_assert(strchr(err, '\n') == NULL);
}

void check_parse_case(const struct parse_error *e)
{
	struct dfz_plan p;
	char err[256];

	check_parse_error(dfz_plan_parse(e->text, &p, err, sizeof(err)), err,
			  e->line, e->needle);
}

START_TEST(test_parse_errors)
{
	check_parse_case(&parse_errors[_i]);
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
	check_parse_error(dfz_plan_parse(text, &p, err, sizeof(err)), err, 2,
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

bool parse_any(const char *text)
{
	struct dfz_plan p;
	char err[96];
	int rc = dfz_plan_parse(text, &p, err, sizeof(err));

	if (rc == 0) {
		check_ranges(&p);
		ck_assert_int_eq(p.caps, DFZ_CAPS_NONE);
		p.caps = DFZ_CAPS_FUZZ;   /* the caps a fuzz execution keeps */
		dfz_plan_normalise(&p);
		check_ranges(&p);
		check_caps(&p);
		return true;
	}
	CK_CHECK_INT(rc, ==, DFZ_EINVAL);
	CK_CHECK_MSG(!strncmp(err, "line ", 5), "%s", err);
	CK_CHECK(strchr(err, '\n') == NULL);
	return false;
}

bool parse_mutated(uint64_t *s, const struct dfz_plan *p, unsigned round)
{
	char *text = print_to_string(p);
	size_t len = strlen(text);
	bool ok;

	for (unsigned k = 0; k < 1 + round % 3; k++)
		text[rng_next(s) % len] = "0123456789 \n#xt-.:"[rng_next(s) % 18];
	ok = parse_any(text);
	free(text);
	return ok;
}

START_TEST(test_parse_random)
{
	uint64_t s = 0xda942042e4dd58b5u;
	char buf[MAX_BYTES + 1];
	uint8_t bytes[MAX_BYTES];
	unsigned i, ok = 0;
	struct dfz_plan p;
	size_t n;

	for (i = 0; i < 3000; i++) { /* raw bytes */
		n = random_bytes(&s, (uint8_t *)buf);
		buf[n] = '\0';
		parse_any(buf);
	}
	for (i = 0; i < 1500; i++) { /* printed plans with a few bytes hit */
		n = random_bytes(&s, bytes);
		dfz_plan_decode_as(DFZ_FAMILY_XFER, bytes, n, &p);
		ok += parse_mutated(&s, &p, i);
	}
	ck_assert(ok > 50 && ok < 1450); /* both outcomes were exercised */
}
END_TEST


Suite *suite_plan_text(void)
{
	Suite *s = suite_create("plan_text");
	TCase *tc = tcase_create("text");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_parse_example);
	tcase_add_test(tc, test_parse_defaults);
	tcase_add_test(tc, test_parse_legacy);
	tcase_add_test(tc, test_text_roundtrip);
	tcase_add_loop_test(tc, test_parse_errors, 0, COUNT_OF(parse_errors));
	tcase_add_test(tc, test_parse_long_lines);
	tcase_add_test(tc, test_parse_random);
	suite_add_tcase(s, tc);
	return s;
}
