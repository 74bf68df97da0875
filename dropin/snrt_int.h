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

/**
 * dfz__snrt_dma_dst() - where a DMA write of @extent bytes (first row to
 * last byte) at @dst lands: the zero memory ignores writes, so a
 * destination wholly inside it lands in a sink of the same size; any
 * other @dst is returned as it is.
 */
uintptr_t dfz__snrt_dma_dst(struct dfz__dropin *d, uintptr_t dst,
			    uint64_t extent);

#endif /* DMAFUZZ_DROPIN_SNRT_INT_H */
