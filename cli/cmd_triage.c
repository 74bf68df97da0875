// SPDX-License-Identifier: MIT
/*
 * `dmafuzz triage DIR`: bucket the crashes and hangs of a fuzz campaign
 * by signature and site, with one minimized reproducer per bucket
 * (dfz_triage()). Exit 0 when triaged (findings or not), 2 on bad input
 * (no such DIR, a bad flag), 3 on an internal error.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dmafuzz/triage.h"

static const char triage_usage[] =
	"usage: dmafuzz triage [--bug NAME]... [-o OUT] [--exec PROG]\n"
	"                      [--max-runs N] [--seconds S] [--timeout MS] DIR\n"
	"\n"
	"Replay every crash and hang input of a fuzz campaign (files under\n"
	"directories named crashes, hangs or findings in DIR, e.g. out/fuzz),\n"
	"bucket them by signature (class/oracle@level; for a real signal also\n"
	"the faulting instruction and the top three frames), and minimize one\n"
	"reproducer per bucket. Writes OUT/triage.json, OUT/buckets/<id>/ and a\n"
	"copy of every input in OUT/inputs/<target>/; the campaign is never\n"
	"modified. A signal's fault site is disassembled (read or write, and the\n"
	"operand) in buckets/<id>/disasm.txt. Each bucket's line is followed by\n"
	"the command that replays it: repro.plan with 'dmafuzz run' (the text\n"
	"names its family; repro.bin is the fuzz target's own input, which run\n"
	"reads with --family). On a terminal, a progress line on standard error.\n"
	"\n"
	"The replay's bug switches: --bug, else DMAFUZZ_BUGS, else the campaign's\n"
	"own (the 'bug switches' line of DIR/summary.md written by make fuzz).\n"
	"\n"
	"  -b, --bug NAME      turn a bug switch on (repeatable; a comma list; all)\n"
	"  -o, --output OUT    the triage directory (default DIR/triage)\n"
	"  -e, --exec PROG     run PROG FILE on each input instead (an external\n"
	"                      fuzz target built with the replay driver; a\n"
	"                      signal's site comes from its crash report line)\n"
	"  -r, --max-runs N    minimizer runs per bucket (default 3000)\n"
	"  -s, --seconds S     minimizer seconds per bucket (default 30)\n"
	"  -t, --timeout MS    --exec: one run's time limit (default 5000)\n"
	"  -h, --help          this help\n"
	"\n"
	"exit: 0 triaged, 2 bad input, 3 internal error\n";

/* The switches of a `make fuzz` campaign: "- bug switches (...): a,b". */
static int campaign_bugs(const char *dir, uint32_t *bugs)
{
	char path[4200], line[512], *v;
	FILE *f;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/summary.md", dir);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "- bug switches", 14) || !(v = strstr(line, ": ")))
			continue;
		v += 2;
		v[strcspn(v, " \n")] = 0;
		if (strcmp(v, "none") && cli_add_bugs("triage", v, bugs) < 0)
			rc = -1;
		break;
	}
	fclose(f);
	return rc;
}

static int parse_triage_opts(int argc, char **argv, struct dfz_triage_config *c,
			     bool *have_bugs)
{
	static const struct option opts[] = {
		{ "bug", required_argument, NULL, 'b' },
		{ "output", required_argument, NULL, 'o' },
		{ "exec", required_argument, NULL, 'e' },
		{ "max-runs", required_argument, NULL, 'r' },
		{ "seconds", required_argument, NULL, 's' },
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t v;
	int o;

	optind = 1;
	while ((o = cli_getopt("triage", argc, argv, "b:o:e:r:s:t:h", opts)) != -1) {
		switch (o) {
		case 'b':
			if (cli_add_bugs("triage", optarg, &c->bugs) < 0)
				return EXIT_BAD_INPUT;
			*have_bugs = true;
			break;
		case 'o':
			c->out = optarg;
			break;
		case 'e':
			c->exec = optarg;
			break;
		case 'r':
		case 's':
		case 't':
			if (!cli_parse_u64(optarg, &v) || v == 0 ||
			    (o == 't' && v > 3600000)) {
				cli_error("triage", "bad number '%s' for -%c", optarg, o);
				return EXIT_BAD_INPUT;
			}
			if (o == 'r')
				c->max_runs = v;
			else if (o == 's')
				c->max_seconds = (double)v;
			else
				c->timeout_ms = (unsigned)v;
			break;
		case 'h':
			fputs(triage_usage, stdout);
			return EXIT_CLEAN;
		default:
			return EXIT_BAD_INPUT;
		}
	}
	if (optind + 1 != argc) {
		cli_error("triage", "expects exactly one DIR (try 'dmafuzz triage --help')");
		return EXIT_BAD_INPUT;
	}
	c->dir = argv[optind];
	return -1;
}

int cli_triage(int argc, char **argv)
{
	struct dfz_triage_config c = { .log = stdout };
	struct dfz_triage_summary s;
	const char *env = getenv("DMAFUZZ_BUGS");
	bool have_bugs = false;
	char err[600] = "";
	int rc = parse_triage_opts(argc, argv, &c, &have_bugs);

	if (rc >= 0)
		return rc;
	if (!have_bugs && env && *env) {
		if (cli_add_bugs("triage", env, &c.bugs) < 0)
			return EXIT_BAD_INPUT;
	} else if (!have_bugs && campaign_bugs(c.dir, &c.bugs) < 0) {
		return EXIT_BAD_INPUT;
	}
	rc = dfz_triage(&c, &s, err, sizeof(err));
	if (rc < 0) {
		cli_error("triage", "%s", err[0] ? err : dfz_strerror(rc));
		return cli_exit_of(rc);
	}
	printf("triage: %u input(s), %u distinct: %u bucket(s), %u malformed, "
	       "%u did not reproduce; %s%s/triage.json\n", s.inputs, s.distinct,
	       s.buckets, s.malformed, s.clean, c.out ? c.out : c.dir,
	       c.out ? "" : "/triage");
	return EXIT_CLEAN;
}
