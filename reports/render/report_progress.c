// SPDX-License-Identifier: MIT
/*
 * `dmafuzz report --progress DIR`: where a running campaign stands, one
 * line per fuzz target, for the progress lines of the campaign scripts
 * (tools/fuzz.sh, tools/nightly.sh), so that they read no fuzzer_stats
 * of their own. The instances are the report's (report_campaign.c); the
 * counts are of the files in their queue, crashes and hangs directories,
 * which afl-fuzz fills as it goes, while fuzzer_stats is rewritten about
 * once a minute without its UI: until then the newest file name's
 * "time:" and "execs:" give the execs, marked "~".
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render_int.h"

/* What the files of a target's instances say. */
struct standing {
	size_t ninst;
	size_t corpus;                    /* the main (or default) queue's */
	bool has_main;
	size_t crashes;
	size_t hangs;
	double named_ms;                  /* the newest file's time: (ms) */
	double named_execs;               /* ... and its execs: */
};

/* The "time:MS" and "execs:N" of an AFL++ file name into @s when newer. */
static void name_point(const char *name, struct standing *s)
{
	const char *t = strstr(name, ",time:"), *e = strstr(name, ",execs:");
	double ms, n;

	if (!t || !e)
		return;
	ms = strtod(t + 6, NULL);
	n = strtod(e + 7, NULL);
	if (ms > s->named_ms) {
		s->named_ms = ms;
		s->named_execs = n;
	}
}

/* The files named id:* of one directory. */
struct ids {
	struct standing *s;               /* their name points go here */
	size_t n;
};

static int count_id(const char *path, const char *name, void *arg)
{
	struct ids *ids = arg;

	(void)path;
	if (!strncmp(name, "id:", 3)) {
		ids->n++;
		name_point(name, ids->s);
	}
	return 0;
}

/* Files named id:* in @dir; their name points into @s. */
static size_t count_ids(const char *dir, struct standing *s)
{
	struct ids ids = { s, 0 };

	dfz__dir_each(dir, count_id, &ids, NULL);
	return ids.n;
}

/* A crashes* or hangs* directory of an instance: its files into @arg. */
static int count_finds(const char *path, const char *name, void *arg)
{
	struct standing *s = arg;
	bool crash = !strncmp(name, "crashes", 7);

	if (crash || !strncmp(name, "hangs", 5))
		*(crash ? &s->crashes : &s->hangs) += count_ids(path, s);
	return 0;
}

/* The queue, crashes* and hangs* of instance @in (under @root) into @s. */
static void count_instance(const char *root, const struct dfz__inst *in,
			   struct standing *s)
{
	const char *base = strrchr(in->name, '/');
	char dir[4096], sub[4400];
	size_t queue;

	if (!dfz__path(dir, sizeof(dir), "%s/%s", root, in->name))
		return;
	base = base ? base + 1 : in->name;
	snprintf(sub, sizeof(sub), "%s/queue", dir);
	queue = count_ids(sub, s);
	if (!strcmp(base, "main") || !strcmp(base, "default")) {
		s->corpus = queue;
		s->has_main = true;
	} else if (!s->has_main && queue > s->corpus) {
		s->corpus = queue;
	}
	dfz__dir_each(dir, count_finds, s, NULL);
}

static void print_target(const struct dfz__campaign *c, int k, FILE *out)
{
	struct standing s = { 0 };
	struct dfz__totals t;
	char a[32], b[32], d[32];

	for (size_t i = 0; i < c->ninst; i++)
		if ((int)c->inst[i].target == k) {
			s.ninst++;
			count_instance(c->dir, &c->inst[i], &s);
		}
	if (!s.ninst)
		return;
	dfz__totals_of(c, k, &t);
	fprintf(out, "%s: corpus %-5zu crashes %-3zu hangs %-3zu execs ",
		dfz__target_names()[k], s.corpus, s.crashes, s.hangs);
	if (t.execs_per_sec >= 0)
		fprintf(out, "%s (%s/s) at %ss\n",
			dfz__fmt_num(t.execs_done, a, sizeof(a)),
			dfz__fmt_num(t.execs_per_sec, b, sizeof(b)),
			dfz__fmt_num(t.run_time, d, sizeof(d)));
	else if (s.named_ms >= 1000)
		fprintf(out, "~%.0f (~%.0f/s) at ~%.0fs\n", s.named_execs,
			floor(s.named_execs * 1000 / s.named_ms),
			floor(s.named_ms / 1000));
	else
		fputs("-\n", out);
}

int dfz_report_progress(const char *dir, FILE *out, char *err, size_t errlen)
{
	struct dfz__campaign c = { .dir = dir };   /* progress line off */
	int rc;

	err[0] = 0;
	rc = dfz__campaign_read(&c, err, errlen);
	for (int k = 0; rc == 0 && k < DFZ__TARGETS; k++)
		print_target(&c, k, out);
	dfz__campaign_fini(&c);
	return rc;
}
