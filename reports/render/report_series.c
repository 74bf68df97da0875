// SPDX-License-Identifier: MIT
/*
 * Coverage and execution speed over time when plot_data cannot say:
 * afl-fuzz writes no plot_data row in its first minute, so a short
 * campaign (`make fuzz`) has one row, written at its end. Two other
 * sources are read instead:
 *
 * - coverage_data, written into the instance directory by the campaign
 *   scripts (tools/fuzz-lib.sh): afl-showmap replays every queue entry,
 *   and each row is an entry's time and the edges of all entries up to
 *   it ("SECONDS EDGES", '#' lines are comments);
 * - the "time:MS,execs:N" of the queue, crash and hang file names: the
 *   executions done when each entry was saved, from which the rate
 *   between entries at least a second apart is taken.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "render_int.h"

#define MAX_COV_BYTES (16u << 20)
#define MAX_POINTS 1000000u
#define RATE_SPAN 1.0                 /* seconds a rate is taken over */

/* A growing list of (x, y) points. */
struct points {
	double *x;
	double *y;
	size_t n;
	size_t cap;
};

static int points_add(struct points *p, double x, double y)
{
	size_t cx = p->cap, cy = p->cap;

	if (p->n == MAX_POINTS)
		return 0;
	/* Both grow from the same capacity; an x that grew alone is only
	 * larger. */
	if (dfz__grow(&p->x, &cx, p->n, sizeof(*p->x), 64) ||
	    dfz__grow(&p->y, &cy, p->n, sizeof(*p->y), 64))
		return DFZ_ENOMEM;
	p->cap = cx;
	p->x[p->n] = x;
	p->y[p->n] = y;
	p->n++;
	return 0;
}

static void points_free(struct points *p)
{
	free(p->x);
	free(p->y);
	memset(p, 0, sizeof(*p));
}

/* Call after @in's fuzzer_stats is read: edges hold to its run time. */
int dfz__read_coverage(struct dfz__inst *in, const char *dir)
{
	struct points p = { 0 };
	char path[4096], *text, *line, *save = NULL;
	int rc = 0;

	if (!dfz__path(path, sizeof(path), "%s/coverage_data", dir))
		return 0;
	text = dfz__read_file(path, MAX_COV_BYTES, NULL, NULL);
	if (!text)
		return errno == ENOMEM ? DFZ_ENOMEM : 0;
	for (line = strtok_r(text, "\n", &save); line && rc == 0;
	     line = strtok_r(NULL, "\n", &save)) {
		char *end;
		double t, e;

		if (line[0] == '#')
			continue;
		t = strtod(line, &end);
		if (end == line)
			continue;
		e = strtod(end, &line);
		if (line == end || t < 0 || e < 0)
			continue;             /* a malformed row costs itself */
		rc = points_add(&p, t, e);
	}
	free(text);
	/* Edges hold until the run ends. */
	if (rc == 0 && p.n && in->run_time > p.x[p.n - 1])
		rc = points_add(&p, in->run_time, p.y[p.n - 1]);
	if (rc < 0) {
		points_free(&p);
		return rc;
	}
	in->cov_t = p.x;
	in->cov_n = p.y;
	in->ncov = p.n;
	return 0;
}

/* The (time s, execs) of an "id:" file name, added to @arg (points). */
static int name_execs(const char *path, const char *name, void *arg)
{
	const char *tm = strstr(name, ",time:");
	const char *ex = strstr(name, ",execs:");

	(void)path;
	if (strncmp(name, "id:", 3) || !tm || !ex)
		return 0;
	return points_add(arg, strtod(tm + 6, NULL) / 1000.0,
			  strtod(ex + 7, NULL));
}

static int by_x(const void *a, const void *b)
{
	const double *x = a, *y = b;

	return (x[0] > y[0]) - (x[0] < y[0]);
}

int dfz__read_rates(struct dfz__inst *in, const char *dir)
{
	static const char *const kinds[] = { "queue", "crashes", "hangs" };
	struct points at = { 0 }, rate = { 0 };
	double (*xy)[2] = NULL, t0 = 0, e0 = 0;
	char path[4096];
	int rc = 0;

	for (size_t k = 0; k < 3 && rc == 0; k++)
		if (dfz__path(path, sizeof(path), "%s/%s", dir, kinds[k]))
			rc = dfz__dir_each(path, name_execs, &at, NULL);
	if (rc == 0 && in->run_time > 0 && in->execs_done >= 0)
		rc = points_add(&at, in->run_time, in->execs_done);
	if (rc == 0 && at.n)
		xy = malloc(at.n * sizeof(*xy));
	if (rc == 0 && at.n && !xy)
		rc = DFZ_ENOMEM;
	for (size_t i = 0; rc == 0 && i < at.n; i++) {
		xy[i][0] = at.x[i];
		xy[i][1] = at.y[i];
	}
	if (xy)
		qsort(xy, at.n, sizeof(*xy), by_x);
	for (size_t i = 0; rc == 0 && i < at.n; i++) {
		double dt = xy[i][0] - t0;

		if (dt < RATE_SPAN || xy[i][1] < e0)
			continue;
		rc = points_add(&rate, xy[i][0], (xy[i][1] - e0) / dt);
		t0 = xy[i][0];
		e0 = xy[i][1];
	}
	free(xy);
	points_free(&at);
	if (rc < 0) {
		points_free(&rate);
		return rc;
	}
	in->rate_t = rate.x;
	in->rate_v = rate.y;
	in->nrate = rate.n;
	return 0;
}
