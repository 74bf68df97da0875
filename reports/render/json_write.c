// SPDX-License-Identifier: MIT
/*
 * A streaming JSON writer for the report's machine-readable outputs
 * (summary.json, findings.sarif): two-space indentation, numbers printed
 * the same way on every run, strings through dfz_json_string() (the one
 * escaper, runtime/text.c: invalid UTF-8 from the inputs, a plan file or
 * a disassembly, becomes U+FFFD so the output always parses).
 */
#include <math.h>
#include <string.h>

#include "render_int.h"

void dfz__jw_init(struct dfz__jw *w, FILE *f)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
}

static void indent(struct dfz__jw *w)
{
	fputc('\n', w->f);
	for (unsigned i = 0; i < w->depth; i++)
		fputs("  ", w->f);
}

/* Before a value or a key: the comma and the line break of the container. */
static void before(struct dfz__jw *w)
{
	if (w->after_key) {
		w->after_key = false;
		return;
	}
	if (w->depth == 0)
		return;
	if (w->nonempty[w->depth])
		fputc(',', w->f);
	w->nonempty[w->depth] = true;
	indent(w);
}

void dfz__jw_open(struct dfz__jw *w, char bracket)
{
	before(w);
	fputc(bracket, w->f);
	if (w->depth < DFZ_JSON_MAX_DEPTH)
		w->depth++;
	w->nonempty[w->depth] = false;
}

void dfz__jw_close(struct dfz__jw *w, char bracket)
{
	bool had = w->nonempty[w->depth];

	if (w->depth > 0)
		w->depth--;
	if (had)
		indent(w);
	fputc(bracket, w->f);
	if (w->depth == 0)
		fputc('\n', w->f);
}

void dfz__jw_key(struct dfz__jw *w, const char *key)
{
	before(w);
	dfz_json_string(key, w->f);
	fputs(": ", w->f);
	w->after_key = true;
}

void dfz__jw_str(struct dfz__jw *w, const char *s)
{
	if (!s) {
		dfz__jw_null(w);
		return;
	}
	before(w);
	dfz_json_string(s, w->f);
}

void dfz__jw_num(struct dfz__jw *w, double v)
{
	if (!isfinite(v)) {
		dfz__jw_null(w);
		return;
	}
	before(w);
	if (v == floor(v) && fabs(v) < 1e15)
		fprintf(w->f, "%.0f", v);
	else
		fprintf(w->f, "%.6g", v);
}

void dfz__jw_bool(struct dfz__jw *w, bool v)
{
	before(w);
	fputs(v ? "true" : "false", w->f);
}

void dfz__jw_null(struct dfz__jw *w)
{
	before(w);
	fputs("null", w->f);
}

void dfz__jw_kstr(struct dfz__jw *w, const char *key, const char *s)
{
	dfz__jw_key(w, key);
	dfz__jw_str(w, s);
}

void dfz__jw_knum(struct dfz__jw *w, const char *key, double v)
{
	dfz__jw_key(w, key);
	if (v < 0)
		dfz__jw_null(w);
	else
		dfz__jw_num(w, v);
}

void dfz__jw_value(struct dfz__jw *w, const struct dfz_json *v)
{
	double d;
	bool b;

	switch (dfz_json_type_of(v)) {
	case DFZ_JSON_BOOL:
		dfz_json_bool(v, &b);
		dfz__jw_bool(w, b);
		break;
	case DFZ_JSON_NUMBER:
		dfz_json_num(v, &d);
		dfz__jw_num(w, d);
		break;
	case DFZ_JSON_STRING:
		dfz__jw_str(w, dfz_json_str(v));
		break;
	case DFZ_JSON_ARRAY:
	case DFZ_JSON_OBJECT: {
		bool obj = dfz_json_type_of(v) == DFZ_JSON_OBJECT;

		dfz__jw_open(w, obj ? '{' : '[');
		for (size_t i = 0; i < dfz_json_len(v); i++) {
			if (obj)
				dfz__jw_key(w, dfz_json_key(v, i));
			dfz__jw_value(w, dfz_json_at(v, i));
		}
		dfz__jw_close(w, obj ? '}' : ']');
		break;
	}
	default:
		dfz__jw_null(w);
		break;
	}
}
