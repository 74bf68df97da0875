// SPDX-License-Identifier: MIT
/*
 * summary.md: the campaign table (one row per AFL++ instance, totals per
 * target) and the triage buckets, each with its verdict, reproducer and
 * minimized plan. Plain GitHub-flavoured Markdown; table cells escaped.
 */
#include <stdlib.h>
#include <string.h>

#include "render_int.h"

/* @s in a table cell: '|' escaped, line breaks as spaces. */
static void md_cell(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '|' || *s == '\\')
			fputc('\\', f);
		fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
	}
}

/* The longest run of backticks in @s. */
static size_t backtick_run(const char *s)
{
	size_t run = 0, best = 0;

	for (const char *p = s; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		best = run > best ? run : best;
	}
	return best;
}

/* @s as inline code: a fence of more backticks than any run inside.
 * @cell: escaped for a table cell; else as it is (a command to copy). */
static void md_span(FILE *f, const char *s, bool cell)
{
	size_t best = backtick_run(s);

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
	size_t best = backtick_run(text);

	if (best < 2)
		best = 2;
	for (size_t i = 0; i <= best; i++)
		fputc('`', f);
	fprintf(f, "%s\n%s", lang, text);
	if (text[0] && text[strlen(text) - 1] != '\n')
		fputc('\n', f);
	for (size_t i = 0; i <= best; i++)
		fputc('`', f);
	fputs("\n\n", f);
}

static const char *rec(const struct dfz__campaign *c, const char *key,
		       const char *dflt)
{
	const char *v = dfz__run_get(&c->run, key);

	return v && *v ? v : dflt;
}

/* The instance "main" (of a parallel afl-fuzz) or "default" of @target. */
static const struct dfz__inst *first_inst(const struct dfz__campaign *c,
					  int target)
{
	const struct dfz__inst *any = NULL;

	for (size_t i = 0; i < c->ninst; i++) {
		const struct dfz__inst *in = &c->inst[i];
		const char *base = strrchr(in->name, '/');

		if ((int)in->target != target)
			continue;
		base = base ? base + 1 : in->name;
		if (!strcmp(base, "main") || !strcmp(base, "default"))
			return in;
		any = any ? any : in;
	}
	return any;
}

static const char *fmt_rate(double v, char *buf, size_t len)
{
	return v < 0 ? "n/a" : dfz__fmt_num(v, buf, len);
}

static const char *fmt_cvg(const struct dfz__inst *in, char *buf, size_t len)
{
	if (!in || in->bitmap_cvg < 0)
		return "-";
	snprintf(buf, len, "%.2f%%", in->bitmap_cvg);
	return buf;
}

/* "- result" and the lines of what could not run. */
static void md_result(const struct dfz__campaign *c,
		      const struct dfz__run_info *ri, FILE *f)
{
	if (ri->found && ri->campaign)
		fprintf(f, "- result: **%u open finding(s)** in the tests\n",
			ri->found);
	else if (ri->found)
		fprintf(f, "- result: **%u finding(s)**%s\n", ri->found,
			ri->bugs ? "" : " with every switch off: "
			"a bug in the shipped runtime");
	else
		fputs("- result: no crash, no hang\n", f);
	if (ri->failed > 0)
		fprintf(f, "- %.0f %s failed to run: see `%s/*.log`\n",
			ri->failed, ri->nightly ? "instance(s)" : "campaign(s)",
			ri->work);
	for (size_t i = 0; i < c->run.n; i++)
		if (!strcmp(c->run.key[i], "failure")) {
			fputs("  - ", f);
			md_cell(f, c->run.val[i]);
			fputc('\n', f);
		}
}

static void md_fuzz_table(const struct dfz__campaign *c, FILE *f)
{
	fputs("| target | seconds | execs | execs/s | corpus | coverage | "
	      "crashes | hangs | slow |\n|---|---|---|---|---|---|---|---|---|\n",
	      f);
	for (size_t i = 0; i < c->run.nt; i++) {
		const struct dfz__run_target *rt = &c->run.t[i];
		const struct dfz__inst *in = first_inst(c, rt->target);
		char a[32], b[32], d[32], e[32], g[32];
		struct dfz__totals t = { .execs_per_sec = -1 };

		if (in)
			dfz__totals_one(in, &t);
		fprintf(f, "| %s | %s | %s | %s | %s | %s | %u | %u | %u |\n",
			rt->name, in ? dfz__fmt_num(t.run_time, a, sizeof(a)) : "-",
			in ? dfz__fmt_num(t.execs_done, b, sizeof(b)) : "-",
			fmt_rate(t.execs_per_sec, d, sizeof(d)),
			in ? dfz__fmt_num(t.corpus_count, e, sizeof(e)) : "-",
			fmt_cvg(in, g, sizeof(g)), rt->count[DFZ__KIND_CRASH],
			rt->count[DFZ__KIND_HANG], rt->count[DFZ__KIND_SLOW]);
	}
	fputc('\n', f);
}

/* "IN → OUT" of afl-cmin on target @name ("cmin.<target> : IN OUT"). */
static void md_kept(const struct dfz__campaign *c, const char *name, FILE *f)
{
	char key[32], in[32] = "-", out[32] = "-";
	const char *v;

	snprintf(key, sizeof(key), "cmin.%s", name);
	v = rec(c, key, NULL);
	if (v && sscanf(v, "%31s %31s", in, out) < 2)
		snprintf(out, sizeof(out), "-");
	fprintf(f, "%s → %s", in, out);
}

static void md_night_table(const struct dfz__campaign *c, FILE *f)
{
	fputs("| target | instances | execs | execs/s | corpus | coverage | "
	      "kept corpus | crashes | hangs | slow |\n"
	      "|---|---|---|---|---|---|---|---|---|---|\n", f);
	for (size_t i = 0; i < c->run.nt; i++) {
		const struct dfz__run_target *rt = &c->run.t[i];
		const struct dfz__inst *in = first_inst(c, rt->target);
		char b[32], d[32], e[32], g[32];
		struct dfz__totals t;

		dfz__totals_of(c, rt->target, &t);
		fprintf(f, "| %s | %zu | %s | %s | %s | %s | ", rt->name, t.ninst,
			dfz__fmt_num(t.execs_done, b, sizeof(b)),
			fmt_rate(t.execs_per_sec, d, sizeof(d)),
			in ? dfz__fmt_num(in->corpus_count, e, sizeof(e)) : "-",
			fmt_cvg(in, g, sizeof(g)));
		md_kept(c, rt->name, f);
		fprintf(f, " | %u | %u | %u |\n", rt->count[DFZ__KIND_CRASH],
			rt->count[DFZ__KIND_HANG], rt->count[DFZ__KIND_SLOW]);
	}
	fprintf(f, "\n\"corpus\" and \"coverage\" are the main instance's; "
		"\"kept corpus\" is the\ninputs and queues given to afl-cmin → "
		"the minimized corpus kept in `%s/`.\n\n", rec(c, "corpus", "-"));
	fputs("| target | instance | schedule | cmplog | seconds | execs | "
	      "execs/s | corpus | coverage |\n|---|---|---|---|---|---|---|---|---|\n",
	      f);
	for (size_t i = 0; i < c->ninst; i++) {
		const struct dfz__inst *in = &c->inst[i];
		const char *base = strrchr(in->name, '/');
		char a[32], b[32], d[32], e[32], g[32];

		fprintf(f, "| %s | ", dfz__target_names()[in->target]);
		md_cell(f, base ? base + 1 : in->name);
		fprintf(f, " | %s | %s | %s | %s | %s | %s | %s |\n",
			in->schedule[0] ? in->schedule : "?",
			in->cmplog ? "yes" : "no",
			dfz__fmt_num(in->run_time, a, sizeof(a)),
			dfz__fmt_num(in->execs_done, b, sizeof(b)),
			fmt_rate(in->execs_per_sec, d, sizeof(d)),
			dfz__fmt_num(in->corpus_count, e, sizeof(e)),
			fmt_cvg(in, g, sizeof(g)));
	}
	fputc('\n', f);
}

/* The section of the script's run: what ran, its result, its table. */
static void md_run(const struct dfz__campaign *c, FILE *f)
{
	struct dfz__run_info ri;

	dfz__run_info_of(c, &ri);
	fputs("## Run\n\n", f);
	if (ri.nightly)
		fprintf(f, "- %s: night %s, run %.0f (%s), started %s: %s s of "
			"fuzzing, %s instance(s) per target\n", ri.script,
			ri.night ? ri.night : "?", ri.run,
			ri.run > 1 ? "resumed" : "fresh", ri.started,
			ri.seconds, ri.jobs);
	else if (ri.campaign)
		fprintf(f, "- %s: started %s; %s s in all, %s s a test and "
			"engine, %s at once\n", ri.script, ri.started,
			ri.seconds, ri.share, ri.jobs);
	else
		fprintf(f, "- %s: started %s; %s s per target\n", ri.script,
			ri.started, ri.seconds);
	fprintf(f, "- afl-fuzz %s, seed %s\n", ri.afl_version, ri.seed);
	fprintf(f, "- bug switches (DMAFUZZ_BUGS): %s\n",
		ri.bugs ? ri.bugs : "none");
	if (ri.interrupted)
		fprintf(f, "- **interrupted**: resume with `NIGHT=%s`\n",
			ri.night ? ri.night : "?");
	md_result(c, &ri, f);
	fputc('\n', f);
	if (ri.nightly)
		md_night_table(c, f);
	else
		md_fuzz_table(c, f);
}

/* The findings of class @f[0].cls (@n of them, smallest first). */
static void md_class(const struct dfz__finding *f, size_t n, FILE *out)
{
	size_t seeds = 0;
	char b[32];

	for (size_t i = 0; i < n; i++)
		seeds += f[i].seed;
	fprintf(out, "- **%s**: %zu input(s), %zu found by afl-fuzz, %zu "
		"seed(s); smallest:\n", f[0].cls, n, n - seeds, seeds);
	for (size_t i = 0; i < n && i < 3; i++) {
		fputs("  - ", out);
		md_code(out, f[i].file);
		fprintf(out, " (%s bytes; report ", dfz__fmt_num(f[i].bytes, b,
								 sizeof(b)));
		fprintf(out, "`%s.txt`", f[i].file);
		if (f[i].has_plan)
			fprintf(out, ", plan `%s.plan`", f[i].file);
		fputs(")\n", out);
	}
}

/* The findings of one target by class, the most frequent first.
 * Return: 0, or DFZ_ENOMEM. */
static int md_target_findings(const struct dfz__campaign *c,
			      const struct dfz__run_target *rt, FILE *f)
{
	bool *done;

	if (!rt->nf)
		return 0;
	done = calloc(rt->nf, sizeof(*done));
	if (!done)
		return DFZ_ENOMEM;
	fprintf(f, "### %s\n\n", rt->name);
	for (;;) {
		size_t best = rt->nf, best_n = 0;

		/* Classes are runs of the sorted list: pick the longest left. */
		for (size_t i = 0, n; i < rt->nf; i += n) {
			for (n = 1; i + n < rt->nf &&
			     !strcmp(rt->f[i + n].cls, rt->f[i].cls); n++)
				;
			if (!done[i] && n > best_n)
				best = i, best_n = n;
		}
		if (best == rt->nf)
			break;
		done[best] = true;
		md_class(&rt->f[best], best_n, f);
	}
	free(done);
	fprintf(f, "\nReplay: `%s/%s FILE`", rec(c, "replay", "build/fuzz/replay"),
		rt->name);
	if (strcmp(rt->name, "parse"))
		fprintf(f, " or `%s run --family %s FILE`",
			rec(c, "cli", "dmafuzz"), rt->name);
	fputs(" (with `DMAFUZZ_BUGS` / `--bug` as in the campaign).\n\n", f);
	return 0;
}

/* The findings of the run as the script's replay classified them, and
 * the seeds the seed build found to be findings. Return: 0, or
 * DFZ_ENOMEM. */
static int md_run_findings(const struct dfz__campaign *c, FILE *f)
{
	fputs("## Findings of the run\n\n", f);
	if (!c->run.found)
		fputs("No crash and no hang.\n\n", f);
	for (size_t i = 0; i < c->run.nt; i++)
		if (md_target_findings(c, &c->run.t[i], f) < 0)
			return DFZ_ENOMEM;
	fprintf(f, "Seeds and kept inputs that crash are named `seed-*`; every "
		"finding of every run stays in `%s/`.\n\n",
		rec(c, "findings", "findings"));
	if (!c->run.nseeds)
		return 0;
	fprintf(f, "Seeds the seed build found to be findings (`%s`):\n\n",
		rec(c, "seed_findings", "?"));
	for (size_t i = 0; i < c->run.nseeds; i++) {
		const char *plan, *what;
		char line[4096];

		dfz__seed_split(c->run.seeds[i], line, sizeof(line), &plan, &what);
		fputs("- ", f);
		md_code(f, line);
		if (plan) {
			fputs(" (", f);
			md_code(f, plan);
			fputs(")", f);
		}
		fputs(": ", f);
		md_cell(f, what ? what : "?");
		fputc('\n', f);
	}
	fputc('\n', f);
	return 0;
}

static void md_row(FILE *f, const char *target, const char *name,
		   const struct dfz__totals *t, const struct dfz__inst *in)
{
	char a[32], b[32], c[32], d[32], e[32], g[32], h[32];

	fprintf(f, "| %s | ", target);
	md_cell(f, name);
	fprintf(f, " | %s | %s | %s | %s | %s", dfz__fmt_duration(t->run_time, a, sizeof(a)),
		dfz__fmt_num(t->execs_done, b, sizeof(b)),
		t->execs_per_sec < 0 ? "n/a"
				     : dfz__fmt_num(t->execs_per_sec, c, sizeof(c)),
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
		md_row(f, in->test[0] ? in->test : dfz__target_names()[in->target],
		       in->name, &one, in);
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
	if (c->has_run) {
		md_run(c, f);
		if (md_run_findings(c, f) < 0)
			return DFZ_ENOMEM;
	}
	md_campaign(c, f);
	dfz__md_dropin(c, f);
	md_triage(c, f);
	return 0;
}
