/* SPDX-License-Identifier: MIT */
/*
 * Private interface of the JSON reader (json_read.c, over jansson): what
 * the report reads back (triage.json) and what the report's tests check
 * the outputs with. Private to reports/render/ and its tests.
 */
#ifndef DMAFUZZ_JSON_INT_H
#define DMAFUZZ_JSON_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "dmafuzz/runtime.h"

/*
 * A strict, bounded JSON reader: what the report reads back (triage.json)
 * and what its tests check the outputs with. A parsed document is a tree
 * of values; accessors take NULL and wrong types and answer NULL, 0 or
 * false, so a lookup chain needs one check at its end.
 */
#define DFZ_JSON_MAX_TEXT (64u << 20)  /* bytes of one document */
#define DFZ_JSON_MAX_DEPTH 64u         /* nesting of arrays and objects */
#define DFZ_JSON_MAX_NODES (1u << 22)  /* values in one document */

struct dfz_json;

enum dfz_json_type {
	DFZ_JSON_NONE = 0,                /* no value (a NULL pointer) */
	DFZ_JSON_NULL,
	DFZ_JSON_BOOL,
	DFZ_JSON_NUMBER,
	DFZ_JSON_STRING,
	DFZ_JSON_ARRAY,
	DFZ_JSON_OBJECT,
};

/**
 * dfz_json_parse() - parse one JSON document with jansson (RFC 8259,
 * strictly: no comments, trailing commas, duplicate keys, invalid UTF-8,
 * lone surrogates or \u0000; at most DFZ_JSON_MAX_TEXT bytes,
 * DFZ_JSON_MAX_DEPTH levels and DFZ_JSON_MAX_NODES values). Every number
 * reads as a double, integers past 2^63 too.
 * @text: borrowed, @n bytes (need not be NUL-terminated).
 * @out: the root; caller owns; release with dfz_json_free(). NULL on error.
 * @err: out, @errlen bytes: "line L, column C: what" on error (may be NULL).
 * Return: 0, DFZ_EINVAL (not valid JSON, or over a cap), DFZ_ENOMEM.
 */
int dfz_json_parse(const char *text, size_t n, struct dfz_json **out,
		   char *err, size_t errlen);

/** dfz_json_free() - release a document from dfz_json_parse(); accepts NULL. */
void dfz_json_free(struct dfz_json *j);

/** dfz_json_type_of() - the type of @j; DFZ_JSON_NONE for NULL. */
enum dfz_json_type dfz_json_type_of(const struct dfz_json *j);

/** dfz_json_get() - member @key of object @obj, or NULL (borrowed). */
const struct dfz_json *dfz_json_get(const struct dfz_json *obj,
				    const char *key);

/** dfz_json_len() - items of an array or members of an object; else 0. */
size_t dfz_json_len(const struct dfz_json *j);

/** dfz_json_at() - item @i of an array (or member @i of an object), or NULL. */
const struct dfz_json *dfz_json_at(const struct dfz_json *j, size_t i);

/** dfz_json_key() - the key of member @i of object @obj, or NULL. */
const char *dfz_json_key(const struct dfz_json *obj, size_t i);

/** dfz_json_str() - the text of string @j (borrowed from @j), or NULL. */
const char *dfz_json_str(const struct dfz_json *j);

/** dfz_json_num() - the value of number @j into @out; false if no number. */
bool dfz_json_num(const struct dfz_json *j, double *out);

/** dfz_json_bool() - the value of boolean @j into @out; false if none. */
bool dfz_json_bool(const struct dfz_json *j, bool *out);

#endif /* DMAFUZZ_JSON_INT_H */
