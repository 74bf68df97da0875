/* SPDX-License-Identifier: MIT */
/* The same checksum, fixed: the counter is as wide as the size. */
#include <stdint.h>

uint32_t checksum(const uint8_t *p, uint32_t n)
{
	uint32_t sum = 0;

	for (uint32_t i = 0; i < n; i++)
		sum += p[i];
	return sum;
}
