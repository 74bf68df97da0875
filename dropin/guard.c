// SPDX-License-Identifier: MIT
/*
 * Guards that keep the harness alive under the user's faults: a pointer
 * handed to an SDK call is checked before the drop-in touches it.
 */
#include "dropin_int.h"

bool dfz__dropin_usable(struct dfz__dropin *d, const void *p, size_t n,
			const char *what)
{
	(void)n;
	if (p)
		return true;
	dfz__dropin_fail(d, DFZ_CLASS_DMA_BAD_ADDRESS,
			 "%s is NULL (expected a pointer to caller-owned "
			 "memory)", what);
	return false;
}
