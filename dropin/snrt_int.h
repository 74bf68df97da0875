/* SPDX-License-Identifier: MIT */
/*
 * Private to the Snitch names (snrt.c, snrt_rt.c): the per-run state of
 * the runtime's allocators and counters begins at a run's first Snitch
 * call.
 */
#ifndef DMAFUZZ_DROPIN_SNRT_INT_H
#define DMAFUZZ_DROPIN_SNRT_INT_H

#include "dropin_int.h"

/**
 * dfz__snrt_begin() - a Snitch call is served in @d's run: the first one
 * of the run marks it (res.apis) and clears the state the last run left
 * (its heaps were reclaimed with the run).
 */
void dfz__snrt_begin(struct dfz__dropin *d);

#endif /* DMAFUZZ_DROPIN_SNRT_INT_H */
