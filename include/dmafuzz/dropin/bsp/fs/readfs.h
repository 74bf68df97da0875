/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz drop-in for the readfs configuration (pulp-sdk and gap_sdk
 * bsp/fs/readfs.h): on the host every file system reads the host directory
 * bsp/fs.h names.
 */
#ifndef DMAFUZZ_DROPIN_BSP_FS_READFS_H
#define DMAFUZZ_DROPIN_BSP_FS_READFS_H

#include "dmafuzz/dropin/bsp/fs.h"

struct pi_readfs_conf {
	struct pi_fs_conf fs;
};

#define pi_readfs_conf_init(conf) \
	dfz_dropin_conf_init(DFZ_SITE, (conf), sizeof(struct pi_readfs_conf))

#endif /* DMAFUZZ_DROPIN_BSP_FS_READFS_H */
