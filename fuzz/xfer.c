// SPDX-License-Identifier: MIT
/*
 * Fuzz target `xfer`: the bytes are the choice stream of an xfer plan
 * without the family draw: tensor transfers and tiling on one or two hops
 * (the ram, mchan and idma engines, decomposition policies, waiting
 * strategies, buffering, schedules).
 */
#include "dmafuzz/plan.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_family_run(DFZ_FAMILY_XFER, data, size);
}
