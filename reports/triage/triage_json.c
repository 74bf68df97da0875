// SPDX-License-Identifier: MIT
/*
 * OUT/triage.json: the buckets, the malformed inputs and the inputs that
 * did not reproduce, in the format `dmafuzz report` reads (version 1).
 * Copies of one finding (the same bytes as an earlier input of the same
 * target) are listed as any input; "distinct" counts them once, and the
 * "same_as" object maps each copy to the input it repeats. A bucket's
 * message and signal are its reproducer's replay (as its verdict.txt),
 * and its "replay" lists the command lines that replay it. Readers of
 * the fields before these keep working. A drop-in triage's buckets
 * (docs/campaign-triage.md) add their test, key, site and prior site, the
 * binary, open or fixed (and regressed), the inputs now fixed, and the
 * valgrind and ASan verdicts; the document adds the source root and the
 * tests.
 */
#include <stdio.h>
#include <string.h>

#include "triage_int.h"

static void key_string(FILE *f, const char *indent, const char *key,
		       const char *val, const char *end)
{
	fprintf(f, "%s\"%s\": ", indent, key);
	dfz_json_string(val, f);
	fputs(end, f);
}

static void string_list(FILE *f, const char *indent, const char *key,
			char (*items)[DFZ_FAULT_TEXT], unsigned n, const char *end)
{
	fprintf(f, "%s\"%s\": [", indent, key);
	for (unsigned i = 0; i < n; i++) {
		fputs(i ? ", " : "", f);
		dfz_json_string(items[i], f);
	}
	fprintf(f, "]%s", end);
}

static void signal_object(FILE *f, const struct dfz__outcome *o)
{
	static const char in[] = "        ";
	const struct dfz_fault *x = &o->fault;
	char hex[24];

	fputs("{\n", f);
	key_string(f, in, "name", o->signal, ",\n");
	snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)o->site.addr);
	key_string(f, in, "addr", hex, ",\n");
	snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)o->site.pc);
	key_string(f, in, "pc", hex, ",\n");
	key_string(f, in, "access", x->access, ",\n");
	key_string(f, in, "operand", x->operand, ",\n");
	key_string(f, in, "instruction", x->instruction, ",\n");
	string_list(f, in, "disasm", (char (*)[DFZ_FAULT_TEXT])x->disasm,
		    x->ndisasm, ",\n");
	string_list(f, in, "frames", (char (*)[DFZ_FAULT_TEXT])x->frames,
		    x->nframes, "\n");
	fputs("      }", f);
}

/* An input's path relative to OUT, or as found when it was not copied. */
static const char *name_of(const struct dfz__input *in)
{
	return in->copy ? in->copy : in->src;
}

/* "replay": [{ "command": ..., "file": ... }, ...]: the command lines
 * that replay the bucket, each its command then its file (relative to
 * OUT), the first the one to use. */
static void replay_array(FILE *f, const struct dfz__bucket *b)
{
	fputs("      \"replay\": [", f);
	for (unsigned i = 0; i < b->nreplay; i++) {
		fputs(i ? ",\n        { \"command\": " :
			  "\n        { \"command\": ", f);
		dfz_json_string(b->replay[i].command, f);
		fputs(", \"file\": ", f);
		dfz_json_string(b->replay[i].file, f);
		fputs(" }", f);
	}
	fputs(b->nreplay ? "\n      ],\n" : "],\n", f);
}

/* "key": { "file", "line", "function" } or null. */
static void site_object(FILE *f, const char *key, const struct dfz__dsite *s)
{
	fprintf(f, "      \"%s\": ", key);
	if (!s->file[0]) {
		fputs("null,\n", f);
		return;
	}
	fputs("{ \"file\": ", f);
	dfz_json_string(s->file, f);
	fprintf(f, ", \"line\": %d, \"function\": ", s->line);
	dfz_json_string(s->func, f);
	fputs(" },\n", f);
}

static void check_object(FILE *f, const char *key, const struct dfz__check *c)
{
	fprintf(f, "      \"%s\": ", key);
	if (!c->verdict[0]) {
		fputs("null,\n", f);
		return;
	}
	fputs("{ \"verdict\": ", f);
	dfz_json_string(c->verdict, f);
	fputs(", \"detail\": ", f);
	dfz_json_string(c->detail, f);
	fputs(" },\n", f);
}

/* The drop-in part of a bucket, before its "signal". */
static void dropin_fields(FILE *f, const struct dfz__triage *t,
			  const struct dfz__bucket *b)
{
	static const char in[] = "      ";
	const struct dfz__dbucket *d = b->drop;
	const struct dfz_triage_bin *bin = &t->cfg->dropin[d->test];

	key_string(f, in, "test", bin->name, ",\n");
	key_string(f, in, "exec", bin->bin, ",\n");
	key_string(f, in, "key", d->fixed ? b->repro.key :
		   t->in[b->member[0]].o.key, ",\n");
	site_object(f, "site", &d->site);
	site_object(f, "prior", &d->prior);
	key_string(f, in, "status", d->fixed ? "fixed" : "open", ",\n");
	fprintf(f, "%s\"regressed\": %s,\n%s\"fixed\": [", in,
		d->regressed ? "true" : "false", in);
	for (unsigned i = 0; i < d->nfixed; i++) {
		fputs(i ? ", " : "", f);
		dfz_json_string(name_of(&t->in[d->fixed_in[i]]), f);
	}
	fputs("],\n", f);
	check_object(f, "valgrind", &d->valgrind);
	check_object(f, "asan", &d->asan);
}

static void bucket_object(FILE *f, const struct dfz__triage *t,
			  const struct dfz__bucket *b, bool last)
{
	static const char in[] = "      ";
	const struct dfz__input *first = &t->in[b->member[0]];
	const struct dfz__outcome *o = &b->repro;   /* as verdict.txt */
	char path[64];

	fputs("    {\n", f);
	key_string(f, in, "id", b->id, ",\n");
	key_string(f, in, "signature", b->drop ? b->drop->sig : o->sig, ",\n");
	key_string(f, in, "class", o->cls, ",\n");
	key_string(f, in, "oracle", o->oracle, ",\n");
	if (o->level >= 0)
		key_string(f, in, "level", dfz_level_name((unsigned)o->level),
			   ",\n");
	else
		fprintf(f, "%s\"level\": null,\n", in);
	key_string(f, in, "target", b->drop ? t->cfg->dropin[b->drop->test].name
		   : first->target, ",\n");
	key_string(f, in, "bugs", t->rep.bugs, ",\n");
	fprintf(f, "%s\"count\": %u,\n%s\"distinct\": %u,\n%s\"inputs\": [", in,
		b->count, in, b->distinct, in);
	for (unsigned i = 0; i < b->count; i++) {
		fputs(i ? ", " : "", f);
		dfz_json_string(name_of(&t->in[b->member[i]]), f);
	}
	fputs("],\n", f);
	key_string(f, in, "message", o->message, ",\n");
	snprintf(path, sizeof(path), "buckets/%s/repro.bin", b->id);
	key_string(f, in, "reproducer", path, ",\n");
	snprintf(path, sizeof(path), "buckets/%s/repro.plan", b->id);
	if (b->has_plan)
		key_string(f, in, "plan", path, ",\n");
	else
		fprintf(f, "%s\"plan\": null,\n", in);
	snprintf(path, sizeof(path), "buckets/%s/repro.c", b->id);
	if (b->has_c)
		key_string(f, in, "c", path, ",\n");
	else
		fprintf(f, "%s\"c\": null,\n", in);
	replay_array(f, b);
	fprintf(f, "%s\"min\": { \"bytes_in\": %zu, \"bytes_out\": %zu, "
		"\"runs\": %llu, \"seconds\": %.2f },\n", in, b->bytes_in,
		b->bytes_out, (unsigned long long)b->runs, b->seconds);
	if (b->drop)
		dropin_fields(f, t, b);
	fprintf(f, "%s\"signal\": ", in);
	if (o->has_signal)
		signal_object(f, o);
	else
		fputs("null", f);
	fprintf(f, "\n    }%s\n", last ? "" : ",");
}

/* "same_as": { copy: the input it repeats, ... }, in scan order. */
static void same_as_object(FILE *f, const struct dfz__triage *t)
{
	bool first = true;

	fputs("  \"same_as\": {", f);
	for (unsigned i = 0; i < t->nin; i++) {
		if (t->in[i].same_as < 0)
			continue;
		fputs(first ? "\n    " : ",\n    ", f);
		dfz_json_string(name_of(&t->in[i]), f);
		fputs(": ", f);
		dfz_json_string(name_of(&t->in[t->in[i].same_as]), f);
		first = false;
	}
	fprintf(f, "%s},\n", first ? "" : "\n  ");
}

/* A drop-in triage's "srcroot" (absolute when known) and "tests". */
static void dropin_head(FILE *f, const struct dfz__triage *t)
{
	key_string(f, "  ", "srcroot", t->srcroot, ",\n");
	fputs("  \"tests\": [", f);
	for (unsigned k = 0; k < t->cfg->ndropin; k++) {
		fputs(k ? ", " : "", f);
		dfz_json_string(t->cfg->dropin[k].name, f);
	}
	fputs("],\n", f);
}

int dfz__triage_json(const struct dfz__triage *t)
{
	struct dfz__text txt;
	char path[4200];
	bool first = true;
	int rc = dfz__text_open(&txt);

	if (rc < 0)
		return rc;
	fputs("{\n  \"version\": 1,\n", txt.f);
	key_string(txt.f, "  ", "campaign", t->cfg->dir, ",\n");
	if (t->cfg->ndropin)
		dropin_head(txt.f, t);
	fprintf(txt.f, "  \"inputs\": %u,\n  \"distinct\": %u,\n", t->nin,
		t->distinct);
	same_as_object(txt.f, t);
	fprintf(txt.f, "  \"buckets\": [%s", t->nb ? "\n" : "");
	for (unsigned k = 0; k < t->nb; k++)
		bucket_object(txt.f, t, &t->b[k], k + 1 == t->nb);
	fprintf(txt.f, "%s],\n  \"malformed\": [", t->nb ? "  " : "");
	for (unsigned i = 0; i < t->nin; i++) {
		if (t->in[i].o.kind != DFZ__MALFORMED)
			continue;
		fputs(first ? "\n    { \"input\": " : ",\n    { \"input\": ", txt.f);
		dfz_json_string(name_of(&t->in[i]), txt.f);
		fputs(", \"reason\": ", txt.f);
		dfz_json_string(t->in[i].o.reason, txt.f);
		fputs(" }", txt.f);
		first = false;
	}
	fprintf(txt.f, "%s],\n  \"clean\": [", first ? "" : "\n  ");
	first = true;
	for (unsigned i = 0; i < t->nin; i++) {
		if (t->in[i].o.kind != DFZ__CLEAN)
			continue;
		fputs(first ? "\n    " : ",\n    ", txt.f);
		dfz_json_string(name_of(&t->in[i]), txt.f);
		first = false;
	}
	fprintf(txt.f, "%s]\n}\n", first ? "" : "\n  ");
	snprintf(path, sizeof(path), "%s/triage.json", t->out);
	return dfz__text_commit(&txt, path);
}
