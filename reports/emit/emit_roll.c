// SPDX-License-Identifier: MIT
/*
 * Loops in the drop-in printer's programs: the tile walk prints one call
 * per line, every tile and every piece of a decomposed transfer written
 * out; this turns each run of blocks that repeat, their numbers affine in
 * the repetition (or alternating modulo 2, a double buffer's slot, or
 * modulo the handle ring), into a for loop whose numbers are expressions
 * of the loop indices, and rolls the loop bodies the same way, so loops
 * nest where the tiling nests. A line is its text with each free-standing
 * decimal number taken out (a template) and the numbers. A roll is kept
 * only where it makes the program shorter; the rolled program is expanded
 * back and compared with the lines it came from, and written as it came
 * when they differ, so the program makes the same calls with the same
 * arguments in the same order.
 */
#include <stdlib.h>
#include <string.h>

#include "emit_roll_int.h"

#define BLOCK_MAX 128        /* nodes of one repeated block at most */

static const uint32_t mods[] = { 2, DFZ_TILE_RING };
#define NMODS (sizeof(mods) / sizeof(mods[0]))

/* One number of a block, flattened: the loops around it in the block and
 * the largest value it takes. */
struct flat {
	struct roll_expr *e;
	unsigned depth;
	uint64_t max;
};

/* What a number may become across the repetitions: affine (plain, step
 * dp), affine modulo mods[k] (step dm[k]), or a table (len: the rows of
 * each repetition's; tab: the table made). */
struct mode {
	bool plain;
	bool mod[NMODS];
	bool table;
	uint32_t dp;
	uint32_t dm[NMODS];
	uint32_t len;
	struct roll_table *tab;
};

/* ------------------------------------------------------------- blocks */

/* The loops around the sequence being rolled, innermost last. */
struct ctx {
	uint32_t trip[ROLL_DEPTH];
	unsigned n;
};

static bool same_shape(const struct roll_node *a, const struct roll_node *b)
{
	if (a->hash != b->hash || a->tmpl != b->tmpl || a->n != b->n ||
	    a->trip != b->trip)
		return false;
	for (uint32_t i = 0; !a->tmpl && i < a->n; i++)
		if (!same_shape(&a->body[i], &b->body[i]))
			return false;
	return true;
}

/* Numbers in, loops nested in, and lines printed by @n nodes at @s. */
static size_t count_nums(const struct roll_node *s, uint32_t n)
{
	size_t k = 0;

	for (uint32_t i = 0; i < n; i++)
		k += s[i].tmpl ? s[i].n : count_nums(s[i].body, s[i].n);
	return k;
}

unsigned dfz__roll_nest(const struct roll_node *s, uint32_t n)
{
	unsigned d = 0;

	for (uint32_t i = 0; i < n; i++) {
		unsigned in = s[i].tmpl ? 0 : 1 + dfz__roll_nest(s[i].body,
								 s[i].n);

		if (in > d)
			d = in;
	}
	return d;
}

static uint64_t cost_of(const struct roll_node *s, uint32_t n)
{
	uint64_t c = 0;

	for (uint32_t i = 0; i < n; i++)
		c += s[i].cost;
	return c;
}

/* The largest value of @e, @depth loops deep in a block (their trips in
 * @in, outermost first) inside the loops of @cx. */
static uint64_t max_of(const struct roll_expr *e, const uint32_t *in,
		       unsigned depth, const struct ctx *cx)
{
	uint64_t m = e->c;

	if (e->tab)
		return UINT64_MAX;
	if (e->m)
		return e->m - 1;
	for (unsigned r = 0; r < ROLL_DEPTH; r++) {
		unsigned out = r - depth;
		uint32_t trip = r < depth ? in[depth - 1 - r] :
				out < cx->n ? cx->trip[cx->n - 1 - out] : 1;

		m += (uint64_t)e->coef[r] * (trip - 1);
	}
	return m;
}

static void flatten(const struct roll_node *s, uint32_t n, uint32_t *in,
		    unsigned depth, const struct ctx *cx, struct flat *f,
		    size_t *k)
{
	for (uint32_t i = 0; i < n; i++) {
		if (!s[i].tmpl) {
			in[depth] = s[i].trip;
			flatten(s[i].body, s[i].n, in, depth + 1, cx, f, k);
			continue;
		}
		for (uint32_t j = 0; j < s[i].n; j++, (*k)++)
			f[*k] = (struct flat){ &s[i].num[j], depth,
					       max_of(&s[i].num[j], in, depth,
						      cx) };
	}
}

/* ---------------------------------------------------------------- modes */

static bool same_terms(const uint32_t *a, const uint32_t *b, uint32_t m)
{
	for (unsigned r = 0; r < ROLL_DEPTH; r++)
		if (m ? a[r] % m != b[r] % m : a[r] != b[r])
			return false;
	return true;
}

/* Rows of @e's table (1 without one). */
static uint32_t rows(const struct roll_expr *e)
{
	return e->tab ? e->tab->len : 1;
}

/* Whether @a and @b take the same values: the same table rows by the
 * same index. */
static bool same_table(const struct roll_expr *a, const struct roll_expr *b)
{
	return a->tab && b->tab && a->tab->len == b->tab->len &&
	       same_terms(a->idx, b->idx, 0) &&
	       !memcmp(a->tab->row, b->tab->row,
		       a->tab->len * ROLL_ROW * sizeof(*a->tab->row));
}

/* Whether @b is repetition @rep of @a, @dp further (no modulus). */
static bool plain_at(const struct roll_expr *a, const struct roll_expr *b,
		     uint32_t rep, uint32_t dp)
{
	if (a->m || b->m)
		return false;
	if (a->tab || b->tab)
		return dp == 0 && same_table(a, b);
	return same_terms(a->coef, b->coef, 0) &&
	       a->c + (uint64_t)rep * dp == b->c;
}

/* Whether @f may be taken modulo @m: it is, or all its values are below. */
static bool fits_mod(const struct flat *f, uint32_t m)
{
	return !f->e->tab && (f->e->m == m || (f->e->m == 0 && f->max < m));
}

static bool mod_at(const struct flat *a, const struct flat *b, uint32_t rep,
		   uint32_t m, uint32_t dm)
{
	return fits_mod(a, m) && fits_mod(b, m) &&
	       same_terms(a->e->coef, b->e->coef, m) &&
	       (a->e->c % m + (uint64_t)rep * dm) % m == b->e->c % m;
}

/* Whether @b can be a table's rows after @a's (@len each). */
static bool table_at(const struct roll_expr *a, const struct roll_expr *b,
		     uint32_t len)
{
	return !a->m && !b->m && rows(b) == len &&
	       (len == 1 || same_terms(a->idx, b->idx, 0));
}

/* What a number may become, from its first two repetitions @a and @b
 * (@tables: a table too). */
static bool mode_of(struct mode *md, const struct flat *a, const struct flat *b,
		    bool tables)
{
	bool any;

	*md = (struct mode){ .len = rows(a->e) };
	md->dp = b->e->c >= a->e->c && !a->e->tab ? b->e->c - a->e->c : 0;
	md->plain = plain_at(a->e, b->e, 1, md->dp);
	any = md->plain;
	for (unsigned k = 0; k < NMODS; k++) {
		uint32_t m = mods[k];

		md->dm[k] = (b->e->c % m + m - a->e->c % m) % m;
		md->mod[k] = mod_at(a, b, 1, m, md->dm[k]);
		any |= md->mod[k];
	}
	md->table = tables && table_at(a->e, b->e, md->len);
	return any || md->table;
}

/* Whether @md still holds at repetition @rep (@b) of @a. */
static bool mode_keep(struct mode *md, const struct flat *a,
		      const struct flat *b, uint32_t rep)
{
	bool any;

	md->plain = md->plain && plain_at(a->e, b->e, rep, md->dp);
	any = md->plain;
	for (unsigned k = 0; k < NMODS; k++) {
		md->mod[k] = md->mod[k] &&
			     mod_at(a, b, rep, mods[k], md->dm[k]);
		any |= md->mod[k];
	}
	md->table = md->table && table_at(a->e, b->e, md->len);
	return any || md->table;
}

/* A candidate: @len nodes at @at repeated @reps times; the modes of its
 * numbers in the scratch. */
struct block {
	const struct roll_node *at;
	uint32_t len;
	uint32_t reps;
};

struct scratch {
	struct flat *f0, *fk;
	struct mode *md, *tmp;
	size_t cap;
	bool tables;                 /* a number may become a table */
	bool force;                  /* a loop even where no shorter */
	bool oom;                    /* scratch_fit() failed */
};

static bool scratch_fit(struct scratch *s, size_t n)
{
	if (n <= s->cap)
		return true;
	n = n < 2 * s->cap ? 2 * s->cap : n;
	free(s->f0), free(s->fk), free(s->md), free(s->tmp);
	s->f0 = malloc(n * sizeof(*s->f0));
	s->fk = malloc(n * sizeof(*s->fk));
	s->md = malloc(n * sizeof(*s->md));
	s->tmp = malloc(n * sizeof(*s->tmp));
	s->cap = s->f0 && s->fk && s->md && s->tmp ? n : 0;
	s->oom |= s->cap == 0;
	return s->cap != 0;
}

/* Whether repetition @rep (flattened in s->fk) keeps every number's mode. */
static bool keep_all(struct scratch *s, size_t nnum, uint32_t rep)
{
	for (size_t i = 0; i < nnum; i++) {
		bool ok;

		s->tmp[i] = s->md[i];
		ok = rep == 1 ? mode_of(&s->tmp[i], &s->f0[i], &s->fk[i],
					s->tables) :
				mode_keep(&s->tmp[i], &s->f0[i], &s->fk[i], rep);
		if (!ok)
			return false;
	}
	memcpy(s->md, s->tmp, nnum * sizeof(*s->md));
	return true;
}

/* How often @b repeats within @avail nodes (1 at least). */
static uint32_t repeats(struct scratch *s, struct block *b, size_t avail,
			const struct ctx *cx)
{
	size_t nnum = count_nums(b->at, b->len), k = 0;
	uint32_t in[ROLL_DEPTH];

	b->reps = 1;
	if (dfz__roll_nest(b->at, b->len) + cx->n + 1 > ROLL_DEPTH ||
	    !scratch_fit(s, nnum))
		return 1;
	flatten(b->at, b->len, in, 0, cx, s->f0, &k);
	for (uint32_t rep = 1; (size_t)(rep + 1) * b->len <= avail; rep++) {
		const struct roll_node *at = b->at + (size_t)rep * b->len;
		bool same = true;

		for (uint32_t i = 0; same && i < b->len; i++)
			same = same_shape(&b->at[i], &at[i]);
		k = 0;
		if (!same)
			break;
		flatten(at, b->len, in, 0, cx, s->fk, &k);
		if (!keep_all(s, nnum, rep))
			break;
		b->reps = rep + 1;
	}
	return b->reps;
}

/* Whether a number of mode @md becomes a table (no affine form fits). */
static bool is_table(const struct mode *md)
{
	bool mod = false;

	for (unsigned k = 0; k < NMODS; k++)
		mod |= md->mod[k];
	return !md->plain && !mod && md->table;
}

/* --------------------------------------------------------------- loops */

struct roll_node *dfz__roll_copy(struct roll *r, const struct roll_node *s,
				 uint32_t n)
{
	struct roll_node *c = dfz__roll_alloc(r, n * sizeof(*c) + 1);

	for (uint32_t i = 0; c && i < n; i++) {
		c[i] = s[i];
		if (s[i].tmpl) {
			c[i].num = dfz__roll_alloc(r, s[i].n * sizeof(*c[i].num)
						       + 1);
			if (!c[i].num)
				return NULL;
			memcpy(c[i].num, s[i].num, s[i].n * sizeof(*c[i].num));
		} else if (!(c[i].body = dfz__roll_copy(r, s[i].body,
							s[i].n))) {
			return NULL;
		}
	}
	return c;
}

/* Terms @t (t[r]: the loop r out) with a new loop @depth out: the loops
 * from there on one further, the new one's term 0. */
static void shift_terms(uint32_t *t, unsigned depth)
{
	memmove(&t[depth + 1], &t[depth],
		(ROLL_DEPTH - 1 - depth) * sizeof(*t));
	t[depth] = 0;
}

/* Row @src (constant, coefficients) as @dst, for a new loop @depth out. */
static void shift_row(uint32_t *dst, const uint32_t *src, unsigned depth)
{
	memcpy(dst, src, ROLL_ROW * sizeof(*dst));
	shift_terms(dst + 1, depth);
}

static struct roll_table *new_table(struct roll *r, uint32_t len)
{
	struct roll_table *t = dfz__roll_alloc(r, sizeof(*t));

	if (!t)
		return NULL;
	*t = (struct roll_table){ .len = len };
	t->row = dfz__roll_alloc(r, (size_t)len * ROLL_ROW * sizeof(*t->row));
	return t->row ? t : NULL;
}

/* Rows of @e (@len of them) from @dst on, for a new loop @depth out. */
static void put_rows(uint32_t *dst, const struct roll_expr *e, uint32_t len,
		     unsigned depth)
{
	uint32_t one[ROLL_ROW];

	if (!e->tab) {
		one[0] = e->c;
		memcpy(one + 1, e->coef, sizeof(e->coef));
	}
	for (uint32_t j = 0; j < len; j++)
		shift_row(dst + (size_t)j * ROLL_ROW,
			  e->tab ? e->tab->row + (size_t)j * ROLL_ROW : one,
			  depth);
}

/* The tables of @b's numbers that become one: each repetition's rows. */
static bool make_tables(struct roll *r, struct scratch *s,
			const struct block *b, const struct ctx *cx,
			size_t nnum)
{
	uint32_t in[ROLL_DEPTH];

	for (size_t j = 0; j < nnum; j++)
		if (is_table(&s->md[j]) &&
		    !(s->md[j].tab = new_table(r, b->reps * s->md[j].len)))
			return false;
	for (uint32_t rep = 0; rep < b->reps; rep++) {
		size_t k = 0;

		flatten(b->at + (size_t)rep * b->len, b->len, in, 0, cx, s->fk,
			&k);
		for (size_t j = 0; j < nnum; j++)
			if (is_table(&s->md[j]))
				put_rows(s->md[j].tab->row + (size_t)rep *
					 s->md[j].len * ROLL_ROW, s->fk[j].e,
					 s->md[j].len, s->fk[j].depth);
	}
	return true;
}

/* Number @e, @depth loops deep in the block, inside the new loop: the
 * loops out of the block one further, the new one's step @md's (or its
 * table's rows). */
static bool apply(struct roll *r, struct roll_expr *e, unsigned depth,
		  const struct mode *md)
{
	uint32_t m = 0, d = md->dp;

	for (unsigned k = 0; !md->plain && !m && k < NMODS; k++)
		if (md->mod[k])
			m = mods[k], d = md->dm[k];
	shift_terms(e->idx, depth);
	if (is_table(md)) {
		uint32_t idx[ROLL_DEPTH];

		memcpy(idx, e->idx, sizeof(idx));
		*e = (struct roll_expr){ .tab = md->tab };
		memcpy(e->idx, idx, sizeof(idx));
		e->idx[depth] = md->len;
		return true;
	}
	if (e->tab) {                /* the same rows in every repetition */
		struct roll_table *t = new_table(r, e->tab->len);

		if (t)
			put_rows(t->row, e, e->tab->len, depth);
		e->tab = t;
		return t != NULL;
	}
	shift_terms(e->coef, depth);
	e->coef[depth] = d;
	if (m) {
		e->c %= m;
		for (unsigned q = 0; q < ROLL_DEPTH; q++)
			e->coef[q] %= m;
		e->m = m;
	}
	return true;
}

static bool rewrite(struct roll *r, struct roll_node *s, uint32_t n,
		    unsigned depth, const struct mode *md, size_t *k)
{
	for (uint32_t i = 0; i < n; i++) {
		if (!s[i].tmpl) {
			if (!rewrite(r, s[i].body, s[i].n, depth + 1, md, k))
				return false;
			continue;
		}
		for (uint32_t j = 0; j < s[i].n; j++)
			if (!apply(r, &s[i].num[j], depth, &md[(*k)++]))
				return false;
	}
	return true;
}

static void finish_loop(struct roll_node *l)
{
	l->hash = dfz__roll_mix(0x100, l->trip);
	for (uint32_t i = 0; i < l->n; i++)
		l->hash = dfz__roll_mix(l->hash, l->body[i].hash);
	l->cost = (uint32_t)(2 + cost_of(l->body, l->n));
}

static bool roll_seq(struct roll *r, struct scratch *s,
		     struct roll_node **seq, uint32_t *n, const struct ctx *cx);

/* @b (its modes in @s) as a loop at @out, its body rolled in turn. */
static bool make_loop(struct roll *r, struct scratch *s,
		      const struct block *b, const struct ctx *cx,
		      struct roll_node *out)
{
	size_t nnum = count_nums(b->at, b->len), k = 0;
	struct ctx in = *cx;

	*out = (struct roll_node){ .n = b->len, .trip = b->reps };
	out->body = dfz__roll_copy(r, b->at, b->len);
	if (!out->body || !make_tables(r, s, b, cx, nnum) ||
	    !rewrite(r, out->body, b->len, 0, s->md, &k))
		return false;
	in.trip[in.n++] = b->reps;
	if (!roll_seq(r, s, &out->body, &out->n, &in))
		return false;
	finish_loop(out);
	return true;
}

/* Lines the tables of @b's numbers would take (12 values a line). */
static uint64_t table_cost(const struct scratch *s, const struct block *b)
{
	size_t nnum = count_nums(b->at, b->len);
	uint64_t c = 0;

	for (size_t j = 0; j < nnum; j++)
		if (is_table(&s->md[j]))
			c += 2 + (uint64_t)b->reps * s->md[j].len / 12;
	return c;
}

/* The block at @seq[p] whose loop saves the most lines (the shortest of
 * equals); false when none saves any. */
static bool best_block(struct scratch *s, const struct roll_node *seq,
		       uint32_t n, uint32_t p, const struct ctx *cx,
		       struct block *best)
{
	uint64_t most = 0;

	for (uint32_t len = 1; len <= BLOCK_MAX && p + 2 * len <= n; len++) {
		struct block b = { &seq[p], len, 1 };
		uint64_t saved, cost;

		if (seq[p].hash != seq[p + len].hash ||
		    repeats(s, &b, n - p, cx) < 2)
			continue;
		saved = (b.reps - 1) * cost_of(b.at, len);
		cost = (s->force ? 0 : 2) + table_cost(s, &b);
		if (saved > cost && saved - cost > most) {
			most = saved - cost;
			*best = b;
			if (s->force)        /* the shortest: loops nest inward */
				break;
		}
	}
	return most > 0 && repeats(s, best, n - p, cx) >= 2;
}

/* Passes over @seq until one rolls nothing, numbers becoming tables when
 * @tables. */
static bool roll_passes(struct roll *r, struct scratch *s,
			struct roll_node **seq, uint32_t *n,
			const struct ctx *cx, bool tables)
{
	for (bool rolled = true; rolled;) {
		struct roll_node *out = dfz__roll_alloc(r, *n * sizeof(*out) + 1);
		uint32_t m = 0;

		if (!out)
			return false;
		rolled = false;
		for (uint32_t p = 0; p < *n;) {
			struct block b;

			s->tables = tables;
			if (!best_block(s, *seq, *n, p, cx, &b)) {
				out[m++] = (*seq)[p++];
				continue;
			}
			if (!make_loop(r, s, &b, cx, &out[m++]))
				return false;
			p += b.len * b.reps;
			rolled = true;
		}
		*seq = out;
		*n = m;
	}
	return true;
}

/* Loops with affine numbers first, then those that need tables. */
static bool roll_seq(struct roll *r, struct scratch *s,
		     struct roll_node **seq, uint32_t *n, const struct ctx *cx)
{
	return roll_passes(r, s, seq, n, cx, false) &&
	       roll_passes(r, s, seq, n, cx, true);
}

bool dfz__roll_seq(struct roll *r, struct roll_node **seq, uint32_t *n,
		   bool force)
{
	struct scratch s = { .force = force };
	struct ctx cx = { .n = 0 };
	bool ok = roll_seq(r, &s, seq, n, &cx);

	free(s.f0), free(s.fk), free(s.md), free(s.tmp);
	r->oom |= s.oom;
	return ok && !s.oom;
}

/* The nodes @s (@n) written into *@out (*@olen bytes) when they expand
 * to @text (@len bytes); *@out NULL otherwise, r->oom set when out of
 * memory. */
static void written(struct roll *r, struct roll_node *s, uint32_t n,
		    const char *text, size_t len, char **out, size_t *olen)
{
	FILE *m;

	*out = NULL;
	if (!s || !dfz__roll_expands_to(r, s, n, text, len))
		return;
	if (!(m = open_memstream(out, olen))) {
		r->oom = true;
		return;
	}
	if (dfz__roll_render(m, r, s, n) < 0)
		r->oom = true;
	if (fclose(m) != 0 || r->oom) {
		r->oom = true;
		free(*out);
		*out = NULL;
	}
}

static size_t lines_in(const char *s, size_t len)
{
	size_t k = 0;

	for (size_t i = 0; i < len; i++)
		k += s[i] == '\n';
	return k;
}

int dfz__emit_roll_grids(FILE *f, const char *text, size_t len,
			 const struct roll_grid *g, unsigned ng)
{
	struct roll r = { 0 };
	uint32_t n = 0, nt = 0;
	struct roll_node *seq, *tiles = NULL;
	char *a = NULL, *b = NULL;
	size_t alen = 0, blen = 0;
	int rc = 0;

	if (len && text[len - 1] != '\n')
		return DFZ_EINVAL;
	seq = dfz__roll_parse(&r, text, len, &n);
	if (seq && ng) {
		nt = n;
		tiles = dfz__roll_tiles(&r, seq, &nt, g, ng);
	}
	if (seq && dfz__roll_seq(&r, &seq, &n, false)) {
		written(&r, tiles, nt, text, len, &a, &alen);
		written(&r, seq, n, text, len, &b, &blen);
	}
	if (!seq || r.oom) {
		rc = DFZ_ENOMEM;
	} else {
		if (a && (!b || lines_in(a, alen) < lines_in(b, blen)))
			fwrite(a, 1, alen, f);
		else if (b)
			fwrite(b, 1, blen, f);
		else
			fwrite(text, 1, len, f);
	}
	free(a);
	free(b);
	dfz__roll_free(&r);
	return rc;
}

int dfz__emit_roll(FILE *f, const char *text, size_t len)
{
	return dfz__emit_roll_grids(f, text, len, NULL, 0);
}
