/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz drop-in for the (Q)SPI flash configuration (pulp-sdk and gap_sdk
 * bsp/flash/spiflash.h): the conf and its init (bsp/flash.h says what a flash
 * is on the host).
 */
#ifndef DMAFUZZ_DROPIN_BSP_FLASH_SPIFLASH_H
#define DMAFUZZ_DROPIN_BSP_FLASH_SPIFLASH_H

#include "dmafuzz/dropin/bsp/flash.h"

struct pi_spiflash_conf {
	struct pi_flash_conf flash;
	int spi_cs;
	int spi_itf;
	size_t size;
	size_t sector_size;
	uint32_t baudrate;
};

#define pi_spiflash_conf_init(conf) \
	dfz_dropin_conf_init(DFZ_SITE, (conf), sizeof(struct pi_spiflash_conf))

#endif /* DMAFUZZ_DROPIN_BSP_FLASH_SPIFLASH_H */
