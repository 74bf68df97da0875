// SPDX-License-Identifier: MIT
/*
 * summary.json: the data of summary.md for machines. Every AFL++ instance
 * with its statistics (null when fuzzer_stats lacked one), totals per
 * target and overall, and the triage (its counts and the buckets, the
 * signal of a crash kept as triage.json had it).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render_int.h"

static void totals(struct dfz__jw *w, const struct dfz__totals *t)
{
	dfz__jw_knum(w, "instances", (double)t->ninst);
	dfz__jw_knum(w, "run_time", t->run_time);
	dfz__jw_knum(w, "execs_done", t->execs_done);
	dfz__jw_knum(w, "execs_per_sec", t->execs_per_sec);
	dfz__jw_knum(w, "corpus_count", t->corpus_count);
	dfz__jw_knum(w, "edges_found", t->edges_found);
	dfz__jw_knum(w, "saved_crashes", t->saved_crashes);
	dfz__jw_knum(w, "saved_hangs", t->saved_hangs);
}

static void instance(struct dfz__jw *w, const struct dfz__inst *in)
{
	dfz__jw_open(w, '{');
	dfz__jw_kstr(w, "name", in->name);
	dfz__jw_kstr(w, "target", dfz__target_names()[in->target]);
	if (in->test[0])
		dfz__jw_kstr(w, "test", in->test);
	dfz__jw_kstr(w, "afl_version", in->afl_version[0] ? in->afl_version
							   : NULL);
	dfz__jw_knum(w, "run_time", in->run_time);
	dfz__jw_knum(w, "execs_done", in->execs_done);
	dfz__jw_knum(w, "execs_per_sec", in->execs_per_sec);
	dfz__jw_knum(w, "corpus_count", in->corpus_count);
	dfz__jw_knum(w, "edges_found", in->edges_found);
	dfz__jw_knum(w, "total_edges", in->total_edges);
	dfz__jw_knum(w, "bitmap_cvg", in->bitmap_cvg);
	dfz__jw_knum(w, "stability", in->stability);
	dfz__jw_knum(w, "cycles_done", in->cycles_done);
	dfz__jw_kstr(w, "schedule", in->schedule[0] ? in->schedule : NULL);
	dfz__jw_key(w, "cmplog");
	dfz__jw_bool(w, in->cmplog);
	dfz__jw_knum(w, "saved_crashes", in->saved_crashes);
	dfz__jw_knum(w, "saved_hangs", in->saved_hangs);
	dfz__jw_knum(w, "plot_rows", (double)in->s.n);
	dfz__jw_kstr(w, "plot_note", in->plot_note[0] ? in->plot_note : NULL);
	dfz__jw_close(w, '}');
}

/* A site of a drop-in bucket, its file relative to the source root. */
static void site(struct dfz__jw *w, const struct dfz__campaign *c,
		 const char *key, const struct dfz_json *s)
{
	double line = 0;

	dfz__jw_key(w, key);
	if (!s) {
		dfz__jw_null(w);
		return;
	}
	dfz_json_num(dfz_json_get(s, "line"), &line);
	dfz__jw_open(w, '{');
	dfz__jw_kstr(w, "file", dfz__src_relative(c, dfz_json_str(
			     dfz_json_get(s, "file"))));
	dfz__jw_knum(w, "line", line);
	dfz__jw_kstr(w, "function", dfz_json_str(dfz_json_get(s, "function")));
	dfz__jw_close(w, '}');
}

/* The fields of a drop-in triage's bucket. */
static void dropin(struct dfz__jw *w, const struct dfz__campaign *c,
		   const struct dfz__bucket *b)
{
	dfz__jw_kstr(w, "test", b->test);
	dfz__jw_kstr(w, "key", b->key);
	site(w, c, "site", b->site);
	site(w, c, "prior", b->prior);
	dfz__jw_kstr(w, "status", b->fixed ? "fixed" : "open");
	dfz__jw_key(w, "regressed");
	dfz__jw_bool(w, b->regressed);
	dfz__jw_key(w, "fixed");
	if (b->fixed_in)
		dfz__jw_value(w, b->fixed_in);
	else
		dfz__jw_null(w);
	dfz__jw_key(w, "valgrind");
	dfz__jw_value(w, b->valgrind);
	dfz__jw_key(w, "asan");
	dfz__jw_value(w, b->asan);
}

static void bucket(struct dfz__jw *w, const struct dfz__campaign *c,
		   const struct dfz__bucket *b)
{
	char uri[4096], line[8192];

	dfz__jw_open(w, '{');
	dfz__jw_kstr(w, "id", b->id);
	dfz__jw_kstr(w, "signature", b->signature);
	dfz__jw_kstr(w, "class", b->cls);
	dfz__jw_kstr(w, "oracle", b->oracle);
	dfz__jw_kstr(w, "level", b->level);
	dfz__jw_kstr(w, "target", b->target);
	dfz__jw_kstr(w, "bugs", b->bugs);
	dfz__jw_knum(w, "count", b->count);
	dfz__jw_knum(w, "distinct", b->distinct);
	dfz__jw_kstr(w, "message", b->message);
	dfz__jw_kstr(w, "reproducer",
		     dfz__artifact_uri(c, b->reproducer, uri, sizeof(uri)));
	dfz__jw_kstr(w, "plan", b->plan ? dfz__artifact_uri(c, b->plan, uri,
							    sizeof(uri)) : NULL);
	dfz__jw_kstr(w, "c", b->c ? dfz__artifact_uri(c, b->c, uri, sizeof(uri))
				  : NULL);
	dfz__jw_key(w, "replay");
	dfz__jw_open(w, '[');
	for (size_t i = 0; i < dfz_json_len(b->replay); i++)
		dfz__jw_str(w, dfz__replay_line(c, dfz_json_at(b->replay, i),
						line, sizeof(line)));
	dfz__jw_close(w, ']');
	dfz__jw_key(w, "min");
	dfz__jw_value(w, b->min);
	dfz__jw_key(w, "signal");
	dfz__jw_value(w, b->signal);
	if (b->test)
		dropin(w, c, b);
	dfz__jw_close(w, '}');
}

static void triage(struct dfz__jw *w, const struct dfz__campaign *c)
{
	const struct dfz__triage *tr = &c->tr;

	dfz__jw_key(w, "triage");
	if (!c->has_triage) {
		dfz__jw_null(w);
		dfz__jw_kstr(w, "triage_note", c->triage_note);
		return;
	}
	dfz__jw_open(w, '{');
	dfz__jw_kstr(w, "path", tr->path);
	dfz__jw_knum(w, "inputs", tr->inputs);
	dfz__jw_knum(w, "distinct", tr->distinct);
	dfz__jw_knum(w, "malformed", (double)dfz_json_len(tr->malformed));
	dfz__jw_knum(w, "clean", (double)dfz_json_len(tr->clean));
	if (tr->ndropin) {
		dfz__jw_kstr(w, "srcroot", c->srcroot);
		dfz__jw_knum(w, "dropin_buckets", (double)tr->ndropin);
		dfz__jw_knum(w, "open", (double)tr->nopen);
		dfz__jw_knum(w, "fixed", (double)(tr->ndropin - tr->nopen));
	}
	dfz__jw_key(w, "buckets");
	dfz__jw_open(w, '[');
	for (size_t i = 0; i < tr->nb; i++)
		bucket(w, c, &tr->b[i]);
	dfz__jw_close(w, ']');
	dfz__jw_close(w, '}');
}

/* A value of the run record as a string (NULL: absent). */
static void rec_str(struct dfz__jw *w, const struct dfz__campaign *c,
		    const char *key)
{
	dfz__jw_kstr(w, key, dfz__run_get(&c->run, key));
}

static void finding(struct dfz__jw *w, const struct dfz__finding *f)
{
	static const char *const kinds[DFZ__KINDS] = { "crash", "hang", "slow" };
	char path[4200];

	dfz__jw_open(w, '{');
	dfz__jw_kstr(w, "file", f->file);
	dfz__jw_kstr(w, "kind", kinds[f->kind]);
	dfz__jw_kstr(w, "class", f->cls);
	dfz__jw_key(w, "seed");
	dfz__jw_bool(w, f->seed);
	dfz__jw_knum(w, "bytes", f->bytes);
	snprintf(path, sizeof(path), "%s.txt", f->file);
	dfz__jw_kstr(w, "report", path);
	snprintf(path, sizeof(path), "%s.plan", f->file);
	dfz__jw_kstr(w, "plan", f->has_plan ? path : NULL);
	dfz__jw_close(w, '}');
}

static void run_target(struct dfz__jw *w, const struct dfz__campaign *c,
		       const struct dfz__run_target *rt)
{
	char key[32], in[32], out[32];
	const char *v;
	struct dfz__totals t;

	dfz__totals_of(c, rt->target, &t);
	dfz__jw_open(w, '{');
	dfz__jw_kstr(w, "target", rt->name);
	totals(w, &t);
	snprintf(key, sizeof(key), "cmin.%s", rt->name);
	v = dfz__run_get(&c->run, key);
	if (!v || sscanf(v, "%31s %31s", in, out) != 2)
		snprintf(in, sizeof(in), "-"), snprintf(out, sizeof(out), "-");
	dfz__jw_knum(w, "corpus_in", strspn(in, "0123456789") == strlen(in)
				     ? strtod(in, NULL) : -1);
	dfz__jw_knum(w, "corpus_kept", strspn(out, "0123456789") == strlen(out)
				       ? strtod(out, NULL) : -1);
	dfz__jw_knum(w, "crashes", rt->count[DFZ__KIND_CRASH]);
	dfz__jw_knum(w, "hangs", rt->count[DFZ__KIND_HANG]);
	dfz__jw_knum(w, "slow", rt->count[DFZ__KIND_SLOW]);
	dfz__jw_key(w, "findings");
	dfz__jw_open(w, '[');
	for (size_t i = 0; i < rt->nf; i++)
		finding(w, &rt->f[i]);
	dfz__jw_close(w, ']');
	dfz__jw_close(w, '}');
}

static void seed_finding(struct dfz__jw *w, const char *line)
{
	const char *plan, *what;
	char buf[4096];

	dfz__seed_split(line, buf, sizeof(buf), &plan, &what);
	dfz__jw_open(w, '{');
	dfz__jw_kstr(w, "seed", buf);
	dfz__jw_kstr(w, "plan", plan);
	dfz__jw_kstr(w, "what", what);
	dfz__jw_close(w, '}');
}

/* "run": the campaign script's record, its targets' findings (null: no
 * record). */
static void run(struct dfz__jw *w, const struct dfz__campaign *c)
{
	static const char *const keys[] = {
		"kind", "started", "night", "bugs", "work", "findings",
		"corpus",
	};
	const struct dfz__run *r = &c->run;

	dfz__jw_key(w, "run");
	if (!c->has_run) {
		dfz__jw_null(w);
		return;
	}
	dfz__jw_open(w, '{');
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		rec_str(w, c, keys[i]);
	dfz__jw_knum(w, "seconds", dfz__run_num(r, "seconds"));
	dfz__jw_knum(w, "seed", dfz__run_num(r, "seed"));
	dfz__jw_knum(w, "jobs", dfz__run_num(r, "jobs"));
	dfz__jw_knum(w, "run", dfz__run_num(r, "run"));
	dfz__jw_key(w, "resumed");
	dfz__jw_bool(w, dfz__run_num(r, "run") > 1);
	dfz__jw_key(w, "interrupted");
	dfz__jw_bool(w, dfz__run_get(r, "interrupted") &&
			!strcmp(dfz__run_get(r, "interrupted"), "yes"));
	dfz__jw_knum(w, "failed", fmax(dfz__run_num(r, "failed"), 0));
	dfz__jw_key(w, "failures");
	dfz__jw_open(w, '[');
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->key[i], "failure"))
			dfz__jw_str(w, r->val[i]);
	dfz__jw_close(w, ']');
	dfz__jw_knum(w, "found", r->found);
	dfz__jw_key(w, "targets");
	dfz__jw_open(w, '[');
	for (size_t i = 0; i < r->nt; i++)
		run_target(w, c, &r->t[i]);
	dfz__jw_close(w, ']');
	dfz__jw_kstr(w, "seed_findings_file", dfz__run_get(r, "seed_findings"));
	dfz__jw_key(w, "seed_findings");
	dfz__jw_open(w, '[');
	for (size_t i = 0; i < r->nseeds; i++)
		seed_finding(w, r->seeds[i]);
	dfz__jw_close(w, ']');
	dfz__jw_close(w, '}');
}

int dfz__write_summary_json(const struct dfz__campaign *c, FILE *f)
{
	struct dfz__totals t;
	struct dfz__jw w;

	dfz__jw_init(&w, f);
	dfz__jw_open(&w, '{');
	dfz__jw_knum(&w, "version", 1);
	dfz__jw_kstr(&w, "tool", "dmafuzz");
	dfz__jw_kstr(&w, "tool_version", c->version);
	dfz__jw_kstr(&w, "campaign", c->dir);
	if (c->generated)
		dfz__jw_kstr(&w, "generated", c->generated);
	dfz__jw_key(&w, "instances");
	dfz__jw_open(&w, '[');
	for (size_t i = 0; i < c->ninst; i++)
		instance(&w, &c->inst[i]);
	dfz__jw_close(&w, ']');
	dfz__jw_key(&w, "targets");
	dfz__jw_open(&w, '{');
	for (int k = 0; k < DFZ__TARGETS; k++) {
		dfz__totals_of(c, k, &t);
		if (!t.ninst)
			continue;
		dfz__jw_key(&w, dfz__target_names()[k]);
		dfz__jw_open(&w, '{');
		totals(&w, &t);
		dfz__jw_close(&w, '}');
	}
	dfz__jw_close(&w, '}');
	dfz__totals_of(c, -1, &t);
	dfz__jw_key(&w, "totals");
	dfz__jw_open(&w, '{');
	totals(&w, &t);
	dfz__jw_close(&w, '}');
	triage(&w, c);
	run(&w, c);
	dfz__jw_close(&w, '}');
	return 0;
}
