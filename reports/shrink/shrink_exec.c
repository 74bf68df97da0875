// SPDX-License-Identifier: MIT
/*
 * `dmafuzz min --exec`: shrink the schedule of a drop-in test binary (the
 * user's code under the engines, include/dmafuzz/dropin.h). The binary
 * replays a candidate schedule file and prints its verdict as JSON; a
 * candidate is kept when it is shortlex-smaller and its finding has the
 * input's class and site (the user's file:line). The schedule is a choice
 * stream, so the passes are the byte-level ones of the plan shrinker:
 * shorter prefixes, deleted spans, zeroed and lowered bytes, until none
 * helps. Deterministic: the same binary and input give the same bytes
 * (but for a time limit that cuts the work short). Triage also keeps the
 * earlier call the finding conflicts with (its prior site).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "shrink_int.h"

#define OUT_MAX 8192
#define RUN_MS 20000

struct xshrink {
	const char *bin;
	char path[64];                   /* the candidate file */
	char want_cls[32];
	char want_site[160];
	char want_prior[160];            /* kept only with keep_prior */
	bool keep_prior;
	uint8_t *best;
	size_t n;
	uint8_t *cand;
	uint64_t runs;
	uint64_t max_runs;
	double deadline;                 /* dfz__now() seconds; 0: none */
	unsigned timeout_ms;
};

/* Whether the budget of runs (and of time, when set) is spent. */
static bool spent(const struct xshrink *x)
{
	return x->runs >= x->max_runs ||
	       (x->deadline > 0 && dfz__now() >= x->deadline);
}

/* The string value of "key" in the JSON line @out, into @v. */
static bool json_value(const char *out, const char *key, char *v, size_t cap)
{
	char pat[48];
	const char *p, *e;

	snprintf(pat, sizeof(pat), "\"%s\":\"", key);
	p = strstr(out, pat);
	if (!p)
		return false;
	p += strlen(pat);
	e = strchr(p, '"');
	if (!e || (size_t)(e - p) >= cap)
		return false;
	memcpy(v, p, (size_t)(e - p));
	v[e - p] = 0;
	return true;
}

/* "file:line" of the finding's @key ("site", "prior") in @out, or ""
 * when it has none. */
static void site_of(const char *out, const char *key, char *site, size_t cap)
{
	char pat[32];
	const char *p, *e, *l;

	snprintf(pat, sizeof(pat), "\"%s\":{\"file\":\"", key);
	p = strstr(out, pat);
	site[0] = 0;
	if (!p)
		return;
	p += strlen(pat);
	e = strchr(p, '"');
	l = e ? strstr(e, "\"line\":") : NULL;
	if (!l)
		return;
	snprintf(site, cap, "%.*s:%d", (int)(e - p), p,
		 atoi(l + strlen("\"line\":")));
}

/* Run the binary on @n bytes of @buf: the class, site and prior site of
 * its finding ("" for clean). Return 0, or a negative DFZ_E* code. */
static int run(struct xshrink *x, const uint8_t *buf, size_t n, char *cls,
	       char *site, char *prior)
{
	char *argv[] = { (char *)x->bin, "--json", x->path, NULL };
	static char out[OUT_MAX];
	struct dfz__proc p;
	int rc = dfz__write_atomic(x->path, buf, n);

	cls[0] = site[0] = prior[0] = 0;
	if (rc < 0)
		return rc;
	x->runs++;
	rc = dfz__proc_run(argv, NULL, x->timeout_ms, false, out, sizeof(out),
			   &p);
	if (rc < 0)
		return rc;
	if (p.timed_out || !WIFEXITED(p.status) || WEXITSTATUS(p.status) > 1)
		return DFZ_EINVAL;
	if (json_value(out, "class", cls, 32)) {
		site_of(out, "site", site, 160);
		site_of(out, "prior", prior, 160);
	}
	return 0;
}

static bool shortlex_less(const uint8_t *a, size_t na, const uint8_t *b,
			  size_t nb)
{
	return na != nb ? na < nb : memcmp(a, b, na) < 0;
}

/* Keep @cand (@n bytes) when it is smaller and has the same finding. */
static bool try_cand(struct xshrink *x, size_t n)
{
	char cls[32], site[160], prior[160];

	if (spent(x) || !shortlex_less(x->cand, n, x->best, x->n))
		return false;
	if (run(x, x->cand, n, cls, site, prior) < 0 ||
	    strcmp(cls, x->want_cls) || strcmp(site, x->want_site) ||
	    (x->keep_prior && strcmp(prior, x->want_prior)))
		return false;
	memcpy(x->best, x->cand, n);
	x->n = n;
	return true;
}

/* The shortest prefix that keeps the finding (a bisection). */
static bool pass_prefix(struct xshrink *x)
{
	size_t lo = 0, hi = x->n;
	bool any = false;

	while (lo < hi && !spent(x)) {
		size_t mid = lo + (hi - lo) / 2;

		memcpy(x->cand, x->best, mid);
		if (try_cand(x, mid)) {
			hi = mid;
			any = true;
		} else {
			lo = mid + 1;
		}
	}
	return any;
}

static bool pass_delete(struct xshrink *x, size_t k)
{
	bool any = false;

	for (size_t at = x->n >= k ? x->n - k + 1 : 0; at-- > 0;) {
		if (at + k > x->n)
			continue;
		memcpy(x->cand, x->best, at);
		memcpy(x->cand + at, x->best + at + k, x->n - at - k);
		any |= try_cand(x, x->n - k);
	}
	return any;
}

/* Each byte lowered as far as it keeps the finding (0 first). */
static bool pass_lower(struct xshrink *x)
{
	bool any = false;

	for (size_t at = 0; at < x->n; at++) {
		unsigned lo = 0, hi = x->best[at];

		while (lo < hi && !spent(x)) {
			unsigned mid = lo + (hi - lo) / 2;

			memcpy(x->cand, x->best, x->n);
			x->cand[at] = (uint8_t)mid;
			if (try_cand(x, x->n)) {
				hi = mid;
				any = true;
			} else {
				lo = mid + 1;
			}
		}
	}
	return any;
}

static int start(struct xshrink *x, const uint8_t *buf, size_t n)
{
	char tmpl[] = "/tmp/dfz-min-XXXXXX";
	int fd = mkstemp(tmpl);

	if (fd < 0)
		return dfz_err_from_errno(errno);
	close(fd);
	snprintf(x->path, sizeof(x->path), "%s", tmpl);
	x->best = malloc(n + 1);
	x->cand = malloc(n + 1);
	if (!x->best || !x->cand)
		return DFZ_ENOMEM;
	memcpy(x->best, buf, n);
	x->n = n;
	return run(x, buf, n, x->want_cls, x->want_site, x->want_prior);
}

int dfz_minimize_exec(const char *bin, const uint8_t *buf, size_t n,
		      uint64_t max_runs, struct dfz_min_exec_result *out)
{
	struct dfz_min_exec_config cfg = { .max_runs = max_runs };

	return dfz_minimize_exec_with(bin, buf, n, &cfg, out);
}

int dfz_minimize_exec_with(const char *bin, const uint8_t *buf, size_t n,
			   const struct dfz_min_exec_config *cfg,
			   struct dfz_min_exec_result *out)
{
	struct xshrink x = {
		.bin = bin, .keep_prior = cfg->keep_prior,
		.max_runs = cfg->max_runs ? cfg->max_runs : DFZ_MIN_RUNS,
		.deadline = cfg->max_seconds > 0 ? dfz__now() +
			    cfg->max_seconds : 0,
		.timeout_ms = cfg->timeout_ms ? cfg->timeout_ms : RUN_MS,
	};
	int rc = start(&x, buf, n);
	bool more = true;

	memset(out, 0, sizeof(*out));
	out->n_in = n;
	if (rc == 0 && !x.want_cls[0])
		rc = DFZ_ENOENT;
	while (rc == 0 && more && !spent(&x)) {
		more = pass_prefix(&x);
		for (size_t k = 8; k > 0; k /= 2)
			more |= pass_delete(&x, k);
		more |= pass_lower(&x);
	}
	if (x.path[0])
		unlink(x.path);
	free(x.cand);
	if (rc < 0) {
		free(x.best);
		return rc;
	}
	out->buf = x.best;
	out->n = x.n;
	out->runs = x.runs;
	snprintf(out->cls, sizeof(out->cls), "%s", x.want_cls);
	snprintf(out->site, sizeof(out->site), "%s", x.want_site);
	snprintf(out->prior, sizeof(out->prior), "%s", x.want_prior);
	return 0;
}

void dfz_min_exec_result_fini(struct dfz_min_exec_result *r)
{
	if (!r)
		return;
	free(r->buf);
	r->buf = NULL;
}
