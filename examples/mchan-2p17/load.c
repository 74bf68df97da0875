/* SPDX-License-Identifier: MIT */
/*
 * A 128 KiB L2 -> L1 load on GAP9's cluster DMA with the command word
 * built as Deeploy's MchanDma template builds it: (flags << 17) + size,
 * after the template's guard ceil(log2(size)) <= 17, which lets exactly
 * 2^17 bytes through. The length field holds 17 bits: 2^17 spills into
 * the direction bit, and the command moves nothing the code meant.
 */
#define MCHAN_VERSION 7 /* as the GAP9 build defines it */
#include <pmsis.h>
#include <mchan.h>

#include "load.h"

void load_weights(int8_t *l1, const int8_t *l2)
{
	mchan_transfer_t trans = {
		.cmd = (11 << 17) + SIZE, /* ext2loc | incremental | event */
		.size = SIZE,
		.loc = l1,
		.ext = (void *)l2,
	};
	int tid = mchan_transfer_get_id();

	mchan_transfer_push_1d(trans); /* dfz-expect: PUSH */
	mchan_transfer_wait(tid);
	mchan_transfer_free(tid);
}
