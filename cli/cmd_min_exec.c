// SPDX-License-Identifier: MIT
/*
 * `dmafuzz min --exec BINARY FILE`: shrink the schedule FILE of a drop-in
 * test binary (the user's own code, include/dmafuzz/dropin.h) keeping the
 * finding's class and site (dfz_minimize_exec()), write it, and say what
 * it became: the class, the user's line, the bytes before and after and
 * the command that replays it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "dmafuzz/shrink.h"

#define EXIT_NO_REPRO 4

static void report(const char *bin, const char *input, const char *out,
		   const struct dfz_min_exec_result *r, double secs, bool json)
{
	if (json) {
		printf("{\"input\":\"%s\",\"exec\":\"%s\",\"output\":\"%s\","
		       "\"class\":\"%s\",\"site\":\"%s\",\"bytes_in\":%zu,"
		       "\"bytes_out\":%zu,\"runs\":%llu,\"seconds\":%.3f}\n",
		       input, bin, out, r->cls, r->site, r->n_in, r->n,
		       (unsigned long long)r->runs, secs);
		return;
	}
	printf("INPUT:     %s\nEXEC:      %s\nCLASS:     %s\nSITE:      %s\n"
	       "BEFORE:    %zu bytes\nAFTER:     %zu bytes\nRUNS:      %llu\n"
	       "TIME:      %.3f s\nOUTPUT:    %s (replay: %s %s)\n", input, bin,
	       r->cls, r->site, r->n_in, r->n, (unsigned long long)r->runs,
	       secs, out, bin, out);
}

int cli_min_exec(const char *bin, const char *input, const uint8_t *buf,
		 size_t n, uint64_t max_runs, const char *out, bool json)
{
	struct dfz_min_exec_result r;
	struct timespec t0, t1;
	char def[4096];
	int rc;

	if (access(bin, X_OK) != 0) {
		cli_error("min", "cannot run '%s': %m", bin);
		return EXIT_BAD_INPUT;
	}
	if (!out) {
		snprintf(def, sizeof(def), "%.4000s.min", input);
		out = def;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = dfz_minimize_exec(bin, buf, n, max_runs, &r);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (rc == DFZ_ENOENT) {
		cli_error("min", "%s runs clean under %s: nothing to keep", input,
			  bin);
		return EXIT_NO_REPRO;
	}
	if (rc < 0) {
		cli_error("min", "%s cannot replay %s: %s", bin, input,
			  dfz_strerror(rc));
		return cli_exit_of(rc);
	}
	rc = cli_write_file("min", out, r.buf, r.n);
	if (rc == EXIT_CLEAN) {
		report(bin, input, out, &r, (double)(t1.tv_sec - t0.tv_sec) +
		       (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9, json);
	}
	dfz_min_exec_result_fini(&r);
	return rc;
}
