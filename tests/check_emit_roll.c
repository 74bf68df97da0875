// SPDX-License-Identifier: MIT
/*
 * The loops of the drop-in printer (reports/emit/emit_roll*.c): runs of
 * lines whose numbers are affine in the repetition become for loops,
 * nested; a double buffer's slot alternates modulo 2; numbers no affine
 * form gives come from tables. The proof that a rolled program makes the
 * same calls as the unrolled one is independent of the roller: this file
 * reads the rolled C itself (its tables, its for loops, the arithmetic
 * of its indices), expands it, and compares it with the program printed
 * one call a line, over every plan of the corpora (each generated-code
 * switch on regress and xfer, Deeploy's matrix).
 */
#define _GNU_SOURCE
#include <check.h>
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmafuzz/emit.h"
#include "../reports/emit/emit_roll_int.h"

#include "exec_fixture.h"

/* ------------------------------------------------ the rolled C, read */

#define MAX_TABS 512
#define MAX_DEPTH 16

struct reader {
	long *tab[MAX_TABS];          /* table N's values, row-major */
	unsigned cols[MAX_TABS];
	long var[MAX_DEPTH];          /* iD */
	const char *s;                /* where the parser is */
	bool used;                    /* the expression read an index */
	bool bad;                     /* not an expression */
	FILE *out;
};

static long sum(struct reader *rd);

static bool starts_factor(const char *line, const char *p)
{
	/* a call's or a cast's parenthesis follows a name or a bracket */
	if (*p == '(')
		return p == line || !(isalnum((unsigned char)p[-1]) ||
				       p[-1] == '_' || p[-1] == ']' ||
				       p[-1] == ')');
	if (p > line && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
		return false;
	return isdigit((unsigned char)*p) ||
	       (p[0] == 'i' && isdigit((unsigned char)p[1])) ||
	       !strncmp(p, "tab", 3);
}

/* What closes at rd->s: @c, else the reader is bad. */
static void expect(struct reader *rd, char c)
{
	if (*rd->s == c)
		rd->s++;
	else
		rd->bad = true;
}

static long cell(struct reader *rd)
{
	char *end;
	unsigned t = (unsigned)strtoul(rd->s + 3, &end, 10);
	long row, col = 0;

	if (t >= MAX_TABS || !rd->tab[t] || *end != '[') {
		rd->bad = true;
		return 0;
	}
	rd->s = end + 1;
	row = sum(rd);
	expect(rd, ']');
	if (rd->cols[t] > 1) {
		expect(rd, '[');
		col = sum(rd);
		expect(rd, ']');
	}
	rd->used = true;
	return rd->bad ? 0 : rd->tab[t][row * rd->cols[t] + col];
}

static long factor(struct reader *rd)
{
	char *end;
	long v;

	while (*rd->s == ' ')
		rd->s++;
	if (*rd->s == '(') {
		rd->s++;
		v = sum(rd);
		expect(rd, ')');
		return v;
	}
	if (rd->s[0] == 'i' && isdigit((unsigned char)rd->s[1])) {
		unsigned d = (unsigned)strtoul(rd->s + 1, &end, 10);

		rd->bad |= d >= MAX_DEPTH;
		rd->s = end;
		rd->used = true;
		return d < MAX_DEPTH ? rd->var[d] : 0;
	}
	if (!strncmp(rd->s, "tab", 3))
		return cell(rd);
	v = strtol(rd->s, &end, 10);
	rd->bad |= end == rd->s;
	rd->s = end;
	return v;
}

/* The operator after the spaces at rd->s, when it is one of @ops. */
static char op_at(struct reader *rd, const char *ops)
{
	const char *p = rd->s;

	while (*p == ' ')
		p++;
	if (!*p || !strchr(ops, *p) || p[1] != ' ')
		return 0;
	rd->s = p + 1;
	return *p;
}

static long term(struct reader *rd)
{
	long v = factor(rd);
	char op;

	while ((op = op_at(rd, "*%/"))) {
		long w = factor(rd);

		if (op != '*' && w == 0)
			rd->bad = true;
		else
			v = op == '*' ? v * w : op == '/' ? v / w : v % w;
	}
	return v;
}

static long sum(struct reader *rd)
{
	long v = term(rd);

	while (op_at(rd, "+"))
		v += term(rd);
	return v;
}

/* @line with each expression of the indices or tables as its value. */
static void put_line(struct reader *rd, const char *line)
{
	for (const char *p = line; *p && *p != '\n';) {
		const char *start = p;
		long v;

		if (!starts_factor(line, p)) {
			fputc(*p++, rd->out);
			continue;
		}
		rd->s = p;
		rd->used = rd->bad = false;
		v = sum(rd);
		if (rd->bad) {
			fputc(*p++, rd->out);
			continue;
		}
		if (rd->used)
			fprintf(rd->out, "%ld", v);
		else
			fwrite(start, 1, (size_t)(rd->s - start), rd->out);
		p = rd->s;
	}
	fputc('\n', rd->out);
}

/* Table tabN of the declaration at @ln[*at] (its lines up to "};"). */
static void read_table(struct reader *rd, char **ln, size_t *at)
{
	unsigned t, len, cols = 1;
	size_t k = 0;
	char *p;

	ck_assert_int_ge(sscanf(ln[*at], "\tstatic const uint32_t tab%u[%u][%u]",
				&t, &len, &cols), 2);
	ck_assert_uint_lt(t, MAX_TABS);
	rd->cols[t] = cols;
	rd->tab[t] = calloc((size_t)len * cols, sizeof(long));
	ck_assert_ptr_nonnull(rd->tab[t]);
	while (strcmp(ln[++*at], "\t};")) {
		for (p = ln[*at]; *p; p++) {
			if (!isdigit((unsigned char)*p))
				continue;
			ck_assert_uint_lt(k, (size_t)len * cols);
			rd->tab[t][k++] = strtol(p, &p, 10);
		}
	}
	ck_assert_uint_eq(k, (size_t)len * cols);
	++*at;
}

/* Whether @line opens a loop of the roller: its index, trip (an
 * expression of the indices outside), indent. */
static bool is_for(struct reader *rd, const char *line, unsigned *d,
		   long *trip, size_t *ind)
{
	unsigned d2, d3;
	int n = -1, m = -1;

	*ind = strspn(line, "\t");
	if (sscanf(line + *ind, "for (unsigned i%u = 0; i%u < %n", d, &d2,
		   &n) != 2 || n < 0 || *d != d2)
		return false;
	rd->s = line + *ind + n;
	rd->bad = false;
	*trip = sum(rd);
	return !rd->bad && sscanf(rd->s, "; i%u++) {%n", &d3, &m) == 1 &&
	       m > 0 && !rd->s[m] && *d == d3;
}

/* The lines from @ln[at] to the "}" at @ind tabs that closes the loop
 * (none at depth 0), expanded; returns where they end. */
static size_t run(struct reader *rd, char **ln, size_t at, size_t n,
		  size_t ind, unsigned depth)
{
	bool in_loop = depth > 0;

	while (at < n) {
		size_t in, end = at + 1;
		unsigned d;
		long trip;

		if (in_loop && strspn(ln[at], "\t") == ind &&
		    !strcmp(ln[at] + ind, "}"))
			return at + 1;
		if (!in_loop && !strncmp(ln[at], "\tstatic const uint32_t tab", 26)) {
			read_table(rd, ln, &at);
			continue;
		}
		if (!is_for(rd, ln[at], &d, &trip, &in)) {
			/* a loop's body is a tab further in than its lines */
			ck_assert_uint_ge(strspn(ln[at], "\t"), depth);
			put_line(rd, ln[at++] + depth);
			continue;
		}
		ck_assert_int_ge(trip, 0);
		ck_assert_uint_lt(d, MAX_DEPTH);
		for (rd->var[d] = 0; rd->var[d] < trip; rd->var[d]++)
			end = run(rd, ln, at + 1, n, in, depth + 1);
		if (trip == 0)          /* no pass: past the closing brace */
			while (++end <= n && (strspn(ln[end - 1], "\t") != in ||
					      strcmp(ln[end - 1] + in, "}")))
				;
		at = end;
	}
	ck_assert(!in_loop);
	return at;
}

/* program()'s body in @text, its lines split in place (@n). */
static char **body_lines(char *text, size_t *n)
{
	char *b = strstr(text, "static void program(void)\n{\n"), *e, **ln;
	size_t k = 0;

	ck_assert_ptr_nonnull(b);
	b += strlen("static void program(void)\n{\n");
	e = strstr(b, "\n}\n");
	ck_assert_ptr_nonnull(e);
	e[1] = 0;
	ln = calloc(strlen(b) + 1, sizeof(*ln));
	for (char *p = b; *p; p++) {
		ln[k++] = p;
		p = strchr(p, '\n');
		*p = 0;
	}
	*n = k;
	return ln;
}

/* @s without the u after a number ("28u"): a table's uint32_t value
 * stands for the literal. */
static void drop_u(char *s)
{
	char *o = s;

	for (char *p = s; *p; p++)
		if (!(*p == 'u' && p > s && isdigit((unsigned char)p[-1]) &&
		      !isalnum((unsigned char)p[1]) && p[1] != '_'))
			*o++ = *p;
	*o = 0;
}

/* The rolled program @rolled expanded by the reader, against the
 * unrolled @flat's body. Returns the rolled body's lines. */
static size_t expands_to(char *rolled, char *flat)
{
	struct reader rd = { 0 };
	char *out = NULL, **ln, **fl;
	size_t n, nf, len, at;

	ln = body_lines(rolled, &n);
	fl = body_lines(flat, &nf);
	rd.out = open_memstream(&out, &len);
	at = run(&rd, ln, 0, n, 0, 0);
	ck_assert_uint_eq(at, n);
	fclose(rd.out);
	for (size_t i = 1; i < nf; i++)
		fl[i][-1] = '\n';
	drop_u(out);
	drop_u(fl[0]);
	for (len = 0; out[len] && out[len] == fl[0][len]; len++)
		;
	ck_assert_msg(!fl[0][len] && out[len] == '\n' && !out[len + 1],
		      "the rolled program does not expand to the calls: "
		      "at byte %zu, \"%.80s\" for \"%.80s\"", len, out + len,
		      fl[0] + len);
	for (unsigned t = 0; t < MAX_TABS; t++)
		free(rd.tab[t]);
	free(out);
	free(ln);
	free(fl);
	return n;
}

/* ----------------------------------------------------------- the tests */

static char *rolled_text(const char *text)
{
	char *out = NULL;
	size_t n;
	FILE *m = open_memstream(&out, &n);

	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(dfz__emit_roll(m, text, strlen(text)), 0);
	fclose(m);
	return out;
}

/* Affine numbers: one loop; a double buffer's slot modulo 2; three lines
 * are not made a loop (no shorter); a last line without its newline is
 * refused. */
START_TEST(test_roll_affine)
{
	char *t = rolled_text("\tf(0);\n\tf(4);\n\tf(8);\n\tf(12);\n");

	ck_assert_str_eq(t, "\tfor (unsigned i0 = 0; i0 < 4; i0++) {\n"
			 "\t\tf(4 * i0);\n\t}\n");
	free(t);
	t = rolled_text("\tg(b[0], 7);\n\tg(b[1], 10);\n\tg(b[0], 13);\n"
			"\tg(b[1], 16);\n\tg(b[0], 19);\n");
	ck_assert_str_eq(t, "\tfor (unsigned i0 = 0; i0 < 5; i0++) {\n"
			 "\t\tg(b[i0 % 2], (7 + 3 * i0));\n\t}\n");
	free(t);
	t = rolled_text("\tf(0);\n\tf(1);\n\tf(2);\n");
	ck_assert_str_eq(t, "\tf(0);\n\tf(1);\n\tf(2);\n");
	free(t);
	ck_assert_int_eq(dfz__emit_roll(stdout, "\tf(0);", 6), DFZ_EINVAL);
}
END_TEST

/* Nested: the inner loop's start steps with the outer index; numbers no
 * affine form gives come from a table, the suffix u kept on literals. */
START_TEST(test_roll_nested_table)
{
	char *t = rolled_text("\tp(100u, 0);\n\tp(100u, 4);\n\tp(100u, 8);\n"
			      "\tp(100u, 12);\n\tp(100u, 50);\n\tp(100u, 54);\n"
			      "\tp(100u, 58);\n\tp(100u, 62);\n");

	ck_assert_str_eq(t, "\tfor (unsigned i0 = 0; i0 < 2; i0++) {\n"
			 "\t\tfor (unsigned i1 = 0; i1 < 4; i1++) {\n"
			 "\t\t\tp(100u, (50 * i0 + 4 * i1));\n\t\t}\n\t}\n");
	free(t);
	t = rolled_text("\th(50u);\n\th(91u);\n\th(23u);\n\th(77u);\n"
			"\th(14u);\n\th(88u);\n\th(35u);\n\th(62u);\n"
			"\th(41u);\n\th(10u);\n");
	ck_assert_str_eq(t, "\tstatic const uint32_t tab0[10] "
			 "__attribute__((unused)) = {\n"
			 "\t\t50, 91, 23, 77, 14, 88, 35, 62, 41, 10\n\t};\n"
			 "\tfor (unsigned i0 = 0; i0 < 10; i0++) {\n"
			 "\t\th(tab0[i0]);\n\t}\n");
	free(t);
}
END_TEST

/* A tile walk of a 4 x 3 grid (innermost 3): each tile's block loads
 * the next tile (none after the last) and works on its own, at offset
 * 4 * d0 + 70 * d1 with an edge tile's size in the last column. */
static char *tile_walk(void)
{
	static const unsigned size[3] = { 4, 4, 2 };
	char *out = NULL;
	size_t n;
	FILE *m = open_memstream(&out, &n);

	ck_assert_ptr_nonnull(m);
	for (unsigned j = 0; j < 12; j++) {
		fprintf(m, "\t/* hop 0 tile %u of 12 */\n", j);
		if (j + 1 < 12)
			fprintf(m, "\tload(%u);\n", 4 * ((j + 1) % 3) +
				70 * ((j + 1) / 3));
		fprintf(m, "\twork(%u, %u);\n", 4 * (j % 3) + 70 * (j / 3),
			size[j % 3]);
	}
	fputs("\tdone();\n", m);
	fclose(m);
	return out;
}

/* One loop over the tiles: the next tile's numbers by the grid's digits
 * of i0 + 1, the edge size from a table; the reader expands it back. */
START_TEST(test_roll_tiles)
{
	static const struct roll_grid g = { 2, { 3, 4 } };
	char *flat = tile_walk(), *t = NULL, *a, *b;
	size_t n;
	FILE *m = open_memstream(&t, &n);

	ck_assert_int_eq(dfz__emit_roll_grids(m, flat, strlen(flat), &g, 1),
			 0);
	fclose(m);
	ck_assert_ptr_nonnull(strstr(t, "for (unsigned i0 = 0; i0 < 11; i0++)"));
	ck_assert_ptr_nonnull(strstr(t, "\t\tload((4 * ((i0 + 1) % 3) + "
				     "70 * ((i0 + 1) / 3 % 4)));"));
	ck_assert_ptr_nonnull(strstr(t, "tab0[i0 % 3]"));
	ck_assert(asprintf(&a, "static void program(void)\n{\n%s}\n", t) > 0);
	ck_assert(asprintf(&b, "static void program(void)\n{\n%s}\n", flat) > 0);
	ck_assert_uint_lt(expands_to(a, b), 12);
	free(a), free(b), free(t);
	/* without the grid: no loop over the tiles */
	t = rolled_text(flat);
	ck_assert_ptr_null(strstr(t, "i0 < 11"));
	free(t);
	free(flat);
}
END_TEST

static char *program_text(const struct dfz_plan_xfer *x, uint32_t bugs,
			  bool rolled)
{
	char *out = NULL;
	size_t n;
	FILE *m = open_memstream(&out, &n);

	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(dfz__emit_dropin_as(m, x, bugs, rolled), 0);
	fclose(m);
	return out;
}

/* Every plan of @dir the printer writes, with each switch of @sw (@nsw):
 * the rolled program expands to the unrolled one. Returns how many;
 * the most lines a rolled body has in @most. */
static unsigned check_dir(const char *dir, const uint32_t *sw, unsigned nsw,
			  size_t *most)
{
	DIR *d = opendir(dir);
	unsigned k = 0;
	struct dirent *e;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d))) {
		char path[512];
		struct dfz_plan p;

		if (!strstr(e->d_name, ".plan"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		load(path, &p);
		if (p.family != DFZ_FAMILY_XFER || dfz_plan_normalise(&p) < 0)
			continue;
		for (unsigned i = 0; i < nsw; i++) {
			char *r, *f;
			size_t n;

			if (dfz__emit_dropin_check(&p.xfer, sw[i], NULL, 0))
				continue;
			r = program_text(&p.xfer, sw[i], true);
			f = program_text(&p.xfer, sw[i], false);
			n = expands_to(r, f);
			*most = n > *most ? n : *most;
			free(r);
			free(f);
			k++;
		}
	}
	closedir(d);
	return k;
}

/* Over the corpora: regress and xfer with no switch and each switch
 * that lives in generated code; Deeploy's matrix. A rank-5 program's
 * body goes from about 25,000 call lines to about 200 (one loop over
 * the tiles). */
START_TEST(test_roll_corpora)
{
	static const uint32_t sw[] = {
		0, DFZ_BUG_BIT(EARLY_COMPUTE), DFZ_BUG_BIT(DB_WAR),
		DFZ_BUG_BIT(EDGE_TILE), DFZ_BUG_BIT(REQ_ESCAPE),
		DFZ_BUG_BIT(SHARED_HANDLE), DFZ_BUG_BIT(MCHAN_LEN_OVERFLOW),
		DFZ_BUG_BIT(MCHAN_TID_LEAK), DFZ_BUG_BIT(IDMA_NO_DUMMY),
	};
	size_t most = 0;
	unsigned k = check_dir("corpus/regress", sw, 9, &most);

	k += check_dir("corpus/xfer", sw, 9, &most);
	ck_assert_uint_ge(k, 250);
	most = 0;
	ck_assert_uint_eq(check_dir("corpus/deeploy", sw, 1, &most), 60);
	ck_assert_uint_lt(most, 250);
}
END_TEST

Suite *suite_emit_roll(void)
{
	Suite *s = suite_create("emit_roll");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_roll_affine);
	tcase_add_test(tc, test_roll_nested_table);
	tcase_add_test(tc, test_roll_tiles);
	tcase_add_test(tc, test_roll_corpora);
	suite_add_tcase(s, tc);
	return s;
}
