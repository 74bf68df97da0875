// SPDX-License-Identifier: MIT
/*
 * A streaming JSON writer for the report's machine-readable outputs
 * (summary.json, findings.sarif): two-space indentation, proper string
 * escaping, numbers printed the same way on every run, and invalid UTF-8
 * from the inputs (a plan file, a disassembly) replaced by U+FFFD so the
 * output always parses.
 */
#include <math.h>
#include <string.h>

#include "render_int.h"

/* The length of the valid UTF-8 sequence at @p: 0 for none (an overlong
 * form, a surrogate, past U+10FFFF or past @n). */
size_t dfz__utf8_len(const unsigned char *p, size_t n)
{
	size_t k;
	unsigned cp;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		k = 2, cp = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		k = 3, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		k = 4, cp = p[0] & 0x07;
	else
		return 0;
	if (k > n)
		return 0;
	for (size_t i = 1; i < k; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((k == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (k == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return k;
}

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

static void put_string(FILE *f, const char *s)
{
	static const char esc[] = "\"\\\b\f\n\r\t", name[] = "\"\\bfnrt";
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);

	fputc('"', f);
	while (n) {
		const char *e = *p ? strchr(esc, *p) : NULL;
		size_t k;

		if (e) {
			fputc('\\', f);
			fputc(name[e - esc], f);
			k = 1;
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(f, "\\u%04x", *p);
			k = 1;
		} else if ((k = dfz__utf8_len(p, n)) > 0) {
			fwrite(p, 1, k, f);
		} else {
			fputs("\\ufffd", f);
			k = 1;
		}
		p += k;
		n -= k;
	}
	fputc('"', f);
}

void dfz__jw_key(struct dfz__jw *w, const char *key)
{
	before(w);
	put_string(w->f, key);
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
	put_string(w->f, s);
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
