// SPDX-License-Identifier: MIT
/*
 * The own-main runner (pkg-config modules dmafuzz-dropin-main and, for
 * Snitch programs, dmafuzz-dropin-snrt-main): a PMSIS
 * program with its own main() -- every SDK test is one: main ->
 * pmsis_kickoff(entry) -> pmsis_exit(rc) -- runs under the harness
 * without an edit. The module's Cflags rename the program's main to
 * dfz_user_main; this file, in libdmafuzz-main.a, holds the real main
 * (and the fuzz entry points), whose test body runs the program's main
 * once per schedule. pmsis_exit(rc) anywhere leaves it (a longjmp to the
 * runner when no pmsis_kickoff is open); a non-zero status of
 * pmsis_exit is a failed check at its line, a non-zero return of main
 * one at main. The program's output goes where it goes (stdout).
 *
 * Every run starts from the statics the program started with: the
 * drop-in's link layout gathers them in L2 and every run restores them
 * (dropin/memmap.c), for a program with its own main as for a test body.
 */
#include "pmsis_int.h"

/* The program's main, renamed by the module's Cflags: a PMSIS program's
 * (dmafuzz-dropin-main) runs on the fabric controller, a Snitch
 * program's (dmafuzz-dropin-snrt-main) on every core of the cluster, as
 * the Snitch runtime's start code runs it. One of the two is defined. */
int dfz_user_main(int argc, char **argv) __attribute__((weak));
int dfz_user_snrt_main(void) __attribute__((weak));
/* snrt.h's, which this file cannot include beside pmsis.h. */
int dfz_dropin_snrt_main(struct dfz_site s, int (*main_fn)(void));

static char prog_name[] = "main";
static char *user_argv[] = { prog_name, NULL };

static void run_main(void *arg)
{
	struct dfz__dropin *d = dfz__dropin_get();
	struct dfz__pmsis_exit e;
	int rc;

	(void)arg;
	if (dfz_user_snrt_main) {
		dfz_dropin_snrt_main((struct dfz_site){ "main", 0, "main" },
				     dfz_user_snrt_main);
		fflush(stdout);
		return;
	}
	dfz__pmsis_reset();
	dfz__pmsis_exit_push(&e);
	if (setjmp(e.env) == 0) {
		rc = dfz_user_main(1, user_argv);
	} else {
		dfz__pmsis_landed(d, dfz__cores_in_fork(d->cores));
		rc = 0;  /* pmsis_exit's own verdict is recorded */
	}
	dfz__pmsis_exit_pop(&e);
	fflush(stdout);
	if (rc != 0)
		dfz_dropin_check((struct dfz_site){ "main", 0, "main" }, 0,
				 "main returned non-zero");
}

static const struct dfz_dropin_test test = { run_main, NULL, "main" };

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	dfz_dropin_fuzz_init(&test);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	return dfz_dropin_fuzz_one(&test, data, n);
}

int main(int argc, char **argv) __attribute__((weak));
int main(int argc, char **argv)
{
	return dfz_dropin_main(&test, argc, argv);
}
