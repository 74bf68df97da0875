// SPDX-License-Identifier: MIT
/*
 * The text side of the loop roller (emit_roll.c): a program's lines read
 * as templates (the line with each free-standing decimal number taken
 * out) and their numbers; the rolled nodes expanded back into lines, to
 * compare with the lines they came from; and the rolled nodes written as
 * C: the tables of numbers no affine form gives, then each loop as
 * `for (unsigned iD = 0; iD < N; iD++) {`, iD the index D loops deep, and
 * each line with its numbers as expressions of the indices.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "emit_roll_int.h"

struct roll_chunk {
	struct roll_chunk *next;
	size_t used, size;
	_Alignas(16) unsigned char mem[];
};

/* ---------------------------------------------------------------- arena */

void *dfz__roll_alloc(struct roll *r, size_t n)
{
	struct roll_chunk *c = r->arena;
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (!c || c->size - c->used < n) {
		size_t size = n > (1u << 20) ? n : (1u << 20);

		c = malloc(sizeof(*c) + size);
		if (!c) {
			r->oom = true;
			return NULL;
		}
		*c = (struct roll_chunk){ r->arena, 0, size };
		r->arena = c;
	}
	p = c->mem + c->used;
	c->used += n;
	return p;
}

void dfz__roll_free(struct roll *r)
{
	while (r->arena) {
		struct roll_chunk *c = r->arena;

		r->arena = c->next;
		free(c);
	}
	for (uint32_t i = 0; i < r->ntmpl; i++)
		free(r->tmpl[i]);
	free(r->tmpl);
	free(r->index);
}

uint64_t dfz__roll_mix(uint64_t h, uint64_t v)
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

/*
 * Where the number at @s[i] ends (a u suffix included, @u set), when a
 * free-standing decimal number that fits 32 bits starts there (not part
 * of a name, no leading 0, no other suffix); else i.
 */
static size_t number_end(const char *s, size_t i, size_t len, uint32_t *v,
			 bool *u)
{
	size_t j = i;
	uint64_t x = 0;

	if (!isdigit((unsigned char)s[i]) || (i && is_ident(s[i - 1])))
		return i;
	while (j < len && isdigit((unsigned char)s[j]) && x <= UINT32_MAX)
		x = 10 * x + (uint64_t)(s[j++] - '0');
	*u = j < len && s[j] == 'u' && (j + 1 == len || !is_ident(s[j + 1]));
	j += *u;
	if (x > UINT32_MAX || (j < len && (is_ident(s[j]) || s[j] == '.')) ||
	    (s[i] == '0' && j - i > 1u + *u))
		return i;
	*v = (uint32_t)x;
	return j;
}

/* Line @s (@len bytes, no newline) as a node; @buf holds @len + 1. */
static bool parse_line(struct roll *r, const char *s, size_t len, char *buf,
		       struct roll_node *out)
{
	uint32_t v[256];
	size_t k = 0, i = 0, n = 0;
	bool u;

	while (i < len) {
		size_t j = n < 256 ? number_end(s, i, len, &v[n], &u) : i;

		if (j > i) {
			buf[k++] = u ? ROLL_SLOT_U : ROLL_SLOT;
			n++;
			i = j;
		} else {
			buf[k++] = s[i++];
		}
	}
	buf[k] = 0;
	*out = (struct roll_node){ .tmpl = intern(r, buf), .n = (uint32_t)n,
				   .cost = 1 };
	out->num = dfz__roll_alloc(r, n * sizeof(struct roll_expr) + 1);
	if (!out->tmpl || !out->num)
		return false;
	for (i = 0; i < n; i++)
		out->num[i] = (struct roll_expr){ .c = v[i] };
	out->hash = dfz__roll_mix(out->tmpl, n);
	return true;
}

struct roll_node *dfz__roll_parse(struct roll *r, const char *text,
				  size_t len, uint32_t *n)
{
	size_t lines = 0, longest = 0, at = 0;
	struct roll_node *s;
	char *buf;

	for (size_t i = 0, start = 0; i < len; i++)
		if (text[i] == '\n') {
			lines++;
			longest = i - start > longest ? i - start : longest;
			start = i + 1;
		}
	s = dfz__roll_alloc(r, lines * sizeof(*s) + 1);
	buf = dfz__roll_alloc(r, longest + 1);
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

/* ---------------------------------------------------------- expansion */

uint64_t dfz__roll_value(const struct roll_expr *e, const uint32_t *v,
			 unsigned depth)
{
	const uint32_t *coef = e->coef;
	uint64_t x = e->c;

	if (e->tab) {
		uint64_t k = 0;

		for (unsigned r = 0; r < ROLL_DEPTH && r < depth; r++)
			k += (uint64_t)e->idx[r] * v[depth - 1 - r];
		if (k >= e->tab->len)
			return UINT64_MAX;
		x = e->tab->row[k * ROLL_ROW];
		coef = &e->tab->row[k * ROLL_ROW + 1];
	}
	if (e->fit[0])
		x = dfz__roll_fit_value(e->fit[0], depth ? v[0] : 0);
	for (unsigned r = 0; r < ROLL_DEPTH && r < depth; r++)
		x += (e->fit[1 + r] ? dfz__roll_fit_value(e->fit[1 + r], v[0]) :
		      (uint64_t)coef[r]) * v[depth - 1 - r];
	return e->m ? x % e->m : x;
}

/* The lines the rolled ones stand for, with the indices in @v. */
static void expand(FILE *f, const struct roll *r, const struct roll_node *s,
		   uint32_t n, uint32_t *v, unsigned depth)
{
	for (uint32_t i = 0; i < n; i++) {
		uint32_t k = 0;

		if (!s[i].tmpl) {
			uint64_t trip = s[i].trip;

			if (s[i].tfit)
				trip = dfz__roll_fit_value(s[i].tfit,
							   depth ? v[0] : 0);
			for (v[depth] = 0; v[depth] < trip; v[depth]++)
				expand(f, r, s[i].body, s[i].n, v, depth + 1);
			continue;
		}
		for (const char *t = r->tmpl[s[i].tmpl - 1]; *t; t++) {
			if (*t != ROLL_SLOT && *t != ROLL_SLOT_U) {
				fputc(*t, f);
				continue;
			}
			fprintf(f, "%llu%s", (unsigned long long)
				dfz__roll_value(&s[i].num[k++], v, depth),
				*t == ROLL_SLOT_U ? "u" : "");
		}
		fputc('\n', f);
	}
}

bool dfz__roll_expands_to(struct roll *r, const struct roll_node *s,
			  uint32_t n, const char *text, size_t len)
{
	uint32_t v[ROLL_DEPTH + 1];
	char *out = NULL;
	size_t olen = 0;
	FILE *m = open_memstream(&out, &olen);
	bool same, ok;

	if (!m) {
		r->oom = true;
		return false;
	}
	expand(m, r, s, n, v, 0);
	ok = fclose(m) == 0;
	r->oom |= !ok;
	same = ok && olen == len && !memcmp(out, text, len);
	free(out);
	return same;
}

/* --------------------------------------------------------------- tables */

struct tables {
	struct roll_table **t;        /* the distinct ones, by content */
	uint32_t n, cap;
};

static bool same_rows(const struct roll_table *a, const struct roll_table *b)
{
	return a->len == b->len &&
	       !memcmp(a->row, b->row, a->len * ROLL_ROW * sizeof(*a->row));
}

/* Which columns of @t differ between rows. */
static uint32_t vary_of(const struct roll_table *t)
{
	uint32_t m = 0;

	for (uint32_t k = 1; k < t->len; k++)
		for (unsigned c = 0; c < ROLL_ROW; c++)
			if (t->row[k * ROLL_ROW + c] != t->row[c])
				m |= 1u << c;
	return m;
}

/* Table @t named: as the first with its rows; UINT32_MAX when its rows
 * are all the same (its numbers are written out). */
static bool name_table(struct tables *ts, struct roll_table *t)
{
	if (t->id)
		return true;
	t->vary = vary_of(t);
	if (!t->vary) {
		t->id = UINT32_MAX;
		return true;
	}
	for (uint32_t i = 0; i < ts->n; i++)
		if (same_rows(ts->t[i], t)) {
			t->id = ts->t[i]->id;
			return true;
		}
	if (ts->n == ts->cap) {
		uint32_t cap = ts->cap ? 2 * ts->cap : 16;
		struct roll_table **p = realloc(ts->t, cap * sizeof(*p));

		if (!p)
			return false;
		ts->t = p;
		ts->cap = cap;
	}
	ts->t[ts->n++] = t;
	t->id = ts->n;
	return true;
}

static bool name_tables(struct tables *ts, struct roll_node *s, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		if (!s[i].tmpl) {
			if (!name_tables(ts, s[i].body, s[i].n))
				return false;
			continue;
		}
		for (uint32_t j = 0; j < s[i].n; j++)
			if (s[i].num[j].tab && !name_table(ts, s[i].num[j].tab))
				return false;
	}
	return true;
}

/* static const uint32_t tabN[len] (one column that varies) or
 * tabN[len][columns], each row's varying columns; unused when only a
 * comment's numbers read it. */
static void put_table(FILE *f, const struct roll_table *t)
{
	unsigned w = (unsigned)__builtin_popcount(t->vary);

	fprintf(f, "\tstatic const uint32_t tab%u[%u]", t->id - 1, t->len);
	if (w > 1)
		fprintf(f, "[%u]", w);
	fputs(" __attribute__((unused)) = {", f);
	for (uint32_t k = 0; k < t->len; k++) {
		const char *sep = "";

		fputs(k % (w > 1 ? 4 : 12) ? " " : "\n\t\t", f);
		fputs(w > 1 ? "{ " : "", f);
		for (unsigned c = 0; c < ROLL_ROW; c++)
			if (t->vary >> c & 1) {
				fprintf(f, "%s%u", sep, t->row[k * ROLL_ROW + c]);
				sep = ", ";
			}
		fprintf(f, "%s%s", w > 1 ? " }" : "", k + 1 < t->len ? "," : "");
	}
	fputs("\n\t};\n", f);
}

/* --------------------------------------------------------------- output */

static bool varies(const struct roll_expr *e, unsigned col)
{
	return e->tab && e->tab->id != UINT32_MAX && (e->tab->vary >> col & 1);
}

/* Column @col (0: the constant, 1 + r: coefficient r) where it is fixed. */
static uint32_t fixed(const struct roll_expr *e, unsigned col)
{
	if (e->tab)
		return e->tab->row[col];
	return col ? e->coef[col - 1] : e->c;
}

/* "a * i0 + i1": the index sum @k (k[r]: the loop @depth - 1 - r's). */
static void put_index(FILE *f, const uint32_t *k, unsigned depth)
{
	const char *sep = "";

	for (unsigned r = ROLL_DEPTH; r-- > 0;) {
		if (!k[r])
			continue;
		fprintf(f, "%s", sep);
		if (k[r] != 1)
			fprintf(f, "%u * ", k[r]);
		fprintf(f, "i%u", depth - 1 - r);
		sep = " + ";
	}
}

/* tabN[index] or tabN[index][c]: column @col of @e's table. */
static void put_cell(FILE *f, const struct roll_expr *e, unsigned col,
		     unsigned depth)
{
	fprintf(f, "tab%u[", e->tab->id - 1);
	put_index(f, e->idx, depth);
	fputc(']', f);
	if (__builtin_popcount(e->tab->vary) > 1)
		fprintf(f, "[%d]", __builtin_popcount(e->tab->vary &
						     ((1u << col) - 1)));
}

/* Terms of @e past the constant (a coefficient 0 has none). */
static unsigned nterms(const struct roll_expr *e)
{
	unsigned k = 0;

	for (unsigned r = 0; r < ROLL_DEPTH; r++)
		k += varies(e, 1 + r) || fixed(e, 1 + r);
	return k;
}

/* "c + a * i0 + tab1[i0] * i1": the loop @depth - 1 - r is term r's. */
static void put_sum(FILE *f, const struct roll_expr *e, unsigned depth)
{
	const char *sep = " + ";

	if (varies(e, 0))
		put_cell(f, e, 0, depth);
	else if (fixed(e, 0) || !nterms(e))
		fprintf(f, "%u", fixed(e, 0));
	else
		sep = "";
	for (unsigned r = ROLL_DEPTH; r-- > 0;) {
		if (!varies(e, 1 + r) && !fixed(e, 1 + r))
			continue;
		fputs(sep, f);
		if (varies(e, 1 + r)) {
			put_cell(f, e, 1 + r, depth);
			fputs(" * ", f);
		} else if (fixed(e, 1 + r) != 1) {
			fprintf(f, "%u * ", fixed(e, 1 + r));
		}
		fprintf(f, "i%u", depth - 1 - r);
		sep = " + ";
	}
}

/* Number @e (at a ROLL_SLOT_U: @u), in parentheses unless @bare (the
 * place takes a sum) or a single term (a product binds tightest). */
/* "c + a * i0", "(c + a * i0) % m", each digit term added. */
static void put_fit(FILE *f, const struct roll_fit *ft)
{
	const char *sep = "";

	bool paren = ft->m && ft->c && ft->a;

	fputs(paren ? "(" : "", f);
	if (ft->c || (!ft->a && (ft->m || !ft->nterm))) {
		fprintf(f, "%u", ft->c);
		sep = " + ";
	}
	if (ft->a) {
		fputs(sep, f);
		if (ft->a != 1)
			fprintf(f, "%u * ", ft->a);
		fputs("i0", f);
		sep = " + ";
	}
	if (ft->m)
		fprintf(f, "%s %% %u", paren ? ")" : "", ft->m);
	for (unsigned k = 0; k < ft->nterm; k++) {
		const struct roll_term *t = &ft->term[k];

		fputs(sep, f);
		sep = " + ";
		if (t->tab)
			fprintf(f, "tab%u[", t->id - 1);
		else
			fprintf(f, "%u * (", t->a);
		fprintf(f, ft->o ? "(i0 + %u)" : "i0", ft->o);
		if (t->p > 1)
			fprintf(f, " / %u", t->p);
		fprintf(f, " %% %u%s", t->q, t->tab ? "]" : ")");
	}
}

static bool has_fit(const struct roll_expr *e)
{
	for (unsigned c = 0; c < ROLL_ROW; c++)
		if (e->fit[c])
			return true;
	return false;
}

/* A number some of whose columns the tile loop's index gives. */
static void put_fitted(FILE *f, const struct roll_expr *e, unsigned depth,
		       bool bare)
{
	const char *sep = "";

	bool paren = !bare || e->m;

	fputs(e->m && !bare ? "(" : "", f);
	fputs(paren ? "(" : "", f);
	if (e->fit[0] || e->c) {
		if (e->fit[0])
			put_fit(f, e->fit[0]);
		else
			fprintf(f, "%u", e->c);
		sep = " + ";
	}
	for (unsigned r = depth < ROLL_DEPTH ? depth : ROLL_DEPTH; r-- > 0;) {
		if (!e->fit[1 + r] && !e->coef[r])
			continue;
		fputs(sep, f);
		sep = " + ";
		if (e->fit[1 + r]) {
			fputc('(', f);
			put_fit(f, e->fit[1 + r]);
			fputc(')', f);
		} else {
			fprintf(f, "%u", e->coef[r]);
		}
		fprintf(f, " * i%u", depth - 1 - r);
	}
	if (!*sep)
		fputc('0', f);
	fputs(paren ? ")" : "", f);
	if (e->m)
		fprintf(f, " %% %u%s", e->m, bare ? "" : ")");
}

static void put_expr(FILE *f, const struct roll_expr *e, unsigned depth,
		     bool bare, bool u)
{
	bool one = nterms(e) + (varies(e, 0) || fixed(e, 0)) <= 1, paren;

	if (has_fit(e)) {
		put_fitted(f, e, depth, bare);
		return;
	}

	if (one && !e->m && !nterms(e) && !varies(e, 0)) {
		fprintf(f, "%u%s", fixed(e, 0), u ? "u" : "");
		return;
	}
	paren = !one && (!bare || e->m);
	fputs(e->m && !bare ? "(" : "", f);
	if (paren)
		fputc('(', f);
	put_sum(f, e, depth);
	if (paren)
		fputc(')', f);
	if (e->m)
		fprintf(f, " %% %u%s", e->m, bare ? "" : ")");
}

/* Whether the number at @t[i] of a template stands alone: an index in
 * brackets, an initializer's value after "=", or between words (a
 * comment's prose). A call's argument is parenthesized: the SDK's names
 * are macros that need not parenthesize theirs (MCHAN_CMD). */
static bool bare_at(const char *t, size_t i)
{
	size_t a = i, b = i + 1;

	while (a > 0 && t[a - 1] == ' ')
		a--;
	while (t[b] == ' ')
		b++;
	if (a > 0 && isalpha((unsigned char)t[a - 1]) &&
	    isalpha((unsigned char)t[b]))
		return true;
	return a > 0 && ((t[a - 1] == '[' && t[b] == ']') ||
			 (t[a - 1] == '=' && t[b] && strchr(",;}", t[b])));
}

static unsigned lead_tabs(const struct roll *r, const struct roll_node *s)
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

static void put_line(FILE *f, const struct roll *r, const struct roll_node *s,
		     unsigned depth)
{
	const char *t0 = r->tmpl[s->tmpl - 1];
	uint32_t k = 0;

	tabs(f, depth);
	for (const char *t = t0; *t; t++)
		if (*t == ROLL_SLOT || *t == ROLL_SLOT_U)
			put_expr(f, &s->num[k++], depth,
				 bare_at(t0, (size_t)(t - t0)),
				 *t == ROLL_SLOT_U);
		else
			fputc(*t, f);
	fputc('\n', f);
}

/* The rolled lines, @depth loops deep. */
static void render(FILE *f, const struct roll *r, const struct roll_node *s,
		   uint32_t n, unsigned depth)
{
	for (uint32_t i = 0; i < n; i++) {
		unsigned ind;

		if (s[i].tmpl) {
			put_line(f, r, &s[i], depth);
			continue;
		}
		ind = lead_tabs(r, &s[i]) + depth;
		tabs(f, ind);
		fprintf(f, "for (unsigned i%u = 0; i%u < ", depth, depth);
		if (s[i].tfit)
			put_fit(f, s[i].tfit);
		else
			fprintf(f, "%u", s[i].trip);
		fprintf(f, "; i%u++) {\n", depth);
		render(f, r, s[i].body, s[i].n, depth + 1);
		tabs(f, ind);
		fputs("}\n", f);
	}
}

/* Fit tables: named after the others, one name per content. */
struct ftabs {
	struct roll_term *t[1024];
	uint32_t n, base;
};

static void name_term(FILE *f, struct ftabs *fs, struct roll_term *t)
{
	for (uint32_t i = 0; i < fs->n; i++)
		if (fs->t[i]->q == t->q &&
		    !memcmp(fs->t[i]->tab, t->tab, t->q * sizeof(*t->tab))) {
			t->id = fs->t[i]->id;
			return;
		}
	t->id = fs->base + fs->n + 1;
	if (fs->n < 1024)
		fs->t[fs->n++] = t;
	fprintf(f, "\tstatic const uint32_t tab%u[%u] __attribute__((unused)) "
		"= {", t->id - 1, t->q);
	for (uint32_t k = 0; k < t->q; k++)
		fprintf(f, "%s%u%s", k % 12 ? " " : "\n\t\t", t->tab[k],
			k + 1 < t->q ? "," : "");
	fputs("\n\t};\n", f);
}

static void name_fit(FILE *f, struct ftabs *fs, struct roll_fit *ft)
{
	for (unsigned k = 0; ft && k < ft->nterm; k++)
		if (ft->term[k].tab && !ft->term[k].id)
			name_term(f, fs, &ft->term[k]);
}

static void name_fits(FILE *f, struct ftabs *fs, struct roll_node *s,
		      uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		if (!s[i].tmpl) {
			name_fit(f, fs, s[i].tfit);
			name_fits(f, fs, s[i].body, s[i].n);
			continue;
		}
		for (uint32_t j = 0; j < s[i].n; j++)
			for (unsigned c = 0; c < ROLL_ROW; c++)
				name_fit(f, fs, s[i].num[j].fit[c]);
	}
}

int dfz__roll_render(FILE *f, const struct roll *r, struct roll_node *s,
		     uint32_t n)
{
	struct tables ts = { 0 };
	struct ftabs *fs;

	if (!name_tables(&ts, s, n) || !(fs = calloc(1, sizeof(*fs)))) {
		free(ts.t);
		return DFZ_ENOMEM;
	}
	for (uint32_t i = 0; i < ts.n; i++)
		put_table(f, ts.t[i]);
	fs->base = ts.n;
	name_fits(f, fs, s, n);
	free(fs);
	render(f, r, s, n, 0);
	free(ts.t);
	return 0;
}
