/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz drop-in for the PMSIS BSP RAM API, cluster side (pulp-sdk
 * rtos/pmsis/pmsis_bsp/include/bsp/ram.h): pi_cl_ram_copy and its 2-D,
 * read and write forms, the waits, and Deeploy's helpers cl_ram_malloc /
 * cl_ram_free / get_ram_ptr. Each name is a macro over a dfz_dropin_*
 * function that also receives the caller's file, line and function, and
 * runs the call on dmafuzz's ram engine: the caller's request struct is
 * the driver's own queue node, as on the chip.
 *
 * RAM addresses are 32-bit offsets into the model's L3 (what cl_ram_malloc
 * returns). Generated code passes a void * there (Deeploy does): the
 * macros cast through uintptr_t, as the 32-bit SDK compiler tolerates.
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

/*
 * Deeploy's PULPOpen memory helpers (TargetLibraries/PULPOpen, mem.h) over
 * the board's RAM device. The allocators hand out L3 addresses as void *;
 * the reads and writes are the fabric controller's blocking copies, which
 * the model performs at once (the loader's view of L3), as a test's set-up
 * and read-back need: ram_read(dest, src, size) copies L3 @src to @dest.
 */
void dfz_dropin_ram_load(struct dfz_site s, void *dest, const void *src,
			 size_t size, int to_l3);
#define cl_ram_malloc(size) dfz_dropin_ram_malloc(DFZ_SITE, (uint32_t)(size))
#define cl_ram_free(ptr, size)                                                \
	dfz_dropin_ram_free(DFZ_SITE, (void *)(uintptr_t)(ptr), (uint32_t)(size))
#define ram_malloc(size) cl_ram_malloc(size)
#define ram_free(ptr, size) cl_ram_free((ptr), (size))
#define ram_read(dest, src, size)                                             \
	dfz_dropin_ram_load(DFZ_SITE, (dest), (src), (size), 0)
#define ram_write(dest, src, size)                                            \
	dfz_dropin_ram_load(DFZ_SITE, (dest), (src), (size), 1)
#define cl_ram_read(dest, src, size) ram_read((dest), (src), (size))
#define cl_ram_write(dest, src, size) ram_write((dest), (src), (size))
#define get_ram_ptr() dfz_dropin_ram_device()

#endif /* DMAFUZZ_DROPIN_BSP_RAM_H */
