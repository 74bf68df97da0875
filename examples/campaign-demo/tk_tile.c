/* SPDX-License-Identifier: MIT */
/*
 * tilekit's helpers shared by every kernel: how a tile is split among the
 * team, and saturation to int8.
 */
#include "tilekit.h"

void tk_slice(unsigned core, unsigned ncores, uint32_t len, uint32_t *lo,
	      uint32_t *hi)
{
	uint32_t chunk = len / ncores;

	*lo = core * chunk;
	*hi = core + 1 == ncores ? len : *lo + chunk;
}

int8_t tk_sat8(int32_t v)
{
	return (int8_t)(v > 127 ? 127 : v < -128 ? -128 : v);
}
