// SPDX-License-Identifier: MIT
/*
 * dmafuzz campaign: a fuzz campaign over the user's own drop-in tests
 * (docs/campaign.md). This command checks the options, each bad one in
 * one line (exit 64), and runs the campaign script, tools/campaign.sh,
 * found beside the binary: PREFIX/share/dmafuzz/ when installed, the
 * source tree's tools/ in a build tree, or $DFZ_CAMPAIGN_SCRIPT.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#ifndef DFZ_DATADIR
#define DFZ_DATADIR "/usr/local/share/dmafuzz"
#endif

#define EX_USAGE 64
#define MAX_ARGS 96

static const char campaign_usage[] =
	"usage: dmafuzz campaign [-o OUT] [-S SECONDS] [-j JOBS] [--srcroot DIR]\n"
	"                        [--engine afl|libfuzzer|both] [--no-valgrind]\n"
	"                        [--no-asan] [-n NAME]... MANIFEST|DIR\n"
	"\n"
	"Fuzz your drop-in tests: build each one through pkg-config (plain,\n"
	"AFL++, libFuzzer, ASan), fuzz them all within one time budget, keep\n"
	"every finding and a corpus per test in OUT, then triage the findings\n"
	"(bucketed by class and site, minimized, replayed under valgrind and\n"
	"ASan) and write the report (OUT/report: summary.md, summary.json,\n"
	"index.html, findings.sarif). MANIFEST lists the tests, one a line:\n"
	"  NAME [pc=MODULE] [quirks=LIST]: FILE.c [FILE.c ...] [-- CFLAGS...]\n"
	"  NAME bin=DIR:   your own builds: DIR/plain, and DIR/afl,\n"
	"                  DIR/libfuzzer, DIR/asan when you have them\n"
	"a DIR means every test_*.c under it, built with the other .c files of\n"
	"its folder. A killed campaign resumes when run again. See\n"
	"docs/campaign.md.\n"
	"\n"
	"  -o, --output OUT    the campaign's folder (default out/campaign)\n"
	"  -S, --seconds S     the fuzzing time, shared by every test (default 600)\n"
	"  -j, --jobs N        fuzzer processes at once (default: the cores)\n"
	"      --srcroot DIR   the report's and SARIF's file names are relative\n"
	"                      to DIR (default: the manifest's folder, or DIR)\n"
	"  -e, --engine E      afl, libfuzzer or both (default: both when\n"
	"                      clang and afl-fuzz are there)\n"
	"      --no-valgrind   no valgrind replay of the buckets\n"
	"      --no-asan       no ASan build and replay\n"
	"  -n, --name NAME     only test NAME (repeatable)\n"
	"  -h, --help          this help\n"
	"\n"
	"exit: 0 no open finding, 1 an open finding, 2 could not run (a tool,\n"
	"a module or a build failed), 64 a bad argument or manifest, 75 OUT is\n"
	"in use by another campaign, 130 interrupted (run it again to resume)\n";

/* A whole number in [lo, hi], or false after a one-line error. */
static bool whole(const char *what, const char *s, uint64_t lo, uint64_t hi)
{
	uint64_t v;

	if (cli_parse_u64(s, &v) && v >= lo && v <= hi)
		return true;
	cli_error("campaign", "%s must be a whole number from %llu to %llu, "
		  "not '%s'", what, (unsigned long long)lo,
		  (unsigned long long)hi, s);
	return false;
}

/* Whether @s is a test name: [A-Za-z0-9_-]+. */
static bool is_name(const char *s)
{
	return *s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstu"
			       "vwxyz0123456789_-") == strlen(s);
}

/* The folder of this binary into @dir (@len bytes); false when unknown. */
static bool self_dir(char *dir, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", dir, len - 1);
	char *slash;

	if (n <= 0)
		return false;
	dir[n] = '\0';
	slash = strrchr(dir, '/');
	if (!slash)
		return false;
	*slash = '\0';
	return true;
}

/* The campaign script into @path: $DFZ_CAMPAIGN_SCRIPT, else beside the
 * binary (installed, then a build tree), else DFZ_DATADIR's. */
static bool find_script(char *path, size_t len)
{
	static const char *const rel[] = {
		"../share/dmafuzz/campaign.sh", "../tools/campaign.sh",
		"../../tools/campaign.sh",
	};
	const char *env = getenv("DFZ_CAMPAIGN_SCRIPT");
	char dir[PATH_MAX];
	struct stat st;

	if (env && *env) {
		snprintf(path, len, "%s", env);
		return stat(path, &st) == 0;
	}
	if (self_dir(dir, sizeof(dir)))
		for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
			if ((size_t)snprintf(path, len, "%s/%s", dir, rel[i]) < len &&
			    stat(path, &st) == 0)
				return true;
		}
	snprintf(path, len, "%s/campaign.sh", DFZ_DATADIR);
	return stat(path, &st) == 0;
}

struct campaign_args {
	const char *argv[MAX_ARGS];
	int argc;
};

static bool push(struct campaign_args *a, const char *s1, const char *s2)
{
	if (a->argc + 3 > MAX_ARGS) {
		cli_error("campaign", "too many options");
		return false;
	}
	a->argv[a->argc++] = s1;
	if (s2)
		a->argv[a->argc++] = s2;
	return true;
}

/* Check option @o (its value @v) and add it to the script's arguments. */
static int campaign_opt(struct campaign_args *a, int o, const char *v)
{
	struct stat st;

	switch (o) {
	case 'o':
		if (!*v)
			break;
		return push(a, "-o", v) ? 0 : EX_USAGE;
	case 'S':
		return whole("SECONDS", v, 1, 604800) && push(a, "-S", v) ? 0 : EX_USAGE;
	case 'j':
		return whole("JOBS", v, 1, 256) && push(a, "-j", v) ? 0 : EX_USAGE;
	case 'r':
		if (stat(v, &st) != 0 || !S_ISDIR(st.st_mode)) {
			cli_error("campaign", "--srcroot %s: no such directory", v);
			return EX_USAGE;
		}
		return push(a, "-r", v) ? 0 : EX_USAGE;
	case 'e':
		if (strcmp(v, "afl") && strcmp(v, "libfuzzer") && strcmp(v, "both")) {
			cli_error("campaign", "the engine must be afl, libfuzzer or both, not '%s'", v);
			return EX_USAGE;
		}
		return push(a, "-e", v) ? 0 : EX_USAGE;
	case 'V':
		return push(a, "-V", NULL) ? 0 : EX_USAGE;
	case 'A':
		return push(a, "-A", NULL) ? 0 : EX_USAGE;
	case 'n':
		if (!is_name(v)) {
			cli_error("campaign", "a test name is letters, digits, '_' or '-', not '%s'", v);
			return EX_USAGE;
		}
		return push(a, "-n", v) ? 0 : EX_USAGE;
	}
	cli_error("campaign", "an empty output folder");
	return EX_USAGE;
}

/* Run the script with @a's arguments and @input; returns only on error. */
static int run_script(struct campaign_args *a, const char *input)
{
	static char script[PATH_MAX], self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (!find_script(script, sizeof(script))) {
		cli_error("campaign", "the campaign script is missing (%s; make install, "
			  "or DFZ_CAMPAIGN_SCRIPT)", script);
		return EXIT_BAD_INPUT;
	}
	self[n > 0 ? n : 0] = '\0';
	a->argv[0] = "sh";
	a->argv[1] = script;
	a->argv[2] = "-c";
	a->argv[3] = n > 0 ? self : "dmafuzz";
	a->argv[a->argc++] = input;
	a->argv[a->argc] = NULL;
	fflush(NULL);
	execvp("sh", (char *const *)a->argv);
	cli_error("campaign", "cannot run sh %s: %s", script, strerror(errno));
	return EXIT_BAD_INPUT;
}

int cli_campaign(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "seconds", required_argument, NULL, 'S' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "srcroot", required_argument, NULL, 'r' },
		{ "engine", required_argument, NULL, 'e' },
		{ "no-valgrind", no_argument, NULL, 'V' },
		{ "no-asan", no_argument, NULL, 'A' },
		{ "name", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct campaign_args a = { .argc = 4 };
	struct stat st;
	int o, rc;

	optind = 1;
	while ((o = cli_getopt("campaign", argc, argv, "o:S:j:e:n:h", longopts)) != -1) {
		if (o == 'h') {
			fputs(campaign_usage, stdout);
			return EXIT_CLEAN;
		}
		if (o == '?')
			return EX_USAGE;
		if ((rc = campaign_opt(&a, o, optarg)) != 0)
			return rc;
	}
	if (optind + 1 != argc) {
		cli_error("campaign", "%s (try 'dmafuzz campaign --help')",
			  optind == argc ? "no MANIFEST or DIR given" :
					   "one MANIFEST or DIR expected");
		return EX_USAGE;
	}
	if (stat(argv[optind], &st) != 0) {
		cli_error("campaign", "%s: %s", argv[optind], strerror(errno));
		return EX_USAGE;
	}
	return run_script(&a, argv[optind]);
}
