/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz drop-in for the cluster DMA as Deeploy's PULPOpen target library
 * drives it (TargetLibraries/PULPOpen/inc/mchan_v7.h): the caller writes
 * the command word itself (a 17-bit length, then the flag bits), pushes
 * the words, and waits on the channel (transfer counter) it allocated.
 * On dmafuzz's mchan engine: a push carries the counter its core
 * allocated last, as the hardware's does, and the engine decodes the
 * command word as the hardware decodes it (a length of 2^17 or more
 * spills into the direction bit).
 *
 * The SDK header needs MCHAN_BASE_ADDR and MCHAN_EVENT or MCHAN_POLLED
 * defined (the registers it writes, the way it waits); the model has no
 * registers and its waits are the engine's, so they may be left out.
 * MCHAN_VERSION, when defined, must be 7, as there.
 */
#ifndef DMAFUZZ_DROPIN_MCHAN_V7_H
#define DMAFUZZ_DROPIN_MCHAN_V7_H

#if !defined(MCHAN_VERSION)
#define MCHAN_VERSION 7
#elif MCHAN_VERSION != 7
#error "[mchan_v7.h] Illegal MCHAN_VERSION. Supported only 7"
#endif

#include "dmafuzz/dropin/pmsis.h"

#define MCHAN_TRANSFER_LEN_SIZE (17)
#define MCHAN_CHANNEL_ID_MAX (15)

#define MCHAN_CMD_FLAG_DIRECTION_LOC2EXT (0 << (MCHAN_TRANSFER_LEN_SIZE + 0))
#define MCHAN_CMD_FLAG_DIRECTION_EXT2LOC (1 << (MCHAN_TRANSFER_LEN_SIZE + 0))
#define MCHAN_CMD_FLAG_INCREMENTAL (1 << (MCHAN_TRANSFER_LEN_SIZE + 1))
#define MCHAN_CMD_FLAG_2D_TRANSFER_EXTERNAL (1 << (MCHAN_TRANSFER_LEN_SIZE + 2))
#define MCHAN_CMD_FLAG_EVENT_ENABLE (1 << (MCHAN_TRANSFER_LEN_SIZE + 3))
#define MCHAN_CMD_FLAG_INTERRUPT_ENABLE (1 << (MCHAN_TRANSFER_LEN_SIZE + 4))
#define MCHAN_CMD_FLAG_BROADCAST_FINISH (1 << (MCHAN_TRANSFER_LEN_SIZE + 5))
#define MCHAN_CMD_FLAG_2D_TRANSFER_LOCAL (1 << (MCHAN_TRANSFER_LEN_SIZE + 6))

/* The words of one push, in the order the SDK writes them. */
struct dfz_mchan_v7_push {
	uint32_t cmd;
	void *loc;
	void *ext;
	uint32_t loc_size_1d;
	uint32_t loc_stride_2d;
	uint32_t ext_size_1d;
	uint32_t ext_stride_2d;
};

void dfz_dropin_mchan_push(struct dfz_site s, struct dfz_mchan_v7_push p);
uint32_t dfz_dropin_mchan_alloc(struct dfz_site s);
void dfz_dropin_mchan_free(struct dfz_site s, uint32_t id);
uint32_t dfz_dropin_mchan_busy(struct dfz_site s, uint32_t id);
void dfz_dropin_mchan_wait(struct dfz_site s, uint32_t id);

#define DFZ__PTR(a) ((void *)(uintptr_t)(a))

#define mchan_transfer_1d(cmd, loc, ext)                                      \
	dfz_dropin_mchan_push(DFZ_SITE, (struct dfz_mchan_v7_push){           \
		(uint32_t)(cmd), DFZ__PTR(loc), DFZ__PTR(ext), 0, 0, 0, 0 })
#define mchan_transfer_2d_loc_strided(cmd, loc, ext, loc_size_1d,              \
				      loc_stride_2d)                           \
	dfz_dropin_mchan_push(DFZ_SITE, (struct dfz_mchan_v7_push){           \
		(uint32_t)(cmd), DFZ__PTR(loc), DFZ__PTR(ext),                \
		(loc_size_1d), (loc_stride_2d), 0, 0 })
#define mchan_transfer_2d_ext_strided(cmd, loc, ext, ext_size_1d,              \
				      ext_stride_2d)                           \
	dfz_dropin_mchan_push(DFZ_SITE, (struct dfz_mchan_v7_push){           \
		(uint32_t)(cmd), DFZ__PTR(loc), DFZ__PTR(ext), 0, 0,          \
		(ext_size_1d), (ext_stride_2d) })
#define mchan_transfer_2d_loc_strided_ext_strided(cmd, loc, ext, loc_size_1d,  \
		loc_stride_2d, ext_size_1d, ext_stride_2d)                     \
	dfz_dropin_mchan_push(DFZ_SITE, (struct dfz_mchan_v7_push){           \
		(uint32_t)(cmd), DFZ__PTR(loc), DFZ__PTR(ext),                \
		(loc_size_1d), (loc_stride_2d), (ext_size_1d),                \
		(ext_stride_2d) })

#define mchan_channel_alloc() dfz_dropin_mchan_alloc(DFZ_SITE)
#define mchan_channel_free(id) dfz_dropin_mchan_free(DFZ_SITE, (id))
#define mchan_channel_is_busy(id) dfz_dropin_mchan_busy(DFZ_SITE, (id))
#define mchan_channel_wait(id) dfz_dropin_mchan_wait(DFZ_SITE, (id))

#endif /* DMAFUZZ_DROPIN_MCHAN_V7_H */
