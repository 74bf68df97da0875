// SPDX-License-Identifier: MIT
/*
 * The one hash of the reports and the command line: FNV-1a over bytes,
 * for "the same bytes" tests (the shrinker's runs seen, triage's copies
 * of one finding) and for names that equal bytes share (the fuzz
 * command's findings). Not for anything an adversary chooses to collide.
 */
#include "common_int.h"

uint64_t dfz__fnv1a(const uint8_t *buf, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ buf[i]) * 0x100000001b3ull;
	return h;
}
