// SPDX-License-Identifier: MIT
/*
 * The plain replay driver of every fuzz target: runs each file named on the
 * command line once through LLVMFuzzerTestOneInput, as the fuzzers do, in
 * a normal build (for valgrind and gdb). A bug aborts, exactly as under a
 * fuzzer; a file that cannot be read exits 2. With no file it only runs
 * the target's set-up (so a bad DMAFUZZ_BUGS or DMAFUZZ_ORACLES is
 * reported, exit 2). Under valgrind, DMAFUZZ_ORACLES=none lets memcheck
 * judge alone (README, Memcheck).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

#pragma weak LLVMFuzzerInitialize

#define INPUT_MAX (1u << 20) /* as afl-fuzz's and libFuzzer's limits */

/* Read all of @path into @buf (INPUT_MAX bytes). Return its size or -1. */
static long read_input(const char *path, uint8_t *buf)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, INPUT_MAX, f);
	if (ferror(f) || (n == INPUT_MAX && fgetc(f) != EOF)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	return (long)n;
}

/* Run @n bytes from a block of exactly that size, so that valgrind and
 * the sanitizers see a read past the input. */
static void run_exact(const uint8_t *buf, size_t n)
{
	uint8_t *copy = malloc(n ? n : 1);

	if (!copy) {
		fputs("replay: out of memory\n", stderr);
		exit(3);
	}
	memcpy(copy, buf, n);
	LLVMFuzzerTestOneInput(copy, n);
	free(copy);
}

int main(int argc, char **argv)
{
	uint8_t *buf;
	int i;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: %s FILE...\nRun each input once; a bug aborts.\n",
		       argv[0]);
		return 0;
	}
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	buf = malloc(INPUT_MAX);
	if (!buf)
		return 3;
	for (i = 1; i < argc; i++) {
		long n = read_input(argv[i], buf);

		if (n < 0) {
			fprintf(stderr, "%s: cannot read '%s' (or over 1 MiB)\n",
				argv[0], argv[i]);
			free(buf);
			return 2;
		}
		fprintf(stderr, "running %s (%ld bytes)\n", argv[i], n);
		run_exact(buf, (size_t)n);
	}
	free(buf);
	return 0;
}
