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
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "emit_dropin_int.h"

#define DEPTH_MAX 10         /* loops nested at most */
#define BLOCK_MAX 128        /* nodes of one repeated block at most */
#define SLOT '\x01'          /* a number's place in a template */

static const uint32_t mods[] = { 2, DFZ_TILE_RING };
#define NMODS (sizeof(mods) / sizeof(mods[0]))

/* (c + sum of coef[r] * the index r loops out) % m (m 0: no modulus);
 * r 0 is the innermost loop around the number. */
struct expr {
	uint32_t c;
	uint32_t m;
	uint32_t coef[DEPTH_MAX];
};

/* A line (tmpl > 0: template tmpl - 1, n numbers) or a loop (tmpl 0:
 * trip times its n body nodes). */
struct node {
	uint32_t tmpl;
	uint32_t n;
	uint32_t trip;
	uint32_t cost;               /* lines it prints */
	uint64_t hash;               /* of its structure, not its numbers */
	union {
		struct expr *num;
		struct node *body;
	};
};

struct chunk {
	struct chunk *next;
	size_t used, size;
	_Alignas(16) unsigned char mem[];
};

struct roll {
	struct chunk *arena;
	char **tmpl;                 /* the templates */
	uint32_t ntmpl, cap;
	uint32_t *index;             /* open addressing: template + 1 */
	uint32_t nindex;             /* a power of two */
	bool oom;
};

/* One number of a block, flattened: the loops around it in the block and
 * the largest value it takes. */
struct flat {
	struct expr *e;
	unsigned depth;
	uint64_t max;
};

/* What a number may become across the repetitions: affine (plain, step
 * dp) or affine modulo mods[k] (step dm[k]). */
struct mode {
	bool plain;
	bool mod[NMODS];
	uint32_t dp;
	uint32_t dm[NMODS];
};

/* ---------------------------------------------------------------- arena */

static void *alloc(struct roll *r, size_t n)
{
	struct chunk *c = r->arena;
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (!c || c->size - c->used < n) {
		size_t size = n > (1u << 20) ? n : (1u << 20);

		c = malloc(sizeof(*c) + size);
		if (!c) {
			r->oom = true;
			return NULL;
		}
		*c = (struct chunk){ r->arena, 0, size };
		r->arena = c;
	}
	p = c->mem + c->used;
	c->used += n;
	return p;
}

static void roll_free(struct roll *r)
{
	while (r->arena) {
		struct chunk *c = r->arena;

		r->arena = c->next;
		free(c);
	}
	for (uint32_t i = 0; i < r->ntmpl; i++)
		free(r->tmpl[i]);
	free(r->tmpl);
	free(r->index);
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

/* ------------------------------------------------------------ templates */

static bool grow_index(struct roll *r)
{
	uint32_t n = r->nindex ? 2 * r->nindex : 256;
	uint32_t *ix = calloc(n, sizeof(*ix));

	if (!ix)
		return false;
	for (uint32_t t = 0; t < r->ntmpl; t++) {
		uint32_t k = (uint32_t)str_hash(r->tmpl[t]) & (n - 1);

		while (ix[k])
			k = (k + 1) & (n - 1);
		ix[k] = t + 1;
	}
	free(r->index);
	r->index = ix;
	r->nindex = n;
	return true;
}

/* The number (+ 1) of template @s, added when new; 0 out of memory. */
static uint32_t intern(struct roll *r, const char *s)
{
	uint32_t k;

	if (2 * (r->ntmpl + 1) > r->nindex && !grow_index(r))
		return 0;
	k = (uint32_t)str_hash(s) & (r->nindex - 1);
	for (; r->index[k]; k = (k + 1) & (r->nindex - 1))
		if (!strcmp(r->tmpl[r->index[k] - 1], s))
			return r->index[k];
	if (r->ntmpl == r->cap) {
		uint32_t cap = r->cap ? 2 * r->cap : 64;
		char **t = realloc(r->tmpl, cap * sizeof(*t));

		if (!t)
			return 0;
		r->tmpl = t;
		r->cap = cap;
	}
	if (!(r->tmpl[r->ntmpl] = strdup(s)))
		return 0;
	r->index[k] = ++r->ntmpl;
	return r->ntmpl;
}

static bool is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Where the number at @s[i] ends, when a free-standing decimal number
 * (not part of a name, no suffix) starts there that fits 32 bits; else i. */
static size_t number_end(const char *s, size_t i, size_t len, uint32_t *v)
{
	size_t j = i;
	uint64_t x = 0;

	if (!isdigit((unsigned char)s[i]) || (i && is_ident(s[i - 1])))
		return i;
	while (j < len && isdigit((unsigned char)s[j]) && x <= UINT32_MAX)
		x = 10 * x + (uint64_t)(s[j++] - '0');
	if (x > UINT32_MAX || (j < len && (is_ident(s[j]) || s[j] == '.')) ||
	    (s[i] == '0' && j - i > 1))
		return i;
	*v = (uint32_t)x;
	return j;
}

/* Line @s (@len bytes, no newline) as a node; @buf holds @len + 1. */
static bool parse_line(struct roll *r, const char *s, size_t len, char *buf,
		       struct node *out)
{
	uint32_t v[256];
	size_t k = 0, i = 0, n = 0;

	while (i < len) {
		size_t j = n < 256 ? number_end(s, i, len, &v[n]) : i;

		if (j > i) {
			buf[k++] = SLOT;
			n++;
			i = j;
		} else {
			buf[k++] = s[i++];
		}
	}
	buf[k] = 0;
	*out = (struct node){ .tmpl = intern(r, buf), .n = (uint32_t)n,
			      .cost = 1 };
	out->num = alloc(r, n * sizeof(struct expr) + 1);
	if (!out->tmpl || !out->num)
		return false;
	for (i = 0; i < n; i++)
		out->num[i] = (struct expr){ .c = v[i] };
	out->hash = mix(out->tmpl, n);
	return true;
}

/* ------------------------------------------------------------- blocks */

/* The loops around the sequence being rolled, innermost last. */
struct ctx {
	uint32_t trip[DEPTH_MAX];
	unsigned n;
};

static bool same_shape(const struct node *a, const struct node *b)
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
static size_t count_nums(const struct node *s, uint32_t n)
{
	size_t k = 0;

	for (uint32_t i = 0; i < n; i++)
		k += s[i].tmpl ? s[i].n : count_nums(s[i].body, s[i].n);
	return k;
}

static unsigned nest(const struct node *s, uint32_t n)
{
	unsigned d = 0;

	for (uint32_t i = 0; i < n; i++)
		if (!s[i].tmpl && 1 + nest(s[i].body, s[i].n) > d)
			d = 1 + nest(s[i].body, s[i].n);
	return d;
}

static uint64_t cost_of(const struct node *s, uint32_t n)
{
	uint64_t c = 0;

	for (uint32_t i = 0; i < n; i++)
		c += s[i].cost;
	return c;
}

/* The largest value of @e, @depth loops deep in a block (their trips in
 * @in, outermost first) inside the loops of @cx. */
static uint64_t max_of(const struct expr *e, const uint32_t *in,
		       unsigned depth, const struct ctx *cx)
{
	uint64_t m = e->c;

	if (e->m)
		return e->m - 1;
	for (unsigned r = 0; r < DEPTH_MAX; r++) {
		unsigned out = r - depth;
		uint32_t trip = r < depth ? in[depth - 1 - r] :
				out < cx->n ? cx->trip[cx->n - 1 - out] : 1;

		m += (uint64_t)e->coef[r] * (trip - 1);
	}
	return m;
}

static void flatten(const struct node *s, uint32_t n, uint32_t *in,
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

static bool same_coefs(const struct expr *a, const struct expr *b, uint32_t m)
{
	for (unsigned r = 0; r < DEPTH_MAX; r++)
		if (m ? a->coef[r] % m != b->coef[r] % m :
			a->coef[r] != b->coef[r])
			return false;
	return true;
}

/* Whether @f may be taken modulo @m: it is, or all its values are below. */
static bool fits_mod(const struct flat *f, uint32_t m)
{
	return f->e->m == m || (f->e->m == 0 && f->max < m);
}

/* What a number may become, from its first two repetitions @a and @b. */
static bool mode_of(struct mode *md, const struct flat *a, const struct flat *b)
{
	bool any;

	*md = (struct mode){ 0 };
	md->plain = !a->e->m && !b->e->m && b->e->c >= a->e->c &&
		    same_coefs(a->e, b->e, 0);
	md->dp = b->e->c - a->e->c;
	any = md->plain;
	for (unsigned k = 0; k < NMODS; k++) {
		uint32_t m = mods[k];

		md->mod[k] = fits_mod(a, m) && fits_mod(b, m) &&
			     same_coefs(a->e, b->e, m);
		md->dm[k] = (b->e->c % m + m - a->e->c % m) % m;
		any |= md->mod[k];
	}
	return any;
}

/* Whether @md still holds at repetition @rep (@b) of @a. */
static bool mode_keep(struct mode *md, const struct flat *a,
		      const struct flat *b, uint32_t rep)
{
	bool any;

	md->plain = md->plain && !b->e->m && same_coefs(a->e, b->e, 0) &&
		    a->e->c + (uint64_t)rep * md->dp == b->e->c;
	any = md->plain;
	for (unsigned k = 0; k < NMODS; k++) {
		uint32_t m = mods[k];

		md->mod[k] = md->mod[k] && fits_mod(b, m) &&
			     same_coefs(a->e, b->e, m) &&
			     (a->e->c % m + (uint64_t)rep * md->dm[k]) % m ==
				     b->e->c % m;
		any |= md->mod[k];
	}
	return any;
}

/* A candidate: @len nodes at @at repeated @reps times; the modes of its
 * numbers in the scratch. */
struct block {
	const struct node *at;
	uint32_t len;
	uint32_t reps;
};

struct scratch {
	struct flat *f0, *fk;
	struct mode *md, *tmp;
	size_t cap;
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
	return s->cap != 0;
}

/* Whether repetition @rep (flattened in s->fk) keeps every number's mode. */
static bool keep_all(struct scratch *s, size_t nnum, uint32_t rep)
{
	for (size_t i = 0; i < nnum; i++) {
		bool ok;

		s->tmp[i] = s->md[i];
		ok = rep == 1 ? mode_of(&s->tmp[i], &s->f0[i], &s->fk[i]) :
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
	uint32_t in[DEPTH_MAX];

	b->reps = 1;
	if (nest(b->at, b->len) + cx->n + 1 > DEPTH_MAX || !scratch_fit(s, nnum))
		return 1;
	flatten(b->at, b->len, in, 0, cx, s->f0, &k);
	for (uint32_t rep = 1; (size_t)(rep + 1) * b->len <= avail; rep++) {
		const struct node *at = b->at + (size_t)rep * b->len;
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

/* --------------------------------------------------------------- loops */

static struct node *copy_seq(struct roll *r, const struct node *s, uint32_t n)
{
	struct node *c = alloc(r, n * sizeof(*c) + 1);

	for (uint32_t i = 0; c && i < n; i++) {
		c[i] = s[i];
		if (s[i].tmpl) {
			c[i].num = alloc(r, s[i].n * sizeof(struct expr) + 1);
			if (!c[i].num)
				return NULL;
			memcpy(c[i].num, s[i].num, s[i].n * sizeof(struct expr));
		} else if (!(c[i].body = copy_seq(r, s[i].body, s[i].n))) {
			return NULL;
		}
	}
	return c;
}

/* Number @e, @depth loops deep in the block, inside the new loop: the
 * loops out of the block one further, the new one's step @md's. */
static void apply(struct expr *e, unsigned depth, const struct mode *md)
{
	uint32_t m = 0, d = md->dp;

	for (unsigned k = 0; !md->plain && !m && k < NMODS; k++)
		if (md->mod[k])
			m = mods[k], d = md->dm[k];
	memmove(&e->coef[depth + 1], &e->coef[depth],
		(DEPTH_MAX - 1 - depth) * sizeof(e->coef[0]));
	e->coef[depth] = d;
	if (!m)
		return;
	e->c %= m;
	for (unsigned r = 0; r < DEPTH_MAX; r++)
		e->coef[r] %= m;
	e->m = m;
}

static void rewrite(struct node *s, uint32_t n, unsigned depth,
		    const struct mode *md, size_t *k)
{
	for (uint32_t i = 0; i < n; i++) {
		if (!s[i].tmpl) {
			rewrite(s[i].body, s[i].n, depth + 1, md, k);
			continue;
		}
		for (uint32_t j = 0; j < s[i].n; j++)
			apply(&s[i].num[j], depth, &md[(*k)++]);
	}
}

static void finish_loop(struct node *l)
{
	l->hash = mix(0x100, l->trip);
	for (uint32_t i = 0; i < l->n; i++)
		l->hash = mix(l->hash, l->body[i].hash);
	l->cost = (uint32_t)(2 + cost_of(l->body, l->n));
}

static bool roll_seq(struct roll *r, struct scratch *s, struct node **seq,
		     uint32_t *n, const struct ctx *cx);

/* @b (its modes in @s) as a loop at @out, its body rolled in turn. */
static bool make_loop(struct roll *r, struct scratch *s,
		      const struct block *b, const struct ctx *cx,
		      struct node *out)
{
	struct ctx in = *cx;
	size_t k = 0;

	*out = (struct node){ .n = b->len, .trip = b->reps };
	out->body = copy_seq(r, b->at, b->len);
	if (!out->body)
		return false;
	rewrite(out->body, b->len, 0, s->md, &k);
	in.trip[in.n++] = b->reps;
	if (!roll_seq(r, s, &out->body, &out->n, &in))
		return false;
	finish_loop(out);
	return true;
}

/* The block at @seq[p] whose loop saves the most lines (the shortest of
 * equals); false when none saves any. */
static bool best_block(struct scratch *s, const struct node *seq, uint32_t n,
		       uint32_t p, const struct ctx *cx, struct block *best)
{
	uint64_t most = 0;

	for (uint32_t len = 1; len <= BLOCK_MAX && p + 2 * len <= n; len++) {
		struct block b = { &seq[p], len, 1 };
		uint64_t c, saved;

		if (seq[p].hash != seq[p + len].hash ||
		    repeats(s, &b, n - p, cx) < 2)
			continue;
		c = cost_of(b.at, len);
		saved = (b.reps - 1) * c;
		if (saved > 2 && saved - 2 > most) {
			most = saved - 2;
			*best = b;
		}
	}
	return most > 0 && repeats(s, best, n - p, cx) >= 2;
}

static bool roll_seq(struct roll *r, struct scratch *s, struct node **seq,
		     uint32_t *n, const struct ctx *cx)
{
	for (bool rolled = true; rolled;) {
		struct node *out = alloc(r, *n * sizeof(*out) + 1);
		uint32_t m = 0;

		if (!out)
			return false;
		rolled = false;
		for (uint32_t p = 0; p < *n;) {
			struct block b;

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

/* ------------------------------------------------------------- output */

static unsigned nterms(const struct expr *e)
{
	unsigned k = 0;

	for (unsigned r = 0; r < DEPTH_MAX; r++)
		k += e->coef[r] != 0;
	return k;
}

/* "c + a * i0 + i1": the loop @depth - 1 - r is coef[r]'s. */
static void put_sum(FILE *f, const struct expr *e, unsigned depth)
{
	const char *sep = "";

	if (e->c || !nterms(e)) {
		fprintf(f, "%u", e->c);
		sep = " + ";
	}
	for (unsigned r = DEPTH_MAX; r-- > 0;) {
		if (!e->coef[r])
			continue;
		fputs(sep, f);
		if (e->coef[r] != 1)
			fprintf(f, "%u * ", e->coef[r]);
		fprintf(f, "i%u", depth - 1 - r);
		sep = " + ";
	}
}

/* Number @e, in parentheses unless @bare (the place takes a sum). */
static void put_expr(FILE *f, const struct expr *e, unsigned depth, bool bare)
{
	bool one = nterms(e) + (e->c != 0) <= 1;

	for (unsigned r = 0; one && r < DEPTH_MAX; r++)
		one = e->coef[r] <= 1;
	if (!one && (!bare || e->m))
		fputc('(', f);
	put_sum(f, e, depth);
	if (!one && (!bare || e->m))
		fputc(')', f);
	if (e->m)
		fprintf(f, " %% %u", e->m);
}

/* Whether the number at @t[i] of a template stands alone: after "(", "[",
 * ",", "=" or "+", before ")", "]", "," or ";" (a sum fits there). */
static bool bare_at(const char *t, size_t i)
{
	size_t a = i, b = i + 1;

	while (a > 0 && t[a - 1] == ' ')
		a--;
	while (t[b] == ' ')
		b++;
	return a > 0 && strchr("([,=+", t[a - 1]) && t[b] &&
	       strchr(")],;", t[b]);
}

static unsigned lead_tabs(const struct roll *r, const struct node *s)
{
	const char *t;
	unsigned k = 0;

	while (!s->tmpl)
		s = s->body;
	for (t = r->tmpl[s->tmpl - 1]; t[k] == '\t'; k++)
		;
	return k;
}

static void tabs(FILE *f, unsigned n)
{
	while (n--)
		fputc('\t', f);
}

/* The rolled lines, @depth loops deep. */
static void render(FILE *f, const struct roll *r, const struct node *s,
		   uint32_t n, unsigned depth)
{
	for (uint32_t i = 0; i < n; i++) {
		const char *t;
		uint32_t k = 0;

		if (!s[i].tmpl) {
			unsigned ind = lead_tabs(r, &s[i]) + depth;

			tabs(f, ind);
			fprintf(f, "for (unsigned i%u = 0; i%u < %u; i%u++) {\n",
				depth, depth, s[i].trip, depth);
			render(f, r, s[i].body, s[i].n, depth + 1);
			tabs(f, ind);
			fputs("}\n", f);
			continue;
		}
		tabs(f, depth);
		for (t = r->tmpl[s[i].tmpl - 1]; *t; t++)
			if (*t == SLOT)
				put_expr(f, &s[i].num[k++], depth,
					 bare_at(r->tmpl[s[i].tmpl - 1],
						 (size_t)(t - r->tmpl[s[i].tmpl - 1])));
			else
				fputc(*t, f);
		fputc('\n', f);
	}
}

/* The lines the rolled ones stand for, with the indices in @v. */
static void expand(FILE *f, const struct roll *r, const struct node *s,
		   uint32_t n, uint32_t *v, unsigned depth)
{
	for (uint32_t i = 0; i < n; i++) {
		uint32_t k = 0;

		if (!s[i].tmpl) {
			for (v[depth] = 0; v[depth] < s[i].trip; v[depth]++)
				expand(f, r, s[i].body, s[i].n, v, depth + 1);
			continue;
		}
		for (const char *t = r->tmpl[s[i].tmpl - 1]; *t; t++) {
			const struct expr *e = &s[i].num[k];
			uint64_t x = e->c;

			if (*t != SLOT) {
				fputc(*t, f);
				continue;
			}
			for (unsigned q = 0; q < DEPTH_MAX && q < depth; q++)
				x += (uint64_t)e->coef[q] * v[depth - 1 - q];
			fprintf(f, "%llu", (unsigned long long)(e->m ? x % e->m : x));
			k++;
		}
		fputc('\n', f);
	}
}

/* ---------------------------------------------------------------- entry */

/* The lines of @text as nodes (@n of them). */
static struct node *parse(struct roll *r, const char *text, size_t len,
			  uint32_t *n)
{
	size_t lines = 0, longest = 0, at = 0;
	struct node *s;
	char *buf;

	for (size_t i = 0, start = 0; i < len; i++)
		if (text[i] == '\n') {
			lines++;
			longest = i - start > longest ? i - start : longest;
			start = i + 1;
		}
	s = alloc(r, lines * sizeof(*s) + 1);
	buf = alloc(r, longest + 1);
	if (!s || !buf || lines > UINT32_MAX)
		return NULL;
	for (size_t i = 0; i < lines; i++) {
		size_t end = at;

		while (text[end] != '\n')
			end++;
		if (!parse_line(r, text + at, end - at, buf, &s[i]))
			return NULL;
		at = end + 1;
	}
	*n = (uint32_t)lines;
	return s;
}

/* Whether @s expands to exactly @text. */
static bool expands_to(const struct roll *r, const struct node *s,
		       uint32_t n, const char *text, size_t len)
{
	uint32_t v[DEPTH_MAX];
	char *out = NULL;
	size_t olen = 0;
	FILE *m = open_memstream(&out, &olen);
	bool same;

	if (!m)
		return false;
	expand(m, r, s, n, v, 0);
	same = fclose(m) == 0 && olen == len && !memcmp(out, text, len);
	free(out);
	return same;
}

int dfz__emit_roll(FILE *f, const char *text, size_t len)
{
	struct roll r = { 0 };
	struct scratch s = { 0 };
	struct ctx cx = { .n = 0 };
	uint32_t n = 0;
	struct node *seq;
	int rc = 0;

	if (len && text[len - 1] != '\n')
		return DFZ_EINVAL;
	seq = parse(&r, text, len, &n);
	if (!seq || !roll_seq(&r, &s, &seq, &n, &cx))
		rc = DFZ_ENOMEM;
	else if (expands_to(&r, seq, n, text, len))
		render(f, &r, seq, n, 0);
	else
		fwrite(text, 1, len, f);
	free(s.f0), free(s.fk), free(s.md), free(s.tmp);
	roll_free(&r);
	return rc;
}
