// SPDX-License-Identifier: MIT
/*
 * `dmafuzz emit-c`: turn a reproducer into a standalone C program
 * (dfz_emit_c()) that replays the plan through the public API, asserts
 * the expected verdict and builds with
 * `cc repro.c $(pkg-config --cflags --libs dmafuzz)`. The plan is run
 * once first: the program is only written when that run gives the
 * expected verdict, so an emitted file always reproduces. Exit 0 when
 * written, 2 on bad input, 3 on an internal error or an output that
 * cannot be written (a full disk: one line, as every command), 4 when
 * the plan does not give the expected verdict with these switches.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "dmafuzz/emit.h"

#define EXIT_NO_REPRO 4        /* the run does not give the expected verdict */

struct emit_opts {
	struct dfz_emit_config cfg;
	int family;                   /* binary input: a bare stream; -1 full */
	const char *expect;           /* --expect, or NULL */
	const char *out;              /* -o, or NULL: stdout */
	const char *input;
};

static const char emit_usage[] =
	"usage: dmafuzz emit-c [--bug NAME]... [--expect CLASSES] [--family F]\n"
	"                      [--dropin] [-o FILE] FILE|-\n"
	"\n"
	"Write a standalone C program that replays the plan through the public\n"
	"API of libdmafuzz with plain calls (every tile transfer, wait and\n"
	"compute step, or every host-runtime call, with concrete arguments),\n"
	"turns on the switches given here, and exits 0 when its verdict is the\n"
	"expected one (`./repro --clean`: every switch off, exit 0 when clean).\n"
	"Build it with: cc -o repro repro.c $(pkg-config --cflags --libs dmafuzz)\n"
	"\n"
	"--dropin writes an xfer plan instead as the code a tiling compiler\n"
	"generates for the SDK (each hop in its engine's names: PMSIS cluster\n"
	"RAM, GAP9 mchan.h, the Snitch runtime; requests and buffers, the\n"
	"switches as the faulty code), a drop-in test that fills, runs and\n"
	"checks. Build it with:\n"
	"cc -o repro repro.c $(pkg-config --cflags --libs dmafuzz-dropin)\n"
	"\n"
	"The expected classes are --expect's, else (with a switch on) the file's\n"
	"'# expect:' line, else the class the plan gives now; without switches a\n"
	"clean run. The plan is run first: nothing is written unless it gives\n"
	"the expected verdict.\n"
	"\n"
	"  -b, --bug NAME        turn a bug switch on (repeatable; a comma list)\n"
	"  -e, --expect CLASSES  the classes to assert, 'a|b' (or 'clean')\n"
	"  -f, --family F        read a binary FILE as a bare stream of family F\n"
	"  -d, --dropin          the SDK code for the drop-in (see above)\n"
	"  -o, --output FILE     write the program to FILE (default: stdout)\n"
	"  -h, --help            this help\n"
	"\n"
	"exit: 0 written, 2 bad input, 3 internal error or the output cannot be\n"
	"written, 4 the plan does not give the expected verdict\n";

static int parse_emit_opts(int argc, char **argv, struct emit_opts *m)
{
	static const struct option opts[] = {
		{ "bug", required_argument, NULL, 'b' },
		{ "expect", required_argument, NULL, 'e' },
		{ "family", required_argument, NULL, 'f' },
		{ "dropin", no_argument, NULL, 'd' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int o;

	optind = 1;
	while ((o = cli_getopt("emit-c", argc, argv, "b:e:f:do:h", opts)) != -1) {
		switch (o) {
		case 'b':
			if (cli_add_bugs("emit-c", optarg, &m->cfg.bugs) < 0)
				return EXIT_BAD_INPUT;
			break;
		case 'e':
			m->expect = optarg;
			break;
		case 'f':
			m->family = cli_parse_family("emit-c", optarg);
			if (m->family < 0)
				return EXIT_BAD_INPUT;
			break;
		case 'd':
			m->cfg.dropin = true;
			break;
		case 'o':
			m->out = optarg;
			break;
		case 'h':
			fputs(emit_usage, stdout);
			return EXIT_CLEAN;
		default:
			return EXIT_BAD_INPUT;
		}
	}
	if (optind + 1 != argc) {
		cli_error("emit-c", "expects exactly one FILE (try 'dmafuzz emit-c --help')");
		return EXIT_BAD_INPUT;
	}
	m->input = argv[optind];
	return -1;
}

/* The classes of a text plan's "# expect:" line, or "" (in @out). */
static void expect_line(const uint8_t *buf, size_t n, char *out, size_t len)
{
	const char *s = (const char *)buf, *at;

	out[0] = 0;
	if (!dfz_plan_bytes_are_text(buf, n))
		return;
	for (at = strstr(s, "# expect:"); at; at = strstr(at + 1, "# expect:"))
		if (at == s || at[-1] == '\n') {
			at += strlen("# expect:");
			at += strspn(at, " \t");
			snprintf(out, len, "%.*s", (int)strcspn(at, " \t\r\n"), at);
			return;
		}
}

/* Whether @v is one of @expect's classes ("" or "clean": a clean run). */
static bool is_expected(const struct dfz_verdict *v, const char *expect)
{
	const char *name = dfz_class_name(v->finding.cls);
	size_t k = strlen(name);

	if (!*expect || !strcmp(expect, "clean"))
		return v->kind == DFZ_VERDICT_CLEAN;
	if (v->kind != DFZ_VERDICT_BUG)
		return false;
	for (const char *s = expect; *s; s += strcspn(s, "|"), s += !!*s)
		if (strcspn(s, "|") == k && !strncmp(s, name, k))
			return true;
	return false;
}

/* @expect is "clean" or known class names joined by '|'. */
static bool are_classes(const char *expect)
{
	char name[64];

	if (!strcmp(expect, "clean"))
		return true;
	for (const char *s = expect;; s++) {
		size_t k = strcspn(s, "|");

		if (k == 0 || k >= sizeof(name))
			return false;
		snprintf(name, sizeof(name), "%.*s", (int)k, s);
		if (dfz_class_parse(name) == DFZ_CLASS_NONE)
			return false;
		s += k;
		if (!*s)
			return true;
	}
}

/* The program in memory (@text, @n bytes; caller frees @text), so that
 * what fails there is the emitter's and what fails later is the output's.
 * Return: 0 or a negative DFZ_E* code. */
static int render(const struct emit_opts *m, const struct dfz_plan *p,
		  char **text, size_t *n)
{
	FILE *f = open_memstream(text, n);
	int rc;

	if (!f)
		return DFZ_ENOMEM;
	rc = dfz_emit_c(p, &m->cfg, f);
	/* A memory stream fails to write only when memory runs out. */
	if (rc == DFZ_EIO)
		rc = DFZ_ENOMEM;
	if (fclose(f) != 0 && rc == 0)
		rc = DFZ_ENOMEM;
	return rc;
}

/* @text to stdout. A failed write (a full disk, a closed pipe) is said
 * here, once, and its error dropped: main()'s check of stdout would say
 * it again. */
static int write_stdout(const char *text, size_t n)
{
	int err;

	errno = 0;
	if (fwrite(text, 1, n, stdout) == n && fflush(stdout) == 0)
		return EXIT_CLEAN;
	err = errno;
	__fpurge(stdout);
	clearerr(stdout);
	cli_error("emit-c", "cannot write the output: %s",
		  err ? strerror(err) : "write error");
	return EXIT_INTERNAL;
}

/* The program for @p, to -o's file or stdout. */
static int write_out(const struct emit_opts *m, const struct dfz_plan *p)
{
	char *text = NULL;
	size_t n = 0;
	int rc = render(m, p, &text, &n);

	if (rc < 0) {
		free(text);
		cli_error("emit-c", "cannot emit the program: %s", dfz_strerror(rc));
		return EXIT_INTERNAL;
	}
	rc = m->out ? cli_write_file("emit-c", m->out, text, n) :
		     write_stdout(text, n);
	free(text);
	return rc;
}

/* The report of @v as `dmafuzz run` prints it, without its INPUT line,
 * each line indented, appended to @buf. */
static void add_report(const struct dfz_verdict *v, const char *title,
		       char *buf, size_t len)
{
	char *text = NULL, *line, *save = NULL;
	size_t n = 0, at = strlen(buf);
	FILE *m = open_memstream(&text, &n);

	if (!m)
		return;
	dfz_verdict_print(v, NULL, false, m);
	fclose(m);
	at += (size_t)snprintf(buf + at, len - at, "%s%s\n", at ? "\n" : "",
			       title);
	for (line = strtok_r(text, "\n", &save); line && at < len;
	     line = strtok_r(NULL, "\n", &save))
		if (strncmp(line, "INPUT:", 6) != 0)
			at += (size_t)snprintf(buf + at, len - at, "  %s\n", line);
	free(text);
}

/*
 * Run @p with the switches and without; the expectation is --expect's,
 * the file's (@line), or what the run gives (with switches on). @note
 * gets both reports. Return -1 to go on, or an exit code.
 */
static int settle_expect(struct emit_opts *m, const struct dfz_plan *p,
			 const char *line, char *expect, size_t len,
			 char *note, size_t nlen)
{
	struct dfz_verdict v, clean;
	struct dfz_exec *ex;

	if (dfz_exec_create(DFZ_ORACLES_ALL, &ex) < 0) {
		cli_error("emit-c", "out of memory");
		return EXIT_INTERNAL;
	}
	dfz_exec_catch_signals(ex, true);
	dfz_exec_run(ex, p, m->cfg.bugs, &v);
	dfz_exec_run(ex, p, 0, &clean);
	dfz_exec_destroy(ex);
	if (v.kind == DFZ_VERDICT_REJECTED) {
		cli_error("emit-c", "%s: rejected: %s", m->input, v.reason);
		return EXIT_BAD_INPUT;
	}
	snprintf(expect, len, "%s", m->expect ? m->expect :
		 !m->cfg.bugs ? "" : *line ? line :
		 v.kind == DFZ_VERDICT_BUG ? dfz_class_name(v.finding.cls) : "");
	if (!is_expected(&v, expect)) {
		cli_error("emit-c", "%s: the run is %s, expected %s", m->input,
			  v.kind == DFZ_VERDICT_BUG ? dfz_class_name(v.finding.cls) :
			  "clean", *expect ? expect : "clean");
		return EXIT_NO_REPRO;
	}
	note[0] = 0;
	add_report(&v, "Report with the switches on (what `dmafuzz run` "
		   "printed when this was emitted):", note, nlen);
	add_report(&clean, "Report with --clean (every switch off):", note,
		   nlen);
	return -1;
}

int cli_emit_c(int argc, char **argv)
{
	struct emit_opts m = { .family = -1 };
	char err[300], why[200], line[128], expect[256], note[2048];
	struct dfz_plan p;
	uint8_t *buf = NULL;
	size_t n;
	int rc = parse_emit_opts(argc, argv, &m);

	if (rc >= 0)
		return rc;
	rc = cli_read_file("emit-c", m.input, &buf, &n);
	if (rc == 0 && m.family >= 0 && !dfz_plan_bytes_are_text(buf, n))
		dfz_plan_decode_as((unsigned)m.family, buf, n, &p);
	else if (rc == 0 && dfz_plan_from_bytes(buf, n, &p, err, sizeof(err)) < 0) {
		cli_error("emit-c", "%s: %s", m.input, err);
		rc = EXIT_BAD_INPUT;
	}
	if (rc == 0)
		expect_line(buf, n, line, sizeof(line));
	free(buf);
	if (rc != 0)
		return rc;
	if (m.cfg.dropin &&
	    !dfz_emit_dropin_supports(&p, m.cfg.bugs, why, sizeof(why))) {
		cli_error("emit-c", "%s: --dropin cannot write this plan: %s",
			  m.input, why);
		return EXIT_BAD_INPUT;
	}
	if (m.expect && !are_classes(m.expect)) {
		cli_error("emit-c", "bad --expect '%s': class names a|b, or clean",
			  m.expect);
		return EXIT_BAD_INPUT;
	}
	rc = settle_expect(&m, &p, line, expect, sizeof(expect), note,
			   sizeof(note));
	if (rc >= 0)
		return rc;
	m.cfg.expect = expect;
	m.cfg.name = m.input;
	m.cfg.note = note;
	return write_out(&m, &p);
}
