// SPDX-License-Identifier: MIT
/*
 * Unit tests of the tiling executor (runtime/tile.c): for ranks 1 to 5,
 * single and double buffering, every waiting strategy and policy, partial
 * edge tiles and zero-sized dims, a chain of COPY/INC/ADD nodes must leave
 * external memory exactly as a naive loop over the logical index written
 * here predicts (padding gaps and everything else untouched), under several
 * interleavings. The bug switches early-compute, db-war, edge-tile and
 * req-escape must each change what is observable; allocation failures and
 * hangs must release every local allocation.
 */
#include <assert.h>
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check_fast.h"
#include "rt_fixture.h"
#include "tile_ref.h"

/* ------------------------------------------------------------- observer */

#define MAX_TRACK 512
#define MAX_LOADS 256

/* What the tests need from the event stream, gathered online. */
static struct {
	size_t n;
	size_t kinds[DFZ_EV_COUNT];
	size_t first_read;            /* index of the first COMPUTE_READ */
	size_t first_waited;          /* index of the first WAITED */
	const void *in_flight[MAX_TRACK]; /* requests issued, not waited */
	unsigned nin_flight;
	bool reissue;                 /* ISSUE on a request in flight */
	bool free_in_flight;          /* FREE of storage of one in flight */
	long live_local;              /* local allocations not freed */
	uint32_t load_loc[MAX_LOADS]; /* loc_off of each load ISSUE */
	unsigned nloads;
} obs;

static int find_in_flight(const void *h)
{
	for (unsigned i = 0; i < obs.nin_flight; i++)
		if (obs.in_flight[i] == h)
			return (int)i;
	return -1;
}

static void on_issue(const struct dfz_event *ev)
{
	if (find_in_flight(ev->handle) >= 0)
		obs.reissue = true;
	else if (obs.nin_flight < MAX_TRACK)
		obs.in_flight[obs.nin_flight++] = ev->handle;
	if (ev->desc.ext2loc && obs.nloads < MAX_LOADS)
		obs.load_loc[obs.nloads++] = ev->desc.loc_off;
}

static void on_waited(const struct dfz_event *ev)
{
	int i = find_in_flight(ev->handle);

	if (i >= 0)
		obs.in_flight[i] = obs.in_flight[--obs.nin_flight];
}

static void on_free(const struct dfz_event *ev)
{
	obs.live_local -= ev->dst.level != DFZ_L3;
	for (unsigned i = 0; i < obs.nin_flight; i++) {
		struct dfz_span s;

		if (dfz_mem_locate(rt, obs.in_flight[i], 1, &s) &&
		    s.level == ev->dst.level && s.off >= ev->dst.off &&
		    s.off < ev->dst.off + ev->dst.len)
			obs.free_in_flight = true;
	}
}

static void observe(void *ctx, const struct dfz_event *ev)
{
	(void)ctx;
	obs.kinds[ev->kind]++;
	if (ev->kind == DFZ_EV_COMPUTE_READ && obs.first_read == SIZE_MAX)
		obs.first_read = obs.n;
	if (ev->kind == DFZ_EV_WAITED && obs.first_waited == SIZE_MAX)
		obs.first_waited = obs.n;
	if (ev->kind == DFZ_EV_ISSUE)
		on_issue(ev);
	if (ev->kind == DFZ_EV_WAITED)
		on_waited(ev);
	if (ev->kind == DFZ_EV_ALLOC)
		obs.live_local += ev->dst.level != DFZ_L3;
	if (ev->kind == DFZ_EV_FREE)
		on_free(ev);
	obs.n++;
}

static void start_run(const unsigned *v, unsigned n, uint32_t bugs,
		      uint32_t local_size, unsigned local_level,
		      uint32_t latency, uint32_t wait_bound)
{
	struct dfz_rt_config cfg = {
		.latency = latency,
		.bandwidth = 8,
		.wait_bound = wait_bound,
		.bugs = bugs,
		.sched = draw,
		.obs = { .fn = observe },
	};

	cfg.mem_size[local_level] = local_size;
	sched_set(v, n);
	memset(&obs, 0, sizeof(obs));
	obs.first_read = SIZE_MAX;
	obs.first_waited = SIZE_MAX;
	CK_CHECK_INT(dfz_rt_reset(rt, &cfg), ==, 0);
}

/* ------------------------------------------------------- program builder */

/* A test program: the shape, per node a kernel and a tile, and the layout
 * of every tensor (gap bytes after each element, pad elements per dim). */
struct spec {
	uint8_t rank;
	uint8_t elem;
	uint32_t shape[DFZ_MAX_RANK];
	uint8_t nnodes;
	uint8_t kernel[DFZ_MAX_NODES];
	uint32_t tile[DFZ_MAX_NODES][DFZ_MAX_RANK];
	uint8_t buffering;
	uint8_t strategy;
	uint8_t db_order;
	uint8_t policy;
	uint8_t pool_k;
	uint8_t chunks;
	uint8_t local_level;
	uint32_t egap;
	uint32_t pad;
};

#define MIRROR_MAX (256u << 10)

static uint8_t mirror[MIRROR_MAX];
static uint8_t got[MIRROR_MAX];
static uint32_t mirror_len;

static bool has_empty_dim(const struct spec *s)
{
	for (unsigned d = 0; d < s->rank; d++)
		if (s->shape[d] == 0)
			return true;
	return false;
}

/* Strided layout with gaps; allocated in L3 and filled with a pattern. */
static struct dfz_tensor make_tensor(const struct spec *s, uint8_t seed)
{
	struct dfz_tensor t = { .level = DFZ_L3 };
	uint32_t stride = s->elem + s->egap, bytes = s->elem;
	uint8_t buf[1u << 14];

	for (unsigned d = s->rank; d-- > 0;) {
		t.stride[d] = stride;
		bytes += (s->shape[d] ? s->shape[d] - 1 : 0) * stride;
		stride *= s->shape[d] + s->pad;
	}
	t.bytes = has_empty_dim(s) ? 1 : bytes;
	CK_CHECK_UINT(t.bytes, <=, sizeof(buf));
	CK_CHECK_INT(dfz_l3_alloc(rt, t.bytes, &t.off), ==, 0);
	for (uint32_t i = 0; i < t.bytes; i++)
		buf[i] = (uint8_t)(i * 31 + seed * 17 + (i >> 3));
	CK_CHECK_INT(dfz_l3_write(rt, t.off, buf, t.bytes), ==, 0);
	if (t.off + t.bytes + DFZ_REDZONE > mirror_len)
		mirror_len = t.off + t.bytes + DFZ_REDZONE;
	return t;
}

/* Build @p and @ad from @s in the current run; snapshot L3 to the mirror. */
static void build(const struct spec *s, struct dfz_prog *p,
		  struct dfz_adapter *ad)
{
	struct dfz_tensor in;

	memset(p, 0, sizeof(*p));
	mirror_len = 0;
	p->rank = s->rank;
	p->elem = s->elem;
	memcpy(p->shape, s->shape, sizeof(p->shape));
	p->nnodes = s->nnodes;
	p->nhops = 1;
	p->hop[0] = (struct dfz_hop){ .local_level = s->local_level,
				      .buffering = s->buffering,
				      .strategy = s->strategy,
				      .db_order = s->db_order };
	p->compute_chunks = s->chunks;
	in = make_tensor(s, 1);
	for (unsigned k = 0; k < s->nnodes; k++) {
		struct dfz_node *n = &p->node[k];

		n->kernel = s->kernel[k];
		n->in = in;
		if (n->kernel == DFZ_KERNEL_ADD)
			n->aux = make_tensor(s, (uint8_t)(10 + k));
		n->out = make_tensor(s, (uint8_t)(20 + k));
		memcpy(n->tile[0], s->tile[k], sizeof(n->tile[0]));
		in = n->out;
	}
	mirror_len += 256;
	CK_CHECK_UINT(mirror_len, <=, MIRROR_MAX);
	CK_CHECK_INT(dfz_l3_read(rt, 0, mirror, mirror_len), ==, 0);
	*ad = (struct dfz_adapter){ .rt = rt, .engine = DFZ_ENGINE_RAM,
				    .policy = s->policy, .pool_k = s->pool_k,
				    .req_level = s->local_level };
}

/* --------------------------------------------------------- the reference */

static uint32_t at(const struct dfz_tensor *t, const uint32_t *idx,
		   unsigned rank)
{
	uint32_t off = t->off;

	for (unsigned d = 0; d < rank; d++)
		off += idx[d] * t->stride[d];
	return off;
}

/* One node over the logical index, on the mirror of L3. */
static void naive_node(const struct dfz_prog *p, const struct dfz_node *n)
{
	uint32_t idx[DFZ_MAX_RANK] = { 0 };
	uint64_t count = 1;

	for (unsigned d = 0; d < p->rank; d++)
		count *= p->shape[d];
	for (uint64_t k = 0; k < count; k++) {
		naive_elem(n->kernel, mirror + at(&n->out, idx, p->rank),
			   mirror + at(&n->in, idx, p->rank),
			   mirror + at(&n->aux, idx, p->rank), p->elem);
		for (unsigned d = p->rank; d-- > 0;) {
			if (++idx[d] < p->shape[d])
				break;
			idx[d] = 0;
		}
	}
}

static void naive_prog(const struct dfz_prog *p)
{
	for (unsigned k = 0; k < p->nnodes; k++)
		naive_node(p, &p->node[k]);
}

/* First L3 offset below mirror_len that differs from the reference, or -1. */
static long first_diff(void)
{
	ck_assert_int_eq(dfz_l3_read(rt, 0, got, mirror_len), 0);
	for (uint32_t i = 0; i < mirror_len; i++)
		if (got[i] != mirror[i])
			return (long)i;
	return -1;
}

/* The fixed runtime: right bytes, nothing else touched, every request
 * waited before reuse and at the end, every local allocation freed. */
static void assert_clean_run(const struct spec *s, const unsigned *v,
			     unsigned n)
{
	struct dfz_prog p;
	struct dfz_adapter ad;

	start_run(v, n, 0, 0, s->local_level, 2, 0);
	build(s, &p, &ad);
	naive_prog(&p);
	ck_assert_int_eq(dfz_prog_run(&ad, &p), 0);
	ck_assert_int_eq(first_diff(), -1);
	ck_assert(!obs.reissue);
	ck_assert(!obs.free_in_flight);
	ck_assert_uint_eq(obs.nin_flight, 0);
	ck_assert_int_eq(obs.live_local, 0);
	ck_assert_uint_eq(obs.kinds[DFZ_EV_FAULT], 0);
	ck_assert_uint_eq(obs.kinds[DFZ_EV_HANG], 0);
}

/* --------------------------------------------------------------- tests */

static const unsigned sched_zero[] = { 0 };
static const unsigned sched_mixed[] = { 0, 3, 1, 0, 9, 2, 0, 1, 5 };
static const unsigned sched_eager[] = { 40 };

/* A three-node chain over a rank-@rank shape with partial edge tiles:
 * node 0 tiles of 2, node 1 of 3, node 2 one tile larger than the shape. */
static void chain_spec(struct spec *s, unsigned rank, unsigned i)
{
	static const uint32_t base[DFZ_MAX_RANK] = { 3, 5, 2, 4, 3 };
	static const uint8_t elems[] = { 1, 2, 4, 3 };

	memset(s, 0, sizeof(*s));
	s->rank = (uint8_t)rank;
	s->elem = elems[(i / 8) % 4];
	s->nnodes = 3;
	s->kernel[0] = DFZ_KERNEL_COPY;
	s->kernel[1] = DFZ_KERNEL_INC;
	s->kernel[2] = DFZ_KERNEL_ADD;
	for (unsigned d = 0; d < rank; d++) {
		s->shape[d] = base[(d + rank) % DFZ_MAX_RANK];
		s->tile[0][d] = 2;
		s->tile[1][d] = d % 2 ? 3 : 1;
		s->tile[2][d] = s->shape[d] + 1;
	}
	s->policy = (uint8_t)(i % DFZ_POLICY_COUNT);
	s->pool_k = (uint8_t)(1 + i % 3);
	s->chunks = (uint8_t)(1 + i % 3);
	s->local_level = i % 2 ? DFZ_L1 : DFZ_L2;
	s->egap = i % 3 == 0 ? 0 : 1;
	s->pad = i % 5 == 0 ? 0 : 1;
}

#define NRANK_BUF_STRAT (DFZ_MAX_RANK * 2 * DFZ_STRAT_COUNT)

/* Loop index -> (rank, buffering, strategy); three schedules each. */
START_TEST(test_tile_outputs)
{
	unsigned i = (unsigned)_i;
	struct spec s;

	chain_spec(&s, 1 + i % DFZ_MAX_RANK, i);
	s.buffering = (uint8_t)(1 + (i / DFZ_MAX_RANK) % 2);
	s.strategy = (uint8_t)(i / DFZ_MAX_RANK / 2);
	assert_clean_run(&s, sched_zero, 1);
	assert_clean_run(&s, sched_mixed,
			 sizeof(sched_mixed) / sizeof(sched_mixed[0]));
	assert_clean_run(&s, sched_eager, 1);
}
END_TEST

/* A single contiguous node with tiles of 3 over 10 elements: 4 tiles. */
static void line_spec(struct spec *s, unsigned kernel, unsigned buffering,
		      unsigned strategy)
{
	memset(s, 0, sizeof(*s));
	s->rank = 1;
	s->elem = 4;
	s->shape[0] = 10;
	s->nnodes = 1;
	s->kernel[0] = (uint8_t)kernel;
	s->tile[0][0] = 3;
	s->buffering = (uint8_t)buffering;
	s->strategy = (uint8_t)strategy;
	s->policy = DFZ_POLICY_ASYNC_SHARED;
	s->pool_k = 1;
	s->chunks = 1;
	s->local_level = DFZ_L2;
}

START_TEST(test_tile_zero_dim)
{
	struct spec s;
	struct dfz_prog p;
	struct dfz_adapter ad;

	chain_spec(&s, 1 + (unsigned)_i, (unsigned)_i);
	s.buffering = 2;
	s.shape[_i] = 0;
	start_run(sched_mixed, 3, 0, 0, s.local_level, 2, 0);
	build(&s, &p, &ad);
	obs.n = 0;
	ck_assert_int_eq(dfz_prog_run(&ad, &p), 0);
	ck_assert_uint_eq(obs.n, 0);
	ck_assert_int_eq(first_diff(), -1);
}
END_TEST

/* Chunks split a tile's compute; a chunk never exceeds the tile. */
START_TEST(test_compute_chunks)
{
	struct spec s;
	struct dfz_prog p;
	struct dfz_adapter ad;

	line_spec(&s, DFZ_KERNEL_ADD, 1, DFZ_STRAT_DIR);
	s.chunks = 3;
	start_run(sched_zero, 1, 0, 0, s.local_level, 2, 0);
	build(&s, &p, &ad);
	naive_prog(&p);
	ck_assert_int_eq(dfz_prog_run(&ad, &p), 0);
	ck_assert_int_eq(first_diff(), -1);
	/* Tiles of 3, 3, 3 and 1 element: 3 + 3 + 3 + 1 chunks. */
	ck_assert_uint_eq(obs.kinds[DFZ_EV_COMPUTE_WRITE], 10);
	ck_assert_uint_eq(obs.kinds[DFZ_EV_COMPUTE_READ], 20);
	ck_assert_uint_eq(obs.kinds[DFZ_EV_ISSUE], 12);
}
END_TEST

START_TEST(test_kernel_names)
{
	ck_assert_str_eq(dfz_kernel_name(DFZ_KERNEL_COPY), "copy");
	ck_assert_str_eq(dfz_kernel_name(DFZ_KERNEL_INC), "inc");
	ck_assert_str_eq(dfz_kernel_name(DFZ_KERNEL_ADD), "add");
	ck_assert_ptr_null(dfz_kernel_name(DFZ_KERNEL_COUNT));
}
END_TEST

/* ------------------------------------------------------------ bug switches */

/* Run @s with @bugs under the zero schedule; return the first difference
 * from the reference. */
static long run_bug(const struct spec *s, uint32_t bugs,
		    struct dfz_prog *p)
{
	struct dfz_adapter ad;

	start_run(sched_zero, 1, bugs, 0, s->local_level, 2, 0);
	build(s, p, &ad);
	naive_prog(p);
	ck_assert_int_eq(dfz_prog_run(&ad, p), 0);
	return first_diff();
}

/* A byte the edge-tile run changed that no output element covers. */
static bool changed_outside_output(const struct dfz_prog *p)
{
	static uint8_t covered[MIRROR_MAX];
	uint32_t idx[DFZ_MAX_RANK] = { 0 };
	const struct dfz_tensor *out = &p->node[p->nnodes - 1].out;
	uint64_t count = 1;

	memset(covered, 0, mirror_len);
	for (unsigned d = 0; d < p->rank; d++)
		count *= p->shape[d];
	for (uint64_t k = 0; k < count; k++) {
		memset(covered + at(out, idx, p->rank), 1, p->elem);
		for (unsigned d = p->rank; d-- > 0;) {
			if (++idx[d] < p->shape[d])
				break;
			idx[d] = 0;
		}
	}
	for (uint32_t i = 0; i < mirror_len; i++)
		if (got[i] != mirror[i] && !covered[i])
			return true;
	return false;
}

START_TEST(test_edge_tile_bug)
{
	struct spec s;
	struct dfz_prog p;

	chain_spec(&s, 2, 1);
	s.nnodes = 1;
	s.tile[0][0] = 1;
	s.tile[0][1] = 3;
	s.buffering = (uint8_t)(1 + _i);
	s.strategy = DFZ_STRAT_TENSOR_DIR;
	s.pad = 1;
	s.egap = 1;
	ck_assert_int_eq(run_bug(&s, 0, &p), -1);
	ck_assert_int_ne(run_bug(&s, DFZ_BUG_BIT(EDGE_TILE), &p), -1);
	ck_assert(changed_outside_output(&p));
}
END_TEST

/* Single buffering: compute reads before any wait, and reads the fill. */
START_TEST(test_early_compute_single)
{
	struct spec s;
	struct dfz_prog p;

	line_spec(&s, DFZ_KERNEL_INC, 1, DFZ_STRAT_TENSOR_DIR);
	ck_assert_int_eq(run_bug(&s, 0, &p), -1);
	ck_assert_uint_lt(obs.first_waited, obs.first_read);
	ck_assert_int_ne(run_bug(&s, DFZ_BUG_BIT(EARLY_COMPUTE), &p), -1);
	ck_assert_uint_lt(obs.first_read, obs.first_waited);
}
END_TEST

/* Double buffering with a fresh handle per transfer (nothing else waits
 * the load first): tile 0 is computed before its load is waited. */
START_TEST(test_early_compute_double)
{
	struct spec s;
	struct dfz_prog p;

	line_spec(&s, DFZ_KERNEL_COPY, 2, DFZ_STRAT_FRESH);
	ck_assert_int_eq(run_bug(&s, 0, &p), -1);
	ck_assert_uint_lt(obs.first_waited, obs.first_read);
	ck_assert_int_ne(run_bug(&s, DFZ_BUG_BIT(EARLY_COMPUTE), &p), -1);
	ck_assert_uint_lt(obs.first_read, obs.first_waited);
}
END_TEST

/* db-war: every prefetch lands in the buffer being computed on. */
START_TEST(test_db_war_bug)
{
	struct spec s;
	struct dfz_prog p;

	line_spec(&s, DFZ_KERNEL_COPY, 2, (unsigned)_i);
	ck_assert_int_eq(run_bug(&s, 0, &p), -1);
	ck_assert_uint_eq(obs.nloads, 4);
	ck_assert_uint_ne(obs.load_loc[0], obs.load_loc[1]);
	ck_assert_uint_eq(obs.load_loc[0], obs.load_loc[2]);
	ck_assert_uint_eq(obs.load_loc[1], obs.load_loc[3]);
	/* Tile k >= 1 is prefetched while tile k-1 is computed in slot
	 * (k-1) % 2, and lands there. */
	ck_assert_int_ne(run_bug(&s, DFZ_BUG_BIT(DB_WAR), &p), -1);
	ck_assert_uint_eq(obs.nloads, 4);
	ck_assert_uint_eq(obs.load_loc[1], obs.load_loc[0]);
	ck_assert_uint_ne(obs.load_loc[2], obs.load_loc[0]);
	ck_assert_uint_eq(obs.load_loc[3], obs.load_loc[0]);
}
END_TEST

/* req-escape: double buffering frees requests still queued and re-issues
 * them; single buffering waits everything inside the iteration. */
START_TEST(test_req_escape_bug)
{
	struct spec s;
	struct dfz_prog p;

	line_spec(&s, DFZ_KERNEL_INC, 2, (unsigned)_i);
	ck_assert_int_eq(run_bug(&s, 0, &p), -1);
	ck_assert(!obs.reissue && !obs.free_in_flight);
	run_bug(&s, DFZ_BUG_BIT(REQ_ESCAPE), &p);
	ck_assert(obs.free_in_flight);
	ck_assert(obs.reissue || obs.nin_flight > 0);
	line_spec(&s, DFZ_KERNEL_INC, 1, (unsigned)_i);
	ck_assert_int_eq(run_bug(&s, DFZ_BUG_BIT(REQ_ESCAPE), &p), -1);
	ck_assert(!obs.reissue && !obs.free_in_flight);
	ck_assert_uint_eq(obs.nin_flight, 0);
}
END_TEST

/* The double-buffering orders with one request per tensor and direction
 * and the reuse guard off (shared-handle): the generator's order waits the
 * previous tile's store before the next is issued on the output's request;
 * the eager order issues it while that store is still in flight. Both
 * leave the right bytes (the engine's queue is the only casualty). */
START_TEST(test_db_order)
{
	struct spec s;
	struct dfz_prog p;

	line_spec(&s, DFZ_KERNEL_COPY, 2, DFZ_STRAT_TENSOR_DIR);
	s.db_order = DFZ_DB_GENERATOR;
	run_bug(&s, DFZ_BUG_BIT(SHARED_HANDLE), &p);
	ck_assert(!obs.reissue);
	s.db_order = DFZ_DB_EAGER;
	run_bug(&s, DFZ_BUG_BIT(SHARED_HANDLE), &p);
	ck_assert(obs.reissue);
	run_bug(&s, 0, &p);
	ck_assert(!obs.reissue);
}
END_TEST

/* ------------------------------------------------------------------ errors */

/* Run @s with @bugs and @local_size bytes of local memory; every local
 * allocation must be released whatever happens. */
static int run_sized(const struct spec *s, uint32_t bugs, uint32_t local_size)
{
	struct dfz_prog p;
	struct dfz_adapter ad;
	int rc;

	start_run(sched_zero, 1, bugs, local_size, s->local_level, 2, 0);
	build(s, &p, &ad);
	rc = dfz_prog_run(&ad, &p);
	CK_CHECK_INT(obs.live_local, ==, 0);
	return rc;
}

/*
 * Every local size from nothing up to dfz_prog_local_bytes(): the run
 * either completes or fails with DFZ_ENOMEM; at the bound it has enough
 * memory whatever the switches (req-escape then hangs on its own corrupted
 * queue instead).
 */
START_TEST(test_tile_enomem)
{
	struct spec s;
	struct dfz_prog p;
	struct dfz_adapter ad;
	unsigned failures = 0;
	uint32_t need;

	chain_spec(&s, 3, 2);
	s.buffering = 2;
	s.strategy = (uint8_t)_i;
	s.policy = DFZ_POLICY_POOL;
	s.pool_k = DFZ_MAX_POOL;
	start_run(sched_zero, 1, 0, 0, s.local_level, 2, 0);
	build(&s, &p, &ad);
	need = dfz_prog_local_bytes(&p, &ad, (enum dfz_level)s.local_level);
	ck_assert_uint_gt(need, DFZ__MEM_RESERVED);
	for (uint32_t size = DFZ__MEM_RESERVED; size < need; size += 40) {
		int rc = run_sized(&s, 0, size);

		CK_CHECK(rc == 0 || rc == DFZ_ENOMEM);
		failures += rc == DFZ_ENOMEM;
	}
	ck_assert_uint_gt(failures, 10);
	ck_assert_int_eq(run_sized(&s, 0, need), 0);
	ck_assert_int_ne(run_sized(&s, DFZ_BUG_BIT(REQ_ESCAPE), need), DFZ_ENOMEM);
}
END_TEST

START_TEST(test_tile_hang)
{
	struct spec s;
	struct dfz_prog p;
	struct dfz_adapter ad;

	line_spec(&s, DFZ_KERNEL_ADD, (unsigned)(1 + _i), DFZ_STRAT_DIR);
	start_run(sched_zero, 1, 0, 0, s.local_level, 1000, 10);
	build(&s, &p, &ad);
	ck_assert_int_eq(dfz_prog_run(&ad, &p), DFZ_EHANG);
	ck_assert_uint_eq(obs.kinds[DFZ_EV_HANG], 1);
	ck_assert_int_eq(obs.live_local, 0);
}
END_TEST

START_TEST(test_tile_bad_prog)
{
	struct spec s;
	struct dfz_prog p, bad;
	struct dfz_adapter ad;

	line_spec(&s, DFZ_KERNEL_COPY, 1, DFZ_STRAT_DIR);
	start_run(sched_zero, 1, 0, 0, s.local_level, 2, 0);
	build(&s, &p, &ad);
	ck_assert_int_eq(dfz_prog_run(NULL, &p), DFZ_EINVAL);
	ck_assert_int_eq(dfz_prog_run(&ad, NULL), DFZ_EINVAL);
	bad = p, bad.rank = 0;
	ck_assert_int_eq(dfz_prog_run(&ad, &bad), DFZ_EINVAL);
	bad = p, bad.rank = DFZ_MAX_RANK + 1;
	ck_assert_int_eq(dfz_prog_run(&ad, &bad), DFZ_EINVAL);
	bad = p, bad.elem = 0;
	ck_assert_int_eq(dfz_prog_run(&ad, &bad), DFZ_EINVAL);
	bad = p, bad.hop[0].buffering = 3;
	ck_assert_int_eq(dfz_prog_run(&ad, &bad), DFZ_EINVAL);
	bad = p, bad.hop[0].strategy = DFZ_STRAT_COUNT;
	ck_assert_int_eq(dfz_prog_run(&ad, &bad), DFZ_EINVAL);
	bad = p, bad.hop[0].local_level = DFZ_L3;
	ck_assert_int_eq(dfz_prog_run(&ad, &bad), DFZ_EINVAL);
	bad = p, bad.nhops = 0;
	ck_assert_int_eq(dfz_prog_run(&ad, &bad), DFZ_EINVAL);
	bad = p, bad.nhops = DFZ_MAX_HOPS + 1;
	ck_assert_int_eq(dfz_prog_run(&ad, &bad), DFZ_EINVAL);
	bad = p, bad.nhops = 2; /* hop 1's tiles are 0 */
	bad.hop[1] = bad.hop[0];
	ck_assert_int_eq(dfz_prog_run(&ad, &bad), DFZ_EINVAL);
	bad = p, bad.nnodes = DFZ_MAX_NODES + 1;
	ck_assert_int_eq(dfz_prog_run(&ad, &bad), DFZ_EINVAL);
	bad = p, bad.node[0].tile[0][0] = 0;
	ck_assert_int_eq(dfz_prog_run(&ad, &bad), DFZ_EINVAL);
	bad = p, bad.node[0].kernel = DFZ_KERNEL_COUNT;
	ck_assert_int_eq(dfz_prog_run(&ad, &bad), DFZ_EINVAL);
	ck_assert_uint_eq(obs.kinds[DFZ_EV_ISSUE], 0);
	bad = p, bad.nnodes = 0;
	ck_assert_int_eq(dfz_prog_run(&ad, &bad), 0);
	ck_assert_uint_eq(dfz_prog_local_bytes(NULL, &ad, DFZ_L2), 0);
	ck_assert_uint_eq(dfz_prog_local_bytes(&p, NULL, DFZ_L2), 0);
}
END_TEST

static_assert(NRANK_BUF_STRAT == 40, "loop range of test_tile_outputs");

/* An empty dimension: a grid of 0 tiles, and tile 0 of it (what the
 * double-buffered loop used to prefetch) is empty instead of a division
 * by zero. */
START_TEST(test_empty_grid)
{
	uint32_t shape[3] = { 4, 0, 8 }, tile[3] = { 2, 1, 4 }, nt[3];
	uint32_t o[3] = { 9, 9, 9 }, e[3] = { 9, 9, 9 };

	ck_assert_uint_eq(dfz_tile_grid(3, shape, tile, nt), 0);
	ck_assert_uint_eq(nt[1], 0);
	dfz_tile_at(3, shape, tile, nt, false, 0, o, e);
	ck_assert_uint_eq(e[1], 0);
	ck_assert_uint_eq(o[1], 0);
}
END_TEST

Suite *suite_tile(void)
{
	Suite *s = suite_create("tile");
	TCase *tc = tcase_create("executor");
	TCase *bugs = tcase_create("bugs");

	tcase_add_unchecked_fixture(tc, rt_setup, rt_teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_tile_outputs, 0, (int)NRANK_BUF_STRAT);
	tcase_add_loop_test(tc, test_tile_zero_dim, 0, DFZ_MAX_RANK);
	tcase_add_test(tc, test_compute_chunks);
	tcase_add_test(tc, test_empty_grid);
	tcase_add_test(tc, test_kernel_names);
	tcase_add_loop_test(tc, test_tile_enomem, 0, DFZ_STRAT_COUNT);
	tcase_add_loop_test(tc, test_tile_hang, 0, 2);
	tcase_add_test(tc, test_tile_bad_prog);
	suite_add_tcase(s, tc);

	tcase_add_unchecked_fixture(bugs, rt_setup, rt_teardown);
	tcase_add_loop_test(bugs, test_edge_tile_bug, 0, 2);
	tcase_add_test(bugs, test_early_compute_single);
	tcase_add_test(bugs, test_early_compute_double);
	tcase_add_test(bugs, test_db_order);
	tcase_add_loop_test(bugs, test_db_war_bug, 0, DFZ_STRAT_COUNT);
	tcase_add_loop_test(bugs, test_req_escape_bug, 0, DFZ_STRAT_COUNT);
	suite_add_tcase(s, bugs);
	return s;
}
