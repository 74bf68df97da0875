/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz drop-in for the GAP9 cluster DMA as Deeploy's GAP9 target
 * library drives it (TargetLibraries/GAP9/inc/mchan.h): a transfer
 * descriptor passed by value, mchan_transfer_get_id() for a transfer
 * counter, the 1-D, 2-D and generic pushes, and free / busy / wait by
 * counter. On dmafuzz's mchan engine, which decodes the command word as
 * MCHAN v7 does: a push carries the counter its core allocated last.
 *
 * The SDK header falls back to the v6 encoding (a 16-bit length, every
 * flag one bit lower) when MCHAN_VERSION is not 7, silently when it is not
 * defined at all: code built that way encodes other commands than it
 * means on a v7 cluster. Here MCHAN_VERSION must be defined as 7.
 */
#ifndef DMAFUZZ_DROPIN_MCHAN_H
#define DMAFUZZ_DROPIN_MCHAN_H

#if !defined(MCHAN_VERSION)
#error "[mchan.h] MCHAN_VERSION is not defined: the SDK would fall back to the v6 command encoding; define it as 7"
#elif MCHAN_VERSION != 7
#error "[mchan.h] only MCHAN_VERSION 7 is modelled"
#endif

#include "dmafuzz/dropin/mchan_v7.h"

#define MCHAN_CMD_SHIFT_DIRECTION MCHAN_TRANSFER_LEN_SIZE

#define MCHAN_CMD(len, dir, inc, loc_2d, ext_2d, int_en, event_en, broadcast) \
	(len | dir | inc | loc_2d | ext_2d | broadcast | int_en | event_en)

typedef enum {
	MCHAN_DMA_TRANSFER_DIRECTION_EXT2LOC = MCHAN_CMD_FLAG_DIRECTION_EXT2LOC,
	MCHAN_DMA_TRANSFER_DIRECTION_LOC2EXT = MCHAN_CMD_FLAG_DIRECTION_LOC2EXT
} mchan_dma_transfer_direction_e;

typedef struct {
	int cmd;
	int size;

	void *loc;
	int loc_size_1d;
	int loc_stride_1d;

	void *ext;
	int ext_size_1d;
	int ext_stride_1d;
} mchan_transfer_t;

/* Which words a push writes: the command, loc and ext, then the 2-D
 * words of the external side (2d), or those the descriptor's sizes call
 * for (generic). */
enum dfz_mchan_push_kind {
	DFZ_MCHAN_PUSH_1D,
	DFZ_MCHAN_PUSH_2D,
	DFZ_MCHAN_PUSH_GENERIC,
};

void dfz_dropin_mchan_push_t(struct dfz_site s, mchan_transfer_t t,
			     enum dfz_mchan_push_kind kind);

#define mchan_transfer_get_id() ((int)dfz_dropin_mchan_alloc(DFZ_SITE))
/* The descriptor goes by value, often as a compound literal whose
 * commas the preprocessor would split: the pushes take it whole. */
#define mchan_transfer_push_1d(...)                                           \
	dfz_dropin_mchan_push_t(DFZ_SITE, (__VA_ARGS__), DFZ_MCHAN_PUSH_1D)
#define mchan_transfer_push_2d(...)                                           \
	dfz_dropin_mchan_push_t(DFZ_SITE, (__VA_ARGS__), DFZ_MCHAN_PUSH_2D)
#define mchan_transfer_push(...)                                              \
	dfz_dropin_mchan_push_t(DFZ_SITE, (__VA_ARGS__), DFZ_MCHAN_PUSH_GENERIC)
#define mchan_transfer_free(tid) dfz_dropin_mchan_free(DFZ_SITE, (uint32_t)(tid))
#define mchan_transfer_busy(tid)                                              \
	((int)dfz_dropin_mchan_busy(DFZ_SITE, (uint32_t)(tid)))
#define mchan_transfer_wait(tid) dfz_dropin_mchan_wait(DFZ_SITE, (uint32_t)(tid))

#endif /* DMAFUZZ_DROPIN_MCHAN_H */
