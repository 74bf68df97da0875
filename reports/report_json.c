// SPDX-License-Identifier: MIT
/*
 * summary.json: the data of summary.md for machines. Every AFL++ instance
 * with its statistics (null when fuzzer_stats lacked one), totals per
 * target and overall, and the triage (its counts and the buckets, the
 * signal of a crash kept as triage.json had it).
 */
#include "report_gen_int.h"

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
	dfz__jw_knum(w, "saved_crashes", in->saved_crashes);
	dfz__jw_knum(w, "saved_hangs", in->saved_hangs);
	dfz__jw_knum(w, "plot_rows", (double)in->s.n);
	dfz__jw_kstr(w, "plot_note", in->plot_note[0] ? in->plot_note : NULL);
	dfz__jw_close(w, '}');
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
	dfz__jw_key(w, "buckets");
	dfz__jw_open(w, '[');
	for (size_t i = 0; i < tr->nb; i++)
		bucket(w, c, &tr->b[i]);
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
	dfz__jw_close(&w, '}');
	return 0;
}
