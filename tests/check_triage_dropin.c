// SPDX-License-Identifier: MIT
/*
 * `dmafuzz triage --dropin` and `dmafuzz report --srcroot` end to end on
 * a campaign laid out as `dmafuzz campaign` leaves it (OUT/findings/<test>/,
 * OUT/afl/<test>/<instance>/): a stand-in drop-in test binary, compiled
 * here from a few lines of C, answers `BIN --json FILE` with the drop-in
 * verdict JSON (dropin/print.c's fields: class, site, prior) from marker
 * bytes in the schedule: 'X' a mem.oob at t.c:5 with prior t.c:3 that
 * also reads past a malloc'ed block (so memcheck and ASan see it), 'Y' a
 * dma.race at sub/u.c:2 without a prior, anything else clean. Checked:
 * the buckets and their keys, the sidecars skipped, the minimized size
 * smaller (the reproducer the marker byte alone), the valgrind and ASan
 * verdicts, the fixed marking against the previous triage.json (a fixed
 * input under an open bucket, a fixed bucket, a regression), the report's
 * table, its HTML source lines escaped and a missing source file said so,
 * its SARIF (valid JSON, 2.1.0, SRCROOT, the site's line, no result for
 * a fixed bucket), and bad input: a missing BIN, a malformed NAME=BIN, a
 * corrupt previous triage.json, each one line and its own exit code.
 * Runs $DFZ_CLI (set by `make check`).
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "json_int.h"
#include "scratch.h"
#include "xml_check.h"

/* The stand-in drop-in test. -DFIXED: the 'X' bug fixed; -DHALF: fixed
 * for schedules under 10 bytes only. */
static const char fake_c[] =
	"#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
	"int main(int argc, char **argv) {\n"
	"  int json = argc > 2 && !strcmp(argv[1], \"--json\");\n"
	"  FILE *f = fopen(argv[argc - 1], \"rb\");\n"
	"  char buf[4096]; size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;\n"
	"  int x = memchr(buf, 'X', n) != NULL, y = memchr(buf, 'Y', n) != NULL;\n"
	"  if (!f) return 2;\n"
	"#ifdef FIXED\n  x = 0;\n#endif\n"
	"#ifdef HALF\n  x = x && n >= 10;\n#endif\n"
	"  if (memchr(buf, 'Z', n)) return 2;\n"
	"  if (x) { volatile char *p = malloc(4); volatile char c = p[4];"
	" (void)c; free((void *)p); }\n"
	"  if (!x && !y) { puts(json ? \"{\\\"input\\\":\\\"i\\\",\\\"verdict\\\":"
	"\\\"clean\\\",\\\"steps\\\":1,\\\"xfers\\\":0}\" : \"VERDICT: clean\");"
	" return 0; }\n"
	"  if (!json) { printf(\"VERDICT: bug\\nCLASS: %s\\n\", x ? \"mem.oob\""
	" : \"dma.race\"); return 1; }\n"
	"  if (x) puts(\"{\\\"input\\\":\\\"i\\\",\\\"verdict\\\":\\\"bug\\\","
	"\\\"class\\\":\\\"mem.oob\\\",\\\"oracle\\\":\\\"bounds\\\","
	"\\\"message\\\":\\\"read past <block> & more\\\",\\\"site\\\":"
	"{\\\"file\\\":\\\"t.c\\\",\\\"line\\\":5,\\\"function\\\":\\\"body\\\","
	"\\\"stack\\\":[]},\\\"prior\\\":{\\\"file\\\":\\\"t.c\\\",\\\"line\\\":3,"
	"\\\"function\\\":\\\"body\\\",\\\"stack\\\":[]},\\\"steps\\\":1,"
	"\\\"xfers\\\":1}\");\n"
	"  else puts(\"{\\\"input\\\":\\\"i\\\",\\\"verdict\\\":\\\"bug\\\","
	"\\\"class\\\":\\\"dma.race\\\",\\\"oracle\\\":\\\"hazard\\\","
	"\\\"message\\\":\\\"two writes\\\",\\\"site\\\":{\\\"file\\\":"
	"\\\"sub/u.c\\\",\\\"line\\\":2,\\\"function\\\":\\\"f\\\","
	"\\\"stack\\\":[]},\\\"prior\\\":null,\\\"steps\\\":1,\\\"xfers\\\":1}\");\n"
	"  return 1;\n}\n";

static char err[4096];

/* $DFZ_CLI by its absolute path: the commands run in $T. */
static const char *cli(void)
{
	static char abs[4096];

	ck_assert_ptr_nonnull(realpath(cli_bin(), abs));
	return abs;
}

/* $T/bin/fake and its variants, the campaign's findings, the sources. */
static void campaign(void)
{
	FILE *f = fopen(at("fake.c"), "w");

	ck_assert_ptr_nonnull(f);
	fputs(fake_c, f);
	fclose(f);
	ck_assert_int_eq(sh("cd $T && mkdir -p bin && "
			    "cc -g -O0 -o bin/fake fake.c && "
			    "cc -g -O0 -DFIXED -o bin/fixed fake.c && "
			    "cc -g -O0 -DHALF -o bin/half fake.c"), 0);
	ck_assert_int_eq(sh("cd $T && mkdir -p out/findings/alpha "
		"out/findings/beta out/afl/alpha/default src && "
		"printf aaaaXbbbbbbbbbb > out/findings/alpha/id1 && "
		"printf ccXcc > out/findings/alpha/id2 && "
		"printf zzzzYzz > out/findings/alpha/id3 && "
		"printf clean > out/findings/alpha/id4 && "
		"printf X > out/findings/alpha/id1.min && "
		"printf X > out/findings/alpha/.state && "
		"printf qqqqqqqqqqqqYq > out/findings/beta/b1 && "
		"printf 'line1\\nline2 <tag> & \"q\"\\nline3\\nline4\\n"
		"line5 the bad read\\nline6\\n' > src/t.c && "
		"printf 'run_time : 10\\nexecs_done : 1000\\nsaved_crashes : 3\\n'"
		" > out/afl/alpha/default/fuzzer_stats"), 0);
}

/* `$DFZ_CLI triage --dropin ... @extra $T/out/findings`, into
 * $T/out/triage; stderr kept in err. */
static int triage(const char *bins, const char *extra)
{
	const char *errf = at("triage_err.txt");
	int rc = sh("cd $T && %s triage %s -r 400 --srcroot src %s "
		    "-o out/triage out/findings >/dev/null 2>%s", cli(),
		    bins, extra, errf);

	read_text(errf, err, sizeof(err));
	return rc;
}

static struct dfz_json *parse_file(const char *path)
{
	char perr[256];
	struct dfz_json *j;
	size_t n;
	char *text = slurp(path, &n);
	int rc = dfz_json_parse(text, n, &j, perr, sizeof(perr));

	ck_assert_msg(rc == 0, "%s: %s", path, perr);
	free(text);
	return j;
}

static const char *str(const struct dfz_json *o, const char *key)
{
	return dfz_json_str(dfz_json_get(o, key));
}

static double num(const struct dfz_json *o, const char *key)
{
	double v = -1;

	ck_assert_msg(dfz_json_num(dfz_json_get(o, key), &v), "no number %s",
		      key);
	return v;
}

/* The bucket of triage.json @j with @key, or NULL. */
static const struct dfz_json *bucket(const struct dfz_json *j, const char *key)
{
	const struct dfz_json *bs = dfz_json_get(j, "buckets");

	for (size_t i = 0; i < dfz_json_len(bs); i++)
		if (!strcmp(str(dfz_json_at(bs, i), "key"), key))
			return dfz_json_at(bs, i);
	return NULL;
}

#define KEY_OOB "alpha|mem.oob|t.c:5|t.c:3"
#define KEY_RACE "alpha|dma.race|sub/u.c:2|-"
#define KEY_BETA "beta|dma.race|sub/u.c:2|-"
#define BINS "--dropin alpha=bin/fake --dropin beta=bin/fake"

START_TEST(test_buckets)
{
	const struct dfz_json *b;
	struct dfz_json *j;
	char repro[64];

	campaign();
	ck_assert_msg(triage(BINS, "") == 0, "%s", err);
	j = parse_file(at("out/triage/triage.json"));
	ck_assert_double_eq(num(j, "inputs"), 5);     /* sidecars skipped */
	ck_assert_uint_eq(dfz_json_len(dfz_json_get(j, "buckets")), 3);
	ck_assert_uint_eq(dfz_json_len(dfz_json_get(j, "clean")), 1);
	b = bucket(j, KEY_OOB);
	ck_assert_ptr_nonnull(b);
	ck_assert_str_eq(str(b, "test"), "alpha");
	ck_assert_str_eq(str(b, "class"), "mem.oob");
	ck_assert_str_eq(str(b, "status"), "open");
	ck_assert_double_eq(num(b, "count"), 2);
	ck_assert_double_eq(num(dfz_json_get(b, "site"), "line"), 5);
	ck_assert_double_eq(num(dfz_json_get(b, "prior"), "line"), 3);
	/* The smaller input (5 bytes) shrunk to its marker byte. */
	ck_assert_double_eq(num(dfz_json_get(b, "min"), "bytes_in"), 5);
	ck_assert_double_eq(num(dfz_json_get(b, "min"), "bytes_out"), 1);
	ck_assert_uint_eq(read_text(at("out/triage/%s", str(b, "reproducer")),
				    repro, sizeof(repro)), 1);
	ck_assert_str_eq(repro, "X");
	ck_assert_ptr_null(str(b, "valgrind"));       /* not asked: null */
	b = bucket(j, KEY_BETA);
	ck_assert_ptr_nonnull(b);
	ck_assert_double_eq(num(dfz_json_get(b, "min"), "bytes_in"), 14);
	ck_assert_double_eq(num(dfz_json_get(b, "min"), "bytes_out"), 1);
	ck_assert_ptr_nonnull(bucket(j, KEY_RACE));
	ck_assert_int_eq(dfz_json_type_of(dfz_json_get(bucket(j, KEY_RACE),
						       "prior")), DFZ_JSON_NULL);
	ck_assert_int_eq(sh("grep -q 'CLASS: mem.oob' $T/out/triage/%s/verdict.txt",
			    "buckets/b01"), 0);
	dfz_json_free(j);
}
END_TEST

/* The reproducer under valgrind and with an ASan build of the test. */
START_TEST(test_checkers)
{
	const struct dfz_json *b;
	struct dfz_json *j;

	campaign();
	ck_assert_int_eq(sh("cd $T && cc -g -O0 -fsanitize=address -o "
			    "bin/fake-asan fake.c"), 0);
	ck_assert_msg(triage(BINS, "--valgrind --asan alpha=bin/fake-asan") == 0,
		      "%s", err);
	j = parse_file(at("out/triage/triage.json"));
	b = bucket(j, KEY_OOB);
	ck_assert_ptr_nonnull(b);
	ck_assert_str_eq(str(dfz_json_get(b, "valgrind"), "verdict"), "errors");
	ck_assert_ptr_nonnull(strstr(str(dfz_json_get(b, "valgrind"), "detail"),
				     "Invalid read of size 1"));
	ck_assert_str_eq(str(dfz_json_get(b, "asan"), "verdict"), "asan");
	ck_assert_ptr_nonnull(strstr(str(dfz_json_get(b, "asan"), "detail"),
				     "heap-buffer-overflow"));
	b = bucket(j, KEY_RACE);                      /* no bad read there */
	ck_assert_str_eq(str(dfz_json_get(b, "valgrind"), "verdict"), "clean");
	ck_assert_str_eq(str(dfz_json_get(b, "asan"), "verdict"), "finding");
	ck_assert_ptr_nonnull(strstr(str(dfz_json_get(b, "asan"), "detail"),
				     "dma.race"));
	b = bucket(j, KEY_BETA);                      /* no --asan for beta */
	ck_assert_int_eq(dfz_json_type_of(dfz_json_get(b, "asan")), DFZ_JSON_NULL);
	ck_assert_int_eq(sh("grep -q 'Invalid read' $T/out/triage/buckets/%s/"
			    "valgrind.txt", str(bucket(j, KEY_OOB), "id")), 0);
	dfz_json_free(j);
}
END_TEST

/* The names of @b's "fixed" inputs, space-separated, into @buf. */
static const char *fixed_names(const struct dfz_json *b, char *buf, size_t len)
{
	const struct dfz_json *a = dfz_json_get(b, "fixed");

	buf[0] = 0;
	for (size_t i = 0; i < dfz_json_len(a); i++) {
		const char *s = dfz_json_str(dfz_json_at(a, i));

		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? " " : "",
			 strrchr(s, '/') + 1);
	}
	return buf;
}

/* A fix of the small input only (an input FIXED under its open bucket),
 * then of both (a fixed bucket), then the bug back (regressed). */
START_TEST(test_fixed)
{
	const struct dfz_json *b;
	struct dfz_json *j;
	char names[256];
	double half;
	bool v = false;

	campaign();
	ck_assert_msg(triage(BINS, "") == 0, "%s", err);
	ck_assert_msg(triage("--dropin alpha=bin/half --dropin beta=bin/fake",
			     "") == 0, "%s", err);
	j = parse_file(at("out/triage/triage.json"));
	b = bucket(j, KEY_OOB);
	ck_assert_str_eq(str(b, "status"), "open");
	ck_assert_str_eq(fixed_names(b, names, sizeof(names)), "id2");
	ck_assert_double_eq(num(b, "count"), 1);
	half = num(dfz_json_get(b, "min"), "bytes_out");
	ck_assert_double_eq(half, 10);  /* the half fix needs 10 bytes */
	dfz_json_free(j);

	ck_assert_msg(triage("--dropin alpha=bin/fixed --dropin beta=bin/fake",
			     "") == 0, "%s", err);
	j = parse_file(at("out/triage/triage.json"));
	ck_assert_uint_eq(dfz_json_len(dfz_json_get(j, "buckets")), 3);
	b = bucket(j, KEY_OOB);
	ck_assert_ptr_nonnull(b);
	ck_assert_str_eq(str(b, "status"), "fixed");
	ck_assert_str_eq(fixed_names(b, names, sizeof(names)), "id1 id2");
	ck_assert_str_eq(str(bucket(j, KEY_RACE), "status"), "open");
	/* The fixed bucket keeps the last reproducer. */
	ck_assert_double_eq(num(dfz_json_get(b, "min"), "bytes_out"), half);
	dfz_json_free(j);

	ck_assert_msg(triage(BINS, "") == 0, "%s", err);
	j = parse_file(at("out/triage/triage.json"));
	b = bucket(j, KEY_OOB);
	ck_assert_str_eq(str(b, "status"), "open");
	ck_assert(dfz_json_bool(dfz_json_get(b, "regressed"), &v) && v);
	ck_assert(dfz_json_bool(dfz_json_get(bucket(j, KEY_RACE), "regressed"),
				&v) && !v);
	dfz_json_free(j);
}
END_TEST

/* The SARIF result at @i: its primary location's uri, base and line. */
static void sarif_location(const struct dfz_json *res, const char *uri,
			   double line)
{
	const struct dfz_json *pl = dfz_json_get(dfz_json_at(dfz_json_get(
		res, "locations"), 0), "physicalLocation");
	const struct dfz_json *al = dfz_json_get(pl, "artifactLocation");

	ck_assert_str_eq(str(al, "uri"), uri);
	ck_assert_str_eq(str(al, "uriBaseId"), "SRCROOT");
	ck_assert_double_eq(num(dfz_json_get(pl, "region"), "startLine"), line);
}

START_TEST(test_report)
{
	struct dfz_json *s, *j;
	const struct dfz_json *run, *res;
	char *html, why[256], root[2100];

	campaign();
	ck_assert_msg(triage(BINS, "") == 0, "%s", err);
	ck_assert_msg(triage("--dropin alpha=bin/fixed --dropin beta=bin/fake",
			     "") == 0, "%s", err);        /* b03 fixed */
	ck_assert_int_eq(sh("cd $T && %s report -q --srcroot src -o out/report "
			    "out", cli()), 0);
	html = slurp(at("out/report/index.html"), NULL);
	ck_assert_msg(xml_well_formed(html, why, sizeof(why)), "%s", why);
	ck_assert_ptr_nonnull(strstr(html, "line2 &lt;tag&gt; &amp; &quot;q&quot;"));
	ck_assert_ptr_nonnull(strstr(html, "<span class=\"fault\">    5  line5 "
					   "the bad read</span>"));
	ck_assert_ptr_nonnull(strstr(html, "src/sub/u.c</code> cannot be read"));
	ck_assert_ptr_nonnull(strstr(html, "<td>afl/alpha/default</td>"));
	free(html);
	ck_assert_int_eq(sh("grep -q '^| b03 | alpha | mem.oob | t.c:5 | t.c:3 "
			    "| 1 -> 1 bytes | not run | not run | fixed |' "
			    "$T/out/report/summary.md"), 0);
	s = parse_file(at("out/report/findings.sarif"));
	ck_assert_str_eq(str(s, "version"), "2.1.0");
	run = dfz_json_at(dfz_json_get(s, "runs"), 0);
	ck_assert_uint_eq(dfz_json_len(dfz_json_get(run, "results")), 2);
	res = dfz_json_at(dfz_json_get(run, "results"), 0);
	sarif_location(res, "sub/u.c", 2);
	ck_assert_ptr_nonnull(realpath(at("src"), root));
	strcat(root, "/");
	ck_assert_ptr_nonnull(strstr(str(dfz_json_get(dfz_json_get(run,
		"originalUriBaseIds"), "SRCROOT"), "uri"), root));
	dfz_json_free(s);
	j = parse_file(at("out/report/summary.json"));
	ck_assert_double_eq(num(dfz_json_get(j, "triage"), "dropin_buckets"), 3);
	ck_assert_double_eq(num(dfz_json_get(j, "triage"), "open"), 2);
	ck_assert_str_eq(str(dfz_json_at(dfz_json_get(j, "instances"), 0),
			     "test"), "alpha");
	dfz_json_free(j);
}
END_TEST

/* The open mem.oob bucket's SARIF result: at t.c:5, the prior t.c:3. */
START_TEST(test_sarif_site)
{
	struct dfz_json *s;
	const struct dfz_json *res, *rel;

	campaign();
	ck_assert_int_eq(sh("rm -rf $T/out/findings/beta"), 0);
	ck_assert_msg(triage("--dropin alpha=bin/fake", "") == 0, "%s", err);
	ck_assert_int_eq(sh("cd $T && %s report -q --srcroot src -o out/report "
			    "out", cli()), 0);
	s = parse_file(at("out/report/findings.sarif"));
	res = dfz_json_at(dfz_json_get(dfz_json_at(dfz_json_get(s, "runs"), 0),
				       "results"), 0);
	ck_assert_str_eq(str(res, "ruleId"), "mem.oob");
	sarif_location(res, "t.c", 5);
	rel = dfz_json_at(dfz_json_get(res, "relatedLocations"), 0);
	ck_assert_double_eq(num(dfz_json_get(dfz_json_get(rel,
		"physicalLocation"), "region"), "startLine"), 3);
	dfz_json_free(s);
}
END_TEST

/* Bad input: one line, its own exit code, documented in --help. */
START_TEST(test_bad_input)
{
	campaign();
	ck_assert_int_eq(triage("--dropin alpha=bin/nope", ""), 2);
	ck_assert_int_eq(lines(err), 1);
	ck_assert_ptr_nonnull(strstr(err, "cannot run 'bin/nope'"));
	ck_assert_int_eq(triage("--dropin alpha", ""), 2);
	ck_assert_ptr_nonnull(strstr(err, "malformed --dropin 'alpha'"));
	ck_assert_int_eq(triage("--dropin 'a b=bin/fake'", ""), 2);
	ck_assert_int_eq(lines(err), 1);
	ck_assert_int_eq(triage(BINS, "--asan gamma=bin/fake"), 2);
	ck_assert_ptr_nonnull(strstr(err, "no --dropin test"));
	ck_assert_int_eq(triage(BINS, "--dropin alpha=bin/fake"), 2);
	ck_assert_ptr_nonnull(strstr(err, "given twice"));
	ck_assert_int_eq(sh("mkdir -p $T/out/triage && printf '{\"version\":1,"
			    "\"buckets\":[{\"test\":\"alpha\"}]}' > "
			    "$T/out/triage/triage.json"), 0);
	ck_assert_int_eq(triage(BINS, ""), 4);
	ck_assert_int_eq(lines(err), 1);
	ck_assert_ptr_nonnull(strstr(err, "buckets[0].key"));
	ck_assert_int_eq(sh("printf '{\"version\":' > $T/out/triage/triage.json"),
			 0);
	ck_assert_int_eq(triage(BINS, ""), 4);
	ck_assert_int_eq(sh("printf '' > $T/out/triage/triage.json"), 0);
	ck_assert_int_eq(triage(BINS, ""), 4);
	/* The report of a triage.json whose drop-in fields are off. */
	ck_assert_int_eq(sh("printf '{\"version\":1,\"inputs\":0,\"buckets\":"
		"[{\"id\":\"b01\",\"signature\":\"s\",\"class\":\"c\",\"target\":"
		"\"t\",\"count\":1,\"inputs\":[\"x\"],\"message\":\"m\","
		"\"reproducer\":\"buckets/b01/repro.bin\",\"test\":\"t\","
		"\"status\":\"gone\"}],\"malformed\":[],\"clean\":[]}' > "
		"$T/out/triage/triage.json"), 0);
	ck_assert_int_eq(sh("cd $T && %s report -q -o out/report out 2>%s",
			    cli(), at("rep_err.txt")), 4);
	read_text(at("rep_err.txt"), err, sizeof(err));
	ck_assert_ptr_nonnull(strstr(err, "buckets[0].status"));
	ck_assert_int_eq(sh("%s triage --valgrind $T/out/findings 2>/dev/null",
			    cli_bin()), 2);
	ck_assert_int_eq(sh("%s triage --help | grep -q '4 the previous'",
			    cli_bin()), 0);
}
END_TEST

Suite *suite_triage_dropin(void)
{
	Suite *s = suite_create("triage_dropin");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_buckets);
	tcase_add_test(tc, test_checkers);
	tcase_add_test(tc, test_fixed);
	tcase_add_test(tc, test_report);
	tcase_add_test(tc, test_sarif_site);
	tcase_add_test(tc, test_bad_input);
	tcase_set_timeout(tc, 120);
	scratch_add(tc);
	suite_add_tcase(s, tc);
	return s;
}
