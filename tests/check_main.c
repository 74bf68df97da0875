// SPDX-License-Identifier: MIT
/*
 * The one test main: collects every suite_<module>() of tests/check_*.c
 * (listed in the generated suites.h) and runs them. Honours CK_FORK,
 * CK_RUN_SUITE, CK_RUN_CASE and CK_TAP_LOG_FILE_NAME as Check does.
 */
#include <check.h>
#include <stdlib.h>

#define X(fn) Suite *fn(void);
#include "suites.h"
#undef X

int main(void)
{
	SRunner *sr = srunner_create(NULL);
	int failed;

#define X(fn) srunner_add_suite(sr, fn());
#include "suites.h"
#undef X
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
