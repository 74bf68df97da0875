// SPDX-License-Identifier: MIT
/*
 * The drop-in triage (`dmafuzz triage --dropin NAME=BIN`): the findings a
 * campaign over the user's own drop-in tests kept, DIR/<test>/<file>,
 * each replayed by its test's binary (`BIN --json FILE`, the verdict of
 * dropin/print.c) and bucketed by test, class, the offending call's
 * file:line and the earlier call's it conflicts with. One input per
 * bucket is shrunk by the `min --exec` shrinker (reports/shrink/
 * shrink_exec.c), its replay kept beside it; the checkers (triage_check.c)
 * replay it under valgrind and with the test's ASan build, and the
 * previous triage's buckets (triage_fixed.c) mark what replays clean now
 * as fixed. triage.json (triage_json.c) says all of it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "triage_int.h"
#include "../render/json_int.h"

#define VERDICT_OUT (64u << 10)       /* a replay's output kept */

/* ------------------------------------------------------------ finding */

/* A finding's sidecar beside it, not an input: dot files, a README, and
 * the files a campaign or a person writes next to one. */
static bool is_sidecar(const char *name)
{
	static const char *const ext[] = {
		".min", ".txt", ".json", ".log", ".sarif", ".out", ".err",
		".plan", ".md",
	};
	const char *dot = strrchr(name, '.');

	if (name[0] == '.' || !strncmp(name, "README", 6))
		return true;
	for (size_t i = 0; dot && i < sizeof(ext) / sizeof(ext[0]); i++)
		if (!strcmp(dot, ext[i]))
			return true;
	return false;
}

struct scan {
	struct dfz__triage *t;
	unsigned test;
};

static int scan_entry(const char *path, const char *name, void *arg)
{
	struct scan *s = arg;
	struct dfz__triage *t = s->t;
	struct dfz__input *in;
	struct stat st;

	if (is_sidecar(name) || stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	if (dfz__grow(&t->in, &t->in_cap, t->nin, sizeof(*t->in), 16))
		return DFZ_ENOMEM;
	in = &t->in[t->nin];
	memset(in, 0, sizeof(*in));
	in->bucket = -1;
	in->same_as = -1;
	snprintf(in->target, sizeof(in->target), "dropin");
	in->src = strdup(path);
	in->dv = calloc(1, sizeof(*in->dv));
	t->nin++;
	if (!in->src || !in->dv)
		return DFZ_ENOMEM;
	in->dv->test = s->test;
	return 0;
}

/* The inputs of every test, DIR/<test>/<file>, each test's in name
 * order (a test without a directory has none). */
static int scan(struct dfz__triage *t)
{
	const struct dfz_triage_config *cfg = t->cfg;
	char dir[4400];
	bool opened;
	int rc = 0;

	for (unsigned k = 0; rc == 0 && k < cfg->ndropin; k++) {
		struct scan s = { t, k };

		snprintf(dir, sizeof(dir), "%s/%s", cfg->dir, cfg->dropin[k].name);
		rc = dfz__dir_each_sorted(dir, scan_entry, &s, &opened);
		if (rc == 0 && !opened && errno == ENOMEM)
			rc = DFZ_ENOMEM;
	}
	return rc;
}

/* ------------------------------------------------------------ verdicts */

/* Member @key of @o as a string, "" when it is none. */
static const char *str_or(const struct dfz_json *o, const char *key)
{
	const char *s = dfz_json_str(dfz_json_get(o, key));

	return s ? s : "";
}

static void dsite(const struct dfz_json *o, struct dfz__dsite *s)
{
	double line = 0;

	memset(s, 0, sizeof(*s));
	if (!dfz_json_str(dfz_json_get(o, "file")))
		return;
	snprintf(s->file, sizeof(s->file), "%s",
		 dfz_json_str(dfz_json_get(o, "file")));
	if (dfz_json_num(dfz_json_get(o, "line"), &line) && line > 0 &&
	    line < 1e9)
		s->line = (int)line;
	snprintf(s->func, sizeof(s->func), "%s", str_or(o, "function"));
}

void dfz__dsite_text(const struct dfz__dsite *s, char *buf, size_t len)
{
	if (!s->file[0])
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%s:%d", s->file, s->line);
}

/* The bucket of a finding: its key, and its signature as people read it. */
static void name_finding(const char *test, struct dfz__outcome *o,
			 const struct dfz__dverdict *dv)
{
	char site[300], prior[300];

	dfz__dsite_text(&dv->site, site, sizeof(site));
	dfz__dsite_text(&dv->prior, prior, sizeof(prior));
	o->kind = DFZ__FINDING;
	snprintf(o->key, sizeof(o->key), "%s|%s|%s|%s", test, o->cls, site,
		 prior);
	snprintf(o->sig, sizeof(o->sig), "%s", o->cls);
}

/* The last line of @text that starts with '{': the verdict object. */
static const char *verdict_line(const char *text)
{
	const char *best = NULL;

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (*p == '{')
			best = p;
	return best;
}

/* The JSON verdict in @text into @o and @dv. */
static int parse_verdict(const char *test, const char *text,
			 struct dfz__outcome *o, struct dfz__dverdict *dv)
{
	const char *line = verdict_line(text), *v;
	struct dfz_json *j = NULL;
	char perr[128];
	int rc;

	if (!line) {
		o->kind = DFZ__MALFORMED;
		snprintf(o->reason, sizeof(o->reason), "no JSON verdict in "
			 "its output");
		return 0;
	}
	rc = dfz_json_parse(line, strcspn(line, "\n"), &j, perr, sizeof(perr));
	if (rc == DFZ_ENOMEM)
		return rc;
	v = dfz_json_str(dfz_json_get(j, "verdict"));
	if (rc < 0 || !v || (strcmp(v, "clean") &&
			     !dfz_json_str(dfz_json_get(j, "class")))) {
		o->kind = DFZ__MALFORMED;
		snprintf(o->reason, sizeof(o->reason), "not a drop-in verdict: "
			 "%.200s", rc < 0 ? perr : line);
	} else if (!strcmp(v, "clean")) {
		o->kind = DFZ__CLEAN;
	} else {
		snprintf(o->cls, sizeof(o->cls), "%s",
			 dfz_json_str(dfz_json_get(j, "class")));
		snprintf(o->oracle, sizeof(o->oracle), "%s",
			 str_or(j, "oracle"));
		snprintf(o->message, sizeof(o->message), "%s",
			 str_or(j, "message"));
		dsite(dfz_json_get(j, "site"), &dv->site);
		dsite(dfz_json_get(j, "prior"), &dv->prior);
		name_finding(test, o, dv);
	}
	dfz_json_free(j);
	return 0;
}

/* How a run that printed no verdict ended: a hang or a signal no handler
 * caught is a finding of its own (no site); else malformed. */
static bool no_verdict(const char *test, const struct dfz__proc *res,
		       unsigned ms, struct dfz__outcome *o,
		       struct dfz__dverdict *dv)
{
	if (res->timed_out) {
		snprintf(o->cls, sizeof(o->cls), "timeout");
		snprintf(o->message, sizeof(o->message), "no exit within %u ms",
			 ms);
	} else if (WIFSIGNALED(res->status)) {
		snprintf(o->cls, sizeof(o->cls), "crash");
		snprintf(o->message, sizeof(o->message), "killed by %s, no "
			 "verdict", dfz__sig_name(WTERMSIG(res->status)));
	} else {
		return false;
	}
	snprintf(o->oracle, sizeof(o->oracle), "process");
	name_finding(test, o, dv);
	return true;
}

int dfz__dropin_replay(struct dfz__triage *t, unsigned test, const char *path,
		       struct dfz__outcome *o, struct dfz__dverdict *dv)
{
	const struct dfz_triage_config *cfg = t->cfg;
	unsigned ms = cfg->timeout_ms ? cfg->timeout_ms : DFZ_TRIAGE_TIMEOUT_MS;
	char *argv[] = { (char *)cfg->dropin[test].bin, "--json",
			 (char *)path, NULL };
	const char *name = cfg->dropin[test].name;
	struct dfz__proc res;
	char *text = malloc(VERDICT_OUT);
	int rc;

	memset(o, 0, sizeof(*o));
	memset(&dv->site, 0, sizeof(dv->site));
	memset(&dv->prior, 0, sizeof(dv->prior));
	o->level = -1;
	if (!text)
		return DFZ_ENOMEM;
	rc = dfz__proc_run(argv, NULL, ms, false, text, VERDICT_OUT, &res);
	if (rc == 0 && WIFEXITED(res.status) && WEXITSTATUS(res.status) == 127 &&
	    !text[0])
		rc = DFZ_ENOENT;
	else if (rc == 0 && !no_verdict(name, &res, ms, o, dv))
		rc = parse_verdict(name, text, o, dv);
	if (rc == 0 && o->kind == DFZ__MALFORMED && WIFEXITED(res.status) &&
	    WEXITSTATUS(res.status) > 1)
		snprintf(o->reason, sizeof(o->reason), "%.100s exits %d on it",
			 cfg->dropin[test].bin, WEXITSTATUS(res.status));
	free(text);
	return rc;
}

/* ------------------------------------------------------------ inputs */

static int examine(struct dfz__triage *t, unsigned i, char *err, size_t errlen)
{
	struct dfz__input *in = &t->in[i];
	unsigned test = in->dv->test;
	bool cut = false;
	int rc;

	in->buf = (uint8_t *)dfz__read_file(in->src, DFZ__INPUT_MAX, &in->n,
					    &cut);
	if (!in->buf || cut) {
		if (!in->buf && errno == ENOMEM)
			return DFZ_ENOMEM;
		in->o.kind = DFZ__MALFORMED;
		snprintf(in->o.reason, sizeof(in->o.reason), cut ? "over %u "
			 "bytes, the fuzz targets' limit" : "cannot read it",
			 DFZ__INPUT_MAX);
		return 0;
	}
	in->whole = true;
	t->distinct++;
	rc = dfz__dropin_replay(t, test, in->src, &in->o, in->dv);
	if (rc == DFZ_ENOENT)
		snprintf(err, errlen, "cannot run '%s' (--dropin %s)",
			 t->cfg->dropin[test].bin, t->cfg->dropin[test].name);
	else if (rc)
		snprintf(err, errlen, "out of memory");
	return rc;
}

/* @s as "file:line" for people: the file relative to the source root
 * when it lies inside it. */
static void site_rel(const struct dfz__triage *t, const struct dfz__dsite *s,
		     char *buf, size_t len)
{
	size_t n = strlen(t->srcroot);
	struct dfz__dsite r = *s;

	if (n > 1 && !strncmp(s->file, t->srcroot, n) && s->file[n] == '/')
		snprintf(r.file, sizeof(r.file), "%s", s->file + n + 1);
	dfz__dsite_text(&r, buf, len);
}

/* Give each new bucket its drop-in part, from its first input. */
static int bucket_parts(struct dfz__triage *t)
{
	for (unsigned k = 0; k < t->nb; k++) {
		struct dfz__bucket *b = &t->b[k];
		const struct dfz__input *first = &t->in[b->member[0]];
		char site[300], prior[300];

		if (b->drop)
			continue;
		b->drop = calloc(1, sizeof(*b->drop));
		if (!b->drop)
			return DFZ_ENOMEM;
		b->drop->test = first->dv->test;
		b->drop->site = first->dv->site;
		b->drop->prior = first->dv->prior;
		site_rel(t, &b->drop->site, site, sizeof(site));
		site_rel(t, &b->drop->prior, prior, sizeof(prior));
		snprintf(b->drop->sig, sizeof(b->drop->sig), "%s at %s, prior %s",
			 first->o.cls, site, prior);
	}
	return 0;
}

/* Is every --dropin and --asan binary a program we can run, every name
 * a test name, every --asan name a --dropin test? */
static int check_bins(const struct dfz_triage_config *cfg, char *err,
		      size_t errlen)
{
	for (unsigned k = 0; k < cfg->ndropin + cfg->nasan; k++) {
		bool asan = k >= cfg->ndropin;
		const struct dfz_triage_bin *b = asan ?
			&cfg->asan[k - cfg->ndropin] : &cfg->dropin[k];
		struct stat st;

		if (!b->name || !*b->name || strspn(b->name, DFZ__TEST_CHARS) !=
		    strlen(b->name) || strlen(b->name) > 64) {
			snprintf(err, errlen, "bad test name '%s' (expected "
				 "[A-Za-z0-9_-]+)", b->name ? b->name : "");
			return DFZ_EINVAL;
		}
		if (!b->bin || access(b->bin, X_OK) < 0 || stat(b->bin, &st) < 0 ||
		    !S_ISREG(st.st_mode)) {
			snprintf(err, errlen, "cannot run '%s' (--%s %s)",
				 b->bin ? b->bin : "", asan ? "asan" : "dropin",
				 b->name);
			return DFZ_EINVAL;
		}
		if (asan && dfz__dropin_test(cfg, b->name) < 0) {
			snprintf(err, errlen, "--asan %s: no --dropin test of "
				 "that name", b->name);
			return DFZ_EINVAL;
		}
	}
	return 0;
}

int dfz__dropin_test(const struct dfz_triage_config *cfg, const char *name)
{
	for (unsigned k = 0; k < cfg->ndropin; k++)
		if (!strcmp(cfg->dropin[k].name, name))
			return (int)k;
	return -1;
}

/* Replay every input and bucket the findings. */
static int replay_all(struct dfz__triage *t, struct dfz_triage_summary *sum,
		      char *err, size_t errlen)
{
	int rc = scan(t);

	for (unsigned i = 0; !rc && i < t->nin; i++) {
		rc = examine(t, i, err, errlen);
		if (!rc && t->in[i].o.kind == DFZ__FINDING)
			rc = dfz__bucket_add(t, i);
		sum->malformed += t->in[i].o.kind == DFZ__MALFORMED;
		sum->clean += t->in[i].o.kind == DFZ__CLEAN;
		dfz__progress_show(&t->progress, i == 0, "triage: replayed %u/%u "
				   "input(s), %u bucket(s)", i + 1, t->nin, t->nb);
	}
	dfz__progress_clear(&t->progress);
	return rc ? rc : bucket_parts(t);
}

static void count_fixed(const struct dfz__triage *t,
			struct dfz_triage_summary *sum)
{
	for (unsigned k = 0; k < t->nb; k++) {
		sum->fixed += t->b[k].drop->nfixed;
		sum->fixed_buckets += t->b[k].drop->fixed;
	}
}

/* The source root for the report, absolute when it exists. */
static int source_root(struct dfz__triage *t)
{
	const char *root = t->cfg->srcroot ? t->cfg->srcroot : ".";
	char *abs = realpath(root, NULL);

	if (!abs && errno == ENOMEM)
		return DFZ_ENOMEM;
	snprintf(t->srcroot, sizeof(t->srcroot), "%s", abs ? abs : root);
	free(abs);
	return 0;
}

int dfz__triage_dropin(struct dfz__triage *t, struct dfz_triage_summary *sum,
		       char *err, size_t errlen)
{
	struct dfz__prev *prev = NULL;
	int rc = check_bins(t->cfg, err, errlen);

	if (rc == 0)
		rc = source_root(t);
	if (rc == 0) {
		rc = dfz__prev_load(t, &prev, err, errlen);
		sum->bad_previous = rc == DFZ_EINVAL;
	}
	dfz__progress_init(&t->progress);
	if (rc == 0)
		rc = replay_all(t, sum, err, errlen);
	if (rc == 0 && prev)
		rc = dfz__prev_apply(t, prev);
	for (unsigned k = 0; rc == 0 && k < t->nb; k++)
		rc = dfz__dropin_settle(t, &t->b[k], err, errlen);
	if (rc == 0) {
		count_fixed(t, sum);
		rc = dfz__triage_json(t);
		if (rc < 0 && rc != DFZ_ENOMEM)
			snprintf(err, errlen, "cannot write '%s/triage.json': "
				 "%s", t->out, strerror(errno));
	}
	dfz__progress_clear(&t->progress);
	if (rc == DFZ_ENOMEM && !err[0])
		snprintf(err, errlen, "out of memory");
	dfz__prev_free(prev);
	sum->inputs = t->nin;
	sum->distinct = t->distinct;
	sum->buckets = t->nb;
	return rc;
}
