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
 * Flash and file-system copies are not modelled: their macros are left
 * undefined, so code that uses them does not compile.
 */
#ifndef DMAFUZZ_DROPIN_AT_API_PMSIS_H
#define DMAFUZZ_DROPIN_AT_API_PMSIS_H

#include <stdint.h>

#include "dmafuzz/dropin/pmsis.h"
#include "dmafuzz/dropin/bsp/ram.h"

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
void dfz_dropin_at_ram_free(struct dfz_site s, uint32_t addr);

#define AT_DEFAULTRAM_ALLOC(dev, size)                                        \
	((void)(dev), dfz_dropin_at_ram_alloc(DFZ_SITE, (uint32_t)(size)))
#define AT_DEFAULTRAM_FREE(dev, ptr, size)                                    \
	((void)(dev), (void)(size),                                           \
	 dfz_dropin_at_ram_free(DFZ_SITE, (uint32_t)(uintptr_t)(ptr)))
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
