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

#endif /* DMAFUZZ_REPORT_INT_H */
