// SPDX-License-Identifier: MIT
/*
 * The run record of a campaign script (tools/fuzz.sh, tools/nightly.sh):
 * DIR/campaign.txt, "key : value" lines as in fuzzer_stats, says what the
 * script ran (targets, seconds, seed, bug switches, night and run), what
 * could not run and why, and where its lists are: each target's class list
 * (WORK/<target>.classes, "CLASS<TAB>FILE" for every finding of the run,
 * from its replay) and the seed build's findings.txt. The report reads
 * them here, so that the scripts write no summary of their own. A
 * campaign without a record (afl-fuzz run by hand) has none of this.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "render_int.h"

#define MAX_RECORD_BYTES (64u << 10)
#define MAX_LIST_BYTES (16u << 20)
#define MAX_RUN_KEYS (sizeof(((struct dfz__run *)0)->key) / sizeof(char *))
#define MAX_RUN_TARGETS (sizeof(((struct dfz__run *)0)->t) / \
			 sizeof(struct dfz__run_target))

const char *dfz__run_get(const struct dfz__run *r, const char *key)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->key[i], key))
			return r->val[i];
	return NULL;
}

double dfz__run_num(const struct dfz__run *r, const char *key)
{
	const char *v = dfz__run_get(r, key);
	char *end;
	double d;

	if (!v || !*v)
		return -1;
	d = strtod(v, &end);
	return *end || !isfinite(d) || d < 0 ? -1 : d;
}

char *dfz__run_path(const struct dfz__run *r, const char *path, char *buf,
		    size_t len)
{
	const char *cwd = dfz__run_get(r, "cwd");

	if (path[0] == '/' || !cwd || !*cwd)
		snprintf(buf, len, "%s", path);
	else
		snprintf(buf, len, "%s/%s", cwd, path);
	return buf;
}

/* The "key : value" lines of @r->text, cut in place. */
static void parse_record(struct dfz__run *r)
{
	char *save = NULL;

	for (char *l = strtok_r(r->text, "\n", &save);
	     l && r->n < MAX_RUN_KEYS; l = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(l, ':'), *v;
		size_t kl;

		if (!colon || l[0] == '#')
			continue;
		v = colon + 1 + strspn(colon + 1, " \t");
		for (kl = (size_t)(colon - l); kl && strchr(" \t", l[kl - 1]); kl--)
			;
		l[kl] = 0;
		v[strcspn(v, "\r")] = 0;
		for (size_t e = strlen(v); e && v[e - 1] == ' '; e--)
			v[e - 1] = 0;
		r->key[r->n] = l;
		r->val[r->n++] = v;
	}
}

static bool has_prefix(const char *path, const char *prefix)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return !strncmp(base, prefix, strlen(prefix));
}

/* @file of class @cls: a crash, a hang that reproduces, or one that is
 * only slow (a hang to afl-fuzz that ends in the replay). */
static unsigned kind_of(const char *cls, const char *file)
{
	if (!has_prefix(file, "hang-"))
		return DFZ__KIND_CRASH;
	return strcmp(cls, "slow") ? DFZ__KIND_HANG : DFZ__KIND_SLOW;
}

static int finding_add(const struct dfz__run *r, struct dfz__run_target *t,
		       size_t *cap, const char *cls, const char *file)
{
	struct dfz__finding *f;
	char path[4096], plan[4200];
	struct stat st;

	if (dfz__grow(&t->f, cap, t->nf, sizeof(*t->f), 16))
		return DFZ_ENOMEM;
	f = &t->f[t->nf];
	*f = (struct dfz__finding){
		.file = strdup(file), .cls = strdup(cls),
		.kind = kind_of(cls, file), .seed = has_prefix(file, "seed-"),
		.bytes = -1,
	};
	t->nf++;
	if (!f->file || !f->cls)
		return DFZ_ENOMEM;
	dfz__run_path(r, file, path, sizeof(path));
	if (stat(path, &st) == 0)
		f->bytes = (double)st.st_size;
	snprintf(plan, sizeof(plan), "%s.plan", path);
	f->has_plan = stat(plan, &st) == 0;
	t->count[f->kind]++;
	return 0;
}

static int cmp_finding(const void *a, const void *b)
{
	const struct dfz__finding *x = a, *y = b;
	int c = strcmp(x->cls, y->cls);

	if (c)
		return c;
	if (x->bytes != y->bytes)
		return x->bytes < y->bytes ? -1 : 1;
	return strcmp(x->file, y->file);
}

/* Target @t's class list, WORK/<target>.classes (none: no findings). */
static int read_classes(const struct dfz__run *r, struct dfz__run_target *t)
{
	const char *work = dfz__run_get(r, "work");
	char rel[4096], path[4096], *text, *save = NULL;
	size_t cap = 0;
	int rc = 0;

	if (!work || !dfz__path(rel, sizeof(rel), "%s/%s.classes", work,
				t->name))
		return 0;
	text = dfz__read_file(dfz__run_path(r, rel, path, sizeof(path)),
			      MAX_LIST_BYTES, NULL, NULL);
	if (!text)
		return errno == ENOMEM ? DFZ_ENOMEM : 0;
	for (char *l = strtok_r(text, "\n", &save); l && rc == 0;
	     l = strtok_r(NULL, "\n", &save)) {
		char *tab = strchr(l, '\t');

		if (!tab || !tab[1])
			continue;
		*tab = 0;
		rc = finding_add(r, t, &cap, l, tab + 1);
	}
	free(text);
	if (rc == 0 && t->nf > 1)     /* a failed add left NULL names */
		qsort(t->f, t->nf, sizeof(*t->f), cmp_finding);
	return rc;
}

/* The targets the record names ("targets : xfer host"), in its order. */
static int read_targets(struct dfz__run *r)
{
	const char *v = dfz__run_get(r, "targets");
	int rc = 0;

	while (v && *v && rc == 0 && r->nt < MAX_RUN_TARGETS) {
		size_t n = strcspn(v, " ");
		struct dfz__run_target *t = &r->t[r->nt];

		if (n && n < sizeof(t->name)) {
			snprintf(t->name, sizeof(t->name), "%.*s", (int)n, v);
			t->target = (int)dfz__target_of(t->name);
			r->nt++;
			rc = read_classes(r, t);
			r->found += t->count[DFZ__KIND_CRASH] +
				    t->count[DFZ__KIND_HANG];
		}
		v += n;
		v += strspn(v, " ");
	}
	return rc;
}

/* The seed build's findings.txt: "SEED<TAB>PLAN<TAB>WHAT" lines. */
static int read_seeds(struct dfz__run *r)
{
	const char *rel = dfz__run_get(r, "seed_findings");
	char path[4096], *text, *save = NULL;
	size_t lines = 0;

	if (!rel || !*rel)
		return 0;
	text = dfz__read_file(dfz__run_path(r, rel, path, sizeof(path)),
			      MAX_LIST_BYTES, NULL, NULL);
	if (!text)
		return errno == ENOMEM ? DFZ_ENOMEM : 0;
	for (const char *p = text; *p; p++)
		lines += *p == '\n';
	r->seeds = calloc(lines + 1, sizeof(*r->seeds));
	for (char *l = strtok_r(text, "\n", &save); r->seeds && l;
	     l = strtok_r(NULL, "\n", &save))
		if (!(r->seeds[r->nseeds++] = strdup(l)))
			break;
	free(text);
	if (!r->seeds || (r->nseeds && !r->seeds[r->nseeds - 1]))
		return DFZ_ENOMEM;
	return 0;
}

void dfz__seed_split(const char *line, char *buf, size_t len,
		     const char **plan, const char **what)
{
	char *p, *w;

	snprintf(buf, len, "%s", line);
	p = strchr(buf, '\t');
	w = p ? strchr(p + 1, '\t') : NULL;
	if (p)
		*p++ = 0;
	if (w)
		*w++ = 0;
	*plan = p;
	*what = w;
}

int dfz__run_read(struct dfz__campaign *c)
{
	char path[4096];
	int rc;

	if (!dfz__path(path, sizeof(path), "%s/%s", c->dir, DFZ__RUN_FILE))
		return 0;
	c->run.text = dfz__read_file(path, MAX_RECORD_BYTES, NULL, NULL);
	if (!c->run.text)
		return errno == ENOMEM ? DFZ_ENOMEM : 0;
	c->has_run = true;
	parse_record(&c->run);
	rc = read_targets(&c->run);
	if (rc == 0 && c->run.nt == 0 && dfz__run_num(&c->run, "found") > 0)
		c->run.found = (unsigned)dfz__run_num(&c->run, "found");
	if (rc == 0)
		rc = read_seeds(&c->run);
	return rc;
}

void dfz__run_fini(struct dfz__run *r)
{
	for (size_t i = 0; i < r->nt; i++) {
		for (size_t k = 0; k < r->t[i].nf; k++) {
			free(r->t[i].f[k].file);
			free(r->t[i].f[k].cls);
		}
		free(r->t[i].f);
	}
	for (size_t i = 0; i < r->nseeds; i++)
		free(r->seeds[i]);
	free(r->seeds);
	free(r->text);
	memset(r, 0, sizeof(*r));
}
