// SPDX-License-Identifier: MIT
/*
 * `dmafuzz report` end to end on a synthetic campaign (tests/data/report/
 * campaign: two AFL++ instances, one in the 4.x format and one in the 3.x
 * format, and a triage.json of the contract with two buckets, one of them
 * a signal crash): the four outputs are checked with the library's own
 * strict JSON reader (summary.json; findings.sarif against the required
 * fields of the SARIF 2.1.0 schema), an XML well-formedness checker
 * (index.html), and for what they must say. Bad input: a missing dir, a
 * corrupt or off-contract triage.json (one line, its own exit code, no
 * output left behind). The report of a real triage with copies of one
 * finding (its distinct counts). And the JSON reader's strictness,
 * table-driven.
 * Runs the binary named by $DFZ_CLI (set by `make check`).
 */
#define _GNU_SOURCE
#include <check.h>
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "dmafuzz/report.h"
#include "dmafuzz/triage.h"

#include "cli_run.h"
#include "common_int.h"
#include "json_int.h"
#include "render_int.h"
#include "scratch.h"
#include "xml_check.h"

#define CAMPAIGN "tests/data/report/campaign"
#define OUT "$T"                   /* in shell commands */

static char err[4096];

/* Run `$DFZ_CLI report args`; stderr kept in err; return the exit code. */
static int report(const char *args)
{
	const char *errf = at("report_err.txt");
	int rc = sh("%s report %s 2>%s", cli_bin(), args, errf);

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

/* The entries of @dir other than . and ..; */
static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static void fresh_dir(const char *dir)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s'", dir, dir);
	ck_assert_int_eq(system(cmd), 0);
}

START_TEST(test_xml_checker)
{
	static const struct {
		const char *doc;
		bool ok;
	} cases[] = {
		{ "<!DOCTYPE html>\n<a x=\"1\"><b/>t &amp; &#39;</a>\n", true },
		{ "<a><b></a></b>", false },
		{ "<a>x < y</a>", false },
		{ "<a>AT&T</a>", false },
		{ "<a x=1></a>", false },
		{ "<a x=\"1\" x=\"2\"></a>", false },
		{ "<a></a><b></b>", false },
		{ "<a><br></a>", false },
		{ "<a t=\"<\"></a>", false },
	};
	char why[128];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ck_assert_msg(xml_well_formed(cases[i].doc, why, sizeof(why)) ==
				      cases[i].ok, "case %zu: %s", i, cases[i].doc);
}
END_TEST

/* ------------------------------------------------------ SARIF checks */

static const struct dfz_json *path_get(const struct dfz_json *j,
				       const char *path)
{
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *k = strtok_r(buf, ".", &save); k && j;
	     k = strtok_r(NULL, ".", &save)) {
		if (*k >= '0' && *k <= '9')
			j = dfz_json_at(j, (size_t)atoi(k));
		else
			j = dfz_json_get(j, k);
	}
	return j;
}

static const char *str_at(const struct dfz_json *j, const char *path)
{
	return dfz_json_str(path_get(j, path));
}

/* A non-negative integer at @path, or -1. */
static long int_at(const struct dfz_json *j, const char *path)
{
	double v;

	if (!dfz_json_num(path_get(j, path), &v) || v < 0 || v != (long)v)
		return -1;
	return (long)v;
}

/* An artifactLocation: a uri string, an index naming the artifact with
 * the same uri (schema: index >= -1). */
static void check_artifact_location(const struct dfz_json *run,
				    const struct dfz_json *al)
{
	const char *uri = str_at(al, "uri");
	long idx = int_at(al, "index");

	ck_assert_ptr_nonnull(uri);
	ck_assert_int_ge(idx, 0);
	ck_assert_uint_lt((size_t)idx, dfz_json_len(dfz_json_get(run, "artifacts")));
	ck_assert_str_eq(str_at(dfz_json_at(dfz_json_get(run, "artifacts"),
					    (size_t)idx), "location.uri"), uri);
}

static void check_location(const struct dfz_json *run,
			   const struct dfz_json *loc)
{
	const struct dfz_json *pl = dfz_json_get(loc, "physicalLocation");

	if (!pl)
		return;
	check_artifact_location(run, dfz_json_get(pl, "artifactLocation"));
	if (dfz_json_get(pl, "region"))
		ck_assert_int_ge(int_at(pl, "region.startLine"), 1);
}

/* One result against the schema's required fields and the log's rules. */
static void check_result(const struct dfz_json *run, const struct dfz_json *r)
{
	static const char *const levels[] = { "none", "note", "warning",
					      "error" };
	const struct dfz_json *rules = path_get(run, "tool.driver.rules");
	const struct dfz_json *rel = dfz_json_get(r, "relatedLocations");
	const struct dfz_json *att = dfz_json_get(r, "attachments");
	long ri = int_at(r, "ruleIndex");
	bool level_ok = false;

	ck_assert_ptr_nonnull(str_at(r, "message.text"));  /* required */
	ck_assert_ptr_nonnull(str_at(r, "ruleId"));
	ck_assert_int_ge(ri, 0);
	ck_assert_uint_lt((size_t)ri, dfz_json_len(rules));
	ck_assert_str_eq(str_at(dfz_json_at(rules, (size_t)ri), "id"),
			 str_at(r, "ruleId"));
	for (size_t i = 0; i < 4; i++)
		level_ok |= !strcmp(str_at(r, "level"), levels[i]);
	ck_assert(level_ok);
	ck_assert_uint_ge(dfz_json_len(dfz_json_get(r, "locations")), 1);
	for (size_t i = 0; i < dfz_json_len(dfz_json_get(r, "locations")); i++)
		check_location(run, dfz_json_at(dfz_json_get(r, "locations"), i));
	ck_assert_ptr_nonnull(str_at(r, "partialFingerprints.dmafuzzSignature/v1"));
	ck_assert_uint_ge(dfz_json_len(rel), 2);
	for (size_t i = 0; i < dfz_json_len(rel); i++) {
		ck_assert_int_eq(int_at(dfz_json_at(rel, i), "id"), (long)i + 1);
		check_location(run, dfz_json_at(rel, i));
	}
	ck_assert_uint_eq(dfz_json_len(att), dfz_json_len(rel));
	for (size_t i = 0; i < dfz_json_len(att); i++)   /* required */
		check_artifact_location(run, dfz_json_get(dfz_json_at(att, i),
							  "artifactLocation"));
	for (size_t i = 0; i < dfz_json_len(dfz_json_get(r, "stacks")); i++) {
		const struct dfz_json *st = dfz_json_at(dfz_json_get(r, "stacks"), i);

		ck_assert_int_eq(dfz_json_type_of(dfz_json_get(st, "frames")),
				 DFZ_JSON_ARRAY);        /* required */
	}
}

/* Every location of every result is relative to a base id that
 * originalUriBaseIds defines; TRIAGEROOT is an absolute directory URI. */
static void check_base_ids(const struct dfz_json *run)
{
	const struct dfz_json *res = dfz_json_get(run, "results");
	const char *root = str_at(run, "originalUriBaseIds.TRIAGEROOT.uri");

	ck_assert_ptr_nonnull(root);
	ck_assert_int_eq(strncmp(root, "file:///", 8), 0);
	ck_assert_int_eq(root[strlen(root) - 1], '/');
	ck_assert_ptr_nonnull(strstr(root, "/triage/"));
	for (size_t i = 0; i < dfz_json_len(res); i++) {
		const struct dfz_json *r = dfz_json_at(res, i);
		const struct dfz_json *rel = dfz_json_get(r, "relatedLocations");

		for (size_t k = 0; k <= dfz_json_len(rel); k++) {
			const struct dfz_json *loc = k == 0 ?
				path_get(r, "locations.0") : dfz_json_at(rel, k - 1);
			const char *uri = str_at(loc, "physicalLocation."
						 "artifactLocation.uri");
			const char *base = str_at(loc, "physicalLocation."
						  "artifactLocation.uriBaseId");

			ck_assert_ptr_nonnull(uri);
			ck_assert_ptr_nonnull(base);
			ck_assert_int_ne(uri[0], '/');
			ck_assert_int_ne(strncmp(uri, "../", 3), 0);
			ck_assert_ptr_nonnull(dfz_json_get(dfz_json_get(run,
				"originalUriBaseIds"), base));
		}
	}
}

static void check_sarif(const char *path)
{
	struct dfz_json *s = parse_file(path);
	const struct dfz_json *run, *rules;

	ck_assert_str_eq(str_at(s, "version"), "2.1.0");
	ck_assert_ptr_nonnull(strstr(str_at(s, "$schema"), "sarif-schema-2.1.0"));
	ck_assert_uint_eq(dfz_json_len(dfz_json_get(s, "runs")), 1);
	run = path_get(s, "runs.0");
	ck_assert_str_eq(str_at(run, "tool.driver.name"), "dmafuzz");
	rules = path_get(run, "tool.driver.rules");
	ck_assert_uint_eq(dfz_json_len(rules), 2);
	for (size_t i = 0; i < dfz_json_len(rules); i++) {
		ck_assert_ptr_nonnull(str_at(dfz_json_at(rules, i), "id"));
		ck_assert_ptr_nonnull(str_at(dfz_json_at(rules, i),
					     "shortDescription.text"));
	}
	ck_assert_uint_eq(dfz_json_len(dfz_json_get(run, "results")), 2);
	for (size_t i = 0; i < 2; i++)
		check_result(run, dfz_json_at(dfz_json_get(run, "results"), i));
	/* b01: no signal, located at its plan; b02: at the faulting frame. */
	ck_assert_str_eq(str_at(run, "results.0.ruleId"), "handle.reuse");
	/* The reproducers hang off TRIAGEROOT, which a consumer resolves: a
	 * relative path under it, never one that leaves it. */
	ck_assert_str_eq(str_at(run, "results.0.locations.0.physicalLocation."
				"artifactLocation.uri"),
			 "buckets/b01/repro.plan");
	ck_assert_str_eq(str_at(run, "results.0.locations.0.physicalLocation."
				"artifactLocation.uriBaseId"), "TRIAGEROOT");
	ck_assert_str_eq(str_at(run, "results.0.relatedLocations.2."
				"physicalLocation.artifactLocation.uri"),
			 "buckets/b01/repro.c");
	check_base_ids(run);
	ck_assert_str_eq(str_at(run, "results.1.ruleId"), "crash");
	ck_assert_str_eq(str_at(run, "results.1.locations.0.physicalLocation."
				"artifactLocation.uri"), "runtime/host.c");
	ck_assert_str_eq(str_at(run, "results.1.locations.0.physicalLocation."
				"artifactLocation.uriBaseId"), "%SRCROOT%");
	ck_assert_int_eq(int_at(run, "results.1.locations.0.physicalLocation."
				"region.startLine"), 123);
	ck_assert_str_eq(str_at(run, "results.1.locations.0.logicalLocations.0.name"),
			 "check_init");
	ck_assert_uint_eq(dfz_json_len(path_get(run, "results.1.stacks.0.frames")), 4);
	ck_assert_str_eq(str_at(run, "results.1.partialFingerprints."
				"dmafuzzSignature/v1"), "api/crash/signal:SIGSEGV");
	dfz_json_free(s);
}

/* ------------------------------------------------------ the report */

static void check_summary_json(const char *path)
{
	struct dfz_json *j = parse_file(path);
	const struct dfz_json *b;

	ck_assert_uint_eq(dfz_json_len(dfz_json_get(j, "instances")), 2);
	ck_assert_str_eq(str_at(j, "instances.0.name"), "api/main");
	ck_assert_str_eq(str_at(j, "instances.0.target"), "api");
	ck_assert_int_eq(int_at(j, "instances.0.run_time"), 45); /* 3.x: computed */
	ck_assert_int_eq(int_at(j, "instances.0.corpus_count"), 96); /* paths_total */
	ck_assert_int_eq(int_at(j, "instances.0.saved_crashes"), 1);
	ck_assert_int_eq(int_at(j, "instances.0.plot_rows"), 6); /* 1 cut row */
	ck_assert_int_eq(dfz_json_type_of(path_get(j, "instances.0.edges_found")),
			 DFZ_JSON_NULL);
	ck_assert_str_eq(str_at(j, "instances.1.name"), "xfer/default");
	ck_assert_int_eq(int_at(j, "instances.1.execs_done"), 18204);
	ck_assert_int_eq(int_at(j, "instances.1.edges_found"), 1702);
	ck_assert_int_eq(int_at(j, "totals.execs_done"), 18204 + 49112);
	ck_assert_int_eq(int_at(j, "totals.saved_crashes"), 3);
	ck_assert_int_eq(int_at(j, "totals.corpus_count"), 301);   /* the largest */
	ck_assert_int_eq(int_at(j, "targets.xfer.instances"), 1);
	b = path_get(j, "triage.buckets");
	ck_assert_uint_eq(dfz_json_len(b), 2);
	ck_assert_str_eq(str_at(b, "0.signature"), "handle.reuse/handle@L2");
	ck_assert_int_eq(dfz_json_type_of(path_get(b, "0.signal")), DFZ_JSON_NULL);
	ck_assert_str_eq(str_at(b, "1.signal.instruction"),
			 "movdqu xmm1, xmmword ptr [r15]");
	/* The replay commands, the file by its absolute path; none said
	 * for b02 (a bucket of an older triage). */
	ck_assert_int_eq(strncmp(str_at(b, "0.replay.0"), "dmafuzz run --bug "
				 "shared-handle /", 32), 0);
	ck_assert_ptr_nonnull(strstr(str_at(b, "0.replay.1"), "/triage/buckets/"
				     "b01/repro.bin"));
	ck_assert_uint_eq(dfz_json_len(path_get(b, "1.replay")), 0);
	ck_assert_int_eq(int_at(j, "triage.malformed"), 1);
	ck_assert_int_eq(dfz_json_type_of(path_get(j, "triage.distinct")),
			 DFZ_JSON_NULL);
	dfz_json_free(j);
}

static void check_html(const char *path)
{
	char why[160], *h = slurp(path, NULL), *p = h;
	int svgs = 0;

	ck_assert_msg(xml_well_formed(h, why, sizeof(why)), "%s: %s", path, why);
	while ((p = strstr(p, "<svg ")))
		svgs++, p++;
	ck_assert_int_eq(svgs, 4);
	/* Coverage, execs/s and findings (api: from plot_data, its crash
	 * names have no time) for both; corpus for xfer only (api: no queue). */
	for (svgs = 0, p = h; (p = strstr(p, "<polyline")); p++)
		svgs++;
	ck_assert_int_eq(svgs, 7);
	ck_assert_ptr_nonnull(strstr(h, "id=\"bucket-b01\""));
	ck_assert_ptr_nonnull(strstr(h, "id=\"bucket-b02\""));
	ck_assert_ptr_nonnull(strstr(h, "<span class=\"fault\">=&gt; 0x55555555be5b: "
				     "movdqu xmm1, xmmword ptr [r15]</span>"));
	ck_assert_ptr_nonnull(strstr(h, "check_init (runtime/host.c:123)"));
	ck_assert_ptr_nonnull(strstr(h, "Emitted C reproducer"));
	ck_assert_ptr_nonnull(strstr(h, "hop0.policy async-shared"));  /* the plan */
	/* Each bucket's replay: the commands of its triage, or why none. */
	ck_assert_ptr_nonnull(strstr(h, "<h3>Replay</h3>\n<pre class=\"replay\">"
				     "dmafuzz run --bug shared-handle /"));
	ck_assert_ptr_nonnull(strstr(h, "/triage/buckets/b01/repro.plan\n"
				     "dmafuzz run --family xfer --bug "
				     "shared-handle /"));
	ck_assert_ptr_nonnull(strstr(h, "<h3>Replay</h3>\n<p class=\"note\">not "
				     "said (a triage.json older than replay "
				     "commands"));
	/* Escaped, and the non-ASCII kept. */
	ck_assert_ptr_nonnull(strstr(h, "not a &lt;plan&gt; &amp; not &quot;binary"
				     "&quot;: line 1: unknown key \xc2\xab" "foo"));
	free(h);
	if (system("command -v xmllint >/dev/null 2>&1") == 0) {
		char cmd[256];

		snprintf(cmd, sizeof(cmd), "xmllint --noout %s", path);
		ck_assert_int_eq(system(cmd), 0);
	}
}

static void check_md(const char *path)
{
	char *m = slurp(path, NULL);

	ck_assert_ptr_nonnull(strstr(m, "| api | api/main | 45 s | 49112 |"));
	ck_assert_ptr_nonnull(strstr(m, "| xfer | xfer/default | 1 min 0 s | 18204 |"));
	ck_assert_ptr_nonnull(strstr(m, "### b01 `handle.reuse/handle@L2`"));
	ck_assert_ptr_nonnull(strstr(m, "### b02 `crash/signal:SIGSEGV`"));
	ck_assert_ptr_nonnull(strstr(m, "plan `triage/buckets/b01/repro.plan`"));
	ck_assert_ptr_nonnull(strstr(m, "\n- replay: `dmafuzz run --bug "
				     "shared-handle /"));
	ck_assert_ptr_nonnull(strstr(m, "/triage/buckets/b01/repro.plan`\n"
				     "  or `dmafuzz run --family xfer "));
	ck_assert_ptr_nonnull(strstr(m, "\n- replay: not said"));
	ck_assert_ptr_nonnull(strstr(m, "faulting instruction `movdqu xmm1, "
				     "xmmword ptr [r15]`"));
	/* A triage.json without distinct counts (an older one): none said. */
	ck_assert_ptr_nonnull(strstr(m, ": 4 input(s), 2 bucket(s),"));
	ck_assert_ptr_null(strstr(m, "distinct"));
	free(m);
}

START_TEST(test_report_outputs)
{
	/* The campaign dir is read-only input: report into a copy of it,
	 * so the triage paths are relative to the output. */
	ck_assert_int_eq(system("cp -r " CAMPAIGN " " OUT "/c"), 0);
	ck_assert_int_eq(report("-q " OUT "/c"), 0);
	ck_assert_str_eq(err, "");
	check_summary_json(at("c/summary.json"));
	check_sarif(at("c/findings.sarif"));
	check_html(at("c/index.html"));
	check_md(at("c/summary.md"));
	/* Nothing but the four outputs was added (no temporary file left). */
	ck_assert_int_eq(entries(at("c")), 3 + 4);
	/* A report beside the triage dir links to it through "..". */
	ck_assert_int_eq(report("-q -o " OUT "/c/report " OUT "/c"), 0);
	{
		char *m = slurp(at("c/report/summary.md"), NULL);
		struct dfz_json *s = parse_file(at("c/report/findings.sarif"));

		ck_assert_ptr_nonnull(strstr(m, "plan `../triage/buckets/b01/repro.plan`"));
		/* SARIF: the same path under TRIAGEROOT wherever the
		 * report is written; no "..". */
		ck_assert_str_eq(str_at(s, "runs.0.results.0.relatedLocations.0."
					"physicalLocation.artifactLocation.uri"),
				 "buckets/b01/repro.bin");
		check_base_ids(path_get(s, "runs.0"));
		free(m);
		dfz_json_free(s);
	}
}
END_TEST

static void same_file(const char *a, const char *b)
{
	size_t na, nb;
	char *x = slurp(a, &na), *y = slurp(b, &nb);

	ck_assert_msg(na == nb && !memcmp(x, y, na), "%s and %s differ", a, b);
	free(x);
	free(y);
}

START_TEST(test_report_deterministic)
{
	static const char *const names[] = DFZ_REPORT_FILES;
	char a[256], b[256];

	fresh_dir(at("d1"));
	fresh_dir(at("d2"));
	ck_assert_int_eq(report("-q -o " OUT "/d1 " CAMPAIGN), 0);
	ck_assert_int_eq(report("-q -o " OUT "/d2 " CAMPAIGN), 0);
	for (size_t i = 0; i < 4; i++) {
		snprintf(a, sizeof(a), "%s", at("d1/%s", names[i]));
		snprintf(b, sizeof(b), "%s", at("d2/%s", names[i]));
		same_file(a, b);
	}
	/* A stamp only when asked for. */
	ck_assert_int_eq(report("-q -o " OUT "/d2 -g 2026-01-02T03:04 " CAMPAIGN), 0);
	{
		char *m = slurp(at("d2/summary.md"), NULL);

		ck_assert_ptr_nonnull(strstr(m, "- generated: 2026-01-02T03:04"));
		free(m);
	}
}
END_TEST

START_TEST(test_report_without_triage)
{
	struct dfz_json *s;

	fresh_dir(at("nt"));
	ck_assert_int_eq(report("-q -o " OUT "/nt " CAMPAIGN "/xfer"), 0);
	s = parse_file(at("nt/findings.sarif"));
	ck_assert_uint_eq(dfz_json_len(path_get(s, "runs.0.results")), 0);
	ck_assert_str_eq(str_at(s, "runs.0.tool.driver.name"), "dmafuzz");
	dfz_json_free(s);
	{
		char *m = slurp(at("nt/summary.md"), NULL);
		char why[160], *h = slurp(at("nt/index.html"), NULL);

		ck_assert_ptr_nonnull(strstr(m, "No triage output"));
		ck_assert_ptr_nonnull(strstr(m, "| xfer | default |"));
		ck_assert_msg(xml_well_formed(h, why, sizeof(why)), "%s", why);
		free(m);
		free(h);
	}
}
END_TEST

/* `$DFZ_CLI @args` (a shell command line) without its stderr; its exit
 * code. */
static int cli_run(const char *args)
{
	return sh("%s %s 2>/dev/null", cli_bin(), args);
}

/*
 * The report of a real triage of a crash saved by AFL++, its copy under
 * findings/ and an input one byte longer: three files, two distinct, in
 * every output; the copy is named beside the input it repeats.
 */
START_TEST(test_report_copies)
{
	struct dfz_json *j, *s;
	char why[160], *m, *h;

	fresh_dir(at("dup"));
	ck_assert_int_eq(system("mkdir -p " OUT "/dup/xfer/default/crashes "
				OUT "/dup/findings/xfer"), 0);
	ck_assert_int_eq(cli_run("encode --bare corpus/regress/shared-handle.plan > "
				 OUT "/dup/bare"), 0);
	ck_assert_int_eq(system("cd " OUT "/dup && test -s bare && "
				"cp bare findings/xfer/crash-1-000000 && "
				"cp bare xfer/default/crashes/id:000000,sig:06 && "
				"cp bare xfer/default/crashes/id:000001,sig:06 && "
				"printf x >> xfer/default/crashes/id:000001,sig:06 && "
				"rm bare"), 0);
	ck_assert_int_eq(cli_run("triage --bug shared-handle " OUT "/dup "
				 ">/dev/null"), 0);
	ck_assert_int_eq(report("-q " OUT "/dup"), 0);

	m = slurp(at("dup/summary.md"), NULL);
	ck_assert_ptr_nonnull(strstr(m, ": 3 input(s), 2 distinct, 1 bucket(s),"));
	ck_assert_ptr_nonnull(strstr(m, " | xfer | 3 (2 distinct) | "));
	ck_assert_ptr_nonnull(strstr(m, "- inputs 3 (2 distinct); message: "));
	free(m);

	j = parse_file(at("dup/summary.json"));
	ck_assert_int_eq(int_at(j, "triage.inputs"), 3);
	ck_assert_int_eq(int_at(j, "triage.distinct"), 2);
	ck_assert_int_eq(int_at(j, "triage.buckets.0.count"), 3);
	ck_assert_int_eq(int_at(j, "triage.buckets.0.distinct"), 2);
	dfz_json_free(j);

	s = parse_file(at("dup/findings.sarif"));
	ck_assert_uint_eq(dfz_json_len(path_get(s, "runs.0.results")), 1);
	check_result(path_get(s, "runs.0"), path_get(s, "runs.0.results.0"));
	ck_assert_int_eq(int_at(s, "runs.0.results.0.occurrenceCount"), 3);
	ck_assert_int_eq(int_at(s, "runs.0.results.0.properties.distinct"), 2);
	dfz_json_free(s);

	h = slurp(at("dup/index.html"), NULL);
	ck_assert_msg(xml_well_formed(h, why, sizeof(why)), "%s", why);
	ck_assert_ptr_nonnull(strstr(h, "3 input(s), 2 distinct, 1 bucket(s)"));
	ck_assert_ptr_nonnull(strstr(h, "<code>inputs/xfer/id:000000,sig:06</code> "
				     "(same bytes as <code>inputs/xfer/"
				     "crash-1-000000</code>)"));
	ck_assert_ptr_null(strstr(h, "id:000001,sig:06</code> (same"));
	free(h);
}
END_TEST

START_TEST(test_report_bad_input)
{
	static const char *const names[] = DFZ_REPORT_FILES;

	fresh_dir(at("bad"));
	ck_assert_int_eq(report("-o " OUT "/bad no/such/dir"), 2);
	ck_assert_int_eq(lines(err), 1);
	ck_assert_ptr_nonnull(strstr(err, "no/such/dir"));
	ck_assert_int_eq(report("-o " OUT "/bad --triage no/such.json " CAMPAIGN), 2);
	ck_assert_int_eq(lines(err), 1);
	ck_assert_int_eq(report(""), 2);
	ck_assert_int_eq(report("--bogus " CAMPAIGN), 2);
	ck_assert_int_eq(entries(at("bad")), 0);

	/* Not JSON: exit 4, the line and column, nothing written. */
	ck_assert_int_eq(report("-o " OUT "/bad -t tests/data/report/"
				"corrupt-triage.json " CAMPAIGN), 4);
	ck_assert_int_eq(lines(err), 1);
	ck_assert_ptr_nonnull(strstr(err, "corrupt-triage.json: line 10, column 14: "
				     "'}' expected near '\"oracle\"'"));
	ck_assert_int_eq(entries(at("bad")), 0);
	/* JSON, but not the contract: the field is named. */
	ck_assert_int_eq(report("-o " OUT "/bad -t tests/data/report/"
				"offcontract-triage.json " CAMPAIGN), 4);
	ck_assert_int_eq(lines(err), 1);
	ck_assert_ptr_nonnull(strstr(err, "buckets[1].count: expected a "
				     "non-negative integer"));
	ck_assert_int_eq(entries(at("bad")), 0);
	/* More distinct inputs than files. */
	ck_assert_int_eq(system("sed 's/\"count\": 2,/\"count\": 2, \"distinct\": 3,/' "
				CAMPAIGN "/triage/triage.json > " OUT "/distinct.json"), 0);
	ck_assert_int_eq(report("-o " OUT "/bad -t " OUT "/distinct.json " CAMPAIGN), 4);
	ck_assert_int_eq(lines(err), 1);
	ck_assert_ptr_nonnull(strstr(err, "buckets[0].distinct: expected 1 to the "
				     "count of inputs"));
	ck_assert_int_eq(entries(at("bad")), 0);

	/* A replay file outside the triage dir. */
	ck_assert_int_eq(system("sed 's|\"file\": \"buckets/b01/repro.bin\"|"
				"\"file\": \"../repro.bin\"|' " CAMPAIGN
				"/triage/triage.json > " OUT "/replay.json"), 0);
	ck_assert_int_eq(report("-o " OUT "/bad -t " OUT "/replay.json " CAMPAIGN), 4);
	ck_assert_int_eq(lines(err), 1);
	ck_assert_ptr_nonnull(strstr(err, "buckets[0].replay[1].file: expected a "
				     "path relative to the triage dir"));
	ck_assert_int_eq(entries(at("bad")), 0);
	/* A command of two lines would print as two. */
	ck_assert_int_eq(system("sed 's|\"command\": \"dmafuzz run --bug|"
				"\"command\": \"dmafuzz run\\\\n--bug|' " CAMPAIGN
				"/triage/triage.json > " OUT "/replay.json"), 0);
	ck_assert_int_eq(report("-o " OUT "/bad -t " OUT "/replay.json " CAMPAIGN), 4);
	ck_assert_ptr_nonnull(strstr(err, "buckets[0].replay[0].command: expected "
				     "one line"));
	ck_assert_int_eq(entries(at("bad")), 0);

	/* Earlier outputs survive a failed run untouched. */
	ck_assert_int_eq(report("-q -o " OUT "/bad " CAMPAIGN), 0);
	ck_assert_int_eq(system("cp -r " OUT "/bad " OUT "/bad.keep"), 0);
	ck_assert_int_eq(report("-o " OUT "/bad -t tests/data/report/"
				"corrupt-triage.json " CAMPAIGN), 4);
	for (size_t i = 0; i < 4; i++) {
		char a[256], b[256];

		snprintf(a, sizeof(a), "%s", at("bad/%s", names[i]));
		snprintf(b, sizeof(b), "%s", at("bad.keep/%s", names[i]));
		same_file(a, b);
	}
	ck_assert_int_eq(entries(at("bad")), 4);
	ck_assert_int_eq(system("rm -rf " OUT "/bad.keep"), 0);

	/* An output dir that cannot be made: exit 5. */
	ck_assert_int_eq(report("-o /dev/null/x " CAMPAIGN), 5);
	ck_assert_int_eq(lines(err), 1);
}
END_TEST

/* ------------------------------------------------------ the JSON reader */

START_TEST(test_json_reader)
{
	static const struct {
		const char *text;
		bool ok;
	} cases[] = {
		{ " {\"a\": [1, -2.5e3, true, false, null, \"x\"]} ", true },
		{ "\"\\ud83d\\ude00 \\u00e9 \\n\\\"\"", true },
		{ "[]", true },
		{ "", false },
		{ "[1,]", false },
		{ "{\"a\":1,}", false },
		{ "{\"a\":1,\"a\":2}", false },      /* duplicate key */
		{ "01", false },
		{ "1.", false },
		{ "-", false },
		{ "1e400", false },
		{ "[1] [2]", false },
		{ "\"\\ud800\"", false },            /* lone surrogate */
		{ "\"\\udc00\\ud800\"", false },
		{ "\"\\u0000\"", false },
		{ "\"\\x\"", false },
		{ "\"a\tb\"", false },               /* raw control char */
		{ "\"\xc3\x28\"", false },           /* invalid UTF-8 */
		{ "\"\xed\xa0\x80\"", false },       /* encoded surrogate */
		{ "\"\xe0\x80\xaf\"", false },       /* overlong */
		{ "nul", false },
		{ "tru", false },
		{ "// c\n1", false },
		{ "'a'", false },
		{ "\"unterminated", false },
	};
	struct dfz_json *j;
	char e[128];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = dfz_json_parse(cases[i].text, strlen(cases[i].text),
					&j, e, sizeof(e));

		ck_assert_msg((rc == 0) == cases[i].ok, "case %zu '%s': %d %s", i,
			      cases[i].text, rc, rc ? e : "");
		ck_assert(rc == 0 ? j != NULL : j == NULL);
		if (!rc && i == 1)
			ck_assert_str_eq(dfz_json_str(j),
					 "\xf0\x9f\x98\x80 \xc3\xa9 \n\"");
		dfz_json_free(j);
	}
}
END_TEST

START_TEST(test_json_bounds)
{
	char deep[2 * DFZ_JSON_MAX_DEPTH + 8], e[128];
	struct dfz_json *j;
	size_t k = 0;
	double v;

	for (unsigned i = 0; i <= DFZ_JSON_MAX_DEPTH; i++)
		deep[k++] = '[';
	for (unsigned i = 0; i <= DFZ_JSON_MAX_DEPTH; i++)
		deep[k++] = ']';
	ck_assert_int_eq(dfz_json_parse(deep, k, &j, e, sizeof(e)), DFZ_EINVAL);
	ck_assert_ptr_nonnull(strstr(e, "nested deeper"));
	/* One level less is fine. */
	ck_assert_int_eq(dfz_json_parse(deep + 1, k - 2, &j, e, sizeof(e)), 0);
	dfz_json_free(j);
	/* Errors name the line and column. */
	ck_assert_int_eq(dfz_json_parse("{\n  \"a\": tru\n}", 14, &j, e,
					sizeof(e)), DFZ_EINVAL);
	ck_assert_str_eq(e, "line 2, column 10: invalid token near 'tru'");
	/* Accessors take NULL and wrong types. */
	ck_assert_int_eq(dfz_json_parse("{\"n\": 7, \"s\": \"t\"}", 18, &j, e,
					sizeof(e)), 0);
	ck_assert(dfz_json_num(dfz_json_get(j, "n"), &v) && v == 7);
	ck_assert_ptr_null(dfz_json_str(dfz_json_get(j, "n")));
	ck_assert_ptr_null(dfz_json_get(dfz_json_get(j, "missing"), "x"));
	ck_assert_uint_eq(dfz_json_len(dfz_json_get(j, "s")), 0);
	ck_assert_str_eq(dfz_json_key(j, 1), "s");
	dfz_json_free(j);
	/* Not NUL-terminated: only @n bytes are read. */
	ck_assert_int_eq(dfz_json_parse("[1]xyz", 3, &j, e, sizeof(e)), 0);
	dfz_json_free(j);
}
END_TEST

/* One bad document: rejected in one line naming the place, no tree. */
static void expect_rejected(const char *text, size_t n, const char *what)
{
	struct dfz_json *j = (struct dfz_json *)&j;  /* must come back NULL */
	char e[256] = "";
	int rc = dfz_json_parse(text, n, &j, e, sizeof(e));

	ck_assert_msg(rc == DFZ_EINVAL, "%s: rc %d", what, rc);
	ck_assert_ptr_null(j);
	ck_assert_msg(!strncmp(e, "line ", 5) && strstr(e, ", column ") &&
		      !strchr(e, '\n'), "%s: '%s'", what, e);
}

/*
 * The reader never crashes on a broken triage.json: every proper prefix
 * of a real one (an object cut anywhere before its '}') and every one of
 * a few thousand seeded corruptions is rejected with its place, or (a
 * corruption that still is JSON) read. Run under valgrind by memcheck.
 */
START_TEST(test_json_garbage)
{
	static const char junk[] = "{}[],:\"\\0-1eE.tfnu \n\x01\xff\xc3";
	size_t n, last;
	char *text = slurp(CAMPAIGN "/triage/triage.json", &n);
	char *copy = malloc(n);
	struct dfz_json *j;
	uint32_t x = 2463534242u;       /* xorshift32: the same runs always */
	char e[256];
	unsigned read_ok = 0;

	ck_assert_ptr_nonnull(copy);
	ck_assert_int_eq(dfz_json_parse(text, n, &j, e, sizeof(e)), 0);
	dfz_json_free(j);
	for (last = n; last > 0 && text[last - 1] != '}'; last--)
		;
	ck_assert_uint_gt(last, 1);
	for (size_t k = 0; k < last; k++)
		expect_rejected(text, k, "a prefix");
	for (unsigned i = 0; i < 3000; i++) {
		memcpy(copy, text, n);
		for (unsigned m = 0; m < 1 + i % 4; m++) {
			x ^= x << 13, x ^= x >> 17, x ^= x << 5;
			copy[x % n] = junk[(x >> 16) % (sizeof(junk) - 1)];
		}
		x ^= x << 13, x ^= x >> 17, x ^= x << 5;
		int rc = dfz_json_parse(copy, i % 2 ? n : x % n, &j, e, sizeof(e));

		ck_assert_msg(rc == 0 || rc == DFZ_EINVAL, "rc %d", rc);
		ck_assert(rc == 0 ? j != NULL : j == NULL);
		read_ok += rc == 0;
		dfz_json_free(j);
	}
	ck_assert_uint_lt(read_ok, 3000);   /* the corruptions did corrupt */
	/* The value cap is checked before jansson allocates anything. */
	size_t big = 2 * (size_t)DFZ_JSON_MAX_NODES + 2;
	char *many = malloc(big);

	ck_assert_ptr_nonnull(many);
	many[0] = '[';
	for (size_t k = 1; k + 1 < big; k += 2)
		memcpy(many + k, "0,", 2);
	many[big - 2] = '0';
	many[big - 1] = ']';
	expect_rejected(many, big, "too many values");
	free(many);
	free(copy);
	free(text);
}
END_TEST

/* ------------------------------------------------- files and their codes */

START_TEST(test_mkdir_codes)
{
	char path[5000];
	struct stat st;
	FILE *f = fopen(at("file"), "w");

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(dfz__mkdir_p(at("a/b/c")), 0);
	ck_assert_int_eq(stat(at("a/b/c"), &st), 0);
	ck_assert(S_ISDIR(st.st_mode));
	ck_assert_int_eq(dfz__mkdir_p(at("a/b")), 0);      /* there already */
	ck_assert_int_eq(dfz__mkdir_p(at("a/b/")), 0);
	/* A file where a directory belongs: at the end, or on the way. */
	ck_assert_int_eq(dfz__mkdir_p(at("file")), DFZ_ENOTDIR);
	ck_assert_int_eq(dfz__mkdir_p(at("file/x/y")), DFZ_ENOTDIR);
	ck_assert_int_eq(dfz__mkdir_p(""), DFZ_ENOENT);
	memset(path, 'x', sizeof(path) - 1);
	path[sizeof(path) - 1] = 0;
	ck_assert_int_eq(dfz__mkdir_p(path), DFZ_EINVAL);
	ck_assert_str_eq(dfz_strerror(DFZ_ENOTDIR), "not a directory");
}
END_TEST

/* The library's outputs: a path under a file is DFZ_ENOTDIR (exit 2 in
 * triage; report's own exit 5), never "address outside the memory model". */
START_TEST(test_output_codes)
{
	struct dfz_report_config cfg = { .dir = CAMPAIGN };
	struct dfz_triage_config tc = { .dir = "corpus" };
	struct dfz_triage_summary sum;
	enum dfz_report_stage stage;
	char e[600];
	FILE *f = fopen(at("file"), "w");

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fclose(f), 0);
	cfg.out = at("file/out");
	ck_assert_int_eq(dfz_report_write(&cfg, &stage, e, sizeof(e)),
			 DFZ_ENOTDIR);
	ck_assert_int_eq(stage, DFZ_REPORT_OUTPUT);
	ck_assert_ptr_nonnull(strstr(e, "Not a directory"));
	tc.out = at("file/triage");
	ck_assert_int_eq(dfz_triage(&tc, &sum, e, sizeof(e)), DFZ_ENOTDIR);
	ck_assert_ptr_nonnull(strstr(e, "Not a directory"));
	tc.dir = at("file");
	ck_assert_int_eq(dfz_triage(&tc, &sum, e, sizeof(e)), DFZ_ENOTDIR);
	ck_assert_int_eq(sh("%s triage -o %s corpus 2>/dev/null", cli_bin(),
			    at("file/triage")), 2);
	ck_assert_int_eq(sh("%s fuzz -t 1 -o %s 2>/dev/null", cli_bin(),
			    at("file/fuzz")), 2);
}
END_TEST

/*
 * Why the report's writers stay ours while its reader is jansson: the
 * strings a report writes come from inputs (file names, plan text, a
 * disassembly) that need not be UTF-8, and jansson's json_string()
 * refuses such a string (NULL: the value, and the report with it, would
 * be lost), where the writer writes U+FFFD for each invalid byte and the
 * output still parses, through jansson.
 */
START_TEST(test_writer_invalid_utf8)
{
	static const char bad[] = "crash-\xff\xfe.bin";
	struct dfz__jw w;
	json_error_t jerr;
	char *out = NULL;
	size_t n;
	FILE *m = open_memstream(&out, &n);
	json_t *j;

	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_null(json_string(bad));
	dfz__jw_init(&w, m);
	dfz__jw_open(&w, '[');
	dfz__jw_str(&w, bad);
	dfz__jw_close(&w, ']');
	fclose(m);
	j = json_loads(out, 0, &jerr);
	ck_assert_msg(j != NULL, "%s", jerr.text);
	ck_assert_str_eq(json_string_value(json_array_get(j, 0)),
			 "crash-\xef\xbf\xbd\xef\xbf\xbd.bin");
	json_decref(j);
	free(out);
}
END_TEST

Suite *suite_report(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("report");

	tcase_set_timeout(tc, 60);
	scratch_add(tc);
	tcase_add_test(tc, test_json_reader);
	tcase_add_test(tc, test_json_bounds);
	tcase_add_test(tc, test_json_garbage);
	tcase_add_test(tc, test_writer_invalid_utf8);
	tcase_add_test(tc, test_xml_checker);
	tcase_add_test(tc, test_report_outputs);
	tcase_add_test(tc, test_report_deterministic);
	tcase_add_test(tc, test_report_without_triage);
	tcase_add_test(tc, test_report_copies);
	tcase_add_test(tc, test_report_bad_input);
	tcase_add_test(tc, test_mkdir_codes);
	tcase_add_test(tc, test_output_codes);
	suite_add_tcase(s, tc);
	return s;
}
