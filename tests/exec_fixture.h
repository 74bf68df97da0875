/* SPDX-License-Identifier: MIT */
/*
 * The fixture of the tests that run plans through the harness
 * (check_exec.c, check_regress.c, check_shrink.c, check_emit.c): one
 * executor with every oracle per test, and a plan file loaded or the
 * test failed with the loader's message.
 */
#ifndef DFZ_TEST_EXEC_FIXTURE_H
#define DFZ_TEST_EXEC_FIXTURE_H

#include <check.h>
#include <stdbool.h>

#include "dmafuzz/harness.h"

static struct dfz_exec *ex;

static inline void exec_setup(void)
{
	ck_assert_int_eq(dfz_exec_create(DFZ_ORACLES_ALL, &ex), 0);
}

/* exec_setup(), and signals caught: null-arg crashes for real. */
static inline void exec_setup_catching(void)
{
	exec_setup();
	dfz_exec_catch_signals(ex, true);
}

static inline void exec_teardown(void)
{
	dfz_exec_destroy(ex);
	ex = NULL;
}

/* Load the plan file @path into @p; a load error fails the test. */
static inline void load(const char *path, struct dfz_plan *p)
{
	char err[300];

	ck_assert_msg(dfz_plan_load(path, p, err, sizeof(err)) == 0, "%s", err);
}

#endif /* DFZ_TEST_EXEC_FIXTURE_H */
