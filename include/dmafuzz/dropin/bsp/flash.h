/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz drop-in for the flash device (pulp-sdk and gap_sdk bsp/flash.h):
 * the generic conf and the open and close a program makes before it
 * mounts a file system on the flash (bsp/fs.h). On the host a flash holds
 * nothing of its own: the file system above it reads host files. Its
 * reads, writes and erases are refused (rt.refused, naming the call).
 */
#ifndef DMAFUZZ_DROPIN_BSP_FLASH_H
#define DMAFUZZ_DROPIN_BSP_FLASH_H

#include "dmafuzz/dropin/pmsis.h"

struct pi_flash_conf {
	void *api;
};

#define pi_flash_open(dev) dfz_dropin_dev_open(DFZ_SITE, (dev), "pi_flash_open")
#define pi_flash_close(dev)                                                   \
	((void)dfz_dropin_dev_open(DFZ_SITE, (dev), "pi_flash_close"))
#define pi_flash_read(dev, addr, data, size)                                  \
	dfz_dropin_refuse(DFZ_SITE, "pi_flash_read")
#define pi_flash_program(dev, addr, data, size)                               \
	dfz_dropin_refuse(DFZ_SITE, "pi_flash_program")
#define pi_flash_erase(dev, addr, size)                                       \
	dfz_dropin_refuse(DFZ_SITE, "pi_flash_erase")

#endif /* DMAFUZZ_DROPIN_BSP_FLASH_H */
