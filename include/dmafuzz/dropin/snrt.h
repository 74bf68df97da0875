/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz drop-in for the Snitch cluster runtime (snitch_cluster
 * sw/snRuntime at e02cc9e3, the commit Deeploy pins, and sw/runtime at
 * HEAD): the names its tests and kernels use. The cluster DMA (snrt_dma_*)
 * runs on dmafuzz's idma engine; the core queries, the barriers, the
 * allocators, the cycle and performance counters have host meanings; the
 * SSR streams, interrupts, the DM task queue and the OpenMP runtime are
 * refused, at run time, by a one-line message naming the call and its
 * line (exit 2). docs/porting/snitch.md has the table.
 *
 * SPMD: every core of the cluster (8 compute cores and one data-mover
 * core, the last) runs the same function, started by dfz_snrt_spmd()
 * from a test body.
 *
 * The wait follows the runtime version the quirks name: snrt-pinned (the
 * default, the commit Deeploy pins) spins until the completed count is
 * above the id, and a size-0 start issues nothing and returns -1;
 * snrt-head waits for the count to reach the id and issues a size-0
 * start. The hardware retires transfers in order, or with
 * idma-zero-work-retires a transfer without work as it is accepted.
 *
 * Memory: the TCDM heap the allocators and snrt_l1_next() hand out is one
 * block of the drop-in's L1 (at 0x10000000, up to 128 KiB, the default
 * cluster's TCDM), made at a run's first use; SNRT_TCDM_START_ADDR and
 * snrt_l1_start_addr() are its first byte. The cluster's main memory
 * (Snitch calls it L3: DRAM the cores and the DMA both address) is the
 * model's L2 window at 0x1C000000, where snrt_l3alloc() allocates.
 *
 * The HEAD runtime is C++ (default arguments, overloads); here each such
 * name is a variadic macro that takes every argument count the runtime
 * accepts. The HEAD runtime's types.h (precision_t, FP64.., v2f32) is user
 * code at the pin (the DNN kernels' dnn.h defines it), so it is given only
 * when the code defines DFZ_SNRT_HEAD before including this header.
 */
#ifndef DMAFUZZ_DROPIN_SNRT_H
#define DMAFUZZ_DROPIN_SNRT_H

#include <math.h>
#include <stdalign.h> /* HEAD's kernels (C++) write alignof */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>   /* the runtime's printf.h */
#include <string.h>

#include "dmafuzz/dropin.h"

#define DFZ_SNRT_COMPUTE_CORES 8
#define DFZ_SNRT_CORES (DFZ_SNRT_COMPUTE_CORES + 1)

/* ------------------------------------------------ configuration (cfg.h) */

#define SNRT_CLUSTER_NUM 1
#define SNRT_CLUSTER_CORE_NUM DFZ_SNRT_CORES
#define SNRT_CLUSTER_DM_CORE_NUM 1
#define SNRT_BASE_HARTID 0
#define SNRT_CLUSTER_OFFSET 0x40000
#define SNRT_TCDM_BANK_WIDTH 8
#define SNRT_TCDM_BANK_NUM 32
#define SNRT_TCDM_HYPERBANK_NUM 1
#define SNRT_TCDM_BANK_PER_HYPERBANK_NUM \
	(SNRT_TCDM_BANK_NUM / SNRT_TCDM_HYPERBANK_NUM)
#define SNRT_TCDM_HYPERBANK_WIDTH \
	(SNRT_TCDM_BANK_PER_HYPERBANK_NUM * SNRT_TCDM_BANK_WIDTH)
#define SNRT_TCDM_START_ADDR (dfz_dropin_snrt_tcdm(DFZ_SITE, 0))
#define SNRT_TCDM_SIZE (dfz_dropin_snrt_tcdm(DFZ_SITE, 1))
#define SNRT_TCDM_HYPERBANK_SIZE (SNRT_TCDM_SIZE / SNRT_TCDM_HYPERBANK_NUM)
#define SNRT_NUM_PERF_CNTS 16
/* The DMA is modelled; SSR, FREP, COPIFT, Xpulp and the narrow
 * collectives are not: SNRT_SUPPORTS_* of those stay undefined, so code
 * that tests them takes its plain-C path. */
#define SNRT_SUPPORTS_DMA

typedef uint32_t snrt_dma_txid_t;

/* ------------------------------------------------ the library's calls */

snrt_dma_txid_t dfz_dropin_snrt_start(struct dfz_site s, uintptr_t dst,
				      uintptr_t src, size_t size,
				      size_t dst_stride, size_t src_stride,
				      size_t repeat, int is_2d,
				      uint32_t channel);
void dfz_dropin_snrt_wait(struct dfz_site s, snrt_dma_txid_t tid);
void dfz_dropin_snrt_wait_all(struct dfz_site s);
void dfz_dropin_snrt_barrier(struct dfz_site s);
uint32_t dfz_dropin_snrt_core_idx(void);
void dfz_dropin_spmd(struct dfz_site s, void (*fn)(void *), void *arg);

/* The runtime's bump allocators (snrt_rt.c). */
enum dfz_snrt_heap {
	DFZ_SNRT_HEAP_L1,        /* alloc.h: one pointer for the cluster */
	DFZ_SNRT_HEAP_L1_CORE,   /* alloc_v2.h: one pointer per core */
	DFZ_SNRT_HEAP_L3,        /* alloc.h: the cluster's main memory */
};
/**
 * dfz_dropin_snrt_alloc() - the next block of @heap (enum dfz_snrt_heap):
 * L1 and L3 round @size up to 8 bytes; L1_CORE aligns the pointer to
 * @align and, with @per_core, hands each compute core its own @size
 * bytes of a slice for all 8. The heap is made at the run's first use.
 * Return: the block (owned by the run), past the heap's end after a
 * dev.misuse finding, NULL outside a run.
 */
void *dfz_dropin_snrt_alloc(struct dfz_site s, int heap, size_t size,
			    size_t align, size_t per_core);
/** dfz_dropin_snrt_next() - @heap's next pointer (the calling core's for
 * L1_CORE); dfz_dropin_snrt_set_next() sets it. */
void *dfz_dropin_snrt_next(struct dfz_site s, int heap);
void dfz_dropin_snrt_set_next(struct dfz_site s, int heap, uintptr_t next);
/** dfz_dropin_snrt_tcdm() - the TCDM heap's first byte (@what 0), size
 * (1) or end (2); 0x10000000 and 0 outside a run. */
uintptr_t dfz_dropin_snrt_tcdm(struct dfz_site s, int what);
/** dfz_dropin_snrt_zero_mem() - the run's zero memory (64 KiB of main
 * memory; DMA writes to it land elsewhere), NULL outside a run. */
void *dfz_dropin_snrt_zero_mem(struct dfz_site s);
/** dfz_dropin_snrt_mcycle() - the run's virtual time (engine steps). */
uint32_t dfz_dropin_snrt_mcycle(struct dfz_site s);
/** dfz_dropin_snrt_perf() - performance counter @cnt: start (with event
 * @metric when >= 0), stop, reset or configure (DFZ__SNRT_PERF_*);
 * dfz_dropin_snrt_perf_get() reads it. A counter past 15 is dev.misuse. */
void dfz_dropin_snrt_perf(struct dfz_site s, int op, uint32_t cnt,
			  int metric);
uint32_t dfz_dropin_snrt_perf_get(struct dfz_site s, uint32_t cnt);
/** dfz_dropin_snrt_memset() - snrt_dma_memset() as the runtime version
 * (quirk snrt-head) writes and waits; @ptr: borrowed for the call. */
void dfz_dropin_snrt_memset(struct dfz_site s, void *ptr, int value,
			    uint32_t len);
/** dfz_dropin_snrt_reduction() - snrt_global_reduction_dma() of a lone
 * cluster, @bytes from @src to @dst, as the runtime version does it. */
void dfz_dropin_snrt_reduction(struct dfz_site s, void *dst,
			       const void *src, size_t bytes);
/**
 * dfz_dropin_snrt_refuse() - a runtime name the host cannot give: one
 * line on stderr naming @name, the caller's line and @why, then exit(2).
 * The trailing arguments are the refused call's, evaluated and ignored.
 * dfz_dropin_snrt_refuse_ptr() is the same for a call used as a pointer.
 */
uint32_t dfz_dropin_snrt_refuse(struct dfz_site s, const char *name,
				const char *why, ...) __attribute__((noreturn));
void *dfz_dropin_snrt_refuse_ptr(struct dfz_site s, const char *name,
				 const char *why) __attribute__((noreturn));

/* ------------------------------------------------------------ dma.h */

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
/* The channel argument of HEAD's waits: one channel, its ids global. */
#define DFZ__SNRT_WAIT(tid, ...) dfz_dropin_snrt_wait(DFZ_SITE, (tid))
#define snrt_dma_wait(...) DFZ__SNRT_WAIT(__VA_ARGS__, 0)
#define snrt_dma_wait_all(...) dfz_dropin_snrt_wait_all(DFZ_SITE)
#define snrt_dma_wait_all_channels(n) dfz_dropin_snrt_wait_all(DFZ_SITE)
/* Markers in the simulator's DMA trace: nothing on the host. */
#define snrt_dma_start_tracking() ((void)0)
#define snrt_dma_stop_tracking() ((void)0)
/* The CPU writes the bytes (the runtime's DMA replication reads the row it
 * writes); the runtime's wait_all stays, which the code may rely on. */
#define snrt_dma_memset(ptr, value, len) \
	dfz_dropin_snrt_memset(DFZ_SITE, (ptr), (value), (uint32_t)(len))

/* Tile helpers, as dma.h computes them; HEAD's 9th argument of the 2-D
 * ones is the local leading dimension (bytes), tile_x0_size * prec when
 * absent (or 0). */
#define snrt_dma_load_1d_tile(dst, src, idx, n, prec)                        \
	snrt_dma_start_1d((uintptr_t)(dst),                                  \
			  (uintptr_t)(src) + (size_t)(idx) * (n) * (prec),   \
			  (size_t)(n) * (prec))
#define snrt_dma_store_1d_tile(dst, src, idx, n, prec)                       \
	snrt_dma_start_1d((uintptr_t)(dst) + (size_t)(idx) * (n) * (prec),   \
			  (uintptr_t)(src), (size_t)(n) * (prec))
#define DFZ__SNRT_TILE_OFF(x1i, x0i, x1s, x0s, full, prec)                   \
	(((size_t)(x0i) * (x0s) + (size_t)(x1i) * (x1s) * (full)) * (prec))
#define DFZ__SNRT_TILE_LD(ld, x0s, prec)                                     \
	((ld) ? (size_t)(ld) : (size_t)(x0s) * (prec))
#define DFZ__SNRT_LOAD2D(dst, src, x1i, x0i, x1s, x0s, full, prec, ld, ...)  \
	snrt_dma_start_2d((uintptr_t)(dst),                                  \
			  (uintptr_t)(src) + DFZ__SNRT_TILE_OFF(x1i, x0i, x1s, \
							x0s, full, prec), \
			  (size_t)(x0s) * (prec),                            \
			  DFZ__SNRT_TILE_LD(ld, x0s, prec),                  \
			  (size_t)(full) * (prec), (x1s))
#define DFZ__SNRT_STORE2D(dst, src, x1i, x0i, x1s, x0s, full, prec, ld, ...) \
	snrt_dma_start_2d((uintptr_t)(dst) + DFZ__SNRT_TILE_OFF(x1i, x0i, x1s, \
							x0s, full, prec), \
			  (uintptr_t)(src), (size_t)(x0s) * (prec),          \
			  (size_t)(full) * (prec),                           \
			  DFZ__SNRT_TILE_LD(ld, x0s, prec), (x1s))
#define snrt_dma_load_2d_tile(...) DFZ__SNRT_LOAD2D(__VA_ARGS__, 0, 0)
#define snrt_dma_store_2d_tile(...) DFZ__SNRT_STORE2D(__VA_ARGS__, 0, 0)
#define snrt_dma_1d_to_2d(dst, src, size, row, stride)                       \
	snrt_dma_start_2d((dst), (src), (row), (stride), (row),              \
			  (size_t)(size) / (row))
#define snrt_dma_2d_to_1d(dst, src, size, row, stride)                       \
	snrt_dma_start_2d((dst), (src), (row), (row), (stride),              \
			  (size_t)(size) / (row))

/* ----------------------------------------------------------- team.h */

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
static inline uint32_t snrt_cluster_dm_core_idx(void)
{
	return DFZ_SNRT_COMPUTE_CORES;
}
static inline uint32_t snrt_cluster_idx(void)
{
	return 0;
}
static inline uint32_t snrt_cluster_num(void)
{
	return 1;
}
static inline uint32_t snrt_hartid(void)
{
	return SNRT_BASE_HARTID + dfz_dropin_snrt_core_idx();
}
static inline uint32_t snrt_global_core_base_hartid(void)
{
	return SNRT_BASE_HARTID;
}
static inline uint32_t snrt_global_core_idx(void)
{
	return dfz_dropin_snrt_core_idx();
}
static inline uint32_t snrt_global_core_num(void)
{
	return DFZ_SNRT_CORES;
}
static inline uint32_t snrt_global_compute_core_idx(void)
{
	return dfz_dropin_snrt_core_idx();
}
static inline uint32_t snrt_global_compute_core_num(void)
{
	return DFZ_SNRT_COMPUTE_CORES;
}
static inline int snrt_is_dm_core(void)
{
	return dfz_dropin_snrt_core_idx() == DFZ_SNRT_COMPUTE_CORES;
}
static inline int snrt_is_compute_core(void)
{
	return dfz_dropin_snrt_core_idx() < DFZ_SNRT_COMPUTE_CORES;
}
static inline int snrt_cluster_is_last_compute_core(void)
{
	return dfz_dropin_snrt_core_idx() == DFZ_SNRT_COMPUTE_CORES - 1;
}

/* ----------------------------------------------------------- sync.h */

/* A communicator of HEAD's sync.h: one cluster, so every one holds it. */
typedef struct {
	uint32_t *barrier_ptr;
	uint32_t size;
	uint32_t mask;
	uint32_t base;
	uint32_t is_participant;
} snrt_comm_info_t;
typedef snrt_comm_info_t *snrt_comm_t;

#define snrt_cluster_hw_barrier() dfz_dropin_snrt_barrier(DFZ_SITE)
/* One cluster: the global barrier is the cluster's (every core), the
 * inter-cluster one (the DM core of each cluster) has nobody to wait for. */
#define snrt_global_barrier(...) dfz_dropin_snrt_barrier(DFZ_SITE)
#define snrt_inter_cluster_barrier(...) ((void)0)
#define snrt_comm_create(n, c)                                               \
	(*(c) = (snrt_comm_t)snrt_l1_alloc_cluster_local(                    \
		 sizeof(snrt_comm_info_t)),                                  \
	 (*(c))->barrier_ptr =                                               \
		 (uint32_t *)snrt_l1_alloc_cluster_local(sizeof(uint32_t)),  \
	 dfz_dropin_snrt_barrier(DFZ_SITE), (*(c))->size = (n),              \
	 (*(c))->base = 0, (*(c))->mask = (n) - 1,                           \
	 (*(c))->is_participant = 0 < (n), (void)0)
/* The pinned runtime copies src to dst on the DM core of a lone cluster
 * and joins the cores; HEAD does nothing for a communicator of one
 * (quirk snrt-head). dst and src are pointers to the element type. */
#define DFZ__SNRT_REDUCE(dst, src, len, ...)                                 \
	dfz_dropin_snrt_reduction(DFZ_SITE, (dst), (src),                    \
				  (size_t)(len) * sizeof(*(dst)))
#define snrt_global_reduction_dma(...) DFZ__SNRT_REDUCE(__VA_ARGS__, 0)
/* Fences and write-back waits: the host's cores run one at a time on one
 * thread, every store is seen by the next load. */
#define snrt_fpu_fence() ((void)0)
#define snrt_fence() ((void)0)
#define snrt_nop() ((void)0)
#define snrt_wait_writeback(val) ((void)(val))

/* --------------------------------------------- alloc.h, alloc_v2.h, memory */

/* The pinned names, then HEAD's: the cluster's L1 pointer, 8-byte
 * chunks; the main memory. */
#define snrt_l1alloc(size) \
	dfz_dropin_snrt_alloc(DFZ_SITE, DFZ_SNRT_HEAP_L1, (size), 8, 0)
#define snrt_l3alloc(size) \
	dfz_dropin_snrt_alloc(DFZ_SITE, DFZ_SNRT_HEAP_L3, (size), 8, 0)
#define snrt_l1_alloc(size) snrt_l1alloc(size)
#define snrt_l3_alloc(size) snrt_l3alloc(size)
#define snrt_l1_next() dfz_dropin_snrt_next(DFZ_SITE, DFZ_SNRT_HEAP_L1)
#define snrt_l3_next() dfz_dropin_snrt_next(DFZ_SITE, DFZ_SNRT_HEAP_L3)
#define snrt_l1_update_next(next) \
	dfz_dropin_snrt_set_next(DFZ_SITE, DFZ_SNRT_HEAP_L1, (uintptr_t)(next))
#define snrt_l1_start_addr() ((uint32_t)dfz_dropin_snrt_tcdm(DFZ_SITE, 0))
#define snrt_l1_end_addr() ((uint32_t)dfz_dropin_snrt_tcdm(DFZ_SITE, 2))
#define snrt_zero_memory_ptr() \
	((volatile uint32_t *)dfz_dropin_snrt_zero_mem(DFZ_SITE))
/* alloc_v2.h: each core's own pointer, advanced alike on every core. */
#define DFZ__SNRT_ALLOC_V2(size, align, ...)                                 \
	dfz_dropin_snrt_alloc(DFZ_SITE, DFZ_SNRT_HEAP_L1_CORE, (size),       \
			      (size_t)(align) ? (size_t)(align) : 1, 0)
#define DFZ__SNRT_ALLOC_V2_CORE(size, align, ...)                            \
	dfz_dropin_snrt_alloc(DFZ_SITE, DFZ_SNRT_HEAP_L1_CORE, (size),       \
			      (size_t)(align) ? (size_t)(align) : 1, 1)
#define snrt_l1_alloc_cluster_local(...) DFZ__SNRT_ALLOC_V2(__VA_ARGS__, 1, 1)
#define snrt_l1_alloc_compute_core_local(...) \
	DFZ__SNRT_ALLOC_V2_CORE(__VA_ARGS__, 1, 1)
#define snrt_l1_next_v2() \
	dfz_dropin_snrt_next(DFZ_SITE, DFZ_SNRT_HEAP_L1_CORE)
#define snrt_l1_update_next_v2(next)                                         \
	dfz_dropin_snrt_set_next(DFZ_SITE, DFZ_SNRT_HEAP_L1_CORE,            \
				 (uintptr_t)(next))
#define snrt_compute_core_local_ptr(ptr, core, size)                         \
	((void *)((uintptr_t)(ptr) +                                         \
		  ((uintptr_t)(core) - snrt_cluster_core_idx()) * (size)))
#define snrt_remote_l1_ptr(ptr, from, to)                                    \
	((void *)((uintptr_t)(ptr) +                                         \
		  ((uintptr_t)(to) - (uintptr_t)(from)) * SNRT_CLUSTER_OFFSET))

static inline uintptr_t dfz__snrt_align(uintptr_t a, size_t size,
					uintptr_t base)
{
	return size ? ((a - base + size - 1) / size) * size + base : a;
}
/* HEAD's overloads: a pointer gives a pointer, an integer an integer. */
#define DFZ__SNRT_AS(a, v)                                                   \
	_Generic((a), void *: (void *)(v), const void *: (void *)(v),        \
		 volatile void *: (void *)(v), char *: (void *)(v),          \
		 int8_t *: (void *)(v), uint8_t *: (void *)(v),              \
		 int16_t *: (void *)(v), uint16_t *: (void *)(v),            \
		 int32_t *: (void *)(v), uint32_t *: (void *)(v),            \
		 int64_t *: (void *)(v), uint64_t *: (void *)(v),            \
		 float *: (void *)(v), double *: (void *)(v),                \
		 default: (v))
#define DFZ__SNRT_ALIGN_UP(a, size, base, ...)                               \
	DFZ__SNRT_AS(a, dfz__snrt_align((uintptr_t)(a), (size),              \
					(uintptr_t)(base)))
#define snrt_align_up(...) DFZ__SNRT_ALIGN_UP(__VA_ARGS__, 0, 0)
#define snrt_align_up_hyperbank(a)                                           \
	DFZ__SNRT_AS(a, dfz__snrt_align((uintptr_t)(a),                      \
					SNRT_TCDM_HYPERBANK_WIDTH,           \
					SNRT_TCDM_START_ADDR))
#define snrt_l1_next_aligned_hyperbank()                                     \
	((void *)dfz__snrt_align((uintptr_t)snrt_l1_next_v2(),               \
				 SNRT_TCDM_HYPERBANK_WIDTH,                  \
				 SNRT_TCDM_START_ADDR))

/* HEAD's snrt_cluster(): the fields code reads for addresses. */
struct dfz_snrt_cluster {
	struct {
		uint8_t *mem;
	} tcdm, zeromem;
};
#define snrt_cluster()                                                       \
	(&(const struct dfz_snrt_cluster){                                   \
		{ (uint8_t *)(uintptr_t)SNRT_TCDM_START_ADDR },              \
		{ (uint8_t *)dfz_dropin_snrt_zero_mem(DFZ_SITE) } })

/* ---------------------------------------------- riscv.h, perf_cnt.h */

/* The model's virtual time: engine steps since the run began. */
#define snrt_mcycle() dfz_dropin_snrt_mcycle(DFZ_SITE)

/* The pinned counters (an enum of counters, one of events) and HEAD's
 * (indices, metrics): the cycle event counts virtual time while the
 * counter runs; every other event counts nothing on the host. */
enum snrt_perf_cnt {
	SNRT_PERF_CNT0, SNRT_PERF_CNT1, SNRT_PERF_CNT2, SNRT_PERF_CNT3,
	SNRT_PERF_CNT4, SNRT_PERF_CNT5, SNRT_PERF_CNT6, SNRT_PERF_CNT7,
	SNRT_PERF_CNT8, SNRT_PERF_CNT9, SNRT_PERF_CNT10, SNRT_PERF_CNT11,
	SNRT_PERF_CNT12, SNRT_PERF_CNT13, SNRT_PERF_CNT14, SNRT_PERF_CNT15,
	SNRT_PERF_N_CNT
};
enum snrt_perf_cnt_type {
	SNRT_PERF_CNT_CYCLES, SNRT_PERF_CNT_TCDM_ACCESSED,
	SNRT_PERF_CNT_TCDM_CONGESTED, SNRT_PERF_CNT_ISSUE_FPU,
	SNRT_PERF_CNT_ISSUE_FPU_SEQ, SNRT_PERF_CNT_ISSUE_CORE_TO_FPU,
	SNRT_PERF_CNT_RETIRED_INSTR, SNRT_PERF_CNT_RETIRED_LOAD,
	SNRT_PERF_CNT_RETIRED_I, SNRT_PERF_CNT_RETIRED_ACC,
	SNRT_PERF_CNT_DMA_AW_STALL, SNRT_PERF_CNT_DMA_AR_STALL,
	SNRT_PERF_CNT_DMA_R_STALL, SNRT_PERF_CNT_DMA_W_STALL,
	SNRT_PERF_CNT_DMA_BUF_W_STALL, SNRT_PERF_CNT_DMA_BUF_R_STALL,
	SNRT_PERF_CNT_DMA_AW_DONE, SNRT_PERF_CNT_DMA_AW_BW,
	SNRT_PERF_CNT_DMA_AR_DONE, SNRT_PERF_CNT_DMA_AR_BW,
	SNRT_PERF_CNT_DMA_R_DONE, SNRT_PERF_CNT_DMA_R_BW,
	SNRT_PERF_CNT_DMA_W_DONE, SNRT_PERF_CNT_DMA_W_BW,
	SNRT_PERF_CNT_DMA_B_DONE, SNRT_PERF_CNT_DMA_BUSY,
	SNRT_PERF_CNT_ICACHE_MISS, SNRT_PERF_CNT_ICACHE_HIT,
	SNRT_PERF_CNT_ICACHE_PREFETCH, SNRT_PERF_CNT_ICACHE_DOUBLE_HIT,
	SNRT_PERF_CNT_ICACHE_STALL
};
/* HEAD's metrics (the generated peripheral header's PERF_METRIC__*). */
#define PERF_METRIC__CYCLE SNRT_PERF_CNT_CYCLES
#define PERF_METRIC__DMA_AW_DONE SNRT_PERF_CNT_DMA_AW_DONE
#define PERF_METRIC__DMA_AR_DONE SNRT_PERF_CNT_DMA_AR_DONE
#define PERF_METRIC__DMA_R_DONE SNRT_PERF_CNT_DMA_R_DONE
#define PERF_METRIC__DMA_W_DONE SNRT_PERF_CNT_DMA_W_DONE
enum { DFZ__SNRT_PERF_START, DFZ__SNRT_PERF_STOP, DFZ__SNRT_PERF_RESET,
       DFZ__SNRT_PERF_CFG };
/* The pinned start takes (counter, event, hart), HEAD's (counter) after
 * snrt_cfg_perf_counter(counter, metric, hart). */
#define DFZ__SNRT_PERF_START3(cnt, type, hart, ...)                          \
	dfz_dropin_snrt_perf(DFZ_SITE, DFZ__SNRT_PERF_START, (uint32_t)(cnt), \
			     (int)(type))
#define snrt_start_perf_counter(...) DFZ__SNRT_PERF_START3(__VA_ARGS__, -1, -1)
#define snrt_cfg_perf_counter(cnt, metric, hart)                             \
	dfz_dropin_snrt_perf(DFZ_SITE, DFZ__SNRT_PERF_CFG, (uint32_t)(cnt),  \
			     (int)(metric))
#define snrt_stop_perf_counter(cnt)                                          \
	dfz_dropin_snrt_perf(DFZ_SITE, DFZ__SNRT_PERF_STOP, (uint32_t)(cnt), -1)
#define snrt_reset_perf_counter(cnt)                                         \
	dfz_dropin_snrt_perf(DFZ_SITE, DFZ__SNRT_PERF_RESET, (uint32_t)(cnt), -1)
#define snrt_get_perf_counter(cnt) \
	dfz_dropin_snrt_perf_get(DFZ_SITE, (uint32_t)(cnt))

/* dump.h: a value for the simulator's trace; the host has no trace. */
#ifndef DUMP
#define DUMP(val) ((void)(val))
#endif

/* --------------------------------------------------------- refused */

/*
 * Each call below compiles, as a statement or for its value, and when it
 * runs ends the run with one line naming it and its line (exit 2): the
 * host has nothing it could do.
 */
#define DFZ__SNRT_NO_SSR                                                     \
	"SSR streams are not modelled (the registers they feed are read by " \
	"RISC-V assembly); build the plain-C path (SNRT_SUPPORTS_SSR is "    \
	"undefined)"
#define DFZ__SNRT_REFUSE(name, why) dfz_dropin_snrt_refuse(DFZ_SITE, name, why)
/* The arguments are evaluated (no variable of the caller is left unused). */
#define DFZ__SNRT_REFUSE_ARGS(name, why, ...) \
	dfz_dropin_snrt_refuse(DFZ_SITE, name, why, __VA_ARGS__)
#define DFZ__SNRT_SSR0(name) DFZ__SNRT_REFUSE(name, DFZ__SNRT_NO_SSR)
#define DFZ__SNRT_SSR(name, ...) \
	DFZ__SNRT_REFUSE_ARGS(name, DFZ__SNRT_NO_SSR, __VA_ARGS__)
#define DFZ__SNRT_IRQ0(name) DFZ__SNRT_REFUSE(name, DFZ__SNRT_NO_IRQ)
#define DFZ__SNRT_IRQ(name, ...) \
	DFZ__SNRT_REFUSE_ARGS(name, DFZ__SNRT_NO_IRQ, __VA_ARGS__)
#define DFZ__SNRT_DM0(name) DFZ__SNRT_REFUSE(name, DFZ__SNRT_NO_DM)
#define DFZ__SNRT_DM(name, ...) \
	DFZ__SNRT_REFUSE_ARGS(name, DFZ__SNRT_NO_DM, __VA_ARGS__)
#define DFZ__SNRT_OMP0(name) DFZ__SNRT_REFUSE(name, DFZ__SNRT_NO_OMP)
#define DFZ__SNRT_OMP(name, ...) \
	DFZ__SNRT_REFUSE_ARGS(name, DFZ__SNRT_NO_OMP, __VA_ARGS__)
#define snrt_ssr_enable() DFZ__SNRT_SSR0("snrt_ssr_enable")
#define snrt_ssr_disable() DFZ__SNRT_SSR0("snrt_ssr_disable")
#define snrt_ssr_loop_1d(...) DFZ__SNRT_SSR("snrt_ssr_loop_1d", __VA_ARGS__)
#define snrt_ssr_loop_2d(...) DFZ__SNRT_SSR("snrt_ssr_loop_2d", __VA_ARGS__)
#define snrt_ssr_loop_3d(...) DFZ__SNRT_SSR("snrt_ssr_loop_3d", __VA_ARGS__)
#define snrt_ssr_loop_4d(...) DFZ__SNRT_SSR("snrt_ssr_loop_4d", __VA_ARGS__)
#define snrt_ssr_repeat(...) DFZ__SNRT_SSR("snrt_ssr_repeat", __VA_ARGS__)
#define snrt_ssr_read(...) DFZ__SNRT_SSR("snrt_ssr_read", __VA_ARGS__)
#define snrt_ssr_write(...) DFZ__SNRT_SSR("snrt_ssr_write", __VA_ARGS__)
#define snrt_issr_read(...) DFZ__SNRT_SSR("snrt_issr_read", __VA_ARGS__)
#define snrt_issr_set_idx_cfg(...) \
	DFZ__SNRT_SSR("snrt_issr_set_idx_cfg", __VA_ARGS__)
#define snrt_issr_set_bound(...) \
	DFZ__SNRT_SSR("snrt_issr_set_bound", __VA_ARGS__)
#define snrt_issr_set_ptrs(...) DFZ__SNRT_SSR("snrt_issr_set_ptrs", __VA_ARGS__)
#define snrt_sc_enable(...) DFZ__SNRT_SSR("snrt_sc_enable", __VA_ARGS__)
#define snrt_sc_disable(...) DFZ__SNRT_SSR("snrt_sc_disable", __VA_ARGS__)
#define snrt_cluster_alias() \
	dfz_dropin_snrt_refuse_ptr(DFZ_SITE, "snrt_cluster_alias",           \
				   "the cluster's alias address region is "  \
				   "not mapped on the host")
/* The SSR data movers and dimensions, for the calls above to compile. */
enum snrt_ssr_dm { SNRT_SSR_DM0 = 0, SNRT_SSR_DM1 = 1, SNRT_SSR_DM2 = 2,
		   SNRT_SSR_DM_ALL = 31 };
enum snrt_ssr_dim { SNRT_SSR_1D, SNRT_SSR_2D, SNRT_SSR_3D, SNRT_SSR_4D };
enum { SNRT_SSR_IDXSIZE_U8, SNRT_SSR_IDXSIZE_U16, SNRT_SSR_IDXSIZE_U32,
       SNRT_SSR_IDXSIZE_U64 };

#define DFZ__SNRT_NO_IRQ \
	"interrupts are not modelled (no core sleeps or is woken on the host)"
#define snrt_wfi() DFZ__SNRT_IRQ0("snrt_wfi")
#define snrt_interrupt_enable(...) \
	DFZ__SNRT_IRQ("snrt_interrupt_enable", __VA_ARGS__)
#define snrt_interrupt_disable(...) \
	DFZ__SNRT_IRQ("snrt_interrupt_disable", __VA_ARGS__)
#define snrt_interrupt_global_enable() \
	DFZ__SNRT_IRQ0("snrt_interrupt_global_enable")
#define snrt_interrupt_global_disable() \
	DFZ__SNRT_IRQ0("snrt_interrupt_global_disable")
#define snrt_interrupt_cause() \
	DFZ__SNRT_IRQ0("snrt_interrupt_cause")
#define snrt_int_sw_set(...) DFZ__SNRT_IRQ("snrt_int_sw_set", __VA_ARGS__)
#define snrt_int_sw_clear(...) DFZ__SNRT_IRQ("snrt_int_sw_clear", __VA_ARGS__)
#define snrt_int_sw_get(...) \
	DFZ__SNRT_IRQ("snrt_int_sw_get", __VA_ARGS__)
#define snrt_int_cluster_set(...) \
	DFZ__SNRT_IRQ("snrt_int_cluster_set", __VA_ARGS__)
#define snrt_int_cluster_clr(...) \
	DFZ__SNRT_IRQ("snrt_int_cluster_clr", __VA_ARGS__)

#define DFZ__SNRT_NO_DM                                                      \
	"the DM core's task queue (dm.h) is not modelled; call "             \
	"snrt_dma_start_* on the DM core (snrt_is_dm_core())"
#define dm_init() DFZ__SNRT_DM0("dm_init")
#define dm_main() DFZ__SNRT_DM0("dm_main")
#define dm_exit() DFZ__SNRT_DM0("dm_exit")
#define dm_wait_ready() DFZ__SNRT_DM0("dm_wait_ready")
#define dm_wait() DFZ__SNRT_DM0("dm_wait")
#define dm_start() DFZ__SNRT_DM0("dm_start")
#define dm_memcpy_async(...) DFZ__SNRT_DM("dm_memcpy_async", __VA_ARGS__)
#define dm_memcpy2d_async(...) DFZ__SNRT_DM("dm_memcpy2d_async", __VA_ARGS__)

#define DFZ__SNRT_NO_OMP "the runtime's OpenMP (event unit) is not modelled"
#define __snrt_omp_bootstrap(...) \
	DFZ__SNRT_OMP("__snrt_omp_bootstrap", __VA_ARGS__)
#define __snrt_omp_destroy(...) DFZ__SNRT_OMP("__snrt_omp_destroy", __VA_ARGS__)
#define eu_init() DFZ__SNRT_OMP0("eu_init")
#define eu_exit(...) DFZ__SNRT_OMP("eu_exit", __VA_ARGS__)
#define eu_event_loop(...) DFZ__SNRT_OMP("eu_event_loop", __VA_ARGS__)
#define eu_dispatch_push(...) DFZ__SNRT_OMP("eu_dispatch_push", __VA_ARGS__)
#define eu_run_empty(...) DFZ__SNRT_OMP("eu_run_empty", __VA_ARGS__)
#define eu_get_workers_in_wfi() DFZ__SNRT_OMP0("eu_get_workers_in_wfi")

/* -------------------------------------------------- HEAD's types.h */

#ifdef DFZ_SNRT_HEAD
typedef enum { FP64 = 8, FP32 = 4, FP16 = 2, FP8 = 1 } precision_t;
typedef float v2f32 __attribute__((vector_size(8)));
typedef char v8f8 __attribute__((vector_size(8)));
#endif

/* The SPMD runner (not an SDK name): @fn(@arg) on all 9 cores. */
#define dfz_snrt_spmd(fn, arg) dfz_dropin_spmd(DFZ_SITE, (fn), (arg))

/**
 * dfz_dropin_snrt_main() - a Snitch program's own main (renamed, e.g.
 * -Dmain=snrt_main) on all 9 cores, as the runtime's start code runs it.
 * The runtime ORs the cores' return codes into the exit code: a nonzero
 * one is a failed check (data.mismatch) at the caller's line.
 * Return: the ORed code. Use via dfz_snrt_main(fn) (not an SDK name).
 */
int dfz_dropin_snrt_main(struct dfz_site s, int (*main_fn)(void));
#define dfz_snrt_main(fn) dfz_dropin_snrt_main(DFZ_SITE, (fn))

#endif /* DMAFUZZ_DROPIN_SNRT_H */
