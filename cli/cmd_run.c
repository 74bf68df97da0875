// SPDX-License-Identifier: MIT
/*
 * `dmafuzz run`: replay plan files, directories of them, or a plan stream
 * (from `dmafuzz gen`) through the executor and report each verdict.
 * Exit 0 when everything ran clean, 1 when a bug was found, 2 on bad input.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "common_int.h"

#define FILE_MAX (1u << 20)

struct run_ctx {
	struct dfz_exec *ex;
	uint32_t bugs;
	uint32_t oracles;  /* DFZ_ORACLE_* bits attached to every run */
	bool json;
	bool quiet;        /* print only bugs and the summary */
	int family;        /* binary files: a bare stream of this family
			    * (dfz_plan_decode_as()); -1: a full stream */
	int caps;          /* --caps: enum dfz_caps for text plans; -1: as
			    * written (DFZ_CAPS_NONE) */
	uint64_t inputs, bugs_found, rejected, bad;
	uint64_t by_class[DFZ_CLASS_COUNT];
};

static const char run_usage[] =
	"usage: dmafuzz run [--bug NAME]... [--oracles LIST] [--family F] [--json]\n"
	"                   [--caps fuzz|none] [--quiet] FILE|DIR|-...\n"
	"\n"
	"Replay plans (text .plan files, binary choice streams, directories of\n"
	"them, or a plan stream from 'dmafuzz gen' on '-') and print verdicts.\n"
	"\n"
	"  -b, --bug NAME    turn a bug switch on (repeatable; a comma list; all)\n"
	"  -o, --oracles L   the oracles that judge: all (default), none (so an\n"
	"                    outside tool such as valgrind judges alone), or a\n"
	"                    comma list of: ref redzone handle tid queue cmd desc\n"
	"                    hang hazard dev output errcode inflight\n"
	"  -f, --family F    read binary files as bare streams of family F\n"
	"                    (xfer, host, api: the input of fuzz target F, as\n"
	"                    'encode --bare' writes it); text files unaffected\n"
	"  -c, --caps C      text plans run as written (none, the default: up\n"
	"                    to the hard limits) or under the fuzz caps (fuzz);\n"
	"                    a field a limit changed is printed (CLAMPED:);\n"
	"                    binary streams always decode under the fuzz caps\n"
	"  -j, --json        one JSON object per verdict\n"
	"  -q, --quiet       print only bugs, rejections and the summary\n"
	"  -h, --help        this help\n"
	"\n"
	"exit: 0 clean, 1 bug found, 2 bad input, 3 internal error\n";

static void account(struct run_ctx *c, const struct dfz_verdict *v,
		    const char *name, bool named)
{
	c->inputs++;
	if (v->kind == DFZ_VERDICT_BUG) {
		c->bugs_found++;
		if (v->finding.cls < DFZ_CLASS_COUNT)
			c->by_class[v->finding.cls]++;
	} else if (v->kind == DFZ_VERDICT_REJECTED) {
		c->rejected++;
	}
	if (v->kind != DFZ_VERDICT_CLEAN || (named && !c->quiet))
		dfz_verdict_print(v, name, c->json, stdout);
}

/* A loaded plan under the caps asked for, and the fields they clamp. */
static void run_plan(struct run_ctx *c, const struct dfz_plan *p,
		     const char *name)
{
	struct dfz_plan q = *p;
	struct dfz_verdict v;
	char clamped[DFZ_MSG_MAX];

	if (c->caps >= 0 && q.caps != DFZ_CAPS_FUZZ)
		q.caps = (uint8_t)c->caps;  /* binary: decoded clamped */
	if (dfz_plan_clamped(&q, clamped, sizeof(clamped)) < 0)
		clamped[0] = 0;
	dfz_exec_run(c->ex, &q, c->bugs, &v);
	snprintf(v.clamped, sizeof(v.clamped), "%s", clamped);
	account(c, &v, name, true);
}

/* A plan stream: records of a u32 little-endian length and the bytes. */
static int run_stream(struct run_ctx *c, FILE *f, const char *name)
{
	static uint8_t rec[CLI_RECORD_MAX];
	char label[512];
	uint8_t len4[4];
	size_t k;

	/* A stream ends between records; a cut inside a length is bad. */
	for (uint64_t i = 0; (k = fread(len4, 1, 4, f)) > 0; i++) {
		uint32_t len = len4[0] | len4[1] << 8 | len4[2] << 16 |
			       (uint32_t)len4[3] << 24;
		struct dfz_verdict v;

		if (k < 4 || len > CLI_RECORD_MAX ||
		    fread(rec, 1, len, f) != len) {
			cli_error("run", "%s: plan stream record %llu is truncated",
				  name, (unsigned long long)i);
			c->bad++;
			return -1;
		}
		dfz_exec_bytes(c->ex, rec, len, c->bugs, &v);
		snprintf(label, sizeof(label), "%s#%llu", name,
			 (unsigned long long)i);
		account(c, &v, label, false);
	}
	return 0;
}

static int read_rest(FILE *f, uint8_t *buf, size_t have, size_t *n)
{
	size_t got = fread(buf + have, 1, FILE_MAX - have, f);

	*n = have + got;
	if (ferror(f) || (*n == FILE_MAX && fgetc(f) != EOF))
		return -1;
	buf[*n] = 0;
	return 0;
}

/* A file's bytes as a plan: text, a full stream, or with --family a bare
 * stream of that family. */
static int plan_of(const struct run_ctx *c, const uint8_t *buf, size_t n,
		   struct dfz_plan *p, char *err, size_t errlen)
{
	if (c->family >= 0 && !dfz_plan_bytes_are_text(buf, n)) {
		dfz_plan_decode_as((unsigned)c->family, buf, n, p);
		return 0;
	}
	return dfz_plan_from_bytes(buf, n, p, err, errlen);
}

static void run_file(struct run_ctx *c, const char *path)
{
	bool is_stdin = !strcmp(path, "-");
	FILE *f = is_stdin ? stdin : fopen(path, "rb");
	uint8_t *buf = NULL;
	struct dfz_plan p;
	char err[256];
	size_t n;

	if (!f) {
		cli_error("run", "cannot open '%s': %m", path);
		c->bad++;
		return;
	}
	buf = malloc(FILE_MAX + 1);
	if (!buf) {
		cli_error("run", "out of memory");
		c->bad++;
		goto out_close;
	}
	n = fread(buf, 1, CLI_STREAM_MAGIC_LEN, f);
	if (n == CLI_STREAM_MAGIC_LEN &&
	    !memcmp(buf, CLI_STREAM_MAGIC, CLI_STREAM_MAGIC_LEN)) {
		run_stream(c, f, path);
	} else if (read_rest(f, buf, n, &n) < 0) {
		cli_error("run", "cannot read '%s': unreadable or over 1 MiB", path);
		c->bad++;
	} else if (plan_of(c, buf, n, &p, err, sizeof(err)) < 0) {
		cli_error("run", "%s: %s", path, err);
		c->bad++;
	} else {
		run_plan(c, &p, path);
	}
	free(buf);
out_close:
	if (!is_stdin)
		fclose(f);
}

/* The run of one directory's files. */
struct dir_run {
	struct run_ctx *c;
	int files;
};

/* A regular file of the directory (dotfiles skipped): run it. */
static int run_entry(const char *path, const char *name, void *arg)
{
	struct dir_run *d = arg;
	struct stat st;

	if (name[0] != '.' && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
		run_file(d->c, path);
		d->files++;
	}
	return 0;
}

/* A directory: its regular files in name order, dotfiles skipped. */
static void run_dir(struct run_ctx *c, const char *dir)
{
	struct dir_run d = { c, 0 };
	bool opened;
	int files;

	dfz__dir_each_sorted(dir, run_entry, &d, &opened);
	if (!opened) {
		cli_error("run", "cannot read directory '%s': %m", dir);
		c->bad++;
		return;
	}
	files = d.files;
	if (files == 0) {             /* a run of nothing is not clean */
		cli_error("run", "no plan files in directory '%s'", dir);
		c->bad++;
	}
}

static void run_path(struct run_ctx *c, const char *path)
{
	struct stat st;

	if (strcmp(path, "-") && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		run_dir(c, path);
	else
		run_file(c, path);
}

static void summary(const struct run_ctx *c)
{
	if (c->json) {
		printf("{\"summary\":{\"inputs\":%llu,\"bugs\":%llu,"
		       "\"rejected\":%llu,\"bad\":%llu}}\n",
		       (unsigned long long)c->inputs,
		       (unsigned long long)c->bugs_found,
		       (unsigned long long)c->rejected,
		       (unsigned long long)c->bad);
		return;
	}
	printf("SUMMARY:  %llu inputs, %llu bugs, %llu rejected, %llu bad\n",
	       (unsigned long long)c->inputs, (unsigned long long)c->bugs_found,
	       (unsigned long long)c->rejected, (unsigned long long)c->bad);
	for (unsigned k = 1; k < DFZ_CLASS_COUNT; k++)
		if (c->by_class[k])
			printf("CLASS:    %s %llu\n", dfz_class_name(k),
			       (unsigned long long)c->by_class[k]);
}

/* --oracles: "all", "none", or a comma list of oracle names. */
static int parse_oracles(const char *list, uint32_t *mask)
{
	char known[160] = "";

	if (dfz_oracles_parse(list, mask) == 0)
		return 0;
	for (unsigned i = 0; i < DFZ_ORACLE_COUNT; i++) {
		strncat(known, " ", sizeof(known) - strlen(known) - 1);
		strncat(known, dfz_oracle_name(i),
			sizeof(known) - strlen(known) - 1);
	}
	cli_error("run", "bad --oracles '%s' (all, none, or a comma list "
		  "of:%s)", list, known);
	return -1;
}

static int parse_run_opts(int argc, char **argv, struct run_ctx *c)
{
	static const struct option opts[] = {
		{ "bug", required_argument, NULL, 'b' },
		{ "oracles", required_argument, NULL, 'o' },
		{ "family", required_argument, NULL, 'f' },
		{ "caps", required_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int o;

	optind = 1;
	while ((o = cli_getopt("run", argc, argv, "b:o:f:c:jqh", opts)) != -1) {
		switch (o) {
		case 'b':
			if (cli_add_bugs("run", optarg, &c->bugs) < 0)
				return EXIT_BAD_INPUT;
			break;
		case 'o':
			if (parse_oracles(optarg, &c->oracles) < 0)
				return EXIT_BAD_INPUT;
			break;
		case 'f':
			c->family = cli_parse_family("run", optarg);
			if (c->family < 0)
				return EXIT_BAD_INPUT;
			break;
		case 'c':
			c->caps = !strcmp(optarg, "fuzz") ? DFZ_CAPS_FUZZ :
				  !strcmp(optarg, "none") ? DFZ_CAPS_NONE : -2;
			if (c->caps == -2) {
				cli_error("run", "bad --caps '%s' (fuzz or none)",
					  optarg);
				return EXIT_BAD_INPUT;
			}
			break;
		case 'j':
			c->json = true;
			break;
		case 'q':
			c->quiet = true;
			break;
		case 'h':
			fputs(run_usage, stdout);
			return EXIT_CLEAN + 100;
		default:
			return EXIT_BAD_INPUT;
		}
	}
	if (optind >= argc) {
		cli_error("run", "no input given (try 'dmafuzz run --help')");
		return EXIT_BAD_INPUT;
	}
	return -1;
}

int cli_run(int argc, char **argv)
{
	struct run_ctx c = { .family = -1, .caps = -1,
			     .oracles = DFZ_ORACLES_ALL };
	int rc = parse_run_opts(argc, argv, &c);

	if (rc == EXIT_CLEAN + 100)
		return EXIT_CLEAN;
	if (rc >= 0)
		return rc;
	if (dfz_exec_create(c.oracles, &c.ex) < 0) {
		cli_error("run", "out of memory");
		return EXIT_INTERNAL;
	}
	dfz_exec_catch_signals(c.ex, true);
	for (int i = optind; i < argc; i++)
		run_path(&c, argv[i]);
	if (c.inputs + c.bad > 1 || c.quiet)
		summary(&c);
	dfz_exec_destroy(c.ex);
	if (c.bad || c.rejected)
		return EXIT_BAD_INPUT;
	return c.bugs_found ? EXIT_BUG : EXIT_CLEAN;
}
