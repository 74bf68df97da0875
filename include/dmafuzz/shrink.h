/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz shrink (reports/shrink/): when two findings are the same bug,
 * and the smallest reproducer that still has it. Signatures say when two
 * findings are the same bug (dedup, triage buckets, and the shrinker's
 * notion of "still the same bug"); the minimizer shrinks a reproducer's
 * choice stream, or a drop-in binary's schedule, while its signature
 * holds. Part of the reports layer: it sits on the harness.
 */
#ifndef DMAFUZZ_SHRINK_H
#define DMAFUZZ_SHRINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dmafuzz/harness.h"

/* ------------------------------------------------------------ signatures */

#define DFZ_SIG_DETAIL 12
#define DFZ_SIG_TEXT 64               /* room for dfz_signature_format() */

/*
 * struct dfz_signature - the bug class and site of a finding, built only
 * from what stays put while a reproducer shrinks:
 *  - the class id and the oracle that reported it;
 *  - the memory level the evidence points at (L3, L2, L1), or -1: where
 *    a request, a canary or a clobbered byte lives, not its offset;
 *  - for a `crash`, the signal name ("SIGSEGV") when the harness caught a
 *    signal, else empty.
 * Never the message text, the step, the transfer number, the offset or
 * the element index: those move with every shrinking step. Two findings
 * with equal signatures are one bucket.
 */
struct dfz_signature {
	uint8_t cls;                       /* enum dfz_class; NONE: no bug */
	char oracle[16];                   /* the oracle that fired */
	int8_t level;                      /* enum dfz_level, or -1 */
	char detail[DFZ_SIG_DETAIL];       /* crash: the signal name, or "" */
};

/**
 * dfz_signature_of() - the signature of @v (borrowed). A clean or
 * rejected verdict has class DFZ_CLASS_NONE and empty fields.
 * @out: filled completely.
 */
void dfz_signature_of(const struct dfz_verdict *v, struct dfz_signature *out);

/** dfz_signature_equal() - true when @a and @b are the same bucket. */
bool dfz_signature_equal(const struct dfz_signature *a,
			 const struct dfz_signature *b);

/**
 * dfz_signature_format() - @s as one token, "class/oracle@level[:detail]"
 * ("handle.reuse/handle@L2", "crash/signal:SIGSEGV", "none").
 * @buf: out, @len bytes (DFZ_SIG_TEXT is always enough).
 * Return: @buf.
 */
char *dfz_signature_format(const struct dfz_signature *s, char *buf,
			   size_t len);

/* ------------------------------------------------------------ minimize */

/* Defaults of struct dfz_min_config (a zero field takes its default). */
#define DFZ_MIN_RUNS 20000u           /* runs of the runtime, at most */

/*
 * struct dfz_min_config - what to shrink and how far.
 * The shrinker works on the bare choice stream of one family (the input
 * of that family's fuzz target, dfz_plan_decode_as()).
 */
struct dfz_min_config {
	unsigned family;                  /* enum dfz_family of the stream */
	uint32_t bugs;                    /* bug switches of every run */
	uint64_t max_runs;                /* 0: DFZ_MIN_RUNS */
	double max_seconds;               /* 0: no time limit; else stop after
					   * this wall time (the only
					   * time-dependent decision) */
};

/* Why the shrinker stopped. */
enum dfz_min_stop {
	DFZ_MIN_FIXPOINT = 0,             /* no pass could shrink further */
	DFZ_MIN_RUNS_OUT,                 /* max_runs reached */
	DFZ_MIN_TIME_OUT,                 /* max_seconds reached */
};

/*
 * struct dfz_min_result - the shrunk reproducer and the work it took.
 * @buf is the smallest stream found: shortlex-smallest among those tried
 * (shorter, or as long and bytewise smaller) whose run has the input's
 * signature; the input's own stream when nothing smaller kept it.
 */
struct dfz_min_result {
	uint8_t *buf;                     /* caller owns; release with
					   * dfz_min_result_fini() */
	size_t n;                         /* bytes of @buf */
	size_t n_in;                      /* bytes of the input stream */
	struct dfz_signature sig;         /* the input's (and @buf's) */
	struct dfz_verdict verdict;       /* the run of @buf */
	uint64_t runs;                    /* runs of the runtime */
	uint64_t accepted;                /* candidates kept */
	unsigned rounds;                  /* rounds of every pass */
	uint8_t stop;                     /* enum dfz_min_stop */
};

/**
 * dfz_minimize() - shrink a reproducer's choice stream, keeping its bug.
 * @ex: borrowed; the executor every run goes through (turn on
 *      dfz_exec_catch_signals() when the bug may be a signal).
 * @cfg: borrowed. @buf: borrowed, @n bytes: the bare stream of a plan of
 *      @cfg->family.
 * @out: filled; caller owns; release with dfz_min_result_fini().
 *
 * Hypothesis-style passes over the choices the decoder drew (it records
 * where each draw took its bytes): re-encode the plan (the canonical,
 * shortest stream of the same plan), drop a part of the plan (a node, the
 * second hop, a dim, a tensor or its last dim, an api call), delete spans
 * of 8, 4, 2 and 1 choices, zero them, lower each choice by binary search,
 * lower pairs of choices together, and swap neighbours into order;
 * repeated until no pass finds a smaller stream (or the budget runs out).
 * The engine bandwidth of an xfer plan is lowered last, once: a run
 * costs its bytes over the bandwidth in steps. A candidate is
 * kept only when it is shortlex-smaller and its verdict has the same
 * signature. Deterministic: the same input, switches and budget of runs
 * give the same bytes (a time limit, when it cuts the work short, is the
 * only exception, and @out->stop says so).
 *
 * Return: 0; DFZ_ENOENT when the input does not reproduce (its verdict is
 * clean or rejected: @out->verdict says which, @out->buf is NULL);
 * DFZ_ENOMEM.
 */
int dfz_minimize(struct dfz_exec *ex, const struct dfz_min_config *cfg,
		 const uint8_t *buf, size_t n, struct dfz_min_result *out);

/** dfz_min_result_fini() - release @r's stream; accepts NULL. */
void dfz_min_result_fini(struct dfz_min_result *r);

/* The shrunk schedule of a drop-in test binary (dfz_minimize_exec()). */
struct dfz_min_exec_result {
	uint8_t *buf;                     /* caller owns; release with
					   * dfz_min_exec_result_fini() */
	size_t n;                         /* bytes of @buf */
	size_t n_in;                      /* bytes of the input schedule */
	uint64_t runs;                    /* runs of the binary */
	char cls[32];                     /* the finding's class ... */
	char site[160];                   /* ... and its site, file:line */
	char prior[160];                  /* the earlier call it conflicts
					   * with, file:line, or "" */
};

/*
 * struct dfz_min_exec_config - the budget and the bucket of
 * dfz_minimize_exec_with(); a zero field takes its default.
 */
struct dfz_min_exec_config {
	uint64_t max_runs;                /* 0: DFZ_MIN_RUNS */
	double max_seconds;               /* wall time; 0: no limit */
	unsigned timeout_ms;              /* one run's; 0: 20000 */
	bool keep_prior;                  /* a candidate must keep the prior
					   * site too (triage's bucket) */
};

/**
 * dfz_minimize_exec() - shrink the schedule @buf (@n bytes, borrowed) of
 * the drop-in test binary @bin (include/dmafuzz/dropin.h), keeping its
 * finding's class and site: each candidate is replayed by `@bin --json
 * FILE` in a process of its own. Shorter prefixes, deleted spans of 8, 4,
 * 2 and 1 bytes, and bytes lowered by bisection, repeated until none
 * helps or @max_runs (0: DFZ_MIN_RUNS) runs were made. Deterministic.
 * @out: filled; caller owns.
 * Return: 0; DFZ_ENOENT when the input runs clean; DFZ_EINVAL when the
 * binary cannot replay it (it does not run, or exits neither 0 nor 1);
 * DFZ_EIO (or another code of dfz_err_from_errno()) when the schedule
 * cannot be written to its temporary file; DFZ_ENOMEM.
 */
int dfz_minimize_exec(const char *bin, const uint8_t *buf, size_t n,
		      uint64_t max_runs, struct dfz_min_exec_result *out);

/**
 * dfz_minimize_exec_with() - dfz_minimize_exec() with a budget of time
 * and of one run's time, and with @cfg->keep_prior a candidate kept only
 * when its prior site (the earlier call the finding conflicts with) is
 * the input's too. @cfg: borrowed. Return: as dfz_minimize_exec().
 */
int dfz_minimize_exec_with(const char *bin, const uint8_t *buf, size_t n,
			   const struct dfz_min_exec_config *cfg,
			   struct dfz_min_exec_result *out);

/** dfz_min_exec_result_fini() - release @r's schedule; accepts NULL. */
void dfz_min_exec_result_fini(struct dfz_min_exec_result *r);

#endif /* DMAFUZZ_SHRINK_H */
