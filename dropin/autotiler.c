// SPDX-License-Identifier: MIT
/*
 * The AutoTiler's RAM allocators (include/dmafuzz/dropin/at_api_pmsis.h):
 * L3 blocks of the model's RAM, which every external RAM of the SDK
 * (default RAM, HyperRAM, QSPI and OctoSPI RAM) is here. As the SDK's
 * macros, an allocation that returns address 0 is made again (0 means
 * failure to the generated code) and a failure returns 0.
 */
#include "dropin_int.h"
#include "dmafuzz/dropin/at_api_pmsis.h"

uint32_t dfz_dropin_at_ram_alloc(struct dfz_site s, uint32_t size)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);
	uint32_t off;

	if (!d || dfz_l3_alloc(d->rt, size, &off) < 0)
		return 0;
	if (off == 0 && dfz_l3_alloc(d->rt, size, &off) < 0)
		return 0;
	return off;
}

void dfz_dropin_at_ram_free(struct dfz_site s, uint32_t addr)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	if (d && dfz_l3_free(d->rt, addr) < 0)
		dfz__dropin_fail(d, DFZ_CLASS_DEV_MISUSE,
				 "AT RAM free of 0x%x, which is not a live L3 "
				 "block (expected an address AT_*RAM_ALLOC "
				 "returned)", (unsigned)addr);
}
