// SPDX-License-Identifier: MIT
/*
 * `dmafuzz triage`: every crash and hang input of a campaign copied,
 * replayed and bucketed by signature (for a real signal also the faulting
 * instruction and the top frames); one reproducer per bucket minimized
 * and written with its plan, its verdict and, for a signal, the
 * disassembled fault site; triage.json over all of it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "triage_int.h"

/* ------------------------------------------------------------ replaying */

/*
 * The first input before @i of its target with its bytes, or -1. Only
 * inputs read whole compare: an unreadable or oversized one is its own.
 */
static int first_same(const struct dfz__triage *t, unsigned i)
{
	const struct dfz__input *in = &t->in[i];

	if (!in->whole)
		return -1;
	for (unsigned j = 0; j < i; j++) {
		const struct dfz__input *p = &t->in[j];

		if (p->whole && p->same_as < 0 && p->hash == in->hash &&
		    p->n == in->n && !strcmp(p->target, in->target) &&
		    !memcmp(p->buf, in->buf, in->n))
			return (int)j;
	}
	return -1;
}

/*
 * Copy and replay input @i. A copy of an earlier input (the same bytes,
 * the same target) is not replayed again: the replay is deterministic,
 * so it takes its first's outcome (without the report, which the first
 * owns) and with it its first's bucket.
 */
static int examine(struct dfz__triage *t, unsigned i, char *err, size_t errlen)
{
	struct dfz__input *in = &t->in[i];
	char why[DFZ_MSG_MAX], path[8300];
	int rc = dfz__copy_input(t, in, why, sizeof(why));

	if (rc < 0 && rc != DFZ_ENOENT && rc != DFZ_ERANGE) {
		snprintf(err, errlen, "%s: %s", in->src,
			 rc == DFZ_ENOMEM ? "out of memory" : why);
		return rc;
	}
	memset(&in->o, 0, sizeof(in->o));
	in->same_as = first_same(t, i);
	if (in->same_as >= 0) {
		in->o = t->in[in->same_as].o;
		in->o.report = NULL;
		return 0;
	}
	t->distinct++;
	if (rc || in->n == 0) {
		in->o.kind = DFZ__MALFORMED;
		snprintf(in->o.reason, sizeof(in->o.reason), "%s",
			 rc ? why : "empty: no bytes to replay");
		return 0;
	}
	snprintf(path, sizeof(path), "%s/%s", t->out, in->copy);
	rc = dfz__replay(&t->rep, in->target, path, in->buf, in->n, &in->o);
	if (rc == DFZ_ENOENT)
		snprintf(err, errlen, "cannot run '%s'", t->cfg->exec);
	else if (rc)
		snprintf(err, errlen, "out of memory");
	return rc;
}

int dfz__bucket_add(struct dfz__triage *t, unsigned i)
{
	struct dfz__bucket *b;
	unsigned k;

	for (k = 0; k < t->nb; k++)
		if (!strcmp(t->in[t->b[k].member[0]].o.key, t->in[i].o.key) &&
		    !strcmp(t->in[t->b[k].member[0]].target, t->in[i].target))
			break;
	if (k == t->nb) {
		if (dfz__grow(&t->b, &t->b_cap, t->nb, sizeof(*t->b), 8))
			return DFZ_ENOMEM;
		b = &t->b[t->nb++];
		memset(b, 0, sizeof(*b));
		snprintf(b->id, sizeof(b->id), "b%02u", k + 1);
	}
	b = &t->b[k];
	if (dfz__grow(&b->member, &b->member_cap, b->count, sizeof(*b->member),
		      8))
		return DFZ_ENOMEM;
	b->member[b->count++] = i;
	b->distinct += t->in[i].same_as < 0;
	t->in[i].bucket = (int)k;
	return 0;
}

/* ------------------------------------------------------------ shrinking */

struct shrink {
	struct dfz__triage *t;
	const struct dfz__bucket *b;
	const struct dfz__input *like;    /* the bucket's first input */
	uint64_t runs, max_runs;
	double deadline;
	struct dfz__outcome last;          /* the last kept candidate's */
	int err;                           /* DFZ_ENOMEM: a replay or the
					    * scratch ran out, the
					    * minimization stops */
};

/* Does @n bytes of @buf still land in the bucket of @s->like? */
static bool still_same(struct shrink *s, const uint8_t *buf, size_t n)
{
	char path[8300];
	struct dfz__outcome o;
	bool same;
	int rc;

	s->runs++;
	dfz__progress_show(&s->t->progress, false, "triage: minimizing bucket "
			   "%u/%u, %llu run(s)", (unsigned)(s->b - s->t->b) + 1,
			   s->t->nb, (unsigned long long)s->runs);
	if (s->t->cfg->exec) {
		snprintf(path, sizeof(path), "%s", s->t->rep.scratch);
		if (dfz__write_atomic(path, buf, n) < 0)
			return false;
	}
	rc = dfz__replay(&s->t->rep, s->like->target, s->t->rep.scratch, buf,
			 n, &o);
	if (rc == DFZ_ENOMEM)
		s->err = rc;
	if (rc < 0)
		return false;
	same = o.kind == DFZ__FINDING && !strcmp(o.key, s->like->o.key);
	if (same) {
		dfz__outcome_fini(&s->last);
		s->last = o;
	} else {
		dfz__outcome_fini(&o);
	}
	return same;
}

static bool budget_left(const struct shrink *s)
{
	return !s->err && s->runs < s->max_runs && dfz__now() < s->deadline;
}

/*
 * Delta debugging on bytes, for inputs without a choice stream (parse
 * text, an external program's input): drop chunks of half the input,
 * then a quarter, ... down to single bytes, keeping every drop that
 * stays in the bucket; single bytes until nothing more goes.
 * @buf: n + 1 bytes of room (the replay wants them NUL-terminated).
 */
static size_t delta(struct shrink *s, uint8_t *buf, size_t n)
{
	uint8_t *cand = malloc(n + 1);
	size_t chunk = n > 1 ? n / 2 : 1;
	bool progress = true;

	if (!cand) {
		s->err = DFZ_ENOMEM;
		return n;
	}
	while (n > 1 && budget_left(s) && (chunk > 1 || progress)) {
		progress = false;
		for (size_t at = 0; at < n && n > 1 && budget_left(s);) {
			size_t len = chunk < n - at ? chunk : n - at;

			memcpy(cand, buf, at);
			memcpy(cand + at, buf + at + len, n - at - len);
			cand[n - len] = 0;
			if (len < n && still_same(s, cand, n - len)) {
				memcpy(buf, cand, n - len + 1);
				n -= len;
				progress = true;
			} else {
				at += len;
			}
		}
		if (chunk > 1)
			chunk /= 2;
	}
	free(cand);
	return n;
}

/* The bucket's smallest input (the first of the smallest). */
static const struct dfz__input *smallest(const struct dfz__triage *t,
					 const struct dfz__bucket *b)
{
	const struct dfz__input *best = &t->in[b->member[0]];

	for (unsigned i = 1; i < b->count; i++)
		if (t->in[b->member[i]].n < best->n)
			best = &t->in[b->member[i]];
	return best;
}

/* The choice-stream minimizer for a plan target in-process. */
static int shrink_plan(struct shrink *s, const struct dfz__input *in,
		       uint8_t **buf, size_t *n)
{
	struct dfz_min_config cfg = {
		.family = (unsigned)dfz_family_of(in->target),
		.bugs = s->t->cfg->bugs,
		.max_runs = s->max_runs,
		.max_seconds = s->deadline - dfz__now(),
	};
	struct dfz_min_result r;
	int rc = dfz_minimize(s->t->rep.ex, &cfg, in->buf, in->n, &r);

	if (rc == DFZ_ENOMEM)
		return rc;
	s->runs += r.runs;
	/* Same class, oracle and level, but a signal's site may have moved:
	 * only a candidate still in the bucket is kept. */
	if (rc == 0 && r.n < in->n && still_same(s, r.buf, r.n)) {
		memcpy(*buf, r.buf, r.n);
		(*buf)[r.n] = 0;
		*n = r.n;
	}
	dfz_min_result_fini(&r);
	return 0;
}

/* ------------------------------------------------------------ bucket files */

static int bucket_path(const struct dfz__triage *t, const struct dfz__bucket *b,
		       const char *file, char *path, size_t len)
{
	if (snprintf(path, len, "%s/buckets/%s/%s", t->out, b->id, file) <
	    (int)len)
		return 0;
	errno = ENAMETOOLONG;
	return DFZ_EINVAL;
}

/* Open a text buffer for the bucket's file @file; its path into @path. */
static int bucket_text(const struct dfz__triage *t, const struct dfz__bucket *b,
		       const char *file, char *path, size_t len,
		       struct dfz__text *txt)
{
	int rc = bucket_path(t, b, file, path, len);

	return rc < 0 ? rc : dfz__text_open(txt);
}

/* Does @text read back as plan @p (what `dmafuzz run` of it runs)? */
static bool reads_back(const char *text, const struct dfz_plan *p)
{
	struct dfz_plan q;
	char err[DFZ_MSG_MAX];

	return dfz_plan_parse(text, &q, err, sizeof(err)) == 0 &&
	       dfz_plan_normalise(&q) == 0 && dfz_plan_equal(p, &q);
}

/* repro.plan: the text form of the reproducer's plan (a parse bucket's
 * text as it is). @replays: out, true when the file reads back as the
 * plan the fuzz target ran, so that `dmafuzz run repro.plan` replays it. */
static int write_plan(const struct dfz__triage *t, const struct dfz__bucket *b,
		      const struct dfz__input *like, const uint8_t *buf, size_t n,
		      bool *replays)
{
	struct dfz__text txt;
	struct dfz_plan p;
	char path[8300];
	int family = dfz_family_of(like->target);
	int rc;

	*replays = false;
	rc = bucket_text(t, b, "repro.plan", path, sizeof(path), &txt);
	if (rc < 0)
		return rc;
	if (family >= 0) {
		dfz_plan_decode_as((unsigned)family, buf, n, &p);
		fprintf(txt.f, "# triage %s: minimized by 'dmafuzz triage' with %s: "
			"%zu -> %zu choice bytes, %s\n# expect: %s\n", b->id,
			t->rep.bugs[0] ? t->rep.bugs : "none", b->bytes_in, n,
			like->o.sig, like->o.cls);
		dfz_plan_print(&p, txt.f);
		*replays = fflush(txt.f) == 0 && reads_back(txt.buf, &p);
	} else {
		fwrite(buf, 1, n, txt.f);     /* parse: the text is the plan */
	}
	return dfz__text_commit(&txt, path);
}

/* Add a command line that replays @b: @fmt..., then its file @file. */
static void add_replay(struct dfz__bucket *b, const char *file,
		       const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add_replay(struct dfz__bucket *b, const char *file,
		       const char *fmt, ...)
{
	struct dfz__replay_cmd *r = &b->replay[b->nreplay];
	char path[sizeof(r->file)];
	va_list ap;
	int len;

	if (b->nreplay >= DFZ__REPLAYS)
		return;
	va_start(ap, fmt);
	len = vsnprintf(r->command, sizeof(r->command), fmt, ap);
	va_end(ap);
	if (len < 0 || (size_t)len >= sizeof(r->command))
		return;                       /* a program path too long */
	snprintf(path, sizeof(path), "buckets/%s/%s", b->id, file);
	memcpy(r->file, path, sizeof(path));
	b->nreplay++;
}

/*
 * The commands that replay @b, with its switches: a plan bucket's text
 * plan with `dmafuzz run` (when it reads back as the plan: the text names
 * its family), its self-describing stream repro.bin, then input.bin, the
 * fuzz target's own input, with `run --family`; an external program's
 * bucket, the program on repro.bin with the switches in DMAFUZZ_BUGS.
 * None for a parse bucket: no dmafuzz command does the parse target's
 * round trip. Return: 0, or DFZ_ENOMEM.
 */
static int replay_commands(const struct dfz__triage *t, struct dfz__bucket *b,
			   const char *target, bool plan_replays)
{
	char bugs[300] = "", prog[DFZ__COMMAND_MAX - 300], *abs;

	b->nreplay = 0;
	if (t->cfg->exec) {
		abs = realpath(t->cfg->exec, NULL);
		if (!abs && errno == ENOMEM)
			return DFZ_ENOMEM;    /* else the path as given */
		dfz__shell_quote(abs ? abs : t->cfg->exec, prog, sizeof(prog));
		free(abs);
		dfz__shell_quote(t->rep.bugs, bugs, sizeof(bugs));
		add_replay(b, "repro.bin", "DMAFUZZ_BUGS=%s %s",
			   t->rep.bugs[0] ? bugs : "", prog);
		return 0;
	}
	if (dfz_family_of(target) < 0)
		return 0;
	if (t->rep.bugs[0])
		snprintf(bugs, sizeof(bugs), " --bug %s", t->rep.bugs);
	if (plan_replays)
		add_replay(b, "repro.plan", "dmafuzz run%s", bugs);
	add_replay(b, "repro.bin", "dmafuzz run%s", bugs);
	add_replay(b, "input.bin", "dmafuzz run --family %s%s", target, bugs);
	return 0;
}

/*
 * The bucket's binary reproducers. A plan target's input is a stream
 * without the family draw: it goes to input.bin as the target read it,
 * and repro.bin holds the same plan as a full stream, family draw
 * included, so that `dmafuzz run repro.bin` replays it with no flag. An
 * external program's input (or a parse bucket's text) is repro.bin as it is.
 */
static int write_bins(struct dfz__triage *t, struct dfz__bucket *b,
		      const struct dfz__input *like, const uint8_t *buf,
		      size_t n)
{
	int family = t->cfg->exec ? -1 : dfz_family_of(like->target);
	char path[8300];
	struct dfz_plan p;
	uint8_t *enc;
	size_t m;
	int rc;

	rc = bucket_path(t, b, family < 0 ? "repro.bin" : "input.bin", path,
			 sizeof(path));
	if (rc == 0)
		rc = dfz__write_atomic(path, buf, n);
	if (rc < 0 || family < 0)
		return rc;
	dfz_plan_decode_as((unsigned)family, buf, n, &p);
	rc = dfz_plan_encode(&p, &enc, &m);
	if (rc < 0)
		return rc;
	rc = bucket_path(t, b, "repro.bin", path, sizeof(path));
	if (rc == 0)
		rc = dfz__write_atomic(path, enc, m);
	free(enc);
	return rc;
}

/* The bucket's C reproducer (dfz_emit_c()), asserting the bucket's class
 * with the campaign's switches. A plan the emitter cannot write (a parse
 * bucket) has none: not an error of the triage. */
static int write_c(const struct dfz__triage *t, const struct dfz__bucket *b,
		   const struct dfz__input *like, const uint8_t *buf, size_t n)
{
	int family = dfz_family_of(like->target);
	struct dfz_emit_config cfg = {
		.bugs = t->cfg->bugs,
		.expect = like->o.cls,
		.name = b->id,
		.note = like->o.sig,
	};
	struct dfz__text txt;
	struct dfz_plan p;
	char path[8300];
	int rc = family < 0 ? DFZ_EINVAL : 0;

	if (rc == 0)
		rc = bucket_text(t, b, "repro.c", path, sizeof(path), &txt);
	if (rc < 0)
		return rc;
	dfz_plan_decode_as((unsigned)family, buf, n, &p);
	rc = dfz_emit_c(&p, &cfg, txt.f);
	if (rc < 0) {
		fclose(txt.f);
		free(txt.buf);
		return rc;
	}
	return dfz__text_commit(&txt, path);
}

static void write_fault(FILE *f, const struct dfz__outcome *o)
{
	const struct dfz_crash_site *s = &o->site;
	const struct dfz_fault *x = &o->fault;

	fprintf(f, "SIGNAL:      %s\nADDRESS:     0x%llx\nPC:          0x%llx\n"
		"ACCESS:      %s\nOPERAND:     %s\nINSTRUCTION: %s\n"
		"REGISTERS:   %s\n\n", o->signal, (unsigned long long)s->addr,
		(unsigned long long)s->pc, x->access, x->operand,
		x->instruction, x->regs);
	for (unsigned i = 0; i < x->ndisasm; i++)
		fprintf(f, "%s%s\n", strncmp(x->disasm[i], "=> ", 3) ? "   " : "",
			x->disasm[i]);
	fputs("\nFRAMES:\n", f);
	for (unsigned i = 0; i < x->nframes; i++)
		fprintf(f, "  #%u %s\n", i, x->frames[i]);
}

static int write_bucket(struct dfz__triage *t, struct dfz__bucket *b,
			const struct dfz__input *like, const uint8_t *buf,
			size_t n, const struct dfz__outcome *repro)
{
	char path[8300];
	struct dfz__text txt;
	bool plan_replays = false;
	int rc = bucket_path(t, b, "", path, sizeof(path));

	if (rc == 0)
		rc = dfz__mkdir_p(path);
	if (rc == 0)
		rc = write_bins(t, b, like, buf, n);
	b->has_plan = !t->cfg->exec && strcmp(like->target, "other");
	if (rc == 0 && b->has_plan)
		rc = write_plan(t, b, like, buf, n, &plan_replays);
	if (rc < 0)
		return rc;
	rc = replay_commands(t, b, like->target, plan_replays);
	if (rc < 0)
		return rc;
	rc = b->has_plan ? write_c(t, b, like, buf, n) : DFZ_EINVAL;
	if (rc == DFZ_ENOMEM)
		return rc;
	b->has_c = rc == 0;
	rc = bucket_text(t, b, "verdict.txt", path, sizeof(path), &txt);
	if (rc < 0)
		return rc;
	fprintf(txt.f, "BUCKET:    %s\nSIGNATURE: %s\nINPUTS:    %u\n"
		"DISTINCT:  %u\n\n", b->id, like->o.sig, b->count, b->distinct);
	fputs(repro->report ? repro->report : repro->message, txt.f);
	rc = dfz__text_commit(&txt, path);
	if (rc < 0 || !like->o.has_signal)
		return rc;
	rc = bucket_text(t, b, "disasm.txt", path, sizeof(path), &txt);
	if (rc < 0)
		return rc;
	write_fault(txt.f, repro->has_signal ? repro : &like->o);
	return dfz__text_commit(&txt, path);
}

/* The bucket's line in the log, and the command that replays it. */
static void log_bucket(const struct dfz__triage *t, const struct dfz__bucket *b,
		       const struct dfz__input *like)
{
	char path[8300], word[8400];

	fprintf(t->cfg->log, "triage: %s %-5s %-40s %3u input(s), %u distinct, "
		"%zu -> %zu bytes\n", b->id, like->target, like->o.sig,
		b->count, b->distinct, b->bytes_in, b->bytes_out);
	if (!b->nreplay)
		return;
	snprintf(path, sizeof(path), "%s/%s", t->out, b->replay[0].file);
	dfz__shell_quote(path, word, sizeof(word));
	fprintf(t->cfg->log, "        replay: %s %s\n", b->replay[0].command,
		word);
}

/* Shrink the @n bytes of @buf (@in's) and leave their replay in
 * @s->last: the plan shrinker for a plan target in-process, bytes when it
 * could not keep a signal's site (or for any other input). */
static int minimize(struct shrink *s, const struct dfz__input *in,
		    uint8_t **buf, size_t *n)
{
	int rc = 0;

	if (dfz_family_of(in->target) >= 0 && !s->t->cfg->exec)
		rc = shrink_plan(s, in, buf, n);
	if (!rc && *n == in->n)
		*n = delta(s, *buf, *n);
	if (!rc && !s->err && !s->last.kind) /* nothing kept: replay the input */
		still_same(s, *buf, *n);
	return rc ? rc : s->err;
}

/* Minimize the bucket's smallest input and write the bucket's files. */
static int settle(struct dfz__triage *t, struct dfz__bucket *b, char *err,
		  size_t errlen)
{
	const struct dfz__input *in = smallest(t, b);
	const struct dfz_triage_config *cfg = t->cfg;
	const struct dfz__outcome *shown;
	struct shrink s = {
		.t = t, .b = b, .like = &t->in[b->member[0]],
		.max_runs = cfg->max_runs ? cfg->max_runs : DFZ_TRIAGE_MIN_RUNS,
	};
	double t0 = dfz__now();
	uint8_t *buf = malloc(in->n + 1);
	size_t n = in->n;
	int rc = 0;

	s.deadline = t0 + (cfg->max_seconds > 0 ? cfg->max_seconds :
			   DFZ_TRIAGE_MIN_SECONDS);
	if (!buf)
		return DFZ_ENOMEM;
	dfz__progress_show(&t->progress, true, "triage: minimizing bucket "
			   "%u/%u", (unsigned)(b - t->b) + 1, t->nb);
	memcpy(buf, in->buf, n + 1);
	rc = minimize(&s, in, &buf, &n);
	/* What the bytes written as repro.bin gave: the last kept
	 * candidate's replay, else (a replay that did not reproduce this
	 * time) the input's own from the scan. */
	shown = s.last.kind == DFZ__FINDING ? &s.last :
		&t->in[in->same_as >= 0 ? (unsigned)in->same_as :
					  (unsigned)(in - t->in)].o;
	b->bytes_in = in->n;
	b->bytes_out = n;
	b->runs = s.runs;
	b->seconds = dfz__now() - t0;
	if (!rc) {
		rc = write_bucket(t, b, s.like, buf, n, shown);
		if (rc < 0 && rc != DFZ_ENOMEM)
			snprintf(err, errlen, "cannot write bucket %s in '%s': "
				 "%s", b->id, t->out, strerror(errno));
	}
	b->repro = *shown;
	b->repro.report = NULL;
	dfz__progress_clear(&t->progress);
	if (!rc && cfg->log)
		log_bucket(t, b, s.like);
	dfz__outcome_fini(&s.last);
	free(buf);
	return rc;
}

/* ------------------------------------------------------------ the triage */

static int prepare(struct dfz__triage *t, const struct dfz_triage_config *cfg,
		   char *err, size_t errlen)
{
	struct stat st;
	static char scratch[4200];
	int rc;

	if (!cfg->dir || stat(cfg->dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "'%s' is not a campaign directory%s%s",
			 cfg->dir ? cfg->dir : "", errno ? ": " : "",
			 errno ? strerror(errno) : "");
		return !cfg->dir || !errno ? DFZ_ENOTDIR :
					     dfz_err_from_errno(errno);
	}
	if (cfg->exec && (access(cfg->exec, X_OK) < 0 ||
			  stat(cfg->exec, &st) < 0 || !S_ISREG(st.st_mode))) {
		snprintf(err, errlen, "cannot run '%s' (give the program's path)",
			 cfg->exec);
		return DFZ_EINVAL;
	}
	if (snprintf(t->out, sizeof(t->out), "%s", cfg->out ? cfg->out : "") >=
	    (int)sizeof(t->out) - 64)
		return DFZ_EINVAL;
	if (!cfg->out)
		snprintf(t->out, sizeof(t->out), "%.4000s/triage", cfg->dir);
	snprintf(scratch, sizeof(scratch), "%s/.candidate", t->out);
	t->rep.scratch = scratch;
	rc = dfz__mkdir_p(t->out);
	if (rc == 0 && access(t->out, W_OK) < 0)
		rc = dfz_err_from_errno(errno);
	if (rc < 0) {
		snprintf(err, errlen, "cannot write '%s': %s", t->out,
			 strerror(errno));
		return rc;
	}
	t->cfg = cfg;
	t->rep.cfg = cfg;
	dfz_bugs_format(cfg->bugs, t->rep.bugs, sizeof(t->rep.bugs));
	if (dfz_exec_create(DFZ_ORACLES_ALL, &t->rep.ex) < 0)
		return DFZ_ENOMEM;
	dfz_exec_catch_signals(t->rep.ex, true);
	return 0;
}

static void release(struct dfz__triage *t)
{
	for (unsigned i = 0; i < t->nin; i++) {
		free(t->in[i].src);
		free(t->in[i].copy);
		free(t->in[i].buf);
		dfz__outcome_fini(&t->in[i].o);
		free(t->in[i].dv);
	}
	for (unsigned k = 0; k < t->nb; k++) {
		free(t->b[k].member);
		if (t->b[k].drop) {
			free(t->b[k].drop->fixed_in);
			free(t->b[k].drop->prev_repro);
			free(t->b[k].drop);
		}
	}
	free(t->in);
	free(t->b);
	dfz_exec_destroy(t->rep.ex);
	if (t->rep.scratch)
		unlink(t->rep.scratch);
}

int dfz_triage(const struct dfz_triage_config *cfg,
	       struct dfz_triage_summary *sum, char *err, size_t errlen)
{
	struct dfz__triage t;
	int rc;

	memset(&t, 0, sizeof(t));
	memset(sum, 0, sizeof(*sum));
	errno = 0;
	rc = prepare(&t, cfg, err, errlen);
	if (!rc && cfg->ndropin) {
		rc = dfz__triage_dropin(&t, sum, err, errlen);
		release(&t);
		return rc;
	}
	if (!rc)
		rc = dfz__triage_scan(&t, cfg->dir, t.out);
	dfz__progress_init(&t.progress);
	for (unsigned i = 0; !rc && i < t.nin; i++) {
		rc = examine(&t, i, err, errlen);
		if (!rc && t.in[i].o.kind == DFZ__FINDING)
			rc = dfz__bucket_add(&t, i);
		sum->malformed += t.in[i].o.kind == DFZ__MALFORMED;
		sum->clean += t.in[i].o.kind == DFZ__CLEAN;
		dfz__progress_show(&t.progress, i == 0, "triage: replayed %u/%u "
				   "input(s), %u bucket(s)", i + 1, t.nin, t.nb);
	}
	dfz__progress_clear(&t.progress);
	for (unsigned k = 0; !rc && k < t.nb; k++)
		rc = settle(&t, &t.b[k], err, errlen);
	if (!rc) {
		rc = dfz__triage_json(&t);
		if (rc < 0 && rc != DFZ_ENOMEM)
			snprintf(err, errlen, "cannot write '%s/triage.json': "
				 "%s", t.out, strerror(errno));
	}
	dfz__progress_clear(&t.progress);
	if (rc == DFZ_ENOMEM && !err[0])
		snprintf(err, errlen, "out of memory");
	sum->inputs = t.nin;
	sum->distinct = t.distinct;
	sum->buckets = t.nb;
	release(&t);
	return rc;
}
