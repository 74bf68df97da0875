/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz emit (reports/emit/): a plan written out as a standalone C
 * program that reproduces it with plain calls to the public API. Part of
 * the reports layer: it sits on the harness.
 */
#ifndef DMAFUZZ_EMIT_H
#define DMAFUZZ_EMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dmafuzz/harness.h"

/* -------------------------------------------------------------- emit C */

/*
 * struct dfz_emit_config - what an emitted reproducer turns on and asserts.
 */
struct dfz_emit_config {
	uint32_t bugs;                    /* the switches it turns on */
	const char *expect;               /* the classes its run must end in
					   * ("a|b"); NULL, "" or "clean": a
					   * clean run */
	const char *name;                 /* the plan's name (header comment,
					   * INPUT line); NULL: "plan" */
	const char *note;                 /* more header comment lines (what
					   * `dmafuzz run` reported); or NULL */
	bool dropin;                      /* write the plan as SDK code for
					   * the drop-in (PMSIS names), not as
					   * calls of libdmafuzz's API */
};

/**
 * dfz_emit_c() - write a standalone C program that reproduces @p.
 * @p: borrowed; any plan (it is normalised first, as a run does).
 * @cfg: borrowed. @f: where the program goes.
 *
 * The program includes only <dmafuzz/...> public headers and builds with
 * `cc repro.c $(pkg-config --cflags --libs dmafuzz)`. It creates the
 * runtime and the oracle set, allocates and fills the tensors as the
 * harness does, and performs the plan's program with plain calls in the
 * order the harness performs them: for an xfer plan every tile's
 * dfz_xfer_issue() / dfz_handle_wait() on its concrete handle with the
 * concrete shape, strides and offsets, and each dfz_compute_run(); for a
 * host or api plan the driver and host-runtime calls with their concrete
 * arguments. The switches of the tiling executor (early-compute, db-war,
 * edge-tile, req-escape) change that code: the program then holds the
 * faulty code and the fixed code. Run without arguments it turns on
 * @cfg->bugs and exits 0 when the verdict is one of @cfg->expect; with
 * --clean every switch is off and it exits 0 when the run is clean; else
 * 1. It prints the verdict as `dmafuzz run` does, so both runs can be
 * compared line by line.
 *
 * Return: 0; DFZ_EINVAL (a family out of range, an unknown class in
 * @cfg->expect, an unknown switch, with @cfg->dropin a plan
 * dfz_emit_dropin_supports() refuses); DFZ_ENOMEM; DFZ_EIO when writing
 * to @f failed.
 */
/**
 * dfz_emit_dropin_supports() - whether dfz_emit_c() with @cfg->dropin and
 * the switches @bugs writes @p: xfer plans whose hops each have SDK names
 * (RAM between L3 and L2: PMSIS cluster RAM; mchan between L2 and L1:
 * Deeploy's mchan_v7.h; idma between L2 and L1: the Snitch runtime) and
 * whose every call those names can make (a push on an mchan channel that
 * is no longer the core's latest allocation cannot be written). When not,
 * the reason goes to @why (@n bytes; may be NULL). @p: borrowed.
 */
bool dfz_emit_dropin_supports(const struct dfz_plan *p, uint32_t bugs,
			      char *why, size_t n);

int dfz_emit_c(const struct dfz_plan *p, const struct dfz_emit_config *cfg,
	       FILE *f);

#endif /* DMAFUZZ_EMIT_H */
