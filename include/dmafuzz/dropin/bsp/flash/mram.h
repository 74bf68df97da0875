/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz drop-in for the MRAM configuration (pulp-sdk and gap_sdk
 * bsp/flash/mram.h): the conf and its init (bsp/flash.h says what a flash
 * is on the host).
 */
#ifndef DMAFUZZ_DROPIN_BSP_FLASH_MRAM_H
#define DMAFUZZ_DROPIN_BSP_FLASH_MRAM_H

#include "dmafuzz/dropin/bsp/flash.h"

struct pi_mram_conf {
	struct pi_flash_conf flash;
	int itf;
	int baudrate;
};

#define pi_mram_conf_init(conf) \
	dfz_dropin_conf_init(DFZ_SITE, (conf), sizeof(struct pi_mram_conf))

#endif /* DMAFUZZ_DROPIN_BSP_FLASH_MRAM_H */
