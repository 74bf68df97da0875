/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz report (reports/render/): the report of a fuzz campaign, read
 * from its AFL++ instances, the campaign scripts' record and the triage
 * output (dmafuzz/triage.h), written as Markdown, JSON, SARIF and HTML;
 * and where a running campaign stands. The rest of the reports layer has
 * headers of its own: dmafuzz/shrink.h (signatures, the minimizer),
 * dmafuzz/emit.h (C reproducers), dmafuzz/triage.h.
 */
#ifndef DMAFUZZ_REPORT_H
#define DMAFUZZ_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dmafuzz/harness.h"

/* ------------------------------------------------------------ report */

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
	const char *srcroot;              /* the user's sources, for a
					   * drop-in triage's buckets (their
					   * lines shown, SARIF locations
					   * relative to it); NULL: the
					   * triage's, else "." */
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
 * inputs give the same bytes. A drop-in triage's buckets (triage
 * --dropin) are listed with their test, class, site and prior site,
 * minimized size, valgrind and ASan verdicts and open or fixed;
 * index.html shows the source lines around each site, read from
 * @cfg->srcroot; findings.sarif has one result per open bucket, at its
 * site relative to the SRCROOT uriBaseId.
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

#endif /* DMAFUZZ_REPORT_H */
