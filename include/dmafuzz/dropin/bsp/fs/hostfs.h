/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz drop-in for the hostfs configuration (pulp-sdk and gap_sdk
 * bsp/fs/hostfs.h): on the host every file system reads the host directory
 * bsp/fs.h names.
 */
#ifndef DMAFUZZ_DROPIN_BSP_FS_HOSTFS_H
#define DMAFUZZ_DROPIN_BSP_FS_HOSTFS_H

#include "dmafuzz/dropin/bsp/fs.h"

struct pi_hostfs_conf {
	struct pi_fs_conf fs;
};

#define pi_hostfs_conf_init(conf) \
	dfz_dropin_conf_init(DFZ_SITE, (conf), sizeof(struct pi_hostfs_conf))

#endif /* DMAFUZZ_DROPIN_BSP_FS_HOSTFS_H */
