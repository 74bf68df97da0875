// SPDX-License-Identifier: MIT
/*
 * The board's devices beyond the RAM (bsp/flash.h, bsp/fs.h): confs,
 * opens with nothing to set up, a file system that reads the host's
 * directory $DFZ_FS_ROOT (default "."), and calls the host cannot give a
 * meaning, refused by name at their line. A read copies the file's bytes
 * into the buffer when it is called (a loader's view, no DMA).
 */
#include <stdio.h>
#include <stdlib.h>

#include "pmsis_int.h"
#include "dmafuzz/dropin/bsp/fs.h"

#define FS_MAGIC 0x46535251u /* "FSRQ": a request the drop-in served */

void dfz_dropin_conf_init(struct dfz_site s, void *conf, size_t size)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	if (d && !dfz__dropin_usable(d, conf, size, "the conf of a conf_init"))
		return;
	if (conf)
		memset(conf, 0, size);
}

int dfz_dropin_dev_open(struct dfz_site s, struct pi_device *device,
			const char *what)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	if (d && !dfz__dropin_usable(d, device, sizeof(*device), what))
		return -1;
	return 0;
}

int dfz_dropin_refuse(struct dfz_site s, const char *name)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	if (d)
		dfz__dropin_fail(d, DFZ_CLASS_RT_REFUSED, "%s has no meaning "
				 "on the host (docs/porting/pmsis.md lists what "
				 "the drop-in models)", name);
	return -1;
}

int32_t dfz_dropin_fs_mount(struct dfz_site s, struct pi_device *device,
			    int mount)
{
	return dfz_dropin_dev_open(s, device, mount ?
				   "the device of pi_fs_mount" :
				   "the device of pi_fs_unmount");
}

pi_fs_file_t *dfz_dropin_fs_open(struct dfz_site s, struct pi_device *device,
				 const char *file, int flags)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);
	const char *root = getenv("DFZ_FS_ROOT");
	char path[1024];
	pi_fs_file_t *f;
	FILE *h;
	long size;

	if (d && (!dfz__dropin_readable(d, file, 1, "the name of pi_fs_open")))
		return NULL;
	if (flags != PI_FS_FLAGS_READ) {
		dfz_dropin_refuse(s, "pi_fs_open for writing");
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/%s", root && *root ? root : ".", file);
	h = fopen(path, "rb");
	if (!h)
		return NULL;
	f = calloc(1, sizeof(*f));
	if (!f || fseek(h, 0, SEEK_END) != 0 || (size = ftell(h)) < 0 ||
	    fseek(h, 0, SEEK_SET) != 0) {
		free(f);
		fclose(h);
		return NULL;
	}
	*f = (pi_fs_file_t){ .fs = device, .data = h,
			     .size = (unsigned int)size };
	return f;
}

void dfz_dropin_fs_close(struct dfz_site s, pi_fs_file_t *file)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	if (!file || (d && !dfz__dropin_usable(d, file, sizeof(*file),
					       "the file of pi_fs_close")))
		return;
	if (file->data)
		fclose(file->data);
	free(file);
}

static int32_t fs_read(struct dfz__dropin *d, pi_fs_file_t *file,
		       void *buffer, uint32_t size)
{
	size_t got;

	if (!dfz__dropin_usable(d, file, sizeof(*file), "the file of a "
				"pi_fs read") ||
	    !dfz__dropin_usable(d, buffer, size, "the buffer of a pi_fs read"))
		return -1;
	if (fseek(file->data, (long)file->dfz_offset, SEEK_SET) != 0)
		return -1;
	got = fread(buffer, 1, size, file->data);
	file->dfz_offset += (uint32_t)got;
	return (int32_t)got;
}

int32_t dfz_dropin_fs_read(struct dfz_site s, pi_fs_file_t *file,
			   void *buffer, uint32_t size)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	return d ? fs_read(d, file, buffer, size) : -1;
}

int32_t dfz_dropin_fs_seek(struct dfz_site s, pi_fs_file_t *file,
			   uint32_t offset)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	if (!d || !dfz__dropin_usable(d, file, sizeof(*file),
				      "the file of pi_fs_seek"))
		return -1;
	file->dfz_offset = offset;
	return 0;
}

void dfz_dropin_cl_fs_read(struct dfz_site s, pi_fs_file_t *file,
			   void *buffer, uint32_t size, pi_cl_fs_req_t *req)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	if (!d || !dfz__dropin_usable(d, req, sizeof(*req),
				      "the request of pi_cl_fs_read"))
		return;
	req->file = file;
	req->result = fs_read(d, file, buffer, size);
	req->done = 1;
	req->dfz_magic = FS_MAGIC;
}

int32_t dfz_dropin_cl_fs_wait(struct dfz_site s, pi_cl_fs_req_t *req)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	if (!d || !dfz__dropin_usable(d, req, sizeof(*req),
				      "the request of pi_cl_fs_wait"))
		return -1;
	if (req->dfz_magic != FS_MAGIC) {
		dfz__dropin_fail(d, DFZ_CLASS_HANDLE_STALE, "pi_cl_fs_wait on "
				 "a request no pi_cl_fs_read issued, or one "
				 "already waited");
		return -1;
	}
	req->dfz_magic = 0;
	return req->result;
}
