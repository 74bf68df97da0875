// SPDX-License-Identifier: MIT
/*
 * A strict, bounded JSON reader (RFC 8259) for the files the reports layer
 * reads back: triage.json, and in the tests summary.json and the SARIF log.
 * Strict: exactly one value, no comments, no trailing commas, no leading
 * zeros, valid UTF-8, no lone surrogates, no duplicate keys. Bounded: the
 * text length, the nesting depth and the node count have caps, so a
 * hostile file costs a bounded amount of memory and stack. Errors name the
 * line and column.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_gen_int.h"

struct dfz_json {
	enum dfz_json_type type;
	bool b;
	double num;
	char *str;                        /* string, NUL-terminated */
	size_t n;                         /* items of an array/object */
	size_t cap;
	struct dfz_json **items;
	char **keys;                      /* object: the key of each item */
};

struct reader {
	const char *s;
	size_t n;
	size_t pos;
	size_t nodes;
	char *err;
	size_t errlen;
	bool failed;
	bool nomem;                       /* the failure is out of memory */
};

static void fail(struct reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Record the first error with the line and column of the reader. */
static void fail(struct reader *r, const char *fmt, ...)
{
	size_t line = 1, col = 1;
	char msg[200];
	va_list ap;

	if (r->failed)
		return;
	r->failed = true;
	r->nomem = !strcmp(fmt, "out of memory");
	for (size_t i = 0; i < r->pos && i < r->n; i++, col++)
		if (r->s[i] == '\n') {
			line++;
			col = 0;
		}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (r->err && r->errlen)
		snprintf(r->err, r->errlen, "line %zu, column %zu: %s", line,
			 col, msg);
}

static void skip_ws(struct reader *r)
{
	while (r->pos < r->n && strchr(" \t\r\n", r->s[r->pos]) && r->s[r->pos])
		r->pos++;
}

static struct dfz_json *new_node(struct reader *r, enum dfz_json_type t)
{
	struct dfz_json *j;

	if (++r->nodes > DFZ_JSON_MAX_NODES) {
		fail(r, "more than %u values", DFZ_JSON_MAX_NODES);
		return NULL;
	}
	j = calloc(1, sizeof(*j));
	if (!j)
		fail(r, "out of memory");
	else
		j->type = t;
	return j;
}

/* Append @v (and @key, taken over) to container @c. */
static int push(struct reader *r, struct dfz_json *c, struct dfz_json *v,
		char *key)
{
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 8;
		struct dfz_json **it = realloc(c->items, cap * sizeof(*it));

		if (!it)
			goto err_nomem;
		c->items = it;
		if (c->type == DFZ_JSON_OBJECT) {
			char **k = realloc(c->keys, cap * sizeof(*k));

			if (!k)
				goto err_nomem;
			c->keys = k;
		}
		c->cap = cap;
	}
	c->items[c->n] = v;
	if (c->type == DFZ_JSON_OBJECT)
		c->keys[c->n] = key;
	c->n++;
	return 0;
err_nomem:
	fail(r, "out of memory");
	return -1;
}

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

static int hex4(struct reader *r, unsigned *out)
{
	unsigned v = 0;

	if (r->n - r->pos < 4) {
		fail(r, "truncated \\u escape");
		return -1;
	}
	for (int i = 0; i < 4; i++) {
		char c = r->s[r->pos++];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else {
			r->pos--;
			fail(r, "bad hex digit in \\u escape");
			return -1;
		}
	}
	*out = v;
	return 0;
}

static size_t put_utf8(char *d, unsigned cp)
{
	if (cp < 0x80) {
		d[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		d[0] = (char)(0xc0 | cp >> 6);
		d[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		d[0] = (char)(0xe0 | cp >> 12);
		d[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		d[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	d[0] = (char)(0xf0 | cp >> 18);
	d[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	d[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	d[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* A \u escape (after the 'u'), a surrogate pair as one code point. */
static int unicode_escape(struct reader *r, unsigned *cp)
{
	unsigned lo;

	if (hex4(r, cp) < 0)
		return -1;
	if (*cp >= 0xdc00 && *cp <= 0xdfff)
		goto err_lone;
	if (*cp >= 0xd800 && *cp <= 0xdbff) {
		if (r->n - r->pos < 2 || r->s[r->pos] != '\\' ||
		    r->s[r->pos + 1] != 'u')
			goto err_lone;
		r->pos += 2;
		if (hex4(r, &lo) < 0)
			return -1;
		if (lo < 0xdc00 || lo > 0xdfff)
			goto err_lone;
		*cp = 0x10000 + ((*cp - 0xd800) << 10) + (lo - 0xdc00);
	}
	if (*cp == 0) {
		fail(r, "\\u0000 in a string is not supported");
		return -1;
	}
	return 0;
err_lone:
	fail(r, "lone surrogate in \\u escape");
	return -1;
}

/* One escape after the backslash, appended at @d; its length or -1. */
static int escape(struct reader *r, char *d)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *k;
	unsigned cp;

	if (r->pos >= r->n) {
		fail(r, "unterminated string");
		return -1;
	}
	k = strchr(from, r->s[r->pos]);
	if (k && *k) {
		r->pos++;
		*d = to[k - from];
		return 1;
	}
	if (r->s[r->pos] != 'u') {
		fail(r, "bad escape '\\%c'", r->s[r->pos]);
		return -1;
	}
	r->pos++;
	if (unicode_escape(r, &cp) < 0)
		return -1;
	return (int)put_utf8(d, cp);
}

/* A string at the opening quote into a new buffer (caller frees). */
static char *parse_chars(struct reader *r)
{
	size_t start = ++r->pos, len = 0;
	char *d;

	/* The decoded text is never longer than the raw one. */
	while (r->pos < r->n && r->s[r->pos] != '"')
		r->pos += r->s[r->pos] == '\\' ? 2 : 1;
	d = malloc(r->pos - start + 1);
	if (!d) {
		fail(r, "out of memory");
		return NULL;
	}
	r->pos = start;
	while (r->pos < r->n && r->s[r->pos] != '"') {
		const unsigned char *p = (const unsigned char *)r->s + r->pos;
		size_t k;
		int e;

		if (*p < 0x20) {
			fail(r, "control character in a string");
			goto err_free;
		}
		if (*p == '\\') {
			r->pos++;
			e = escape(r, d + len);
			if (e < 0)
				goto err_free;
			len += (size_t)e;
			continue;
		}
		k = dfz__utf8_len(p, r->n - r->pos);
		if (!k) {
			fail(r, "invalid UTF-8");
			goto err_free;
		}
		memcpy(d + len, p, k);
		len += k;
		r->pos += k;
	}
	if (r->pos >= r->n) {
		fail(r, "unterminated string");
		goto err_free;
	}
	r->pos++;
	d[len] = 0;
	return d;
err_free:
	free(d);
	return NULL;
}

static size_t digits(struct reader *r)
{
	size_t k = 0;

	while (r->pos < r->n && r->s[r->pos] >= '0' && r->s[r->pos] <= '9')
		r->pos++, k++;
	return k;
}

static struct dfz_json *parse_number(struct reader *r)
{
	size_t start = r->pos;
	char buf[64];
	struct dfz_json *j;

	if (r->s[r->pos] == '-')
		r->pos++;
	if (r->pos < r->n && r->s[r->pos] == '0')
		r->pos++;
	else if (!digits(r))
		goto err_bad;
	if (r->pos < r->n && r->s[r->pos] == '.') {
		r->pos++;
		if (!digits(r))
			goto err_bad;
	}
	if (r->pos < r->n && (r->s[r->pos] == 'e' || r->s[r->pos] == 'E')) {
		r->pos++;
		if (r->pos < r->n && (r->s[r->pos] == '+' || r->s[r->pos] == '-'))
			r->pos++;
		if (!digits(r))
			goto err_bad;
	}
	if (r->pos - start >= sizeof(buf)) {
		fail(r, "number too long");
		return NULL;
	}
	memcpy(buf, r->s + start, r->pos - start);
	buf[r->pos - start] = 0;
	j = new_node(r, DFZ_JSON_NUMBER);
	if (j)
		j->num = strtod(buf, NULL);
	if (j && !isfinite(j->num)) {
		fail(r, "number out of range");
		free(j);
		return NULL;
	}
	return j;
err_bad:
	fail(r, "bad number");
	return NULL;
}

static struct dfz_json *parse_value(struct reader *r, unsigned depth);

static bool has_key(const struct dfz_json *o, const char *k)
{
	for (size_t i = 0; i < o->n; i++)
		if (!strcmp(o->keys[i], k))
			return true;
	return false;
}

/* An object key and its colon; the key (caller frees) or NULL. */
static char *parse_key(struct reader *r, const struct dfz_json *obj)
{
	char *key;

	if (r->pos >= r->n || r->s[r->pos] != '"') {
		fail(r, "expected a string key");
		return NULL;
	}
	key = parse_chars(r);
	if (!key)
		return NULL;
	if (has_key(obj, key)) {
		fail(r, "duplicate key \"%.60s\"", key);
		goto err_free;
	}
	skip_ws(r);
	if (r->pos >= r->n || r->s[r->pos] != ':') {
		fail(r, "expected ':'");
		goto err_free;
	}
	r->pos++;
	return key;
err_free:
	free(key);
	return NULL;
}

/* The members of an object or the items of an array, after the opening
 * bracket, up to and including the closing one. */
static int parse_members(struct reader *r, struct dfz_json *c, unsigned depth)
{
	bool obj = c->type == DFZ_JSON_OBJECT;
	char close = obj ? '}' : ']';

	skip_ws(r);
	if (r->pos < r->n && r->s[r->pos] == close) {
		r->pos++;
		return 0;
	}
	for (;;) {
		char *key = NULL;
		struct dfz_json *v;

		skip_ws(r);
		if (obj && !(key = parse_key(r, c)))
			return -1;
		v = parse_value(r, depth + 1);
		if (!v || push(r, c, v, key) < 0) {
			free(key);
			dfz_json_free(v);
			return -1;
		}
		skip_ws(r);
		if (r->pos < r->n && r->s[r->pos] == ',') {
			r->pos++;
			continue;
		}
		if (r->pos < r->n && r->s[r->pos] == close) {
			r->pos++;
			return 0;
		}
		fail(r, "expected ',' or '%c'", close);
		return -1;
	}
}

static struct dfz_json *parse_word(struct reader *r)
{
	static const struct {
		const char *w;
		enum dfz_json_type t;
		bool b;
	} words[] = {
		{ "true", DFZ_JSON_BOOL, true },
		{ "false", DFZ_JSON_BOOL, false },
		{ "null", DFZ_JSON_NULL, false },
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		size_t k = strlen(words[i].w);
		struct dfz_json *j;

		if (r->n - r->pos < k || memcmp(r->s + r->pos, words[i].w, k))
			continue;
		r->pos += k;
		j = new_node(r, words[i].t);
		if (j)
			j->b = words[i].b;
		return j;
	}
	fail(r, "unexpected character '%c'", r->s[r->pos]);
	return NULL;
}

static struct dfz_json *parse_value(struct reader *r, unsigned depth)
{
	struct dfz_json *j;
	char c;

	if (depth >= DFZ_JSON_MAX_DEPTH) {
		fail(r, "nested deeper than %u", DFZ_JSON_MAX_DEPTH);
		return NULL;
	}
	skip_ws(r);
	if (r->pos >= r->n) {
		fail(r, "unexpected end of input");
		return NULL;
	}
	c = r->s[r->pos];
	if (c == '{' || c == '[') {
		r->pos++;
		j = new_node(r, c == '{' ? DFZ_JSON_OBJECT : DFZ_JSON_ARRAY);
		if (j && parse_members(r, j, depth) < 0) {
			dfz_json_free(j);
			return NULL;
		}
		return j;
	}
	if (c == '"') {
		char *s = parse_chars(r);

		j = s ? new_node(r, DFZ_JSON_STRING) : NULL;
		if (!j)
			free(s);
		else
			j->str = s;
		return j;
	}
	if (c == '-' || (c >= '0' && c <= '9'))
		return parse_number(r);
	return parse_word(r);
}

int dfz_json_parse(const char *text, size_t n, struct dfz_json **out,
		   char *err, size_t errlen)
{
	struct reader r = { .s = text, .n = n, .err = err, .errlen = errlen };
	struct dfz_json *j = NULL;

	*out = NULL;
	if (n > DFZ_JSON_MAX_TEXT)
		fail(&r, "larger than %u bytes", DFZ_JSON_MAX_TEXT);
	else if (memchr(text, 0, n))
		fail(&r, "NUL byte in the text");
	else
		j = parse_value(&r, 0);
	if (j) {
		skip_ws(&r);
		if (r.pos < r.n)
			fail(&r, "trailing characters after the value");
	}
	if (r.failed) {
		dfz_json_free(j);
		return r.nomem ? DFZ_ENOMEM : DFZ_EINVAL;
	}
	*out = j;
	return 0;
}

void dfz_json_free(struct dfz_json *j)
{
	if (!j)
		return;
	for (size_t i = 0; i < j->n; i++) {
		dfz_json_free(j->items[i]);
		if (j->keys)
			free(j->keys[i]);
	}
	free(j->items);
	free(j->keys);
	free(j->str);
	free(j);
}

enum dfz_json_type dfz_json_type_of(const struct dfz_json *j)
{
	return j ? j->type : DFZ_JSON_NONE;
}

const struct dfz_json *dfz_json_get(const struct dfz_json *obj,
				    const char *key)
{
	if (!obj || obj->type != DFZ_JSON_OBJECT)
		return NULL;
	for (size_t i = 0; i < obj->n; i++)
		if (!strcmp(obj->keys[i], key))
			return obj->items[i];
	return NULL;
}

size_t dfz_json_len(const struct dfz_json *j)
{
	return j && (j->type == DFZ_JSON_ARRAY || j->type == DFZ_JSON_OBJECT)
		       ? j->n : 0;
}

const struct dfz_json *dfz_json_at(const struct dfz_json *j, size_t i)
{
	return j && i < dfz_json_len(j) ? j->items[i] : NULL;
}

const char *dfz_json_key(const struct dfz_json *obj, size_t i)
{
	return obj && obj->type == DFZ_JSON_OBJECT && i < obj->n ? obj->keys[i]
								 : NULL;
}

const char *dfz_json_str(const struct dfz_json *j)
{
	return j && j->type == DFZ_JSON_STRING ? j->str : NULL;
}

bool dfz_json_num(const struct dfz_json *j, double *out)
{
	if (!j || j->type != DFZ_JSON_NUMBER)
		return false;
	*out = j->num;
	return true;
}

bool dfz_json_bool(const struct dfz_json *j, bool *out)
{
	if (!j || j->type != DFZ_JSON_BOOL)
		return false;
	*out = j->b;
	return true;
}
