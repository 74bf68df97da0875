// SPDX-License-Identifier: MIT
/*
 * Fuzz target `empty`: does nothing with its input. Built with the same
 * drivers and flags as the real targets (AFL++ persistent mode, libFuzzer
 * with ASan and UBSan), it is the floor `make bench` measures every target
 * beside: the execs/s of the fuzzer, the driver and the instrumentation
 * alone, in the same run and on the same seeds. Never fuzzed for findings.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	(void)data;
	(void)size;
	return 0;
}
