// SPDX-License-Identifier: MIT
/*
 * The JSON reader of the reports layer (triage.json; in the tests
 * summary.json and the SARIF log) over jansson: jansson parses, strictly
 * (one value, no comments or trailing commas, no leading zeros, valid
 * UTF-8, no lone surrogates, no \u0000, no duplicate keys), and the tree
 * it builds is copied into ours, whose arrays and objects are indexed in
 * O(1) as the report's readers walk them. A scan before the parse bounds
 * what a hostile file costs: text length, nesting depth and value count
 * have caps, checked before jansson allocates anything. Errors name the
 * line and column.
 */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_int.h"

struct dfz_json {
	enum dfz_json_type type;
	bool b;
	double num;
	char *str;                        /* string, NUL-terminated */
	size_t n;                         /* items of an array/object */
	struct dfz_json **items;
	char **keys;                      /* object: the key of each item */
};

static void say(char *err, size_t errlen, size_t line, size_t col,
		const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* "line L, column C: what" into @err (which may be NULL). */
static void say(char *err, size_t errlen, size_t line, size_t col,
		const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(err, errlen, "line %zu, column %zu: %s", line, col, msg);
}

/*
 * The caps, before any allocation: the nesting depth, and the values (at
 * most one per '[' or '{' or ',' outside strings, plus the root). Only
 * strings are skipped; the syntax is jansson's to check.
 */
static int check_caps(const char *s, size_t n, char *err, size_t errlen)
{
	size_t line = 1, bol = 0, depth = 0, values = 1;
	bool in_str = false;

	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (c == '\n') {
			line++;
			bol = i + 1;
		} else if (in_str) {
			i += c == '\\';
			in_str = c != '"';
		} else if (c == '"') {
			in_str = true;
		} else if (c == '[' || c == '{') {
			values++;
			if (++depth > DFZ_JSON_MAX_DEPTH) {
				say(err, errlen, line, i - bol + 1, "nested "
				    "deeper than %u", DFZ_JSON_MAX_DEPTH);
				return DFZ_EINVAL;
			}
		} else if (c == ']' || c == '}') {
			depth -= depth > 0;
		} else if (c == ',' && ++values > DFZ_JSON_MAX_NODES) {
			say(err, errlen, line, i - bol + 1, "more than %u "
			    "values", DFZ_JSON_MAX_NODES);
			return DFZ_EINVAL;
		}
	}
	return 0;
}

static struct dfz_json *copy_tree(const json_t *v);

/* The items (and keys) of array or object @v into @j. */
static int copy_items(struct dfz_json *j, const json_t *v)
{
	bool obj = json_is_object(v);
	size_t n = obj ? json_object_size(v) : json_array_size(v), k = 0;
	const char *key;
	json_t *item;

	j->items = calloc(n ? n : 1, sizeof(*j->items));
	j->keys = obj ? calloc(n ? n : 1, sizeof(*j->keys)) : NULL;
	if (!j->items || (obj && !j->keys))
		return DFZ_ENOMEM;
	if (!obj) {
		for (; k < n; j->n = ++k)
			if (!(j->items[k] = copy_tree(json_array_get(v, k))))
				return DFZ_ENOMEM;
		return 0;
	}
	json_object_foreach((json_t *)v, key, item) {
		j->keys[k] = strdup(key);
		j->items[k] = copy_tree(item);
		j->n = ++k;
		if (!j->keys[k - 1] || !j->items[k - 1])
			return DFZ_ENOMEM;
	}
	return 0;
}

/* A copy of jansson's @v (recursion bounded by DFZ_JSON_MAX_DEPTH); NULL
 * when out of memory. */
static struct dfz_json *copy_tree(const json_t *v)
{
	struct dfz_json *j = calloc(1, sizeof(*j));
	int rc = 0;

	if (!j)
		return NULL;
	switch (json_typeof(v)) {
	case JSON_OBJECT:
	case JSON_ARRAY:
		j->type = json_is_object(v) ? DFZ_JSON_OBJECT : DFZ_JSON_ARRAY;
		rc = copy_items(j, v);
		break;
	case JSON_STRING:
		j->type = DFZ_JSON_STRING;
		j->str = strdup(json_string_value(v));
		rc = j->str ? 0 : DFZ_ENOMEM;
		break;
	case JSON_INTEGER:
	case JSON_REAL:
		j->type = DFZ_JSON_NUMBER;
		j->num = json_number_value(v);
		break;
	case JSON_TRUE:
	case JSON_FALSE:
		j->type = DFZ_JSON_BOOL;
		j->b = json_is_true(v);
		break;
	default:
		j->type = DFZ_JSON_NULL;
		break;
	}
	if (rc < 0) {
		dfz_json_free(j);
		return NULL;
	}
	return j;
}

int dfz_json_parse(const char *text, size_t n, struct dfz_json **out,
		   char *err, size_t errlen)
{
	/* Numbers as reals: an integer past 2^63 reads as a double, as
	 * every number does through dfz_json_num(). */
	const size_t flags = JSON_REJECT_DUPLICATES | JSON_DECODE_ANY |
			     JSON_DECODE_INT_AS_REAL;
	json_error_t je;
	json_t *root;
	int rc;

	*out = NULL;
	if (n > DFZ_JSON_MAX_TEXT) {
		say(err, errlen, 1, 1, "larger than %u bytes", DFZ_JSON_MAX_TEXT);
		return DFZ_EINVAL;
	}
	if (memchr(text, 0, n)) {
		say(err, errlen, 1, 1, "NUL byte in the text");
		return DFZ_EINVAL;
	}
	rc = check_caps(text, n, err, errlen);
	if (rc < 0)
		return rc;
	root = json_loadb(text, n, flags, &je);
	if (!root) {
		say(err, errlen, je.line > 0 ? (size_t)je.line : 1,
		    je.column > 0 ? (size_t)je.column : 1, "%s", je.text);
		return json_error_code(&je) == json_error_out_of_memory ?
			       DFZ_ENOMEM : DFZ_EINVAL;
	}
	*out = copy_tree(root);
	json_decref(root);
	if (*out)
		return 0;
	say(err, errlen, 1, 1, "out of memory");
	return DFZ_ENOMEM;
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
