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
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle_int.h"

#define T_IN 0                       /* node[0].in */
#define T_AUX 1                      /* + k: node k's aux */
#define T_OUT (1 + DFZ_MAX_NODES)    /* + k: node k's out */
#define T_COUNT (1 + 2 * DFZ_MAX_NODES)

static const char *const kernel_name[DFZ_KERNEL_COUNT] = {
	[DFZ_KERNEL_COPY] = "copy",
	[DFZ_KERNEL_INC] = "inc",
	[DFZ_KERNEL_ADD] = "add",
};

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
	uint8_t *snap[T_COUNT];      /* DFZ__REF_CAP_BYTES each */
	uint8_t *mark[DFZ_MAX_NODES]; /* footprint stamps of each output */
	uint8_t gen;
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
		if (!(r->mark[i] = calloc(DFZ__REF_CAP_BYTES, 1)))
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
		free(r->mark[i]);
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

static uint64_t rd(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	while (n--)
		v = (v << 8) | p[n];
	return v;
}

/* Step the row-major odometer; false after the last element. */
static bool advance(struct ref *r, uint32_t *idx)
{
	int d;
	unsigned i;

	for (d = r->p.rank - 1; d >= 0; d--) {
		idx[d]++;
		for (i = 0; i < T_COUNT; i++)
			if (r->t[i].used)
				r->t[i].pos += r->t[i].t.stride[d];
		if (idx[d] < r->p.shape[d])
			return true;
		for (i = 0; i < T_COUNT; i++)
			if (r->t[i].used)
				r->t[i].pos -= (uint64_t)r->p.shape[d] *
					       r->t[i].t.stride[d];
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
		memset(r->mark[k] + o->pos, r->gen, e);
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
			kernel_name[r->p.node[b->node].kernel], tuple,
			(long long)b->flat, dfz__level_name(o->level),
			(unsigned long long)(o->off + b->pos),
			(unsigned long long)b->exp,
			(unsigned long long)b->got);
}

/* False when a mismatch was reported. */
static bool check_values(struct ref *r)
{
	uint32_t idx[DFZ_MAX_RANK] = { 0 };
	unsigned lim = r->p.nnodes, i;
	int64_t flat = 0;

	for (i = 0; i < T_COUNT; i++)
		r->t[i].pos = 0;
	r->bad.node = -1;
	if (extent(&r->p, &r->t[T_IN].t) == 0)
		return true;             /* a zero-sized dim: no elements */
	do {
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

static bool check_clobber(struct ref *r)
{
	unsigned i;
	uint32_t b;

	for (i = 0; i < T_COUNT; i++) {
		const struct ref_tensor *t = &r->t[i];
		bool out = i >= T_OUT;

		if (!t->used || !t->mem || (!out && aliases_output(r, i)) ||
		    memcmp(t->mem, r->snap[i], t->t.bytes) == 0)
			continue;
		for (b = 0; b < t->t.bytes; b++)
			if (t->mem[b] != r->snap[i][b] &&
			    (!out || r->mark[i - T_OUT][b] != r->gen)) {
				report_clobber(r, i, b);
				return false;
			}
	}
	return true;
}

static void ref_end(void *st)
{
	struct ref *r = st;
	unsigned k;

	if (!r->armed)
		return;
	r->armed = false;
	if (++r->gen == 0) {             /* stamps wrapped: clear them once */
		for (k = 0; k < DFZ_MAX_NODES; k++)
			memset(r->mark[k], 0, DFZ__REF_CAP_BYTES);
		r->gen = 1;
	}
	if (check_values(r))
		check_clobber(r);
}

const struct dfz_oracle_ops dfz__oracle_ref = {
	.name = "ref",
	.size = sizeof(struct ref),
	.events = 0,
	.init = ref_init,
	.fini = ref_fini,
	.reset = ref_reset,
	.begin = ref_begin,
	.end = ref_end,
};
