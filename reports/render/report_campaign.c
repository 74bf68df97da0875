// SPDX-License-Identifier: MIT
/*
 * The campaign side of a report: every AFL++ instance under a campaign
 * directory (a directory holding a fuzzer_stats file), its statistics and
 * its plot_data time series. The plot_data columns are found by the names
 * in its header line, not by position: AFL++ versions differ (relative_time
 * or unix_time, saved_crashes or unique_crashes, edges_found only since
 * 4.0). A plot_data that cannot be read costs its plots, not the report.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "render_int.h"

#define WALK_DEPTH 8                  /* directories below the campaign */
#define MAX_INSTANCES 256
#define MAX_PLOT_ROWS 1000000u
#define MAX_STATS_BYTES (1u << 20)
#define MAX_PLOT_BYTES (64u << 20)

struct found {
	char **paths;                     /* relative to the campaign dir */
	size_t n;
	size_t cap;
};

static int found_add(struct found *fd, const char *rel)
{
	if (dfz__grow(&fd->paths, &fd->cap, fd->n, sizeof(*fd->paths), 16))
		return DFZ_ENOMEM;
	fd->paths[fd->n] = strdup(rel);
	return fd->paths[fd->n++] ? 0 : DFZ_ENOMEM;
}

/* Subdirectories of an instance or a triage output: never instances. */
static bool skip_dir(const char *name)
{
	static const char *const skip[] = {
		"queue", "crashes", "hangs", ".state", ".synced", "triage",
		"inputs", "buckets",
	};

	if (name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2])))
		return true;
	for (size_t i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (!strcmp(name, skip[i]))
			return true;
	return false;
}

static bool is_file(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Where walk() is: the campaign dir, a dir under it, how deep. */
struct walk {
	const char *root;
	const char *rel;
	unsigned depth;
	struct found *fd;
};

static int walk(const char *root, const char *rel, unsigned depth,
		struct found *fd);

/* One entry of a walked dir: a subdir (not a symlink) is walked in turn. */
static int walk_entry(const char *path, const char *name, void *arg)
{
	const struct walk *w = arg;
	char sub[4096];
	struct stat st;

	if (skip_dir(name) || lstat(path, &st) < 0 || !S_ISDIR(st.st_mode) ||
	    !dfz__path(sub, sizeof(sub), "%s%s%s", w->rel, *w->rel ? "/" : "",
		       name))
		return 0;
	return walk(w->root, sub, w->depth + 1, w->fd);
}

/* Collect the dirs under @root/@rel holding a fuzzer_stats (symlinks are
 * not followed; an instance's own subdirs are not searched). */
static int walk(const char *root, const char *rel, unsigned depth,
		struct found *fd)
{
	struct walk w = { root, rel, depth, fd };
	char path[4096];

	if (!dfz__path(path, sizeof(path), "%s%s%s/fuzzer_stats", root,
		       *rel ? "/" : "", rel))
		return 0;
	if (is_file(path))
		return fd->n < MAX_INSTANCES ? found_add(fd, *rel ? rel : ".")
					     : 0;
	if (depth >= WALK_DEPTH)
		return 0;
	snprintf(path, sizeof(path), "%s%s%s", root, *rel ? "/" : "", rel);
	return dfz__dir_each(path, walk_entry, &w, NULL);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A number, with an optional '%' after it; -1 when there is none. */
static double stat_num(const char *s)
{
	char *end;
	double v;

	while (*s == ' ' || *s == '\t')
		s++;
	v = strtod(s, &end);
	if (end == s)
		return -1;
	return v;
}

/* The power schedule (-p) and cmplog (-c) of @in from its command line. */
static void command_line(struct dfz__inst *in, const char *cmd)
{
	const char *p = strstr(cmd, " -p ");

	in->schedule[0] = 0;
	if (p) {
		p += 4;
		snprintf(in->schedule, sizeof(in->schedule), "%.*s",
			 (int)strspn(p, "abcdefghijklmnopqrstuvwxyz"), p);
	}
	in->cmplog = strstr(cmd, " -c ") != NULL;
}

/* One "key : value" line of fuzzer_stats into @in. */
static void stat_line(struct dfz__inst *in, const char *key, const char *val)
{
	static const struct {
		const char *key;
		size_t off;
	} nums[] = {
#define F(k, m) { k, offsetof(struct dfz__inst, m) }
		F("run_time", run_time),       F("execs_done", execs_done),
		F("execs_per_sec", execs_per_sec),
		F("corpus_count", corpus_count), F("paths_total", corpus_count),
		F("saved_crashes", saved_crashes),
		F("unique_crashes", saved_crashes),
		F("saved_hangs", saved_hangs), F("unique_hangs", saved_hangs),
		F("edges_found", edges_found), F("total_edges", total_edges),
		F("bitmap_cvg", bitmap_cvg),   F("stability", stability),
		F("cycles_done", cycles_done),
#undef F
	};

	if (!strcmp(key, "afl_version")) {
		snprintf(in->afl_version, sizeof(in->afl_version), "%s", val);
		return;
	}
	if (!strcmp(key, "command_line")) {
		command_line(in, val);
		return;
	}
	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++)
		if (!strcmp(key, nums[i].key))
			*(double *)((char *)in + nums[i].off) = stat_num(val);
}

/* fuzzer_stats of @in (at @dir). Old versions have no run_time: it is
 * last_update - start_time then. */
static int read_stats(struct dfz__inst *in, const char *dir)
{
	char path[4096], *text, *save = NULL;
	double start = -1, last = -1;

	if (!dfz__path(path, sizeof(path), "%s/fuzzer_stats", dir))
		return DFZ_EINVAL;
	text = dfz__read_file(path, MAX_STATS_BYTES, NULL, NULL);
	if (!text)
		return dfz_err_from_errno(errno);
	for (char *l = strtok_r(text, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(l, ':'), *k = l, *v;
		size_t kl;

		if (!colon)
			continue;
		v = colon + 1;
		while (*v == ' ')
			v++;
		for (kl = (size_t)(colon - k); kl && k[kl - 1] == ' '; kl--)
			;
		k[kl] = 0;
		v[strcspn(v, "\r")] = 0;
		for (size_t e = strlen(v); e && v[e - 1] == ' '; e--)
			v[e - 1] = 0;
		stat_line(in, k, v);
		if (!strcmp(k, "start_time"))
			start = stat_num(v);
		else if (!strcmp(k, "last_update"))
			last = stat_num(v);
	}
	if (in->run_time < 0 && start >= 0 && last >= start)
		in->run_time = last - start;
	/* Not afl-fuzz's own execs_per_sec: "inf" when the instance's clock
	 * has not moved (stats written in its first millisecond, or by two
	 * afl-fuzz on one directory). Whole execs over whole seconds. */
	in->execs_per_sec = -1;
	if (in->execs_done >= 0 && in->run_time >= 1 &&
	    isfinite(in->execs_done) && isfinite(in->run_time))
		in->execs_per_sec = floor(in->execs_done / in->run_time);
	free(text);
	return 0;
}

static int series_push(struct dfz__series *s, const double v[5])
{
	double **cols[5] = { &s->t, &s->edges, &s->map, &s->eps, &s->finds };
	size_t cap = s->cap;

	/* Every column grows from the same capacity; s->cap moves once all
	 * did (a column that grew alone is only larger). */
	for (int i = 0; i < 5; i++) {
		cap = s->cap;
		if (dfz__grow(cols[i], &cap, s->n, sizeof(double), 256))
			return DFZ_ENOMEM;
	}
	s->cap = cap;
	for (int i = 0; i < 5; i++)
		(*cols[i])[s->n] = v[i];
	s->n++;
	return 0;
}

/* The columns a plot draws, by header name; -1 when absent. */
struct columns {
	int time;
	bool unix_time;
	int edges;
	int map;
	int eps;
	int crashes;
	int hangs;
	int count;
};

static int column_of(const char *name)
{
	static const char *const names[] = {
		"relative_time", "unix_time", "edges_found", "map_size",
		"execs_per_sec", "saved_crashes", "unique_crashes",
		"saved_hangs", "unique_hangs",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return (int)i;
	return -1;
}

static bool parse_header(char *line, struct columns *c)
{
	char *save = NULL;
	int i = 0;

	memset(c, -1, sizeof(*c));
	c->unix_time = false;
	for (char *p = strtok_r(line + 1, ",", &save); p;
	     p = strtok_r(NULL, ",", &save), i++) {
		int *slot[] = { &c->time, &c->time, &c->edges, &c->map,
				&c->eps, &c->crashes, &c->crashes, &c->hangs,
				&c->hangs };
		int k;

		p += strspn(p, " \t");
		p[strcspn(p, " \t\r")] = 0;
		k = column_of(p);
		if (k >= 0)
			*slot[k] = i;
		if (k == 1)
			c->unix_time = true;
	}
	c->count = i;
	return c->time >= 0 && c->eps >= 0 && (c->edges >= 0 || c->map >= 0);
}

/* One data row into @v (t, edges, map, eps, finds); false if malformed. */
static bool parse_row(char *line, const struct columns *c, double v[5])
{
	double cell[64] = { 0 };
	char *save = NULL;
	int i = 0;

	for (char *p = strtok_r(line, ",", &save); p;
	     p = strtok_r(NULL, ",", &save), i++) {
		char *end;

		if (i >= 64)
			return false;
		cell[i] = strtod(p, &end);
		if (end == p || !isfinite(cell[i]))  /* "inf", "nan" */
			return false;
		end += strspn(end, "% \t\r");
		if (*end)
			return false;
	}
	if (i != c->count)
		return false;
	v[0] = cell[c->time];
	v[1] = c->edges >= 0 ? cell[c->edges] : -1;
	v[2] = c->map >= 0 ? cell[c->map] : -1;
	v[3] = cell[c->eps];
	v[4] = (c->crashes >= 0 ? cell[c->crashes] : 0) +
	       (c->hangs >= 0 ? cell[c->hangs] : 0);
	return true;
}

static int parse_plot(struct dfz__inst *in, char *text)
{
	char *save = NULL, *line = strtok_r(text, "\n", &save);
	size_t bad = 0;
	struct columns c;
	double t0 = 0;

	if (!line || line[0] != '#' || !parse_header(line, &c)) {
		snprintf(in->plot_note, sizeof(in->plot_note),
			 "plot_data has no header naming its columns");
		return 0;
	}
	in->has_edges = c.edges >= 0;
	while ((line = strtok_r(NULL, "\n", &save)) &&
	       in->s.n < MAX_PLOT_ROWS) {
		double v[5];

		if (line[0] == '#')
			continue;
		if (!parse_row(line, &c, v)) {
			bad++;
			continue;
		}
		if (c.unix_time && in->s.n == 0)
			t0 = v[0];
		v[0] -= t0;
		if (series_push(&in->s, v) < 0)
			return DFZ_ENOMEM;
	}
	in->has_plot = true;
	if (bad)
		snprintf(in->plot_note, sizeof(in->plot_note),
			 "%zu malformed plot_data row(s) skipped", bad);
	return 0;
}

static int read_plot(struct dfz__inst *in, const char *dir)
{
	char path[4096], *text;
	bool cut;
	int rc;

	if (!dfz__path(path, sizeof(path), "%s/plot_data", dir))
		return DFZ_ENOENT;
	text = dfz__read_file(path, MAX_PLOT_BYTES, NULL, &cut);
	if (!text) {
		if (errno == ENOMEM)
			return DFZ_ENOMEM;
		snprintf(in->plot_note, sizeof(in->plot_note),
			 "no plot_data");
		return 0;
	}
	rc = parse_plot(in, text);
	free(text);
	return rc;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The times of read_steps(), as finding_times() collects them. */
struct times {
	double *t;                        /* seconds */
	size_t n;
	size_t cap;
	bool untimed;                     /* a name without "time:" */
};

/* The "time:MS" of one AFL++ crash, hang or queue file name into @arg. */
static int finding_time(const char *path, const char *name, void *arg)
{
	struct times *ts = arg;
	const char *tm = strstr(name, ",time:");

	(void)path;
	if (ts->n >= MAX_PLOT_ROWS || strncmp(name, "id:", 3))
		return 0;
	if (!tm) {
		ts->untimed = true;
		return 0;
	}
	if (dfz__grow(&ts->t, &ts->cap, ts->n, sizeof(*ts->t), 64))
		return DFZ_ENOMEM;
	ts->t[ts->n++] = strtod(tm + 6, NULL) / 1000.0;
	return 0;
}

/*
 * A step line of how many files named "id:...,time:MS,..." the subdirs
 * @kinds of @dir held over time, from 0 at 0 to @end (or the last file).
 * Nothing (*@np 0) when no such subdir exists or a name lacks its time
 * (old AFL++ versions).
 */
static int read_steps(const char *dir, const char *const *kinds, int nkinds,
		      double end, double **xs, double **ys, size_t *np)
{
	struct times ts = { 0 };
	bool seen = false, opened;
	size_t n;
	double *t;
	char path[4096];
	int rc = 0;

	for (int k = 0; k < nkinds && rc == 0; k++)
		if (dfz__path(path, sizeof(path), "%s/%s", dir, kinds[k])) {
			rc = dfz__dir_each(path, finding_time, &ts, &opened);
			seen = seen || opened;
		}
	n = ts.n;
	t = ts.t;
	if (rc < 0 || ts.untimed || !seen)
		goto out_free;
	if (n > 0)                        /* qsort(NULL, 0) is undefined */
		qsort(t, n, sizeof(*t), cmp_double);
	*xs = malloc((2 * n + 2) * sizeof(double));
	*ys = malloc((2 * n + 2) * sizeof(double));
	if (!*xs || !*ys) {
		rc = DFZ_ENOMEM;
		goto out_free;
	}
	(*xs)[0] = (*ys)[0] = 0;
	for (size_t i = 0; i < n; i++) {
		(*xs)[2 * i + 1] = (*xs)[2 * i + 2] = t[i];
		(*ys)[2 * i + 1] = (double)i;
		(*ys)[2 * i + 2] = (double)i + 1;
	}
	(*xs)[2 * n + 1] = n && t[n - 1] > end ? t[n - 1] : end;
	(*ys)[2 * n + 1] = (double)n;
	*np = 2 * n + 2;
out_free:
	free(t);
	return rc;
}

/* The findings and corpus step lines of @in: from the crashes/, hangs/
 * and queue/ file names, more precise than plot_data's rows. */
static int read_finds(struct dfz__inst *in, const char *dir)
{
	static const char *const finds[] = { "crashes", "hangs" };
	static const char *const corpus[] = { "queue" };
	double end = in->run_time > 0 ? in->run_time : 0;
	int rc;

	if (in->s.n && in->s.t[in->s.n - 1] > end)
		end = in->s.t[in->s.n - 1];
	rc = read_steps(dir, finds, 2, end, &in->find_t, &in->find_n,
			&in->nfind);
	if (rc == 0)
		rc = read_steps(dir, corpus, 1, end, &in->corpus_t,
				&in->corpus_n, &in->ncorpus);
	return rc;
}

static int read_instance(struct dfz__inst *in, const char *root,
			 const char *rel)
{
	char dir[4096];
	int rc;

	in->run_time = in->execs_done = in->execs_per_sec = -1;
	in->corpus_count = in->saved_crashes = in->saved_hangs = -1;
	in->edges_found = in->total_edges = in->bitmap_cvg = -1;
	in->stability = in->cycles_done = -1;
	in->name = strdup(rel);
	if (!in->name)
		return DFZ_ENOMEM;
	/* A drop-in campaign's instances: afl/<test>/<instance>. */
	if (!strncmp(rel, "afl/", 4) && strchr(rel + 4, '/'))
		snprintf(in->test, sizeof(in->test), "%.*s",
			 (int)strcspn(rel + 4, "/"), rel + 4);
	if (!dfz__path(dir, sizeof(dir), "%s/%s", root, rel))
		return DFZ_ENOENT;
	/* The campaign dir's own components count too. */
	in->target = dfz__target_of(dir);
	rc = read_stats(in, dir);
	if (rc == 0)
		rc = read_plot(in, dir);
	if (rc == 0)
		rc = read_finds(in, dir);
	if (rc == 0 && in->s.n < 2)
		rc = dfz__read_coverage(in, dir);
	if (rc == 0 && in->s.n < 2)
		rc = dfz__read_rates(in, dir);
	return rc;
}

int dfz__campaign_read(struct dfz__campaign *c, char *err, size_t errlen)
{
	struct found fd = { 0 };
	struct stat st;
	int rc;

	if (stat(c->dir, &st) < 0) {
		snprintf(err, errlen, "campaign directory '%s': %s", c->dir,
			 strerror(errno));
		return dfz_err_from_errno(errno);
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "campaign directory '%s': not a "
			 "directory", c->dir);
		return DFZ_ENOTDIR;
	}
	rc = walk(c->dir, "", 0, &fd);
	if (rc == 0 && fd.n) {
		qsort(fd.paths, fd.n, sizeof(*fd.paths), cmp_str);
		c->inst = calloc(fd.n, sizeof(*c->inst));
		rc = c->inst ? 0 : DFZ_ENOMEM;
	}
	for (size_t i = 0; rc == 0 && i < fd.n; i++, c->ninst++) {
		dfz__progress_show(&c->progress, i == 0, "report: reading "
				   "instance %zu/%zu", i + 1, fd.n);
		rc = read_instance(&c->inst[i], c->dir, fd.paths[i]);
	}
	if (rc < 0 && rc != DFZ_ENOMEM && c->ninst)
		snprintf(err, errlen, "%s/%s/fuzzer_stats: unreadable (%s)",
			 c->dir, fd.paths[c->ninst - 1], dfz_strerror(rc));
	else if (rc < 0)
		snprintf(err, errlen, "reading the campaign: %s",
			 dfz_strerror(rc));
	for (size_t i = 0; i < fd.n; i++)
		free(fd.paths[i]);
	free(fd.paths);
	return rc;
}

void dfz__totals_of(const struct dfz__campaign *c, int target,
		    struct dfz__totals *t)
{
	memset(t, 0, sizeof(*t));
	t->execs_per_sec = -1;
	for (size_t i = 0; i < c->ninst; i++) {
		const struct dfz__inst *in = &c->inst[i];

		if (target >= 0 && in->target != (unsigned)target)
			continue;
		t->ninst++;
		if (in->run_time > t->run_time)
			t->run_time = in->run_time;
		t->execs_done += in->execs_done > 0 ? in->execs_done : 0;
		if (in->execs_per_sec >= 0)   /* a sum of the known rates */
			t->execs_per_sec = fmax(t->execs_per_sec, 0) +
					   in->execs_per_sec;
		if (in->corpus_count > t->corpus_count)
			t->corpus_count = in->corpus_count;
		if (in->edges_found > t->edges_found)
			t->edges_found = in->edges_found;
		t->saved_crashes += in->saved_crashes > 0 ? in->saved_crashes : 0;
		t->saved_hangs += in->saved_hangs > 0 ? in->saved_hangs : 0;
	}
}

void dfz__totals_one(const struct dfz__inst *in, struct dfz__totals *t)
{
	*t = (struct dfz__totals){
		.ninst = 1, .run_time = in->run_time,
		.execs_done = in->execs_done,
		.execs_per_sec = in->execs_per_sec,
		.corpus_count = in->corpus_count,
		.edges_found = in->edges_found,
		.saved_crashes = in->saved_crashes,
		.saved_hangs = in->saved_hangs,
	};
}

static void inst_fini(struct dfz__inst *in)
{
	free(in->name);
	free(in->s.t);
	free(in->s.edges);
	free(in->s.map);
	free(in->s.eps);
	free(in->s.finds);
	free(in->find_t);
	free(in->find_n);
	free(in->corpus_t);
	free(in->corpus_n);
	free(in->cov_t);
	free(in->cov_n);
	free(in->rate_t);
	free(in->rate_v);
}

void dfz__campaign_fini(struct dfz__campaign *c)
{
	for (size_t i = 0; i < c->ninst; i++)
		inst_fini(&c->inst[i]);
	free(c->inst);
	c->inst = NULL;
	c->ninst = 0;
	dfz_json_free(c->tr.root);
	for (size_t i = 0; i < c->tr.nb; i++) {
		free(c->tr.b[i].plan_text);
		free(c->tr.b[i].c_text);
		free(c->tr.b[i].verdict_text);
		free(c->tr.b[i].disasm_text);
	}
	free(c->tr.b);
	free(c->tr.path);
	free(c->tr.base);
	free(c->tr.base_abs);
	free(c->out_abs);
	free(c->srcroot_abs);
	c->srcroot_abs = NULL;
	memset(&c->tr, 0, sizeof(c->tr));
	dfz__run_fini(&c->run);
}
