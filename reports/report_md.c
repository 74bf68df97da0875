// SPDX-License-Identifier: MIT
/*
 * summary.md: the campaign table (one row per AFL++ instance, totals per
 * target) and the triage buckets, each with its verdict, reproducer and
 * minimized plan. Plain GitHub-flavoured Markdown; table cells escaped.
 */
#include <string.h>

#include "report_gen_int.h"

/* @s in a table cell: '|' escaped, line breaks as spaces. */
static void md_cell(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '|' || *s == '\\')
			fputc('\\', f);
		fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
	}
}

/* @s as inline code: a fence of more backticks than any run inside.
 * @cell: escaped for a table cell; else as it is (a command to copy). */
static void md_span(FILE *f, const char *s, bool cell)
{
	size_t run = 0, best = 0;

	for (const char *p = s; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		best = run > best ? run : best;
	}
	for (size_t i = 0; i <= best; i++)
		fputc('`', f);
	fputs(best || s[0] == '`' ? " " : "", f);
	if (cell)
		md_cell(f, s);
	else
		fputs(s, f);
	fputs(best || s[0] == '`' ? " " : "", f);
	for (size_t i = 0; i <= best; i++)
		fputc('`', f);
}

static void md_code(FILE *f, const char *s)
{
	md_span(f, s, true);
}

/* @text as a fenced block, the fence longer than any backtick run. */
static void md_block(FILE *f, const char *lang, const char *text)
{
	size_t run = 0, best = 2;

	for (const char *p = text; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		best = run > best ? run : best;
	}
	for (size_t i = 0; i <= best; i++)
		fputc('`', f);
	fprintf(f, "%s\n%s", lang, text);
	if (text[0] && text[strlen(text) - 1] != '\n')
		fputc('\n', f);
	for (size_t i = 0; i <= best; i++)
		fputc('`', f);
	fputs("\n\n", f);
}

static void md_row(FILE *f, const char *target, const char *name,
		   const struct dfz__totals *t, const struct dfz__inst *in)
{
	char a[32], b[32], c[32], d[32], e[32], g[32], h[32];

	fprintf(f, "| %s | ", target);
	md_cell(f, name);
	fprintf(f, " | %s | %s | %s | %s | %s", dfz__fmt_duration(t->run_time, a, sizeof(a)),
		dfz__fmt_num(t->execs_done, b, sizeof(b)),
		dfz__fmt_num(t->execs_per_sec, c, sizeof(c)),
		dfz__fmt_num(t->corpus_count, d, sizeof(d)),
		dfz__fmt_num(t->edges_found, e, sizeof(e)));
	if (in && in->total_edges > 0)
		fprintf(f, " / %s", dfz__fmt_num(in->total_edges, g, sizeof(g)));
	if (in && in->bitmap_cvg >= 0)
		fprintf(f, " (%.2f%%)", in->bitmap_cvg);
	fprintf(f, " | %s | %s |\n", dfz__fmt_num(t->saved_crashes, g, sizeof(g)),
		dfz__fmt_num(t->saved_hangs, h, sizeof(h)));
}

static void md_campaign(const struct dfz__campaign *c, FILE *f)
{
	struct dfz__totals t;

	fputs("## Campaign\n\n", f);
	if (!c->ninst) {
		fputs("No AFL++ instance (no fuzzer_stats) under the campaign "
		      "directory.\n\n", f);
		return;
	}
	fputs("| target | instance | run time | execs | execs/s | corpus | "
	      "edges | crashes | hangs |\n"
	      "|---|---|---:|---:|---:|---:|---:|---:|---:|\n", f);
	for (size_t i = 0; i < c->ninst; i++) {
		const struct dfz__inst *in = &c->inst[i];
		struct dfz__totals one;

		dfz__totals_one(in, &one);
		md_row(f, dfz__target_names()[in->target], in->name, &one, in);
	}
	for (int k = 0; k < DFZ__TARGETS; k++) {
		char name[48];

		dfz__totals_of(c, k, &t);
		if (t.ninst < 2)
			continue;
		snprintf(name, sizeof(name), "**%zu instances**", t.ninst);
		md_row(f, dfz__target_names()[k], name, &t, NULL);
	}
	dfz__totals_of(c, -1, &t);
	{
		char name[48];

		snprintf(name, sizeof(name), "%zu instance(s)", t.ninst);
		md_row(f, "**all**", name, &t, NULL);
	}
	fputc('\n', f);
	fputs("Run time is the longest instance's; execs, execs/s, crashes "
	      "and hangs add up over instances; corpus and edges are the most "
	      "one instance has.\n\n", f);
}

/* Member @key of the signal object of @b as a string, or @dflt. */
static const char *sig_str(const struct dfz__bucket *b, const char *key,
			   const char *dflt)
{
	const char *s = dfz_json_str(dfz_json_get(b->signal, key));

	return s ? s : dflt;
}

/* "- replay: `A`" and "or `B`": the commands that replay @b. */
static void md_replay(const struct dfz__campaign *c,
		      const struct dfz__bucket *b, FILE *f)
{
	char line[8192];

	if (!dfz_json_len(b->replay)) {
		fprintf(f, "- replay: %s\n", dfz__no_replay(b));
		return;
	}
	for (size_t i = 0; i < dfz_json_len(b->replay); i++) {
		fputs(i ? "  or " : "- replay: ", f);
		md_span(f, dfz__replay_line(c, dfz_json_at(b->replay, i), line,
					    sizeof(line)), false);
		fputc('\n', f);
	}
}

static void md_bucket(const struct dfz__campaign *c,
		      const struct dfz__bucket *b, FILE *f)
{
	char n[80], uri[4096];
	double v;

	fprintf(f, "### %s ", b->id);
	md_code(f, b->signature);
	fprintf(f, "\n\n- class `%s`, oracle `%s`, level %s, target %s, "
		"switches %s\n- inputs %s; message: ", b->cls,
		b->oracle ? b->oracle : "-", b->level ? b->level : "-",
		b->target, b->bugs && *b->bugs ? b->bugs : "none",
		dfz__fmt_inputs(b->count, b->distinct, n, sizeof(n)));
	md_cell(f, b->message);
	fprintf(f, "\n- reproducer `%s`",
		dfz__artifact_path(c, b->reproducer, uri, sizeof(uri)));
	if (dfz_json_num(dfz_json_get(b->min, "bytes_out"), &v))
		fprintf(f, " (%s bytes", dfz__fmt_num(v, n, sizeof(n)));
	if (dfz_json_num(dfz_json_get(b->min, "bytes_in"), &v))
		fprintf(f, ", minimized from %s", dfz__fmt_num(v, n, sizeof(n)));
	fputs(b->min ? ")" : "", f);
	if (b->plan)
		fprintf(f, ", plan `%s`", dfz__artifact_path(c, b->plan, uri,
							     sizeof(uri)));
	if (b->c)
		fprintf(f, ", C `%s`", dfz__artifact_path(c, b->c, uri, sizeof(uri)));
	fputc('\n', f);
	md_replay(c, b, f);
	if (b->signal) {
		const struct dfz_json *fr = dfz_json_get(b->signal, "frames");
		const char *ins = sig_str(b, "instruction", NULL);

		fprintf(f, "- signal %s at address %s (%s access)",
			sig_str(b, "name", "?"), sig_str(b, "addr", "?"),
			sig_str(b, "access", "unknown"));
		if (ins) {
			fputs(", faulting instruction ", f);
			md_code(f, ins);
		}
		if (dfz_json_len(fr)) {
			fputs(", in ", f);
			md_code(f, dfz_json_str(dfz_json_at(fr, 0)));
		}
		fputc('\n', f);
	}
	fputc('\n', f);
	if (b->plan_text)
		md_block(f, "text", b->plan_text);
}

static void md_triage(const struct dfz__campaign *c, FILE *f)
{
	const struct dfz__triage *tr = &c->tr;
	char n[80];

	fputs("## Findings\n\n", f);
	if (!c->has_triage) {
		fprintf(f, "%s\n", c->triage_note);
		return;
	}
	fprintf(f, "Triage `%s`: %s input(s), ", tr->path,
		dfz__fmt_num(tr->inputs, n, sizeof(n)));
	if (tr->distinct >= 0)
		fprintf(f, "%s distinct, ", dfz__fmt_num(tr->distinct, n, sizeof(n)));
	fprintf(f, "%zu bucket(s), %zu malformed, %zu did not reproduce.\n\n",
		tr->nb, dfz_json_len(tr->malformed), dfz_json_len(tr->clean));
	if (!tr->nb)
		return;
	fputs("| bucket | signature | target | inputs | message |\n"
	      "|---|---|---|---:|---|\n", f);
	for (size_t i = 0; i < tr->nb; i++) {
		const struct dfz__bucket *b = &tr->b[i];

		fprintf(f, "| %s | ", b->id);
		md_code(f, b->signature);
		fprintf(f, " | %s | %s | ", b->target,
			dfz__fmt_inputs(b->count, b->distinct, n, sizeof(n)));
		md_cell(f, b->message);
		fputs(" |\n", f);
	}
	fputc('\n', f);
	for (size_t i = 0; i < tr->nb; i++)
		md_bucket(c, &tr->b[i], f);
}

int dfz__write_md(const struct dfz__campaign *c, FILE *f)
{
	fputs("# dmafuzz campaign report\n\n- campaign: ", f);
	md_code(f, c->dir);
	fputc('\n', f);
	if (c->generated) {
		fputs("- generated: ", f);
		md_cell(f, c->generated);
		fputc('\n', f);
	}
	fprintf(f, "- instances: %zu; buckets: %zu\n\n", c->ninst,
		c->has_triage ? c->tr.nb : 0);
	md_campaign(c, f);
	md_triage(c, f);
	return 0;
}
