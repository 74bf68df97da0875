// SPDX-License-Identifier: MIT
/*
 * The progress line of triage and report: "\r" and the line, on standard
 * error when it is a terminal, at most every DFZ__PROGRESS_MS; nothing at
 * all otherwise.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common_int.h"

void dfz__progress_init(struct dfz__progress *p)
{
	memset(p, 0, sizeof(*p));
	p->on = isatty(STDERR_FILENO) == 1;
}

void dfz__progress_show(struct dfz__progress *p, bool now, const char *fmt,
			...)
{
	char line[160];
	double t;
	va_list ap;
	int n;

	if (!p->on)
		return;
	t = dfz__now();
	if (!now && t < p->next)
		return;
	p->next = t + DFZ__PROGRESS_MS / 1000.0;
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	n = n < (int)sizeof(line) ? n : (int)sizeof(line) - 1;
	/* Spaces over what is left of a longer line before. */
	fprintf(stderr, "\r%s%*s", line,
		p->width > (size_t)n ? (int)(p->width - (size_t)n) : 0, "");
	fflush(stderr);
	p->width = (size_t)n;
}

void dfz__progress_clear(struct dfz__progress *p)
{
	if (!p->on || !p->width)
		return;
	fprintf(stderr, "\r%*s\r", (int)p->width, "");
	fflush(stderr);
	p->width = 0;
	p->next = 0;
}
