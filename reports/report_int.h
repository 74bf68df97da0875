/* SPDX-License-Identifier: MIT */
/*
 * Private interfaces of the reports layer, shared by its files.
 */
#ifndef DMAFUZZ_REPORT_INT_H
#define DMAFUZZ_REPORT_INT_H

#include "dmafuzz/report.h"

/* Structural edits dfz__min_plan_edit() knows: drop a node, the second
 * hop, a dim, a tensor, a tensor's last dim, an api call. */
#define DFZ__MIN_EDITS (DFZ_MAX_NODES + 1 + DFZ_MAX_RANK + \
			2 * DFZ_HOST_MAX_ARGS + DFZ_HOST_MAX_CALLS)

/*
 * dfz__min_plan_edit() - edit @k (0..DFZ__MIN_EDITS-1) of plan @in (a
 * decoded, normalised plan) into @out: @in with one part dropped.
 * Return: false when edit @k does not apply to @in (@out unspecified).
 */
bool dfz__min_plan_edit(const struct dfz_plan *in, unsigned k,
			struct dfz_plan *out);

/* ------------------------------------------------------------ shell */

#define DFZ__COMMAND_MAX 4400         /* a replay command line: a program
				       * path and its switches */

/**
 * dfz__shell_quote() - @s as one word of a POSIX shell command line, into
 * @buf: as it is when it holds only characters no shell reads specially
 * (letters, digits and "_-./:,+@%"; not empty), else in single quotes
 * (a quote inside as '\'').
 * Return: false when it did not fit (@buf then holds a cut word).
 */
bool dfz__shell_quote(const char *s, char *buf, size_t len);

/* ------------------------------------------------------------ progress */

#define DFZ__PROGRESS_MS 100          /* at most one update per this */

/*
 * struct dfz__progress - one line of progress on standard error, updated
 * in place ('\r') as `make fuzz`'s is, for a person watching: only when
 * standard error is a terminal, and at most every DFZ__PROGRESS_MS, so
 * that a log or a test's output holds none of it and a run pays almost
 * nothing for it.
 */
struct dfz__progress {
	bool on;                          /* standard error is a terminal */
	double next;                      /* no update before (seconds) */
	size_t width;                     /* of the line shown; 0: none */
};

/** dfz__progress_init() - @p on when standard error is a terminal. */
void dfz__progress_init(struct dfz__progress *p);

/**
 * dfz__progress_show() - show @fmt... as the progress line, replacing
 * the one shown; skipped when the last update was under DFZ__PROGRESS_MS
 * ago, unless @now.
 */
void dfz__progress_show(struct dfz__progress *p, bool now, const char *fmt,
			...) __attribute__((format(printf, 3, 4)));

/**
 * dfz__progress_clear() - blank the line shown, the cursor back at its
 * start (before other output to the terminal, and at the end).
 */
void dfz__progress_clear(struct dfz__progress *p);

#endif /* DMAFUZZ_REPORT_INT_H */
