/* SPDX-License-Identifier: MIT */
/*
 * A checksum over a tile with an 8-bit loop counter: for a tile of 300
 * bytes the counter wraps at 256 and the loop never ends. No SDK call in
 * the loop: the body spins on the CPU alone, and the run is a finding at
 * the loop's line once it passes the time limit (--timeout).
 */
#include <stdint.h>

uint32_t checksum(const uint8_t *p, uint32_t n)
{
	uint32_t sum = 0;

	/* One line: the time limit names a line the loop runs, sampled. */
	for (uint8_t i = 0; i < n; i++) sum += p[i]; /* dfz-expect: AT */
	return sum;
}
