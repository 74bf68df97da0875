/* SPDX-License-Identifier: MIT */
/*
 * Private harness helpers shared by the executor, the verdict printer and
 * the CLI-facing loaders.
 */
#ifndef DMAFUZZ_HARNESS_INT_H
#define DMAFUZZ_HARNESS_INT_H

#include "dmafuzz/harness.h"

/**
 * dfz__layout_strides() - byte strides (per logical dim) of a tensor of the
 * plan's shape stored in layout @l, and its allocation size in bytes.
 */
uint32_t dfz__layout_strides(const struct dfz_plan_xfer *x,
			     const struct dfz_plan_layout *l,
			     uint32_t stride[DFZ_MAX_RANK]);

/** dfz__verdict_reason() - mark @v rejected with a formatted reason. */
void dfz__verdict_reason(struct dfz_verdict *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ------------------------------------------------------------ crashes */

struct dfz__crash {
	int signo;
	uintptr_t addr;               /* faulting address (si_addr) */
};

typedef void (*dfz__guarded_fn)(void *ctx);

/**
 * dfz__guard() - run @fn(@ctx) with SIGSEGV, SIGBUS, SIGFPE and SIGILL
 * caught. Not reentrant; the previous handlers are restored.
 * Return: true when @fn returned, false when a signal cut it short (@out
 * says which and where).
 */
bool dfz__guard(dfz__guarded_fn fn, void *ctx, struct dfz__crash *out);

typedef int (*dfz__prog_runner)(struct dfz_adapter *ad,
				const struct dfz_prog *p);

/**
 * dfz__exec_set_runner() - run xfer programs with @fn instead of
 * dfz_prog_run (NULL: dfz_prog_run again): a test's stand-in runtime,
 * e.g. one that crashes, to show what the executor makes of it.
 */
void dfz__exec_set_runner(struct dfz_exec *ex, dfz__prog_runner fn);

/** dfz__signal_name() - "SIGSEGV" and friends. */
const char *dfz__signal_name(int signo);

/* ------------------------------------------------------ host programs */

struct dfz__hexec;

/** dfz__hexec_create() - the host-family executor's buffers, once. */
int dfz__hexec_create(struct dfz__hexec **out);
void dfz__hexec_destroy(struct dfz__hexec *hx);

/**
 * dfz__hexec_run() - run host or api plan @p (normalised) on @rt, judged
 * by @set, with the switches @bugs. @catch: turn a signal raised by the
 * runtime into a `crash` finding. @obs: the observer the runtime must
 * publish to (the executor's). @v: out.
 * Return: the verdict kind.
 */
int dfz__hexec_run(struct dfz__hexec *hx, struct dfz_rt *rt,
		   struct dfz_oracles *set, struct dfz_observer obs,
		   const struct dfz_plan *p, uint32_t bugs, bool catch,
		   struct dfz_verdict *v);

#endif /* DMAFUZZ_HARNESS_INT_H */
