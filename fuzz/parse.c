// SPDX-License-Identifier: MIT
/*
 * Fuzz target `parse`: the text-plan parser. The bytes, NUL-terminated, are
 * parsed as a .plan file; bad text is rejected (return 0). A plan that
 * parses is normalised (clamped as a run sees it), printed and parsed
 * again: the printed form must parse, to an equal plan, and print the same
 * text again. Anything else is a bug of the text form, and aborts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmafuzz/plan.h"
#include "fuzz.h"

static void fail(const char *what, const char *first, const char *second)
{
	fprintf(stderr, "parse: %s\n--- printed plan:\n%s", what, first);
	if (second)
		fprintf(stderr, "--- printed again:\n%s", second);
	fflush(stderr);
	abort();
}

/* print -> parse -> print of the normalised @p: a fixpoint. */
static void check_round_trip(struct dfz_plan *p)
{
	struct dfz_plan q;
	char err[256], *first, *second;

	if (dfz_plan_normalise(p) < 0)
		return; /* out of memory: not the parser's fault */
	first = dfz_plan_text(p);
	if (!first)
		return;
	if (dfz_plan_parse(first, &q, err, sizeof(err)) < 0)
		fail(err, first, NULL);
	if (!dfz_plan_equal(p, &q))
		fail("the printed plan parses to a different plan", first, NULL);
	second = dfz_plan_text(&q);
	if (second && strcmp(first, second) != 0)
		fail("the printed plan prints differently once parsed", first,
		     second);
	free(second);
	free(first);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), err[256];
	struct dfz_plan p;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	if (dfz_plan_parse(text, &p, err, sizeof(err)) == 0)
		check_round_trip(&p);
	free(text);
	return 0;
}
