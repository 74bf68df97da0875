// SPDX-License-Identifier: MIT
/*
 * The report's plots of a campaign shorter than a minute, where afl-fuzz
 * wrote a single plot_data row (tests/data/report/short: one instance,
 * its coverage_data from the campaign scripts, queue and crash names with
 * "time:" and "execs:"). The coverage chart draws coverage_data (five
 * rows, held to the run's end: six points), says so (afl-showmap's edges,
 * not AFL++'s edges_found of the table), and the execs/s chart the rates
 * between the named files at least a second apart (five points); without
 * coverage_data the coverage chart falls back to the one plot_data row.
 * Runs `dmafuzz report` ($DFZ_CLI, set by `make check`).
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cli_run.h"
#include "scratch.h"

#define SHORT "tests/data/report/short"

static int run(const char *fmt, const char *arg)
{
	return sh(fmt, cli_bin(), arg);
}

/* Points of the @k-th polyline of @html (0-based), or -1 when absent. */
static int points_of(const char *html, int k)
{
	const char *p = html;
	int n = 0;

	for (int i = 0; i <= k; i++) {
		p = strstr(p, "<polyline");
		if (!p)
			return -1;
		p++;
	}
	p = strstr(p, "points=\"");
	if (!p)
		return -1;
	for (p += 8; *p && *p != '"'; p++)
		n += *p == ',';
	return n;
}

/* Charts in order: coverage, corpus, execs/s, findings; one line each. */
START_TEST(test_short_campaign_plots)
{
	char *html;

	ck_assert_int_eq(run("%s report -o $T/out %s >/dev/null 2>&1", SHORT), 0);
	html = slurp(at("out/index.html"), NULL);
	ck_assert_int_eq(points_of(html, 0), 6);
	ck_assert_int_eq(points_of(html, 2), 5);
	/* The chart says whose edges it counts (afl-showmap's, 1630),
	 * beside the table's (AFL++'s edges_found, 1702). */
	ck_assert_ptr_nonnull(strstr(html, ">edges (afl-showmap of the queue)<"));
	ck_assert_ptr_nonnull(strstr(html, ">xfer/default (afl-showmap)<"));
	ck_assert_ptr_nonnull(strstr(html, "coverage_data, 1630 at the end"));
	ck_assert_ptr_nonnull(strstr(html, "edges_found (1702)"));
	free(html);
}
END_TEST

/* Sabotage: the same campaign without coverage_data plots the single
 * plot_data row; the rates still come from the names. */
START_TEST(test_short_without_coverage_data)
{
	char *html;

	ck_assert_int_eq(system("cp -r " SHORT " $T/in && "
				"rm $T/in/xfer/default/coverage_data"), 0);
	ck_assert_int_eq(run("%s report -o $T/out %s >/dev/null 2>&1", "$T/in"), 0);
	html = slurp(at("out/index.html"), NULL);
	ck_assert_int_eq(points_of(html, 0), 1);
	ck_assert_int_eq(points_of(html, 2), 5);
	/* Its one source now: AFL++'s edges_found, as the table. */
	ck_assert_ptr_nonnull(strstr(html, ">edges found (AFL++)<"));
	ck_assert_ptr_null(strstr(html, "afl-showmap"));
	free(html);
}
END_TEST

Suite *suite_report_series(void)
{
	Suite *s = suite_create("report_series");
	TCase *tc = tcase_create("short");

	tcase_set_timeout(tc, 60);
	scratch_add(tc);
	tcase_add_test(tc, test_short_campaign_plots);
	tcase_add_test(tc, test_short_without_coverage_data);
	suite_add_tcase(s, tc);
	return s;
}
