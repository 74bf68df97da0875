// SPDX-License-Identifier: MIT
/*
 * The plan commands: `show` (any plan file in the text form), `encode`
 * (text form to the binary choice stream) and `gen` (a deterministic
 * stream of random plans for `run -`, or text plans with --text).
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Parse only --help for the commands that take no other option. */
static int help_only(int argc, char **argv, const char *cmd, const char *use)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int o;

	optind = 1;
	while ((o = cli_getopt(cmd, argc, argv, "h", opts)) != -1) {
		if (o == 'h') {
			fputs(use, stdout);
			return EXIT_CLEAN;
		}
		return EXIT_BAD_INPUT;
	}
	return -1;
}

static int load(const char *cmd, const char *path, struct dfz_plan *p)
{
	char err[300];
	int rc = dfz_plan_load(path, p, err, sizeof(err));

	if (rc < 0) {
		cli_error(cmd, "%s", err);
		return cli_exit_of(rc);
	}
	if (dfz_plan_normalise(p) < 0) {
		cli_error(cmd, "out of memory");
		return EXIT_INTERNAL;
	}
	return -1;
}

int cli_show(int argc, char **argv)
{
	static const char use[] =
		"usage: dmafuzz show FILE|-\n\n"
		"Print a plan (text or binary choice stream) in the text form,\n"
		"clamped to the caps exactly as a run sees it.\n";
	struct dfz_plan p;
	int rc = help_only(argc, argv, "show", use);

	if (rc >= 0)
		return rc;
	if (optind + 1 != argc) {
		cli_error("show", "expects exactly one FILE (try --help)");
		return EXIT_BAD_INPUT;
	}
	rc = load("show", argv[optind], &p);
	if (rc >= 0)
		return rc;
	dfz_plan_print(&p, stdout);
	return EXIT_CLEAN;
}

static int parse_encode(int argc, char **argv, bool *bare)
{
	static const char use[] =
		"usage: dmafuzz encode [--bare] [FILE|-]\n\n"
		"Write the binary choice stream of a plan to stdout (a fuzz seed).\n\n"
		"  -b, --bare   without the leading family draw: the input of the\n"
		"               fuzz target of the plan's family (xfer, host, api);\n"
		"               'run --family F' reads it back\n";
	static const struct option opts[] = {
		{ "bare", no_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int o;

	optind = 1;
	while ((o = cli_getopt("encode", argc, argv, "bh", opts)) != -1) {
		if (o == 'b') {
			*bare = true;
			continue;
		}
		if (o == 'h')
			fputs(use, stdout);
		return o == 'h' ? EXIT_CLEAN : EXIT_BAD_INPUT;
	}
	if (argc - optind > 1) {
		cli_error("encode", "expects at most one FILE (try --help)");
		return EXIT_BAD_INPUT;
	}
	return -1;
}

int cli_encode(int argc, char **argv)
{
	struct dfz_plan p;
	bool bare = false;
	uint8_t *buf;
	size_t n;
	int rc = parse_encode(argc, argv, &bare);

	if (rc >= 0)
		return rc;
	rc = load("encode", optind < argc ? argv[optind] : "-", &p);
	if (rc >= 0)
		return rc;
	rc = bare ? dfz_plan_encode_as(&p, &buf, &n) :
		    dfz_plan_encode(&p, &buf, &n);
	if (rc < 0) {
		cli_error("encode", "out of memory");
		return EXIT_INTERNAL;
	}
	rc = fwrite(buf, 1, n, stdout) == n ? EXIT_CLEAN : EXIT_INTERNAL;
	free(buf);
	return rc;
}

struct gen_opts {
	uint64_t count, seed, bytes;
	bool text;
	int family;                   /* -1: any (the stream's first draw) */
};

static int parse_gen(int argc, char **argv, struct gen_opts *g)
{
	static const char use[] =
		"usage: dmafuzz gen [--count N] [--seed S] [--bytes N] [--text]\n"
		"                   [--family xfer|host|api]\n\n"
		"Write N random plans to stdout as a plan stream for 'run -'\n"
		"(or as text plans with --text). Same seed, same plans.\n\n"
		"  -n, --count N   plans (default 100)\n"
		"  -s, --seed S    seed (default 1)\n"
		"  -B, --bytes N   choice-stream bytes per plan, 1..4096 (default 192)\n"
		"  -t, --text      text plans separated by blank lines\n"
		"  -f, --family F  only plans of family F (default: any)\n";
	static const struct option opts[] = {
		{ "count", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 's' },
		{ "bytes", required_argument, NULL, 'B' },
		{ "text", no_argument, NULL, 't' },
		{ "family", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int o;

	optind = 1;
	while ((o = cli_getopt("gen", argc, argv, "n:s:B:tf:h", opts)) != -1) {
		uint64_t *dst = o == 'n' ? &g->count : o == 's' ? &g->seed : &g->bytes;

		if (o == 'n' || o == 's' || o == 'B') {
			if (!cli_parse_u64(optarg, dst)) {
				cli_error("gen", "bad number '%s' for -%c", optarg, o);
				return EXIT_BAD_INPUT;
			}
		} else if (o == 't') {
			g->text = true;
		} else if (o == 'f') {
			g->family = cli_parse_family("gen", optarg);
			if (g->family < 0)
				return EXIT_BAD_INPUT;
		} else {
			if (o == 'h')
				fputs(use, stdout);
			return o == 'h' ? EXIT_CLEAN : EXIT_BAD_INPUT;
		}
	}
	if (optind != argc || g->bytes == 0 || g->bytes > CLI_RECORD_MAX) {
		cli_error("gen", "bad arguments (try 'dmafuzz gen --help')");
		return EXIT_BAD_INPUT;
	}
	return -1;
}

/*
 * Random bytes as the stream of one family: decode them as that family's
 * fields, and write back the full stream (family draw included) of the
 * plan they decode to, in place. @n: in, the random bytes; out, the
 * stream's length (never more than CLI_RECORD_MAX).
 */
static bool pin_family(int family, uint8_t *buf, uint32_t *n)
{
	struct dfz_plan p;
	uint8_t *enc;
	size_t m;

	dfz_plan_decode_as((unsigned)family, buf, *n, &p);
	if (dfz_plan_encode(&p, &enc, &m) < 0 || m > CLI_RECORD_MAX) {
		cli_error("gen", "cannot encode a %s plan", dfz_family_name(family));
		return false;
	}
	memcpy(buf, enc, m);
	*n = (uint32_t)m;
	free(enc);
	return true;
}

int cli_gen(int argc, char **argv)
{
	struct gen_opts g = { .count = 100, .seed = 1, .bytes = 192,
			      .family = -1 };
	uint8_t buf[CLI_RECORD_MAX];
	struct dfz_gen rng;
	int rc = parse_gen(argc, argv, &g);

	if (rc >= 0)
		return rc;
	dfz_gen_init(&rng, g.seed);
	if (!g.text)
		fwrite(CLI_STREAM_MAGIC, 1, CLI_STREAM_MAGIC_LEN, stdout);
	for (uint64_t i = 0; i < g.count; i++) {
		uint32_t n = (uint32_t)g.bytes;
		uint8_t len4[4] = { n & 0xff, n >> 8 & 0xff, n >> 16 & 0xff, n >> 24 };
		struct dfz_plan p;

		dfz_gen_bytes(&rng, buf, n);
		if (g.family >= 0 && !pin_family(g.family, buf, &n))
			return EXIT_INTERNAL;
		len4[0] = n & 0xff, len4[1] = n >> 8 & 0xff;
		len4[2] = n >> 16 & 0xff, len4[3] = n >> 24;
		if (g.text) {
			dfz_plan_decode(buf, n, &p);
			if (i)
				fputc('\n', stdout);
			dfz_plan_print(&p, stdout);
			continue;
		}
		fwrite(len4, 1, 4, stdout);
		fwrite(buf, 1, n, stdout);
	}
	return fflush(stdout) == 0 ? EXIT_CLEAN : EXIT_INTERNAL;
}
