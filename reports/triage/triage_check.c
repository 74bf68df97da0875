// SPDX-License-Identifier: MIT
/*
 * A drop-in bucket settled (triage_dropin.c): its smallest input shrunk
 * by the `min --exec` shrinker (dfz_minimize_exec_with(), keeping the
 * class, the site and the prior site), written as buckets/<id>/repro.bin
 * with the binary's verdicts on it (verdict.txt as a person reads it,
 * verdict.json as triage read it), then replayed by the checkers: under
 * valgrind memcheck (valgrind.txt) and by the test's ASan build
 * (asan.txt), each verdict kept for triage.json. A fixed bucket keeps the
 * previous triage's reproducer as it was and is not shrunk or checked.
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

#define CHECK_OUT (256u << 10)        /* a checker's output kept */
#define VG_EXIT 99                    /* memcheck's exit on an error */

/* @prog found on $PATH (or as given when it has a '/'), into @buf. */
static bool find_program(const char *prog, char *buf, size_t len)
{
	const char *path = getenv("PATH");

	if (strchr(prog, '/')) {
		snprintf(buf, len, "%s", prog);
		return access(buf, X_OK) == 0;
	}
	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t k = strcspn(p, ":");

		if (k && (size_t)snprintf(buf, len, "%.*s/%s", (int)k, p, prog) <
		    len && access(buf, X_OK) == 0)
			return true;
		p += k + (p[k] == ':');
	}
	return false;
}

/* Run @argv with @env, its output (with standard error) into @path and
 * a copy in *@text (malloc'ed, caller frees). Return: 0, DFZ_ENOMEM, or
 * a write error. */
static int run_to(char *const argv[], char *const env[], unsigned ms,
		  const char *path, char **text, struct dfz__proc *res)
{
	int rc;

	*text = malloc(CHECK_OUT);
	if (!*text)
		return DFZ_ENOMEM;
	rc = dfz__proc_run(argv, env, ms, true, *text, CHECK_OUT, res);
	if (rc == 0)
		rc = dfz__write_atomic(path, *text, res->n);
	return rc;
}

/* The text after "==PID== " of the first memcheck error line of @text,
 * with the first "at" frame after it. */
static void vg_first_error(const char *text, char *buf, size_t len)
{
	const char *p = strstr(text, "== "), *at;
	size_t k;

	while (p && (p[3] == ' ' || p[3] == '\n'))
		p = strstr(p + 3, "== ");
	if (!p) {
		snprintf(buf, len, "memcheck error (no error line)");
		return;
	}
	p += 3;
	k = strcspn(p, "\n");
	at = strstr(p, ": ");
	at = at && (size_t)(at - p) > k ? at : NULL;
	snprintf(buf, len, "%.*s", (int)(k < 160 ? k : 160), p);
	if (at && strchr(at, '(')) {
		at += 2;
		snprintf(buf + strlen(buf), len - strlen(buf), " in %.*s",
			 (int)strcspn(at, "\n"), at);
	}
}

/* The drop-in's own verdict in a checker's output, as the detail. */
static void own_verdict(const char *text, struct dfz__check *c)
{
	const char *cls = strstr(text, "\"class\":\"");

	if (!cls) {
		snprintf(c->detail, sizeof(c->detail), "%s", strstr(text,
			 "\"verdict\":\"clean\"") ? "the drop-in's verdict: "
			 "clean" : "no drop-in verdict");
		return;
	}
	cls += 9;
	snprintf(c->detail, sizeof(c->detail), "the drop-in's verdict: %.*s",
		 (int)strcspn(cls, "\""), cls);
}

static void checked(const struct dfz__proc *res, unsigned ms,
		    struct dfz__check *c)
{
	if (res->timed_out) {
		snprintf(c->verdict, sizeof(c->verdict), "timeout");
		snprintf(c->detail, sizeof(c->detail), "no exit within %u ms",
			 ms);
	} else if (WIFSIGNALED(res->status)) {
		snprintf(c->verdict, sizeof(c->verdict), "crash");
		snprintf(c->detail, sizeof(c->detail), "killed by %s",
			 dfz__sig_name(WTERMSIG(res->status)));
	}
}

/* One check's time limit: valgrind runs a program some 30 times slower. */
static unsigned check_ms(const struct dfz__triage *t)
{
	unsigned ms = t->cfg->timeout_ms ? t->cfg->timeout_ms :
		      DFZ_TRIAGE_TIMEOUT_MS;

	return ms > 3600000u / 30 ? 3600000u : ms * 30;
}

static int run_valgrind(struct dfz__triage *t, const struct dfz__bucket *b,
			const char *repro, const char *dir)
{
	struct dfz__check *c = &b->drop->valgrind;
	char vg[4096], path[4400], *text = NULL;
	char *argv[] = { vg, "--error-exitcode=99", "--quiet",
			 "--vex-iropt-register-updates=allregs-at-mem-access",
			 "--vex-guest-chase=no",
			 (char *)t->cfg->dropin[b->drop->test].bin, "--json",
			 (char *)repro, NULL };
	struct dfz__proc res;
	int rc;

	if (!find_program("valgrind", vg, sizeof(vg))) {
		snprintf(c->verdict, sizeof(c->verdict), "not run");
		snprintf(c->detail, sizeof(c->detail), "no valgrind on PATH");
		return 0;
	}
	snprintf(path, sizeof(path), "%s/valgrind.txt", dir);
	rc = run_to(argv, NULL, check_ms(t), path, &text, &res);
	if (rc == 0) {
		snprintf(c->verdict, sizeof(c->verdict), "clean");
		own_verdict(text, c);
		checked(&res, check_ms(t), c);
		if (WIFEXITED(res.status) && WEXITSTATUS(res.status) == VG_EXIT) {
			snprintf(c->verdict, sizeof(c->verdict), "errors");
			vg_first_error(text, c->detail, sizeof(c->detail));
		}
	}
	free(text);
	return rc;
}

/* An ASan or UBSan report in @text: its SUMMARY line's text. */
static bool asan_report(const char *text, struct dfz__check *c)
{
	const char *s = strstr(text, "SUMMARY: AddressSanitizer: ");
	const char *u = strstr(text, "runtime error: ");

	if (!s && !strstr(text, "ERROR: AddressSanitizer") && !u)
		return false;
	snprintf(c->verdict, sizeof(c->verdict), s || !u ? "asan" : "ubsan");
	if (s)
		s += strlen("SUMMARY: AddressSanitizer: ");
	else if (u)
		s = u;
	else
		s = strstr(text, "ERROR: AddressSanitizer");
	snprintf(c->detail, sizeof(c->detail), "%.*s", (int)strcspn(s, "\n"), s);
	return true;
}

static int run_asan(struct dfz__triage *t, const struct dfz__bucket *b,
		    const char *bin, const char *repro, const char *dir)
{
	struct dfz__check *c = &b->drop->asan;
	char *argv[] = { (char *)bin, "--json", (char *)repro, NULL };
	char opts[] = "ASAN_OPTIONS=detect_leaks=0";
	char *env[] = { getenv("ASAN_OPTIONS") ? NULL : opts, NULL };
	char path[4400], *text = NULL;
	unsigned ms = check_ms(t) / 10;
	struct dfz__proc res;
	int rc;

	snprintf(path, sizeof(path), "%s/asan.txt", dir);
	rc = run_to(argv, env, ms, path, &text, &res);
	if (rc == 0 && !asan_report(text, c)) {
		snprintf(c->verdict, sizeof(c->verdict), "%s",
			 strstr(text, "\"class\":\"") ? "finding" : "clean");
		own_verdict(text, c);
		checked(&res, ms, c);
	}
	free(text);
	return rc;
}

/* The ASan build of test @test, or NULL. */
static const char *asan_bin(const struct dfz_triage_config *cfg,
			    unsigned test)
{
	for (unsigned k = 0; k < cfg->nasan; k++)
		if (!strcmp(cfg->asan[k].name, cfg->dropin[test].name))
			return cfg->asan[k].bin;
	return NULL;
}

/* verdict.txt and verdict.json: the binary's verdicts on the reproducer. */
static int verdicts(struct dfz__triage *t, const struct dfz__bucket *b,
		    const char *repro, const char *dir)
{
	const char *bin = t->cfg->dropin[b->drop->test].bin;
	char *text_argv[] = { (char *)bin, (char *)repro, NULL };
	char *json_argv[] = { (char *)bin, "--json", (char *)repro, NULL };
	unsigned ms = check_ms(t) / 10;
	char path[4400], *text = NULL;
	struct dfz__proc res;
	int rc;

	snprintf(path, sizeof(path), "%s/verdict.txt", dir);
	rc = run_to(text_argv, NULL, ms, path, &text, &res);
	free(text);
	text = NULL;
	snprintf(path, sizeof(path), "%s/verdict.json", dir);
	if (rc == 0)
		rc = run_to(json_argv, NULL, ms, path, &text, &res);
	free(text);
	return rc;
}

/* The command lines that replay @b: the test binary, its ASan build,
 * the binary under valgrind; each then buckets/<id>/repro.bin.
 * Return: 0 or DFZ_ENOMEM. */
static int replay_commands(const struct dfz__triage *t, struct dfz__bucket *b)
{
	const char *bins[2] = { t->cfg->dropin[b->drop->test].bin,
				asan_bin(t->cfg, b->drop->test) };
	char word[DFZ__COMMAND_MAX - 40], file[sizeof(b->replay[0].file)], *abs;

	b->nreplay = 0;
	snprintf(file, sizeof(file), "buckets/%.8s/repro.bin", b->id);
	for (int k = 0; k < 3; k++) {
		struct dfz__replay_cmd *r = &b->replay[b->nreplay];
		const char *bin = bins[k == 1];

		if (!bin || (k == 2 && !t->cfg->valgrind))
			continue;
		abs = realpath(bin, NULL);
		if (!abs && errno == ENOMEM)
			return DFZ_ENOMEM;    /* else the path as given */
		dfz__shell_quote(abs ? abs : bin, word, sizeof(word));
		free(abs);
		snprintf(r->command, sizeof(r->command), "%s%s",
			 k == 2 ? "valgrind --quiet " : "", word);
		memcpy(r->file, file, sizeof(file));
		b->nreplay++;
	}
	return 0;
}

/* The bytes of @b's reproducer, shrunk unless @b is fixed, into @buf. */
static int shrink(struct dfz__triage *t, struct dfz__bucket *b, uint8_t **buf,
		  size_t *n)
{
	const struct dfz_triage_config *cfg = t->cfg;
	const struct dfz__input *in = &t->in[b->member[0]];
	struct dfz_min_exec_config mc = {
		.max_runs = cfg->max_runs ? cfg->max_runs : DFZ_TRIAGE_MIN_RUNS,
		.max_seconds = cfg->max_seconds > 0 ? cfg->max_seconds :
			       DFZ_TRIAGE_MIN_SECONDS,
		.timeout_ms = cfg->timeout_ms ? cfg->timeout_ms :
			      DFZ_TRIAGE_TIMEOUT_MS,
		.keep_prior = true,
	};
	struct dfz_min_exec_result r;
	int rc;

	for (unsigned i = 1; i < b->count; i++)
		if (t->in[b->member[i]].n < in->n)
			in = &t->in[b->member[i]];
	b->bytes_in = b->drop->prev_repro ? b->drop->prev_n : in->n;
	*n = b->bytes_in;
	*buf = malloc(*n + 1);
	if (!*buf)
		return DFZ_ENOMEM;
	memcpy(*buf, b->drop->prev_repro ? b->drop->prev_repro : in->buf, *n);
	if (b->drop->fixed)
		return 0;
	rc = dfz_minimize_exec_with(cfg->dropin[b->drop->test].bin, *buf, *n,
				    &mc, &r);
	if (rc == DFZ_ENOMEM)
		return rc;
	if (rc == 0 && r.n < *n) {
		memcpy(*buf, r.buf, r.n);
		*n = r.n;
	}
	b->runs = rc == 0 ? r.runs : 0;
	dfz_min_exec_result_fini(&r);
	return 0;
}

/* Replay the reproducer: its verdict is the bucket's (a fixed bucket
 * keeps the previous triage's), then the checkers. */
static int check(struct dfz__triage *t, struct dfz__bucket *b,
		 const char *repro, const char *dir)
{
	const char *asan = asan_bin(t->cfg, b->drop->test);
	struct dfz__dverdict dv;
	struct dfz__outcome o;
	int rc = verdicts(t, b, repro, dir);

	if (rc < 0 || b->drop->fixed)
		return rc;
	rc = dfz__dropin_replay(t, b->drop->test, repro, &o, &dv);
	if (rc == DFZ_ENOMEM)
		return rc;
	if (rc == 0 && o.kind == DFZ__FINDING)
		b->repro = o;
	else
		b->repro = t->in[b->member[0]].o;
	b->repro.report = NULL;
	rc = t->cfg->valgrind ? run_valgrind(t, b, repro, dir) : 0;
	if (rc == 0 && asan)
		rc = run_asan(t, b, asan, repro, dir);
	return rc;
}

static void log_bucket(const struct dfz__triage *t, const struct dfz__bucket *b)
{
	const struct dfz__dbucket *d = b->drop;

	if (!t->cfg->log)
		return;
	fprintf(t->cfg->log, "triage: %s %s %s: %u input(s)%s, %zu -> %zu "
		"bytes%s%s%s%s\n", b->id, t->cfg->dropin[d->test].name, d->sig,
		b->count, d->fixed ? ", FIXED" : "", b->bytes_in, b->bytes_out,
		d->valgrind.verdict[0] ? ", valgrind " : "", d->valgrind.verdict,
		d->asan.verdict[0] ? ", asan " : "", d->asan.verdict);
}

/* A previous triage's checker outputs in the bucket's dir (its bucket
 * may have had this id): gone, so that only this triage's are there. */
static void stale(const char *dir)
{
	static const char *const files[] = { "valgrind.txt", "asan.txt" };
	char path[4400];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
}

int dfz__dropin_settle(struct dfz__triage *t, struct dfz__bucket *b, char *err,
		       size_t errlen)
{
	char dir[4300], repro[4400];
	double t0 = dfz__now();
	uint8_t *buf = NULL;
	size_t n = 0;
	int rc;

	dfz__progress_show(&t->progress, true, "triage: minimizing bucket "
			   "%u/%u", (unsigned)(b - t->b) + 1, t->nb);
	snprintf(dir, sizeof(dir), "%s/buckets/%s", t->out, b->id);
	snprintf(repro, sizeof(repro), "%s/repro.bin", dir);
	rc = shrink(t, b, &buf, &n);
	b->bytes_out = n;
	b->seconds = dfz__now() - t0;
	if (rc == 0)
		rc = dfz__mkdir_p(dir);
	stale(dir);
	if (rc == 0)
		rc = dfz__write_atomic(repro, buf, n);
	free(buf);
	if (rc == 0)
		rc = check(t, b, repro, dir);
	if (rc < 0 && rc != DFZ_ENOMEM)
		snprintf(err, errlen, "cannot write bucket %s in '%s': %s",
			 b->id, t->out, strerror(errno));
	if (rc == 0)
		rc = replay_commands(t, b);
	dfz__progress_clear(&t->progress);
	if (rc == 0)
		log_bucket(t, b);
	return rc;
}
