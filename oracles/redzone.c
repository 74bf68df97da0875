// SPDX-License-Identifier: MIT
/*
 * mem.redzone: the canaries around every allocation. At ALLOC the oracle
 * snapshots the two redzones from memory as they are then; at FREE it
 * checks that block's redzones and forgets it; at the end of the run it
 * checks every block still live. It relies on nothing but the events and
 * the bytes, not on the runtime's canary function.
 */
#include <stdlib.h>
#include <string.h>

#include "oracle_int.h"

#define RZ_MAX 64                    /* snapshot bytes per side, at most */
#define RZ_BLOCKS (DFZ_MAX_ALLOCS * 2) /* live blocks per level tracked */

struct rz_block {
	uint32_t off;                /* user region */
	uint32_t len;
	uint32_t rz;                 /* snapshot bytes per side */
	uint8_t before[RZ_MAX];      /* bytes [off - rz, off) */
	uint8_t after[RZ_MAX];       /* bytes [off + len, off + len + rz) */
};

struct redzone {
	struct dfz_oracles *set;
	struct dfz_rt *rt;
	struct rz_block *blk[DFZ_NLEVELS]; /* RZ_BLOCKS each */
	uint32_t n[DFZ_NLEVELS];
};

static int rz_init(void *st)
{
	struct redzone *r = st;
	unsigned l;

	for (l = 0; l < DFZ_NLEVELS; l++) {
		r->blk[l] = malloc(RZ_BLOCKS * sizeof(*r->blk[l]));
		if (!r->blk[l])
			return DFZ_ENOMEM;
	}
	return 0;
}

static void rz_fini(void *st)
{
	struct redzone *r = st;
	unsigned l;

	for (l = 0; l < DFZ_NLEVELS; l++)
		free(r->blk[l]);
}

static void rz_reset(void *st, struct dfz_oracles *set, struct dfz_rt *rt)
{
	struct redzone *r = st;

	r->set = set;
	r->rt = rt;
	memset(r->n, 0, sizeof(r->n));
}

/* Redzones may be poisoned for ASan (cfg.sanitize): read them past its
 * checks, never through an intercepted memcpy/memcmp. */
DFZ__ORACLE_NO_ASAN
static void rz_copy(uint8_t *dst, const uint8_t *src, uint32_t n)
{
	const volatile uint8_t *s = src;

	for (uint32_t i = 0; i < n; i++)
		dst[i] = s[i];
}

/* Index of the first byte of @p that differs from @snap, or @n. */
DFZ__ORACLE_NO_ASAN
static uint32_t rz_diff(const uint8_t *p, const uint8_t *snap,
			       uint32_t n)
{
	const volatile uint8_t *v = p;
	uint32_t i = 0;

	while (i < n && v[i] == snap[i])
		i++;
	return i;
}

/* The memory of [off, off + n) of @level, or NULL when out of range. */
static const uint8_t *mem_range(const struct redzone *r, unsigned level,
				uint64_t off, uint64_t n)
{
	const uint8_t *p;

	if (n == 0 || off + n > UINT32_MAX)
		return NULL;
	p = dfz_mem_ptr(r->rt, (enum dfz_level)level, (uint32_t)off);
	if (!p || !dfz_mem_ptr(r->rt, (enum dfz_level)level,
			       (uint32_t)(off + n - 1)))
		return NULL;
	return p;
}

static void on_alloc(struct redzone *r, const struct dfz_event *ev)
{
	unsigned l = ev->dst.level;
	struct rz_block *b;
	const uint8_t *lo, *hi;
	uint32_t rz = ev->aux > RZ_MAX ? RZ_MAX : (uint32_t)ev->aux;

	if (l >= DFZ_NLEVELS || r->n[l] >= RZ_BLOCKS || ev->aux <= 0)
		return;
	if (rz > ev->dst.off)
		rz = ev->dst.off;
	lo = mem_range(r, l, (uint64_t)ev->dst.off - rz, rz);
	hi = mem_range(r, l, (uint64_t)ev->dst.off + ev->dst.len, rz);
	if (!lo || !hi)
		return;
	b = &r->blk[l][r->n[l]++];
	b->off = ev->dst.off;
	b->len = ev->dst.len;
	b->rz = rz;
	rz_copy(b->before, lo, rz);
	rz_copy(b->after, hi, rz);
}

/* Compare @n snapshot bytes with memory at @off; report the first change. */
static bool side_ok(struct redzone *r, unsigned l, const struct rz_block *b,
		    const uint8_t *snap, uint64_t off, const char *side)
{
	const uint8_t *p = mem_range(r, l, off, b->rz);
	struct dfz_evidence ev;
	uint32_t i;

	if (!p || (i = rz_diff(p, snap, b->rz)) == b->rz)
		return true;
	ev = dfz_evidence_none();
	ev.step = (int64_t)dfz_rt_now(r->rt);
	ev.level = l;
	ev.off = (int64_t)(off + i);
	dfz_oracle_fail(r->set, "redzone", DFZ_CLASS_MEM_REDZONE, &ev,
			"block %s[0x%x+%u]: %s redzone byte %s[0x%llx] "
			"(offset %lld from the block) expected 0x%02x, "
			"saw 0x%02x",
			dfz__level_name(l), b->off, b->len, side,
			dfz__level_name(l), (unsigned long long)(off + i),
			(long long)(off + i) - (long long)b->off,
			snap[i], ((const volatile uint8_t *)p)[i]);
	return false;
}

static bool block_ok(struct redzone *r, unsigned l, const struct rz_block *b)
{
	return side_ok(r, l, b, b->before, (uint64_t)b->off - b->rz,
		       "leading") &&
	       side_ok(r, l, b, b->after, (uint64_t)b->off + b->len,
		       "trailing");
}

static void on_free(struct redzone *r, const struct dfz_event *ev)
{
	unsigned l = ev->dst.level;
	uint32_t i;

	if (l >= DFZ_NLEVELS)
		return;
	for (i = r->n[l]; i-- > 0;) {
		if (r->blk[l][i].off != ev->dst.off)
			continue;
		if (block_ok(r, l, &r->blk[l][i]))
			r->blk[l][i] = r->blk[l][--r->n[l]];
		return;
	}
}

static void rz_event(void *st, const struct dfz_event *ev)
{
	struct redzone *r = st;

	if (ev->kind == DFZ_EV_ALLOC)
		on_alloc(r, ev);
	else
		on_free(r, ev);
}

static void rz_end(void *st)
{
	struct redzone *r = st;
	unsigned l;
	uint32_t i;

	for (l = 0; l < DFZ_NLEVELS; l++)
		for (i = 0; i < r->n[l]; i++)
			if (!block_ok(r, l, &r->blk[l][i]))
				return;
}

static const struct dfz_oracle_ops ops = {
	.name = "redzone",
	.size = sizeof(struct redzone),
	.events = DFZ_EV_BIT(DFZ_EV_ALLOC) | DFZ_EV_BIT(DFZ_EV_FREE),
	.init = rz_init,
	.fini = rz_fini,
	.reset = rz_reset,
	.event = rz_event,
	.end = rz_end,
};

const struct dfz_oracle_ops *dfz__oracle_redzone(void)
{
	return &ops;
}
