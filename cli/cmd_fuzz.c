// SPDX-License-Identifier: MIT
/*
 * `dmafuzz fuzz`: an in-process random campaign without coverage feedback,
 * for machines without AFL++ (`make fuzz` runs AFL++ on fuzz/). Inputs
 * are fresh random choice streams and mutations of the seed corpus
 * (encoded from its text plans), from an explicit seed. Live progress
 * goes to stderr; findings (first input per class) go to OUT/crashes/
 * under names made from their class and their bytes, each written to a
 * temporary file and renamed, so no run overwrites another run's
 * reproducer; a Markdown summary goes to OUT/summary.md.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "common_int.h"

#define SEEDS_MAX 256
#define INPUT_MAX 512

struct campaign {
	uint64_t seconds, seed;
	uint32_t bugs;
	const char *out, *corpus;
	struct dfz_gen rng;
	uint8_t *seeds[SEEDS_MAX];
	size_t seed_len[SEEDS_MAX];
	unsigned nseeds;
	uint64_t execs, found[DFZ_CLASS_COUNT];
	char name[DFZ_CLASS_COUNT][64];  /* each class's reproducer, by stem */
	double t0;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint32_t rnd(struct campaign *c, uint32_t n)
{
	uint32_t v;

	dfz_gen_bytes(&c->rng, (uint8_t *)&v, sizeof(v));
	return n ? v % n : 0;
}

/* A file of the corpus dir (dotfiles skipped): a seed when it loads. */
static int load_seed(const char *path, const char *name, void *arg)
{
	struct campaign *c = arg;
	char err[300];
	struct dfz_plan p;

	if (name[0] != '.' && c->nseeds < SEEDS_MAX &&
	    dfz_plan_load(path, &p, err, sizeof(err)) == 0 &&
	    dfz_plan_encode(&p, &c->seeds[c->nseeds],
			    &c->seed_len[c->nseeds]) == 0)
		c->nseeds++;
	return 0;
}

static void load_seeds(struct campaign *c)
{
	dfz__dir_each_sorted(c->corpus, load_seed, c, NULL);
}

/* A fresh random stream, or a seed with a few bytes changed. */
static size_t next_input(struct campaign *c, uint8_t *buf)
{
	size_t n;

	if (c->nseeds == 0 || rnd(c, 2) == 0) {
		n = 8 + rnd(c, INPUT_MAX - 8);
		dfz_gen_bytes(&c->rng, buf, n);
		return n;
	}
	unsigned s = rnd(c, c->nseeds);

	n = c->seed_len[s] < INPUT_MAX ? c->seed_len[s] : INPUT_MAX;
	memcpy(buf, c->seeds[s], n);
	for (unsigned m = 1 + rnd(c, 4); m && n; m--)
		buf[rnd(c, (uint32_t)n)] = (uint8_t)rnd(c, 256);
	return n;
}

/* The text plan @p after @head, to @path atomically (dfz__text_commit()). */
static int save_plan(const char *path, const char *head,
		     const struct dfz_plan *p)
{
	struct dfz__text t;
	int rc = dfz__text_open(&t);

	if (rc < 0)
		return rc;
	fputs(head, t.f);
	dfz_plan_print(p, t.f);
	return dfz__text_commit(&t, path);
}

static void save_finding(struct campaign *c, const struct dfz_verdict *v,
			 const uint8_t *buf, size_t n)
{
	const char *cls = dfz_class_name(v->finding.cls);
	char path[4096], head[512];
	char *stem = c->name[v->finding.cls];
	struct dfz_plan p;

	/* Named by its bytes' hash: equal bytes share a file, different
	 * ones never replace each other. */
	snprintf(stem, sizeof(c->name[0]), "%s-%016llx", cls,
		 (unsigned long long)dfz__fnv1a(buf, n));
	snprintf(path, sizeof(path), "%s/crashes/%s.bin", c->out, stem);
	if (dfz__write_atomic(path, buf, n) < 0)
		cli_error("fuzz", "cannot write '%s': %s", path, strerror(errno));
	snprintf(path, sizeof(path), "%s/crashes/%s.plan", c->out, stem);
	snprintf(head, sizeof(head), "# found by dmafuzz fuzz --seed %llu: "
		 "%s\n# %s\n", (unsigned long long)c->seed, cls,
		 v->finding.msg);
	dfz_plan_decode(buf, n, &p);
	if (save_plan(path, head, &p) < 0)
		cli_error("fuzz", "cannot write '%s': %s", path, strerror(errno));
}

static uint64_t total_found(const struct campaign *c)
{
	uint64_t t = 0;

	for (unsigned k = 0; k < DFZ_CLASS_COUNT; k++)
		t += c->found[k];
	return t;
}

static void write_summary(const struct campaign *c, FILE *f, double secs)
{
	fprintf(f, "# dmafuzz campaign\n\n| measure | value |\n|---|---|\n");
	fprintf(f, "| seed | %llu |\n| seconds | %.1f |\n| executions | %llu |\n",
		(unsigned long long)c->seed, secs, (unsigned long long)c->execs);
	fprintf(f, "| executions/s | %.0f |\n| seeds | %u (%s) |\n",
		c->execs / (secs > 0 ? secs : 1), c->nseeds, c->corpus);
	fputs("| bug switches |", f);
	for (unsigned b = 0; b < DFZ_BUG_COUNT; b++)
		if (c->bugs & (1u << b))
			fprintf(f, " %s", dfz_bug_name(b));
	fprintf(f, "%s |\n| findings | %llu |\n\n", c->bugs ? "" : " none",
		(unsigned long long)total_found(c));
	if (!total_found(c)) {
		fprintf(f, "No bug found.\n");
		return;
	}
	fprintf(f, "| class | inputs | reproducer |\n|---|---|---|\n");
	for (unsigned k = 1; k < DFZ_CLASS_COUNT; k++)
		if (c->found[k])
			fprintf(f, "| %s | %llu | crashes/%s.plan |\n",
				dfz_class_name(k), (unsigned long long)c->found[k],
				c->name[k]);
}

static int campaign_loop(struct campaign *c, struct dfz_exec *ex)
{
	uint8_t buf[INPUT_MAX];
	double last = c->t0, t;
	struct dfz_verdict v;

	do {
		size_t n = next_input(c, buf);

		dfz_exec_bytes(ex, buf, n, c->bugs, &v);
		c->execs++;
		if (v.kind == DFZ_VERDICT_BUG && v.finding.cls < DFZ_CLASS_COUNT &&
		    c->found[v.finding.cls]++ == 0) {
			save_finding(c, &v, buf, n);
			fprintf(stderr, "fuzz: new finding %s: %s\n",
				dfz_class_name(v.finding.cls), v.finding.msg);
		}
		t = now_s();
		if (t - last >= 1.0) {
			fprintf(stderr, "fuzz: [%4.0fs] %llu execs (%.0f/s), %llu findings\n",
				t - c->t0, (unsigned long long)c->execs,
				c->execs / (t - c->t0),
				(unsigned long long)total_found(c));
			last = t;
		}
	} while (t - c->t0 < (double)c->seconds);
	return 0;
}

static int parse_fuzz(int argc, char **argv, struct campaign *c)
{
	static const char use[] =
		"usage: dmafuzz fuzz [--seconds N] [--seed S] [--bug NAME]...\n"
		"                    [--corpus DIR] [--out DIR]\n\n"
		"Run an in-process random campaign and write OUT/summary.md and\n"
		"OUT/crashes/CLASS-HASH.{bin,plan} (default OUT: out/inproc-fuzz).\n"
		"exit: 0 nothing found, 1 findings, 2 bad input, 3 internal error\n";
	static const struct option opts[] = {
		{ "seconds", required_argument, NULL, 't' },
		{ "seed", required_argument, NULL, 's' },
		{ "bug", required_argument, NULL, 'b' },
		{ "corpus", required_argument, NULL, 'c' },
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int o;

	optind = 1;
	while ((o = cli_getopt("fuzz", argc, argv, "t:s:b:c:o:h", opts)) != -1) {
		if ((o == 't' && !cli_parse_u64(optarg, &c->seconds)) ||
		    (o == 's' && !cli_parse_u64(optarg, &c->seed))) {
			cli_error("fuzz", "bad number '%s'", optarg);
			return EXIT_BAD_INPUT;
		}
		if (o == 'b' && cli_add_bugs("fuzz", optarg, &c->bugs) < 0)
			return EXIT_BAD_INPUT;
		if (o == 'c')
			c->corpus = optarg;
		if (o == 'o')
			c->out = optarg;
		if (o == 'h' || o == '?') {
			if (o == 'h')
				fputs(use, stdout);
			return o == 'h' ? EXIT_CLEAN : EXIT_BAD_INPUT;
		}
	}
	if (optind != argc) {
		cli_error("fuzz", "unexpected argument '%s'", argv[optind]);
		return EXIT_BAD_INPUT;
	}
	return -1;
}

int cli_fuzz(int argc, char **argv)
{
	struct campaign c = { .seconds = 20, .seed = 1, .out = "out/inproc-fuzz",
			      .corpus = "corpus/xfer" };
	char path[4096];
	struct dfz_exec *ex;
	FILE *f;
	int rc = parse_fuzz(argc, argv, &c);

	if (rc >= 0)
		return rc;
	snprintf(path, sizeof(path), "%s/crashes", c.out);
	rc = dfz__mkdir_p(path);
	if (rc < 0) {
		cli_error("fuzz", "cannot create '%s': %m", path);
		return cli_exit_of(rc);
	}
	if (dfz_exec_create(DFZ_ORACLES_ALL, &ex) < 0)
		return EXIT_INTERNAL;
	dfz_exec_catch_signals(ex, true);
	dfz_gen_init(&c.rng, c.seed);
	load_seeds(&c);
	c.t0 = now_s();
	campaign_loop(&c, ex);
	double secs = now_s() - c.t0;

	snprintf(path, sizeof(path), "%s/summary.md", c.out);
	if ((f = fopen(path, "w"))) {
		write_summary(&c, f, secs);
		fclose(f);
	}
	write_summary(&c, stdout, secs);
	dfz_exec_destroy(ex);
	for (unsigned i = 0; i < c.nseeds; i++)
		free(c.seeds[i]);
	return total_found(&c) ? EXIT_BUG : EXIT_CLEAN;
}
