// SPDX-License-Identifier: MIT
/*
 * The body of the plan-family fuzz targets (xfer, host, api), and their
 * LLVMFuzzerInitialize(): one executor created at start-up and reset by
 * every run, the bug switches from the DMAFUZZ_BUGS environment variable,
 * every oracle on. A BUG verdict becomes abort(), which every fuzzer
 * records as a crash (with DMAFUZZ_ONLY=CLASS, only a verdict of that
 * class: so that afl-tmin keeps the same bug, or a campaign looks past
 * known ones); signals are left alone so that a real fault reaches
 * the fuzzer and the sanitizers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmafuzz/harness.h"
#include "fuzz.h"

static struct dfz_exec *exec;
static uint32_t bugs;
static unsigned only = DFZ_CLASS_NONE; /* DMAFUZZ_ONLY: the one class that aborts */

static void destroy_exec(void)
{
	dfz_exec_destroy(exec);
	exec = NULL;
}

/* DMAFUZZ_BUGS into @mask, or a one-line error naming the known switches. */
static int read_bugs(uint32_t *mask)
{
	const char *env = getenv("DMAFUZZ_BUGS");

	if (env && !strcmp(env, "all")) {
		*mask = (1u << DFZ_BUG_COUNT) - 1;
		return 0;
	}
	if (dfz_bugs_parse(env, mask) == 0)
		return 0;
	fprintf(stderr, "dmafuzz fuzz target: bad DMAFUZZ_BUGS '%s' (known:", env);
	for (unsigned i = 0; i < DFZ_BUG_COUNT; i++)
		fprintf(stderr, " %s", dfz_bug_name(i));
	fputs(", all)\n", stderr);
	return -1;
}

/* DMAFUZZ_ORACLES ("all" when unset, "none", or a comma list of oracle
 * names) into @mask, or a one-line error naming the known oracles. */
static int read_oracles(uint32_t *mask)
{
	const char *env = getenv("DMAFUZZ_ORACLES");

	if (dfz_oracles_parse(env, mask) == 0)
		return 0;
	fprintf(stderr, "dmafuzz fuzz target: bad DMAFUZZ_ORACLES '%s' "
		"(all, none, or a comma list of:", env);
	for (unsigned i = 0; i < DFZ_ORACLE_COUNT; i++)
		fprintf(stderr, " %s", dfz_oracle_name(i));
	fputs(")\n", stderr);
	return -1;
}

/* DMAFUZZ_ONLY (unset or empty: every class) into @cls, or a one-line
 * error. */
static int read_only(unsigned *cls)
{
	const char *env = getenv("DMAFUZZ_ONLY");

	if (!env || !*env)
		return 0;
	*cls = dfz_class_parse(env);
	if (*cls != DFZ_CLASS_NONE)
		return 0;
	fprintf(stderr, "dmafuzz fuzz target: bad DMAFUZZ_ONLY '%s' "
		"(a bug class such as data.mismatch)\n", env);
	return -1;
}

void fuzz_family_init(void)
{
	uint32_t oracles;

	if (exec)
		return;
	if (read_bugs(&bugs) < 0 || read_oracles(&oracles) < 0 ||
	    read_only(&only) < 0)
		exit(2);
	if (dfz_exec_create(oracles, &exec) < 0) {
		fputs("dmafuzz fuzz target: out of memory\n", stderr);
		exit(3);
	}
	atexit(destroy_exec);
}

/* Linked into the plan targets only (they call fuzz_family_run()). */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_family_init();
	return 0;
}

int fuzz_family_run(unsigned family, const uint8_t *data, size_t size)
{
	struct dfz_plan p;
	struct dfz_verdict v;

	fuzz_family_init();
	dfz_plan_decode_as(family, data, size, &p);
	if (dfz_exec_run(exec, &p, bugs, &v) == DFZ_VERDICT_BUG &&
	    (only == DFZ_CLASS_NONE || v.finding.cls == only)) {
		dfz_verdict_print(&v, NULL, false, stderr);
		fflush(stderr);
		abort();
	}
	return 0;
}
