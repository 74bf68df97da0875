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
	char clamped[DFZ_MSG_MAX];    /* the plan fields a limit changed
				       * before the run (dfz_plan_clamped()),
				       * "" when it ran as written; set by
				       * the caller that cares, printed when
				       * not empty */
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
 * Return: 0; DFZ_ENOENT, DFZ_EACCES or DFZ_EINVAL (a directory) when
 * @path cannot be opened; DFZ_ERANGE (over 1 MiB); DFZ_EIO (a read
 * failed); DFZ_EINVAL (bad text); DFZ_ENOMEM.
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
 * dfz_plan_prog() - the tiled program of xfer plan @x as the executor runs
 * it, all but where its tensors are: shape, hops, nodes and tiles, and
 * each tensor's level, strides and bytes; offsets are 0 (the executor sets
 * them as it allocates; node k + 1's input is node k's output).
 */
void dfz_plan_prog(const struct dfz_plan_xfer *x, struct dfz_prog *p);

/* Bytes between two host tensors of a host plan, so that a copy that runs
 * past one lands in bytes no tensor owns. */
#define DFZ_HOST_GAP 64u

/*
 * struct dfz_host_layout - where the executor puts a host or api plan's
 * data: per tensor, its offset in the host area (host tensors) and the
 * seed its bytes are filled from (every tensor; a child's are staged on
 * the device); the host area's bytes; the kernel binary's seed.
 */
struct dfz_host_layout {
	uint32_t at[DFZ_HOST_MAX_ARGS];
	uint64_t seed[DFZ_HOST_MAX_ARGS];
	uint64_t host_bytes;
	uint64_t bin_seed;
};

/**
 * dfz_plan_host_prog() - the host program of host or api plan @pl as the
 * executor performs it: its tensors (data unset), graph, device budget,
 * binary size (bin unset) and calls (host: init, run with the plan's
 * launches, validate, finalize; api: the plan's), and its layout @lay.
 */
void dfz_plan_host_prog(const struct dfz_plan *pl, struct dfz_host_prog *p,
			struct dfz_host_layout *lay);

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

/* ------------------------------------------------------------ crash sites */

#define DFZ_CRASH_BEFORE 64           /* code bytes kept before the pc */
#define DFZ_CRASH_AFTER 32            /* and from the pc on */
#define DFZ_CRASH_CODE (DFZ_CRASH_BEFORE + DFZ_CRASH_AFTER)
#define DFZ_CRASH_FRAMES 16
#define DFZ_CRASH_TAG "==dmafuzz-crash=="  /* starts a crash report line */

/*
 * struct dfz_crash_site - where a real signal struck: what a crash
 * reporter can learn inside the signal handler, for triage to
 * disassemble and symbolize afterwards.
 */
struct dfz_crash_site {
	int signo;
	int write;                    /* the page fault was a write: 1, a
				       * read: 0, unknown: -1 */
	uintptr_t addr;               /* si_addr: the faulting address */
	uintptr_t pc;                 /* the faulting instruction; 0 when
				       * this platform does not say */
	uintptr_t base;               /* load base of the program's main
				       * module (set by an external reporter;
				       * 0 in-process) */
	uintptr_t code_at;            /* address of code[0] */
	uint32_t ncode;               /* readable bytes around pc in code[] */
	uint32_t nframes;             /* frame[0] is pc; then return
				       * addresses, innermost first */
	uint8_t code[DFZ_CRASH_CODE];
	uintptr_t frame[DFZ_CRASH_FRAMES];
};

/**
 * dfz_crash_site_capture() - fill @out inside a SA_SIGINFO handler: the
 * signal, si_addr, the pc and the fault's direction from the ucontext
 * (x86-64 and aarch64 Linux; elsewhere pc 0 and write -1), the code bytes
 * around pc that can be read (probed, never faulting), and a backtrace
 * (backtrace(3): not async-signal-safe, acceptable for a crash report).
 * @siginfo: the handler's siginfo_t. @uctx: its ucontext_t.
 * Call dfz_crash_site_prepare() once before, outside the handler.
 */
void dfz_crash_site_capture(int signo, const void *siginfo, const void *uctx,
			    struct dfz_crash_site *out);

/**
 * dfz_crash_site_prepare() - the one-time set-up dfz_crash_site_capture()
 * needs (the probe pipe, the unwinder loaded). Idempotent.
 * Return: 0, or DFZ_ENOMEM when no pipe could be made (code bytes then
 * stay empty).
 */
int dfz_crash_site_prepare(void);

/**
 * dfz_exec_crash_site() - the site of the last signal dfz_exec_run()
 * caught in this process (dfz_exec_catch_signals() on).
 * @out: filled when one was caught.
 * Return: true when a signal was caught since the process started.
 */
bool dfz_exec_crash_site(struct dfz_crash_site *out);

/**
 * dfz_crash_site_write() - @s as one line on file descriptor @fd:
 * DFZ_CRASH_TAG, then `key=value` fields (signo, write, addr, pc, base,
 * code_at, code in hex, frames comma-separated). Async-signal-safe.
 */
void dfz_crash_site_write(const struct dfz_crash_site *s, int fd);

/**
 * dfz_crash_site_parse() - the first crash line dfz_crash_site_write()
 * wrote in @text (a program's whole stderr, NUL-terminated).
 * Return: 0, or DFZ_ENOENT when @text holds none (or a garbled one).
 */
int dfz_crash_site_parse(const char *text, struct dfz_crash_site *out);

#endif /* DMAFUZZ_HARNESS_H */
