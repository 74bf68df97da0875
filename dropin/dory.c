// SPDX-License-Identifier: MIT
/*
 * DORY's DMA library (include/dmafuzz/dropin/dory_dma.h) as Deeploy's
 * TargetLibraries ship it, on the MCHAN names' core: every copy is one or
 * more mchan pushes with the command word the library builds (the length,
 * the direction at bit 17, incremental, event, and 2-D external when it
 * is strided), on the counter the calling core allocated last. The core
 * gating, the dispatch of dory_dma_memcpy_async and the mindims copies'
 * trust in copy->mchan_cmd are the library's own.
 */
#define MCHAN_VERSION 7
#include "dropin_int.h"
#include "dmafuzz/dropin/dory_dma.h"
#include "dmafuzz/dropin/mchan.h"

#define FLAGS_1D (MCHAN_CMD_FLAG_EVENT_ENABLE | MCHAN_CMD_FLAG_INCREMENTAL)
#define FLAGS_2D (FLAGS_1D | MCHAN_CMD_FLAG_2D_TRANSFER_EXTERNAL)

static uint32_t cmd_of(uint32_t size, int dir, uint32_t flags)
{
	return size | (uint32_t)dir << MCHAN_CMD_SHIFT_DIRECTION | flags;
}

static void push_1d(struct dfz__dropin *d, uint32_t cmd, uint8_t *ext,
		    uint8_t *loc)
{
	struct dfz_mchan_transfer t = {
		.cmd = cmd, .size = cmd & DFZ_MCHAN_LEN_MASK,
		.loc = loc, .ext = ext,
	};

	dfz__mchan_push(d, t, DFZ_MCHAN_PUSH_1D);
}

static void push_2d(struct dfz__dropin *d, uint32_t cmd, uint8_t *ext,
		    uint8_t *loc, uint32_t size_1d, uint32_t stride_1d)
{
	struct dfz_mchan_transfer t = {
		.cmd = cmd, .size = cmd & DFZ_MCHAN_LEN_MASK,
		.loc = loc, .ext = ext,
		.ext_size_1d = size_1d, .ext_stride_1d = stride_1d,
	};

	dfz__mchan_push(d, t, DFZ_MCHAN_PUSH_2D);
}

/* One 2-D push per channel of the calling core's share: each channel is
 * a column of one-byte elements stride_1d apart, made dense in L1. */
static void hwc_to_chw(struct dfz__dropin *d, const DMA_copy *c)
{
	uint32_t cores = DFZ_DROPIN_CORES, n = c->length_1d_copy;
	uint32_t per = n / cores + (n % cores != 0);
	uint32_t me = dfz__cores_id(d->cores);
	uint32_t start = per * me < n ? per * me : n;
	uint32_t stop = start + per < n ? start + per : n;
	uint32_t size = (uint32_t)c->number_of_1d_copies * c->number_of_2d_copies;

	for (uint32_t ch = start; ch < stop; ch++)
		push_2d(d, cmd_of(size, c->dir, FLAGS_2D), (uint8_t *)c->ext + ch,
			(uint8_t *)c->loc + size * ch, 1, c->stride_1d);
}

static void copy_1d(struct dfz__dropin *d, const DMA_copy *c)
{
	uint32_t size = c->length_1d_copy * c->number_of_1d_copies *
			c->number_of_2d_copies;

	push_1d(d, cmd_of(size, c->dir, FLAGS_1D), c->ext, c->loc);
}

static void copy_2d(struct dfz__dropin *d, const DMA_copy *c)
{
	uint32_t len = c->length_1d_copy, n1 = c->number_of_1d_copies;
	uint32_t n2 = c->number_of_2d_copies;

	push_2d(d, cmd_of(n1 * len * n2, c->dir, FLAGS_2D), c->ext, c->loc,
		n2 == 1 ? len : len * n1, n2 == 1 ? c->stride_1d : c->stride_2d);
}

static void copy_3d(struct dfz__dropin *d, const DMA_copy *c)
{
	uint32_t len = c->length_1d_copy, n1 = c->number_of_1d_copies;
	uint8_t *ext = c->ext, *loc = c->loc;

	for (uint32_t i = 0; i < c->number_of_2d_copies; i++) {
		push_2d(d, cmd_of(n1 * len, c->dir, FLAGS_2D), ext, loc, len,
			c->stride_1d);
		loc += n1 * len;
		ext += c->stride_2d;
	}
}

/* The library's dispatch, its "// wrong!" 2-D condition included. */
static void copy_async(struct dfz__dropin *d, const DMA_copy *c)
{
	uint32_t len = c->length_1d_copy, n1 = c->number_of_1d_copies;
	uint32_t n2 = c->number_of_2d_copies;

	if (c->hwc_to_chw == 1)
		hwc_to_chw(d, c);
	else if ((n2 == 1 && n1 == 1) ||
		 (c->stride_1d == len && n1 * len == c->stride_2d) ||
		 (n2 == 1 && len == c->stride_1d))
		copy_1d(d, c);
	else if (n2 == 1 || len == c->stride_1d)
		copy_2d(d, c);
	else
		copy_3d(d, c);
}

static void mindims_2d(struct dfz__dropin *d, const DMA_copy *c,
		       uint8_t *ext, uint8_t *loc)
{
	push_2d(d, c->mchan_cmd, ext, loc, c->length_1d_copy, c->stride_1d);
}

static void mindims_3d(struct dfz__dropin *d, const DMA_copy *c)
{
	uint32_t len2d = c->mchan_cmd & DFZ_MCHAN_LEN_MASK;
	uint8_t *ext = c->ext, *loc = c->loc;

	for (uint32_t i = 0; i < c->number_of_2d_copies; i++) {
		mindims_2d(d, c, ext, loc);
		loc += len2d;
		ext += c->stride_2d;
	}
}

static void mindims(struct dfz__dropin *d, const DMA_copy *c)
{
	if (c->number_of_2d_copies == 1 && c->number_of_1d_copies == 1)
		push_1d(d, c->mchan_cmd, c->ext, c->loc);
	else if (c->number_of_2d_copies == 1)
		mindims_2d(d, c, c->ext, c->loc);
	else
		mindims_3d(d, c);
}

/* The argument of each operation, for a bad DMA_copy pointer. */
static const char *const op_name[] = {
	[DFZ_DORY_HWC_TO_CHW] = "the DMA_copy of dory_dma_memcpy_hwc_to_chw",
	[DFZ_DORY_1D] = "the DMA_copy of dory_dma_memcpy_1d_async",
	[DFZ_DORY_2D] = "the DMA_copy of dory_dma_memcpy_2d_async",
	[DFZ_DORY_3D] = "the DMA_copy of dory_dma_memcpy_3d_async",
	[DFZ_DORY_ASYNC] = "the DMA_copy of dory_dma_memcpy_async",
	[DFZ_DORY_1D_MINDIMS] = "the DMA_copy of dory_dma_memcpy_1d_mindims_async",
	[DFZ_DORY_2D_MINDIMS] = "the DMA_copy of dory_dma_memcpy_2d_mindims_async",
	[DFZ_DORY_3D_MINDIMS] = "the DMA_copy of dory_dma_memcpy_3d_mindims_async",
	[DFZ_DORY_MINDIMS] = "the DMA_copy of dory_dma_memcpy_mindims_async",
	[DFZ_DORY_FREE] = "the DMA_copy of dory_dma_free",
	[DFZ_DORY_BARRIER] = "the DMA_copy of dory_dma_barrier",
};

void dfz_dropin_dory(struct dfz_site s, enum dfz_dory_op op, DMA_copy *copy)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);
	bool core0 = d && dfz__cores_id(d->cores) == 0;
	struct dfz_mchan *m;

	if (!d)
		return;
	if (!dfz__dropin_usable(d, copy, sizeof(*copy),
				(unsigned)op < sizeof(op_name) / sizeof(*op_name) ?
				op_name[op] : "the DMA_copy"))
		return;
	m = dfz_mchan_get(d->rt);
	switch (op) {
	case DFZ_DORY_HWC_TO_CHW: hwc_to_chw(d, copy); break;
	case DFZ_DORY_1D: if (core0) copy_1d(d, copy); break;
	case DFZ_DORY_2D: if (core0) copy_2d(d, copy); break;
	case DFZ_DORY_3D: if (core0) copy_3d(d, copy); break;
	case DFZ_DORY_ASYNC:
		/* The dispatch runs everywhere; the copies it picks act on
		 * core 0, hwc_to_chw on every calling core. */
		if (core0 || copy->hwc_to_chw == 1)
			copy_async(d, copy);
		break;
	case DFZ_DORY_1D_MINDIMS:
		push_1d(d, copy->mchan_cmd, copy->ext, copy->loc);
		break;
	case DFZ_DORY_2D_MINDIMS: mindims_2d(d, copy, copy->ext, copy->loc); break;
	case DFZ_DORY_3D_MINDIMS: mindims_3d(d, copy); break;
	case DFZ_DORY_MINDIMS: mindims(d, copy); break;
	case DFZ_DORY_FREE: dfz_mchan_transfer_free(m, copy->tid); break;
	case DFZ_DORY_BARRIER: dfz_mchan_transfer_wait(m, copy->tid); break;
	}
}

int dfz_dropin_dory_allocate(struct dfz_site s)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	return d ? (int)dfz__mchan_alloc(d, s) : -1;
}
