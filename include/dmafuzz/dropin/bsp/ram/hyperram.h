/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz drop-in for the HyperRAM device configuration (pulp-sdk and
 * gap_sdk bsp/ram/hyperram.h): the conf and its init. A program opens it
 * with pi_open_from_conf() and pi_ram_open(); on the host every RAM
 * device is the model's one L3, whatever the interface, chip select and
 * size the conf names.
 */
#ifndef DMAFUZZ_DROPIN_BSP_RAM_HYPERRAM_H
#define DMAFUZZ_DROPIN_BSP_RAM_HYPERRAM_H

#include "dmafuzz/dropin/bsp/ram.h"

struct pi_hyperram_conf {
	struct pi_ram_conf ram;
	int hyper_itf;
	int hyper_cs;
	char skip_pads_config;
	int xip_en;
	int ram_start;
	int ram_size;
	uint32_t baudrate;
	int reserve_addr_0;
};


#define pi_hyperram_conf_init(conf)                                           \
	dfz_dropin_conf_init(DFZ_SITE, (conf), sizeof(struct pi_hyperram_conf))

#endif /* DMAFUZZ_DROPIN_BSP_RAM_HYPERRAM_H */
