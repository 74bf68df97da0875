/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz drop-in for the file system API (pulp-sdk and gap_sdk
 * bsp/fs.h): mount, open, read, seek, close from the fabric controller,
 * and the cluster's read requests (pi_cl_fs_read / pi_cl_fs_wait). On the
 * host a file system is the host's directory $DFZ_FS_ROOT (default: the
 * current directory), whatever flash it was mounted on: pi_fs_open(fs,
 * "weights.bin", 0) opens that file there, and a read copies its bytes
 * into the buffer at once, as a loader would (no DMA is modelled; the
 * buffer must be memory the call may write). Writes, copies to and from
 * the flash and the async forms are refused (rt.refused, naming the
 * call): a test that needs them says so at its line.
 */
#ifndef DMAFUZZ_DROPIN_BSP_FS_H
#define DMAFUZZ_DROPIN_BSP_FS_H

#include <stdbool.h>

#include "dmafuzz/dropin/bsp/flash.h"

typedef enum {
	PI_FS_READ_ONLY = 0,
	PI_FS_HOST = 1,
	PI_FS_LFS = 2,
} pi_fs_type_e;

typedef enum {
	PI_FS_FLAGS_READ = 0,
	PI_FS_FLAGS_WRITE = 1,
	PI_FS_FLAGS_APPEND = 2,
} pi_fs_flags_e;

typedef struct __pi_fs_api_t pi_fs_api_t;

struct pi_fs_conf {
	pi_fs_type_e type;
	struct pi_device *flash;
	char *partition_name;
	bool auto_format;
	pi_fs_api_t *api;
};

/* As the SDKs: the file's device, its size; data is the host file. */
typedef struct pi_fs_file_s {
	struct pi_device *fs;
	pi_fs_api_t *api;
	void *data;
	unsigned int size;
	void *fs_data;
	uint32_t dfz_offset;
} pi_fs_file_t;

typedef struct pi_cl_fs_req_s {
	pi_fs_file_t *file;
	pi_callback_t callback;
	uint8_t done;
	int32_t result;
	uint32_t dfz_magic;
} pi_cl_fs_req_t;

int32_t dfz_dropin_fs_mount(struct dfz_site s, struct pi_device *device,
			    int mount);
pi_fs_file_t *dfz_dropin_fs_open(struct dfz_site s, struct pi_device *device,
				 const char *file, int flags);
void dfz_dropin_fs_close(struct dfz_site s, pi_fs_file_t *file);
int32_t dfz_dropin_fs_read(struct dfz_site s, pi_fs_file_t *file,
			   void *buffer, uint32_t size);
int32_t dfz_dropin_fs_seek(struct dfz_site s, pi_fs_file_t *file,
			   uint32_t offset);
void dfz_dropin_cl_fs_read(struct dfz_site s, pi_fs_file_t *file,
			   void *buffer, uint32_t size, pi_cl_fs_req_t *req);
int32_t dfz_dropin_cl_fs_wait(struct dfz_site s, pi_cl_fs_req_t *req);

#define pi_fs_conf_init(conf)                                                 \
	dfz_dropin_conf_init(DFZ_SITE, (conf), sizeof(struct pi_fs_conf))
#define pi_fs_mount(dev) dfz_dropin_fs_mount(DFZ_SITE, (dev), 1)
#define pi_fs_unmount(dev) ((void)dfz_dropin_fs_mount(DFZ_SITE, (dev), 0))
#define pi_fs_open(dev, file, flags)                                          \
	dfz_dropin_fs_open(DFZ_SITE, (dev), (file), (int)(flags))
#define pi_fs_close(file) dfz_dropin_fs_close(DFZ_SITE, (file))
#define pi_fs_read(file, buffer, size)                                        \
	dfz_dropin_fs_read(DFZ_SITE, (file), (void *)(buffer), (uint32_t)(size))
#define pi_fs_direct_read(file, buffer, size) pi_fs_read(file, buffer, size)
#define pi_fs_seek(file, offset)                                              \
	dfz_dropin_fs_seek(DFZ_SITE, (file), (uint32_t)(offset))
#define pi_cl_fs_read(file, buffer, size, req)                                \
	dfz_dropin_cl_fs_read(DFZ_SITE, (file), (void *)(buffer),             \
			      (uint32_t)(size), (req))
#define pi_cl_fs_direct_read(file, buffer, size, req)                         \
	pi_cl_fs_read(file, buffer, size, req)
#define pi_cl_fs_wait(req) dfz_dropin_cl_fs_wait(DFZ_SITE, (req))
#define pi_fs_write(file, buffer, size)                                       \
	dfz_dropin_refuse(DFZ_SITE, "pi_fs_write")
#define pi_fs_copy(file, index, buffer, size, ext2loc)                        \
	dfz_dropin_refuse(DFZ_SITE, "pi_fs_copy")
#define pi_fs_copy_2d(file, index, buffer, size, stride, length, ext2loc)     \
	dfz_dropin_refuse(DFZ_SITE, "pi_fs_copy_2d")
#define pi_fs_read_async(file, buffer, size, task)                            \
	dfz_dropin_refuse(DFZ_SITE, "pi_fs_read_async")
#define pi_fs_write_async(file, buffer, size, task)                           \
	dfz_dropin_refuse(DFZ_SITE, "pi_fs_write_async")
#define pi_cl_fs_write(file, buffer, size, req)                               \
	dfz_dropin_refuse(DFZ_SITE, "pi_cl_fs_write")
#define pi_cl_fs_copy(file, index, buffer, size, ext2loc, req)                \
	dfz_dropin_refuse(DFZ_SITE, "pi_cl_fs_copy")

#endif /* DMAFUZZ_DROPIN_BSP_FS_H */
