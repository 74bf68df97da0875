// SPDX-License-Identifier: MIT
/*
 * Verdicts as people and machines read them: a fixed `KEY: value` block for
 * people (greppable, in the manner of honggfuzz's crash reports) and one
 * JSON object per line for tools.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "harness_int.h"

void dfz__verdict_reason(struct dfz_verdict *v, const char *fmt, ...)
{
	va_list ap;

	v->kind = DFZ_VERDICT_REJECTED;
	va_start(ap, fmt);
	vsnprintf(v->reason, sizeof(v->reason), fmt, ap);
	va_end(ap);
}

static const char *kind_name(unsigned kind)
{
	static const char *const names[] = { "clean", "bug", "rejected" };

	return kind < 3 ? names[kind] : "unknown";
}

static void print_json(const struct dfz_verdict *v, const char *name, FILE *f)
{
	const struct dfz_finding *fi = &v->finding;

	fputs("{\"input\":", f);
	dfz_json_string(name ? name : "", f);
	fprintf(f, ",\"verdict\":\"%s\"", kind_name(v->kind));
	if (v->clamped[0]) {
		fputs(",\"clamped\":", f);
		dfz_json_string(v->clamped, f);
	}
	if (v->kind == DFZ_VERDICT_BUG) {
		fprintf(f, ",\"class\":\"%s\",\"oracle\":", dfz_class_name(fi->cls));
		dfz_json_string(fi->oracle, f);
		fputs(",\"message\":", f);
		dfz_json_string(fi->msg, f);
		fprintf(f, ",\"evidence\":{\"step\":%" PRId64 ",\"xfer\":%" PRId64
			",\"elem\":%" PRId64 ",\"level\":%" PRId64
			",\"off\":%" PRId64 "}", fi->ev.step, fi->ev.xfer,
			fi->ev.elem, fi->ev.level, fi->ev.off);
	} else if (v->kind == DFZ_VERDICT_REJECTED) {
		fputs(",\"reason\":", f);
		dfz_json_string(v->reason, f);
	}
	fprintf(f, ",\"steps\":%" PRIu64 ",\"xfers\":%u}\n", v->steps, v->xfers);
}

static void print_field(FILE *f, const char *key, int64_t val)
{
	if (val >= 0)
		fprintf(f, "%-9s %" PRId64 "\n", key, val);
}

static void print_text(const struct dfz_verdict *v, const char *name, FILE *f)
{
	const struct dfz_finding *fi = &v->finding;

	fprintf(f, "INPUT:    %s\n", name ? name : "-");
	if (v->clamped[0])
		fprintf(f, "CLAMPED:  %s\n", v->clamped);
	fprintf(f, "VERDICT:  %s\n", kind_name(v->kind));
	if (v->kind == DFZ_VERDICT_REJECTED)
		fprintf(f, "REASON:   %s\n", v->reason);
	if (v->kind != DFZ_VERDICT_BUG) {
		fprintf(f, "STEPS:    %" PRIu64 "\nXFERS:    %u\n", v->steps,
			v->xfers);
		return;
	}
	fprintf(f, "CLASS:    %s\nORACLE:   %s\nMESSAGE:  %s\n",
		dfz_class_name(fi->cls), fi->oracle, fi->msg);
	print_field(f, "STEP:", fi->ev.step);
	print_field(f, "XFER:", fi->ev.xfer);
	print_field(f, "ELEM:", fi->ev.elem);
	if (fi->ev.level >= 0 && fi->ev.level < DFZ_NLEVELS && fi->ev.off >= 0)
		fprintf(f, "WHERE:    %s+0x%" PRIx64 "\n",
			dfz_level_name((unsigned)fi->ev.level),
			(uint64_t)fi->ev.off);
	fprintf(f, "STEPS:    %" PRIu64 "\nXFERS:    %u\n", v->steps, v->xfers);
}

void dfz_verdict_print(const struct dfz_verdict *v, const char *name,
		       bool json, FILE *f)
{
	if (json)
		print_json(v, name, f);
	else
		print_text(v, name, f);
}
