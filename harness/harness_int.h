/* SPDX-License-Identifier: MIT */
/*
 * Private harness helpers shared by the executor, the verdict printer and
 * the CLI-facing loaders.
 */
#ifndef DMAFUZZ_HARNESS_INT_H
#define DMAFUZZ_HARNESS_INT_H

#include "dmafuzz/harness.h"

/**
 * dfz__layout_strides() - byte strides (per logical dim) of a tensor of the
 * plan's shape stored in layout @l, and its allocation size in bytes.
 */
uint32_t dfz__layout_strides(const struct dfz_plan_xfer *x,
			     const struct dfz_plan_layout *l,
			     uint32_t stride[DFZ_MAX_RANK]);

/** dfz__verdict_reason() - mark @v rejected with a formatted reason. */
void dfz__verdict_reason(struct dfz_verdict *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* DMAFUZZ_HARNESS_INT_H */
