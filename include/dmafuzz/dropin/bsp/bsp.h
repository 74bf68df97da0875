/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz drop-in for the board support header (pulp-sdk and gap_sdk
 * bsp/bsp.h). The SDK's picks the board's headers by CONFIG_*; a board
 * brings its RAM's conf (HyperRAM on GAPuino, GAPoc and PULP, OctoSPI
 * RAM on GAP9 boards) and names it pi_default_ram_conf. Here every RAM
 * conf is declared, and the default RAM is HyperRAM unless the program
 * defines CONFIG_APS25XXXN (then the OctoSPI RAM) or CONFIG_SPIRAM; so
 * are the flash confs and the file systems (bsp/fs.h).
 * bsp_init() and pi_bsp_init() have nothing to set up on the host.
 */
#ifndef DMAFUZZ_DROPIN_BSP_BSP_H
#define DMAFUZZ_DROPIN_BSP_BSP_H

#include "dmafuzz/dropin/pmsis.h"
#include "dmafuzz/dropin/bsp/ram.h"
#include "dmafuzz/dropin/bsp/ram/hyperram.h"
#include "dmafuzz/dropin/bsp/ram/spiram.h"
#include "dmafuzz/dropin/bsp/ram/aps25xxxn.h"
#include "dmafuzz/dropin/bsp/flash.h"
#include "dmafuzz/dropin/bsp/flash/hyperflash.h"
#include "dmafuzz/dropin/bsp/flash/spiflash.h"
#include "dmafuzz/dropin/bsp/flash/mram.h"
#include "dmafuzz/dropin/bsp/fs.h"
#include "dmafuzz/dropin/bsp/fs/readfs.h"
#include "dmafuzz/dropin/bsp/fs/hostfs.h"

#if !defined(pi_default_ram_conf)
#if defined(CONFIG_APS25XXXN)
#define pi_default_ram_conf pi_aps25xxxn_conf
#define pi_default_ram_conf_init pi_aps25xxxn_conf_init
#elif defined(CONFIG_SPIRAM)
#define pi_default_ram_conf pi_spiram_conf
#define pi_default_ram_conf_init pi_spiram_conf_init
#else
#define pi_default_ram_conf pi_hyperram_conf
#define pi_default_ram_conf_init pi_hyperram_conf_init
#endif
#endif

/* The default flash: HyperFlash (GAPuino, GAPoc), or the board's
 * CONFIG_SPIFLASH / CONFIG_MRAM. */
#if !defined(pi_default_flash_conf)
#if defined(CONFIG_MRAM)
#define pi_default_flash_conf pi_mram_conf
#define pi_default_flash_conf_init pi_mram_conf_init
#elif defined(CONFIG_SPIFLASH)
#define pi_default_flash_conf pi_spiflash_conf
#define pi_default_flash_conf_init pi_spiflash_conf_init
#else
#define pi_default_flash_conf pi_hyperflash_conf
#define pi_default_flash_conf_init pi_hyperflash_conf_init
#endif
#endif

#define PI_BSP_PROFILE_DEFAULT 0
#define bsp_init(...) ((void)0)
#define pi_bsp_init(...) ((void)0)
#define pi_bsp_init_profile(profile) ((void)(profile))

#endif /* DMAFUZZ_DROPIN_BSP_BSP_H */
