/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz drop-in for the GreenWaves AutoTiler's target API (gap_sdk
 * tools/autotiler_v3/Emulation/at_api_pmsis.h): the macros that
 * AutoTiler-generated kernel files call for their DMA, allocation, forks
 * and core queries, each expanding to the drop-in's PMSIS names as the
 * SDK's PMSIS definitions expand to the SDK's.
 *
 * - AT_L2_COPY / AT_L2_COPY2D / AT_L2_WAIT: pi_cl_dma_cmd, _2d and
 *   pi_cl_dma_cmd_wait on an AT_L2_EVENT (a pi_cl_dma_cmd_t), direction
 *   inverted (AT_L2_EXT2LOC is 0, PI_CL_DMA_DIR_EXT2LOC is 1). As the
 *   SDK's, each expansion ends in its own semicolon.
 * - AT_L2_COPY_MERGED: a command pushed on the transfer id of the command
 *   before it, covered by that command's wait (newer AutoTiler output;
 *   the SDK that defines it is not public: the drop-in follows what the
 *   generated code relies on).
 * - AT_{DEFAULTRAM,HYPERRAM,QSPIRAM,OSPIRAM}_CL_COPY / _CL_COPY2D /
 *   _CL_WAIT: pi_cl_ram_copy, pi_cl_ram_copy_2d and pi_cl_ram_copy_wait on
 *   an AT_*_CL_EVENT (a pi_cl_ram_req_t); every RAM is the model's L3. The
 *   fabric controller's side (_FC_COPY, _OPEN, _CONF_INIT) expands to the
 *   PMSIS names the SDK uses (pi_ram_copy_async, pi_open_from_conf, ...).
 * - AT_*_ALLOC / _FREE: L3 blocks (a first block at address 0 is taken
 *   again, as the SDK does), pmsis_l2_malloc, pmsis_l1_malloc.
 * - AT_FORK / AT_FORK_CC / AT_FORK_WAIT / AT_FORK_ASYNC: pi_cl_team_fork
 *   and pi_cl_team_barrier. Built with __EMUL__ (the SDK's host emulation
 *   of Gap.h and GapBuiltins.h, which the kernel libraries need) the
 *   fork macros are empty, as the SDK's at_api_emul.h pairs them with its
 *   __CALL, which then runs the kernel on the calling core.
 * - AT_COREID / AT_CLUSTERID / AT_NCORE: the drop-in's core id, cluster
 *   0, the cluster's cores (0, 0, 1 under __EMUL__).
 * - AT_{DEFAULT,HYPER,QSPI,OSPI,EMRAM}FLASH_FS_*: a read-only file of the
 *   host (the constants image the generated Construct opens by name, read
 *   from the working directory) loaded into an L3 block; the cluster's
 *   copies from it are RAM copies from that block.
 * - L2_MEM, L1_CL_MEM, __CALL, gap_ncore(), gap_coreid(), AT_MEM_TYPE and
 *   the AT_*_ERROR codes, which generated files use from headers the SDK
 *   keeps elsewhere (see below).
 * Flash copies outside a file system (AT_*FLASH_COPY) are not modelled:
 * left undefined, code that uses them does not compile.
 */
#ifndef DMAFUZZ_DROPIN_AT_API_PMSIS_H
#define DMAFUZZ_DROPIN_AT_API_PMSIS_H

#include <stdint.h>

#include "dmafuzz/dropin/pmsis.h"
#include "dmafuzz/dropin/bsp/ram.h"
/* The SDK's at_api_pmsis.h includes the BSP's device headers, for the
 * RAM configurations: the drop-in's, where it has them. */
#if defined(__has_include)
#if __has_include("bsp/bsp.h")
#include "bsp/bsp.h"
#endif
#if __has_include("bsp/ram/hyperram.h")
#include "bsp/ram/hyperram.h"
#endif
#if __has_include("bsp/ram/spiram.h")
#include "bsp/ram/spiram.h"
#endif
#endif

/* --------------------------------------- what generated files also use */

/* The memories of a graph (its *CNN_Memory(AT_MEM_TYPE) query) and the
 * codes its Construct returns: newer AutoTiler output, whose SDK is not
 * public; the values are the drop-in's. */
typedef enum {
	AT_L1_MEM,
	AT_L2_MEM,
	AT_L2_DYN_MEM,
	AT_L3_MEM,
	AT_L3_DYN_MEM,
} AT_MEM_TYPE;

#define AT_NO_ERROR 0
#define AT_L1_OPEN_ERROR 1
#define AT_L2_OPEN_ERROR 2
#define AT_RAM_OPEN_ERROR 3
#define AT_FLASH_OPEN_ERROR 4

/*
 * Placement of the graph's memory pointers, the kernel call and the core
 * queries, which generated files take from the SDK's Gap headers: each
 * defined only when not yet, and then as the SDK's host emulation
 * (GapSystem.h under __EMUL__) defines it, so that those headers, read
 * after this one, redefine them identically.
 */
#ifndef L2_MEM
#define L2_MEM
#endif
#ifndef L1_CL_MEM
#define L1_CL_MEM
#endif
#ifdef __EMUL__
#ifndef __CALL
#define __CALL(Entry, Arg)	Entry((Arg))
#endif
#ifndef gap_ncore
#define gap_ncore() 1
#endif
#ifndef gap_coreid
#define gap_coreid() 0
#endif
#else
#ifndef __CALL
#define __CALL(Entry, Arg)
#endif
#ifndef gap_ncore
#define gap_ncore() pi_cl_cluster_nb_cores()
#endif
#ifndef gap_coreid
#define gap_coreid() pi_core_id()
#endif
#endif

/* ---------------------------------------------------------------- cores */

#ifdef __EMUL__
#define AT_COREID() 0
#define AT_CLUSTERID() 0
#define AT_NCORE() 1
#else
#define AT_COREID() pi_core_id()
#define AT_CLUSTERID() 0
#define AT_NCORE() pi_cl_cluster_nb_cores()
#endif

/* ----------------------------------------------------------- allocators */

uint32_t dfz_dropin_at_ram_alloc(struct dfz_site s, uint32_t size);
void dfz_dropin_at_ram_free(struct dfz_site s, uint32_t addr, uint32_t size);

#define AT_DEFAULTRAM_ALLOC(dev, size)                                        \
	((void)(dev), dfz_dropin_at_ram_alloc(DFZ_SITE, (uint32_t)(size)))
#define AT_DEFAULTRAM_FREE(dev, ptr, size)                                    \
	((void)(dev), dfz_dropin_at_ram_free(DFZ_SITE,                        \
					     (uint32_t)(uintptr_t)(ptr),      \
					     (uint32_t)(size)))
#define AT_HYPERRAM_ALLOC(dev, size) AT_DEFAULTRAM_ALLOC(dev, size)
#define AT_HYPERRAM_FREE(dev, ptr, size) AT_DEFAULTRAM_FREE(dev, ptr, size)
#define AT_QSPIRAM_ALLOC(dev, size) AT_DEFAULTRAM_ALLOC(dev, size)
#define AT_QSPIRAM_FREE(dev, ptr, size) AT_DEFAULTRAM_FREE(dev, ptr, size)
#define AT_OSPIRAM_ALLOC(dev, size) AT_DEFAULTRAM_ALLOC(dev, size)
#define AT_OSPIRAM_FREE(dev, ptr, size) AT_DEFAULTRAM_FREE(dev, ptr, size)
#define AT_L2_ALLOC(dev, size) pmsis_l2_malloc(size)
#define AT_L2_FREE(dev, ptr, size) pmsis_l2_malloc_free((ptr), (size))
#define AT_L1_ALLOC(dev, size) pmsis_l1_malloc(size)
#define AT_L1_FREE(dev, ptr, size) pmsis_l1_malloc_free((ptr), (size))

/* ------------------------------------------------------- external RAMs */

/*
 * DFZ__AT_RAM(P, conf, conf_init) - one RAM family's types and macros,
 * as the SDK writes them for each of DEFAULTRAM, HYPERRAM, QSPIRAM and
 * OSPIRAM: the cluster copies on pi_cl_ram_copy(_2d) with the direction
 * inverted, the fabric controller's on pi_ram_copy(_2d)_async.
 */
struct pi_task;

#define DFZ__AT_RAM_TYPES(P, conf)                                            \
	typedef struct conf P##_CONF_T;                                       \
	typedef struct pi_device P##_T;                                       \
	typedef uint32_t P##_EXT_ADDR_TYPE;                                   \
	typedef void *P##_LOC_ADDR_TYPE;                                      \
	typedef struct pi_task P##_FC_EVENT;                                  \
	typedef pi_cl_ram_req_t P##_CL_EVENT;                                 \
	typedef uint32_t P##_POINTER;                                         \
	typedef char *P##_INT_ADDR_TYPE;

DFZ__AT_RAM_TYPES(AT_DEFAULTRAM, pi_default_ram_conf)
DFZ__AT_RAM_TYPES(AT_HYPERRAM, pi_hyperram_conf)
DFZ__AT_RAM_TYPES(AT_QSPIRAM, pi_spiram_conf)
DFZ__AT_RAM_TYPES(AT_OSPIRAM, pi_aps25xxxn_conf)

#define AT_SPIRAM_TYPE 0
#define AT_QSPIRAM_TYPE 0
#define AT_OSPIRAM_TYPE 0

/* Addresses as the SDK casts them, through uintptr_t: an integer or a
 * pointer compiles on a 64-bit host too. */
#define DFZ__AT_EXT(a) ((uint32_t)(uintptr_t)(a))
#define DFZ__AT_LOC(a) ((void *)(uintptr_t)(a))

#define DFZ__AT_CL_COPY(dev, ext, loc, size, dir, event)                      \
	pi_cl_ram_copy((dev), DFZ__AT_EXT(ext), DFZ__AT_LOC(loc), (size),     \
		       !(dir), (event))
#define DFZ__AT_CL_COPY2D(dev, ext, loc, size, stride, len, dir, event)       \
	pi_cl_ram_copy_2d((dev), DFZ__AT_EXT(ext), DFZ__AT_LOC(loc), (size),  \
			  (stride), (len), !(dir), (event))
#define DFZ__AT_FC_COPY(dev, ext, loc, size, dir, event)                      \
	pi_ram_copy_async((dev), DFZ__AT_EXT(ext), DFZ__AT_LOC(loc), (size),  \
			  !(dir), pi_task_block(event))
#define DFZ__AT_FC_COPY2D(dev, ext, loc, size, stride, len, dir, event)       \
	pi_ram_copy_2d_async((dev), DFZ__AT_EXT(ext), DFZ__AT_LOC(loc),       \
			     (size), (stride), (len), !(dir),                 \
			     pi_task_block(event))
#define DFZ__AT_OPEN(dev, conf, err)                                          \
	do {                                                                  \
		pi_open_from_conf((dev), (conf));                             \
		*(err) = pi_ram_open(dev);                                    \
	} while (0)

#define AT_DEFAULTRAM_EXT2LOC 0
#define AT_DEFAULTRAM_LOC2EXT 1
#define AT_DEFAULTRAM_CONF_INIT(dev, type, name) pi_default_ram_conf_init(dev)
#define AT_DEFAULTRAM_OPEN(dev, conf, err) DFZ__AT_OPEN(dev, conf, err)
#define AT_DEFAULTRAM_CLOSE(dev) pi_ram_close(dev)
#define AT_DEFAULTRAM_FC_COPY DFZ__AT_FC_COPY
#define AT_DEFAULTRAM_FC_COPY2D DFZ__AT_FC_COPY2D
#define AT_DEFAULTRAM_FC_WAIT(dev, event) pi_task_wait_on(event)
#define AT_DEFAULTRAM_CL_COPY DFZ__AT_CL_COPY
#define AT_DEFAULTRAM_CL_COPY2D DFZ__AT_CL_COPY2D
#define AT_DEFAULTRAM_CL_WAIT(dev, event) pi_cl_ram_copy_wait(event)

#define AT_HYPERRAM_EXT2LOC 0
#define AT_HYPERRAM_LOC2EXT 1
#define AT_HYPERRAM_CONF_INIT(dev, type, name) pi_hyperram_conf_init(dev)
#define AT_HYPERRAM_OPEN(dev, conf, err) DFZ__AT_OPEN(dev, conf, err)
#define AT_HYPERRAM_CLOSE(dev) pi_ram_close(dev)
#define AT_HYPERRAM_FC_COPY DFZ__AT_FC_COPY
#define AT_HYPERRAM_FC_COPY2D DFZ__AT_FC_COPY2D
#define AT_HYPERRAM_FC_WAIT(dev, event) pi_task_wait_on(event)
#define AT_HYPERRAM_CL_COPY DFZ__AT_CL_COPY
#define AT_HYPERRAM_CL_COPY2D DFZ__AT_CL_COPY2D
#define AT_HYPERRAM_CL_WAIT(dev, event) pi_cl_ram_copy_wait(event)

#define AT_QSPIRAM_EXT2LOC 0
#define AT_QSPIRAM_LOC2EXT 1
#define AT_QSPIRAM_CONF_INIT(dev, type, name) pi_spiram_conf_init(dev)
#define AT_QSPIRAM_OPEN(dev, conf, err) DFZ__AT_OPEN(dev, conf, err)
#define AT_QSPIRAM_CLOSE(dev) pi_ram_close(dev)
#define AT_QSPIRAM_FC_COPY DFZ__AT_FC_COPY
#define AT_QSPIRAM_FC_COPY2D DFZ__AT_FC_COPY2D
#define AT_QSPIRAM_FC_WAIT(dev, event) pi_task_wait_on(event)
#define AT_QSPIRAM_CL_COPY DFZ__AT_CL_COPY
#define AT_QSPIRAM_CL_COPY2D DFZ__AT_CL_COPY2D
#define AT_QSPIRAM_CL_WAIT(dev, event) pi_cl_ram_copy_wait(event)

#define AT_OSPIRAM_EXT2LOC 0
#define AT_OSPIRAM_LOC2EXT 1
#define AT_OSPIRAM_CONF_INIT(dev, type, name) pi_aps25xxxn_conf_init(dev)
#define AT_OSPIRAM_OPEN(dev, conf, err) DFZ__AT_OPEN(dev, conf, err)
#define AT_OSPIRAM_CLOSE(dev) pi_ram_close(dev)
#define AT_OSPIRAM_FC_COPY DFZ__AT_FC_COPY
#define AT_OSPIRAM_FC_COPY2D DFZ__AT_FC_COPY2D
#define AT_OSPIRAM_FC_WAIT(dev, event) pi_task_wait_on(event)
#define AT_OSPIRAM_CL_COPY DFZ__AT_CL_COPY
#define AT_OSPIRAM_CL_COPY2D DFZ__AT_CL_COPY2D
#define AT_OSPIRAM_CL_WAIT(dev, event) pi_cl_ram_copy_wait(event)

/* ------------------------------------------------------------- flashes */

/*
 * A flash file system's file, read-only: the host file the generated
 * Construct names, loaded into an L3 block when it is opened. The
 * cluster's copies from it are RAM copies from that block (dir as the
 * AutoTiler's: 0 is flash to chip). Opening for writing is refused
 * (*err = -1): writable flash files are not modelled.
 */
struct dfz_at_flash_fs {
	struct pi_device dev;
	uint32_t base;                   /* the file's L3 block */
	uint32_t size;                   /* its bytes; 0: not open */
};

struct dfz_at_flash_fs_conf {
	int mem;                         /* the AT_MEM_L3_* it was made for */
};

int dfz_dropin_at_flash_open(struct dfz_site s, struct dfz_at_flash_fs *fs,
			     const char *name, int write);
void dfz_dropin_at_flash_close(struct dfz_site s, struct dfz_at_flash_fs *fs);
uint32_t dfz_dropin_at_flash_addr(struct dfz_site s,
				  struct dfz_at_flash_fs *fs, uint32_t off,
				  uint32_t size);

#define DFZ__AT_FLASH_TYPES(P)                                                \
	typedef struct dfz_at_flash_fs_conf P##_CONF_T;                       \
	typedef struct pi_device P##_T;                                       \
	typedef uint32_t P##_EXT_ADDR_TYPE;                                   \
	typedef void *P##_LOC_ADDR_TYPE;                                      \
	typedef pi_cl_ram_req_t P##_EVENT;                                    \
	typedef struct dfz_at_flash_fs_conf P##_FS_CONF_T;                    \
	typedef struct dfz_at_flash_fs P##_FS_T;                              \
	typedef unsigned int P##_FS_EXT_ADDR_TYPE;                            \
	typedef void *P##_FS_INT_ADDR_TYPE;                                   \
	typedef struct pi_task P##_FS_FC_EVENT;                               \
	typedef pi_cl_ram_req_t P##_FS_CL_EVENT;

DFZ__AT_FLASH_TYPES(AT_DEFAULTFLASH)
DFZ__AT_FLASH_TYPES(AT_HYPERFLASH)
DFZ__AT_FLASH_TYPES(AT_QSPIFLASH)
DFZ__AT_FLASH_TYPES(AT_OSPIFLASH)
DFZ__AT_FLASH_TYPES(AT_EMRAMFLASH)

#define AT_DEFAULTFLASH_TYPE 1
#define AT_HYPERFLASH_TYPE 1
#define AT_QSPIFLASH_TYPE 1
#define AT_OSPIFLASH_TYPE 1
#define AT_EMRAMFLASH_TYPE 1
#define AT_DEFAULTFLASH_FS_TYPE 1
#define AT_HYPERFLASH_FS_TYPE 1
#define AT_QSPIFLASH_FS_TYPE 1
#define AT_OSPIFLASH_FS_TYPE 1
#define AT_EMRAMFLASH_FS_TYPE 1

#define DFZ__AT_FS_CL_COPY(fs, ext, loc, size, dir, event)                    \
	pi_cl_ram_copy(&(fs)->dev,                                             \
		       dfz_dropin_at_flash_addr(DFZ_SITE, (fs), DFZ__AT_EXT(ext), \
						(uint32_t)(size)),            \
		       DFZ__AT_LOC(loc), (size), !(dir), (event))
#define DFZ__AT_FS_CL_COPY2D(fs, ext, loc, size, stride, len, dir, event)     \
	pi_cl_ram_copy_2d(&(fs)->dev,                                          \
			  dfz_dropin_at_flash_addr(DFZ_SITE, (fs),            \
						   DFZ__AT_EXT(ext),          \
						   (uint32_t)(size)),         \
			  DFZ__AT_LOC(loc), (size), (stride), (len), !(dir),  \
			  (event))
/* QSPI, OctoSPI and MRAM file systems: a 2-D copy with a device too. */
#define DFZ__AT_FS_CL_COPY2D_DEV(fs, dev, ext, loc, size, stride, len, dir,   \
				 event)                                       \
	((void)(dev), DFZ__AT_FS_CL_COPY2D(fs, ext, loc, size, stride, len,  \
					   dir, event))
#define DFZ__AT_FS_OPEN(fs, conf, name, err, write)                           \
	((void)(conf),                                                        \
	 *(err) = dfz_dropin_at_flash_open(DFZ_SITE, (fs), (name), (write)))

#define AT_DEFAULTFLASH_FS_EXT2LOC 0
#define AT_DEFAULTFLASH_FS_LOC2EXT 1
#define AT_DEFAULTFLASH_FS_CONF_INIT(conf, mem_type, name)                    \
	((void)(name), (conf)->mem = (int)(mem_type))
/* (fs, conf, name, err) in the public SDK; newer output passes one more
 * argument before the name (0 in the files seen), which is ignored. */
#define DFZ__AT_PICK5(a, b, c, d, e, name, ...) name
#define DFZ__AT_FS_OPEN4(fs, conf, name, err)                                 \
	DFZ__AT_FS_OPEN(fs, conf, name, err, 0)
#define DFZ__AT_FS_OPEN5(fs, conf, x, name, err)                              \
	((void)(x), DFZ__AT_FS_OPEN(fs, conf, name, err, 0))
#define DFZ__AT_FS_OPENW4(fs, conf, name, err)                                \
	DFZ__AT_FS_OPEN(fs, conf, name, err, 1)
#define DFZ__AT_FS_OPENW5(fs, conf, x, name, err)                             \
	((void)(x), DFZ__AT_FS_OPEN(fs, conf, name, err, 1))
#define AT_DEFAULTFLASH_FS_OPEN(...)                                          \
	DFZ__AT_PICK5(__VA_ARGS__, DFZ__AT_FS_OPEN5, DFZ__AT_FS_OPEN4, _,    \
		      _, _)(__VA_ARGS__)
#define AT_DEFAULTFLASH_FS_OPEN_WRITE(...)                                    \
	DFZ__AT_PICK5(__VA_ARGS__, DFZ__AT_FS_OPENW5, DFZ__AT_FS_OPENW4, _,  \
		      _, _)(__VA_ARGS__)
#define AT_DEFAULTFLASH_FS_OPEN_SET_SIZE(fs, size) ((void)(fs), (void)(size))
#define AT_DEFAULTFLASH_FS_CLOSE(fs) dfz_dropin_at_flash_close(DFZ_SITE, (fs))
#define AT_DEFAULTFLASH_FS_CL_COPY DFZ__AT_FS_CL_COPY
#define AT_DEFAULTFLASH_FS_CL_COPY2D DFZ__AT_FS_CL_COPY2D
#define AT_DEFAULTFLASH_FS_CL_WAIT(fs, event) pi_cl_ram_copy_wait(event)

#define AT_HYPERFLASH_FS_EXT2LOC 0
#define AT_HYPERFLASH_FS_LOC2EXT 1
#define AT_HYPERFLASH_FS_CONF_INIT AT_DEFAULTFLASH_FS_CONF_INIT
#define AT_HYPERFLASH_FS_OPEN AT_DEFAULTFLASH_FS_OPEN
#define AT_HYPERFLASH_FS_OPEN_WRITE AT_DEFAULTFLASH_FS_OPEN_WRITE
#define AT_HYPERFLASH_FS_OPEN_SET_SIZE AT_DEFAULTFLASH_FS_OPEN_SET_SIZE
#define AT_HYPERFLASH_FS_CLOSE AT_DEFAULTFLASH_FS_CLOSE
#define AT_HYPERFLASH_FS_CL_COPY DFZ__AT_FS_CL_COPY
#define AT_HYPERFLASH_FS_CL_COPY2D DFZ__AT_FS_CL_COPY2D
#define AT_HYPERFLASH_FS_CL_WAIT AT_DEFAULTFLASH_FS_CL_WAIT

#define AT_QSPIFLASH_FS_EXT2LOC 0
#define AT_QSPIFLASH_FS_LOC2EXT 1
#define AT_QSPIFLASH_FS_CONF_INIT AT_DEFAULTFLASH_FS_CONF_INIT
#define AT_QSPIFLASH_FS_OPEN AT_DEFAULTFLASH_FS_OPEN
#define AT_QSPIFLASH_FS_OPEN_WRITE AT_DEFAULTFLASH_FS_OPEN_WRITE
#define AT_QSPIFLASH_FS_OPEN_SET_SIZE AT_DEFAULTFLASH_FS_OPEN_SET_SIZE
#define AT_QSPIFLASH_FS_CLOSE AT_DEFAULTFLASH_FS_CLOSE
#define AT_QSPIFLASH_FS_CL_COPY DFZ__AT_FS_CL_COPY
#define AT_QSPIFLASH_FS_CL_COPY2D DFZ__AT_FS_CL_COPY2D_DEV
#define AT_QSPIFLASH_FS_CL_WAIT AT_DEFAULTFLASH_FS_CL_WAIT

#define AT_OSPIFLASH_FS_EXT2LOC 0
#define AT_OSPIFLASH_FS_LOC2EXT 1
#define AT_OSPIFLASH_FS_CONF_INIT AT_DEFAULTFLASH_FS_CONF_INIT
#define AT_OSPIFLASH_FS_OPEN AT_DEFAULTFLASH_FS_OPEN
#define AT_OSPIFLASH_FS_OPEN_WRITE AT_DEFAULTFLASH_FS_OPEN_WRITE
#define AT_OSPIFLASH_FS_OPEN_SET_SIZE AT_DEFAULTFLASH_FS_OPEN_SET_SIZE
#define AT_OSPIFLASH_FS_CLOSE AT_DEFAULTFLASH_FS_CLOSE
#define AT_OSPIFLASH_FS_CL_COPY DFZ__AT_FS_CL_COPY
#define AT_OSPIFLASH_FS_CL_COPY2D DFZ__AT_FS_CL_COPY2D_DEV
#define AT_OSPIFLASH_FS_CL_WAIT AT_DEFAULTFLASH_FS_CL_WAIT

#define AT_EMRAMFLASH_FS_EXT2LOC 0
#define AT_EMRAMFLASH_FS_LOC2EXT 1
#define AT_EMRAMFLASH_FS_CONF_INIT AT_DEFAULTFLASH_FS_CONF_INIT
#define AT_EMRAMFLASH_FS_OPEN AT_DEFAULTFLASH_FS_OPEN
#define AT_EMRAMFLASH_FS_OPEN_WRITE AT_DEFAULTFLASH_FS_OPEN_WRITE
#define AT_EMRAMFLASH_FS_OPEN_SET_SIZE AT_DEFAULTFLASH_FS_OPEN_SET_SIZE
#define AT_EMRAMFLASH_FS_CLOSE AT_DEFAULTFLASH_FS_CLOSE
#define AT_EMRAMFLASH_FS_CL_COPY DFZ__AT_FS_CL_COPY
#define AT_EMRAMFLASH_FS_CL_COPY2D DFZ__AT_FS_CL_COPY2D_DEV
#define AT_EMRAMFLASH_FS_CL_WAIT AT_DEFAULTFLASH_FS_CL_WAIT

/* ------------------------------------------------------ the cluster DMA */

typedef pi_cl_dma_cmd_t AT_L2_EVENT;
typedef uint32_t AT_L2_EXT_ADDR_TYPE;
typedef uint32_t AT_L2_LOC_ADDR_TYPE;
typedef char *AT_L2_POINTER;
typedef char *AT_L1_POINTER;
typedef char *AT_L2_INT_ADDR_TYPE;

#define AT_L2_EXT2LOC 0
#define AT_L2_LOC2EXT 1

#define AT_L2_COPY(dev, ext, loc, size, dir, event)                           \
	pi_cl_dma_cmd(DFZ__AT_EXT(ext), DFZ__AT_EXT(loc), (size),             \
		      (pi_cl_dma_dir_e)!(dir), (event));
#define AT_L2_COPY2D(dev, ext, loc, size, stride, length, dir, event)         \
	pi_cl_dma_cmd_2d(DFZ__AT_EXT(ext), DFZ__AT_EXT(loc), (size),          \
			 (stride), (length), (pi_cl_dma_dir_e)!(dir),         \
			 (event));
#define AT_L2_WAIT(dev, event) pi_cl_dma_cmd_wait(event);
/* The event argument is unused: generated code passes 0. */
#define AT_L2_COPY_MERGED(dev, ext, loc, size, dir, event)                    \
	dfz_dropin_cl_dma_merge(DFZ_SITE, DFZ__AT_EXT(ext), DFZ__AT_EXT(loc), \
				(size), 0, 0, 0, (pi_cl_dma_dir_e)!(dir));

/* ----------------------------------------------------------------- team */

typedef void (*AT_FORK_FUN_TYPE)(void *);
typedef void *AT_FORK_ARG_TYPE;

#ifdef __EMUL__
#define AT_FORK(nb_cores, entry, arg) ((void)0)
#define AT_FORK_CC(nb_cores, entry, arg) ((void)0)
#define AT_FORK_WAIT() ((void)0)
#define AT_FORK_ASYNC(nb_cores, entry, arg) ((void)0)
#else
#define AT_FORK(nb_cores, entry, arg)                                         \
	pi_cl_team_fork((nb_cores), (AT_FORK_FUN_TYPE)(entry),                \
			(AT_FORK_ARG_TYPE)(arg))
/* The cluster controller joins the team on GAP9: one team here. */
#define AT_FORK_CC(nb_cores, entry, arg) AT_FORK(nb_cores, entry, arg)
#define AT_FORK_WAIT() pi_cl_team_barrier()
/* The team runs to its end inside the call: the overlap of the master's
 * code with an offloaded team is not modelled. */
#define AT_FORK_ASYNC(nb_cores, entry, arg) AT_FORK(nb_cores, entry, arg)
#endif
#define AT_FORK_ASYNC_WAIT() ((void)0)
#define AT_YIELD() ((void)0)

#endif /* DMAFUZZ_DROPIN_AT_API_PMSIS_H */
