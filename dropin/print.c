// SPDX-License-Identifier: MIT
/*
 * A drop-in verdict for a person (KEY: value lines), a machine (one JSON
 * object) and code-scanning UIs (SARIF 2.1.0): the finding's class, its
 * oracle and message, and the user's lines: the offending call and the
 * earlier call it conflicts with, as physical locations relative to the
 * user's source root (uriBaseId SRCROOT), each with the user's frames of
 * its call stack (stack.c): text CALLED FROM lines, a JSON "stack", and
 * SARIF related locations, call stacks and code flows; and, for a finding
 * about a block, the block with the calls that allocated and freed it
 * (BLOCK, ALLOCATED AT and FREED AT lines, a JSON "block", SARIF related
 * locations "allocated here" and "freed here").
 */
#define _DEFAULT_SOURCE /* realpath */
#include <stdlib.h>
#include <string.h>

#include "dropin_int.h"

/* The user's frames of @st, the SDK call at @s first (none: n 0). */
static void user_frames(const struct dfz_site *s, const struct dfz__stack *st,
			struct dfz__frames *fr)
{
	fr->n = 0;
	if (s->file)
		dfz__stack_user(st, s, fr);
}

/* Whether frame 0 of @fr is the call at @s itself (in its function). */
static bool is_call(const struct dfz__frames *fr, const struct dfz_site *s)
{
	return fr->n && s->func && !strcmp(fr->f[0].func, s->func);
}

static void text_site(FILE *f, const char *key, const struct dfz_site *s,
		      const struct dfz__stack *st)
{
	struct dfz__frames fr;

	if (!s->file)
		return;
	if (s->line > 0)
		fprintf(f, "%s: %s:%d (in %s)\n", key, s->file, s->line,
			s->func ? s->func : "?");
	else
		fprintf(f, "%s: %s (%s)\n", key, s->file, s->func ? s->func : "");
	user_frames(s, st, &fr);
	/* Frame 0 is normally the call itself, in the site's function. */
	for (uint32_t i = is_call(&fr, s); i < fr.n; i++)
		fprintf(f, "  CALLED FROM: %s:%d (in %s)\n", fr.f[i].file,
			fr.f[i].line, fr.f[i].func);
}

void dfz__print_block(FILE *f, const struct dfz__block_note *b)
{
	if (!b->known)
		return;
	fprintf(f, "BLOCK: %s 0x%llx, %u bytes%s\n", dfz_level_name(b->level),
		(unsigned long long)b->addr, b->size, b->freed ? ", freed" : "");
	text_site(f, "ALLOCATED AT", &b->alloc, &b->alloc_stack);
	text_site(f, "FREED AT", &b->free, &b->free_stack);
}

static void json_frame(FILE *f, const char *file, int line, const char *func)
{
	fputs("{\"file\":", f);
	dfz_json_string(file, f);
	fprintf(f, ",\"line\":%d,\"function\":", line);
	dfz_json_string(func, f);
}

/* "key": the call, with "stack": the user's frames, innermost first. */
static void json_site(FILE *f, const char *key, const struct dfz_site *s,
		      const struct dfz__stack *st)
{
	struct dfz__frames fr;

	fprintf(f, ",\"%s\":", key);
	if (!s->file) {
		fputs("null", f);
		return;
	}
	json_frame(f, s->file, s->line, s->func);
	user_frames(s, st, &fr);
	fputs(",\"stack\":[", f);
	for (uint32_t i = 0; i < fr.n; i++) {
		fputs(i ? "," : "", f);
		json_frame(f, fr.f[i].file, fr.f[i].line, fr.f[i].func);
		fputc('}', f);
	}
	fputs("]}", f);
}

/* "block": level, address, size, and the calls that allocated and freed
 * it (null: unknown, not freed). */
static void json_block(FILE *f, const struct dfz__block_note *b)
{
	if (!b->known)
		return;
	fprintf(f, ",\"block\":{\"level\":\"%s\",\"address\":\"0x%llx\","
		"\"size\":%u,\"freed\":%s", dfz_level_name(b->level),
		(unsigned long long)b->addr, b->size,
		b->freed ? "true" : "false");
	json_site(f, "allocated_at", &b->alloc, &b->alloc_stack);
	json_site(f, "freed_at", &b->free, &b->free_stack);
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
		json_site(f, "site", &r->site, &r->site_stack);
		json_site(f, "prior", &r->prior, &r->prior_stack);
		json_block(f, &r->block);
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
		text_site(f, "AT", &r->site, &r->site_stack);
		text_site(f, "CONFLICTS WITH", &r->prior, &r->prior_stack);
		fprintf(f, "MESSAGE: %s\n", fi->msg);
		dfz__print_block(f, &r->block);
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

/* A location: @file:@line in @func, with @msg (NULL: none). */
static void sarif_location(FILE *f, const struct dfz__frame *fr,
			   const char *root, const char *msg)
{
	fputs("{\"physicalLocation\":{\"artifactLocation\":{\"uri\":", f);
	dfz_json_string(relative(fr->file, root), f);
	fputs(",\"uriBaseId\":\"SRCROOT\"}", f);
	if (fr->line > 0)
		fprintf(f, ",\"region\":{\"startLine\":%d}", fr->line);
	fputs("}", f);
	if (fr->func[0]) {
		fputs(",\"logicalLocations\":[{\"name\":", f);
		dfz_json_string(fr->func, f);
		fputs(",\"kind\":\"function\"}]", f);
	}
	if (msg) {
		fputs(",\"message\":{\"text\":", f);
		dfz_json_string(msg, f);
		fputs("}", f);
	}
	fputs("}", f);
}

/* The call at @s, then its callers among the user's frames of @st. */
static void sarif_frames(const struct dfz_site *s, const struct dfz__stack *st,
			 struct dfz__frames *fr)
{
	user_frames(s, st, fr);
	if (!s->file)
		return;
	if (!is_call(fr, s)) {
		if (fr->n == DFZ__STACK_USER)
			fr->n--;
		memmove(&fr->f[1], &fr->f[0], fr->n * sizeof(fr->f[0]));
		fr->n++;
	}
	dfz__stack_put(fr->f[0].file, sizeof(fr->f[0].file), s->file);
	fr->f[0].line = s->line;
	dfz__stack_put(fr->f[0].func, sizeof(fr->f[0].func),
		       s->func ? s->func : "");
}

/* The call that allocated or freed the block (@what): "allocated here". */
static bool sarif_block_call(FILE *f, const struct dfz_site *s,
			     const struct dfz__stack *st, const char *root,
			     const char *what, bool any)
{
	struct dfz__frames fr;

	sarif_frames(s, st, &fr);
	if (!fr.n)
		return any;
	fputs(any ? "," : "", f);
	sarif_location(f, &fr.f[0], root, what);
	return true;
}

/* "relatedLocations": the earlier call, then each stack's callers, then
 * the calls that allocated and freed the block. */
static void sarif_related(FILE *f, const struct dfz__frames *site,
			  const struct dfz__frames *prior,
			  const struct dfz__block_note *b, const char *root)
{
	bool any = false;

	fputs(",\"relatedLocations\":[", f);
	for (uint32_t i = 0; i < prior->n; i++, any = true) {
		fputs(any ? "," : "", f);
		sarif_location(f, &prior->f[i], root, i ? "the earlier call, "
			       "called from here" : "the earlier call it "
			       "conflicts with");
	}
	for (uint32_t i = 1; i < site->n; i++, any = true) {
		fputs(any ? "," : "", f);
		sarif_location(f, &site->f[i], root, "the offending call, "
			       "called from here");
	}
	if (b->known) {
		any = sarif_block_call(f, &b->alloc, &b->alloc_stack, root,
				       "allocated here", any);
		sarif_block_call(f, &b->free, &b->free_stack, root,
				 "freed here", any);
	}
	fputs("]", f);
}

/* "stacks" (innermost first) and "codeFlows" (outermost first, the
 * earlier call's thread then the offending one's). */
static void sarif_stacks(FILE *f, const struct dfz__frames *fr[2],
			 const char *root)
{
	static const char *const what[2] = { "the offending call",
					     "the earlier call" };

	fputs(",\"stacks\":[", f);
	for (int k = 0; k < 2 && fr[k]->n; k++) {
		fprintf(f, "%s{\"message\":{\"text\":\"%s\"},\"frames\":[",
			k ? "," : "", what[k]);
		for (uint32_t i = 0; i < fr[k]->n; i++) {
			fputs(i ? ",{\"location\":" : "{\"location\":", f);
			sarif_location(f, &fr[k]->f[i], root, NULL);
			fputs("}", f);
		}
		fputs("]}", f);
	}
	fputs("],\"codeFlows\":[{\"threadFlows\":[", f);
	for (int k = 1, first = 1; k >= 0; k--) {
		if (!fr[k]->n)
			continue;
		fprintf(f, "%s{\"message\":{\"text\":\"%s\"},\"locations\":[",
			first ? "" : ",", what[k]);
		first = 0;
		for (uint32_t i = fr[k]->n; i-- > 0;) {
			fputs(i + 1 < fr[k]->n ? "," : "", f);
			fprintf(f, "{\"nestingLevel\":%u,\"location\":",
				fr[k]->n - 1 - i);
			sarif_location(f, &fr[k]->f[i], root, NULL);
			fputs("}", f);
		}
		fputs("]}", f);
	}
	fputs("]}]", f);
}

static void sarif_result(const struct dfz__result *r, const char *root,
			 FILE *f)
{
	struct dfz__frames site, prior;
	const struct dfz__frames *both[2] = { &site, &prior };

	sarif_frames(&r->site, &r->site_stack, &site);
	sarif_frames(&r->prior, &r->prior_stack, &prior);
	fprintf(f, "{\"ruleId\":\"%s\",\"level\":\"error\",\"message\":"
		"{\"text\":", dfz_class_name(r->finding.cls));
	dfz_json_string(r->finding.msg, f);
	fputs("},\"locations\":[", f);
	if (site.n)
		sarif_location(f, &site.f[0], root, NULL);
	fputs("]", f);
	if (prior.n || site.n > 1 || r->block.known)
		sarif_related(f, &site, &prior, &r->block, root);
	if (site.n)
		sarif_stacks(f, both, root);
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
