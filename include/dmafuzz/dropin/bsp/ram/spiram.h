/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz drop-in for the (Q)SPI RAM device configuration (pulp-sdk and
 * gap_sdk bsp/ram/spiram.h): the conf and its init; on the host the
 * device is the model's one L3 (bsp/ram/hyperram.h says more).
 */
#ifndef DMAFUZZ_DROPIN_BSP_RAM_SPIRAM_H
#define DMAFUZZ_DROPIN_BSP_RAM_SPIRAM_H

#include "dmafuzz/dropin/bsp/ram/hyperram.h"

/* gap_sdk's member order (xip_en last; pulp-sdk has none). */
struct pi_spiram_conf {
	struct pi_ram_conf ram;
	int spi_itf;
	int spi_cs;
	char skip_pads_config;
	int ram_start;
	int ram_size;
	uint32_t baudrate;
	int xip_en;
};

#define pi_spiram_conf_init(conf)                                             \
	dfz_dropin_conf_init(DFZ_SITE, (conf), sizeof(struct pi_spiram_conf))

#endif /* DMAFUZZ_DROPIN_BSP_RAM_SPIRAM_H */
