/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz harness: owns the process side of a run. It builds the runtime's
 * memories from a plan, picks the engine, adapter and bug switches,
 * attaches the oracles, runs the plan's program and returns the verdict.
 * Only the CLI and the fuzz entry points exit or abort.
 */
#ifndef DMAFUZZ_HARNESS_H
#define DMAFUZZ_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dmafuzz/oracle.h"
#include "dmafuzz/plan.h"
#include "dmafuzz/runtime.h"

enum dfz_verdict_kind {
	DFZ_VERDICT_CLEAN = 0,
	DFZ_VERDICT_BUG = 1,
	DFZ_VERDICT_REJECTED = 2,
};

struct dfz_verdict {
	uint8_t kind;                 /* enum dfz_verdict_kind */
	struct dfz_finding finding;   /* BUG: the first violation */
	char reason[DFZ_MSG_MAX];     /* REJECTED: why the input is bad */
	uint64_t steps;               /* virtual steps the run took */
	uint32_t xfers;               /* transfers issued */
};

struct dfz_exec;

/**
 * dfz_exec_create() - a reusable executor: one runtime and one oracle set,
 * created once and reset per run.
 * @oracles: mask of enum dfz_oracle_id (DFZ_ORACLES_ALL normally).
 * @out: caller owns; release with dfz_exec_destroy().
 * Return: 0 or DFZ_ENOMEM.
 */
int dfz_exec_create(uint32_t oracles, struct dfz_exec **out);
void dfz_exec_destroy(struct dfz_exec *ex);

/**
 * dfz_exec_catch_signals() - with @on, a signal the runtime raises while
 * it runs a host or api plan (SIGSEGV, SIGBUS, SIGFPE, SIGILL) ends the run
 * with a `crash` finding instead of killing the process. Off by default:
 * fuzz targets want the real fault. Not thread-safe (signal handlers are
 * process-wide).
 */
void dfz_exec_catch_signals(struct dfz_exec *ex, bool on);

/**
 * dfz_exec_run() - run @p with the bug switches in @bugs.
 * @p: borrowed. @v: out, filled completely.
 * Return: the verdict kind.
 */
int dfz_exec_run(struct dfz_exec *ex, const struct dfz_plan *p, uint32_t bugs,
		 struct dfz_verdict *v);

/** dfz_exec_bytes() - decode @buf as a choice stream and run it. */
int dfz_exec_bytes(struct dfz_exec *ex, const uint8_t *buf, size_t n,
		   uint32_t bugs, struct dfz_verdict *v);

/**
 * dfz_verdict_print() - the report of @v for a person (text) or a machine
 * (@json: one JSON object per line).
 * @name: borrowed; the input's name, or NULL.
 */
void dfz_verdict_print(const struct dfz_verdict *v, const char *name,
		       bool json, FILE *f);

/**
 * dfz_plan_load() - read a plan file: the text form, or the binary choice
 * stream when the file does not start like text.
 * @path: borrowed; "-" reads standard input.
 * @err: out, a one-line message on failure.
 * Return: 0, DFZ_ENOENT (cannot read), or DFZ_EINVAL (bad text).
 */
int dfz_plan_load(const char *path, struct dfz_plan *out, char *err,
		  size_t errlen);

/**
 * dfz_plan_bytes_are_text() - the loader's rule: @n bytes of @buf are a
 * text plan when they start with `#` or `family` and hold only printable
 * ASCII and whitespace; anything else is a binary choice stream.
 */
bool dfz_plan_bytes_are_text(const uint8_t *buf, size_t n);

/**
 * dfz_plan_from_bytes() - a plan from a file's bytes: the text form when
 * they start like it (`#` or `family`) and are printable ASCII, else the
 * binary choice stream (which always decodes).
 * @buf: borrowed, @n bytes, followed by a NUL byte (buf[n] == 0).
 * Return: 0, or DFZ_EINVAL for bad text (@err says why, one line).
 */
int dfz_plan_from_bytes(const uint8_t *buf, size_t n, struct dfz_plan *out,
			char *err, size_t errlen);

/**
 * dfz_plan_xfer_rank() - the largest normalised rank (see dfz_xfer_rank())
 * of the hop-0 tile transfers @p issues: 0 when it moves nothing.
 */
unsigned dfz_plan_xfer_rank(const struct dfz_plan *p);

/**
 * dfz_plan_layout_strides() - the byte strides (per logical dim) of a
 * tensor of @x's shape stored in layout @l, as the executor lays it out.
 * @stride: out, DFZ_MAX_RANK entries (0 past the rank).
 * Return: the tensor's allocation size in bytes (UINT32_MAX on overflow).
 */
uint32_t dfz_plan_layout_strides(const struct dfz_plan_xfer *x,
				 const struct dfz_plan_layout *l,
				 uint32_t stride[DFZ_MAX_RANK]);

/**
 * dfz_plan_wait_bound() - the step bound the executor gives a wait of an
 * xfer run of @x (dfz_rt_config.wait_bound): what the fixed runtime can
 * legitimately need, so a wait that runs longer is a hang.
 */
uint32_t dfz_plan_wait_bound(const struct dfz_plan_xfer *x);

/* Deterministic random plans for `dmafuzz gen` (splitmix64 from @seed). */
struct dfz_gen {
	uint64_t state;
};

void dfz_gen_init(struct dfz_gen *g, uint64_t seed);

/**
 * dfz_gen_bytes() - fill @buf with a random choice stream of @n bytes.
 * Plans come from dfz_plan_decode() of these bytes.
 */
void dfz_gen_bytes(struct dfz_gen *g, uint8_t *buf, size_t n);

#endif /* DMAFUZZ_HARNESS_H */
