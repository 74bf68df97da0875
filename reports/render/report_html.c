// SPDX-License-Identifier: MIT
/*
 * index.html: one self-contained page (inline CSS and SVG, no script) for
 * a campaign: the instance table, plots of coverage, corpus, execs/s and
 * findings over time, and one section per triage bucket (verdict, evidence,
 * reproducer links, minimized plan, emitted C, and for a signal crash the
 * disassembly with the faulting line marked and the frames). The markup is
 * well-formed XML (XHTML-compatible) so a strict XML parser can check it.
 */
#include <string.h>

#include "render_int.h"

#define MAX_INPUTS_LISTED 50

static const char css[] =
	"body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;"
	"max-width:1200px;padding:0 16px;color:#1d1d1f}"
	"h1{font-size:24px;margin:0 0 4px}h2{font-size:19px;margin:28px 0 8px;"
	"border-bottom:1px solid #ddd;padding-bottom:4px}"
	"h3{font-size:15px;margin:16px 0 6px}.meta{color:#555}"
	"table{border-collapse:collapse;margin:8px 0}"
	"th,td{border:1px solid #ddd;padding:4px 8px;text-align:left;"
	"vertical-align:top}td.n{text-align:right;font-variant-numeric:"
	"tabular-nums}th{background:#f4f4f6}tr.total td{font-weight:600}"
	"pre{background:#f6f8fa;border:1px solid #e1e4e8;padding:8px;"
	"overflow:auto;max-height:480px;font-size:12.5px}"
	"code{font-size:12.5px}.fault{background:#ffd7d5;font-weight:700;"
	"display:block}.charts{display:flex;flex-wrap:wrap;gap:12px}"
	"svg.chart{border:1px solid #e1e4e8;background:#fff;max-width:100%}"
	"svg.chart text{font:11px system-ui,sans-serif;fill:#333}"
	"svg.chart text.title{font-size:14px;font-weight:600}"
	"svg.chart .grid line{stroke:#e6e6e6}"
	"svg.chart .axis{stroke:#333;fill:none}"
	"section.bucket{border:1px solid #e1e4e8;border-left:5px solid #d62728;"
	"border-radius:4px;padding:4px 16px 12px;margin:18px 0}"
	"dl{display:grid;grid-template-columns:max-content auto;gap:2px 16px}"
	"dt{color:#555}dd{margin:0}.msg{font-weight:600}"
	".note{color:#8a6d00}nav a{margin-right:10px}";

static void esc(FILE *f, const char *s)
{
	dfz__xml_escape(f, s ? s : "");
}

/* <tag>text</tag> with @text escaped. */
static void elem(FILE *f, const char *tag, const char *text)
{
	fprintf(f, "<%s>", tag);
	esc(f, text);
	fprintf(f, "</%s>", tag);
}

static void link(FILE *f, const struct dfz__campaign *c, const char *rel)
{
	char uri[4096];

	dfz__artifact_uri(c, rel, uri, sizeof(uri));
	fputs("<a href=\"", f);
	esc(f, uri);
	fputs("\"><code>", f);
	esc(f, rel);
	fputs("</code></a>", f);
}

static void num_cell(FILE *f, double v)
{
	char n[32];

	fprintf(f, "<td class=\"n\">%s</td>", dfz__fmt_num(v, n, sizeof(n)));
}

static void inst_row(FILE *f, const char *target, const char *name,
		     const struct dfz__totals *t, const struct dfz__inst *in)
{
	char d[32];

	fprintf(f, "<tr%s><td>%s</td><td>", in ? "" : " class=\"total\"",
		target);
	esc(f, name);
	fprintf(f, "</td><td class=\"n\">%s</td>",
		dfz__fmt_duration(t->run_time, d, sizeof(d)));
	num_cell(f, t->execs_done);
	num_cell(f, t->execs_per_sec);
	num_cell(f, t->corpus_count);
	num_cell(f, t->edges_found);
	if (in && in->bitmap_cvg >= 0)
		fprintf(f, "<td class=\"n\">%.2f%%</td>", in->bitmap_cvg);
	else
		fputs("<td class=\"n\">-</td>", f);
	num_cell(f, t->saved_crashes);
	num_cell(f, t->saved_hangs);
	fputs("<td>", f);
	esc(f, in ? in->afl_version : "");
	fputs("</td></tr>\n", f);
}

static void html_campaign(const struct dfz__campaign *c, FILE *f)
{
	struct dfz__totals t;
	char name[48];

	fputs("<section id=\"campaign\"><h2>Campaign</h2>\n", f);
	if (!c->ninst) {
		fputs("<p class=\"note\">No AFL++ instance (no fuzzer_stats) "
		      "under the campaign directory.</p></section>\n", f);
		return;
	}
	fputs("<table><tr><th>target</th><th>instance</th><th>run time</th>"
	      "<th>execs</th><th>execs/s</th><th>corpus</th><th>edges</th>"
	      "<th>coverage</th><th>crashes</th><th>hangs</th><th>AFL++</th>"
	      "</tr>\n", f);
	for (size_t i = 0; i < c->ninst; i++) {
		const struct dfz__inst *in = &c->inst[i];
		struct dfz__totals one;

		dfz__totals_one(in, &one);
		inst_row(f, in->test[0] ? in->test :
			 dfz__target_names()[in->target], in->name, &one, in);
	}
	dfz__totals_of(c, -1, &t);
	snprintf(name, sizeof(name), "%zu instance(s)", t.ninst);
	inst_row(f, "all", name, &t, NULL);
	fputs("</table>\n<p class=\"meta\">The total run time is the longest "
	      "instance's; execs, execs/s, crashes and hangs add up; corpus and "
	      "edges are the most one instance has. Edges are AFL++'s "
	      "edges_found (fuzzer_stats).</p></section>\n", f);
}

/* The line of instance @in in chart @which (0 coverage, 1 corpus,
 * 2 execs/s, 3 findings). */
static struct dfz__line line_of(const struct dfz__inst *in, int which,
				bool edges)
{
	struct dfz__line l = { .name = in->name, .x = in->s.t, .n = in->s.n };

	if (which == 0 && in->ncov) {
		l = (struct dfz__line){ .name = in->name, .x = in->cov_t,
					.y = in->cov_n, .n = in->ncov };
	} else if (which == 0) {
		l.y = edges ? in->s.edges : in->s.map;
	} else if (which == 1) {
		l = (struct dfz__line){ .name = in->name, .x = in->corpus_t,
					.y = in->corpus_n, .n = in->ncorpus };
	} else if (which == 2 && in->nrate) {
		l = (struct dfz__line){ .name = in->name, .x = in->rate_t,
					.y = in->rate_v, .n = in->nrate };
	} else if (which == 2) {
		l.y = in->s.eps;
	} else if (in->nfind) {
		l = (struct dfz__line){ .name = in->name, .x = in->find_t,
					.y = in->find_n, .n = in->nfind };
	} else {
		l.y = in->s.finds;
	}
	return l;
}

/*
 * The coverage chart's y axis. Its lines count two things: AFL++'s
 * edges_found (plot_data; the table's edges column), or its map size in
 * % when some plot_data lacks that column, and, for an instance whose
 * plot_data has a single row, the edges afl-showmap finds replaying its
 * queue (coverage_data). Such a line is named so in the legend, and the
 * label says which the chart holds. Return: the label; @unit set.
 */
static const char *coverage_axis(const struct dfz__campaign *c, bool edges,
				 enum dfz__unit *unit)
{
	size_t lines = c->ninst < DFZ__CHART_MAX_LINES ? c->ninst
						       : DFZ__CHART_MAX_LINES;
	size_t showmap = 0;

	for (size_t i = 0; i < lines; i++)
		showmap += c->inst[i].ncov > 0;
	*unit = DFZ__UNIT_COUNT;
	if (showmap && showmap == lines)
		return "edges (afl-showmap of the queue)";
	if (!edges) {
		*unit = DFZ__UNIT_PCT;
		return showmap ? "map size (%), or afl-showmap edges where named"
			       : "map size (%)";
	}
	return showmap ? "edges: AFL++ edges_found, or afl-showmap's where named"
		       : "edges found (AFL++)";
}

static void chart(const struct dfz__campaign *c, FILE *f, int which)
{
	static const char *const titles[4] = {
		"Coverage over time", "Corpus over time (queue entries)",
		"Executions per second", "Findings over time (crashes + hangs)",
	};
	static const char *const ylabels[4] = {
		NULL, "corpus entries", "execs/s", "saved crashes + hangs",
	};
	struct dfz__line lines[DFZ__CHART_MAX_LINES];
	char names[DFZ__CHART_MAX_LINES][160];
	bool edges = dfz__all_have_edges(c);
	enum dfz__unit unit = which == 2 ? DFZ__UNIT_RATE : DFZ__UNIT_COUNT;
	const char *ylabel;
	size_t n = 0;

	for (size_t i = 0; i < c->ninst && n < DFZ__CHART_MAX_LINES; i++) {
		lines[n] = line_of(&c->inst[i], which, edges);
		if (which == 0 && c->inst[i].ncov) {
			snprintf(names[n], sizeof(names[n]), "%s (afl-showmap)",
				 c->inst[i].name);
			lines[n].name = names[n];
		}
		n++;
	}
	ylabel = which == 0 ? coverage_axis(c, edges, &unit) : ylabels[which];
	dfz__svg_chart(f, titles[which], ylabel, lines, n, unit);
}

/* Where @in's coverage line counts other edges than the table does. */
static void showmap_note(const struct dfz__inst *in, FILE *f)
{
	char a[32], b[32];

	if (!in->ncov)
		return;
	fputs("<p class=\"note\">", f);
	esc(f, in->name);
	fprintf(f, ": the coverage line counts the edges afl-showmap finds "
		"replaying the queue (coverage_data, %s at the end), as "
		"plot_data has a single row; the table's edges column is "
		"AFL++'s own edges_found (%s), which counts the same map its "
		"own way.</p>\n",
		dfz__fmt_num(in->cov_n[in->ncov - 1], a, sizeof(a)),
		dfz__fmt_num(in->edges_found, b, sizeof(b)));
}

static void html_plots(const struct dfz__campaign *c, FILE *f)
{
	fputs("<section id=\"plots\"><h2>Over time</h2>\n<div class=\"charts\">\n",
	      f);
	for (int k = 0; k < 4; k++)
		chart(c, f, k);
	fputs("</div>\n", f);
	for (size_t i = 0; i < c->ninst; i++) {
		if (!c->inst[i].plot_note[0])
			continue;
		fputs("<p class=\"note\">", f);
		esc(f, c->inst[i].name);
		fputs(": ", f);
		esc(f, c->inst[i].plot_note);
		fputs("</p>\n", f);
	}
	for (size_t i = 0; i < c->ninst; i++)
		showmap_note(&c->inst[i], f);
	if (c->ninst > DFZ__CHART_MAX_LINES)
		fprintf(f, "<p class=\"note\">Only the first %d instances are "
			"plotted.</p>\n", DFZ__CHART_MAX_LINES);
	fputs("</section>\n", f);
}

static void findings_table(const struct dfz__triage *tr, FILE *f)
{
	char n[80];

	fputs("<table><tr><th>bucket</th><th>signature</th><th>target</th>"
	      "<th>inputs</th><th>message</th></tr>\n", f);
	for (size_t i = 0; i < tr->nb; i++) {
		const struct dfz__bucket *b = &tr->b[i];

		fprintf(f, "<tr><td><a href=\"#bucket-%s\">%s</a></td><td><code>",
			b->id, b->id);
		esc(f, b->signature);
		fputs("</code></td><td>", f);
		esc(f, b->target);
		fprintf(f, "</td><td class=\"n\">%s</td><td>",
			dfz__fmt_inputs(b->count, b->distinct, n, sizeof(n)));
		esc(f, b->message);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void malformed_list(const struct dfz__triage *tr, FILE *f)
{
	if (!dfz_json_len(tr->malformed))
		return;
	fputs("<h3>Malformed inputs</h3><ul>\n", f);
	for (size_t i = 0; i < dfz_json_len(tr->malformed); i++) {
		const struct dfz_json *m = dfz_json_at(tr->malformed, i);

		fputs("<li><code>", f);
		esc(f, dfz_json_str(dfz_json_get(m, "input")));
		fputs("</code>: ", f);
		esc(f, dfz_json_str(dfz_json_get(m, "reason")));
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
}

static void html_findings(const struct dfz__campaign *c, FILE *f)
{
	const struct dfz__triage *tr = &c->tr;
	char n[32];

	fputs("<section id=\"findings\"><h2>Findings</h2>\n", f);
	if (!c->has_triage) {
		fputs("<p class=\"note\">", f);
		esc(f, c->triage_note);
		fputs("</p></section>\n", f);
		return;
	}
	fputs("<p>Triage <code>", f);
	esc(f, tr->path);
	fprintf(f, "</code>: %s input(s), ", dfz__fmt_num(tr->inputs, n, sizeof(n)));
	if (tr->distinct >= 0)
		fprintf(f, "%s distinct, ", dfz__fmt_num(tr->distinct, n, sizeof(n)));
	fprintf(f, "%zu bucket(s), %zu malformed, %zu did not reproduce.</p>\n",
		tr->nb, dfz_json_len(tr->malformed), dfz_json_len(tr->clean));
	dfz__html_dropin(c, f);
	if (tr->nb)
		findings_table(tr, f);
	malformed_list(tr, f);
	fputs("</section>\n", f);
}

static void dl_item(FILE *f, const char *key, const char *val)
{
	fprintf(f, "<dt>%s</dt><dd>", key);
	esc(f, val && *val ? val : "-");
	fputs("</dd>", f);
}

/* The campaign script's run, as summary.md's "Run" section says it. */
static void html_run(const struct dfz__campaign *c, FILE *f)
{
	struct dfz__run_info ri;
	char buf[256];

	if (!c->has_run)
		return;
	dfz__run_info_of(c, &ri);
	fputs("<section id=\"run\"><h2>Run</h2>\n<dl>", f);
	dl_item(f, "script", ri.script);
	if (ri.nightly) {
		snprintf(buf, sizeof(buf), "%s, run %.0f (%s)",
			 ri.night ? ri.night : "?", ri.run,
			 ri.run > 1 ? "resumed" : "fresh");
		dl_item(f, "night", buf);
	}
	dl_item(f, "started", ri.started);
	if (ri.campaign)
		snprintf(buf, sizeof(buf), "%s s in all, %s s a test and engine, "
			 "%s at once", ri.seconds, ri.share, ri.jobs);
	else
		snprintf(buf, sizeof(buf), ri.nightly ? "%s s, %s instance(s) "
			 "per target" : "%s s per target", ri.seconds, ri.jobs);
	dl_item(f, "fuzzing", buf);
	snprintf(buf, sizeof(buf), "%s, seed %s", ri.afl_version, ri.seed);
	dl_item(f, "afl-fuzz", buf);
	dl_item(f, "bug switches", ri.bugs ? ri.bugs : "none");
	if (ri.interrupted) {
		snprintf(buf, sizeof(buf), "resume with NIGHT=%s",
			 ri.night ? ri.night : "?");
		dl_item(f, "interrupted", buf);
	}
	if (ri.found && ri.campaign)
		snprintf(buf, sizeof(buf), "%u open finding(s) in the tests",
			 ri.found);
	else if (ri.found)
		snprintf(buf, sizeof(buf), "%u finding(s)%s", ri.found,
			 ri.bugs ? "" : " with every switch off: a bug in the "
			 "shipped runtime");
	else
		snprintf(buf, sizeof(buf), "no crash, no hang");
	dl_item(f, "result", buf);
	if (ri.failed > 0) {
		snprintf(buf, sizeof(buf), "%.0f %s, see %s/*.log", ri.failed,
			 ri.nightly ? "instance(s)" : "campaign(s)", ri.work);
		dl_item(f, "failed to run", buf);
	}
	for (size_t i = 0; i < c->run.n; i++)
		if (!strcmp(c->run.key[i], "failure"))
			dl_item(f, "failure", c->run.val[i]);
	fputs("</dl></section>\n", f);
}

static void bucket_facts(const struct dfz__campaign *c,
			 const struct dfz__bucket *b, FILE *f)
{
	char n[80], line[160];
	double in, out, runs, secs;

	fputs("<dl>", f);
	dl_item(f, "class", b->cls);
	dl_item(f, "oracle", b->oracle);
	dl_item(f, "level", b->level);
	dl_item(f, "target", b->target);
	dl_item(f, "switches", b->bugs && *b->bugs ? b->bugs : "none");
	dl_item(f, "inputs", dfz__fmt_inputs(b->count, b->distinct, n, sizeof(n)));
	fputs("<dt>reproducer</dt><dd>", f);
	link(f, c, b->reproducer);
	if (b->plan) {
		fputs(" ", f);
		link(f, c, b->plan);
	}
	if (b->c) {
		fputs(" ", f);
		link(f, c, b->c);
	}
	fputs("</dd>", f);
	if (dfz_json_num(dfz_json_get(b->min, "bytes_in"), &in) &&
	    dfz_json_num(dfz_json_get(b->min, "bytes_out"), &out) &&
	    dfz_json_num(dfz_json_get(b->min, "runs"), &runs) &&
	    dfz_json_num(dfz_json_get(b->min, "seconds"), &secs)) {
		snprintf(line, sizeof(line), "%.0f bytes to %.0f, in %.0f runs "
			 "(%.2f s)", in, out, runs, secs);
		dl_item(f, "minimized", line);
	}
	fputs("</dl>\n", f);
}

/* A block of text, the lines starting with "=>" marked as the fault. */
static void pre_marked(FILE *f, const char *text)
{
	const char *p = text;

	fputs("<pre>", f);
	while (*p) {
		size_t k = strcspn(p, "\n");
		char line[1024];

		snprintf(line, sizeof(line), "%.*s", (int)(k < 1023 ? k : 1023), p);
		if (!strncmp(line, "=>", 2)) {
			fputs("<span class=\"fault\">", f);
			esc(f, line);
			fputs("</span>", f);
		} else {
			esc(f, line);
			fputc('\n', f);
		}
		p += k + (p[k] == '\n');
	}
	fputs("</pre>\n", f);
}

static void signal_facts(const struct dfz__bucket *b, FILE *f)
{
	static const char *const keys[] = {
		"name", "addr", "pc", "access", "instruction", "operand",
	};
	const struct dfz_json *s = b->signal;

	fputs("<h3>Signal</h3><dl>", f);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (dfz_json_str(dfz_json_get(s, keys[i])))
			dl_item(f, keys[i], dfz_json_str(dfz_json_get(s, keys[i])));
	fputs("</dl>\n", f);
}

static void signal_section(const struct dfz__bucket *b, FILE *f)
{
	const struct dfz_json *dis = dfz_json_get(b->signal, "disasm");
	const struct dfz_json *fr = dfz_json_get(b->signal, "frames");

	signal_facts(b, f);
	fputs("<h3>Disassembly</h3>\n", f);
	if (dfz_json_len(dis)) {
		fputs("<pre>", f);
		for (size_t i = 0; i < dfz_json_len(dis); i++) {
			const char *l = dfz_json_str(dfz_json_at(dis, i));
			bool fault = !strncmp(l, "=>", 2);

			fputs(fault ? "<span class=\"fault\">" : "", f);
			esc(f, l);
			fputs(fault ? "</span>" : "\n", f);
		}
		fputs("</pre>\n", f);
	} else if (b->disasm_text) {
		pre_marked(f, b->disasm_text);
	} else {
		fputs("<p class=\"note\">No disassembly.</p>\n", f);
	}
	if (!dfz_json_len(fr))
		return;
	fputs("<h3>Frames</h3><ol>\n", f);
	for (size_t i = 0; i < dfz_json_len(fr); i++) {
		fputs("<li><code>", f);
		esc(f, dfz_json_str(dfz_json_at(fr, i)));
		fputs("</code></li>\n", f);
	}
	fputs("</ol>\n", f);
}

static void text_block(FILE *f, const char *title, const char *text,
		       const char *missing)
{
	elem(f, "h3", title);
	fputc('\n', f);
	if (text) {
		fputs("<pre>", f);
		esc(f, text);
		fputs("</pre>\n", f);
	} else {
		fputs("<p class=\"note\">", f);
		esc(f, missing);
		fputs("</p>\n", f);
	}
}

/* The bucket's input files, a copy of one finding with the one it repeats. */
static void inputs_list(const struct dfz__triage *tr,
			const struct dfz__bucket *b, FILE *f)
{
	size_t n = dfz_json_len(b->inputs);
	char d[80];

	fprintf(f, "<details><summary>%s input file(s)</summary><ul>\n",
		dfz__fmt_inputs((double)n, b->distinct, d, sizeof(d)));
	for (size_t i = 0; i < n && i < MAX_INPUTS_LISTED; i++) {
		const char *name = dfz_json_str(dfz_json_at(b->inputs, i));
		const char *first = dfz_json_str(dfz_json_get(tr->same_as, name));

		fputs("<li><code>", f);
		esc(f, name);
		fputs("</code>", f);
		if (first) {
			fputs(" (same bytes as <code>", f);
			esc(f, first);
			fputs("</code>)", f);
		}
		fputs("</li>\n", f);
	}
	if (n > MAX_INPUTS_LISTED)
		fprintf(f, "<li>... and %zu more</li>\n", n - MAX_INPUTS_LISTED);
	fputs("</ul></details>\n", f);
}

/* The commands that replay @b, one a line, the first the one to use. */
static void replay_block(const struct dfz__campaign *c,
			 const struct dfz__bucket *b, FILE *f)
{
	char line[8192];

	fputs("<h3>Replay</h3>\n", f);
	if (!dfz_json_len(b->replay)) {
		fputs("<p class=\"note\">", f);
		esc(f, dfz__no_replay(b));
		fputs("</p>\n", f);
		return;
	}
	fputs("<pre class=\"replay\">", f);
	for (size_t i = 0; i < dfz_json_len(b->replay); i++) {
		esc(f, dfz__replay_line(c, dfz_json_at(b->replay, i), line,
					sizeof(line)));
		fputc('\n', f);
	}
	fputs("</pre>\n", f);
}

static int html_bucket(const struct dfz__campaign *c,
		       const struct dfz__bucket *b, FILE *f)
{
	int rc;

	fprintf(f, "<section class=\"bucket\" id=\"bucket-%s\"><h2>%s <code>",
		b->id, b->id);
	esc(f, b->signature);
	fputs("</code></h2>\n<p class=\"msg\">", f);
	esc(f, b->message);
	fputs("</p>\n", f);
	rc = dfz__html_dropin_bucket(c, b, f);
	if (rc < 0)
		return rc;
	replay_block(c, b, f);
	bucket_facts(c, b, f);
	text_block(f, "Verdict and evidence", b->verdict_text,
		   "No verdict.txt beside the reproducer.");
	if (!b->test)
		text_block(f, "Minimized plan", b->plan_text,
			   "The plan file is missing.");
	if (b->c)
		text_block(f, "Emitted C reproducer", b->c_text,
			   "The C file is missing.");
	if (b->signal)
		signal_section(b, f);
	inputs_list(&c->tr, b, f);
	fputs("</section>\n", f);
	return 0;
}

static void html_head(const struct dfz__campaign *c, FILE *f)
{
	fputs("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" "
	      "lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
	      "<meta name=\"viewport\" content=\"width=device-width\"/>\n"
	      "<title>dmafuzz report: ", f);
	esc(f, c->dir);
	fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n"
		"<h1>dmafuzz campaign report</h1>\n<p class=\"meta\">campaign "
		"<code>", css);
	esc(f, c->dir);
	fprintf(f, "</code>, %zu instance(s), %zu bucket(s), dmafuzz ",
		c->ninst, c->has_triage ? c->tr.nb : 0);
	esc(f, c->version);
	if (c->generated) {
		fputs(", generated ", f);
		esc(f, c->generated);
	}
	fputs("</p>\n<nav><a href=\"#campaign\">campaign</a>"
	      "<a href=\"#plots\">plots</a><a href=\"#findings\">findings</a>",
	      f);
	for (size_t i = 0; c->has_triage && i < c->tr.nb; i++)
		fprintf(f, "<a href=\"#bucket-%s\">%s</a>", c->tr.b[i].id,
			c->tr.b[i].id);
	fputs("</nav>\n", f);
}

int dfz__write_html(const struct dfz__campaign *c, FILE *f)
{
	html_head(c, f);
	html_run(c, f);
	html_campaign(c, f);
	html_plots(c, f);
	html_findings(c, f);
	for (size_t i = 0; c->has_triage && i < c->tr.nb; i++)
		if (html_bucket(c, &c->tr.b[i], f) < 0)
			return DFZ_ENOMEM;
	fputs("</body>\n</html>\n", f);
	return 0;
}
