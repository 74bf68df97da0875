/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz drop-in for the HyperFlash configuration (pulp-sdk and gap_sdk
 * bsp/flash/hyperflash.h): the conf and its init (bsp/flash.h says what a flash
 * is on the host).
 */
#ifndef DMAFUZZ_DROPIN_BSP_FLASH_HYPERFLASH_H
#define DMAFUZZ_DROPIN_BSP_FLASH_HYPERFLASH_H

#include "dmafuzz/dropin/bsp/flash.h"

struct pi_hyperflash_conf {
	struct pi_flash_conf flash;
	int hyper_itf;
	int hyper_cs;
	int xip_en;
	char skip_pads_config;
};

#define pi_hyperflash_conf_init(conf) \
	dfz_dropin_conf_init(DFZ_SITE, (conf), sizeof(struct pi_hyperflash_conf))

#endif /* DMAFUZZ_DROPIN_BSP_FLASH_HYPERFLASH_H */
