/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz drop-in for DORY's DMA library as Deeploy ships it
 * (TargetLibraries/PULPOpen dory_dma.{h,c} up to Deeploy f4cce776, and
 * TargetLibraries/GAP9 at HEAD): DMA_copy with its 16-bit strides and
 * counts, the dory_dma_memcpy_* family on the mchan engine, which pushes
 * on the counter the calling core allocated last, as the hardware does.
 *
 * As the library: the 1d, 2d and 3d copies (and dory_dma_memcpy_async,
 * which picks one of them) act on core 0 only; hwc_to_chw splits the
 * channels among the calling cores; the *_mindims copies run on every
 * core that calls them and trust copy->mchan_cmd for the length and the
 * flags; dory_dma_barrier waits on copy->tid without freeing it,
 * dory_dma_free frees it, dory_dma_allocate returns a counter.
 * dir 1 is external to local (L2 -> L1).
 */
#ifndef DMAFUZZ_DROPIN_DORY_DMA_H
#define DMAFUZZ_DROPIN_DORY_DMA_H

#include "dmafuzz/dropin.h"

typedef struct {
	void *ext;
	void *loc;
	unsigned short hwc_to_chw;
	unsigned short stride_2d;
	unsigned short number_of_2d_copies;
	unsigned short stride_1d;
	unsigned short number_of_1d_copies;
	unsigned int length_1d_copy;
	unsigned int mchan_cmd;
	int dir; /* 0 l1->l2, 1 l2->l1 */
	int tid;
} DMA_copy;

enum dfz_dory_op {
	DFZ_DORY_HWC_TO_CHW,
	DFZ_DORY_1D,
	DFZ_DORY_2D,
	DFZ_DORY_3D,
	DFZ_DORY_ASYNC,
	DFZ_DORY_1D_MINDIMS,
	DFZ_DORY_2D_MINDIMS,
	DFZ_DORY_3D_MINDIMS,
	DFZ_DORY_MINDIMS,
	DFZ_DORY_FREE,
	DFZ_DORY_BARRIER,
};

void dfz_dropin_dory(struct dfz_site s, enum dfz_dory_op op, DMA_copy *copy);

/* Each takes its argument whole, also a compound literal whose commas
 * the preprocessor would split (`&(DMA_copy){ .ext = e, .loc = l }`). */
int dfz_dropin_dory_allocate(struct dfz_site s);

#define dory_dma_memcpy_hwc_to_chw(...)                                      \
	dfz_dropin_dory(DFZ_SITE, DFZ_DORY_HWC_TO_CHW, (__VA_ARGS__))
#define dory_dma_memcpy_1d_async(...)                                        \
	dfz_dropin_dory(DFZ_SITE, DFZ_DORY_1D, (__VA_ARGS__))
#define dory_dma_memcpy_2d_async(...)                                        \
	dfz_dropin_dory(DFZ_SITE, DFZ_DORY_2D, (__VA_ARGS__))
#define dory_dma_memcpy_3d_async(...)                                        \
	dfz_dropin_dory(DFZ_SITE, DFZ_DORY_3D, (__VA_ARGS__))
#define dory_dma_memcpy_async(...)                                           \
	dfz_dropin_dory(DFZ_SITE, DFZ_DORY_ASYNC, (__VA_ARGS__))
#define dory_dma_memcpy_1d_mindims_async(...)                                \
	dfz_dropin_dory(DFZ_SITE, DFZ_DORY_1D_MINDIMS, (__VA_ARGS__))
#define dory_dma_memcpy_2d_mindims_async(...)                                \
	dfz_dropin_dory(DFZ_SITE, DFZ_DORY_2D_MINDIMS, (__VA_ARGS__))
#define dory_dma_memcpy_3d_mindims_async(...)                                \
	dfz_dropin_dory(DFZ_SITE, DFZ_DORY_3D_MINDIMS, (__VA_ARGS__))
#define dory_dma_memcpy_mindims_async(...)                                   \
	dfz_dropin_dory(DFZ_SITE, DFZ_DORY_MINDIMS, (__VA_ARGS__))
#define dory_dma_free(...) dfz_dropin_dory(DFZ_SITE, DFZ_DORY_FREE, (__VA_ARGS__))
#define dory_dma_barrier(...)                                                \
	dfz_dropin_dory(DFZ_SITE, DFZ_DORY_BARRIER, (__VA_ARGS__))
#define dory_dma_allocate() dfz_dropin_dory_allocate(DFZ_SITE)

#endif /* DMAFUZZ_DROPIN_DORY_DMA_H */
