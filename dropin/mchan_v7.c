// SPDX-License-Identifier: MIT
/*
 * Deeploy's mchan_v7.h names (include/dmafuzz/dropin/mchan_v7.h) on the
 * mchan engine. The caller's command word goes to the engine as written;
 * a push carries the counter its core allocated last, as on the hardware
 * (a push with none allocated is handle.stale at its line, since nothing
 * could ever wait for it); a local side outside L1 or an external side
 * outside L2 is dma.bad-address, never a fault of the harness.
 */
#include "dropin_int.h"
#include "dmafuzz/dropin/mchan_v7.h"

static bool in_level(struct dfz_rt *rt, const void *p, unsigned level)
{
	struct dfz_span sp;

	return dfz_mem_locate(rt, p, 1, &sp) && sp.level == level;
}

void dfz_dropin_mchan_push(struct dfz_site s, struct dfz_mchan_v7_push p)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);
	unsigned core;
	struct dfz_mchan_transfer t = {
		.cmd = p.cmd,
		.size = p.cmd & DFZ_MCHAN_LEN_MASK,
		.loc = p.loc,
		.loc_size_1d = p.loc_size_1d,
		.loc_stride_1d = p.loc_stride_2d,
		.ext = p.ext,
		.ext_size_1d = p.ext_size_1d,
		.ext_stride_1d = p.ext_stride_2d,
	};

	if (!d)
		return;
	core = dfz__cores_id(d->cores);
	if (d->last_tid[core] < 0) {
		dfz__dropin_fail(d, DFZ_CLASS_HANDLE_STALE,
				 "mchan push on core %u, which allocated no "
				 "channel (expected mchan_channel_alloc() "
				 "before the push)", core);
		return;
	}
	if (!in_level(d->rt, p.loc, DFZ_L1) || !in_level(d->rt, p.ext, DFZ_L2)) {
		dfz__dropin_fail(d, DFZ_CLASS_DMA_BAD_ADDRESS,
				 "mchan push (cmd 0x%08x, loc %p, ext %p): "
				 "expected loc inside L1 and ext inside L2",
				 p.cmd, p.loc, p.ext);
		return;
	}
	dfz_mchan_transfer_push(dfz_mchan_get(d->rt), d->last_tid[core], t);
}

uint32_t dfz_dropin_mchan_alloc(struct dfz_site s)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);
	int tid;

	if (!d)
		return UINT32_MAX;
	tid = dfz_mchan_transfer_get_id(dfz_mchan_get(d->rt));
	d->last_tid[dfz__cores_id(d->cores)] = tid < 0 ? -1 : tid;
	return (uint32_t)tid;
}

void dfz_dropin_mchan_free(struct dfz_site s, uint32_t id)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	if (d)
		dfz_mchan_transfer_free(dfz_mchan_get(d->rt),
					id > INT32_MAX ? -1 : (int)id);
}

uint32_t dfz_dropin_mchan_busy(struct dfz_site s, uint32_t id)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	if (!d || id > MCHAN_CHANNEL_ID_MAX)
		return 0;
	return dfz_mchan_transfer_busy(dfz_mchan_get(d->rt), (int)id) ?
		       1u << id : 0;
}

void dfz_dropin_mchan_wait(struct dfz_site s, uint32_t id)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	if (d)
		dfz_mchan_transfer_wait(dfz_mchan_get(d->rt),
					id > INT32_MAX ? -1 : (int)id);
}
