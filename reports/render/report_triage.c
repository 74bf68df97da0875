// SPDX-License-Identifier: MIT
/*
 * The triage side of a report: triage.json (the contract `dmafuzz triage`
 * writes) read strictly and checked field by field, so a corrupt file is
 * one clear error ("buckets[1].count: expected a non-negative integer")
 * instead of a report that silently lacks parts. The distinct counts,
 * "same_as" and a bucket's "replay" are optional: an older triage.json
 * has none; a bucket of an external program has no plan. The files a
 * bucket names (plan, C reproducer, verdict, disassembly) are read whole,
 * bounded. A drop-in triage's buckets add their test, key, site and
 * prior site, status, fixed inputs and checker verdicts, each checked
 * when present.
 */
#define _XOPEN_SOURCE 700               /* realpath() */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "render_int.h"

#define MAX_TRIAGE_BYTES (16u << 20)
#define MAX_TEXT_BYTES (256u << 10)   /* of one file shown in the report */

struct check {
	char *err;
	size_t errlen;
	const char *where;                /* "buckets[3]" */
	bool failed;
};

static void bad(struct check *k, const char *field, const char *what)
{
	if (k->failed)
		return;
	k->failed = true;
	snprintf(k->err, k->errlen, "%s%s%s: %s", k->where,
		 *k->where ? "." : "", field, what);
}

/* Member @key of @o as a string; NULL (and an error) when it is not one.
 * @null_ok: a JSON null (or absence) is fine and gives NULL. */
static const char *want_str(struct check *k, const struct dfz_json *o,
			    const char *key, bool null_ok)
{
	const struct dfz_json *v = dfz_json_get(o, key);

	if (null_ok && dfz_json_type_of(v) <= DFZ_JSON_NULL)
		return NULL;
	if (!dfz_json_str(v))
		bad(k, key, null_ok ? "expected a string or null"
				    : "expected a string");
	return dfz_json_str(v);
}

/* A path relative to the triage dir, inside it (no "..", not absolute). */
static const char *want_path(struct check *k, const struct dfz_json *o,
			     const char *key, bool null_ok)
{
	const char *p = want_str(k, o, key, null_ok);

	if (p && (p[0] == '/' || !p[0] || !strcmp(p, "..") ||
		  !strncmp(p, "../", 3) || strstr(p, "/../") ||
		  (strlen(p) >= 3 && !strcmp(p + strlen(p) - 3, "/.."))))
		bad(k, key, "expected a path relative to the triage dir, "
			    "inside it");
	return p;
}

static double want_count(struct check *k, const struct dfz_json *o,
			 const char *key)
{
	double v = -1;

	if (!dfz_json_num(dfz_json_get(o, key), &v) || v < 0 ||
	    v != (double)(uint64_t)v)
		bad(k, key, "expected a non-negative integer");
	return v;
}

/* "distinct" beside a count of @total files: absent (an older triage)
 * gives -1; else at most @total, and at least one of any. */
static double want_distinct(struct check *k, const struct dfz_json *o,
			    double total)
{
	double v;

	if (!dfz_json_get(o, "distinct"))
		return -1;
	v = want_count(k, o, "distinct");
	if (!k->failed && (v > total || (total > 0 && v < 1)))
		bad(k, "distinct", "expected 1 to the count of inputs");
	return v;
}

/* "same_as": absent, or an object whose members are all strings. */
static const struct dfz_json *want_same_as(struct check *k,
					   const struct dfz_json *o)
{
	const struct dfz_json *m = dfz_json_get(o, "same_as");

	if (!m)
		return NULL;
	if (dfz_json_type_of(m) != DFZ_JSON_OBJECT) {
		bad(k, "same_as", "expected an object");
		return NULL;
	}
	for (size_t i = 0; i < dfz_json_len(m); i++)
		if (!dfz_json_str(dfz_json_at(m, i))) {
			bad(k, "same_as", "expected an object of strings");
			return NULL;
		}
	return m;
}

/* @key: an array whose items are all strings (@obj: objects). */
static const struct dfz_json *want_array(struct check *k,
					 const struct dfz_json *o,
					 const char *key, enum dfz_json_type t)
{
	const struct dfz_json *a = dfz_json_get(o, key);

	if (dfz_json_type_of(a) != DFZ_JSON_ARRAY) {
		bad(k, key, "expected an array");
		return NULL;
	}
	for (size_t i = 0; i < dfz_json_len(a); i++)
		if (dfz_json_type_of(dfz_json_at(a, i)) != t) {
			bad(k, key, t == DFZ_JSON_STRING
					    ? "expected an array of strings"
					    : "expected an array of objects");
			return NULL;
		}
	return a;
}

/* "replay": absent (an older triage), or an array of { "command": a
 * string, "file": a path inside the triage dir }. */
static const struct dfz_json *want_replay(struct check *k,
					  const struct dfz_json *o)
{
	const char *bucket = k->where, *cmd;
	const struct dfz_json *a;
	char where[64];

	if (!dfz_json_get(o, "replay"))
		return NULL;
	a = want_array(k, o, "replay", DFZ_JSON_OBJECT);
	for (size_t i = 0; i < dfz_json_len(a) && !k->failed; i++) {
		snprintf(where, sizeof(where), "%s.replay[%zu]", bucket, i);
		k->where = where;
		cmd = want_str(k, dfz_json_at(a, i), "command", false);
		if (cmd && cmd[strcspn(cmd, "\n\r")])
			bad(k, "command", "expected one line");
		want_path(k, dfz_json_at(a, i), "file", false);
	}
	k->where = bucket;
	return a;
}

static void check_signal(struct check *k, const struct dfz_json *s)
{
	static const char *const strs[] = {
		"name", "addr", "pc", "access", "operand", "instruction",
	};

	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		if (i == 0 || dfz_json_get(s, strs[i]))
			want_str(k, s, strs[i], i > 0);
	if (dfz_json_get(s, "disasm"))
		want_array(k, s, "disasm", DFZ_JSON_STRING);
	if (dfz_json_get(s, "frames"))
		want_array(k, s, "frames", DFZ_JSON_STRING);
}

static void check_min(struct check *k, const struct dfz_json *m)
{
	static const char *const nums[] = {
		"bytes_in", "bytes_out", "runs", "seconds",
	};
	double v;

	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++)
		if (!dfz_json_num(dfz_json_get(m, nums[i]), &v) || v < 0)
			bad(k, nums[i], "expected a non-negative number");
}

/* Bucket ids name directories and HTML anchors: keep them plain. */
static bool plain_id(const char *s)
{
	return s && *s && strlen(s) < 64 &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyz"
			 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") ==
		       strlen(s);
}

/* @key: absent or null (NULL), else an object of @strs strings (the
 * first required) and, with @line, a positive integer "line". */
static const struct dfz_json *want_obj(struct check *k,
				       const struct dfz_json *o,
				       const char *key, const char *str,
				       bool line)
{
	const struct dfz_json *v = dfz_json_get(o, key);
	double n;

	if (dfz_json_type_of(v) <= DFZ_JSON_NULL)
		return NULL;
	if (dfz_json_type_of(v) != DFZ_JSON_OBJECT || !dfz_json_str(
	    dfz_json_get(v, str)) || (line && (!dfz_json_num(dfz_json_get(v,
	    "line"), &n) || n < 0 || n != (double)(uint64_t)n)))
		bad(k, key, line ? "expected null or an object with a file "
			    "and a line" : "expected null or an object with a "
			    "verdict");
	return v;
}

/* The fields of a drop-in triage's bucket (docs/campaign-triage.md). */
static void check_dropin(struct check *k, const struct dfz_json *o,
			 struct dfz__bucket *b)
{
	const char *st;
	bool v = false;

	b->test = want_str(k, o, "test", false);
	b->key = want_str(k, o, "key", true);
	b->site = want_obj(k, o, "site", "file", true);
	b->prior = want_obj(k, o, "prior", "file", true);
	st = want_str(k, o, "status", true);
	if (st && strcmp(st, "open") && strcmp(st, "fixed"))
		bad(k, "status", "expected \"open\" or \"fixed\"");
	b->fixed = st && !strcmp(st, "fixed");
	if (dfz_json_get(o, "regressed") &&
	    !dfz_json_bool(dfz_json_get(o, "regressed"), &v))
		bad(k, "regressed", "expected true or false");
	b->regressed = v;
	if (dfz_json_get(o, "fixed"))
		b->fixed_in = want_array(k, o, "fixed", DFZ_JSON_STRING);
	b->valgrind = want_obj(k, o, "valgrind", "verdict", false);
	b->asan = want_obj(k, o, "asan", "verdict", false);
}

static void check_bucket(struct check *k, const struct dfz_json *o,
			 struct dfz__bucket *b)
{
	const struct dfz_json *v;

	if (dfz_json_type_of(o) != DFZ_JSON_OBJECT) {
		bad(k, "", "expected an object");
		return;
	}
	b->id = want_str(k, o, "id", false);
	if (b->id && !plain_id(b->id))
		bad(k, "id", "expected letters, digits, '_', '-', '.'");
	b->signature = want_str(k, o, "signature", false);
	b->cls = want_str(k, o, "class", false);
	b->oracle = want_str(k, o, "oracle", true);
	b->level = want_str(k, o, "level", true);
	b->target = want_str(k, o, "target", false);
	b->bugs = want_str(k, o, "bugs", true);
	b->count = want_count(k, o, "count");
	b->distinct = want_distinct(k, o, b->count);
	b->inputs = want_array(k, o, "inputs", DFZ_JSON_STRING);
	b->message = want_str(k, o, "message", false);
	b->reproducer = want_path(k, o, "reproducer", false);
	b->plan = want_path(k, o, "plan", true);
	b->c = want_path(k, o, "c", true);
	b->replay = want_replay(k, o);
	v = dfz_json_get(o, "min");
	if (dfz_json_type_of(v) == DFZ_JSON_OBJECT) {
		b->min = v;
		check_min(k, v);
	} else if (dfz_json_type_of(v) > DFZ_JSON_NULL) {
		bad(k, "min", "expected an object or null");
	}
	v = dfz_json_get(o, "signal");
	if (dfz_json_type_of(v) == DFZ_JSON_OBJECT) {
		b->signal = v;
		check_signal(k, v);
	} else if (dfz_json_type_of(v) > DFZ_JSON_NULL) {
		bad(k, "signal", "expected an object or null");
	}
	if (dfz_json_get(o, "test"))
		check_dropin(k, o, b);
}

static void check_root(struct check *k, struct dfz__triage *tr)
{
	const struct dfz_json *r = tr->root, *bs;
	double version;
	char where[32];

	if (dfz_json_type_of(r) != DFZ_JSON_OBJECT) {
		bad(k, "(root)", "expected an object");
		return;
	}
	if (!dfz_json_num(dfz_json_get(r, "version"), &version) ||
	    version != 1) {
		bad(k, "version", "expected 1 (the triage contract version)");
		return;
	}
	tr->campaign = want_str(k, r, "campaign", true);
	tr->srcroot = want_str(k, r, "srcroot", true);
	tr->inputs = want_count(k, r, "inputs");
	tr->distinct = want_distinct(k, r, tr->inputs);
	tr->same_as = want_same_as(k, r);
	tr->malformed = want_array(k, r, "malformed", DFZ_JSON_OBJECT);
	tr->clean = want_array(k, r, "clean", DFZ_JSON_STRING);
	for (size_t i = 0; i < dfz_json_len(tr->malformed) && !k->failed;
	     i++) {
		snprintf(where, sizeof(where), "malformed[%zu]", i);
		k->where = where;
		want_str(k, dfz_json_at(tr->malformed, i), "input", false);
		want_str(k, dfz_json_at(tr->malformed, i), "reason", false);
	}
	k->where = "";
	bs = want_array(k, r, "buckets", DFZ_JSON_OBJECT);
	if (k->failed || !dfz_json_len(bs))
		return;
	tr->b = calloc(dfz_json_len(bs), sizeof(*tr->b));
	if (!tr->b) {
		bad(k, "buckets", "out of memory");
		return;
	}
	tr->nb = dfz_json_len(bs);
	for (size_t i = 0; i < tr->nb && !k->failed; i++) {
		snprintf(where, sizeof(where), "buckets[%zu]", i);
		k->where = where;
		check_bucket(k, dfz_json_at(bs, i), &tr->b[i]);
		for (size_t j = 0; j < i && !k->failed; j++)
			if (!strcmp(tr->b[i].id, tr->b[j].id))
				bad(k, "id", "a duplicate bucket id");
		tr->ndropin += tr->b[i].test != NULL;
		tr->nopen += tr->b[i].test && !tr->b[i].fixed;
	}
	k->where = "";
}

char *dfz__fmt_inputs(double count, double distinct, char *buf, size_t len)
{
	char n[32], d[32];

	dfz__fmt_num(count, n, sizeof(n));
	if (distinct < 0)
		snprintf(buf, len, "%s", n);
	else
		snprintf(buf, len, "%s (%s distinct)", n,
			 dfz__fmt_num(distinct, d, sizeof(d)));
	return buf;
}

/* A file of a bucket (relative to the triage dir) read whole, or NULL. */
static char *bucket_file(const struct dfz__triage *tr, const char *rel,
			 const char *name, int *rc)
{
	char path[4096];
	bool cut;
	char *t;

	if (!rel)
		return NULL;
	snprintf(path, sizeof(path), "%s/%s%s", tr->base, rel, name);
	t = dfz__read_file(path, MAX_TEXT_BYTES, NULL, &cut);
	if (!t && errno == ENOMEM)
		*rc = DFZ_ENOMEM;
	if (t && cut) {
		char *m = realloc(t, MAX_TEXT_BYTES + 64);

		if (!m) {
			free(t);
			*rc = DFZ_ENOMEM;
			return NULL;
		}
		t = m;
		strcat(t, "\n[... cut at 256 KiB ...]\n");
	}
	return t;
}

/* The directory of a bucket's reproducer: where verdict.txt lives. */
static void bucket_dir(const struct dfz__bucket *b, char *buf, size_t len)
{
	const char *slash = strrchr(b->reproducer, '/');

	snprintf(buf, len, "%.*s", slash ? (int)(slash - b->reproducer + 1) : 0,
		 b->reproducer);
}

static int load_files(struct dfz__triage *tr)
{
	int rc = 0;

	for (size_t i = 0; i < tr->nb && rc == 0; i++) {
		struct dfz__bucket *b = &tr->b[i];
		char dir[1024];

		bucket_dir(b, dir, sizeof(dir));
		b->plan_text = bucket_file(tr, b->plan, "", &rc);
		b->c_text = bucket_file(tr, b->c, "", &rc);
		b->verdict_text = bucket_file(tr, dir, "verdict.txt", &rc);
		if (b->signal)
			b->disasm_text = bucket_file(tr, dir, "disasm.txt", &rc);
	}
	return rc;
}

int dfz__triage_read(struct dfz__campaign *c, const char *path, char *err,
		     size_t errlen)
{
	struct dfz__triage *tr = &c->tr;
	char perr[256], *text, *slash;
	struct check k = { .err = perr, .errlen = sizeof(perr), .where = "" };
	size_t n;
	bool cut;
	int rc;

	text = dfz__read_file(path, MAX_TRIAGE_BYTES, &n, &cut);
	if (!text) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return dfz_err_from_errno(errno);
	}
	rc = cut ? DFZ_EINVAL : dfz_json_parse(text, n, &tr->root, perr,
					       sizeof(perr));
	free(text);
	if (rc < 0) {
		snprintf(err, errlen, "%s: %s", path,
			 cut ? "larger than 16 MiB" : perr);
		return rc;
	}
	tr->path = strdup(path);
	tr->base = strdup(path);
	if (!tr->path || !tr->base)
		goto out_of_memory;
	slash = strrchr(tr->base, '/');
	if (slash)
		*slash = 0;
	else
		strcpy(tr->base, ".");
	tr->base_abs = realpath(tr->base, NULL);
	if (!tr->base_abs && errno == ENOMEM)
		goto out_of_memory;   /* else the links stay relative */
	check_root(&k, tr);
	if (k.failed) {
		snprintf(err, errlen, "%s: %s", path, perr);
		return strstr(perr, "out of memory") ? DFZ_ENOMEM : DFZ_EINVAL;
	}
	c->has_triage = true;
	if (load_files(tr) == 0)
		return 0;
out_of_memory:
	snprintf(err, errlen, "%s: out of memory", path);
	return DFZ_ENOMEM;
}
