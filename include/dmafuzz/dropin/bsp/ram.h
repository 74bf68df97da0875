/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz drop-in for the PMSIS BSP RAM API (pulp-sdk
 * rtos/pmsis/pmsis_bsp/include/bsp/ram.h, gap_sdk rtos/pmsis/bsp): the
 * cluster side (pi_cl_ram_copy and its 2-D, read and write forms, the
 * waits, the allocation requests), the fabric controller's side
 * (pi_ram_open, alloc, free, read, write, copy and their _async forms
 * with tasks) and Deeploy's helpers (get_ram_ptr, cl_ram_malloc, ...).
 * Each SDK name is a macro over a dfz_dropin_* function that also
 * receives the caller's file, line and function, and runs the call on
 * dmafuzz's ram engine: the caller's request struct (or the task's) is
 * the driver's own queue node, as on the chip.
 *
 * RAM addresses are 32-bit offsets into the model's L3 (what
 * pi_ram_alloc and cl_ram_malloc return); whichever RAM device a program
 * opens (HyperRAM, OctoSPI, SPI RAM), it is that one L3. Generated code
 * passes a void * there (Deeploy does): the macros cast through
 * uintptr_t, as the 32-bit SDK compiler tolerates.
 */
#ifndef DMAFUZZ_DROPIN_BSP_RAM_H
#define DMAFUZZ_DROPIN_BSP_RAM_H

#include "dmafuzz/dropin/pmsis.h"

/* The request: the ram engine's own node type (runtime.h), with the
 * members pulp-sdk's struct pi_cl_ram_req_s has and generated code touches
 * (addr, pi_ram_addr, size, stride, length, ext2loc, is_2d, done, next):
 * Deeploy's guards read and clear .size, older templates fill the rest. */
typedef struct dfz_ram_req pi_cl_ram_req_t;

void dfz_dropin_ram_copy(struct dfz_site s, struct pi_device *device,
			 uint32_t ram_addr, void *addr, uint32_t size,
			 uint32_t stride, uint32_t length, int ext2loc,
			 int is_2d, pi_cl_ram_req_t *req);
void dfz_dropin_ram_wait(struct dfz_site s, pi_cl_ram_req_t *req);
void *dfz_dropin_ram_malloc(struct dfz_site s, uint32_t size);
void dfz_dropin_ram_free(struct dfz_site s, void *ptr, uint32_t size);
struct pi_device *dfz_dropin_ram_device(void);

#define DFZ__RAM(a) ((uint32_t)(uintptr_t)(a))

#define pi_cl_ram_copy(dev, ram, addr, size, ext2loc, req)                    \
	dfz_dropin_ram_copy(DFZ_SITE, (dev), DFZ__RAM(ram), (addr), (size),  \
			    0, 0, (ext2loc), 0, (req))
#define pi_cl_ram_copy_2d(dev, ram, addr, size, stride, length, ext2loc, req) \
	dfz_dropin_ram_copy(DFZ_SITE, (dev), DFZ__RAM(ram), (addr), (size),  \
			    (stride), (length), (ext2loc), 1, (req))
#define pi_cl_ram_read(dev, ram, addr, size, req)                             \
	pi_cl_ram_copy((dev), (ram), (addr), (size), 1, (req))
#define pi_cl_ram_write(dev, ram, addr, size, req)                            \
	pi_cl_ram_copy((dev), (ram), (addr), (size), 0, (req))
#define pi_cl_ram_read_2d(dev, ram, addr, size, stride, length, req)          \
	pi_cl_ram_copy_2d((dev), (ram), (addr), (size), (stride), (length),  \
			  1, (req))
#define pi_cl_ram_write_2d(dev, ram, addr, size, stride, length, req)         \
	pi_cl_ram_copy_2d((dev), (ram), (addr), (size), (stride), (length),  \
			  0, (req))
#define pi_cl_ram_copy_wait(req) dfz_dropin_ram_wait(DFZ_SITE, (req))
#define pi_cl_ram_read_wait(req) dfz_dropin_ram_wait(DFZ_SITE, (req))
#define pi_cl_ram_write_wait(req) dfz_dropin_ram_wait(DFZ_SITE, (req))

/* ------------------------------------------ fabric-controller side */

/* The RAM device: its configuration (the first member of every RAM
 * conf, as pulp-sdk and gap_sdk lay them out), and the size query of
 * gap_sdk's PI_RAM_IOCTL_INFO. */
typedef struct __pi_ram_api_t pi_ram_api_t;

struct pi_ram_conf {
	pi_ram_api_t *api;
};

struct pi_ram_info {
	uint32_t size;
};

typedef enum {
	PI_RAM_IOCTL_INFO,
	PI_RAM_IOCTL_AES_ENABLE,
	PI_RAM_IOCTL_SET_MBA,
} pi_ram_ioctl_e;

int32_t dfz_dropin_ram_open(struct dfz_site s, struct pi_device *device,
			    int open);
int dfz_dropin_ram_alloc(struct dfz_site s, struct pi_device *device,
			 uint32_t *addr, uint32_t size);
int dfz_dropin_ram_dealloc(struct dfz_site s, struct pi_device *device,
			   uint32_t addr, uint32_t size);
void dfz_dropin_fc_ram_copy(struct dfz_site s, struct pi_device *device,
			    uint32_t ram_addr, void *data, uint32_t size,
			    uint32_t stride, uint32_t length, int ext2loc,
			    int is_2d, int async, pi_task_t *task);
int dfz_dropin_ram_ioctl(struct dfz_site s, struct pi_device *device,
			 uint32_t cmd, void *arg);

#define pi_ram_open(dev) dfz_dropin_ram_open(DFZ_SITE, (dev), 1)
#define pi_ram_close(dev) ((void)dfz_dropin_ram_open(DFZ_SITE, (dev), 0))
#define pi_ram_alloc(dev, addr, size)                                         \
	dfz_dropin_ram_alloc(DFZ_SITE, (dev), (addr), (uint32_t)(size))
#define pi_ram_free(dev, addr, size)                                          \
	dfz_dropin_ram_dealloc(DFZ_SITE, (dev), DFZ__RAM(addr),               \
			       (uint32_t)(size))
#define pi_ram_ioctl(dev, cmd, arg)                                           \
	dfz_dropin_ram_ioctl(DFZ_SITE, (dev), (uint32_t)(cmd), (arg))
/* The asynchronous copies: @task ends when the copy did (a blocking
 * task's wait returns, a callback task's callback runs at the next
 * pi_yield or wait). Without _async: the copy and its wait. */
#define pi_ram_copy_async(dev, ram, data, size, ext2loc, task)                \
	dfz_dropin_fc_ram_copy(DFZ_SITE, (dev), DFZ__RAM(ram), (void *)(data), \
			       (uint32_t)(size), 0, 0, (ext2loc), 0, 1, (task))
#define pi_ram_copy_2d_async(dev, ram, data, size, stride, length, ext2loc,   \
			     task)                                            \
	dfz_dropin_fc_ram_copy(DFZ_SITE, (dev), DFZ__RAM(ram), (void *)(data), \
			       (uint32_t)(size), (uint32_t)(stride),          \
			       (uint32_t)(length), (ext2loc), 1, 1, (task))
#define pi_ram_read_async(dev, ram, data, size, task)                         \
	pi_ram_copy_async(dev, ram, data, size, 1, task)
#define pi_ram_write_async(dev, ram, data, size, task)                        \
	pi_ram_copy_async(dev, ram, data, size, 0, task)
#define pi_ram_read_2d_async(dev, ram, data, size, stride, length, task)      \
	pi_ram_copy_2d_async(dev, ram, data, size, stride, length, 1, task)
#define pi_ram_write_2d_async(dev, ram, data, size, stride, length, task)     \
	pi_ram_copy_2d_async(dev, ram, data, size, stride, length, 0, task)
#define pi_ram_copy(dev, ram, data, size, ext2loc)                            \
	dfz_dropin_fc_ram_copy(DFZ_SITE, (dev), DFZ__RAM(ram), (void *)(data), \
			       (uint32_t)(size), 0, 0, (ext2loc), 0, 0, NULL)
#define pi_ram_copy_2d(dev, ram, data, size, stride, length, ext2loc)         \
	dfz_dropin_fc_ram_copy(DFZ_SITE, (dev), DFZ__RAM(ram), (void *)(data), \
			       (uint32_t)(size), (uint32_t)(stride),          \
			       (uint32_t)(length), (ext2loc), 1, 0, NULL)
#define pi_ram_read(dev, ram, data, size) pi_ram_copy(dev, ram, data, size, 1)
#define pi_ram_write(dev, ram, data, size) pi_ram_copy(dev, ram, data, size, 0)
#define pi_ram_read_2d(dev, ram, data, size, stride, length)                  \
	pi_ram_copy_2d(dev, ram, data, size, stride, length, 1)
#define pi_ram_write_2d(dev, ram, data, size, stride, length)                 \
	pi_ram_copy_2d(dev, ram, data, size, stride, length, 0)

/* ------------------------------------- cluster-side allocation requests */

/* As the SDKs lay them out; the drop-in serves a request at once (the
 * fabric controller's allocator answers before the wait), and its wait
 * hands back what it got. dfz_magic marks a request it served. */
typedef struct pi_cl_ram_alloc_req_s {
	struct pi_device *device;
	uint32_t result;
	uint32_t size;
	pi_task_t event;
	uint8_t done;
	char cid;
	char error;
	uint32_t dfz_magic;
} pi_cl_ram_alloc_req_t;

typedef struct pi_cl_ram_free_req_s {
	struct pi_device *device;
	uint32_t result;
	uint32_t size;
	uint32_t chunk;
	pi_task_t event;
	uint8_t done;
	char cid;
	char error;
	uint32_t dfz_magic;
} pi_cl_ram_free_req_t;

void dfz_dropin_cl_ram_alloc(struct dfz_site s, struct pi_device *device,
			     uint32_t size, pi_cl_ram_alloc_req_t *req);
void dfz_dropin_cl_ram_free(struct dfz_site s, struct pi_device *device,
			    uint32_t chunk, uint32_t size,
			    pi_cl_ram_free_req_t *req);
int32_t dfz_dropin_cl_ram_alloc_wait(struct dfz_site s,
				     pi_cl_ram_alloc_req_t *req,
				     uint32_t *addr);
int32_t dfz_dropin_cl_ram_free_wait(struct dfz_site s,
				    pi_cl_ram_free_req_t *req);

#define pi_cl_ram_alloc(dev, size, req)                                       \
	dfz_dropin_cl_ram_alloc(DFZ_SITE, (dev), (uint32_t)(size), (req))
#define pi_cl_ram_free(dev, chunk, size, req)                                 \
	dfz_dropin_cl_ram_free(DFZ_SITE, (dev), DFZ__RAM(chunk),              \
			       (uint32_t)(size), (req))
#define pi_cl_ram_alloc_wait(req, addr)                                       \
	dfz_dropin_cl_ram_alloc_wait(DFZ_SITE, (req), (addr))
#define pi_cl_ram_free_wait(req) dfz_dropin_cl_ram_free_wait(DFZ_SITE, (req))

/*
 * Deeploy's memory helpers (TargetLibraries/GAP9 and PULPOpen, dory_mem.h
 * and dory_mem.c): the user's own code in those trees, so they are plain
 * functions with exactly Deeploy's prototypes, not macros. A file that
 * defines them compiles, and its definitions win; a program that only
 * calls them gets the drop-in's (libdmafuzz-sdk.a, which the pkg-config
 * Libs link after the user's objects). The allocators hand out L3
 * addresses as void *; ram_read / ram_write and the cl_ forms are the
 * loader's view of L3 (the copy is over when the call returns, from or
 * into any memory): ram_read(dest, src, size) copies L3 @src to @dest.
 * A finding in one of them names the line that called it.
 */
struct pi_device *get_ram_ptr(void);
void *ram_malloc(size_t size);
void ram_free(void *ptr, size_t size);
void ram_read(void *dest, void *src, size_t size);
void ram_write(void *dest, void *src, size_t size);
void *cl_ram_malloc(size_t size);
void cl_ram_free(void *ptr, size_t size);
void cl_ram_read(void *dest, void *src, size_t size);
void cl_ram_write(void *dest, void *src, size_t size);
void mem_init(void);

/* What the SDK helpers above run on (the sdk archive calls these). */
void dfz_dropin_ram_load(struct dfz_site s, void *dest, const void *src,
			 size_t size, int to_l3);
struct dfz_site dfz_dropin_caller(const void *ret, const char *func);

#endif /* DMAFUZZ_DROPIN_BSP_RAM_H */
