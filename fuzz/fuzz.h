/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz fuzz targets: the libFuzzer entry points every target defines,
 * and the shared body of the three plan-family targets (family.c). One
 * target source builds for libFuzzer, for AFL++ (afl_main.c) and for the
 * plain replay driver (replay_main.c). Only these entry points and the CLI
 * exit or abort.
 */
#ifndef DMAFUZZ_FUZZ_H
#define DMAFUZZ_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* Run one input. Return 0; a bug aborts the process. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One-time set-up before the first input (optional: drivers call it when
 * a target has one; family.c gives it to the plan targets). */
int LLVMFuzzerInitialize(int *argc, char ***argv);

/*
 * fuzz_family_init() - create the executor (once) and read the bug
 * switches from DMAFUZZ_BUGS (a comma list, or "all") and the oracles that
 * judge from DMAFUZZ_ORACLES ("all" when unset, "none" so that valgrind
 * judges alone, or a comma list of oracle names). A bad value prints a
 * one-line error and exits 2. DMAFUZZ_ONLY=CLASS (a bug class name)
 * makes a BUG verdict of any other class count as clean.
 */
void fuzz_family_init(void);

/*
 * fuzz_family_run() - decode @data as the choice stream of a plan of
 * @family without the family draw (dfz_plan_decode_as()) and run it with
 * every oracle on. A BUG verdict (of the DMAFUZZ_ONLY class, when set) is
 * printed to stderr, then abort(); anything else returns 0.
 */
int fuzz_family_run(unsigned family, const uint8_t *data, size_t size);

#endif /* DMAFUZZ_FUZZ_H */
