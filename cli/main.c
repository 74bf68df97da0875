// SPDX-License-Identifier: MIT
/*
 * dmafuzz: dispatch to the subcommands, and the helpers they share.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "../dropin/ctx.h"

#ifndef DFZ_VERSION
#define DFZ_VERSION "unknown"
#endif

int cli_getopt(const char *cmd, int argc, char **argv, const char *shortopts,
	       const struct option *longopts)
{
	char spec[64];
	const char *arg;
	int o;

	snprintf(spec, sizeof(spec), ":%s", shortopts);
	opterr = 0;
	o = getopt_long(argc, argv, spec, longopts, NULL);
	if (o != '?' && o != ':')
		return o;
	arg = optind > 0 && optind <= argc ? argv[optind - 1] : "?";
	if (optopt && (strncmp(arg, "--", 2) != 0))
		cli_error(cmd, "%s option '-%c' (try 'dmafuzz %s --help')",
			  o == ':' ? "a value is missing after" : "unknown",
			  optopt, cmd);
	else
		cli_error(cmd, "%s option '%s' (try 'dmafuzz %s --help')",
			  o == ':' ? "a value is missing after" : "unknown",
			  arg, cmd);
	return '?';
}

/* A command's status once its output is out: standard output that could
 * not be written (a full disk, a closed pipe) is the harness's failure,
 * said in one line, never an exit 0. */
static int written(const char *cmd, int rc)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return rc;
	cli_error(cmd, "cannot write the output: %s",
		  errno ? strerror(errno) : "write error");
	return EXIT_INTERNAL;
}

static const char usage[] =
	"usage: dmafuzz COMMAND [OPTIONS] [ARGS]\n"
	"\n"
	"Test and fuzz the data-movement layer of an embedded ML runtime.\n"
	"\n"
	"commands:\n"
	"  run FILE|DIR|-...   replay plans; exit 0 clean, 1 bug, 2 bad input\n"
	"  show FILE           print a plan (text or binary) in the text form\n"
	"  encode [FILE|-]     turn a text plan into its binary choice stream\n"
	"  gen                 write random plans (a plan stream) to stdout\n"
	"  fuzz                in-process random campaign with a summary\n"
	"  matrix              safety matrix: engine x policy x strategy x\n"
	"                      buffering (and its order) x rank\n"
	"  min FILE            shrink a reproducer, keeping its bug class and site\n"
	"  emit-c FILE         write a standalone C program that reproduces a plan\n"
	"  triage DIR          bucket, minimize and explain the findings of a campaign\n"
	"  bench [DIR]         measure plans/s and engine throughput vs memcpy\n"
	"  bench --startup PLAN...  CPU time of a one-plan run process\n"
	"  report DIR          campaign report: summary.md/.json, SARIF, HTML\n"
	"  new-test NAME       start a drop-in test: test_NAME.c, its manifest\n"
	"                      line, the makefile fragment\n"
	"  campaign MANIFEST|DIR  fuzz your drop-in tests, triage, report\n"
	"\n"
	"Run 'dmafuzz COMMAND --help' for the options of a command;\n"
	"'dmafuzz --version' prints the version.\n";

void cli_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "dmafuzz %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_exit_of(int rc)
{
	return rc == DFZ_EIO || rc == DFZ_ENOMEM ? EXIT_INTERNAL
						 : EXIT_BAD_INPUT;
}

int cli_add_bugs(const char *cmd, const char *list, uint32_t *mask)
{
	uint32_t m = 0;

	if (!*list) {
		cli_error(cmd, "an empty bug switch list (try 'dmafuzz %s "
			  "--help')", cmd);
		return -1;
	}
	if (!strcmp(list, "all")) {
		*mask |= (1u << DFZ_BUG_COUNT) - 1;
		return 0;
	}
	if (dfz_bugs_parse(list, &m) < 0) {
		char known[256] = "";

		for (unsigned i = 0; i < DFZ_BUG_COUNT; i++) {
			strncat(known, " ", sizeof(known) - strlen(known) - 1);
			strncat(known, dfz_bug_name(i),
				sizeof(known) - strlen(known) - 1);
		}
		cli_error(cmd, "unknown bug switch in '%s' (known:%s, all)",
			  list, known);
		return -1;
	}
	*mask |= m;
	return 0;
}

int cli_parse_family(const char *cmd, const char *name)
{
	int f = dfz_family_of(name);

	if (f < 0)
		cli_error(cmd, "unknown family '%s' (xfer, host, api)", name);
	return f;
}

bool cli_parse_u64(const char *s, uint64_t *out)
{
	char *end;

	if (!s || !*s || *s == '-')
		return false;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);

	if (errno || *end)
		return false;
	*out = v;
	return true;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int, char **);
	} cmds[] = {
		{ "run", cli_run },       { "show", cli_show },
		{ "encode", cli_encode }, { "gen", cli_gen },
		{ "bench", cli_bench },   { "fuzz", cli_fuzz },
		{ "matrix", cli_matrix }, { "min", cli_min },
		{ "triage", cli_triage }, { "emit-c", cli_emit_c },
		{ "report", cli_report },  { "new-test", cli_new_test },
		{ "campaign", cli_campaign },
	};

	if (argc < 2) {
		fputs(usage, stderr);
		return EXIT_BAD_INPUT;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("dmafuzz %s (drop-in core switch: %s)\n", DFZ_VERSION,
		       dfz__ctx_kind());
		return EXIT_CLEAN;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		fputs(usage, stdout);
		return EXIT_CLEAN;
	}
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return written(cmds[i].name,
				       cmds[i].fn(argc - 1, argv + 1));
	fprintf(stderr, "dmafuzz: unknown command '%s' (try 'dmafuzz --help')\n",
		argv[1]);
	return EXIT_BAD_INPUT;
}
