// SPDX-License-Identifier: MIT
/*
 * Fuzz target `host`: the bytes are the choice stream of a host plan
 * without the family draw: device staging by the host runtime (tensors,
 * child flags, a packed graph output, launches, the device budget).
 */
#include "dmafuzz/plan.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_family_run(DFZ_FAMILY_HOST, data, size);
}
