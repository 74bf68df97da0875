// SPDX-License-Identifier: MIT
/*
 * data.mismatch and data.clobber: a naive reference for the tiled program.
 * At begin the oracle snapshots every tensor of the spec (whole
 * allocations). At the end it walks the logical index space row-major,
 * computes each node's expected element from the pristine input snapshot
 * through the chain of kernels (node k reads node k-1's expected output),
 * and compares with each node's output in memory; then it checks that no
 * output byte outside the tensor's footprint (padding, stride gaps) and no
 * byte of a pure input changed. It shares no code with the tiling
 * executor or the adapter; it is the obvious N-d loop on purpose.
 *
 * For the footprint, the walk builds an image of each output: its begin
 * snapshot with every element it visits copied in from memory. Outside
 * the footprint the image is the snapshot, so the output in memory must
 * equal its image byte for byte.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle_int.h"

#define T_IN 0                       /* node[0].in */
#define T_AUX 1                      /* + k: node k's aux */
#define T_OUT (1 + DFZ_MAX_NODES)    /* + k: node k's out */
#define T_COUNT (1 + 2 * DFZ_MAX_NODES)


struct ref_tensor {
	bool used;
	struct dfz_tensor t;         /* copied at begin */
	const uint8_t *mem;          /* the allocation in memory */
	uint64_t pos;                /* current element, from t.off */
};

struct ref_bad {                     /* the first mismatch found */
	int node;                    /* -1: none */
	int64_t flat;
	uint32_t idx[DFZ_MAX_RANK];
	uint64_t exp;
	uint64_t got;
	uint64_t pos;
};

struct ref {
	struct dfz_oracles *set;
	struct dfz_rt *rt;
	bool armed;                  /* begin saw a spec it can judge */
	struct dfz_prog p;           /* copied at begin */
	struct ref_tensor t[T_COUNT];
	uint8_t live[T_COUNT];       /* the used tensors, in order */
	unsigned nlive;
	uint8_t *snap[T_COUNT];      /* DFZ__REF_CAP_BYTES each */
	uint8_t *img[DFZ_MAX_NODES]; /* each output as it should be */
	uint8_t *row;                /* a row's expected values */
	struct ref_bad bad;
};

static int ref_init(void *st)
{
	struct ref *r = st;
	unsigned i;

	for (i = 0; i < T_COUNT; i++)
		if (!(r->snap[i] = malloc(DFZ__REF_CAP_BYTES)))
			return DFZ_ENOMEM;
	for (i = 0; i < DFZ_MAX_NODES; i++)
		if (!(r->img[i] = malloc(DFZ__REF_CAP_BYTES)))
			return DFZ_ENOMEM;
	if (!(r->row = malloc(DFZ__REF_CAP_BYTES)))
		return DFZ_ENOMEM;
	return 0;
}

static void ref_fini(void *st)
{
	struct ref *r = st;
	unsigned i;

	for (i = 0; i < T_COUNT; i++)
		free(r->snap[i]);
	for (i = 0; i < DFZ_MAX_NODES; i++)
		free(r->img[i]);
	free(r->row);
}

static void ref_reset(void *st, struct dfz_oracles *set, struct dfz_rt *rt)
{
	struct ref *r = st;

	r->set = set;
	r->rt = rt;
	r->armed = false;
}

uint8_t *dfz__ref_snapshot(void *ref_state, unsigned t)
{
	struct ref *r = ref_state;

	return r && t < T_COUNT ? r->snap[t] : NULL;
}

/* ---------------------------------------------------------------- begin */

/* Bytes from element 0 to the end of the last element; 0 when empty. */
static uint64_t extent(const struct dfz_prog *p, const struct dfz_tensor *t)
{
	uint64_t end = p->elem;
	unsigned d;

	for (d = 0; d < p->rank; d++) {
		if (p->shape[d] == 0)
			return 0;
		end += (uint64_t)(p->shape[d] - 1) * t->stride[d];
	}
	return end;
}

/* Snapshot tensor @i; false when the spec is not something to judge. */
static bool take(struct ref *r, unsigned i, const struct dfz_tensor *t)
{
	struct ref_tensor *tt = &r->t[i];
	const uint8_t *lo, *hi;

	tt->used = true;
	tt->t = *t;
	tt->mem = NULL;
	r->live[r->nlive++] = (uint8_t)i;
	if (t->level >= DFZ_NLEVELS || t->bytes > DFZ__REF_CAP_BYTES ||
	    extent(&r->p, t) > t->bytes)
		return false;
	if (t->bytes == 0)
		return true;
	lo = dfz_mem_ptr(r->rt, (enum dfz_level)t->level, t->off);
	hi = (uint64_t)t->off + t->bytes - 1 > UINT32_MAX ? NULL :
	     dfz_mem_ptr(r->rt, (enum dfz_level)t->level,
			 t->off + t->bytes - 1);
	if (!lo || !hi || hi - lo != (ptrdiff_t)t->bytes - 1)
		return false;
	tt->mem = lo;
	memcpy(r->snap[i], lo, t->bytes);
	return true;
}

static bool spec_ok(const struct dfz_prog *p)
{
	unsigned k;

	if (p->rank < 1 || p->rank > DFZ_MAX_RANK || p->elem < 1 ||
	    p->elem > 8 || p->nnodes < 1 || p->nnodes > DFZ_MAX_NODES)
		return false;
	for (k = 0; k < p->nnodes; k++)
		if (p->node[k].kernel >= DFZ_KERNEL_COUNT)
			return false;
	return true;
}

static void ref_begin(void *st, const struct dfz_prog *spec)
{
	struct ref *r = st;
	unsigned i, k;
	bool ok;

	r->armed = false;
	if (!spec || !spec_ok(spec))
		return;
	r->p = *spec;
	r->nlive = 0;
	for (i = 0; i < T_COUNT; i++)
		r->t[i].used = false;
	ok = take(r, T_IN, &r->p.node[0].in);
	for (k = 0; k < r->p.nnodes; k++) {
		if (r->p.node[k].kernel == DFZ_KERNEL_ADD)
			ok = ok && take(r, T_AUX + k, &r->p.node[k].aux);
		ok = ok && take(r, T_OUT + k, &r->p.node[k].out);
	}
	r->armed = ok;
}

/* ------------------------------------------------------------ mismatch */

/* The little-endian value of the @n bytes at @p (n: 1, 2, 4 or 8). */
static uint64_t rd(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	if (n == 1)
		return p[0];
	if (n == 2)
		return p[0] | (uint64_t)p[1] << 8;
	while (n--)
		v = (v << 8) | p[n];
	return v;
}

/* Copy @n bytes (1..8): too few for a call to memcpy to pay. */
static void copy_elem(uint8_t *dst, const uint8_t *src, unsigned n)
{
	while (n--)
		*dst++ = *src++;
}

/* Step the row-major odometer; false after the last element. */
static bool advance(struct ref *r, uint32_t *idx)
{
	int d;
	unsigned i;

	for (d = r->p.rank - 1; d >= 0; d--) {
		idx[d]++;
		for (i = 0; i < r->nlive; i++)
			r->t[r->live[i]].pos += r->t[r->live[i]].t.stride[d];
		if (idx[d] < r->p.shape[d])
			return true;
		for (i = 0; i < r->nlive; i++) {
			struct ref_tensor *t = &r->t[r->live[i]];

			t->pos -= (uint64_t)r->p.shape[d] * t->t.stride[d];
		}
		idx[d] = 0;
	}
	return false;
}

/* Expected and actual values of every node at the current element;
 * nodes from @lim on are skipped. Return: the new limit. */
static unsigned element(struct ref *r, const uint32_t *idx, int64_t flat,
			unsigned lim)
{
	unsigned e = r->p.elem, k;
	uint64_t mask = e == 8 ? ~0ull : (1ull << (8 * e)) - 1;
	uint64_t v = rd(r->snap[T_IN] + r->t[T_IN].pos, e), got;

	for (k = 0; k < lim; k++) {
		const struct ref_tensor *o = &r->t[T_OUT + k];

		if (r->p.node[k].kernel == DFZ_KERNEL_INC)
			v = (v + 1) & mask;
		else if (r->p.node[k].kernel == DFZ_KERNEL_ADD)
			v = (v + rd(r->snap[T_AUX + k] + r->t[T_AUX + k].pos,
				    e)) & mask;
		got = rd(o->mem + o->pos, e);
		copy_elem(r->img[k] + o->pos, o->mem + o->pos, e);
		if (got == v)
			continue;
		r->bad = (struct ref_bad){ .node = (int)k, .flat = flat,
					   .exp = v, .got = got,
					   .pos = o->pos };
		memcpy(r->bad.idx, idx, sizeof(r->bad.idx));
		return k;
	}
	return lim;
}

static void report_mismatch(struct ref *r)
{
	const struct ref_bad *b = &r->bad;
	const struct dfz_tensor *o = &r->t[T_OUT + b->node].t;
	struct dfz_evidence x = dfz_evidence_none();
	char tuple[64];
	int n = 0;
	unsigned d;

	for (d = 0; d < r->p.rank; d++)
		n += snprintf(tuple + n, sizeof(tuple) - (size_t)n, "%s%u",
			      d ? "," : "", b->idx[d]);
	x.step = (int64_t)dfz_rt_now(r->rt);
	x.elem = b->flat;
	x.level = o->level;
	x.off = (int64_t)(o->off + b->pos);
	dfz_oracle_fail(r->set, "ref", DFZ_CLASS_DATA_MISMATCH, &x,
			"node %d (%s) output element [%s] (flat %lld) at "
			"%s[0x%llx]: expected 0x%llx, got 0x%llx", b->node,
			dfz_kernel_name(r->p.node[b->node].kernel), tuple,
			(long long)b->flat, dfz__level_name(o->level),
			(unsigned long long)(o->off + b->pos),
			(unsigned long long)b->exp,
			(unsigned long long)b->got);
}

/* Can whole rows be checked at once: is every used tensor's row (the last
 * dim) contiguous? */
static bool rows_contiguous(const struct ref *r)
{
	unsigned last = r->p.rank - 1, i;

	for (i = 0; i < r->nlive; i++)
		if (r->t[r->live[i]].t.stride[last] != r->p.elem)
			return false;
	return true;
}

/* Write the @n bytes (1..8) of @v at @p, little-endian. */
static void wr(uint8_t *p, uint64_t v, unsigned n)
{
	while (n--) {
		*p++ = (uint8_t)v;
		v >>= 8;
	}
}

/* @dst = @a + @b (@b NULL: + 1), element by element, @n elements of @e
 * bytes each, wrapping as the kernels do. @dst may be @a. */
static void row_kernel(uint8_t *dst, const uint8_t *a, const uint8_t *b,
		       uint32_t n, unsigned e)
{
	uint64_t mask = e == 8 ? ~0ull : (1ull << (8 * e)) - 1;
	uint32_t j;

	if (e == 1) {                /* the common case, a loop that vectorizes */
		for (j = 0; j < n; j++)
			dst[j] = (uint8_t)(a[j] + (b ? b[j] : 1));
		return;
	}
	for (j = 0; j < n; j++, dst += e, a += e) {
		wr(dst, (rd(a, e) + (b ? rd(b, e) : 1)) & mask, e);
		b = b ? b + e : NULL;
	}
}

/*
 * The row at @idx (its last index 0) in one go, when every node before
 * @lim holds its expected row: the walk moves to the row's last element,
 * and true. False (nothing counted): the row has a mismatch, which the walk
 * element by element finds and reports as ever.
 */
static bool row_matches(struct ref *r, uint32_t *idx, int64_t *flat,
			unsigned lim)
{
	unsigned last = r->p.rank - 1, e = r->p.elem, k, i;
	uint32_t n = r->p.shape[last];
	size_t bytes = (size_t)n * e;
	const uint8_t *want = r->snap[T_IN] + r->t[T_IN].pos;

	for (k = 0; k < lim; k++) {
		const struct ref_tensor *o = &r->t[T_OUT + k];
		unsigned kern = r->p.node[k].kernel;

		if (kern != DFZ_KERNEL_COPY) {
			row_kernel(r->row, want, kern == DFZ_KERNEL_ADD ?
				   r->snap[T_AUX + k] + r->t[T_AUX + k].pos :
				   NULL, n, e);
			want = r->row;
		}
		if (memcmp(o->mem + o->pos, want, bytes))
			return false;
	}
	for (k = 0; k < lim; k++) {
		const struct ref_tensor *o = &r->t[T_OUT + k];

		memcpy(r->img[k] + o->pos, o->mem + o->pos, bytes);
	}
	for (i = 0; i < r->nlive; i++)
		r->t[r->live[i]].pos += (uint64_t)(n - 1) * e;
	idx[last] = n - 1;
	*flat += n;
	return true;
}

/* False when a mismatch was reported. */
static bool check_values(struct ref *r)
{
	uint32_t idx[DFZ_MAX_RANK] = { 0 };
	unsigned lim = r->p.nnodes, last = r->p.rank - 1, i;
	int64_t flat = 0;
	bool rows;

	for (i = 0; i < T_COUNT; i++)
		r->t[i].pos = 0;
	for (i = 0; i < r->p.nnodes; i++)
		memcpy(r->img[i], r->snap[T_OUT + i], r->t[T_OUT + i].t.bytes);
	r->bad.node = -1;
	if (extent(&r->p, &r->t[T_IN].t) == 0)
		return true;             /* a zero-sized dim: no elements */
	rows = rows_contiguous(r);
	do {
		if (rows && idx[last] == 0 && row_matches(r, idx, &flat, lim))
			continue;        /* on to the next row */
		lim = element(r, idx, flat++, lim);
	} while (lim > 0 && advance(r, idx));
	if (r->bad.node < 0)
		return true;
	report_mismatch(r);
	return false;
}

/* ------------------------------------------------------------- clobber */

static void report_clobber(struct ref *r, unsigned i, uint32_t b)
{
	const struct ref_tensor *t = &r->t[i];
	struct dfz_evidence x = dfz_evidence_none();
	bool out = i >= T_OUT;
	char what[48];

	if (out)
		snprintf(what, sizeof(what), "node %u output", i - T_OUT);
	else if (i == T_IN)
		snprintf(what, sizeof(what), "program input");
	else
		snprintf(what, sizeof(what), "node %u aux input", i - T_AUX);
	x.step = (int64_t)dfz_rt_now(r->rt);
	x.level = t->t.level;
	x.off = (int64_t)t->t.off + b;
	dfz_oracle_fail(r->set, "ref", DFZ_CLASS_DATA_CLOBBER, &x,
			"%s %s[0x%x+%u] byte +%u (%s[0x%llx]) %s changed: "
			"expected 0x%02x (as at begin), got 0x%02x", what,
			dfz__level_name(t->t.level), t->t.off, t->t.bytes, b,
			dfz__level_name(t->t.level),
			(unsigned long long)t->t.off + b,
			out ? "outside the footprint" : "of a pure input",
			r->snap[i][b], t->mem[b]);
}

/* True when allocation @i overlaps any output allocation (in place). */
static bool aliases_output(const struct ref *r, unsigned i)
{
	const struct dfz_tensor *a = &r->t[i].t;
	unsigned k;

	for (k = 0; k < r->p.nnodes; k++) {
		const struct dfz_tensor *o = &r->t[T_OUT + k].t;

		if (o->level == a->level &&
		    (uint64_t)o->off < (uint64_t)a->off + a->bytes &&
		    (uint64_t)a->off < (uint64_t)o->off + o->bytes)
			return true;
	}
	return false;
}

/* The first byte of @n where @a and @b differ (they do). */
static uint32_t first_diff(const uint8_t *a, const uint8_t *b, uint32_t n)
{
	uint32_t i = 0;

	while (i + 1 < n && a[i] == b[i])
		i++;
	return i;
}

static bool check_clobber(struct ref *r)
{
	unsigned i;

	for (i = 0; i < T_COUNT; i++) {
		const struct ref_tensor *t = &r->t[i];
		bool out = i >= T_OUT;
		const uint8_t *want = out ? r->img[i - T_OUT] : r->snap[i];

		if (!t->used || !t->mem || (!out && aliases_output(r, i)) ||
		    memcmp(t->mem, want, t->t.bytes) == 0)
			continue;
		report_clobber(r, i, first_diff(t->mem, want, t->t.bytes));
		return false;
	}
	return true;
}

static void ref_end(void *st)
{
	struct ref *r = st;

	if (!r->armed)
		return;
	r->armed = false;
	if (check_values(r))
		check_clobber(r);
}

static const struct dfz_oracle_ops ops = {
	.name = "ref",
	.size = sizeof(struct ref),
	.events = 0,
	.init = ref_init,
	.fini = ref_fini,
	.reset = ref_reset,
	.begin = ref_begin,
	.end = ref_end,
};

const struct dfz_oracle_ops *dfz__oracle_ref(void)
{
	return &ops;
}
