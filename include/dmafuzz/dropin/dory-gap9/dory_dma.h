/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz drop-in for DORY's own GAP9 DMA library (pulp-platform/dory
 * dory/Hardware_targets/PULP/GAP9/Utils_files/dory_dma.{h,c}): a
 * DmaTransferConf by value describes a 1-D, 2-D or 3-D copy (or an HWC to
 * CHW reorder), pushed on the MCHAN counter the calling core took last
 * with dma_transfer_create(); dma_transfer_wait() waits for that counter
 * and frees it, dma_transfer_free() frees it.
 *
 * The header has the file name of Deeploy's dory_dma.h, which the
 * drop-in also ships: this one is in its own folder, which the
 * dmafuzz-dropin-dory pkg-config module puts on the include path ahead of
 * the drop-in's (pkg-config --cflags --libs dmafuzz-dropin-dory), so
 * `#include "dory_dma.h"` resolves here. The drop-in is the library:
 * leave DORY's dory_dma.c out of the build.
 *
 * As on the chip, a layer that keeps pushing after dma_transfer_wait()
 * freed its counter (DORY's GAP9 layer templates do) pushes on that same
 * counter, which counts again; the next wait covers those pushes.
 * Every name is a macro that passes the caller's line; the copies take
 * their DmaTransferConf through a variadic macro, so a compound literal
 * with commas passes as it is.
 */
#ifndef DMAFUZZ_DROPIN_DORY_GAP9_DMA_H
#define DMAFUZZ_DROPIN_DORY_GAP9_DMA_H

#include <stdint.h>

#include "dmafuzz/dropin/pmsis.h"

#define DORY_DMA_DIR_LOC2EXT 0
#define DORY_DMA_DIR_EXT2LOC 1

#ifdef TARGET_CHIP_FAMILY_GAP9
#ifndef MCHAN_VERSION
#define MCHAN_VERSION (7)
#endif
#endif

typedef struct DmaTransferConf {
	uint32_t ext;
	uint32_t loc;
	int stride_2d;
	int number_of_2d_copies;
	int stride_1d;
	int number_of_1d_copies;
	int length_1d_copy;
	int hwc_to_chw;
	int dir; /* 0 l1->l2, 1 l2->l1 */
} DmaTransferConf;

typedef struct DmaTransfer {
	int id;
} DmaTransfer;

/* What each dma_transfer_* copy is. */
enum dfz_dory9_op {
	DFZ_DORY9_1D,
	DFZ_DORY9_2D,
	DFZ_DORY9_3D,
	DFZ_DORY9_ASYNC,
};

void dfz_dropin_dory9_copy(struct dfz_site s, enum dfz_dory9_op op,
			   DmaTransferConf conf);
DmaTransfer dfz_dropin_dory9_create(struct dfz_site s);
void dfz_dropin_dory9_wait(struct dfz_site s, DmaTransfer t, int free_only);

#define dma_transfer_1d_async(...)                                            \
	dfz_dropin_dory9_copy(DFZ_SITE, DFZ_DORY9_1D, __VA_ARGS__)
#define dma_transfer_2d_async(...)                                            \
	dfz_dropin_dory9_copy(DFZ_SITE, DFZ_DORY9_2D, __VA_ARGS__)
#define dma_transfer_3d_async(...)                                            \
	dfz_dropin_dory9_copy(DFZ_SITE, DFZ_DORY9_3D, __VA_ARGS__)
#define dma_transfer_async(...)                                               \
	dfz_dropin_dory9_copy(DFZ_SITE, DFZ_DORY9_ASYNC, __VA_ARGS__)
#define dma_transfer_create() dfz_dropin_dory9_create(DFZ_SITE)
#define dma_transfer_wait(...) dfz_dropin_dory9_wait(DFZ_SITE, __VA_ARGS__, 0)
#define dma_transfer_free(...) dfz_dropin_dory9_wait(DFZ_SITE, __VA_ARGS__, 1)
/* One DMA master here: the cores switch only at SDK calls, so the
 * library's event-unit mutex has nothing to exclude. */
#define dma_mutex_init() ((void)0)
#define dma_mutex_lock() ((void)0)
#define dma_mutex_unlock() ((void)0)

#endif /* DMAFUZZ_DROPIN_DORY_GAP9_DMA_H */
