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
 * dfz_json_parse() - parse one JSON document (RFC 8259, strictly: no
 * comments, trailing commas, duplicate keys, invalid UTF-8, lone
 * surrogates or \u0000; at most DFZ_JSON_MAX_TEXT bytes, DFZ_JSON_MAX_DEPTH
 * levels and DFZ_JSON_MAX_NODES values).
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
 * Return: 0; DFZ_ENOENT (the campaign dir or a named triage file is
 * missing), DFZ_EINVAL (a corrupt input), DFZ_EFAULT (an output could not
 * be written) or DFZ_ENOMEM, with @stage and @err saying what.
 */
int dfz_report_write(const struct dfz_report_config *cfg,
		     enum dfz_report_stage *stage, char *err, size_t errlen);

#endif /* DMAFUZZ_REPORT_H */
