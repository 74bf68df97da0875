// SPDX-License-Identifier: MIT
/*
 * The N-d transfer adapter (DESIGN 3.6): what a tiling compiler generates on
 * top of a DMA engine. A strided N-d transfer is normalised to byte
 * dimensions, decomposed into the engine's kernel rank (a loop over the
 * outer dimensions, one kernel call per iteration), and issued on the
 * requests of a caller's handle by one of the decomposition policies. The
 * adapter keeps its own record of which requests are in flight and guards
 * reuse on engines that forbid sharing a request (the fix of bug 1); the
 * shared-handle switch removes exactly that guard. Two more pieces of
 * generated code live here: the size guard that splits a kernel transfer
 * too large for an engine's command (mchan-len-overflow restores the guard
 * that lets exactly 2^17 bytes through), and the 1-byte dummy transfer
 * after every copy on an engine whose completed id lags (idma-no-dummy
 * drops it). It drives engines only through struct dfz_engine_ops.
 */
#include <string.h>

#include "runtime_int.h"
#include "vg.h"

/* Logical dims, the byte dim and a possible unit line dim. */
#define NORM_MAX (DFZ_MAX_RANK + 2)

/* A transfer in byte dims, outermost first; rank 0 is an empty transfer. */
struct norm {
	unsigned rank;
	uint32_t shape[NORM_MAX];
	uint32_t ext[NORM_MAX];   /* byte strides, external side */
	uint32_t loc[NORM_MAX];   /* byte strides, local side */
};

/* The kernel calls of one transfer: @loops outer dims of the normalised
 * transfer are iterated, each iteration issues @base at shifted offsets. */
struct kplan {
	unsigned loops;
	uint64_t calls;
	struct dfz_desc base;
};

/*
 * Adapter-owned tail of a handle's first request on an engine with a
 * lagging id: the offsets of the dummy transfer's scratch bytes (0: none;
 * no allocation starts at offset 0).
 */
struct scratch {
	uint32_t l2_off;
	uint32_t l1_off;
};

/* ------------------------------------------------------------------ names */

#define NAME_OF(id, name) name,
static const char *const engine_names[DFZ_ENGINE_COUNT] = {
	DFZ_ENGINE_MAP(NAME_OF)
};
static const char *const policy_names[DFZ_POLICY_COUNT] = {
	DFZ_POLICY_MAP(NAME_OF)
};
static const char *const strategy_names[DFZ_STRAT_COUNT] = {
	DFZ_STRAT_MAP(NAME_OF)
};
#undef NAME_OF

const char *dfz_engine_name(unsigned e)
{
	return e < DFZ_ENGINE_COUNT ? engine_names[e] : NULL;
}

const char *dfz_policy_name(unsigned p)
{
	return p < DFZ_POLICY_COUNT ? policy_names[p] : NULL;
}

const char *dfz_strategy_name(unsigned s)
{
	return s < DFZ_STRAT_COUNT ? strategy_names[s] : NULL;
}

/* ---------------------------------------------------------- normalisation */

static void push_dim(struct norm *n, uint32_t shape, uint32_t ext,
		     uint32_t loc)
{
	n->shape[n->rank] = shape;
	n->ext[n->rank] = ext;
	n->loc[n->rank] = loc;
	n->rank++;
}

static void remove_dim(struct norm *n, unsigned i)
{
	for (unsigned k = i; k + 1 < n->rank; k++) {
		n->shape[k] = n->shape[k + 1];
		n->ext[k] = n->ext[k + 1];
		n->loc[k] = n->loc[k + 1];
	}
	n->rank--;
}

/* Dim @i steps over whole copies of dim @i+1 on both sides. */
static bool is_mergeable(const struct norm *n, unsigned i)
{
	uint64_t inner = n->shape[i + 1];

	return n->ext[i] == inner * n->ext[i + 1] &&
	       n->loc[i] == inner * n->loc[i + 1];
}

/*
 * Merge dims contiguous on both sides. Merging dim i into i+1 changes only
 * the shape of i+1, which no inner pair's test reads, so one pass from the
 * inside out reaches the fixed point. The product fits: the total byte
 * count was checked first.
 */
static void merge_dims(struct norm *n)
{
	for (unsigned i = n->rank - 1; i-- > 0;) {
		if (!is_mergeable(n, i))
			continue;
		n->shape[i + 1] *= n->shape[i];
		remove_dim(n, i);
	}
}

/* Offset of the last byte the dims reach from @base; false on overflow. */
static bool fits_extent(const struct norm *n, const uint32_t *stride,
			uint32_t base)
{
	uint64_t end = base;

	for (unsigned d = 0; d < n->rank; d++) {
		end += (uint64_t)(n->shape[d] - 1) * stride[d];
		if (end > UINT32_MAX)
			return false;
	}
	return true;
}

/* Total bytes of @x, or 0 when empty; saturates above UINT32_MAX. */
static uint64_t total_bytes(const struct dfz_xfer *x)
{
	uint64_t total = x->elem;

	for (unsigned d = 0; d < x->rank; d++) {
		total *= x->shape[d];
		if (total > UINT32_MAX)
			return (uint64_t)UINT32_MAX + 1;
	}
	return total;
}

/*
 * Normalise @x into @n (rank 0: empty). Return 0, DFZ_EINVAL for a rank
 * outside 1..DFZ_MAX_RANK, or DFZ_ERANGE when the transfer's bytes or
 * offsets do not fit 32 bits.
 */
static int normalise(const struct dfz_xfer *x, struct norm *n)
{
	uint64_t total;

	memset(n, 0, sizeof(*n));
	if (x->rank < 1 || x->rank > DFZ_MAX_RANK)
		return DFZ_EINVAL;
	total = total_bytes(x);
	if (total == 0)
		return 0;
	if (total > UINT32_MAX)
		return DFZ_ERANGE;
	for (unsigned d = 0; d < x->rank; d++)
		if (x->shape[d] != 1)
			push_dim(n, x->shape[d], x->ext_stride[d], x->loc_stride[d]);
	if (x->elem != 1)
		push_dim(n, x->elem, 1, 1);
	if (n->rank > 1)
		merge_dims(n);
	if (n->rank == 0 || n->ext[n->rank - 1] != 1 || n->loc[n->rank - 1] != 1)
		push_dim(n, 1, 1, 1);
	if (!fits_extent(n, n->ext, x->ext_off) ||
	    !fits_extent(n, n->loc, x->loc_off))
		return DFZ_ERANGE;
	return 0;
}

unsigned dfz_xfer_rank(const struct dfz_xfer *x)
{
	struct norm n;

	if (!x || normalise(x, &n) < 0)
		return 0;
	return n.rank;
}

/* ---------------------------------------------------------- decomposition */

/*
 * Map the normalised @n onto the engine's kernels: a 2-D kernel over the
 * two innermost dims when the engine has one, the local side is contiguous
 * across lines and a line fits one command, else one line per call (padded
 * to 2-D unless the engine has a native 1-D kernel).
 */
static void plan_kernel(const struct dfz_engine_caps *caps,
			const struct dfz_xfer *x, const struct norm *n,
			struct kplan *k)
{
	unsigned r = n->rank;
	uint32_t len = n->shape[r - 1];
	bool two_d = (caps->kernel_ranks & (1u << 2)) && r >= 2 &&
		     n->loc[r - 2] == len &&
		     (caps->max_size == 0 || len <= caps->max_size);
	struct dfz_desc *d = &k->base;

	memset(k, 0, sizeof(*k));
	d->ext_level = x->ext_level;
	d->loc_level = x->loc_level;
	d->ext2loc = x->ext2loc != 0;
	d->length = len;
	d->loc_stride = len;
	if (two_d) {
		k->loops = r - 2;
		d->is_2d = 1;
		d->size = n->shape[r - 2] * len;
		d->ext_stride = n->ext[r - 2];
	} else {
		k->loops = r - 1;
		d->is_2d = !(caps->kernel_ranks & (1u << 1));
		d->size = len;
		d->ext_stride = len;
	}
	k->calls = 1;
	for (unsigned i = 0; i < k->loops; i++)
		k->calls *= n->shape[i];
}

/* The descriptor of the kernel call at outer index @idx. The sums fit:
 * normalise() bounded the last byte of both sides. */
static void desc_at(const struct dfz_xfer *x, const struct norm *n,
		    const struct kplan *k, const uint32_t *idx,
		    struct dfz_desc *d)
{
	uint64_t ext = x->ext_off, loc = x->loc_off;

	for (unsigned i = 0; i < k->loops; i++) {
		ext += (uint64_t)idx[i] * n->ext[i];
		loc += (uint64_t)idx[i] * n->loc[i];
	}
	*d = k->base;
	d->ext_off = (uint32_t)ext;
	d->loc_off = (uint32_t)loc;
}

/* Advance the row-major outer index @idx over the first @loops dims. */
static void next_index(const struct norm *n, unsigned loops, uint32_t *idx)
{
	for (unsigned i = loops; i-- > 0;) {
		if (++idx[i] < n->shape[i])
			return;
		idx[i] = 0;
	}
}

bool dfz_engine_caps_of(unsigned engine, struct dfz_engine_caps *caps)
{
	const struct dfz_engine_ops *ops = dfz__engine_ops(engine);

	if (!ops || !caps)
		return false;
	*caps = (struct dfz_engine_caps){ .kernel_ranks = (uint8_t)ops->kernel_ranks,
					  .max_size = ops->max_size,
					  .can_share = ops->can_share,
					  .lagging_id = ops->lagging_id };
	return true;
}

uint64_t dfz_xfer_calls(const struct dfz_xfer *x, unsigned engine)
{
	struct dfz_engine_caps caps;
	struct norm n;
	struct kplan k;
	uint64_t per = 1;

	if (!x || !dfz_engine_caps_of(engine, &caps) || normalise(x, &n) < 0 ||
	    n.rank == 0)
		return 0;
	plan_kernel(&caps, x, &n, &k);
	if (caps.max_size && k.base.size > caps.max_size) /* the splits */
		per = k.base.size / caps.max_size + 1;
	return k.calls * per;
}

/* --------------------------------------------------------------- requests */

static bool has_bug(const struct dfz_xfer_walk *w, enum dfz_bug bug)
{
	return (w->bugs >> bug) & 1u;
}

static int wait_req(const struct dfz_xfer_walk *w, struct dfz_handle *h,
		    unsigned q)
{
	int rc = w->ops->wait(w->ctx, h, q);

	h->in_flight[q] = 0;
	return rc;
}

static int wait_if_in_flight(const struct dfz_xfer_walk *w,
			     struct dfz_handle *h, unsigned q)
{
	return h->in_flight[q] ? wait_req(w, h, q) : 0;
}

/* The request sub-transfer @j goes on, after the waits its policy makes. */
static int pick_req(const struct dfz_xfer_walk *w, struct dfz_handle *h,
		    uint64_t j, unsigned *q)
{
	*q = 0;
	if (w->policy == DFZ_POLICY_POOL) {
		*q = h->next % h->nreq;
		h->next = (uint8_t)((*q + 1u) % h->nreq);
		return wait_if_in_flight(w, h, *q);
	}
	if (w->policy == DFZ_POLICY_WAIT_EACH && j > 0)
		return wait_if_in_flight(w, h, 0);
	return 0;
}

/*
 * Issue sub-transfer @j of a transfer on @h. The reuse guard (the fix of
 * bug 1) waits a request still in flight before re-issuing it on an engine
 * that forbids sharing; the shared-handle switch removes exactly it. On an
 * engine whose completed id lags, a dummy transfer follows each copy
 * (idma-no-dummy drops it).
 */
static int issue_sub(const struct dfz_xfer_walk *w, struct dfz_handle *h,
		     const struct dfz_desc *d, uint64_t j)
{
	bool guard = !has_bug(w, DFZ_BUG_SHARED_HANDLE);
	unsigned q;
	int rc = pick_req(w, h, j, &q);

	if (rc == 0 && guard && !w->caps.can_share)
		rc = wait_if_in_flight(w, h, q);
	if (rc < 0)
		return rc;
	rc = w->ops->issue(w->ctx, h, q, d);
	if (rc < 0)
		return rc;
	h->in_flight[q] = 1;
	if (w->caps.lagging_id && !has_bug(w, DFZ_BUG_IDMA_NO_DUMMY)) {
		rc = w->ops->dummy(w->ctx, h);
		if (rc < 0)
			return rc;
	}
	if (w->policy == DFZ_POLICY_BLOCKING)
		return wait_req(w, h, q);
	return 0;
}

/* ------------------------------------------------------------ size guard */

static unsigned bit_width(uint32_t v)
{
	unsigned b = 0;

	for (; v; v >>= 1)
		b++;
	return b;
}

/* ceil(log2(v)); 0 for v <= 1. */
static unsigned ceil_log2(uint32_t v)
{
	unsigned b = 0;

	while (b < 32 && ((uint64_t)1 << b) < v)
		b++;
	return b;
}

/*
 * The guard generated code puts before a push: size <= max_size. The
 * mchan-len-overflow switch restores ceil(log2(size)) <= bits of the
 * length field, which also lets exactly 2^bits through.
 */
static bool passes_guard(const struct dfz_xfer_walk *w, uint32_t size)
{
	uint32_t max = w->caps.max_size;

	if (max == 0)
		return true;
	if (has_bug(w, DFZ_BUG_MCHAN_LEN_OVERFLOW))
		return ceil_log2(size) <= bit_width(max);
	return size <= max;
}

/* The largest size passes_guard() accepts: what a split cuts to. */
static uint32_t guard_limit(const struct dfz_xfer_walk *w)
{
	uint64_t lim = w->caps.max_size;

	if (has_bug(w, DFZ_BUG_MCHAN_LEN_OVERFLOW))
		lim = (uint64_t)1 << bit_width(w->caps.max_size);
	return lim > UINT32_MAX ? UINT32_MAX : (uint32_t)lim;
}

/* Groups of whole lines of the 2-D @d, @lim bytes at most per push. */
static int issue_lines(const struct dfz_xfer_walk *w, struct dfz_handle *h,
		       const struct dfz_desc *d, uint32_t lim, uint64_t *j)
{
	uint64_t per = lim / d->length, lines = d->size / d->length;

	for (uint64_t l = 0; l < lines; l += per) {
		struct dfz_desc sub = *d;
		uint64_t n = lines - l < per ? lines - l : per;
		int rc;

		/* Each fits 32 bits: normalise() bounded the extents. */
		sub.size = (uint32_t)(n * d->length);
		sub.ext_off += (uint32_t)(l * d->ext_stride);
		sub.loc_off += (uint32_t)(l * d->loc_stride);
		rc = issue_sub(w, h, &sub, (*j)++);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* The one line of @d in contiguous chunks of @lim bytes. */
static int issue_chunks(const struct dfz_xfer_walk *w, struct dfz_handle *h,
			const struct dfz_desc *d, uint32_t lim, uint64_t *j)
{
	for (uint64_t b = 0; b < d->size; b += lim) {
		struct dfz_desc sub = *d;
		int rc;

		sub.size = (uint32_t)(d->size - b < lim ? d->size - b : lim);
		sub.length = sub.ext_stride = sub.loc_stride = sub.size;
		sub.ext_off += (uint32_t)b;
		sub.loc_off += (uint32_t)b;
		rc = issue_sub(w, h, &sub, (*j)++);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/*
 * Issue kernel transfer @d, split by the size guard when it does not fit
 * one push: a 2-D one by groups of whole lines (plan_kernel() made sure a
 * line fits), a one-line one by byte chunks.
 */
static int issue_kernel(const struct dfz_xfer_walk *w, struct dfz_handle *h,
			const struct dfz_desc *d, uint64_t *j)
{
	uint32_t lim;

	if (passes_guard(w, d->size))
		return issue_sub(w, h, d, (*j)++);
	lim = guard_limit(w);
	if (d->is_2d && d->length < d->size)
		return issue_lines(w, h, d, lim, j);
	return issue_chunks(w, h, d, lim, j);
}

int dfz_xfer_walk(const struct dfz_xfer_walk *w, const struct dfz_xfer *x,
		  struct dfz_handle *h)
{
	uint32_t idx[NORM_MAX] = { 0 };
	struct norm n;
	struct kplan k;
	int rc;

	if (!w || !w->ops || !x || !h || h->nreq == 0 ||
	    h->nreq > DFZ_MAX_POOL || w->policy >= DFZ_POLICY_COUNT)
		return DFZ_EINVAL;
	rc = normalise(x, &n);
	if (rc < 0 || n.rank == 0)
		return rc;
	plan_kernel(&w->caps, x, &n, &k);
	for (uint64_t c = 0, j = 0; c < k.calls; c++) {
		struct dfz_desc d;

		desc_at(x, &n, &k, idx, &d);
		rc = issue_kernel(w, h, &d, &j);
		if (rc < 0)
			return rc;
		next_index(&n, k.loops, idx);
	}
	return 0;
}

int dfz_handle_walk_wait(const struct dfz_xfer_walk *w, struct dfz_handle *h)
{
	int first = 0;

	if (!w || !w->ops || !h || h->nreq > DFZ_MAX_POOL)
		return DFZ_EINVAL;
	for (unsigned q = 0; q < h->nreq; q++) {
		int rc = wait_if_in_flight(w, h, q);

		if (rc < 0 && first == 0)
			first = rc;
	}
	return first;
}

/* ------------------------------------------------------ the runtime's ops */

/* The engine ops of @ad, or NULL when @ad cannot drive a transfer. */
static const struct dfz_engine_ops *adapter_ops(const struct dfz_adapter *ad)
{
	if (!ad || !ad->rt || ad->policy >= DFZ_POLICY_COUNT)
		return NULL;
	return dfz__engine_ops(ad->engine);
}

/* The tail of @h's first request, where the dummy's scratch offsets are. */
static uint8_t *scratch_at(const struct dfz_engine_ops *ops,
			   const struct dfz_handle *h)
{
	return (uint8_t *)h->req[0] + ((ops->req_size + 7u) & ~7u);
}

static int rt_issue(void *ctx, struct dfz_handle *h, unsigned q,
		    const struct dfz_desc *d)
{
	const struct dfz_adapter *ad = ctx;

	return adapter_ops(ad)->issue(ad->rt, h->req[q], d);
}

/* The 1-byte dummy transfer between the handle's two scratch bytes, issued
 * on no request: nobody waits for it, it only makes the copy's id resolve. */
static int rt_dummy(void *ctx, struct dfz_handle *h)
{
	const struct dfz_adapter *ad = ctx;
	const struct dfz_engine_ops *ops = adapter_ops(ad);
	struct dfz_desc d = {
		.ext_level = DFZ_L2,
		.loc_level = DFZ_L1,
		.ext2loc = 1,
		.size = 1,
		.length = 1,
		.ext_stride = 1,
		.loc_stride = 1,
	};
	struct scratch s;

	memcpy(&s, scratch_at(ops, h), sizeof(s));
	d.ext_off = s.l2_off;
	d.loc_off = s.l1_off;
	return ops->issue(ad->rt, NULL, &d);
}

static int rt_wait(void *ctx, struct dfz_handle *h, unsigned q)
{
	const struct dfz_adapter *ad = ctx;

	return adapter_ops(ad)->wait(ad->rt, h->req[q]);
}

static const struct dfz_xfer_ops runtime_ops = {
	.issue = rt_issue,
	.dummy = rt_dummy,
	.wait = rt_wait,
};

/* The walk of @ad on the runtime; false when @ad cannot drive one. */
static bool runtime_walk(struct dfz_adapter *ad, struct dfz_xfer_walk *w)
{
	const struct dfz_engine_ops *ops = adapter_ops(ad);

	if (!ops)
		return false;
	*w = (struct dfz_xfer_walk){ .policy = ad->policy,
				     .bugs = dfz_rt_bugs(ad->rt),
				     .ops = &runtime_ops, .ctx = ad };
	return dfz_engine_caps_of(ad->engine, &w->caps);
}

int dfz_xfer_issue(struct dfz_adapter *ad, const struct dfz_xfer *x,
		   struct dfz_handle *h)
{
	struct dfz_xfer_walk w;

	if (!runtime_walk(ad, &w))
		return DFZ_EINVAL;
	return dfz_xfer_walk(&w, x, h);
}

int dfz_handle_wait(struct dfz_adapter *ad, struct dfz_handle *h)
{
	struct dfz_xfer_walk w;

	if (!runtime_walk(ad, &w))
		return DFZ_EINVAL;
	return dfz_handle_walk_wait(&w, h);
}

/* ---------------------------------------------------------------- handles */

unsigned dfz_policy_requests(unsigned policy, unsigned pool_k)
{
	return policy == DFZ_POLICY_POOL ? pool_k : 1;
}

/* Requests of a handle of @ad. */
static unsigned req_count(const struct dfz_adapter *ad)
{
	return dfz_policy_requests(ad->policy, ad->pool_k);
}

/* Storage bytes of request @q: on an engine with a lagging id the first
 * one carries the scratch tail. */
static uint32_t req_bytes(const struct dfz_engine_ops *ops, unsigned q)
{
	if (!ops->lagging_id || q > 0)
		return ops->req_size;
	return ((ops->req_size + 7u) & ~7u) + (uint32_t)sizeof(struct scratch);
}

/* What one allocation of @size bytes takes from an arena. */
static uint64_t alloc_cost(uint64_t size)
{
	return ((size + 7) & ~(uint64_t)7) + 2 * DFZ_REDZONE;
}

uint64_t dfz__handle_bytes(const struct dfz_adapter *ad, unsigned level)
{
	const struct dfz_engine_ops *ops = adapter_ops(ad);
	uint64_t bytes = 0;
	unsigned n;

	if (!ops)
		return 0;
	n = req_count(ad);
	if (n < 1 || n > DFZ_MAX_POOL)
		return 0;
	if (level == ad->req_level)
		bytes += alloc_cost(req_bytes(ops, 0)) +
			 (n - 1) * alloc_cost(req_bytes(ops, 1));
	if (ops->lagging_id && (level == DFZ_L2 || level == DFZ_L1))
		bytes += alloc_cost(1);
	return bytes;
}

/*
 * The dummy's scratch bytes, one in L2 and one in L1, both 0 so that a
 * dummy copies 0 over 0 and changes nothing. Their offsets go to the tail
 * of @h's first request as each is allocated, so that dfz_handle_fini()
 * releases exactly what exists.
 */
static int alloc_scratch(struct dfz_adapter *ad,
			 const struct dfz_engine_ops *ops, struct dfz_handle *h)
{
	static const enum dfz_level levels[2] = { DFZ_L2, DFZ_L1 };
	struct scratch s = { 0, 0 };

	for (unsigned i = 0; i < 2; i++) {
		struct dfz_span sp;
		void *p;
		int rc = dfz_local_alloc(ad->rt, levels[i], 1, &p);

		if (rc < 0)
			return rc;
		*(uint8_t *)p = 0;
		if (!dfz_mem_locate(ad->rt, p, 1, &sp))
			return DFZ_EFAULT;
		if (i == 0)
			s.l2_off = sp.off;
		else
			s.l1_off = sp.off;
		memcpy(scratch_at(ops, h), &s, sizeof(s));
	}
	return 0;
}

static void free_scratch(struct dfz_adapter *ad,
			 const struct dfz_engine_ops *ops, struct dfz_handle *h)
{
	struct scratch s;

	memcpy(&s, scratch_at(ops, h), sizeof(s));
	if (s.l2_off)
		dfz_local_free(ad->rt, dfz_mem_ptr(ad->rt, DFZ_L2, s.l2_off));
	if (s.l1_off)
		dfz_local_free(ad->rt, dfz_mem_ptr(ad->rt, DFZ_L1, s.l1_off));
}

int dfz_handle_init(struct dfz_adapter *ad, struct dfz_handle *h)
{
	const struct dfz_engine_ops *ops = adapter_ops(ad);
	unsigned nreq;
	int rc = 0;

	if (!ops || !h)
		return DFZ_EINVAL;
	nreq = req_count(ad);
	if (nreq < 1 || nreq > DFZ_MAX_POOL)
		return DFZ_EINVAL;
	memset(h, 0, sizeof(*h));
	for (unsigned q = 0; q < nreq; q++) {
		uint32_t bytes = req_bytes(ops, q);

		rc = dfz_local_alloc(ad->rt, (enum dfz_level)ad->req_level,
				     bytes, &h->req[q]);
		if (rc < 0)
			goto err_free_reqs;
		memset(h->req[q], 0, bytes);
		dfz__vg_describe(ad->rt, h->req[q], "request %u of a %s handle",
				 q, ops->name);
		h->nreq = (uint8_t)(q + 1);
	}
	if (ops->lagging_id) {
		rc = alloc_scratch(ad, ops, h);
		if (rc < 0)
			goto err_free_reqs;
	}
	return 0;

err_free_reqs:
	dfz_handle_fini(ad, h);
	return rc;
}

void dfz_handle_fini(struct dfz_adapter *ad, struct dfz_handle *h)
{
	const struct dfz_engine_ops *ops = adapter_ops(ad);

	if (!ad || !h)
		return;
	if (ops && ops->lagging_id && h->nreq > 0 && h->req[0])
		free_scratch(ad, ops, h);
	for (unsigned q = 0; q < h->nreq && q < DFZ_MAX_POOL; q++)
		if (h->req[q])
			dfz_local_free(ad->rt, h->req[q]);
	memset(h, 0, sizeof(*h));
}
