// SPDX-License-Identifier: MIT
/*
 * The AFL++ driver of every fuzz target: persistent mode with the input in
 * shared memory and deferred start-up. The target's one-time set-up
 * (LLVMFuzzerInitialize: the executor, the bug switches) runs before the
 * fork server starts, so each forked child begins ready; then every child
 * runs up to 10000 inputs through LLVMFuzzerTestOneInput before AFL++
 * replaces it. Built with afl-clang-fast only. Outside afl-fuzz the same
 * binary reads one input from standard input.
 */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "fuzz.h"

#pragma weak LLVMFuzzerInitialize

__AFL_FUZZ_INIT();

int main(int argc, char **argv)
{
	unsigned char *buf;

	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	__AFL_INIT();
	buf = __AFL_FUZZ_TESTCASE_BUF;
	while (__AFL_LOOP(10000))
		LLVMFuzzerTestOneInput(buf, (size_t)__AFL_FUZZ_TESTCASE_LEN);
	return 0;
}
