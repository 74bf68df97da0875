// SPDX-License-Identifier: MIT
/*
 * Deterministic random choice streams for `dmafuzz gen` and the in-process
 * campaign: splitmix64, so a seed names a stream on every machine.
 */
#include <string.h>

#include "dmafuzz/harness.h"

void dfz_gen_init(struct dfz_gen *g, uint64_t seed)
{
	g->state = seed;
}

static uint64_t next_u64(struct dfz_gen *g)
{
	uint64_t z = (g->state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void dfz_gen_bytes(struct dfz_gen *g, uint8_t *buf, size_t n)
{
	while (n >= 8) {
		uint64_t v = next_u64(g);

		memcpy(buf, &v, 8);
		buf += 8;
		n -= 8;
	}
	if (n) {
		uint64_t v = next_u64(g);

		memcpy(buf, &v, n);
	}
}
