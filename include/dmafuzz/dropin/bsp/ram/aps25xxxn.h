/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz drop-in for the OctoSPI RAM device configuration of GAP9
 * boards (gap_sdk bsp/ram/aps25xxxn.h, the APS25xxxN PSRAM): the conf and
 * its init; on the host the device is the model's one L3
 * (bsp/ram/hyperram.h says more).
 */
#ifndef DMAFUZZ_DROPIN_BSP_RAM_APS25XXXN_H
#define DMAFUZZ_DROPIN_BSP_RAM_APS25XXXN_H

#include "dmafuzz/dropin/bsp/ram/hyperram.h"

/* gap_sdk's members (pulp-sdk's lack mba). */
struct pi_aps25xxxn_conf {
	struct pi_ram_conf ram;
	int spi_itf;
	int spi_cs;
	int xip_en;
	int ram_start;
	int ram_size;
	uint32_t baudrate;
	int reserve_addr_0;
	uint32_t mba;
};

#define pi_aps25xxxn_conf_init(conf)                                          \
	dfz_dropin_conf_init(DFZ_SITE, (conf),                            \
				 sizeof(struct pi_aps25xxxn_conf))

#endif /* DMAFUZZ_DROPIN_BSP_RAM_APS25XXXN_H */
