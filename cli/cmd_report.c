// SPDX-License-Identifier: MIT
/*
 * `dmafuzz report DIR`: the report of a fuzz campaign (dfz_report_write()):
 * summary.md, summary.json, findings.sarif and index.html, from the AFL++
 * instances under DIR and the triage output. Exit 0 written, 2 bad input
 * (flags, no campaign dir, a named triage file missing), 3 internal error,
 * 4 triage.json is corrupt, 5 the outputs could not be written.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>

#include "cli.h"
#include "dmafuzz/report.h"

#ifndef DFZ_VERSION
#define DFZ_VERSION "0.1.0"
#endif

#define EXIT_BAD_TRIAGE 4      /* triage.json is not the contract */
#define EXIT_NO_OUTPUT 5       /* an output could not be written */

static const char report_usage[] =
	"usage: dmafuzz report [-o OUT] [--triage FILE] [--generated TEXT]\n"
	"                      [--srcroot SRC] DIR\n"
	"       dmafuzz report --progress DIR\n"
	"\n"
	"Write the report of the fuzz campaign in DIR: summary.md, summary.json,\n"
	"findings.sarif (SARIF 2.1.0, one result per triage bucket) and\n"
	"index.html (coverage, corpus, execs/s and findings over time; one\n"
	"section per bucket). Reads every AFL++ instance under DIR (fuzzer_stats,\n"
	"plot_data, the crash, hang and queue file names) and the triage output\n"
	"of 'dmafuzz triage DIR' (DIR/triage/triage.json); without one the\n"
	"report says so. A campaign run by make fuzz or make nightly has a record,\n"
	"DIR/campaign.txt: the report then starts with the run (its switches,\n"
	"result, the per-target table, the findings of each target by class from\n"
	"its class list, the seeds that are findings). An execs/s is execs over\n"
	"seconds, n/a under a second. All four files are written to temporary\n"
	"files first and renamed into place together. The same inputs give the\n"
	"same bytes.\n"
	"On a terminal, a progress line on standard error.\n"
	"A campaign over drop-in tests ('dmafuzz campaign': AFL++ instances\n"
	"under DIR/afl/<test>/, triaged by 'dmafuzz triage --dropin', see\n"
	"docs/campaign-triage.md) adds a table of its buckets (test, class,\n"
	"site and prior file:line, minimized size, valgrind and ASan verdicts,\n"
	"open or fixed); index.html shows the source lines around each site,\n"
	"read from SRC; findings.sarif has one result per open bucket, at its\n"
	"site relative to SRC (uriBaseId SRCROOT). A source file that cannot\n"
	"be read is said so in the page.\n"
	"\n"
	"  -o, --output OUT    write into OUT (default: DIR)\n"
	"  -S, --srcroot SRC   the drop-in tests' sources (default: the\n"
	"                      triage's --srcroot, else the current dir)\n"
	"  -t, --triage FILE   the triage.json to read (default DIR/triage/triage.json)\n"
	"  -g, --generated T   a stamp to print as 'generated' (default: none)\n"
	"  -p, --progress      write nothing: print where the campaign stands,\n"
	"                      a line per target (corpus, crashes, hangs, execs\n"
	"                      and execs/s), for the progress of a running one\n"
	"  -q, --quiet         no summary line on stderr (progress on a terminal\n"
	"                      still shows, and is blanked at the end)\n"
	"  -h, --help          this help\n"
	"\n"
	"exit: 0 written, 2 bad input (no such DIR, a missing --triage file),\n"
	"3 internal error, 4 triage.json is corrupt, 5 outputs not written\n";

static int exit_of(enum dfz_report_stage stage, int rc)
{
	if (rc == DFZ_ENOMEM || (rc == DFZ_EIO && stage != DFZ_REPORT_OUTPUT))
		return EXIT_INTERNAL;
	switch (stage) {
	case DFZ_REPORT_CAMPAIGN:
		return EXIT_BAD_INPUT;
	case DFZ_REPORT_TRIAGE:
		return rc == DFZ_EINVAL ? EXIT_BAD_TRIAGE : EXIT_BAD_INPUT;
	case DFZ_REPORT_OUTPUT:
		return EXIT_NO_OUTPUT;
	default:
		return EXIT_INTERNAL;
	}
}

int cli_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "triage", required_argument, NULL, 't' },
		{ "generated", required_argument, NULL, 'g' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "progress", no_argument, NULL, 'p' },
		{ "srcroot", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct dfz_report_config cfg = { .version = DFZ_VERSION };
	enum dfz_report_stage stage;
	bool quiet = false, progress = false;
	char err[1024];
	int o, rc;

	optind = 1;
	while ((o = cli_getopt("report", argc, argv, "o:t:g:qpS:h", opts)) != -1) {
		switch (o) {
		case 'S':
			cfg.srcroot = optarg;
			break;
		case 'o':
			cfg.out = optarg;
			break;
		case 't':
			cfg.triage = optarg;
			break;
		case 'g':
			cfg.generated = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		case 'p':
			progress = true;
			break;
		case 'h':
			fputs(report_usage, stdout);
			return EXIT_CLEAN;
		default:
			return EXIT_BAD_INPUT;
		}
	}
	if (optind + 1 != argc) {
		cli_error("report", "expects exactly one DIR (try 'dmafuzz report --help')");
		return EXIT_BAD_INPUT;
	}
	cfg.dir = argv[optind];
	if (progress) {
		rc = dfz_report_progress(cfg.dir, stdout, err, sizeof(err));
		if (rc == 0)
			return EXIT_CLEAN;
		cli_error("report", "%s", err);
		return exit_of(DFZ_REPORT_CAMPAIGN, rc);
	}
	rc = dfz_report_write(&cfg, &stage, err, sizeof(err));
	if (rc < 0) {
		cli_error("report", "%s", err);
		return exit_of(stage, rc);
	}
	if (!quiet)
		fprintf(stderr, "report: %s/{summary.md,summary.json,"
			"findings.sarif,index.html}\n", cfg.out ? cfg.out : cfg.dir);
	return EXIT_CLEAN;
}
