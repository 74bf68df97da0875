// SPDX-License-Identifier: MIT
/*
 * make bench's in-process row of a drop-in target (docs/bench.md): the
 * test file built plain with this file, whose main() takes the place of
 * DFZ_DROPIN_MAIN's (a weak one outside the fuzzers' builds), runs the
 * fuzz entry point (LLVMFuzzerInitialize once, LLVMFuzzerTestOneInput a
 * schedule at a time) on the bare run's schedules (the empty one, then
 * 8 to 256 random bytes) with no fuzzer around it: the schedules/s the
 * target itself allows, the ceiling of any fuzzer's execs/s on it.
 * Usage: PROG SECONDS | PROG -n RUNS (a fixed count, for strace -c).
 * Prints "schedules N seconds S per_s R". Exit: 0, 2 on bad use.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Schedule @run: empty for run 0, then 8 to 256 random bytes. */
static size_t schedule(unsigned long run, uint8_t *buf)
{
	uint64_t s = 0x100000001b3ull + run;
	size_t n = run ? 8 + (size_t)(splitmix(&s) % 249) : 0;

	for (size_t i = 0; i < n; i++)
		buf[i] = (uint8_t)splitmix(&s);
	return n;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static uint8_t buf[256];
	unsigned long runs = 0, run;
	double secs = 0, t0, t;
	char *end = NULL;

	if (argc == 3 && !strcmp(argv[1], "-n"))
		runs = strtoul(argv[2], &end, 10);
	else if (argc == 2)
		secs = strtod(argv[1], &end);
	if (!end || *end || (runs == 0 && !(secs > 0))) {
		fprintf(stderr, "usage: %s SECONDS | -n RUNS\n", argv[0]);
		return 2;
	}
	LLVMFuzzerInitialize(&argc, &argv);
	t0 = now();
	for (run = 0, t = t0; runs ? run < runs : t - t0 < secs; run++) {
		LLVMFuzzerTestOneInput(buf, schedule(run, buf));
		if (!runs && (run & 63) == 63)
			t = now();
	}
	t = now() - t0;
	printf("schedules %lu seconds %.3f per_s %.1f\n", run, t, run / t);
	return 0;
}
