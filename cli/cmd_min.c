// SPDX-License-Identifier: MIT
/*
 * `dmafuzz min`: shrink a reproducer (a text plan, a full choice stream,
 * or with --family the bare stream a fuzz target crashed on) to the
 * smallest plan that keeps its bug class and site (dfz_minimize()), and
 * print the plan before and after. Exit 0 when minimized, 2 on bad input,
 * 3 on an internal error, 4 when the input does not reproduce a bug.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "dmafuzz/shrink.h"

#define EXIT_NO_REPRO 4        /* the input runs clean (or is rejected) */

struct min_opts {
	struct dfz_min_config cfg;
	int family;                   /* binary input: a bare stream; -1 full */
	const char *out;              /* -o: the minimized plan, text */
	const char *bin;              /* --bin: the minimized bare stream */
	const char *input;
	const char *exec;             /* --exec: a drop-in test binary */
	bool json;
};

static const char min_usage[] =
	"usage: dmafuzz min [--bug NAME]... [--family F] [--max-runs N]\n"
	"                   [--seconds S] [-o FILE] [--bin FILE] [--json] FILE|-\n"
	"       dmafuzz min --exec BINARY [--max-runs N] [-o FILE] [--json] FILE\n"
	"\n"
	"Shrink a reproducer to the smallest plan whose run keeps its bug class\n"
	"and site (the signature: class/oracle@level), and print the plan before\n"
	"and after. The input is a text plan, a binary choice stream, or with\n"
	"--family the bare stream of that family (a fuzz target's crash file).\n"
	"Sizes are bytes of the bare choice stream (the fuzz target's input).\n"
	"Deterministic: the same input and switches give the same plan.\n"
	"\n"
	"  -b, --bug NAME      turn a bug switch on (repeatable; a comma list; all)\n"
	"  -f, --family F      read a binary FILE as a bare stream of family F\n"
	"  -r, --max-runs N    runs of the runtime at most (default 20000)\n"
	"  -s, --seconds S     stop after S seconds of wall time (default: none)\n"
	"  -o, --output FILE   write the minimized plan (text, with '# expect:')\n"
	"      --bin FILE      write the minimized bare choice stream\n"
	"  -j, --json          one JSON object instead of the text report\n"
	"  -x, --exec BINARY   FILE is a schedule of this drop-in test binary\n"
	"                      (include/dmafuzz/dropin.h): shrink it keeping\n"
	"                      the finding's class and site (file:line); -o\n"
	"                      writes the shrunk schedule (default FILE.min)\n"
	"  -h, --help          this help\n"
	"\n"
	"exit: 0 minimized, 2 bad input, 3 internal error, 4 the input does not\n"
	"reproduce a bug with these switches\n";

static int parse_min_opts(int argc, char **argv, struct min_opts *m)
{
	static const struct option opts[] = {
		{ "bug", required_argument, NULL, 'b' },
		{ "family", required_argument, NULL, 'f' },
		{ "max-runs", required_argument, NULL, 'r' },
		{ "seconds", required_argument, NULL, 's' },
		{ "output", required_argument, NULL, 'o' },
		{ "bin", required_argument, NULL, 'B' },
		{ "json", no_argument, NULL, 'j' },
		{ "exec", required_argument, NULL, 'x' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t v;
	int o;

	optind = 1;
	while ((o = cli_getopt("min", argc, argv, "b:f:r:s:o:jx:h", opts)) != -1) {
		switch (o) {
		case 'b':
			if (cli_add_bugs("min", optarg, &m->cfg.bugs) < 0)
				return EXIT_BAD_INPUT;
			break;
		case 'f':
			m->family = cli_parse_family("min", optarg);
			if (m->family < 0)
				return EXIT_BAD_INPUT;
			break;
		case 'r':
		case 's':
			if (!cli_parse_u64(optarg, &v) || v == 0) {
				cli_error("min", "bad number '%s' for -%c", optarg, o);
				return EXIT_BAD_INPUT;
			}
			if (o == 'r')
				m->cfg.max_runs = v;
			else
				m->cfg.max_seconds = (double)v;
			break;
		case 'o':
			m->out = optarg;
			break;
		case 'B':
			m->bin = optarg;
			break;
		case 'j':
			m->json = true;
			break;
		case 'x':
			m->exec = optarg;
			break;
		case 'h':
			fputs(min_usage, stdout);
			return EXIT_CLEAN;
		default:
			return EXIT_BAD_INPUT;
		}
	}
	if (optind + 1 != argc) {
		cli_error("min", "expects exactly one FILE (try 'dmafuzz min --help')");
		return EXIT_BAD_INPUT;
	}
	m->input = argv[optind];
	return -1;
}

/*
 * The bare stream to shrink: a binary file with --family as it is; a text
 * plan or a full stream as the canonical bare stream of its plan (the
 * same plan, so the same run). @stream: caller frees.
 */
static int input_stream(struct min_opts *m, uint8_t *buf, size_t n,
			uint8_t **stream, size_t *len)
{
	struct dfz_plan p;
	char err[300];

	if (m->family >= 0 && !dfz_plan_bytes_are_text(buf, n)) {
		m->cfg.family = (unsigned)m->family;
		*stream = buf;
		*len = n;
		return 0;
	}
	if (dfz_plan_from_bytes(buf, n, &p, err, sizeof(err)) < 0) {
		cli_error("min", "%s: %s", m->input, err);
		return EXIT_BAD_INPUT;
	}
	m->cfg.family = p.family;
	if (dfz_plan_encode_as(&p, stream, len) < 0) {
		cli_error("min", "out of memory");
		return EXIT_INTERNAL;
	}
	return 0;
}

/* The switches of @bugs, comma-separated ("none" when empty). */
static const char *switch_list(uint32_t bugs, char *buf, size_t len)
{
	return *dfz_bugs_format(bugs, buf, len) ? buf : "none";
}

/* Print the plan of the bare stream @buf, each line indented. */
static void print_plan(unsigned family, const uint8_t *buf, size_t n, FILE *f)
{
	struct dfz_plan p;
	char *text = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	dfz_plan_decode_as(family, buf, n, &p);
	if (!mem) {
		dfz_plan_print(&p, f);
		return;
	}
	dfz_plan_print(&p, mem);
	fclose(mem);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		fprintf(f, "  %s\n", line);
	free(text);
}

static const char *stop_name(unsigned stop)
{
	static const char *const names[] = {
		[DFZ_MIN_FIXPOINT] = "fixpoint",
		[DFZ_MIN_RUNS_OUT] = "run budget spent: the plan may shrink further",
		[DFZ_MIN_TIME_OUT] = "time budget spent: the plan may shrink further",
	};

	return stop < 3 ? names[stop] : "?";
}

static void report_text(const struct min_opts *m, const uint8_t *in,
			const struct dfz_min_result *r, double secs)
{
	char sig[DFZ_SIG_TEXT], sw[256];

	printf("INPUT:     %s\n", m->input);
	printf("FAMILY:    %s\n", dfz_family_name(m->cfg.family));
	printf("SWITCHES:  %s\n", switch_list(m->cfg.bugs, sw, sizeof(sw)));
	printf("SIGNATURE: %s\n", dfz_signature_format(&r->sig, sig, sizeof(sig)));
	printf("BEFORE:    %zu bytes\n", r->n_in);
	print_plan(m->cfg.family, in, r->n_in, stdout);
	printf("AFTER:     %zu bytes\n", r->n);
	print_plan(m->cfg.family, r->buf, r->n, stdout);
	printf("MESSAGE:   %s\n", r->verdict.finding.msg);
	printf("RUNS:      %llu (%llu kept, %u rounds)\n",
	       (unsigned long long)r->runs, (unsigned long long)r->accepted,
	       r->rounds);
	printf("TIME:      %.3f s\n", secs);
	printf("STOP:      %s\n", stop_name(r->stop));
}

static void report_json(const struct min_opts *m,
			const struct dfz_min_result *r, double secs)
{
	char sig[DFZ_SIG_TEXT], sw[256];

	/* The input name is printed as given: JSON-escape the two specials. */
	fputs("{\"input\":\"", stdout);
	for (const char *c = m->input; *c; c++)
		if ((unsigned char)*c >= 0x20)
			printf(*c == '"' || *c == '\\' ? "\\%c" : "%c", *c);
	printf("\",\"family\":\"%s\",\"switches\":\"%s\",\"signature\":\"%s\","
	       "\"bytes_in\":%zu,\"bytes_out\":%zu,\"runs\":%llu,\"kept\":%llu,"
	       "\"rounds\":%u,\"seconds\":%.3f,\"stop\":\"%s\"}\n",
	       dfz_family_name(m->cfg.family),
	       switch_list(m->cfg.bugs, sw, sizeof(sw)),
	       dfz_signature_format(&r->sig, sig, sizeof(sig)), r->n_in, r->n,
	       (unsigned long long)r->runs, (unsigned long long)r->accepted,
	       r->rounds, secs,
	       r->stop == DFZ_MIN_FIXPOINT ? "fixpoint" :
	       r->stop == DFZ_MIN_RUNS_OUT ? "runs" : "time");
}

/* The minimized plan to @path: as text, or its choice bytes. */
static int write_result(const char *path, const struct min_opts *m,
			const struct dfz_min_result *r, bool text)
{
	char sig[DFZ_SIG_TEXT], sw[256], *buf = NULL;
	struct dfz_plan p;
	size_t len = 0;
	FILE *f;
	int rc;

	if (!text)
		return cli_write_file("min", path, r->buf, r->n);
	f = open_memstream(&buf, &len);
	if (!f) {
		cli_error("min", "out of memory");
		return EXIT_INTERNAL;
	}
	dfz_plan_decode_as(m->cfg.family, r->buf, r->n, &p);
	fprintf(f, "# minimized by 'dmafuzz min' with %s: "
		"%zu -> %zu choice bytes, %s\n# expect: %s\n",
		switch_list(m->cfg.bugs, sw, sizeof(sw)), r->n_in, r->n,
		dfz_signature_format(&r->sig, sig, sizeof(sig)),
		dfz_class_name(r->sig.cls));
	dfz_plan_print(&p, f);
	if (fclose(f) != 0) {
		free(buf);
		cli_error("min", "out of memory");
		return EXIT_INTERNAL;
	}
	rc = cli_write_file("min", path, buf, len);
	free(buf);
	return rc;
}

static double now_seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int minimize(struct min_opts *m, struct dfz_exec *ex,
		    const uint8_t *in, size_t n)
{
	struct dfz_min_result r;
	double t0 = now_seconds();
	int rc = dfz_minimize(ex, &m->cfg, in, n, &r);
	char sw[256];

	if (rc == DFZ_ENOENT) {
		cli_error("min", "%s does not reproduce a bug with switches %s "
			  "(verdict: %s)", m->input,
			  switch_list(m->cfg.bugs, sw, sizeof(sw)),
			  r.verdict.kind == DFZ_VERDICT_CLEAN ? "clean" : "rejected");
		return EXIT_NO_REPRO;
	}
	if (rc < 0) {
		cli_error("min", "out of memory");
		return EXIT_INTERNAL;
	}
	if (m->json)
		report_json(m, &r, now_seconds() - t0);
	else
		report_text(m, in, &r, now_seconds() - t0);
	rc = EXIT_CLEAN;
	if (m->out)
		rc = write_result(m->out, m, &r, true);
	if (m->bin && rc == EXIT_CLEAN)
		rc = write_result(m->bin, m, &r, false);
	dfz_min_result_fini(&r);
	return rc;
}

int cli_min(int argc, char **argv)
{
	struct min_opts m = { .family = -1 };
	struct dfz_exec *ex;
	uint8_t *buf, *stream;
	size_t n, len;
	int rc = parse_min_opts(argc, argv, &m);

	if (rc >= 0)
		return rc;
	rc = cli_read_file("min", m.input, &buf, &n);
	if (rc)
		return rc;
	if (m.exec) {
		rc = cli_min_exec(m.exec, m.input, buf, n, m.cfg.max_runs,
				  m.out, m.json);
		free(buf);
		return rc;
	}
	rc = input_stream(&m, buf, n, &stream, &len);
	if (rc || stream != buf)
		free(buf);
	if (rc)
		return rc;
	if (dfz_exec_create(DFZ_ORACLES_ALL, &ex) < 0) {
		cli_error("min", "out of memory");
		free(stream);
		return EXIT_INTERNAL;
	}
	dfz_exec_catch_signals(ex, true);
	rc = minimize(&m, ex, stream, len);
	dfz_exec_destroy(ex);
	free(stream);
	return rc;
}
