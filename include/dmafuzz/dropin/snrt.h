/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz drop-in for the Snitch cluster runtime (snitch_cluster
 * sw/snRuntime: dma.h, team.h, sync.h, alloc.h): the cluster DMA
 * (snrt_dma_*) on dmafuzz's idma engine, the core queries, the hardware
 * barrier and the allocators, for SPMD code: every core of the cluster (8
 * compute cores and one data-mover core, the last) runs the same function,
 * started by dfz_snrt_spmd() from a test body.
 *
 * The wait follows the runtime version the quirks name: snrt-pinned (the
 * default, the commit Deeploy pins) spins until the completed count is
 * above the id, and a size-0 start issues nothing and returns -1;
 * snrt-head waits for the count to reach the id and issues a size-0
 * start. The hardware retires transfers in order, or with
 * idma-zero-work-retires a transfer without work as it is accepted.
 *
 * Memory: L1 (the TCDM) at 0x10000000. The cluster's main memory (Snitch
 * calls it L3: DRAM the cores and the DMA both address) is the model's
 * L2 window at 0x1C000000, which snrt_l3alloc() allocates from.
 */
#ifndef DMAFUZZ_DROPIN_SNRT_H
#define DMAFUZZ_DROPIN_SNRT_H

#include <stddef.h>
#include <stdint.h>

#include "dmafuzz/dropin.h"

#define DFZ_SNRT_COMPUTE_CORES 8
#define DFZ_SNRT_CORES (DFZ_SNRT_COMPUTE_CORES + 1)

typedef uint32_t snrt_dma_txid_t;

snrt_dma_txid_t dfz_dropin_snrt_start(struct dfz_site s, uintptr_t dst,
				      uintptr_t src, size_t size,
				      size_t dst_stride, size_t src_stride,
				      size_t repeat, int is_2d,
				      uint32_t channel);
void dfz_dropin_snrt_wait(struct dfz_site s, snrt_dma_txid_t tid);
void dfz_dropin_snrt_wait_all(struct dfz_site s);
void dfz_dropin_snrt_barrier(struct dfz_site s);
uint32_t dfz_dropin_snrt_core_idx(void);
void *dfz_dropin_snrt_alloc(struct dfz_site s, int level, size_t size);
void dfz_dropin_spmd(struct dfz_site s, void (*fn)(void *), void *arg);

/*
 * The starts take 6 arguments (2-D) or 3 (1-D), and a channel after them
 * as the later runtime does; each address is a pointer or an integer.
 */
#define DFZ__SNRT_2D(dst, src, size, dst_stride, src_stride, repeat, ch, ...) \
	dfz_dropin_snrt_start(DFZ_SITE, (uintptr_t)(dst), (uintptr_t)(src),   \
			      (size), (dst_stride), (src_stride), (repeat), 1, \
			      (uint32_t)(ch))
#define DFZ__SNRT_1D(dst, src, size, ch, ...)                                 \
	dfz_dropin_snrt_start(DFZ_SITE, (uintptr_t)(dst), (uintptr_t)(src),   \
			      (size), (size), (size), 1, 0, (uint32_t)(ch))
#define snrt_dma_start_2d(...) DFZ__SNRT_2D(__VA_ARGS__, 0, 0)
#define snrt_dma_start_1d(...) DFZ__SNRT_1D(__VA_ARGS__, 0, 0)
#define snrt_dma_start_2d_wideptr(...) DFZ__SNRT_2D(__VA_ARGS__, 0, 0)
#define snrt_dma_start_1d_wideptr(...) DFZ__SNRT_1D(__VA_ARGS__, 0, 0)
#define snrt_dma_wait(tid) dfz_dropin_snrt_wait(DFZ_SITE, (tid))
#define snrt_dma_wait_all() dfz_dropin_snrt_wait_all(DFZ_SITE)

/* Cores: ids 0..7 compute, 8 the data mover; one cluster. */
static inline uint32_t snrt_cluster_core_idx(void)
{
	return dfz_dropin_snrt_core_idx();
}
static inline uint32_t snrt_cluster_core_num(void)
{
	return DFZ_SNRT_CORES;
}
static inline uint32_t snrt_cluster_compute_core_num(void)
{
	return DFZ_SNRT_COMPUTE_CORES;
}
static inline uint32_t snrt_cluster_dm_core_num(void)
{
	return 1;
}
static inline uint32_t snrt_cluster_idx(void)
{
	return 0;
}
static inline uint32_t snrt_cluster_num(void)
{
	return 1;
}
static inline uint32_t snrt_global_core_idx(void)
{
	return dfz_dropin_snrt_core_idx();
}
static inline uint32_t snrt_global_core_num(void)
{
	return DFZ_SNRT_CORES;
}
static inline int snrt_is_dm_core(void)
{
	return dfz_dropin_snrt_core_idx() == DFZ_SNRT_COMPUTE_CORES;
}
static inline int snrt_is_compute_core(void)
{
	return dfz_dropin_snrt_core_idx() < DFZ_SNRT_COMPUTE_CORES;
}

#define snrt_cluster_hw_barrier() dfz_dropin_snrt_barrier(DFZ_SITE)

/* Allocators: L1 (TCDM) and the cluster's main memory, never freed. */
#define snrt_l1alloc(size) dfz_dropin_snrt_alloc(DFZ_SITE, DFZ_L1, (size))
#define snrt_l3alloc(size) dfz_dropin_snrt_alloc(DFZ_SITE, DFZ_L2, (size))

/* The SPMD runner (not an SDK name): @fn(@arg) on all 9 cores. */
#define dfz_snrt_spmd(fn, arg) dfz_dropin_spmd(DFZ_SITE, (fn), (arg))

#endif /* DMAFUZZ_DROPIN_SNRT_H */
