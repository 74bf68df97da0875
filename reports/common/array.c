// SPDX-License-Identifier: MIT
/*
 * The one growable array of the reports: room for one more item, the
 * allocation doubled when full, for the lists a campaign, a run record
 * or a triage builds as it reads (instances, findings, inputs, points).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common_int.h"

int dfz__grow(void *items, size_t *cap, size_t n, size_t size, size_t first)
{
	size_t c2 = *cap ? 2 * *cap : first;
	void *old, *p;

	if (n < *cap)
		return 0;
	if (c2 <= n || c2 > SIZE_MAX / size)
		return DFZ_ENOMEM;
	memcpy(&old, items, sizeof(old));
	p = realloc(old, c2 * size);
	if (!p)
		return DFZ_ENOMEM;
	memcpy(items, &p, sizeof(p));
	*cap = c2;
	return 0;
}
