// SPDX-License-Identifier: MIT
/*
 * Fuzz target `api`: the bytes are the choice stream of an api plan
 * without the family draw: sequences of runtime and driver calls with
 * valid and invalid arguments, judged against the reference state machine.
 */
#include "dmafuzz/plan.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_family_run(DFZ_FAMILY_API, data, size);
}
