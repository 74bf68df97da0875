// SPDX-License-Identifier: MIT
/*
 * Regressions tracked across drop-in triages: the previous OUT/triage.json
 * read (strictly: a corrupt one is an error of its own, never silently
 * dropped, since it holds what was fixed) before anything of this triage
 * is written, with its buckets' reproducers; then every input of a
 * previous bucket that now replays clean is FIXED under the bucket of the
 * same key, or, when every input of that bucket replays clean, under a
 * fixed bucket that keeps the previous reproducer. A fixed bucket whose
 * input reproduces again is open once more, marked regressed. Inputs are
 * matched by their last two path components, TEST/FILE (a campaign's
 * content-keyed finding names), so a campaign dir given by another path
 * still matches.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "triage_int.h"
#include "../render/json_int.h"

#define MAX_PREV_BYTES (16u << 20)

/* A drop-in bucket of the previous triage (strings borrowed from root). */
struct pbucket {
	const struct dfz_json *o;
	const char *key;
	const char *test;
	bool was_fixed;
	uint8_t *repro;               /* its reproducer's bytes, or NULL */
	size_t n;
};

struct dfz__prev {
	struct dfz_json *root;
	struct pbucket *b;
	size_t nb;
};

const char *dfz__input_tail(const char *src)
{
	const char *end = src + strlen(src), *p = end;
	int slashes = 0;

	while (p > src && (p[-1] != '/' || ++slashes < 2))
		p--;
	return p;
}

void dfz__prev_free(struct dfz__prev *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nb; i++)
		free(p->b[i].repro);
	free(p->b);
	dfz_json_free(p->root);
	free(p);
}

/* ------------------------------------------------------------ checking */

static bool all_strings(const struct dfz_json *a)
{
	if (dfz_json_type_of(a) != DFZ_JSON_ARRAY)
		return false;
	for (size_t i = 0; i < dfz_json_len(a); i++)
		if (!dfz_json_str(dfz_json_at(a, i)))
			return false;
	return true;
}

static bool site_ok(const struct dfz_json *s)
{
	double line;

	return dfz_json_type_of(s) <= DFZ_JSON_NULL ||
	       (dfz_json_str(dfz_json_get(s, "file")) &&
		dfz_json_num(dfz_json_get(s, "line"), &line));
}

/* What is wrong with drop-in bucket @o, or NULL. */
static const char *bad_bucket(const struct dfz_json *o)
{
	const char *rel = dfz_json_str(dfz_json_get(o, "reproducer"));
	const char *st = dfz_json_str(dfz_json_get(o, "status"));

	if (!dfz_json_str(dfz_json_get(o, "test")))
		return "test: expected a string";
	if (!dfz_json_str(dfz_json_get(o, "key")))
		return "key: expected a string";
	if (!dfz_json_str(dfz_json_get(o, "class")))
		return "class: expected a string";
	if (!all_strings(dfz_json_get(o, "inputs")))
		return "inputs: expected an array of strings";
	if (dfz_json_get(o, "fixed") && !all_strings(dfz_json_get(o, "fixed")))
		return "fixed: expected an array of strings";
	if (st && strcmp(st, "open") && strcmp(st, "fixed"))
		return "status: expected \"open\" or \"fixed\"";
	if (!site_ok(dfz_json_get(o, "site")) ||
	    !site_ok(dfz_json_get(o, "prior")))
		return "site: expected an object with file and line, or null";
	if (!rel || rel[0] == '/' || strstr(rel, ".."))
		return "reproducer: expected a path inside the triage dir";
	return NULL;
}

/* The reproducer of @pb, read whole (absent: none). */
static int read_repro(const struct dfz__triage *t, struct pbucket *pb)
{
	char path[8300];
	bool cut = false;

	snprintf(path, sizeof(path), "%s/%s", t->out,
		 dfz_json_str(dfz_json_get(pb->o, "reproducer")));
	pb->repro = (uint8_t *)dfz__read_file(path, DFZ__INPUT_MAX, &pb->n, &cut);
	if (!pb->repro && errno == ENOMEM)
		return DFZ_ENOMEM;
	return 0;
}

static int check_prev(const struct dfz__triage *t, struct dfz__prev *p,
		      char *why, size_t len)
{
	const struct dfz_json *bs = dfz_json_get(p->root, "buckets");
	double v;
	int rc = 0;

	if (!dfz_json_num(dfz_json_get(p->root, "version"), &v) || v != 1) {
		snprintf(why, len, "version: expected 1");
		return DFZ_EINVAL;
	}
	if (dfz_json_type_of(bs) != DFZ_JSON_ARRAY) {
		snprintf(why, len, "buckets: expected an array");
		return DFZ_EINVAL;
	}
	p->b = calloc(dfz_json_len(bs) + 1, sizeof(*p->b));
	if (!p->b)
		return DFZ_ENOMEM;
	for (size_t i = 0; rc == 0 && i < dfz_json_len(bs); i++) {
		const struct dfz_json *o = dfz_json_at(bs, i);
		const char *bad;
		struct pbucket *pb = &p->b[p->nb];

		if (dfz_json_type_of(o) != DFZ_JSON_OBJECT ||
		    !dfz_json_get(o, "test"))
			continue;             /* a plan-target triage's */
		if ((bad = bad_bucket(o))) {
			snprintf(why, len, "buckets[%zu].%s", i, bad);
			return DFZ_EINVAL;
		}
		pb->o = o;
		pb->key = dfz_json_str(dfz_json_get(o, "key"));
		pb->test = dfz_json_str(dfz_json_get(o, "test"));
		pb->was_fixed = dfz_json_str(dfz_json_get(o, "status")) &&
			!strcmp(dfz_json_str(dfz_json_get(o, "status")), "fixed");
		p->nb++;
		rc = read_repro(t, pb);
	}
	return rc;
}

int dfz__prev_load(const struct dfz__triage *t, struct dfz__prev **out,
		   char *err, size_t errlen)
{
	char path[4200], why[256] = "", *text;
	struct dfz__prev *p;
	size_t n;
	bool cut = false;
	int rc;

	*out = NULL;
	snprintf(path, sizeof(path), "%s/triage.json", t->out);
	text = dfz__read_file(path, MAX_PREV_BYTES, &n, &cut);
	if (!text && errno == ENOENT)
		return 0;
	if (!text && errno == ENOMEM)
		return DFZ_ENOMEM;
	p = calloc(1, sizeof(*p));
	if (!p) {
		free(text);
		return DFZ_ENOMEM;
	}
	rc = !text ? DFZ_EINVAL : cut ? DFZ_EINVAL :
	     dfz_json_parse(text, n, &p->root, why, sizeof(why));
	snprintf(why + strlen(why), sizeof(why) - strlen(why), "%s",
		 !text ? strerror(errno) : cut ? "larger than 16 MiB" : "");
	free(text);
	if (rc == 0 && dfz_json_type_of(p->root) != DFZ_JSON_OBJECT) {
		snprintf(why, sizeof(why), "expected an object");
		rc = DFZ_EINVAL;
	}
	if (rc == 0)
		rc = check_prev(t, p, why, sizeof(why));
	if (rc == DFZ_EINVAL)
		snprintf(err, errlen, "the previous triage '%s' is corrupt: %s "
			 "(move it away to start afresh)", path, why);
	if (rc < 0)
		dfz__prev_free(p);
	else
		*out = p;
	return rc;
}

/* ------------------------------------------------------------ marking */

/* The inputs of this triage that @pb listed (inputs and fixed ones),
 * into @idx (room for t->nin); how many, and how many replay clean. */
static unsigned matched(const struct dfz__triage *t, const struct pbucket *pb,
			unsigned *idx, unsigned *clean)
{
	static const char *const lists[] = { "inputs", "fixed" };
	unsigned n = 0;

	*clean = 0;
	for (unsigned i = 0; i < t->nin; i++) {
		const char *tail = dfz__input_tail(t->in[i].src);
		bool seen = false;

		for (int l = 0; l < 2 && !seen; l++) {
			const struct dfz_json *a = dfz_json_get(pb->o, lists[l]);

			for (size_t k = 0; k < dfz_json_len(a) && !seen; k++)
				seen = !strcmp(tail, dfz__input_tail(
					dfz_json_str(dfz_json_at(a, k))));
		}
		if (!seen)
			continue;
		idx[n++] = i;
		*clean += t->in[i].o.kind == DFZ__CLEAN;
	}
	return n;
}

static int add_fixed(struct dfz__dbucket *d, unsigned i)
{
	for (unsigned k = 0; k < d->nfixed; k++)
		if (d->fixed_in[k] == i)
			return 0;
	if (dfz__grow(&d->fixed_in, &d->fixed_cap, d->nfixed,
		      sizeof(*d->fixed_in), 4))
		return DFZ_ENOMEM;
	d->fixed_in[d->nfixed++] = i;
	return 0;
}

/* The bucket of this triage with @key, or NULL. */
static struct dfz__bucket *open_bucket(struct dfz__triage *t, const char *key)
{
	for (unsigned k = 0; k < t->nb; k++)
		if (!t->b[k].drop->fixed &&
		    !strcmp(t->in[t->b[k].member[0]].o.key, key))
			return &t->b[k];
	return NULL;
}

static void site_from(const struct dfz_json *o, struct dfz__dsite *s)
{
	double line = 0;
	const char *func = dfz_json_str(dfz_json_get(o, "function"));

	memset(s, 0, sizeof(*s));
	if (!dfz_json_str(dfz_json_get(o, "file")))
		return;
	snprintf(s->file, sizeof(s->file), "%s",
		 dfz_json_str(dfz_json_get(o, "file")));
	dfz_json_num(dfz_json_get(o, "line"), &line);
	s->line = line > 0 && line < 1e9 ? (int)line : 0;
	snprintf(s->func, sizeof(s->func), "%s", func ? func : "");
}

/* The outcome a fixed bucket shows: the previous triage's finding. */
static void prev_outcome(const struct pbucket *pb, struct dfz__outcome *o)
{
	const char *oracle = dfz_json_str(dfz_json_get(pb->o, "oracle"));
	const char *msg = dfz_json_str(dfz_json_get(pb->o, "message"));

	memset(o, 0, sizeof(*o));
	o->kind = DFZ__FINDING;
	o->level = -1;
	snprintf(o->cls, sizeof(o->cls), "%s",
		 dfz_json_str(dfz_json_get(pb->o, "class")));
	snprintf(o->sig, sizeof(o->sig), "%s", o->cls);
	snprintf(o->key, sizeof(o->key), "%s", pb->key);
	snprintf(o->oracle, sizeof(o->oracle), "%s", oracle ? oracle : "");
	snprintf(o->message, sizeof(o->message), "%s", msg ? msg : "");
}

/* A bucket of this triage for @pb, every one of whose @n inputs @idx
 * replays clean. */
static int fixed_bucket(struct dfz__triage *t, struct pbucket *pb,
			const unsigned *idx, unsigned n)
{
	const char *sig = dfz_json_str(dfz_json_get(pb->o, "signature"));
	struct dfz__bucket *b;
	struct dfz__dbucket *d;

	if (dfz__grow(&t->b, &t->b_cap, t->nb, sizeof(*t->b), 8))
		return DFZ_ENOMEM;
	b = &t->b[t->nb];
	memset(b, 0, sizeof(*b));
	b->member = malloc(n * sizeof(*b->member));
	b->drop = d = calloc(1, sizeof(*d));
	t->nb++;
	if (!b->member || !d)
		return DFZ_ENOMEM;
	snprintf(b->id, sizeof(b->id), "b%02u", t->nb);
	memcpy(b->member, idx, n * sizeof(*idx));
	b->count = b->distinct = n;
	prev_outcome(pb, &b->repro);
	d->test = t->in[idx[0]].dv->test;
	d->fixed = true;
	site_from(dfz_json_get(pb->o, "site"), &d->site);
	site_from(dfz_json_get(pb->o, "prior"), &d->prior);
	snprintf(d->sig, sizeof(d->sig), "%s", sig ? sig : b->repro.cls);
	d->prev_repro = pb->repro;
	d->prev_n = pb->n;
	pb->repro = NULL;
	for (unsigned k = 0; k < n; k++)
		if (add_fixed(d, idx[k]) < 0)
			return DFZ_ENOMEM;
	return 0;
}

int dfz__prev_apply(struct dfz__triage *t, const struct dfz__prev *p)
{
	unsigned *idx = malloc((t->nin + 1) * sizeof(*idx)), n, clean;
	int rc = idx ? 0 : DFZ_ENOMEM;

	for (size_t i = 0; rc == 0 && i < p->nb; i++) {
		struct pbucket *pb = &p->b[i];
		struct dfz__bucket *b = open_bucket(t, pb->key);

		n = matched(t, pb, idx, &clean);
		if (b) {
			b->drop->regressed = pb->was_fixed;
			for (unsigned k = 0; rc == 0 && k < n; k++)
				if (t->in[idx[k]].o.kind == DFZ__CLEAN)
					rc = add_fixed(b->drop, idx[k]);
		} else if (n && clean == n) {
			rc = fixed_bucket(t, pb, idx, n);
		}
	}
	free(idx);
	return rc;
}
