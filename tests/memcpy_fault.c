// SPDX-License-Identifier: MIT
/*
 * A fault injected from outside the runtime, for tools/crash-check.sh:
 * preloaded (LD_PRELOAD) into the CLI, this memcpy faults on a copy of
 * exactly DFZ_FAULT_SIZE bytes (at that address, which is unmapped), as a
 * runtime bug would; every other copy is done byte by byte.
 */
#include <stdlib.h>
#include <string.h>

void *memcpy(void *dst, const void *src, size_t n)
{
	static size_t size = (size_t)-1;
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (size == (size_t)-1) {
		const char *e = getenv("DFZ_FAULT_SIZE");

		size = e ? strtoul(e, NULL, 10) : 0;
	}
	if (size && n == size)
		*(volatile int *)size = 1;
	for (size_t i = 0; i < n; i++)
		d[i] = s[i];
	return dst;
}
