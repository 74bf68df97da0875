/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz reports: what happens to a finding after the run that found it.
 * Signatures say when two findings are the same bug (dedup, triage
 * buckets, and the shrinker's notion of "still the same bug"); the
 * minimizer shrinks a reproducer's choice stream while its signature
 * holds. The layer sits on top of the harness and never reaches below it.
 */
#ifndef DMAFUZZ_REPORT_H
#define DMAFUZZ_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/** dfz_min_exec_result_fini() - release @r's schedule; accepts NULL. */
void dfz_min_exec_result_fini(struct dfz_min_exec_result *r);

/* ------------------------------------------------------------ triage */

#define DFZ_FAULT_BEFORE 4            /* instructions shown before the fault */
#define DFZ_FAULT_AFTER 2             /* and after it */
#define DFZ_FAULT_LINES (DFZ_FAULT_BEFORE + 1 + DFZ_FAULT_AFTER)
#define DFZ_FAULT_FRAMES 3            /* symbolized frames: the site's key */
#define DFZ_FAULT_TEXT 192

/*
 * struct dfz_fault - a signal's crash site for people: the faulting
 * instruction disassembled (Capstone) with its neighbours, the direction
 * of the access and the memory operand it went through, and the top
 * frames symbolized.
 */
struct dfz_fault {
	char access[8];                   /* "read", "write" or "unknown" */
	char operand[DFZ_FAULT_TEXT];     /* "qword ptr [rax + 8]", or "" */
	char instruction[DFZ_FAULT_TEXT]; /* "mov rdx, qword ptr [rax + 8]" */
	char regs[DFZ_FAULT_TEXT];        /* registers it reads and writes */
	unsigned ndisasm;
	char disasm[DFZ_FAULT_LINES][DFZ_FAULT_TEXT]; /* "0x...: insn", the
						       * fault as "=> 0x..." */
	unsigned nframes;
	char frames[DFZ_FAULT_FRAMES][DFZ_FAULT_TEXT]; /* "fn (file.c:12)" */
};

/**
 * dfz_fault_disasm() - disassemble the code bytes of @s around its pc
 * (x86-64, detail on): up to DFZ_FAULT_BEFORE instructions before the
 * fault (found by decoding from every offset of the window back from pc
 * and keeping the boundaries most offsets agree on), the fault, and
 * DFZ_FAULT_AFTER after. The access is the hardware's when @s knows it
 * (the page fault's error code), else the memory operand's access flags;
 * the operand is the faulting instruction's memory operand.
 * @out: its access, operand, instruction, regs and disasm are filled
 *       ("unknown" and empty when the pc or its bytes are missing).
 * Return: 0, or DFZ_ENOENT when there was nothing to disassemble.
 */
int dfz_fault_disasm(const struct dfz_crash_site *s, struct dfz_fault *out);

/**
 * dfz_fault_frames() - symbolize the top DFZ_FAULT_FRAMES frames of @s
 * as "function (file:line)" (addr2line on the module, at the offset from
 * its load base; a return address is looked up one byte back), falling
 * back to "module+0xoffset".
 * @program: the executable an external site comes from (frames are in it
 *           at @s->base); NULL for a site of this process (dladdr()).
 * @out: its frames and nframes are filled.
 */
void dfz_fault_frames(const struct dfz_crash_site *s, const char *program,
		      struct dfz_fault *out);

/* Defaults of struct dfz_triage_config (a zero field takes its default). */
#define DFZ_TRIAGE_MIN_RUNS 3000u     /* minimizer runs per bucket */
#define DFZ_TRIAGE_MIN_SECONDS 30.0   /* minimizer wall time per bucket */
#define DFZ_TRIAGE_TIMEOUT_MS 5000u   /* one run of an external program */

/*
 * struct dfz_triage_config - one triage of a fuzz campaign.
 * Inputs are the files under directories named crashes, hangs or findings
 * (README.txt, dot files and a finding's .txt/.plan companions left out);
 * the target of each is the nearest path component naming one (xfer,
 * host, api, parse; else "other").
 */
struct dfz_triage_config {
	const char *dir;                  /* the campaign (out/fuzz, ...) */
	const char *out;                  /* NULL: DIR/triage */
	const char *exec;                 /* NULL: replay in-process (plan
					   * targets with the executor, parse
					   * with the text round trip); else
					   * run this program on each input */
	uint32_t bugs;                    /* bug switches of every replay */
	uint64_t max_runs;                /* 0: DFZ_TRIAGE_MIN_RUNS */
	double max_seconds;               /* 0: DFZ_TRIAGE_MIN_SECONDS */
	unsigned timeout_ms;              /* 0: DFZ_TRIAGE_TIMEOUT_MS */
	FILE *log;                        /* a line per bucket, or NULL */
};

/* struct dfz_triage_summary - what a triage found. */
struct dfz_triage_summary {
	unsigned inputs;                  /* files examined */
	unsigned distinct;                /* of them, those that repeat no
					   * earlier input's bytes (of the
					   * same target): the findings once */
	unsigned buckets;
	unsigned malformed;
	unsigned clean;                   /* did not reproduce */
};

/**
 * dfz_triage() - replay every crash and hang input of a campaign, bucket
 * them by signature (for a real signal also the faulting instruction and
 * the top frames), minimize one reproducer per bucket, and write OUT:
 * triage.json, buckets/<id>/{repro.bin,repro.plan,verdict.txt,disasm.txt}
 * and inputs/<target>/ (a copy of every input: nothing is moved, removed
 * or overwritten). An input with the bytes of an earlier one of its
 * target (in path order; an AFL++ crash and its copy under findings/) is
 * a copy of one finding: listed, in its first's bucket, counted once in
 * the distinct counts. Every file is written atomically. Deterministic, but
 * for a minimization cut short by its time limit.
 * @cfg: borrowed. @out: filled. @err: a one-line message on failure.
 * Return: 0; DFZ_ENOENT or DFZ_ENOTDIR (DIR missing or not a directory);
 * DFZ_EINVAL (bad configuration, a path too long); DFZ_EACCES or
 * DFZ_ENOTDIR (OUT cannot be created or written); DFZ_EIO (a write failed:
 * a full disk); DFZ_ENOMEM.
 */
int dfz_triage(const struct dfz_triage_config *cfg,
	       struct dfz_triage_summary *out, char *err, size_t errlen);

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
 * @cfg->expect, an unknown switch); DFZ_ENOMEM; DFZ_EIO when writing to
 * @f failed.
 */
int dfz_emit_c(const struct dfz_plan *p, const struct dfz_emit_config *cfg,
	       FILE *f);

/* ------------------------------------------------------------ report */

/*
 * A strict, bounded JSON reader: what the report reads back (triage.json)
 * and what its tests check the outputs with. A parsed document is a tree
 * of values; accessors take NULL and wrong types and answer NULL, 0 or
 * false, so a lookup chain needs one check at its end.
 */
#define DFZ_JSON_MAX_TEXT (64u << 20)  /* bytes of one document */
#define DFZ_JSON_MAX_DEPTH 64u         /* nesting of arrays and objects */
#define DFZ_JSON_MAX_NODES (1u << 22)  /* values in one document */

struct dfz_json;

enum dfz_json_type {
	DFZ_JSON_NONE = 0,                /* no value (a NULL pointer) */
	DFZ_JSON_NULL,
	DFZ_JSON_BOOL,
	DFZ_JSON_NUMBER,
	DFZ_JSON_STRING,
	DFZ_JSON_ARRAY,
	DFZ_JSON_OBJECT,
};

/**
 * dfz_json_parse() - parse one JSON document with jansson (RFC 8259,
 * strictly: no comments, trailing commas, duplicate keys, invalid UTF-8,
 * lone surrogates or \u0000; at most DFZ_JSON_MAX_TEXT bytes,
 * DFZ_JSON_MAX_DEPTH levels and DFZ_JSON_MAX_NODES values). Every number
 * reads as a double, integers past 2^63 too.
 * @text: borrowed, @n bytes (need not be NUL-terminated).
 * @out: the root; caller owns; release with dfz_json_free(). NULL on error.
 * @err: out, @errlen bytes: "line L, column C: what" on error (may be NULL).
 * Return: 0, DFZ_EINVAL (not valid JSON, or over a cap), DFZ_ENOMEM.
 */
int dfz_json_parse(const char *text, size_t n, struct dfz_json **out,
		   char *err, size_t errlen);

/** dfz_json_free() - release a document from dfz_json_parse(); accepts NULL. */
void dfz_json_free(struct dfz_json *j);

/** dfz_json_type_of() - the type of @j; DFZ_JSON_NONE for NULL. */
enum dfz_json_type dfz_json_type_of(const struct dfz_json *j);

/** dfz_json_get() - member @key of object @obj, or NULL (borrowed). */
const struct dfz_json *dfz_json_get(const struct dfz_json *obj,
				    const char *key);

/** dfz_json_len() - items of an array or members of an object; else 0. */
size_t dfz_json_len(const struct dfz_json *j);

/** dfz_json_at() - item @i of an array (or member @i of an object), or NULL. */
const struct dfz_json *dfz_json_at(const struct dfz_json *j, size_t i);

/** dfz_json_key() - the key of member @i of object @obj, or NULL. */
const char *dfz_json_key(const struct dfz_json *obj, size_t i);

/** dfz_json_str() - the text of string @j (borrowed from @j), or NULL. */
const char *dfz_json_str(const struct dfz_json *j);

/** dfz_json_num() - the value of number @j into @out; false if no number. */
bool dfz_json_num(const struct dfz_json *j, double *out);

/** dfz_json_bool() - the value of boolean @j into @out; false if none. */
bool dfz_json_bool(const struct dfz_json *j, bool *out);

/*
 * struct dfz_report_config - what dfz_report_write() reads and writes.
 * Every string is borrowed for the call; NULL takes the default.
 */
struct dfz_report_config {
	const char *dir;                  /* the campaign directory */
	const char *out;                  /* where the outputs go; NULL: @dir */
	const char *triage;               /* NULL: @dir/triage/triage.json */
	const char *version;              /* the tool version in the SARIF */
	const char *generated;            /* a "generated" stamp to print; NULL:
					   * none (the outputs then depend on
					   * the inputs alone) */
};

/* Which part of dfz_report_write() failed. */
enum dfz_report_stage {
	DFZ_REPORT_OK = 0,
	DFZ_REPORT_CAMPAIGN,              /* the campaign dir is unreadable */
	DFZ_REPORT_TRIAGE,                /* triage.json is not the contract */
	DFZ_REPORT_OUTPUT,                /* an output could not be written */
};

/* The outputs, in the order they are written. */
#define DFZ_REPORT_FILES { "summary.md", "summary.json", "findings.sarif", \
			   "index.html" }

/**
 * dfz_report_write() - the report of a fuzz campaign.
 * @cfg: borrowed.
 * @stage: out: which part failed (DFZ_REPORT_OK on success).
 * @err: out, @errlen bytes: a one-line message when it fails.
 *
 * Reads every AFL++ instance under @cfg->dir (each directory holding a
 * fuzzer_stats file, with its plot_data; the fuzz target is the nearest
 * path component naming one: xfer, host, api, parse) and the triage
 * output (the contract of `dmafuzz triage`; absent is fine and said so),
 * then writes summary.md, summary.json, findings.sarif (SARIF 2.1.0, one
 * result per bucket) and index.html (plots of coverage, corpus, execs/s
 * and findings over time as inline SVG; one section per bucket) into
 * @cfg->out. Every output goes to a temporary file first; all four are
 * renamed into place only once all four are complete, so a failure leaves
 * the previous outputs (or none) behind, never a partial one. The same
 * inputs give the same bytes.
 *
 * Return: 0; DFZ_ENOENT or DFZ_ENOTDIR (the campaign dir or a named
 * triage file is missing), DFZ_EINVAL (a corrupt input), DFZ_EACCES,
 * DFZ_EIO (an input could not be read or an output written) or
 * DFZ_ENOMEM, with @stage and @err saying what.
 */
int dfz_report_write(const struct dfz_report_config *cfg,
		     enum dfz_report_stage *stage, char *err, size_t errlen);

/**
 * dfz_report_progress() - where a running campaign stands: one line per
 * fuzz target with an AFL++ instance under @dir (borrowed), "TARGET:
 * corpus N crashes N hangs N execs E (R/s) at Ts" (corpus: the main or
 * default instance's queue; crashes and hangs: every instance's, resumed
 * ones' crashes.DATE too; execs and execs/s: the sum over the instances
 * whose fuzzer_stats has run a second, "~" when only the newest queue or
 * crash file name says so, "-" when nothing does), to @out.
 * Return: 0, or DFZ_ENOENT (no such dir), DFZ_ENOMEM; @err says.
 */
int dfz_report_progress(const char *dir, FILE *out, char *err, size_t errlen);

/* ----------------------------------------------------------- directories */

/**
 * dfz_mkdir_p() - create a directory and its missing parents (mkdir -p).
 * @path: the directory, under 4096 bytes; one that exists already is fine.
 *
 * Return: 0, or a negative DFZ_E* code, errno left set for the message:
 * DFZ_ENOTDIR (a file where a directory belongs), DFZ_ENOENT, DFZ_EACCES,
 * DFZ_EINVAL (a @path too long), DFZ_EIO (the disk failed) or DFZ_ENOMEM.
 */
int dfz_mkdir_p(const char *path);

#endif /* DMAFUZZ_REPORT_H */
