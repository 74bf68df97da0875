/* SPDX-License-Identifier: MIT */
/*
 * The declarations of Deeploy's memory helpers as Deeploy's own
 * dory_mem.h makes them (TargetLibraries/GAP9/inc/dory_mem.h: the same
 * guard, prototypes and the extern device), written here so that
 * defines_mem.c has a header of the user's to include first, as
 * Deeploy's dory_mem.c does.
 */
#ifndef __MEM_H__
#define __MEM_H__

#include <stddef.h>

extern struct pi_device ram;

void open_fs();
void mem_init();
struct pi_device *get_ram_ptr();
void *ram_malloc(size_t size);
void ram_free(void *ptr, size_t size);
void ram_read(void *dest, void *src, size_t size);
void ram_write(void *dest, void *src, size_t size);
void *cl_ram_malloc(size_t size);
void cl_ram_free(void *ptr, size_t size);
void cl_ram_read(void *dest, void *src, size_t size);
void cl_ram_write(void *dest, void *src, size_t size);

#endif // __MEM_H__
