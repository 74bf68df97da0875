// SPDX-License-Identifier: MIT
/*
 * The own-main runner (pkg-config module dmafuzz-dropin-main): a PMSIS
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
 * module's linker script (dmafuzz-dropin-main.ld) gathers the .data and
 * .bss of the program's own objects between bounds this file reads; the
 * first run keeps a copy of them, and every later run starts by putting
 * it back (statics of the program's own archives are not restored:
 * docs/porting/pmsis.md).
 */
#include "pmsis_int.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NO_ASAN __attribute__((no_sanitize("address")))
#endif
#endif
#if !defined(NO_ASAN) && defined(__SANITIZE_ADDRESS__)
#define NO_ASAN __attribute__((no_sanitize("address")))
#endif
#ifndef NO_ASAN
#define NO_ASAN
#endif

extern char __dfz_user_data_start[] __attribute__((weak));
extern char __dfz_user_data_end[] __attribute__((weak));
extern char __dfz_user_bss_start[] __attribute__((weak));
extern char __dfz_user_bss_end[] __attribute__((weak));

static struct {
	unsigned char *copy;             /* data, then bss, as at the start */
	size_t data, bss;
	int state;                       /* 0 not yet, 1 kept, -1 none */
} statics;

/* Byte by byte, past ASan's redzones between instrumented globals. */
NO_ASAN static void copy_bytes(volatile unsigned char *dst,
			       const volatile unsigned char *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] = src[i];
}

static void statics_start(void)
{
	unsigned char *d = (unsigned char *)__dfz_user_data_start;
	unsigned char *b = (unsigned char *)__dfz_user_bss_start;

	if (statics.state == 0) {
		statics.state = -1;
		if (!d || !b)
			return;
		statics.data = (size_t)(__dfz_user_data_end - __dfz_user_data_start);
		statics.bss = (size_t)(__dfz_user_bss_end - __dfz_user_bss_start);
		statics.copy = malloc(statics.data + statics.bss + 1);
		if (!statics.copy)
			return;
		copy_bytes(statics.copy, d, statics.data);
		copy_bytes(statics.copy + statics.data, b, statics.bss);
		statics.state = 1;
	} else if (statics.state == 1) {
		copy_bytes(d, statics.copy, statics.data);
		copy_bytes(b, statics.copy + statics.data, statics.bss);
	}
}

int dfz_user_main(int argc, char **argv);

static char prog_name[] = "main";
static char *user_argv[] = { prog_name, NULL };

static void run_main(void *arg)
{
	struct dfz__dropin *d = dfz__dropin_get();
	struct dfz__pmsis_exit e;
	int rc;

	(void)arg;
	statics_start();
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
	dfz_dropin_fuzz_init();
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
