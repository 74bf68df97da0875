// SPDX-License-Identifier: MIT
/*
 * The helpers written once for the reports and the command line
 * (reports/common/) and the one JSON string escaper (runtime/text.c):
 * FNV-1a against published vectors, the growable array, both directory
 * walks (what they skip, their order, a callback that stops them, a
 * directory that is not there), the target of a path, the atomic write
 * and the whole-file read, and the escaper on every kind of byte.
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common_int.h"
#include "scratch.h"

/* ------------------------------------------------------------ hash */

/* The published FNV-1a 64-bit test vectors. */
static const struct {
	const char *in;
	uint64_t hash;
} fnv_cases[] = {
	{ "", 0xcbf29ce484222325ull },
	{ "a", 0xaf63dc4c8601ec8cull },
	{ "foobar", 0x85944171f73967e8ull },
};
#define NFNV (sizeof(fnv_cases) / sizeof(fnv_cases[0]))
_Static_assert(NFNV == 3, "tcase_add_loop_test bound below");

START_TEST(test_fnv1a_vectors)
{
	const char *in = fnv_cases[_i].in;

	ck_assert_uint_eq(dfz__fnv1a((const uint8_t *)in, strlen(in)),
			  fnv_cases[_i].hash);
}
END_TEST

/* ------------------------------------------------------------ arrays */

START_TEST(test_grow_doubles_and_keeps_items)
{
	unsigned *a = NULL;
	size_t cap = 0, n;

	for (n = 0; n < 1000; n++) {
		unsigned *before = a;
		size_t cap_before = cap;

		ck_assert_int_eq(dfz__grow(&a, &cap, n, sizeof(*a), 4), 0);
		ck_assert_uint_gt(cap, n);
		if (n < cap_before)           /* room already: nothing moves */
			ck_assert_ptr_eq(a, before);
		else
			ck_assert_uint_eq(cap, cap_before ? 2 * cap_before : 4);
		a[n] = (unsigned)n * 7;
	}
	ck_assert_uint_eq(cap, 1024);
	for (n = 0; n < 1000; n++)
		ck_assert_uint_eq(a[n], n * 7);
	free(a);
}
END_TEST

START_TEST(test_grow_refuses_an_overflowing_size)
{
	char *a = NULL;
	size_t cap = (SIZE_MAX >> 1) + 1;

	/* Doubling would wrap: refused, nothing touched. */
	ck_assert_int_eq(dfz__grow(&a, &cap, cap, 1, 16), DFZ_ENOMEM);
	ck_assert_ptr_null(a);
	ck_assert_uint_eq(cap, (SIZE_MAX >> 1) + 1);
}
END_TEST

/* ------------------------------------------------------------ directories */

/* The names a walk saw, in order, as "a,b,c," (and whether each path
 * was DIR/NAME). */
struct seen {
	const char *dir;
	char names[256];
	unsigned calls;
	unsigned stop_after;              /* 0: never stop */
};

static int note(const char *path, const char *name, void *arg)
{
	struct seen *s = arg;
	char want[2048];

	snprintf(want, sizeof(want), "%s/%s", s->dir, name);
	ck_assert_str_eq(path, want);
	strcat(s->names, name);
	strcat(s->names, ",");
	s->calls++;
	return s->stop_after && s->calls == s->stop_after ? DFZ_EIO : 0;
}

/* $T/d with b, a, .hidden and c. */
static void make_files(void)
{
	static const char *const names[] = { "b", "a", ".hidden", "c" };

	ck_assert_int_eq(mkdir(at("d"), 0777), 0);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		FILE *f = fopen(at("d/%s", names[i]), "w");

		ck_assert_ptr_nonnull(f);
		fclose(f);
	}
}

typedef int (*walk_fn)(const char *dir, dfz__dir_fn fn, void *arg,
		       bool *opened);
static const walk_fn walks[] = { dfz__dir_each, dfz__dir_each_sorted };
_Static_assert(sizeof(walks) / sizeof(walks[0]) == 2,
	       "tcase_add_loop_test bound below");

/* Either walk: every entry once, . and .. never; the sorted one in
 * strcmp order, dotfiles kept (the callers skip them). */
START_TEST(test_dir_walks)
{
	struct seen s = { .dir = at("d") };
	bool opened = false;

	make_files();
	ck_assert_int_eq(walks[_i](s.dir, note, &s, &opened), 0);
	ck_assert(opened);
	ck_assert_uint_eq(s.calls, 4);
	ck_assert_ptr_nonnull(strstr(s.names, ".hidden,"));
	ck_assert_ptr_null(strstr(s.names, ".,"));
	if (walks[_i] == dfz__dir_each_sorted)
		ck_assert_str_eq(s.names, ".hidden,a,b,c,");
}
END_TEST

START_TEST(test_dir_callback_stops_the_walk)
{
	struct seen s = { .dir = at("d"), .stop_after = 2 };
	struct seen u = { .dir = at("d"), .stop_after = 2 };

	make_files();
	ck_assert_int_eq(dfz__dir_each_sorted(s.dir, note, &s, NULL), DFZ_EIO);
	ck_assert_uint_eq(s.calls, 2);
	ck_assert_str_eq(s.names, ".hidden,a,");
	ck_assert_int_eq(dfz__dir_each(u.dir, note, &u, NULL), DFZ_EIO);
	ck_assert_uint_eq(u.calls, 2);
}
END_TEST

START_TEST(test_dir_missing)
{
	struct seen s = { .dir = at("nope") };
	bool opened = true;

	ck_assert_int_eq(dfz__dir_each(s.dir, note, &s, &opened), 0);
	ck_assert(!opened);
	opened = true;
	errno = 0;
	ck_assert_int_eq(dfz__dir_each_sorted(s.dir, note, &s, &opened), 0);
	ck_assert(!opened);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_uint_eq(s.calls, 0);
}
END_TEST

/* ------------------------------------------------------------ targets */

static const struct {
	const char *path;
	const char *target;
} target_cases[] = {
	{ "out/fuzz/xfer/main", "xfer" },
	{ "out/host/afl/api/default", "api" },     /* the nearest wins */
	{ "/abs/parse", "parse" },
	{ "hostile/xfers/xfer2", "other" },        /* whole components only */
	{ "", "other" },
	{ "//host//", "host" },
};
#define NTARGET (sizeof(target_cases) / sizeof(target_cases[0]))
_Static_assert(NTARGET == 6, "tcase_add_loop_test bound below");

START_TEST(test_target_of)
{
	unsigned t = dfz__target_of(target_cases[_i].path);

	ck_assert_uint_lt(t, DFZ__TARGETS);
	ck_assert_str_eq(dfz__target_names()[t], target_cases[_i].target);
}
END_TEST

/* ------------------------------------------------------------ files */

START_TEST(test_atomic_write_and_read_back)
{
	const char *path = at("f.txt");
	size_t n = 0;
	bool cut = true;
	char *text;
	struct stat st;

	ck_assert_int_eq(dfz__write_atomic(path, "hello\n", 6), 0);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq(st.st_mode & 0777, 0644);
	text = dfz__read_file(path, 64, &n, &cut);
	ck_assert_ptr_nonnull(text);
	ck_assert_str_eq(text, "hello\n");
	ck_assert_uint_eq(n, 6);
	ck_assert(!cut);
	free(text);
	/* A cap below the size: cut there, and said. */
	text = dfz__read_file(path, 3, &n, &cut);
	ck_assert_ptr_nonnull(text);
	ck_assert_str_eq(text, "hel");
	ck_assert(cut);
	free(text);
	/* Over it: the new bytes whole, no temporary file left beside. */
	ck_assert_int_eq(dfz__write_atomic(path, "bye", 3), 0);
	text = dfz__read_file(path, 64, &n, NULL);
	ck_assert_str_eq(text, "bye");
	free(text);
	ck_assert_int_eq(system("test \"$(ls -A $T)\" = f.txt"), 0);
}
END_TEST

START_TEST(test_atomic_write_fails_cleanly)
{
	errno = 0;
	ck_assert_int_eq(dfz__write_atomic(at("no/such/dir/f"), "x", 1),
			 DFZ_EIO);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_ptr_null(dfz__read_file(at("missing"), 64, NULL, NULL));
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(dfz__mkdir_p(at("no/such/dir")), 0);
	ck_assert_int_eq(dfz__write_atomic(at("no/such/dir/f"), "x", 1), 0);
}
END_TEST

/* ------------------------------------------------------------ JSON */

static const struct {
	const char *in;                   /* NULL: the NULL string */
	const char *out;
} json_cases[] = {
	{ "plain", "\"plain\"" },
	{ NULL, "\"\"" },
	{ "q\"b\\", "\"q\\\"b\\\\\"" },
	{ "\b\f\n\r\t", "\"\\b\\f\\n\\r\\t\"" },
	{ "\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\"" },
	{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"" },
	{ "\xff", "\"\\ufffd\"" },                /* no UTF-8 lead byte */
	{ "\xc3", "\"\\ufffd\"" },                /* cut sequence */
	{ "\xc0\xaf", "\"\\ufffd\\ufffd\"" },     /* overlong form */
	{ "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" }, /* a surrogate */
};
#define NJSON (sizeof(json_cases) / sizeof(json_cases[0]))
_Static_assert(NJSON == 10, "tcase_add_loop_test bound below");

START_TEST(test_json_string)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	dfz_json_string(json_cases[_i].in, f);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_str_eq(buf, json_cases[_i].out);
	free(buf);
}
END_TEST

Suite *suite_common(void)
{
	Suite *s = suite_create("common");
	TCase *tc = tcase_create("helpers");
	TCase *fs = tcase_create("files");

	tcase_add_loop_test(tc, test_fnv1a_vectors, 0, NFNV);
	tcase_add_test(tc, test_grow_doubles_and_keeps_items);
	tcase_add_test(tc, test_grow_refuses_an_overflowing_size);
	tcase_add_loop_test(tc, test_target_of, 0, NTARGET);
	tcase_add_loop_test(tc, test_json_string, 0, NJSON);
	suite_add_tcase(s, tc);
	scratch_add(fs);
	tcase_add_loop_test(fs, test_dir_walks, 0, 2);
	tcase_add_test(fs, test_dir_callback_stops_the_walk);
	tcase_add_test(fs, test_dir_missing);
	tcase_add_test(fs, test_atomic_write_and_read_back);
	tcase_add_test(fs, test_atomic_write_fails_cleanly);
	suite_add_tcase(s, fs);
	return s;
}
