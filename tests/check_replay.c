// SPDX-License-Identifier: MIT
/*
 * Replay commands, end to end. A campaign holds an api and a host crash
 * as their fuzz targets saved them (bare choice streams, which `dmafuzz
 * run FILE` without --family would read as another plan); it is triaged
 * and reported, and every replay command the triage log, summary.md,
 * summary.json and index.html print is run as printed, with dmafuzz on
 * PATH, from another directory: each must give its bucket's verdict. And
 * a bucket's page shows one reproducer: its heading's message is the one
 * its verdict block and its replay give, not the first input's (which
 * differs). Runs $DFZ_CLI (set by `make check`).
 */
#define _GNU_SOURCE
#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_int.h"

#include "cli_run.h"
#include "scratch.h"
#include "xml_check.h"

#define MAX_CMDS 16

struct cmds {
	char line[MAX_CMDS][1024];
	int n;
};

static void add(struct cmds *c, const char *s, size_t len)
{
	ck_assert_int_lt(c->n, MAX_CMDS);
	ck_assert_uint_lt(len, sizeof(c->line[0]));
	snprintf(c->line[c->n++], sizeof(c->line[0]), "%.*s", (int)len, s);
}

/* The text after each @tag up to @end: the commands a file prints. */
static void after_each(const char *text, const char *tag, const char *end,
		       struct cmds *c)
{
	for (const char *p = text; (p = strstr(p, tag)); p++) {
		p += strlen(tag);
		add(c, p, strcspn(p, end));
	}
}

/* index.html: each line of every <pre class="replay"> block. */
static void from_html(const char *html, struct cmds *c)
{
	static const char tag[] = "<pre class=\"replay\">";

	for (const char *p = html; (p = strstr(p, tag)); ) {
		const char *end = strstr(p, "</pre>");

		ck_assert_ptr_nonnull(end);
		for (p += strlen(tag); p < end; p += strcspn(p, "\n") + 1)
			add(c, p, strcspn(p, "\n"));
	}
}

/* summary.json: triage.buckets[].replay[]. */
static void from_json(const char *path, struct cmds *c)
{
	size_t n;
	char *text = slurp(path, &n), e[128];
	struct dfz_json *j;
	const struct dfz_json *bs;

	ck_assert_int_eq(dfz_json_parse(text, n, &j, e, sizeof(e)), 0);
	bs = dfz_json_get(dfz_json_get(j, "triage"), "buckets");
	for (size_t i = 0; i < dfz_json_len(bs); i++) {
		const struct dfz_json *r = dfz_json_get(dfz_json_at(bs, i),
							"replay");

		for (size_t k = 0; k < dfz_json_len(r); k++)
			add(c, dfz_json_str(dfz_json_at(r, k)),
			    strlen(dfz_json_str(dfz_json_at(r, k))));
	}
	dfz_json_free(j);
	free(text);
}

/*
 * Run @cmd as a user would: by sh from the root directory, with the
 * directory of $DFZ_CLI first on PATH; its output into @out.
 * Return: its exit code.
 */
static int replay(const char *cmd, char *out, size_t len)
{
	char *bin = realpath(cli_bin(), NULL), *slash;
	FILE *f = fopen(at("cmd.sh"), "w");
	int rc;

	ck_assert_ptr_nonnull(bin);
	ck_assert_ptr_nonnull(f);
	fprintf(f, "%s\n", cmd);
	ck_assert_int_eq(fclose(f), 0);
	slash = strrchr(bin, '/');
	*slash = 0;
	rc = sh("cd / && PATH='%s':\"$PATH\" sh %s > %s 2>&1", bin, at("cmd.sh"),
		at("cmd.out"));
	read_text(at("cmd.out"), out, len);
	free(bin);
	return rc;
}

/* The class of the bucket a command's path names: @cls[0] for b01, ... */
static const char *class_of(const char *cmd, const char *const *cls,
			    int ncls)
{
	const char *b = strstr(cmd, "/buckets/b");
	int k = b ? atoi(b + 10) : 0;

	ck_assert_msg(k >= 1 && k <= ncls, "%s: no bucket of this test", cmd);
	return cls[k - 1];
}

/* Run every command of @c: each gives the class of its bucket. */
static void run_all(const struct cmds *c, const char *source,
		    const char *const *cls, int ncls)
{
	static char out[65536];
	char want[64];

	for (int i = 0; i < c->n; i++) {
		int rc = replay(c->line[i], out, sizeof(out));

		snprintf(want, sizeof(want), "CLASS:    %s\n",
			 class_of(c->line[i], cls, ncls));
		ck_assert_msg(rc == 1 && strstr(out, "VERDICT:  bug\n") &&
			      strstr(out, want), "%s: `%s` exits %d:\n%s",
			      source, c->line[i], rc, out);
	}
}

START_TEST(test_every_replay_replays)
{
	struct cmds log = { .n = 0 }, md = { .n = 0 }, html = { .n = 0 },
		    json = { .n = 0 };
	static const char *const cls[] = { "crash", "dev.leak" };
	char *text, why[160];

	ck_assert_int_eq(sh("mkdir -p $T/c/api/default/crashes "
			    "$T/c/host/default/crashes"), 0);
	ck_assert_int_eq(sh("%s encode --bare corpus/regress/null-arg.plan "
			    "> $T/c/api/default/crashes/id:000000,sig:11",
			    cli_bin()), 0);
	ck_assert_int_eq(sh("%s encode --bare corpus/regress/register-leak.plan "
			    "> $T/c/host/default/crashes/id:000000,sig:06",
			    cli_bin()), 0);
	ck_assert_int_eq(sh("%s triage --bug null-arg,register-leak $T/c "
			    "> $T/triage.log", cli_bin()), 0);
	ck_assert_int_eq(sh("%s report -q $T/c", cli_bin()), 0);
	text = slurp(at("c/triage/triage.json"), NULL);
	ck_assert_ptr_nonnull(strstr(text, "\"id\": \"b01\",\n      \"signature\": "
				     "\"crash/signal:SIGSEGV\""));
	ck_assert_ptr_nonnull(strstr(text, "\"id\": \"b02\",\n      \"signature\": "
				     "\"dev.leak/dev\""));
	free(text);

	text = slurp(at("triage.log"), NULL);
	after_each(text, "\n        replay: ", "\n", &log);
	free(text);
	text = slurp(at("c/summary.md"), NULL);
	after_each(text, "\n- replay: `", "`", &md);
	after_each(text, "\n  or `", "`", &md);
	free(text);
	text = slurp(at("c/index.html"), NULL);
	ck_assert(xml_well_formed(text, why, sizeof(why)));
	from_html(text, &html);
	free(text);
	from_json(at("c/summary.json"), &json);

	/* One a bucket in the log; the text plan, the self-describing
	 * stream and the fuzz target's input of both in the others. */
	ck_assert_int_eq(log.n, 2);
	ck_assert_int_eq(md.n, 6);
	ck_assert_int_eq(html.n, 6);
	ck_assert_int_eq(json.n, 6);
	for (int i = 0; i < md.n; i++) {
		bool in_json = false;

		for (int k = 0; k < json.n; k++)
			in_json |= !strcmp(md.line[i], json.line[k]);
		ck_assert_msg(in_json, "%s: not in summary.json", md.line[i]);
		/* Only with --family does run read a bare stream as the
		 * target did; repro.bin names its family itself. */
		ck_assert(!strstr(md.line[i], "input.bin") ||
			  strstr(md.line[i], "run --family "));
		ck_assert(!strstr(md.line[i], "repro.bin") ||
			  !strstr(md.line[i], "--family"));
	}
	run_all(&log, "triage log", cls, 2);
	run_all(&md, "summary.md", cls, 2);
	run_all(&html, "index.html", cls, 2);
	run_all(&json, "summary.json", cls, 2);
}
END_TEST

/* A campaign in a directory whose name a shell splits and quotes: the
 * commands quote the paths they print. */
START_TEST(test_replay_quoted_paths)
{
	static const char *const cls[] = { "dev.leak" };
	struct cmds md = { .n = 0 }, json = { .n = 0 };
	const char *c = "\"$T/it's a campaign\"";
	char *text;

	ck_assert_int_eq(sh("mkdir -p %s/host/default/crashes", c), 0);
	ck_assert_int_eq(sh("%s encode --bare corpus/regress/register-leak.plan "
			    "> %s/host/default/crashes/id:000000,sig:06",
			    cli_bin(), c), 0);
	ck_assert_int_eq(sh("%s triage --bug register-leak %s > /dev/null",
			    cli_bin(), c), 0);
	ck_assert_int_eq(sh("%s report -q -o $T/out %s", cli_bin(), c), 0);
	text = slurp(at("out/summary.md"), NULL);
	after_each(text, "\n- replay: `", "`", &md);
	after_each(text, "\n  or `", "`", &md);
	free(text);
	from_json(at("out/summary.json"), &json);
	ck_assert_int_eq(md.n, 3);
	ck_assert_int_eq(json.n, 3);
	ck_assert_ptr_nonnull(strstr(md.line[0], "/it'\\''s a campaign/triage/"
				     "buckets/b01/repro.plan'"));
	run_all(&md, "summary.md", cls, 1);
	run_all(&json, "summary.json", cls, 1);
}
END_TEST

/* The text of the first @tag...@end of @h after @from, into @buf. */
static char *between(const char *h, const char *from, const char *tag,
		     const char *end, char *buf, size_t len)
{
	const char *p = strstr(h, from), *q;

	ck_assert_ptr_nonnull(p);
	p = strstr(p, tag);
	ck_assert_ptr_nonnull(p);
	p += strlen(tag);
	q = strstr(p, end);
	ck_assert_ptr_nonnull(q);
	ck_assert_uint_lt((size_t)(q - p), len);
	snprintf(buf, len, "%.*s", (int)(q - p), p);
	return buf;
}

/*
 * A shared-handle crash minimizes to a plan whose message names other
 * requests and steps than the crash's own: the bucket's heading, its
 * verdict block and its replay all say the reproducer's.
 */
START_TEST(test_heading_is_the_verdict)
{
	static char out[65536];
	char head[512], verdict[512], first[512], cmd[1024], *h;

	ck_assert_int_eq(sh("mkdir -p $T/c/xfer/default/crashes"), 0);
	ck_assert_int_eq(sh("%s encode --bare corpus/regress/shared-handle.plan "
			    "> $T/c/xfer/default/crashes/id:000000,sig:06",
			    cli_bin()), 0);
	ck_assert_int_eq(cli_quiet("triage --bug shared-handle $T/c"), 0);
	ck_assert_int_eq(cli_quiet("report $T/c"), 0);
	h = slurp(at("c/index.html"), NULL);
	between(h, "id=\"bucket-b01\"", "<p class=\"msg\">", "</p>", head,
		sizeof(head));
	between(h, "<h3>Verdict and evidence</h3>", "MESSAGE:  ", "\n",
		verdict, sizeof(verdict));
	between(h, "<h3>Replay</h3>", "<pre class=\"replay\">", "\n", cmd,
		sizeof(cmd));
	free(h);
	ck_assert_str_eq(head, verdict);

	/* The crash itself says something else (else this proves nothing). */
	ck_assert_int_eq(sh("%s run --family xfer --bug shared-handle "
			    "$T/c/xfer/default/crashes/id:000000,sig:06 > %s",
			    cli_bin(), at("first.txt")), 1);
	h = slurp(at("first.txt"), NULL);
	between(h, "VERDICT:", "MESSAGE:  ", "\n", first, sizeof(first));
	free(h);
	ck_assert_str_ne(first, head);

	/* The replay the page shows gives the heading's message. */
	ck_assert_msg(replay(cmd, out, sizeof(out)) == 1, "%s: %s", cmd, out);
	between(out, "VERDICT:", "MESSAGE:  ", "\n", first, sizeof(first));
	ck_assert_str_eq(first, head);
}
END_TEST

Suite *suite_replay(void)
{
	Suite *s = suite_create("replay");
	TCase *tc = tcase_create("replay");

	tcase_set_timeout(tc, 120);
	scratch_add(tc);
	tcase_add_test(tc, test_every_replay_replays);
	tcase_add_test(tc, test_heading_is_the_verdict);
	tcase_add_test(tc, test_replay_quoted_paths);
	suite_add_tcase(s, tc);
	return s;
}
