/* SPDX-License-Identifier: MIT */
/*
 * Private interface of the minimizer (reports/shrink/): the structural
 * edits of a plan its passes try.
 */
#ifndef DMAFUZZ_SHRINK_INT_H
#define DMAFUZZ_SHRINK_INT_H

#include "dmafuzz/shrink.h"
#include "common_int.h"

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

#endif /* DMAFUZZ_SHRINK_INT_H */
