// SPDX-License-Identifier: MIT
/*
 * Unit tests of the tiling executor's hops (runtime/tile.c): one hop
 * L2<->L1 on mchan or idma (tensors in L2) and two nested hops (ram L3->L2,
 * then mchan or idma L2->L1 inside each hop-0 tile), for ranks 1 to 5,
 * single and double buffering chosen per hop, partial tiles at both levels
 * and zero-sized dims. A chain of COPY/INC/ADD nodes must leave every
 * tensor exactly as a naive loop over the logical index written here
 * predicts (padding and gaps untouched), compute must run on the innermost
 * level only, and every local allocation must be released. The sizing of
 * dfz_prog_local_bytes() is exact enough to run in, per level.
 */
#include <assert.h>
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check_fast.h"
#include "rt_fixture.h"
#include "tile_ref.h"

/* ------------------------------------------------------------- observer */

static struct {
	size_t kinds[DFZ_EV_COUNT];
	long live_local;              /* local allocations not freed */
	size_t compute_off_level;     /* compute events outside the level */
	uint8_t compute_level;        /* where compute must run */
} obs;

static const unsigned sched_v[] = { 0, 3, 1, 0, 9, 2, 0, 1, 5 };

static void observe(void *ctx, const struct dfz_event *ev)
{
	(void)ctx;
	obs.kinds[ev->kind]++;
	if (ev->kind == DFZ_EV_ALLOC)
		obs.live_local += ev->dst.level != DFZ_L3;
	if (ev->kind == DFZ_EV_FREE)
		obs.live_local -= ev->dst.level != DFZ_L3;
	if (ev->kind == DFZ_EV_COMPUTE_READ &&
	    ev->src.level != obs.compute_level)
		obs.compute_off_level++;
	if (ev->kind == DFZ_EV_COMPUTE_WRITE &&
	    ev->dst.level != obs.compute_level)
		obs.compute_off_level++;
}

static void start_run(unsigned nsched, uint32_t l2, uint32_t l1)
{
	struct dfz_rt_config cfg = {
		.latency = 2,
		.bandwidth = 8,
		.sched = draw,
		.obs = { .fn = observe },
	};

	cfg.mem_size[DFZ_L2] = l2;
	cfg.mem_size[DFZ_L1] = l1;
	sched_set(sched_v, nsched);
	memset(&obs, 0, sizeof(obs));
	ck_assert_int_eq(dfz_rt_reset(rt, &cfg), 0);
}

/* ------------------------------------------------------------- programs */

/* The engines of a case: hop 0's, and hop 1's (RAM: one hop). */
struct pairing {
	uint8_t e0;
	uint8_t e1;
};

static const struct pairing pairings[] = {
	{ DFZ_ENGINE_RAM, DFZ_ENGINE_MCHAN },
	{ DFZ_ENGINE_RAM, DFZ_ENGINE_IDMA },
	{ DFZ_ENGINE_MCHAN, DFZ_ENGINE_RAM },
	{ DFZ_ENGINE_IDMA, DFZ_ENGINE_RAM },
};
#define NPAIRINGS (sizeof(pairings) / sizeof(pairings[0]))

#define MAX_TENSORS (1 + 2 * DFZ_MAX_NODES)
#define MIRROR_MAX (96u << 10)

/* A test program and the reference copy of its tensors. */
static struct hop_case {
	struct dfz_prog p;
	struct dfz_adapter ad[DFZ_MAX_HOPS];
	struct dfz_tensor *t[MAX_TENSORS];
	unsigned nt;
	uint8_t ref[MAX_TENSORS][MIRROR_MAX];
} cur;

static uint8_t *mem_of(const struct dfz_tensor *t)
{
	return dfz_mem_ptr(rt, (enum dfz_level)t->level, t->off);
}

/* A strided tensor with a one-byte gap after each element and one padding
 * element per dim, in @level, filled with a pattern. */
static void make_tensor(struct dfz_tensor *t, unsigned level, uint8_t seed)
{
	const struct dfz_prog *p = &cur.p;
	uint32_t stride = p->elem + 1u, bytes = p->elem;
	void *ptr;

	memset(t, 0, sizeof(*t));
	t->level = (uint8_t)level;
	for (unsigned d = p->rank; d-- > 0;) {
		t->stride[d] = stride;
		bytes += (p->shape[d] ? p->shape[d] - 1 : 0) * stride;
		stride *= p->shape[d] + 1;
	}
	t->bytes = bytes;
	CK_CHECK_UINT(bytes, <=, MIRROR_MAX);
	if (level == DFZ_L3) {
		CK_CHECK_INT(dfz_l3_alloc(rt, bytes, &t->off), ==, 0);
	} else {
		struct dfz_span sp;

		CK_CHECK_INT(dfz_local_alloc(rt, DFZ_L2, bytes, &ptr), ==, 0);
		CK_CHECK(dfz_mem_locate(rt, ptr, bytes, &sp));
		t->off = sp.off;
	}
	for (uint32_t i = 0; i < bytes; i++)
		mem_of(t)[i] = (uint8_t)(i * 29 + seed * 13 + (i >> 4));
	memcpy(cur.ref[cur.nt], mem_of(t), bytes);
	cur.t[cur.nt++] = t;
}

/* Case @i: rank, pairing, buffering per hop; the rest varies with @i. */
static void build(unsigned i, unsigned rank, const struct pairing *pr,
		  unsigned buf0, unsigned buf1)
{
	static const uint32_t shape[DFZ_MAX_RANK] = { 5, 7, 3, 6, 4 };
	static const uint32_t t0[DFZ_MAX_RANK] = { 3, 4, 2, 4, 3 };
	static const uint32_t t1[DFZ_MAX_RANK] = { 2, 3, 1, 3, 2 };
	struct dfz_prog *p = &cur.p;
	bool two = pr->e1 != DFZ_ENGINE_RAM;
	unsigned ext = pr->e0 == DFZ_ENGINE_RAM ? DFZ_L3 : DFZ_L2;

	memset(&cur, 0, offsetof(struct hop_case, ref));
	p->rank = (uint8_t)rank;
	p->elem = (uint8_t)(1u << (i % 4));
	p->nnodes = (uint8_t)(1 + i % DFZ_MAX_NODES);
	p->nhops = two ? 2 : 1;
	p->compute_chunks = (uint8_t)(1 + i % 3);
	for (unsigned k = 0; k < p->nnodes; k++)
		p->node[k].kernel = (uint8_t)((k + p->elem) % DFZ_KERNEL_COUNT);
	for (unsigned d = 0; d < rank; d++) {
		p->shape[d] = shape[(d + i) % DFZ_MAX_RANK];
		for (unsigned k = 0; k < p->nnodes; k++) {
			p->node[k].tile[0][d] = t0[(d + i) % DFZ_MAX_RANK];
			p->node[k].tile[1][d] = t1[(d + i) % DFZ_MAX_RANK];
		}
	}
	if (!two) /* one L2<->L1 hop: the inner tiles are the only tiles */
		for (unsigned k = 0; k < p->nnodes; k++)
			memcpy(p->node[k].tile[0], p->node[k].tile[1],
			       sizeof(p->node[k].tile[0]));
	p->hop[0] = (struct dfz_hop){ .local_level = (uint8_t)(ext + 1),
				      .buffering = (uint8_t)buf0,
				      .strategy = (uint8_t)(i % 4) };
	p->hop[1] = (struct dfz_hop){ .local_level = DFZ_L1,
				      .buffering = (uint8_t)buf1,
				      .strategy = (uint8_t)((i / 4) % 4) };
	for (unsigned h = 0; h < p->nhops; h++)
		cur.ad[h] = (struct dfz_adapter){
			.rt = rt, .engine = h ? pr->e1 : pr->e0,
			.policy = (uint8_t)((i + h) % DFZ_POLICY_COUNT),
			.pool_k = (uint8_t)(1 + (i + h) % 3),
			.req_level = p->hop[h].local_level };
	obs.compute_level = two ? DFZ_L1 : p->hop[0].local_level;
}

static void make_tensors(void)
{
	struct dfz_prog *p = &cur.p;
	unsigned ext = p->hop[0].local_level - 1u;
	struct dfz_tensor *in = &p->node[0].in;

	make_tensor(in, ext, 1);
	for (unsigned k = 0; k < p->nnodes; k++) {
		struct dfz_node *n = &p->node[k];

		if (k > 0)
			n->in = p->node[k - 1].out;
		if (n->kernel == DFZ_KERNEL_ADD)
			make_tensor(&n->aux, ext, (uint8_t)(10 + k));
		make_tensor(&n->out, ext, (uint8_t)(20 + k));
	}
}

/* --------------------------------------------------------- the reference */

/* Index of tensor @t in cur.t (the reference copy), by its offset. */
static unsigned ref_of(const struct dfz_tensor *t)
{
	for (unsigned i = 0; i < cur.nt; i++)
		if (cur.t[i]->level == t->level && cur.t[i]->off == t->off)
			return i;
	ck_abort_msg("tensor not found");
	return 0;
}

static uint32_t at(const struct dfz_tensor *t, const uint32_t *idx)
{
	uint32_t off = 0;

	for (unsigned d = 0; d < cur.p.rank; d++)
		off += idx[d] * t->stride[d];
	return off;
}

/* Every node over the logical index, on the reference copies. */
static void naive_prog(void)
{
	const struct dfz_prog *p = &cur.p;

	for (unsigned k = 0; k < p->nnodes; k++) {
		const struct dfz_node *n = &p->node[k];
		uint32_t idx[DFZ_MAX_RANK] = { 0 };
		uint64_t count = 1;
		uint8_t *out = cur.ref[ref_of(&n->out)];
		const uint8_t *in = cur.ref[ref_of(&n->in)];
		const uint8_t *aux = n->kernel == DFZ_KERNEL_ADD ?
				     cur.ref[ref_of(&n->aux)] : in;

		for (unsigned d = 0; d < p->rank; d++)
			count *= p->shape[d];
		for (uint64_t e = 0; e < count; e++) {
			naive_elem(n->kernel, out + at(&n->out, idx),
				   in + at(&n->in, idx), aux + at(&n->aux, idx),
				   p->elem);
			for (unsigned d = p->rank; d-- > 0;) {
				if (++idx[d] < p->shape[d])
					break;
				idx[d] = 0;
			}
		}
	}
}

/* Every tensor byte as the reference says. */
static void assert_tensors(void)
{
	for (unsigned i = 0; i < cur.nt; i++) {
		const uint8_t *m = mem_of(cur.t[i]);

		for (uint32_t b = 0; b < cur.t[i]->bytes; b++)
			CK_CHECK_MSG(m[b] == cur.ref[i][b],
				     "tensor %u byte %u: expected 0x%02x, "
				     "got 0x%02x", i, b, cur.ref[i][b], m[b]);
	}
}

/* Build, run with memory sized by dfz_prog_local_bytes(), and check. */
static void run_case(unsigned i, unsigned rank, const struct pairing *pr,
		     unsigned buf0, unsigned buf1, unsigned nsched)
{
	uint32_t l2, l1;

	start_run(nsched, 0, 0);
	build(i, rank, pr, buf0, buf1);
	l2 = dfz_prog_local_bytes(&cur.p, cur.ad, DFZ_L2);
	l1 = dfz_prog_local_bytes(&cur.p, cur.ad, DFZ_L1);
	start_run(nsched, cur.p.hop[0].local_level == DFZ_L2 ? l2 : 0, l1);
	build(i, rank, pr, buf0, buf1);
	make_tensors();
	naive_prog();
	ck_assert_int_eq(dfz_prog_run(cur.ad, &cur.p), 0);
	assert_tensors();
	ck_assert_uint_eq(obs.kinds[DFZ_EV_FAULT], 0);
	ck_assert_uint_eq(obs.kinds[DFZ_EV_HANG], 0);
	ck_assert_uint_gt(obs.kinds[DFZ_EV_COMPUTE_WRITE], 0);
	ck_assert_uint_eq(obs.compute_off_level, 0);
	ck_assert_int_eq(obs.live_local, cur.p.hop[0].local_level == DFZ_L1 ?
				 (long)cur.nt : 0);
}

/* --------------------------------------------------------------- tests */

#define NCASES (DFZ_MAX_RANK * NPAIRINGS * 4)
static_assert(NCASES == 80, "loop range of test_hops_outputs");

/* Loop index -> (rank, pairing, buffering of each hop); two schedules. */
START_TEST(test_hops_outputs)
{
	unsigned i = (unsigned)_i, rank = 1 + i % DFZ_MAX_RANK;
	const struct pairing *pr = &pairings[(i / DFZ_MAX_RANK) % NPAIRINGS];
	unsigned bufs = i / (DFZ_MAX_RANK * NPAIRINGS);

	run_case(i, rank, pr, 1 + bufs % 2, 1 + bufs / 2, 0);
	run_case(i, rank, pr, 1 + bufs % 2, 1 + bufs / 2, 9);
}
END_TEST

/* A zero-sized dim: nothing moves, nothing is allocated. */
START_TEST(test_hops_zero_dim)
{
	unsigned rank = 1 + (unsigned)_i % DFZ_MAX_RANK;

	start_run(3, 0, 0);
	build((unsigned)_i, rank, &pairings[_i % NPAIRINGS], 2, 2);
	cur.p.shape[_i % rank] = 0;
	make_tensors();
	naive_prog();
	memset(obs.kinds, 0, sizeof(obs.kinds));
	ck_assert_int_eq(dfz_prog_run(cur.ad, &cur.p), 0);
	ck_assert_uint_eq(obs.kinds[DFZ_EV_ISSUE], 0);
	ck_assert_uint_eq(obs.kinds[DFZ_EV_ALLOC], 0);
	assert_tensors();
}
END_TEST

/*
 * The inner hop tiles each outer tile, partial at its edges: 7 elements
 * in outer tiles of 4 (4 + 3) and inner tiles of 3 give inner tiles of
 * 3, 1 and 3: three loads and three stores on hop 1, two of each on hop 0.
 */
START_TEST(test_hops_nested_counts)
{
	const struct pairing pr = { DFZ_ENGINE_RAM, DFZ_ENGINE_IDMA };

	start_run(0, 0, 0);
	build(0, 1, &pr, 1, 1);
	cur.p.nnodes = 1;
	cur.p.shape[0] = 7;
	cur.p.node[0].tile[0][0] = 4;
	cur.p.node[0].tile[1][0] = 3;
	cur.ad[0].policy = cur.ad[1].policy = DFZ_POLICY_BLOCKING;
	make_tensors();
	ck_assert_uint_eq(cur.p.node[0].kernel, DFZ_KERNEL_INC);
	naive_prog();
	ck_assert_int_eq(dfz_prog_run(cur.ad, &cur.p), 0);
	assert_tensors();
	/* 4 ram transfers; 6 idma copies, each followed by its dummy. */
	ck_assert_uint_eq(obs.kinds[DFZ_EV_ISSUE], 4 + 6 * 2);
	ck_assert_uint_eq(obs.kinds[DFZ_EV_COMPUTE_WRITE], 3);
}
END_TEST

Suite *suite_tile_hops(void)
{
	Suite *s = suite_create("tile_hops");
	TCase *tc = tcase_create("hops");

	tcase_add_unchecked_fixture(tc, rt_setup, rt_teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_hops_outputs, 0, (int)NCASES);
	tcase_add_loop_test(tc, test_hops_zero_dim, 0, 2 * DFZ_MAX_RANK);
	tcase_add_test(tc, test_hops_nested_counts);
	suite_add_tcase(s, tc);
	return s;
}
