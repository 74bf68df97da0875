// SPDX-License-Identifier: MIT
/*
 * The drop-in side of a report: the buckets of `dmafuzz triage --dropin`
 * (a campaign over the user's own drop-in tests), each with its test,
 * class, the user's file:line of the offending call and of the earlier
 * call it conflicts with, the minimized reproducer's size, the valgrind
 * and ASan verdicts on it, and open or fixed: a table in summary.md and
 * index.html, and in each bucket's HTML section the source lines around
 * both sites, read from the user's source root and HTML-escaped (a file
 * that is not there is said so). findings.sarif's locations are in
 * report_sarif.c, summary.json's fields in report_json.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "render_int.h"

#define CONTEXT 3                     /* source lines shown either side */
#define MAX_SOURCE_BYTES (4u << 20)

static const char *str(const struct dfz_json *o, const char *key)
{
	return dfz_json_str(dfz_json_get(o, key));
}

const char *dfz__src_relative(const struct dfz__campaign *c, const char *file)
{
	const char *root = c->srcroot_abs;
	size_t n = root ? strlen(root) : 0;

	if (!file)
		return "";
	while (n > 1 && root[n - 1] == '/')
		n--;
	if (file[0] == '/' && n && !strncmp(file, root, n) && file[n] == '/')
		return file + n + 1;
	while (file[0] == '.' && file[1] == '/')
		file += 2;
	return file;
}

/* "file:line" of site @s (relative to the source root), or "-". */
static char *site_text(const struct dfz__campaign *c, const struct dfz_json *s,
		       char *buf, size_t len)
{
	double line = 0;

	if (!s) {
		snprintf(buf, len, "-");
		return buf;
	}
	dfz_json_num(dfz_json_get(s, "line"), &line);
	snprintf(buf, len, "%s:%.0f", dfz__src_relative(c, str(s, "file")), line);
	return buf;
}

/* "15 -> 1 bytes", or "-". */
static char *min_text(const struct dfz__bucket *b, char *buf, size_t len)
{
	double in, out;

	if (dfz_json_num(dfz_json_get(b->min, "bytes_in"), &in) &&
	    dfz_json_num(dfz_json_get(b->min, "bytes_out"), &out))
		snprintf(buf, len, "%.0f -> %.0f bytes", in, out);
	else
		snprintf(buf, len, "-");
	return buf;
}

static const char *verdict(const struct dfz_json *check)
{
	return check ? str(check, "verdict") : "not run";
}

static const char *status(const struct dfz__bucket *b)
{
	return b->fixed ? "fixed" : b->regressed ? "open (regressed)" : "open";
}

/* @s in a Markdown table cell: '|' escaped, line breaks as spaces. */
static void cell(FILE *f, const char *s)
{
	for (; s && *s; s++)
		if (*s == '|')
			fputs("\\|", f);
		else
			fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
}

static void md_details(const struct dfz__bucket *b, FILE *f)
{
	fprintf(f, "- %s: valgrind ", b->id);
	cell(f, verdict(b->valgrind));
	if (b->valgrind) {
		fputs(" (", f);
		cell(f, str(b->valgrind, "detail"));
		fputc(')', f);
	}
	fputs("; ASan ", f);
	cell(f, verdict(b->asan));
	if (b->asan) {
		fputs(" (", f);
		cell(f, str(b->asan, "detail"));
		fputc(')', f);
	}
	if (dfz_json_len(b->fixed_in))
		fprintf(f, "; %zu input(s) fixed", dfz_json_len(b->fixed_in));
	fputc('\n', f);
}

void dfz__md_dropin(const struct dfz__campaign *c, FILE *f)
{
	const struct dfz__triage *tr = &c->tr;
	char site[1200], prior[1200], min[64];

	if (!c->has_triage || !tr->ndropin)
		return;
	fprintf(f, "## Drop-in buckets\n\n%zu bucket(s): %zu open, %zu fixed. "
		"Sources: `%s`.\n\n| bucket | test | class | site | prior | "
		"minimized | valgrind | ASan | status |\n|---|---|---|---|---|"
		"---:|---|---|---|\n", tr->ndropin, tr->nopen,
		tr->ndropin - tr->nopen, c->srcroot);
	for (size_t i = 0; i < tr->nb; i++) {
		const struct dfz__bucket *b = &tr->b[i];

		if (!b->test)
			continue;
		fprintf(f, "| %s | ", b->id);
		cell(f, b->test);
		fputs(" | ", f);
		cell(f, b->cls);
		fputs(" | ", f);
		cell(f, site_text(c, b->site, site, sizeof(site)));
		fputs(" | ", f);
		cell(f, site_text(c, b->prior, prior, sizeof(prior)));
		fprintf(f, " | %s | ", min_text(b, min, sizeof(min)));
		cell(f, verdict(b->valgrind));
		fputs(" | ", f);
		cell(f, verdict(b->asan));
		fprintf(f, " | %s |\n", status(b));
	}
	fputc('\n', f);
	for (size_t i = 0; i < tr->nb; i++)
		if (tr->b[i].test)
			md_details(&tr->b[i], f);
	fputc('\n', f);
}

/* ------------------------------------------------------------ HTML */

static void esc(FILE *f, const char *s)
{
	dfz__xml_escape(f, s ? s : "");
}

static void elem_td(FILE *f, const char *text)
{
	fputs("<td>", f);
	esc(f, text);
	fputs("</td>", f);
}

void dfz__html_dropin(const struct dfz__campaign *c, FILE *f)
{
	const struct dfz__triage *tr = &c->tr;
	char site[1200], prior[1200], min[64];

	if (!tr->ndropin)
		return;
	fprintf(f, "<h3>Drop-in buckets</h3>\n<p>%zu open, %zu fixed; "
		"sources <code>", tr->nopen, tr->ndropin - tr->nopen);
	esc(f, c->srcroot);
	fputs("</code>.</p>\n<table class=\"dropin\"><tr><th>bucket</th>"
	      "<th>test</th><th>class</th><th>site</th><th>prior</th>"
	      "<th>minimized</th><th>valgrind</th><th>ASan</th><th>status</th>"
	      "</tr>\n", f);
	for (size_t i = 0; i < tr->nb; i++) {
		const struct dfz__bucket *b = &tr->b[i];

		if (!b->test)
			continue;
		fprintf(f, "<tr><td><a href=\"#bucket-%s\">%s</a></td>", b->id,
			b->id);
		elem_td(f, b->test);
		elem_td(f, b->cls);
		elem_td(f, site_text(c, b->site, site, sizeof(site)));
		elem_td(f, site_text(c, b->prior, prior, sizeof(prior)));
		elem_td(f, min_text(b, min, sizeof(min)));
		elem_td(f, verdict(b->valgrind));
		elem_td(f, verdict(b->asan));
		elem_td(f, status(b));
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* The path of site file @file: as given when absolute, else under the
 * source root. */
static void source_path(const struct dfz__campaign *c, const char *file,
			char *buf, size_t len)
{
	if (file[0] == '/')
		snprintf(buf, len, "%s", file);
	else
		snprintf(buf, len, "%s/%s", c->srcroot, file);
}

/* Lines @line - CONTEXT .. @line + CONTEXT of @text, numbered, @line
 * marked; false when @text has no line @line. */
static bool excerpt(FILE *f, const char *text, unsigned long line)
{
	unsigned long n = 1;
	bool seen = false;

	fputs("<pre class=\"src\">", f);
	for (const char *p = text; *p && n <= line + CONTEXT; n++) {
		size_t k = strcspn(p, "\n");
		char buf[1024];

		if (n + CONTEXT >= line) {
			snprintf(buf, sizeof(buf), "%5lu  %.*s", n,
				 (int)(k < 1000 ? k : 1000), p);
			fputs(n == line ? "<span class=\"fault\">" : "", f);
			esc(f, buf);
			fputs(n == line ? "</span>" : "\n", f);
			seen |= n == line;
		}
		p += k + (p[k] == '\n');
	}
	fputs("</pre>\n", f);
	return seen;
}

/* "<what> file:line (in func)" and the lines around it. */
static int source_lines(const struct dfz__campaign *c, const char *what,
			const struct dfz_json *s, FILE *f)
{
	const char *file = str(s, "file"), *func = str(s, "function");
	char path[4400], where[1200];
	double line = 0;
	char *text;

	dfz_json_num(dfz_json_get(s, "line"), &line);
	fprintf(f, "<h3>%s <code>", what);
	esc(f, site_text(c, s, where, sizeof(where)));
	fputs("</code>", f);
	if (func && *func) {
		fputs(" in <code>", f);
		esc(f, func);
		fputs("</code>", f);
	}
	fputs("</h3>\n", f);
	source_path(c, file, path, sizeof(path));
	text = dfz__read_file(path, MAX_SOURCE_BYTES, NULL, NULL);
	if (!text && errno == ENOMEM)
		return DFZ_ENOMEM;
	if (text && line >= 1 && excerpt(f, text, (unsigned long)line)) {
		free(text);
		return 0;
	}
	fputs("<p class=\"note\">Source line not shown: <code>", f);
	esc(f, path);
	fputs(text ? "</code> has no such line" : "</code> cannot be read: ", f);
	esc(f, text ? "" : strerror(errno));
	fputs(" (give the sources with --srcroot).</p>\n", f);
	free(text);
	return 0;
}

static void check_item(FILE *f, const char *name, const struct dfz_json *ck)
{
	fprintf(f, "<dt>%s</dt><dd>", name);
	esc(f, verdict(ck));
	if (ck && str(ck, "detail") && *str(ck, "detail")) {
		fputs(": ", f);
		esc(f, str(ck, "detail"));
	}
	fputs("</dd>", f);
}

int dfz__html_dropin_bucket(const struct dfz__campaign *c,
			    const struct dfz__bucket *b, FILE *f)
{
	char min[64];
	int rc = 0;

	if (!b->test)
		return 0;
	fputs("<dl><dt>test</dt><dd>", f);
	esc(f, b->test);
	fprintf(f, "</dd><dt>status</dt><dd>%s", status(b));
	if (dfz_json_len(b->fixed_in))
		fprintf(f, ", %zu input(s) replay clean now",
			dfz_json_len(b->fixed_in));
	fprintf(f, "</dd><dt>minimized</dt><dd>%s</dd>",
		min_text(b, min, sizeof(min)));
	check_item(f, "valgrind", b->valgrind);
	check_item(f, "ASan", b->asan);
	fputs("</dl>\n", f);
	if (b->site)
		rc = source_lines(c, "Site", b->site, f);
	if (rc == 0 && b->prior)
		rc = source_lines(c, "Prior (the earlier call)", b->prior, f);
	return rc;
}
