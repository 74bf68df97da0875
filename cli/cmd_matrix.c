// SPDX-License-Identifier: MIT
/*
 * `dmafuzz matrix`: the safety matrix. For every (engine, decomposition
 * policy, waiting strategy, buffering) of a one-hop plan it runs a bounded
 * number of random plans from a fixed seed, pinned to that combination,
 * buckets them by transfer rank (1..5, the last bucket 5 and above), and
 * runs each twice: with the adapter's reuse guard (the shipped runtime) and
 * without it (the shared-handle switch: what unguarded generated code
 * does). A cell is `safe (N plans)` or the first bug class found, with
 * the smallest counterexample saved as a text plan.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "common_int.h"

#define MX_RANKS 5
#define MX_BYTES 192

struct mx_cell {
	unsigned plans, bugs;
	uint8_t cls;                 /* first class found */
	size_t best_len;             /* encoded size of the smallest bug */
	struct dfz_plan best;
};

struct mx_opts {
	uint64_t plans, seed;
	bool json;
	const char *out;
};

/* One row: a combination; cells per rank and guard (0 on, 1 off). */
struct mx_row {
	uint8_t engine, policy, strategy, buffering, db_order;
	struct mx_cell cell[2][MX_RANKS];
};

static const char *engine_name(unsigned e)
{
	const char *n = dfz_engine_name(e);

	return n ? n : "?";
}

/* The row's buffering, with the double-buffering order (hop0.db_order). */
static const char *buffer_name(const struct mx_row *row)
{
	if (row->buffering != 2)
		return "single";
	return row->db_order == DFZ_DB_EAGER ? "double-eager" :
					       "double-generator";
}

/* A random plan pinned to @row's combination, clamped like any plan. */
static bool pinned_plan(struct dfz_gen *g, const struct mx_row *row,
			struct dfz_plan *p)
{
	uint8_t buf[MX_BYTES];
	struct dfz_plan_hop *h = &p->xfer.hop[0];

	dfz_gen_bytes(g, buf, sizeof(buf));
	dfz_plan_decode_as(DFZ_FAMILY_XFER, buf, sizeof(buf), p);
	p->xfer.nhops = 1;
	memset(&p->xfer.hop[1], 0, sizeof(p->xfer.hop[1]));
	h->engine = row->engine;
	h->buffering = row->buffering;
	h->policy = row->policy;
	h->strategy = row->strategy;
	h->db_order = row->db_order;
	h->pool_k = row->policy == DFZ_POLICY_POOL ? 2 + buf[0] % 3 : 1;
	return dfz_plan_normalise(p) == 0;
}

static void record(struct mx_cell *c, const struct dfz_verdict *v,
		   const struct dfz_plan *p)
{
	uint8_t *enc;
	size_t n;

	c->plans++;
	if (v->kind != DFZ_VERDICT_BUG)
		return;
	if (c->bugs++ == 0)
		c->cls = v->finding.cls;
	if (dfz_plan_encode(p, &enc, &n) < 0)
		return;
	if (c->best_len == 0 || n < c->best_len) {
		c->best_len = n;
		c->best = *p;
	}
	free(enc);
}

static void run_row(struct dfz_exec *ex, const struct mx_opts *o,
		    struct mx_row *row, uint64_t seed)
{
	struct dfz_gen g;
	struct dfz_verdict v;
	struct dfz_plan p;

	/* Up to N plans per rank bucket: draw until every bucket is full or
	 * the attempts run out (some ranks are rare for some layouts). */
	dfz_gen_init(&g, seed);
	for (uint64_t i = 0; i < o->plans * MX_RANKS * 16; i++) {
		unsigned r;

		if (!pinned_plan(&g, row, &p))
			continue;
		r = dfz_plan_xfer_rank(&p);
		if (r == 0)
			continue;
		r = r > MX_RANKS ? MX_RANKS : r;
		if (row->cell[0][r - 1].plans >= o->plans)
			continue;
		dfz_exec_run(ex, &p, 0, &v);
		record(&row->cell[0][r - 1], &v, &p);
		dfz_exec_run(ex, &p, 1u << DFZ_BUG_SHARED_HANDLE, &v);
		record(&row->cell[1][r - 1], &v, &p);
	}
}

static void cell_path(const struct mx_opts *o, const struct mx_row *row,
		      unsigned guard, unsigned r, char *path, size_t n)
{
	snprintf(path, n, "%s/%s-%s-%s-%s-r%u-guard-%s.plan", o->out,
		 engine_name(row->engine), dfz_policy_name(row->policy),
		 dfz_strategy_name(row->strategy), buffer_name(row), r + 1,
		 guard ? "off" : "on");
}

static void save_cell(const struct mx_opts *o, const struct mx_row *row,
		      unsigned guard, unsigned r)
{
	const struct mx_cell *c = &row->cell[guard][r];
	char path[4096];
	FILE *f;

	if (!c->bugs)
		return;
	cell_path(o, row, guard, r, path, sizeof(path));
	f = fopen(path, "w");
	if (!f)
		return;
	fprintf(f, "# dmafuzz matrix counterexample: %s (%u of %u plans), "
		"guard %s\n", dfz_class_name(c->cls), c->bugs, c->plans,
		guard ? "off (--bug shared-handle)" : "on");
	dfz_plan_print(&c->best, f);
	fclose(f);
}

static void print_cell_text(const struct mx_cell *c)
{
	if (!c->plans)
		printf(" %-22s|", "-");
	else if (!c->bugs)
		printf(" safe (%u plans)%*s|", c->plans,
		       c->plans < 10 ? 6 : c->plans < 100 ? 5 : 4, "");
	else
		printf(" %-13s %3u/%-4u|", dfz_class_name(c->cls), c->bugs,
		       c->plans);
}

static void print_row_text(const struct mx_row *row)
{
	for (unsigned guard = 0; guard < 2; guard++) {
		printf("| %-5s | %-12s | %-10s | %-16s | %-3s |",
		       engine_name(row->engine), dfz_policy_name(row->policy),
		       dfz_strategy_name(row->strategy), buffer_name(row),
		       guard ? "off" : "on");
		for (unsigned r = 0; r < MX_RANKS; r++)
			print_cell_text(&row->cell[guard][r]);
		putchar('\n');
	}
}

static void print_row_json(const struct mx_opts *o, const struct mx_row *row,
			   bool *first)
{
	char path[4096];

	for (unsigned guard = 0; guard < 2; guard++)
		for (unsigned r = 0; r < MX_RANKS; r++) {
			const struct mx_cell *c = &row->cell[guard][r];

			cell_path(o, row, guard, r, path, sizeof(path));
			printf("%s{\"engine\":\"%s\",\"policy\":\"%s\","
			       "\"strategy\":\"%s\",\"buffering\":\"%s\","
			       "\"guard\":%s,\"rank\":%u,\"plans\":%u,"
			       "\"bugs\":%u,\"class\":\"%s\",\"counterexample\":"
			       "\"%s\"}", *first ? "" : ",\n",
			       engine_name(row->engine),
			       dfz_policy_name(row->policy),
			       dfz_strategy_name(row->strategy),
			       buffer_name(row),
			       guard ? "false" : "true", r + 1, c->plans,
			       c->bugs, c->bugs ? dfz_class_name(c->cls) : "",
			       c->bugs ? path : "");
			*first = false;
		}
}

static int parse_matrix(int argc, char **argv, struct mx_opts *o)
{
	static const char use[] =
		"usage: dmafuzz matrix [--plans N] [--seed S] [--out DIR] [--json]\n\n"
		"For every engine x policy x strategy x buffering (single, or\n"
		"double in the generator's or the eager order: hop0.db_order),\n"
		"run random one-hop plans pinned to it, up to N per transfer\n"
		"rank (default 20, seed 1), with the reuse guard on and off;\n"
		"print the verdicts and save the smallest counterexample of each\n"
		"unsafe cell in DIR (default out/matrix).\n";
	static const struct option opts[] = {
		{ "plans", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 's' },
		{ "out", required_argument, NULL, 'o' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	while ((c = cli_getopt("matrix", argc, argv, "n:s:o:jh", opts)) != -1) {
		if ((c == 'n' && !cli_parse_u64(optarg, &o->plans)) ||
		    (c == 's' && !cli_parse_u64(optarg, &o->seed))) {
			cli_error("matrix", "bad number '%s'", optarg);
			return EXIT_BAD_INPUT;
		}
		if (c == 'o')
			o->out = optarg;
		if (c == 'j')
			o->json = true;
		if (c == 'h' || c == '?') {
			if (c == 'h')
				fputs(use, stdout);
			return c == 'h' ? EXIT_CLEAN : EXIT_BAD_INPUT;
		}
	}
	if (optind != argc || o->plans == 0) {
		cli_error("matrix", "bad arguments (try 'dmafuzz matrix --help')");
		return EXIT_BAD_INPUT;
	}
	return -1;
}

static void header_text(void)
{
	printf("| engine | policy | strategy | buffering | guard |");
	for (unsigned r = 1; r <= MX_RANKS; r++)
		printf(" rank %u%s |", r, r == MX_RANKS ? "+" : "");
	printf("\n|---|---|---|---|---|");
	for (unsigned r = 0; r < MX_RANKS; r++)
		printf("---|");
	putchar('\n');
}

static unsigned unsafe_with_guard(const struct mx_row *rows, unsigned n)
{
	unsigned bad = 0;

	for (unsigned i = 0; i < n; i++)
		for (unsigned r = 0; r < MX_RANKS; r++)
			bad += rows[i].cell[0][r].bugs != 0;
	return bad;
}

int cli_matrix(int argc, char **argv)
{
	struct mx_opts o = { .plans = 20, .seed = 1, .out = "out/matrix" };
	/* buffering: single, double in each order */
	enum { NBUF = 1 + DFZ_DB_ORDER_COUNT,
	       NROWS = DFZ_ENGINE_COUNT * DFZ_POLICY_COUNT * DFZ_STRAT_COUNT * NBUF };
	struct mx_row *rows;
	struct dfz_exec *ex;
	bool first = true;
	unsigned n = 0, bad;
	int rc = parse_matrix(argc, argv, &o);

	if (rc >= 0)
		return rc;
	rc = dfz__mkdir_p(o.out);
	if (rc < 0) {
		cli_error("matrix", "cannot create '%s': %m", o.out);
		return cli_exit_of(rc);
	}
	rows = calloc(NROWS, sizeof(*rows));
	if (!rows || dfz_exec_create(DFZ_ORACLES_ALL, &ex) < 0) {
		free(rows);
		return EXIT_INTERNAL;
	}
	for (unsigned e = 0; e < DFZ_ENGINE_COUNT; e++)
		for (unsigned p = 0; p < DFZ_POLICY_COUNT; p++)
			for (unsigned s = 0; s < DFZ_STRAT_COUNT; s++)
				for (unsigned b = 0; b < NBUF; b++, n++) {
					rows[n] = (struct mx_row){ .engine = e,
						.policy = p, .strategy = s,
						.buffering = b ? 2 : 1,
						.db_order = b ? b - 1 : 0 };
					run_row(ex, &o, &rows[n], o.seed + n);
					for (unsigned g = 0; g < 2; g++)
						for (unsigned r = 0; r < MX_RANKS; r++)
							save_cell(&o, &rows[n], g, r);
				}
	if (o.json)
		putchar('[');
	else
		header_text();
	for (unsigned i = 0; i < n; i++) {
		if (o.json)
			print_row_json(&o, &rows[i], &first);
		else
			print_row_text(&rows[i]);
	}
	bad = unsafe_with_guard(rows, n);
	if (o.json)
		printf("]\n");
	else
		printf("\nguard on: %u unsafe cells (expected 0)\n", bad);
	dfz_exec_destroy(ex);
	free(rows);
	return bad ? EXIT_BUG : EXIT_CLEAN;
}
