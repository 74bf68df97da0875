// SPDX-License-Identifier: MIT
/*
 * `dmafuzz triage DIR`: bucket the crashes and hangs of a fuzz campaign
 * by signature and site, with one minimized reproducer per bucket
 * (dfz_triage()); with --dropin, the findings of a campaign over the
 * user's drop-in tests (docs/campaign-triage.md). Exit 0 when triaged
 * (findings or not), 2 on bad input (no such DIR, a bad flag, a malformed
 * NAME=BIN, a binary that does not run), 3 on an internal error, 4 when
 * the previous triage.json in OUT is corrupt.
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
	"       dmafuzz triage --dropin NAME=BIN [--dropin NAME=BIN]...\n"
	"                      [--asan NAME=BIN]... [--valgrind] [--srcroot DIR]\n"
	"                      [-o OUT] [-s SECS] [-t MS] [-r N] FINDINGS\n"
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
	"Drop-in tests (docs/campaign-triage.md): FINDINGS is a campaign's\n"
	"findings dir (OUT/findings of 'dmafuzz campaign'); each file of\n"
	"FINDINGS/NAME/ (dot files, README and .min .txt .json .log .sarif .out\n"
	".err .plan .md sidecars skipped) is replayed by 'BIN --json FILE' and\n"
	"bucketed by test, class, site file:line and prior file:line. One input\n"
	"per bucket is shrunk as 'dmafuzz min --exec' does (keeping the prior\n"
	"site too) into OUT/buckets/<id>/repro.bin, sizes before and after in\n"
	"triage.json. An input of a bucket of the previous OUT/triage.json that\n"
	"replays clean now is listed as fixed under it; a bucket all of whose\n"
	"inputs replay clean is a fixed bucket. OUT defaults to triage/ beside\n"
	"FINDINGS (OUT/triage of a campaign dir OUT).\n"
	"  -d, --dropin NAME=BIN  test NAME's binary (repeatable)\n"
	"  -a, --asan NAME=BIN    test NAME's ASan build: each reproducer\n"
	"                      replayed by it, its verdict kept (repeatable)\n"
	"  -V, --valgrind      each reproducer replayed under valgrind memcheck\n"
	"  -S, --srcroot DIR   the sources' root, kept for the report (default .)\n"
	"\n"
	"exit: 0 triaged, 2 bad input (no such DIR, a bad flag, a malformed\n"
	"NAME=BIN, a BIN that cannot run), 3 internal error, 4 the previous\n"
	"OUT/triage.json is corrupt (move it away to start afresh)\n";

#define EXIT_BAD_PREVIOUS 4

/* The --dropin and --asan lists of one triage. */
struct bins {
	struct dfz_triage_bin dropin[DFZ_TRIAGE_TESTS];
	struct dfz_triage_bin asan[DFZ_TRIAGE_TESTS];
	char names[2][DFZ_TRIAGE_TESTS][72];
};

/* "NAME=BIN" of --@opt into @b's list @which (0 dropin, 1 asan). */
static int add_bin(struct bins *b, struct dfz_triage_config *c, int which,
		   char *arg)
{
	const char *opt = which ? "asan" : "dropin";
	unsigned *n = which ? &c->nasan : &c->ndropin;
	struct dfz_triage_bin *list = which ? b->asan : b->dropin;
	char *eq = strchr(arg, '=');
	size_t k = eq ? (size_t)(eq - arg) : 0;

	if (!eq || !k || k > 64 || !eq[1] ||
	    strspn(arg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		   "0123456789_-") != k) {
		cli_error("triage", "malformed --%s '%s' (expected NAME=BIN, "
			  "NAME of [A-Za-z0-9_-])", opt, arg);
		return EXIT_BAD_INPUT;
	}
	if (*n >= DFZ_TRIAGE_TESTS) {
		cli_error("triage", "over %d --%s tests", DFZ_TRIAGE_TESTS, opt);
		return EXIT_BAD_INPUT;
	}
	for (unsigned i = 0; i < *n; i++)
		if (!strncmp(list[i].name, arg, k) && !list[i].name[k]) {
			cli_error("triage", "--%s %.*s given twice", opt,
				  (int)k, arg);
			return EXIT_BAD_INPUT;
		}
	snprintf(b->names[which][*n], sizeof(b->names[0][0]), "%.*s", (int)k,
		 arg);
	list[*n].name = b->names[which][*n];
	list[*n].bin = eq + 1;
	(*n)++;
	return -1;
}

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

/* The drop-in flags go together, and not with --exec. */
static int dropin_flags_ok(const struct dfz_triage_config *c)
{
	if (c->ndropin && c->exec) {
		cli_error("triage", "--dropin and --exec do not go together");
		return EXIT_BAD_INPUT;
	}
	if (!c->ndropin && (c->nasan || c->valgrind || c->srcroot)) {
		cli_error("triage", "--asan, --valgrind and --srcroot need "
			  "--dropin (try 'dmafuzz triage --help')");
		return EXIT_BAD_INPUT;
	}
	return -1;
}

static int parse_triage_opts(int argc, char **argv, struct dfz_triage_config *c,
			     bool *have_bugs, struct bins *bins)
{
	static const struct option opts[] = {
		{ "bug", required_argument, NULL, 'b' },
		{ "output", required_argument, NULL, 'o' },
		{ "exec", required_argument, NULL, 'e' },
		{ "max-runs", required_argument, NULL, 'r' },
		{ "seconds", required_argument, NULL, 's' },
		{ "timeout", required_argument, NULL, 't' },
		{ "dropin", required_argument, NULL, 'd' },
		{ "asan", required_argument, NULL, 'a' },
		{ "valgrind", no_argument, NULL, 'V' },
		{ "srcroot", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t v;
	int o, rc;

	optind = 1;
	while ((o = cli_getopt("triage", argc, argv, "b:o:e:r:s:t:d:a:VS:h",
			       opts)) != -1) {
		switch (o) {
		case 'd':
		case 'a':
			rc = add_bin(bins, c, o == 'a', optarg);
			if (rc >= 0)
				return rc;
			break;
		case 'V':
			c->valgrind = true;
			break;
		case 'S':
			c->srcroot = optarg;
			break;
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
	c->dropin = bins->dropin;
	c->asan = bins->asan;
	return dropin_flags_ok(c);
}

static int triage_dropin(struct dfz_triage_config *c)
{
	struct dfz_triage_summary s;
	char err[600] = "", out[4200];
	size_t n = strlen(c->dir);
	int rc;

	/* Default OUT: triage/ beside FINDINGS. */
	while (n > 1 && c->dir[n - 1] == '/')
		n--;
	while (n > 0 && c->dir[n - 1] != '/')
		n--;
	if (!c->out) {
		snprintf(out, sizeof(out), "%.*striage", (int)n, c->dir);
		c->out = out;
	}
	rc = dfz_triage(c, &s, err, sizeof(err));

	if (rc < 0) {
		cli_error("triage", "%s", err[0] ? err : dfz_strerror(rc));
		return s.bad_previous ? EXIT_BAD_PREVIOUS : cli_exit_of(rc);
	}
	printf("triage: %u input(s): %u bucket(s) (%u fixed), %u malformed, "
	       "%u did not reproduce (%u of them fixed); %s%s/triage.json\n",
	       s.inputs, s.buckets, s.fixed_buckets, s.malformed, s.clean,
	       s.fixed, c->out, "");
	return EXIT_CLEAN;
}

int cli_triage(int argc, char **argv)
{
	struct dfz_triage_config c = { .log = stdout };
	struct dfz_triage_summary s;
	const char *env = getenv("DMAFUZZ_BUGS");
	static struct bins bins;
	bool have_bugs = false;
	char err[600] = "";
	int rc = parse_triage_opts(argc, argv, &c, &have_bugs, &bins);

	if (rc >= 0)
		return rc;
	if (c.ndropin)
		return triage_dropin(&c);
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
