// SPDX-License-Identifier: MIT
/*
 * One loop over the tiles (emit_roll.c rolls what repeats; this rolls
 * the tile walk itself): the lines between the walk's tile notes
 * ("hop H tile I of N") are one tile's block; each block is rolled on its
 * own (a loop wherever something repeats, innermost first), the blocks
 * are lined up on the one with the most loops, backtracking: a template
 * loop is the block's loop, its body once, or absent (a trip of 0), and a
 * short block loop is written out where the template has lines. Every
 * number and trip then becomes a function of the tile loop's index i:
 * affine, affine modulo 2 or the handle ring, or a sum over the tile
 * grid's digits ((i + o) / p % q, the counts from the printer, o the
 * first tile plus -1, 0 or 1: a prefetch is the next tile's), each
 * digit group's share affine or from a small table (edge tiles), a table
 * over i last. The last block (no prefetch, the drain) and the first when
 * it does not line up (no store before it) stay outside the loop. The
 * caller expands the result and keeps it only when it gives the lines
 * back and is shorter than the greedy roll.
 */
#include <stdlib.h>
#include <string.h>

#include "emit_roll_int.h"

/* One block's numbers and trips, in the template's order; @care false
 * where a loop of one trip makes a coefficient meaningless. */
struct pvec {
	struct roll *r;              /* its oom set when out of memory */
	uint32_t *v;
	bool *care;
	size_t n, cap;
};

static bool push(struct pvec *p, uint32_t v, bool care)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 256;
		uint32_t *nv = realloc(p->v, cap * sizeof(*nv));
		bool *nc;

		if (!nv) {
			p->r->oom = true;
			return false;
		}
		p->v = nv;
		if (!(nc = realloc(p->care, cap * sizeof(*nc)))) {
			p->r->oom = true;
			return false;
		}
		p->care = nc;
		p->cap = cap;
	}
	p->v[p->n] = v;
	p->care[p->n++] = care;
	return true;
}

/* The template's loop levels (outermost first) and the block's level
 * each stands for (-1: a loop of one trip the block leaves out). */
struct lvmap {
	int lv[ROLL_DEPTH];
	unsigned td, id;
};

static bool line_params(const struct roll_node *t, const struct roll_node *b,
			const struct lvmap *mp, struct pvec *p)
{
	if (b->tmpl != t->tmpl || b->n != t->n)
		return false;
	for (uint32_t q = 0; q < t->n; q++) {
		const struct roll_expr *te = &t->num[q], *be = &b->num[q];

		if (te->tab || be->tab || (be->m && be->m != te->m))
			return false;
		if (!push(p, be->c, true))
			return false;
		for (unsigned l = 0; l < mp->td; l++) {
			int bl = mp->lv[l];
			uint32_t v = bl < 0 ? 0 : be->coef[mp->id - 1 - bl];

			if (!push(p, v, bl >= 0))
				return false;
		}
	}
	return true;
}

/* Parameters of template nodes @t (@n, @td loops deep) a block leaves
 * out (a loop of no trip): none cared for. */
static bool skip_params(const struct roll_node *t, uint32_t n, unsigned td,
			struct pvec *p)
{
	for (uint32_t i = 0; i < n; i++) {
		if (!t[i].tmpl) {
			if (!push(p, 0, true) ||
			    !skip_params(t[i].body, t[i].n, td + 1, p))
				return false;
			continue;
		}
		for (uint32_t k = 0; k < t[i].n * (1 + td); k++)
			if (!push(p, 0, false))
				return false;
	}
	return true;
}

/* An alignment in progress: the template's nodes, the block's, and the
 * steps left before giving up. */
struct aln {
	struct roll *r;
	const struct roll_node *t, *b;
	uint32_t nt, nb;
	bool whole;                  /* the block's nodes all taken */
};

static bool step(struct aln a, uint32_t i, uint32_t j, struct lvmap *mp,
		 struct pvec *p, uint32_t *used, unsigned *budget);
static bool try_node(struct aln a, uint32_t i, uint32_t j, struct lvmap *mp,
		     struct pvec *p, uint32_t *used, unsigned *budget);

/* Nodes @s (@n, @e loops inside the loop unrolled) with that loop's
 * index @v: its terms folded into the constants. */
static void fold(struct roll_node *s, uint32_t n, unsigned e, uint32_t v)
{
	for (uint32_t i = 0; i < n; i++) {
		if (!s[i].tmpl) {
			fold(s[i].body, s[i].n, e + 1, v);
			continue;
		}
		for (uint32_t q = 0; q < s[i].n; q++) {
			struct roll_expr *x = &s[i].num[q];

			x->c += x->coef[e] * v;
			memmove(&x->coef[e], &x->coef[e + 1],
				(ROLL_DEPTH - 1 - e) * sizeof(*x->coef));
			x->coef[ROLL_DEPTH - 1] = 0;
		}
	}
}

/* Block loop @a.b[j] written out (a template line stands there): its
 * copies in its place, then the alignment goes on (@a.whole: where the
 * block's nodes are all taken, so no count of them is passed back). */
/* Whether a number of nodes @s (@n, loops' bodies included) is read from a
 * table, which fold() cannot fold. */
static bool has_table(const struct roll_node *s, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		if (!s[i].tmpl) {
			if (has_table(s[i].body, s[i].n))
				return true;
			continue;
		}
		for (uint32_t q = 0; q < s[i].n; q++)
			if (s[i].num[q].tab)
				return true;
	}
	return false;
}

static bool unrolled(struct aln a, uint32_t i, uint32_t j, struct lvmap *mp,
		     struct pvec *p, uint32_t *used, unsigned *budget)
{
	const struct roll_node *l = &a.b[j];
	uint32_t nb = a.nb - 1 + l->trip * l->n, at = j, u = 0;
	struct roll_node *b = dfz__roll_alloc(a.r, nb * sizeof(*b) + 1);

	if (!b)
		return false;
	memcpy(b, a.b, j * sizeof(*b));
	for (uint32_t v = 0; v < l->trip; v++, at += l->n) {
		struct roll_node *c = dfz__roll_copy(a.r, l->body, l->n);

		if (!c || has_table(c, l->n))
			return false;
		fold(c, l->n, 0, v);
		memcpy(b + at, c, l->n * sizeof(*b));
	}
	memcpy(b + at, a.b + j + 1, (a.nb - j - 1) * sizeof(*b));
	a.b = b;
	a.nb = nb;
	*used = nb;                  /* whole: all taken on success */
	return step(a, i, j, mp, p, &u, budget);
}

/* Template loop @a.t[i] as block loop @a.b[j] (map), as its body once
 * (@how 1) or left out (@how 0); then the rest. */
static bool loop_as(struct aln a, uint32_t i, uint32_t j, int how,
		    struct lvmap *mp, struct pvec *p, uint32_t *used,
		    unsigned *budget)
{
	const struct roll_node *l = &a.t[i];
	struct aln in = { a.r, l->body, NULL, l->n, 0, how < 0 };
	uint32_t k = 0;
	bool ok;

	if (how == 0)
		return push(p, 0, true) &&
		       skip_params(l->body, l->n, mp->td + 1, p) &&
		       step(a, i + 1, j, mp, p, used, budget);
	in.b = how < 0 ? a.b[j].body : a.b + j;
	in.nb = how < 0 ? a.b[j].n : a.nb - j;
	mp->lv[mp->td++] = how < 0 ? (int)mp->id++ : -1;
	ok = push(p, how < 0 ? a.b[j].trip : 1, true) &&
	     step(in, 0, 0, mp, p, &k, budget);
	mp->td--;
	mp->id -= how < 0;
	return ok && step(a, i + 1, j + (how < 0 ? 1 : k), mp, p, used,
			  budget);
}

static bool step(struct aln a, uint32_t i, uint32_t j, struct lvmap *mp,
		 struct pvec *p, uint32_t *used, unsigned *budget)
{
	size_t mark = p->n;

	if (!*budget || !--*budget)
		return false;
	if (i == a.nt) {
		*used = j;
		return !a.whole || j == a.nb;
	}
	if (try_node(a, i, j, mp, p, used, budget))
		return true;
	p->n = mark;
	return a.whole && j < a.nb && !a.b[j].tmpl && a.b[j].trip <= 4 &&
	       unrolled(a, i, j, mp, p, used, budget);
}

/* Template node @a.t[i] against the block's from @j: a line as a line,
 * a loop as a loop, as its body once, or left out. */
static bool try_node(struct aln a, uint32_t i, uint32_t j, struct lvmap *mp,
		     struct pvec *p, uint32_t *used, unsigned *budget)
{
	size_t mark = p->n;

	if (a.t[i].tmpl)
		return j < a.nb && line_params(&a.t[i], &a.b[j], mp, p) &&
		       step(a, i + 1, j + 1, mp, p, used, budget);
	if (mp->td + 1 >= ROLL_DEPTH)
		return false;
	for (unsigned k = 0; k < 4; k++) {
		/* a block loop as deep as the template's: as it, first */
		static const int how[4] = { -1, 1, 0, -1 };
		bool loop = j < a.nb && !a.b[j].tmpl, same = loop &&
			dfz__roll_nest(a.t[i].body, a.t[i].n) ==
			dfz__roll_nest(a.b[j].body, a.b[j].n);

		if (how[k] < 0 && (!loop || same != (k == 0)))
			continue;
		if (loop_as(a, i, j, how[k], mp, p, used, budget))
			return true;
		p->n = mark;
	}
	return false;
}

/* Block nodes @b (@nb) as an instance of template @t (@nt), all taken:
 * their parameters appended to @p. */
static bool align(struct roll *r, const struct roll_node *t, uint32_t nt,
		  const struct roll_node *b, uint32_t nb, struct lvmap *mp,
		  struct pvec *p)
{
	struct aln a = { r, t, b, nt, nb, true };
	unsigned budget = 1u << 16;
	uint32_t used = 0;

	return step(a, 0, 0, mp, p, &used, &budget);
}

/* ---------------------------------------------------------------- fits */

uint64_t dfz__roll_fit_value(const struct roll_fit *f, uint64_t i)
{
	uint64_t x = f->c + (uint64_t)f->a * i;

	if (f->m)
		x %= f->m;
	for (unsigned k = 0; k < f->nterm; k++) {
		const struct roll_term *t = &f->term[k];
		uint64_t d = (i + f->o) / t->p % t->q;

		x += t->tab ? t->tab[d] : (uint64_t)t->a * d;
	}
	return x;
}

struct series {
	const uint32_t *x;
	const bool *care;
	size_t stride;               /* between blocks */
	uint32_t nblk;
};

static uint32_t at(const struct series *s, uint32_t k)
{
	return s->x[(size_t)k * s->stride];
}

static bool cared(const struct series *s, uint32_t k)
{
	return s->care[(size_t)k * s->stride];
}

static bool fits_all(const struct series *s, const struct roll_fit *f)
{
	for (uint32_t k = 0; k < s->nblk; k++)
		if (cared(s, k) && dfz__roll_fit_value(f, k) != at(s, k))
			return false;
	return true;
}

/* c + a * i, modulo @m when not 0. */
static bool fit_affine(const struct series *s, uint32_t m,
		       struct roll_fit *f)
{
	uint32_t k1 = UINT32_MAX, k2 = UINT32_MAX;

	for (uint32_t k = 0; k < s->nblk && k2 == UINT32_MAX; k++)
		if (cared(s, k))
			*(k1 == UINT32_MAX ? &k1 : &k2) = k;
	*f = (struct roll_fit){ .m = m };
	if (k1 == UINT32_MAX)
		return true;
	if (k2 == UINT32_MAX) {
		f->c = at(s, k1);
		return !m || f->c < m;
	}
	for (uint32_t a = 0; a < (m ? m : 1); a++) {
		int64_t d = (int64_t)at(s, k2) - at(s, k1);

		f->a = a;
		if (!m) {
			if (d < 0 || d % (k2 - k1))
				return false;
			f->a = (uint32_t)(d / (k2 - k1));
		}
		if ((uint64_t)f->a * k1 > at(s, k1) && !m)
			return false;
		f->c = m ? (uint32_t)((at(s, k1) + (uint64_t)m * k1 -
				       (uint64_t)f->a * k1 % m) % m) :
			   at(s, k1) - f->a * k1;
		if (fits_all(s, f))
			return true;
	}
	return false;
}

/* The share of digit (p, q) of (i + o): its values relative to digit 0,
 * from two cared blocks that differ in that digit only. */
static void share(const struct series *s, uint32_t o, uint32_t p,
		  uint32_t q, int64_t *v)
{
	for (uint32_t x = 0; x < q; x++) {
		v[x] = 0;
		for (uint32_t k = 0; k < s->nblk; k++) {
			uint64_t j = (uint64_t)k + o, back = (uint64_t)x * p;

			if ((j / p) % q != x || back > k || !cared(s, k) ||
			    !cared(s, (uint32_t)(k - back)))
				continue;
			v[x] = (int64_t)at(s, k) - at(s, (uint32_t)(k - back));
			break;
		}
	}
}

/* The term of digit group (@p, @q) of (i + @o) in *@t (a 0 when it has
 * no share); what it adds at block @k0 in *@at. */
static bool group_term(struct roll *r, const struct series *s, uint32_t o,
		       uint32_t p, uint32_t q, uint32_t k0,
		       struct roll_term *t, int64_t *at0)
{
	int64_t v[512] = { 0 }, mn = 0;
	bool lin = true;

	if (q > 512)
		return false;
	share(s, o, p, q, v);
	for (uint32_t x = 0; x < q; x++)
		mn = v[x] < mn ? v[x] : mn;
	for (uint32_t x = 0; x < q; x++)
		lin &= v[x] - mn == (int64_t)x * (v[1 % q] - mn) &&
		       v[1 % q] >= mn;
	*at0 = v[(k0 + o) / p % q] - mn;
	*t = (struct roll_term){ .p = p, .q = q };
	if (lin && mn == 0) {
		t->a = q > 1 ? (uint32_t)v[1] : 0;
		return true;
	}
	if (!(t->tab = dfz__roll_alloc(r, q * sizeof(*t->tab))))
		return false;
	for (uint32_t x = 0; x < q; x++)
		t->tab[x] = (uint32_t)(v[x] - mn);
	return true;
}

/* The grid's digits grouped by @mask (bit d: digit d + 1 joins d's group),
 * offset @o: c plus each group's share, affine or a table. */
static bool fit_digits(struct roll *r, const struct series *s,
		       const struct roll_grid *g, uint32_t mask, uint32_t o,
		       struct roll_fit *f)
{
	uint32_t k0 = 0;
	int64_t c;

	*f = (struct roll_fit){ .o = o };
	while (k0 < s->nblk && !cared(s, k0))
		k0++;
	if (k0 == s->nblk)
		return false;
	c = at(s, k0);
	for (unsigned d = 0, p = 1; d < g->n;) {
		struct roll_term *t = &f->term[f->nterm];
		uint32_t q = g->q[d++];
		int64_t add;

		while (d < g->n && (mask >> (d - 1) & 1))
			q *= g->q[d++];
		if (!group_term(r, s, o, p, q, k0, t, &add))
			return false;
		c -= add;
		p *= q;
		f->nterm += t->tab || t->a;
	}
	if (c < 0 || c > UINT32_MAX)
		return false;
	f->c = (uint32_t)c;
	return fits_all(s, f);
}

/* Lines the tables of @f take. */
static uint64_t fit_cost(const struct roll_fit *f)
{
	uint64_t c = 0;

	for (unsigned k = 0; k < f->nterm; k++)
		if (f->term[k].tab)
			c += 2 + (f->term[k].q + 11) / 12;
	return c;
}

/* Series @s as a table over i, into @f. */
static struct roll_fit *fit_table(struct roll *r, const struct series *s,
				  struct roll_fit *f)
{
	*f = (struct roll_fit){ .nterm = 1 };
	f->term[0] = (struct roll_term){ .p = 1, .q = s->nblk };
	f->term[0].tab = dfz__roll_alloc(r, s->nblk * sizeof(uint32_t));
	if (!f->term[0].tab)
		return NULL;
	for (uint32_t k = 0; k < s->nblk; k++)
		f->term[0].tab[k] = at(s, k);
	return f;
}

/* The cheapest fit of series @s, the tile loop starting at tile @j0. */
static struct roll_fit *fit_series(struct roll *r, const struct series *s,
				   const struct roll_grid *g, uint32_t j0)
{
	static const uint32_t mods[] = { 0, 2, DFZ_TILE_RING };
	struct roll_fit *best = dfz__roll_alloc(r, sizeof(*best)), f;
	uint64_t most = UINT64_MAX;

	if (!best)
		return NULL;
	for (unsigned k = 0; k < 3; k++)
		if (fit_affine(s, mods[k], best))
			return best;
	for (uint32_t sh = 0; sh < 3; sh++) {
		uint32_t o = j0 + sh - 1;

		if (j0 + sh < 1)
			continue;
		for (uint32_t mask = 0; mask < (1u << (g->n - 1)); mask++)
			if (fit_digits(r, s, g, mask, o, &f) &&
			    fit_cost(&f) < most) {
				most = fit_cost(&f);
				*best = f;
			}
	}
	return most < UINT64_MAX ? best : fit_table(r, s, best);
}

/* ------------------------------------------------------------ the loop */

struct tiles {
	struct roll *r;
	const uint32_t *x;           /* the blocks' parameters, block-major */
	const bool *care;
	size_t np;
	uint32_t nblk, j0;
	const struct roll_grid *g;
	size_t k;                    /* the parameter next */
};

static struct roll_fit *next_fit(struct tiles *ts, bool *plain, uint32_t *v)
{
	struct series s = { ts->x + ts->k, ts->care + ts->k, ts->np, ts->nblk };
	struct roll_fit *f = fit_series(ts->r, &s, ts->g, ts->j0);

	ts->k++;
	*plain = f && !f->a && !f->m && !f->nterm;
	*v = f ? f->c : 0;
	return f;
}

/* The template @t (@n nodes, @td loops deep) made the tile loop's body:
 * each number and trip its fit. */
static bool make_body(struct tiles *ts, struct roll_node *t, uint32_t n,
		      unsigned td)
{
	for (uint32_t i = 0; i < n; i++) {
		bool plain;
		uint32_t v;

		if (!t[i].tmpl) {
			t[i].tfit = next_fit(ts, &plain, &v);
			if (!t[i].tfit)
				return false;
			t[i].trip = v;
			if (plain)
				t[i].tfit = NULL;
			if (!make_body(ts, t[i].body, t[i].n, td + 1))
				return false;
			continue;
		}
		for (uint32_t q = 0; q < t[i].n; q++) {
			struct roll_expr *e = &t[i].num[q];

			for (unsigned col = 0; col <= td; col++) {
				struct roll_fit *f = next_fit(ts, &plain, &v);

				if (!f)
					return false;
				if (col)
					e->coef[td - col] = v;
				else
					e->c = v;
				e->fit[col ? 1 + td - col : 0] = plain ? NULL : f;
			}
		}
	}
	return true;
}

static uint32_t loops_in(const struct roll_node *s, uint32_t n)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < n; i++)
		if (!s[i].tmpl)
			k += 1 + loops_in(s[i].body, s[i].n);
	return k;
}

static void node_cost(struct roll_node *s, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (!s[i].tmpl) {
			node_cost(s[i].body, s[i].n);
			s[i].cost = 2;
			for (uint32_t k = 0; k < s[i].n; k++)
				s[i].cost += s[i].body[k].cost;
		}
}

/* Where the run of tile notes of the first hop noted starts: their
 * positions in @pos (@npos), the tile count in *@ntiles. */
static uint32_t find_notes(const struct roll *r, const struct roll_node *s,
			   uint32_t n, uint32_t *pos, uint32_t *ntiles)
{
	static const char note[] = { '\t', '/', '*', ' ', 'h', 'o', 'p', ' ',
		ROLL_SLOT, ' ', 't', 'i', 'l', 'e', ' ', ROLL_SLOT, ' ', 'o',
		'f', ' ', ROLL_SLOT, ' ', '*', '/', 0 };
	uint32_t k = 0, hop = 0;

	for (uint32_t i = 0; i < n; i++) {
		const struct roll_expr *e = s[i].num;

		if (!s[i].tmpl || strcmp(r->tmpl[s[i].tmpl - 1], note))
			continue;
		if (k && (e[0].c != hop || e[2].c != *ntiles ||
			  e[1].c != s[pos[k - 1]].num[1].c + 1)) {
			if (k >= 4)
				break;
			k = 0;              /* a run too short: the next */
		}
		hop = e[0].c;
		*ntiles = e[2].c;
		pos[k++] = i;
	}
	return k;
}

/* Block @k (between notes @pos[k] and @pos[k + 1]) rolled. */
static struct roll_node *block(struct roll *r, const struct roll_node *s,
			       const uint32_t *pos, uint32_t k, uint32_t *n)
{
	struct roll_node *b = dfz__roll_copy(r, s + pos[k],
					     pos[k + 1] - pos[k]);

	*n = pos[k + 1] - pos[k];
	return b && dfz__roll_seq(r, &b, n, true) ? b : NULL;
}

struct blocks {
	struct roll *r;
	struct roll_node **b;
	uint32_t *n;
	uint32_t first, last;        /* the blocks of the loop */
	struct roll_node *t;         /* the template */
	uint32_t nt;
	struct pvec p;
};

/* Each block of @bl lined up on the template; false when one is not. */
static bool params(struct blocks *bl)
{
	size_t np = 0;

	for (uint32_t k = bl->first; k <= bl->last; k++) {
		struct lvmap mp = { .td = 0 };
		size_t mark = bl->p.n;

		if (!align(bl->r, bl->t, bl->nt, bl->b[k], bl->n[k], &mp,
			   &bl->p))
			return false;
		if (k > bl->first && bl->p.n - mark != np)
			return false;
		np = bl->p.n - mark;
	}
	return true;
}

static const struct roll_grid *grid_of(const struct roll_grid *g,
				       unsigned ng, uint32_t ntiles)
{
	for (unsigned i = 0; i < ng; i++) {
		uint64_t t = 1;

		for (unsigned d = 0; d < g[i].n; d++)
			t *= g[i].q[d];
		if (t == ntiles && g[i].n)
			return &g[i];
	}
	return NULL;
}

/* The blocks of notes @pos (@k) rolled, the template picked, the loop's
 * first and last block found (the first block joins when it lines up). */
static bool take_blocks(struct roll *r, const struct roll_node *s,
			const uint32_t *pos, uint32_t k, struct blocks *bl)
{
	uint32_t most = 0;

	bl->r = r;
	bl->b = dfz__roll_alloc(r, k * sizeof(*bl->b));
	bl->n = dfz__roll_alloc(r, k * sizeof(*bl->n));
	if (!bl->b || !bl->n)
		return false;
	for (uint32_t i = 0; i + 1 < k; i++) {
		if (!(bl->b[i] = block(r, s, pos, i, &bl->n[i])))
			return false;
		if (i == 1 || (i && loops_in(bl->b[i], bl->n[i]) > most)) {
			most = loops_in(bl->b[i], bl->n[i]);
			bl->t = bl->b[i];
			bl->nt = bl->n[i];
		}
	}
	if (!bl->t)
		return false;
	bl->first = 0;
	bl->last = k - 2;
	if (params(bl))
		return true;
	bl->p.n = 0;
	bl->first = 1;
	return params(bl);
}

static struct roll_node *cat(struct roll *r, struct roll_node *a, uint32_t na,
			     const struct roll_node *loop, struct roll_node *b,
			     uint32_t nb, uint32_t *n)
{
	struct roll_node *s = dfz__roll_alloc(r, (na + nb + 1) * sizeof(*s));

	if (!s)
		return NULL;
	memcpy(s, a, na * sizeof(*s));
	s[na] = *loop;
	memcpy(s + na + 1, b, nb * sizeof(*s));
	*n = na + nb + 1;
	return s;
}

/* What follows a tile loop: the next run of tile notes rolled the same
 * way, else as the greedy roller does. */
static bool tail(struct roll *r, struct roll_node **s, uint32_t *n,
		 const struct roll_grid *g, unsigned ng)
{
	uint32_t k = *n;
	struct roll_node *t = dfz__roll_tiles(r, *s, &k, g, ng);

	if (!t)
		return dfz__roll_seq(r, s, n, false);
	*s = t;
	*n = k;
	return true;
}

struct roll_node *dfz__roll_tiles(struct roll *r, struct roll_node *s,
				  uint32_t *n, const struct roll_grid *g,
				  unsigned ng)
{
	uint32_t *pos = malloc((*n + 1) * sizeof(*pos)), k, ntiles = 0;
	uint32_t na, nb;
	struct blocks bl = { 0 };
	struct roll_node loop = { 0 }, *a, *b, *out = NULL;
	struct tiles ts = { .r = r };

	r->oom |= !pos;
	bl.p.r = r;
	k = pos ? find_notes(r, s, *n, pos, &ntiles) : 0;
	ts.g = grid_of(g, ng, ntiles);
	if (k < 4 || !ts.g || !take_blocks(r, s, pos, k, &bl))
		goto out;
	ts.nblk = bl.last - bl.first + 1;
	ts.np = bl.p.n / ts.nblk;
	ts.x = bl.p.v;
	ts.care = bl.p.care;
	ts.j0 = s[pos[bl.first]].num[1].c;
	loop = (struct roll_node){ .n = bl.nt, .trip = ts.nblk };
	loop.body = dfz__roll_copy(r, bl.t, bl.nt);
	if (!loop.body || !make_body(&ts, loop.body, bl.nt, 0))
		goto out;
	node_cost(&loop, 1);
	na = pos[bl.first];
	nb = *n - pos[bl.last + 1];
	a = dfz__roll_copy(r, s, na);
	b = dfz__roll_copy(r, s + pos[bl.last + 1], nb);
	if (a && b && dfz__roll_seq(r, &a, &na, false) && tail(r, &b, &nb, g, ng))
		out = cat(r, a, na, &loop, b, nb, n);
out:
	free(pos);
	free(bl.p.v);
	free(bl.p.care);
	return out;
}
