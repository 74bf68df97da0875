// SPDX-License-Identifier: MIT
/*
 * DORY's GAP9 DMA library (include/dmafuzz/dropin/dory-gap9/dory_dma.h)
 * on the MCHAN names' core: each copy is one or more pushes with the
 * command word the library builds (the length, the direction at bit 17,
 * incremental and event, 2-D on the external side for the 2-D lines), on
 * the counter the calling core allocated last. The dispatch of
 * dma_transfer_async and the sizes (a 1-D copy moves length_1d_copy
 * bytes) are the library's own; an HWC to CHW reorder pushes one column
 * per channel from the calling core.
 *
 * A push on a counter the layer freed takes that counter again before it
 * goes out: on the chip the push still counts on it (the core's last id
 * register is unchanged), so the next wait covers it, and no oracle may
 * call that push stale.
 */
#define MCHAN_VERSION 7
#include "dropin_int.h"
#include "dmafuzz/dropin/dory-gap9/dory_dma.h"
#include "dmafuzz/dropin/mchan.h"

#define FLAGS_1D (MCHAN_CMD_FLAG_EVENT_ENABLE | MCHAN_CMD_FLAG_INCREMENTAL)
#define FLAGS_2D (FLAGS_1D | MCHAN_CMD_FLAG_2D_TRANSFER_EXTERNAL)

/* The core's last counter, freed since: allocate until it is ours again
 * (the lowest free one comes first), then give back the others. */
static void retake(struct dfz__dropin *d, struct dfz_site s)
{
	struct dfz_mchan *m = dfz_mchan_get(d->rt);
	int want = d->last_tid[dfz__cores_id(d->cores)];
	uint32_t extra = 0;
	uint32_t got;

	if (want < 0 || (dfz_mchan_tids(m) & 1u << want))
		return;
	while ((got = dfz__mchan_alloc(d, s)) != UINT32_MAX &&
	       (int)got != want)
		extra |= 1u << got;
	for (int t = 0; t < DFZ_MCHAN_NTIDS; t++)
		if (extra & 1u << t)
			dfz_mchan_transfer_free(m, t);
	d->last_tid[dfz__cores_id(d->cores)] = want;
}

static void push(struct dfz__dropin *d, uint32_t cmd, uint32_t ext,
		 uint32_t loc, uint32_t line, uint32_t stride, bool is_2d)
{
	struct dfz_mchan_transfer t = {
		.cmd = cmd, .size = cmd & DFZ_MCHAN_LEN_MASK,
		.loc = (void *)(uintptr_t)loc, .ext = (void *)(uintptr_t)ext,
		.ext_size_1d = line, .ext_stride_1d = stride,
	};

	dfz__mchan_push(d, t, is_2d ? DFZ_MCHAN_PUSH_2D : DFZ_MCHAN_PUSH_1D);
}

static uint32_t cmd_of(uint32_t size, int dir, uint32_t flags)
{
	return size | (uint32_t)dir << MCHAN_CMD_SHIFT_DIRECTION | flags;
}

static void hwc_to_chw(struct dfz__dropin *d, const DmaTransferConf *c)
{
	uint32_t size = (uint32_t)(c->number_of_1d_copies *
				   c->number_of_2d_copies);

	for (int ch = 0; ch < c->length_1d_copy && !d->sited; ch++)
		push(d, cmd_of(size, c->dir, FLAGS_2D), c->ext + (uint32_t)ch,
		     c->loc + size * (uint32_t)ch, 1, (uint32_t)c->stride_1d,
		     true);
}

static void copy_2d(struct dfz__dropin *d, const DmaTransferConf *c,
		    uint32_t ext, uint32_t loc)
{
	uint32_t size = (uint32_t)(c->number_of_1d_copies * c->length_1d_copy);

	push(d, cmd_of(size, c->dir, FLAGS_2D), ext, loc,
	     (uint32_t)c->length_1d_copy, (uint32_t)c->stride_1d, true);
}

static void copy_3d(struct dfz__dropin *d, const DmaTransferConf *c)
{
	uint32_t size = (uint32_t)(c->number_of_1d_copies * c->length_1d_copy);
	uint32_t ext = c->ext, loc = c->loc;

	for (int i = 0; i < c->number_of_2d_copies && !d->sited; i++) {
		copy_2d(d, c, ext, loc);
		loc += size;
		ext += (uint32_t)c->stride_2d;
	}
}

static void copy_1d(struct dfz__dropin *d, const DmaTransferConf *c)
{
	push(d, cmd_of((uint32_t)c->length_1d_copy, c->dir, FLAGS_1D), c->ext,
	     c->loc, 0, 0, false);
}

void dfz_dropin_dory9_copy(struct dfz_site s, enum dfz_dory9_op op,
			   DmaTransferConf conf)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	if (!d)
		return;
	retake(d, s);
	if (op == DFZ_DORY9_ASYNC && conf.hwc_to_chw == 1)
		hwc_to_chw(d, &conf);
	else if (op == DFZ_DORY9_1D || (op == DFZ_DORY9_ASYNC &&
		 conf.number_of_2d_copies == 1 && conf.number_of_1d_copies == 1))
		copy_1d(d, &conf);
	else if (op == DFZ_DORY9_2D || (op == DFZ_DORY9_ASYNC &&
					conf.number_of_2d_copies == 1))
		copy_2d(d, &conf, conf.ext, conf.loc);
	else
		copy_3d(d, &conf);
}

DmaTransfer dfz_dropin_dory9_create(struct dfz_site s)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);
	uint32_t id = d ? dfz__mchan_alloc(d, s) : UINT32_MAX;

	return (DmaTransfer){ .id = id == UINT32_MAX ? -1 : (int)id };
}

/* dma_transfer_wait: wait, then free; dma_transfer_free: free. */
void dfz_dropin_dory9_wait(struct dfz_site s, DmaTransfer t, int free_only)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);
	struct dfz_mchan *m;

	if (!d)
		return;
	m = dfz_mchan_get(d->rt);
	if (!free_only)
		dfz_mchan_transfer_wait(m, t.id);
	dfz_mchan_transfer_free(m, t.id);
}
