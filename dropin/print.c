// SPDX-License-Identifier: MIT
/*
 * A drop-in verdict for a person (KEY: value lines), a machine (one JSON
 * object) and code-scanning UIs (SARIF 2.1.0): the finding's class, its
 * oracle and message, and the user's lines: the offending call and the
 * earlier call it conflicts with, as physical locations relative to the
 * user's source root (uriBaseId SRCROOT).
 */
#define _DEFAULT_SOURCE /* realpath */
#include <stdlib.h>
#include <string.h>

#include "dropin_int.h"

static void text_site(FILE *f, const char *key, const struct dfz_site *s)
{
	if (!s->file)
		return;
	if (s->line > 0)
		fprintf(f, "%s: %s:%d (in %s)\n", key, s->file, s->line,
			s->func ? s->func : "?");
	else
		fprintf(f, "%s: %s (%s)\n", key, s->file, s->func ? s->func : "");
}

static void json_site(FILE *f, const char *key, const struct dfz_site *s)
{
	fprintf(f, ",\"%s\":", key);
	if (!s->file) {
		fputs("null", f);
		return;
	}
	fputs("{\"file\":", f);
	dfz_json_string(s->file, f);
	fprintf(f, ",\"line\":%d,\"function\":", s->line);
	dfz_json_string(s->func, f);
	fputc('}', f);
}

/* "quirks": the settings of the quirks of the SDK families it called. */
static void json_quirks(FILE *f, const struct dfz__result *r)
{
	char buf[512];

	dfz__quirks_describe(r->quirks, r->apis, buf, sizeof(buf));
	fputs(",\"quirks\":", f);
	dfz_json_string(buf, f);
}

static void print_json(const struct dfz__result *r, const char *name, FILE *f)
{
	const struct dfz_finding *fi = &r->finding;
	bool bug = fi->cls != DFZ_CLASS_NONE;

	fputs("{\"input\":", f);
	dfz_json_string(name, f);
	fprintf(f, ",\"verdict\":\"%s\"", bug ? "bug" : "clean");
	if (bug) {
		fprintf(f, ",\"class\":\"%s\",\"oracle\":",
			dfz_class_name(fi->cls));
		dfz_json_string(fi->oracle, f);
		fputs(",\"message\":", f);
		dfz_json_string(fi->msg, f);
		json_site(f, "site", &r->site);
		json_site(f, "prior", &r->prior);
	}
	json_quirks(f, r);
	fprintf(f, ",\"steps\":%llu,\"xfers\":%u}\n",
		(unsigned long long)r->steps, r->xfers);
}

void dfz__dropin_print(const struct dfz__result *r, const char *name,
		       bool json, FILE *f)
{
	const struct dfz_finding *fi = &r->finding;
	char quirks[512];

	if (json) {
		print_json(r, name, f);
		return;
	}
	if (name)
		fprintf(f, "INPUT: %s\n", name);
	if (fi->cls == DFZ_CLASS_NONE) {
		fprintf(f, "VERDICT: clean\n");
	} else {
		fprintf(f, "VERDICT: bug\nCLASS: %s\nORACLE: %s\n",
			dfz_class_name(fi->cls), fi->oracle);
		text_site(f, "AT", &r->site);
		text_site(f, "CONFLICTS WITH", &r->prior);
		fprintf(f, "MESSAGE: %s\n", fi->msg);
	}
	if (dfz__quirks_describe(r->quirks, r->apis, quirks, sizeof(quirks)))
		fprintf(f, "QUIRKS: %s\n", quirks);
	fprintf(f, "STEPS: %llu\nXFERS: %u\n", (unsigned long long)r->steps,
		r->xfers);
}

/* ---------------------------------------------------------------- SARIF */

/* @file relative to the absolute @root: the rest after "root/" when it
 * lies inside, else @file as given (a compiler's relative path already
 * is relative to where it ran, normally the source root). */
static const char *relative(const char *file, const char *root)
{
	size_t n = strlen(root);

	while (n > 0 && root[n - 1] == '/')
		n--;
	if (file[0] == '/' && !strncmp(file, root, n) && file[n] == '/')
		return file + n + 1;
	while (file[0] == '.' && file[1] == '/')
		file += 2;
	return file;
}

/* "file:///abs/dir/", the bytes outside the URI's unreserved set and '/'
 * percent-encoded (RFC 3986). */
static void file_uri(const char *dir, FILE *f)
{
	fputs("\"file://", f);
	for (const unsigned char *p = (const unsigned char *)dir; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("/._-~", *p))
			fputc(*p, f);
		else
			fprintf(f, "%%%02X", *p);
	}
	fputs(dir[0] && dir[strlen(dir) - 1] == '/' ? "\"" : "/\"", f);
}

static void sarif_location(FILE *f, const struct dfz_site *s,
			   const char *root)
{
	fputs("{\"physicalLocation\":{\"artifactLocation\":{\"uri\":", f);
	dfz_json_string(relative(s->file, root), f);
	fputs(",\"uriBaseId\":\"SRCROOT\"}", f);
	if (s->line > 0)
		fprintf(f, ",\"region\":{\"startLine\":%d}", s->line);
	fputs("}}", f);
}

static void sarif_result(const struct dfz__result *r, const char *root,
			 FILE *f)
{
	fprintf(f, "{\"ruleId\":\"%s\",\"level\":\"error\",\"message\":"
		"{\"text\":", dfz_class_name(r->finding.cls));
	dfz_json_string(r->finding.msg, f);
	fputs("},\"locations\":[", f);
	if (r->site.file)
		sarif_location(f, &r->site, root);
	fputs("]", f);
	if (r->prior.file) {
		fputs(",\"relatedLocations\":[", f);
		sarif_location(f, &r->prior, root);
		fputs("]", f);
	}
	fputs("}", f);
}

int dfz__dropin_sarif(const struct dfz__result *r, const char *srcroot,
		      FILE *f)
{
	char *root = realpath(srcroot ? srcroot : ".", NULL);

	if (!root)
		return DFZ_EINVAL;
	fputs("{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\","
	      "\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":"
	      "{\"name\":\"dmafuzz\",\"informationUri\":"
	      "\"https://github.com/dmafuzz/dmafuzz\",\"rules\":[{\"id\":", f);
	dfz_json_string(dfz_class_name(r->finding.cls), f);
	fputs("}]}},\"originalUriBaseIds\":{\"SRCROOT\":{\"uri\":", f);
	file_uri(root, f);
	fputs("}},\"results\":[", f);
	sarif_result(r, root, f);
	fputs("]}]}\n", f);
	free(root);
	return 0;
}
