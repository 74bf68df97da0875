// SPDX-License-Identifier: MIT
/*
 * findings.sarif: the triage buckets as a SARIF 2.1.0 log for code-scanning
 * UIs. One rule per bug class seen (its id is the class id), one result per
 * bucket: located at the first symbolized frame of a signal crash (file and
 * line, under %SRCROOT%), else at the minimized plan; the reproducer, the
 * plan and the emitted C as related locations and attachments, under
 * TRIAGEROOT (the triage directory the buckets hang off, an absolute
 * file: URI in originalUriBaseIds), so that a code-scanning UI can place
 * them; the bucket signature as a partial fingerprint, so a rerun matches
 * its alerts. A drop-in triage's bucket (the user's own code) is located
 * at the user's offending call, relative to the user's source root under
 * the SRCROOT uriBaseId (as the drop-in binary's own --sarif does), the
 * earlier call it conflicts with a related location, its key the
 * fingerprint; a fixed one is no result.
 */
#include <stdlib.h>
#include <string.h>

#include "render_int.h"

#define SARIF_SCHEMA "https://docs.oasis-open.org/sarif/sarif/v2.1.0/" \
		     "errata01/os/schemas/sarif-schema-2.1.0.json"
#define URI_MAX 4096

static const struct {
	const char *id;
	const char *text;
} class_text[] = {
	{ "data.mismatch", "Destination differs from the reference copy." },
	{ "data.clobber", "Bytes outside a transfer's footprint changed." },
	{ "mem.redzone", "A canary around an allocation changed." },
	{ "handle.reuse", "A request handle was re-issued while in flight." },
	{ "handle.stale", "Wait or free on a handle never issued, already "
			  "freed, or out of range." },
	{ "handle.leak", "A handle issued and never waited, or a TID never "
			 "freed, at the end." },
	{ "queue.corrupt", "The driver queue has a cycle, a self-link, a node "
			   "not in flight, or a double add." },
	{ "desc.clobbered", "A descriptor changed between issue and service." },
	{ "dma.hang", "A wait did not complete within the step bound." },
	{ "hazard.read-before-wait", "Compute read bytes whose load had not "
				     "been waited for." },
	{ "hazard.race", "Two in-flight transfers overlap with a write, or a "
			 "transfer writes a buffer being computed on." },
	{ "cmd.encoding", "A command word does not encode the requested "
			  "transfer." },
	{ "dev.leak", "Device memory live after finalize, or growth per "
		      "launch." },
	{ "dev.misuse", "Double free, use after free, or a copy out of bounds "
			"on the device." },
	{ "rt.output", "A host output tensor does not hold what the kernel "
		       "produced." },
	{ "rt.errcode", "An API call's return code differs from the reference "
			"state machine." },
	{ "crash", "A signal in the runtime." },
};

/* The base ids: artifacts point at these, and compare by address. */
static const char SRCROOT[] = "%SRCROOT%";
static const char TRIAGEROOT[] = "TRIAGEROOT";
static const char DSRCROOT[] = "SRCROOT";    /* the user's sources */

struct artifact {
	char uri[URI_MAX];
	const char *base;                 /* SRCROOT, TRIAGEROOT, or NULL: an
					   * absolute file: URI */
	const char *what;                 /* description */
};

struct sarif {
	struct dfz__jw w;
	const struct dfz__campaign *c;
	const char **rules;               /* class ids, first seen first */
	size_t nrules;
	struct artifact *art;
	size_t nart;
};

static const char *class_desc(const char *id)
{
	for (size_t i = 0; i < sizeof(class_text) / sizeof(class_text[0]); i++)
		if (!strcmp(class_text[i].id, id))
			return class_text[i].text;
	return "A finding of dmafuzz.";
}

static size_t rule_index(struct sarif *s, const char *cls)
{
	size_t i;

	for (i = 0; i < s->nrules; i++)
		if (!strcmp(s->rules[i], cls))
			return i;
	s->rules[s->nrules++] = cls;
	return i;
}

/* The index of artifact @uri (relative to @base), added when new. */
static size_t artifact_index(struct sarif *s, const char *uri,
			     const char *base, const char *what)
{
	size_t i;

	for (i = 0; i < s->nart; i++)
		if (s->art[i].base == base && !strcmp(s->art[i].uri, uri))
			return i;
	snprintf(s->art[i].uri, URI_MAX, "%s", uri);
	s->art[i].base = base;
	s->art[i].what = what;
	s->nart++;
	return i;
}

/* The first frame of a signal with a file and a line, split. */
static bool source_frame(const struct dfz__bucket *b, char *func, char *file,
			 unsigned long *line)
{
	const struct dfz_json *fr = dfz_json_get(b->signal, "frames");

	for (size_t i = 0; i < dfz_json_len(fr); i++)
		if (dfz__frame_split(dfz_json_str(dfz_json_at(fr, i)), func, 256,
				     file, 1024, line))
			return true;
	return false;
}

static void artifact_location(struct sarif *s, size_t idx)
{
	struct dfz__jw *w = &s->w;

	dfz__jw_key(w, "artifactLocation");
	dfz__jw_open(w, '{');
	dfz__jw_kstr(w, "uri", s->art[idx].uri);
	if (s->art[idx].base)
		dfz__jw_kstr(w, "uriBaseId", s->art[idx].base);
	dfz__jw_knum(w, "index", (double)idx);
	dfz__jw_close(w, '}');
}

static void message(struct dfz__jw *w, const char *key, const char *text)
{
	dfz__jw_key(w, key);
	dfz__jw_open(w, '{');
	dfz__jw_kstr(w, "text", text);
	dfz__jw_close(w, '}');
}

/* A source file of a frame: relative under %SRCROOT%, absolute as file:. */
static size_t source_artifact(struct sarif *s, const char *file)
{
	char uri[URI_MAX] = "file://";

	if (file[0] != '/')
		return artifact_index(s, file, SRCROOT, "source file");
	snprintf(uri + 7, sizeof(uri) - 7, "%s", file);
	return artifact_index(s, uri, NULL, "source file");
}

static char *uri_path(const char *p, char *out, size_t len);

/* A drop-in site's file: relative to the user's source root under
 * SRCROOT, else (outside it) an absolute file: URI. */
static size_t user_artifact(struct sarif *s, const struct dfz_json *site)
{
	const char *file = dfz__src_relative(s->c, dfz_json_str(
					     dfz_json_get(site, "file")));
	char uri[URI_MAX] = "file://";

	if (file[0] != '/')
		return artifact_index(s, uri_path(file, uri, sizeof(uri)),
				      DSRCROOT, "source file");
	uri_path(file, uri + 7, sizeof(uri) - 7);
	return artifact_index(s, uri, NULL, "source file");
}

/* A physical location at drop-in site @site. */
static void user_location(struct sarif *s, const struct dfz_json *site)
{
	struct dfz__jw *w = &s->w;
	double line = 0;

	dfz__jw_key(w, "physicalLocation");
	dfz__jw_open(w, '{');
	artifact_location(s, user_artifact(s, site));
	if (dfz_json_num(dfz_json_get(site, "line"), &line) && line >= 1) {
		dfz__jw_key(w, "region");
		dfz__jw_open(w, '{');
		dfz__jw_knum(w, "startLine", line);
		dfz__jw_close(w, '}');
	}
	dfz__jw_close(w, '}');
}

/* @p percent-encoded into @out (RFC 3986: all but the unreserved bytes
 * and '/'). */
static char *uri_path(const char *p, char *out, size_t len)
{
	size_t n = 0;

	for (; *p && n + 4 < len; p++) {
		unsigned char c = (unsigned char)*p;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || strchr("/._-~", c))
			out[n++] = (char)c;
		else
			n += (size_t)snprintf(out + n, len - n, "%%%02X", c);
	}
	out[n] = 0;
	return out;
}

/* A file of a bucket: @rel hangs off the triage directory, TRIAGEROOT. */
static size_t triage_artifact(struct sarif *s, const char *rel,
			      const char *what)
{
	char uri[URI_MAX];

	while (rel[0] == '.' && rel[1] == '/')
		rel += 2;
	return artifact_index(s, uri_path(rel, uri, sizeof(uri)), TRIAGEROOT,
			      what);
}

/* The physical location of @b's result: its source frame, else @file_idx
 * (its plan, else its reproducer). */
static void primary_location(struct sarif *s, const struct dfz__bucket *b,
			     size_t file_idx)
{
	struct dfz__jw *w = &s->w;
	char func[256], file[1024];
	unsigned long line;
	bool src = source_frame(b, func, file, &line);
	const char *fn = dfz_json_str(dfz_json_get(b->site, "function"));

	dfz__jw_key(w, "locations");
	dfz__jw_open(w, '[');
	dfz__jw_open(w, '{');
	if (b->site) {
		user_location(s, b->site);
		if (fn && *fn) {
			snprintf(func, sizeof(func), "%s", fn);
			src = true;
		}
		goto logical;
	}
	dfz__jw_key(w, "physicalLocation");
	dfz__jw_open(w, '{');
	artifact_location(s, src ? source_artifact(s, file) : file_idx);
	if (src) {
		dfz__jw_key(w, "region");
		dfz__jw_open(w, '{');
		dfz__jw_knum(w, "startLine", (double)line);
		dfz__jw_close(w, '}');
	}
	dfz__jw_close(w, '}');
logical:
	if (src && func[0]) {
		dfz__jw_key(w, "logicalLocations");
		dfz__jw_open(w, '[');
		dfz__jw_open(w, '{');
		dfz__jw_kstr(w, "name", func);
		dfz__jw_kstr(w, "kind", "function");
		dfz__jw_close(w, '}');
		dfz__jw_close(w, ']');
	}
	dfz__jw_close(w, '}');
	dfz__jw_close(w, ']');
}

/* The stack of a signal crash: one frame per symbolized line. */
static void stack(struct sarif *s, const struct dfz__bucket *b)
{
	const struct dfz_json *fr = dfz_json_get(b->signal, "frames");
	struct dfz__jw *w = &s->w;
	char text[256];

	if (!dfz_json_len(fr))
		return;
	snprintf(text, sizeof(text), "%s at address %s",
		 dfz_json_str(dfz_json_get(b->signal, "name")),
		 dfz_json_str(dfz_json_get(b->signal, "addr")) ?
			 dfz_json_str(dfz_json_get(b->signal, "addr")) : "?");
	dfz__jw_key(w, "stacks");
	dfz__jw_open(w, '[');
	dfz__jw_open(w, '{');
	message(w, "message", text);
	dfz__jw_key(w, "frames");
	dfz__jw_open(w, '[');
	for (size_t i = 0; i < dfz_json_len(fr); i++) {
		const char *f = dfz_json_str(dfz_json_at(fr, i));
		char func[256], file[1024];
		unsigned long line;

		dfz__jw_open(w, '{');
		dfz__jw_key(w, "location");
		dfz__jw_open(w, '{');
		message(w, "message", f);
		if (dfz__frame_split(f, func, sizeof(func), file, sizeof(file),
				     &line)) {
			dfz__jw_key(w, "physicalLocation");
			dfz__jw_open(w, '{');
			artifact_location(s, source_artifact(s, file));
			dfz__jw_key(w, "region");
			dfz__jw_open(w, '{');
			dfz__jw_knum(w, "startLine", (double)line);
			dfz__jw_close(w, '}');
			dfz__jw_close(w, '}');
		}
		dfz__jw_close(w, '}');
		dfz__jw_close(w, '}');
	}
	dfz__jw_close(w, ']');
	dfz__jw_close(w, '}');
	dfz__jw_close(w, ']');
}

/* The files of @b a result attaches, those it has of: the reproducer,
 * its plan, its C program; their artifact indices into @idx and their
 * descriptions into @what. Return: how many. */
static int bucket_files(struct sarif *s, const struct dfz__bucket *b,
			size_t idx[3], const char *what[3])
{
	static const char *const artifact[3] = {
		"minimized reproducer (bare stream)",
		"minimized reproducer plan", "standalone C reproducer",
	};
	static const char *const related[3] = {
		"minimized reproducer: the fuzz target's bare choice stream",
		"minimized reproducer plan (dmafuzz show format)",
		"standalone C reproducer",
	};
	const char *rel[3] = { b->reproducer, b->plan, b->c };
	int n = 0;

	for (int i = 0; i < 3; i++) {
		if (!rel[i])
			continue;
		idx[n] = triage_artifact(s, rel[i], b->test && !i ?
					 "minimized schedule" : artifact[i]);
		what[n++] = b->test && !i ? "minimized schedule: the drop-in "
			    "test's input (replay: BIN FILE)" : related[i];
	}
	return n;
}

/* The reproducer files of @b as related locations and attachments; a
 * drop-in bucket's prior site first. */
static void reproducers(struct sarif *s, const struct dfz__bucket *b,
			const size_t idx[3], const char *const what[3], int n)
{
	struct dfz__jw *w = &s->w;
	int first = b->prior ? 2 : 1;

	dfz__jw_key(w, "relatedLocations");
	dfz__jw_open(w, '[');
	if (b->prior) {
		dfz__jw_open(w, '{');
		dfz__jw_knum(w, "id", 1);
		user_location(s, b->prior);
		message(w, "message", "the earlier call it conflicts with");
		dfz__jw_close(w, '}');
	}
	for (int i = 0; i < n; i++) {
		dfz__jw_open(w, '{');
		dfz__jw_knum(w, "id", i + first);
		dfz__jw_key(w, "physicalLocation");
		dfz__jw_open(w, '{');
		artifact_location(s, idx[i]);
		dfz__jw_close(w, '}');
		message(w, "message", what[i]);
		dfz__jw_close(w, '}');
	}
	dfz__jw_close(w, ']');
	dfz__jw_key(w, "attachments");
	dfz__jw_open(w, '[');
	for (int i = 0; i < n; i++) {
		dfz__jw_open(w, '{');
		message(w, "description", what[i]);
		artifact_location(s, idx[i]);
		dfz__jw_close(w, '}');
	}
	dfz__jw_close(w, ']');
}

static void result_properties(struct sarif *s, const struct dfz__bucket *b)
{
	struct dfz__jw *w = &s->w;
	char line[8192];

	dfz__jw_key(w, "properties");
	dfz__jw_open(w, '{');
	dfz__jw_kstr(w, "bucket", b->id);
	dfz__jw_kstr(w, "signature", b->signature);
	dfz__jw_kstr(w, "oracle", b->oracle);
	dfz__jw_kstr(w, "level", b->level);
	dfz__jw_kstr(w, "target", b->target);
	dfz__jw_kstr(w, "bugs", b->bugs);
	dfz__jw_knum(w, "count", b->count);
	if (b->distinct >= 0)
		dfz__jw_knum(w, "distinct", b->distinct);
	if (b->signal) {
		dfz__jw_key(w, "signal");
		dfz__jw_value(w, b->signal);
	}
	dfz__jw_key(w, "replay");
	dfz__jw_open(w, '[');
	for (size_t i = 0; i < dfz_json_len(b->replay); i++)
		dfz__jw_str(w, dfz__replay_line(s->c, dfz_json_at(b->replay, i),
						line, sizeof(line)));
	dfz__jw_close(w, ']');
	dfz__jw_close(w, '}');
}

static void result(struct sarif *s, const struct dfz__bucket *b)
{
	struct dfz__jw *w = &s->w;
	char text[1024], fp[256];
	const char *what[3];
	size_t idx[3];
	int n = bucket_files(s, b, idx, what);

	dfz__jw_open(w, '{');
	dfz__jw_kstr(w, "ruleId", b->cls);
	dfz__jw_knum(w, "ruleIndex", (double)rule_index(s, b->cls));
	dfz__jw_kstr(w, "level", "error");
	snprintf(text, sizeof(text), "%s (bucket %s, %s, target %s): %s",
		 b->cls, b->id, b->signature, b->target, b->message);
	message(w, "message", text);
	primary_location(s, b, idx[b->plan ? 1 : 0]);
	if (b->count >= 1)
		dfz__jw_knum(w, "occurrenceCount", b->count);
	dfz__jw_key(w, "partialFingerprints");
	dfz__jw_open(w, '{');
	snprintf(fp, sizeof(fp), "%s/%s", b->target, b->signature);
	dfz__jw_kstr(w, "dmafuzzSignature/v1", b->key ? b->key : fp);
	dfz__jw_close(w, '}');
	reproducers(s, b, idx, what, n);
	if (b->signal)
		stack(s, b);
	result_properties(s, b);
	dfz__jw_close(w, '}');
}

static void driver(struct sarif *s)
{
	struct dfz__jw *w = &s->w;

	dfz__jw_key(w, "tool");
	dfz__jw_open(w, '{');
	dfz__jw_key(w, "driver");
	dfz__jw_open(w, '{');
	dfz__jw_kstr(w, "name", "dmafuzz");
	dfz__jw_kstr(w, "version", s->c->version);
	dfz__jw_key(w, "rules");
	dfz__jw_open(w, '[');
	for (size_t i = 0; i < s->nrules; i++) {
		dfz__jw_open(w, '{');
		dfz__jw_kstr(w, "id", s->rules[i]);
		message(w, "shortDescription", class_desc(s->rules[i]));
		dfz__jw_key(w, "defaultConfiguration");
		dfz__jw_open(w, '{');
		dfz__jw_kstr(w, "level", "error");
		dfz__jw_close(w, '}');
		dfz__jw_close(w, '}');
	}
	dfz__jw_close(w, ']');
	dfz__jw_close(w, '}');
	dfz__jw_close(w, '}');
}

static void artifacts(struct sarif *s)
{
	struct dfz__jw *w = &s->w;

	dfz__jw_key(w, "artifacts");
	dfz__jw_open(w, '[');
	for (size_t i = 0; i < s->nart; i++) {
		dfz__jw_open(w, '{');
		dfz__jw_key(w, "location");
		dfz__jw_open(w, '{');
		dfz__jw_kstr(w, "uri", s->art[i].uri);
		if (s->art[i].base)
			dfz__jw_kstr(w, "uriBaseId", s->art[i].base);
		dfz__jw_close(w, '}');
		message(w, "description", s->art[i].what);
		if (s->art[i].base != SRCROOT && s->art[i].base != DSRCROOT) {
			dfz__jw_key(w, "roles");
			dfz__jw_open(w, '[');
			dfz__jw_str(w, "attachment");
			dfz__jw_close(w, ']');
		}
		dfz__jw_close(w, '}');
	}
	dfz__jw_close(w, ']');
}

/* The rules and artifacts the results will name, in the order they name
 * them, so the tool and artifacts can be written first. */
static void collect(struct sarif *s)
{
	char func[256], file[1024];
	unsigned long line;

	for (size_t i = 0; i < s->c->tr.nb; i++) {
		const struct dfz__bucket *b = &s->c->tr.b[i];
		const struct dfz_json *fr = dfz_json_get(b->signal, "frames");
		const char *what[3];
		size_t idx[3];

		if (b->fixed)
			continue;
		bucket_files(s, b, idx, what);
		rule_index(s, b->cls);
		if (b->site)
			user_artifact(s, b->site);
		if (b->prior)
			user_artifact(s, b->prior);
		for (size_t k = 0; k < dfz_json_len(fr); k++)
			if (dfz__frame_split(dfz_json_str(dfz_json_at(fr, k)),
					     func, sizeof(func), file,
					     sizeof(file), &line))
				source_artifact(s, file);
	}
}

/* The originalUriBaseIds entry @key: @abs as an absolute file: URI
 * ending in '/' when it is an absolute path, and its @description. */
static void uri_base(struct sarif *s, const char *key, const char *abs,
		     const char *description)
{
	struct dfz__jw *w = &s->w;
	char uri[URI_MAX] = "file://";
	size_t n;

	dfz__jw_key(w, key);
	dfz__jw_open(w, '{');
	if (abs && abs[0] == '/') {
		uri_path(abs, uri + 7, sizeof(uri) - 8);
		n = strlen(uri);
		if (uri[n - 1] != '/')
			snprintf(uri + n, sizeof(uri) - n, "/");
		dfz__jw_kstr(w, "uri", uri);
	}
	message(w, "description", description);
	dfz__jw_close(w, '}');
}

/* TRIAGEROOT: the triage directory (a SARIF consumer resolves the
 * reproducers' URIs against it). */
static void triage_root(struct sarif *s)
{
	uri_base(s, TRIAGEROOT, s->c->tr.base_abs, "The triage directory: "
		 "every bucket's reproducer, plan and C program hangs off it.");
}

/* SRCROOT: the user's source root. */
static void user_root(struct sarif *s)
{
	uri_base(s, DSRCROOT, s->c->srcroot_abs, "The root of the sources of "
		 "the drop-in tests: their buckets' sites are relative to it.");
}

/* The campaign script's run (summary.md's "Run" section), when recorded. */
static void run_properties(struct sarif *s)
{
	struct dfz__jw *w = &s->w;
	struct dfz__run_info ri;

	if (!s->c->has_run)
		return;
	dfz__run_info_of(s->c, &ri);
	dfz__jw_key(w, "run");
	dfz__jw_open(w, '{');
	dfz__jw_kstr(w, "script", ri.nightly ? "nightly" : "fuzz");
	if (ri.nightly) {
		dfz__jw_kstr(w, "night", ri.night);
		dfz__jw_knum(w, "run", ri.run);
		dfz__jw_kstr(w, "jobs", ri.jobs);
	}
	dfz__jw_kstr(w, "started", ri.started);
	dfz__jw_kstr(w, "seconds", ri.seconds);
	dfz__jw_kstr(w, "aflVersion", ri.afl_version);
	dfz__jw_kstr(w, "seed", ri.seed);
	dfz__jw_kstr(w, "bugs", ri.bugs);
	dfz__jw_key(w, "interrupted");
	dfz__jw_bool(w, ri.interrupted);
	dfz__jw_knum(w, "found", ri.found);
	dfz__jw_knum(w, "failed", ri.failed > 0 ? ri.failed : 0);
	dfz__jw_close(w, '}');
}

static void run_body(struct sarif *s)
{
	struct dfz__jw *w = &s->w;

	collect(s);
	driver(s);
	dfz__jw_key(w, "originalUriBaseIds");
	dfz__jw_open(w, '{');
	dfz__jw_key(w, SRCROOT);
	dfz__jw_open(w, '{');
	message(w, "description", "The root of the dmafuzz source tree.");
	dfz__jw_close(w, '}');
	triage_root(s);
	if (s->c->tr.ndropin)
		user_root(s);
	dfz__jw_close(w, '}');
	artifacts(s);
	dfz__jw_key(w, "results");
	dfz__jw_open(w, '[');
	for (size_t i = 0; i < s->c->tr.nb; i++)
		if (!s->c->tr.b[i].fixed)
			result(s, &s->c->tr.b[i]);
	dfz__jw_close(w, ']');
	dfz__jw_key(w, "properties");
	dfz__jw_open(w, '{');
	dfz__jw_kstr(w, "campaign", s->c->dir);
	dfz__jw_knum(w, "instances", (double)s->c->ninst);
	dfz__jw_kstr(w, "triage", s->c->has_triage ? s->c->tr.path : NULL);
	run_properties(s);
	dfz__jw_close(w, '}');
}

int dfz__write_sarif(const struct dfz__campaign *c, FILE *f)
{
	size_t nb = c->tr.nb, nart = 1;
	struct sarif s = { .c = c };
	int rc = 0;

	/* Three reproducer files per bucket, a source file per frame, and
	 * a drop-in bucket's two sites. */
	for (size_t i = 0; i < nb; i++)
		nart += 5 + dfz_json_len(dfz_json_get(c->tr.b[i].signal,
						      "frames"));
	s.rules = calloc(nb + 1, sizeof(*s.rules));
	s.art = calloc(nart, sizeof(*s.art));
	if (!s.rules || !s.art) {
		rc = DFZ_ENOMEM;
		goto out_free;
	}
	dfz__jw_init(&s.w, f);
	dfz__jw_open(&s.w, '{');
	dfz__jw_kstr(&s.w, "$schema", SARIF_SCHEMA);
	dfz__jw_kstr(&s.w, "version", "2.1.0");
	dfz__jw_key(&s.w, "runs");
	dfz__jw_open(&s.w, '[');
	dfz__jw_open(&s.w, '{');
	run_body(&s);
	dfz__jw_close(&s.w, '}');
	dfz__jw_close(&s.w, ']');
	dfz__jw_close(&s.w, '}');
out_free:
	free(s.rules);
	free(s.art);
	return rc;
}
