// SPDX-License-Identifier: MIT
/*
 * Deeploy's mchan_v7.h and GAP9 mchan.h names (include/dmafuzz/dropin/) on
 * the mchan engine. The caller's command word goes to the engine as written;
 * a push carries the counter its core allocated last, as on the hardware
 * (a push with none allocated is handle.stale at its line, since nothing
 * could ever wait for it); a local side outside L1 or an external side
 * outside L2 is dma.bad-address, never a fault of the harness. These
 * names take no pointer the drop-in reads or writes (transfers by value,
 * counters by number, loc and ext only located, never dereferenced), so
 * none needs dfz__dropin_usable(); DORY's DMA_copy does (dory.c).
 */
#define MCHAN_VERSION 7
#include "dropin_int.h"
#include "dmafuzz/dropin/mchan.h"

static bool in_level(struct dfz_rt *rt, const void *p, unsigned level)
{
	struct dfz_span sp;

	return dfz_mem_locate(rt, p, 1, &sp) && sp.level == level;
}

void dfz__mchan_push(struct dfz__dropin *d, struct dfz_mchan_transfer t,
		     int kind)
{
	unsigned core = dfz__cores_id(d->cores);
	struct dfz_mchan *m = dfz_mchan_get(d->rt);
	int tid = d->last_tid[core];

	d->apis |= DFZ__API_MCHAN;
	/* mchan-stall-no-tid: a core that never allocated pushes on the
	 * counter its port resets to (0 in the RTL). */
	if (tid < 0 && dfz__quirk(d, DFZ_QUIRK_MCHAN_STALL_NO_TID))
		tid = 0;
	if (tid < 0) {
		dfz__dropin_fail(d, DFZ_CLASS_HANDLE_STALE,
				 "mchan push on core %u, which allocated no "
				 "channel (expected an allocation before the "
				 "push)", core);
		return;
	}
	if (!in_level(d->rt, t.loc, DFZ_L1) || !in_level(d->rt, t.ext, DFZ_L2)) {
		dfz__dropin_fail(d, DFZ_CLASS_DMA_BAD_ADDRESS,
				 "mchan push (cmd 0x%08x, loc %p, ext %p): "
				 "expected loc inside L1 and ext inside L2",
				 t.cmd, t.loc, t.ext);
		return;
	}
	if (kind == DFZ_MCHAN_PUSH_1D)
		dfz_mchan_transfer_push_1d(m, tid, t);
	else if (kind == DFZ_MCHAN_PUSH_2D)
		dfz_mchan_transfer_push_2d(m, tid, t);
	else
		dfz_mchan_transfer_push(m, tid, t);
}

void dfz_dropin_mchan_push(struct dfz_site s, struct dfz_mchan_v7_push p)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);
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

	if (d)
		dfz__mchan_push(d, t, DFZ_MCHAN_PUSH_GENERIC);
}

void dfz_dropin_mchan_push_t(struct dfz_site s, mchan_transfer_t g,
			     enum dfz_mchan_push_kind kind)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);
	struct dfz_mchan_transfer t = {
		.cmd = (uint32_t)g.cmd,
		.size = (uint32_t)g.size,
		.loc = g.loc,
		.loc_size_1d = (uint32_t)g.loc_size_1d,
		.loc_stride_1d = (uint32_t)g.loc_stride_1d,
		.ext = g.ext,
		.ext_size_1d = (uint32_t)g.ext_size_1d,
		.ext_stride_1d = (uint32_t)g.ext_stride_1d,
	};

	if (d)
		dfz__mchan_push(d, t, kind);
}

uint32_t dfz__mchan_alloc(struct dfz__dropin *d, struct dfz_site s)
{
	struct dfz_mchan *m = dfz_mchan_get(d->rt);
	int tid;

	d->apis |= DFZ__API_MCHAN;
	/* mchan-stall-no-tid: with every counter taken the read stalls
	 * until another core frees one; with none to run, for ever. */
	while (dfz__quirk(d, DFZ_QUIRK_MCHAN_STALL_NO_TID) &&
	       dfz_mchan_tids(m) == (1u << DFZ_MCHAN_NTIDS) - 1) {
		if (!dfz__cores_stall(d->cores)) {
			d->cur = s;
			dfz__dropin_fail(d, DFZ_CLASS_DMA_HANG,
					 "mchan_channel_alloc stalls: all %d "
					 "counters are allocated and no other "
					 "core can free one", DFZ_MCHAN_NTIDS);
			return UINT32_MAX;
		}
		d->cur = s;
	}
	tid = dfz_mchan_transfer_get_id(m);
	d->last_tid[dfz__cores_id(d->cores)] = tid < 0 ? -1 : tid;
	return tid < 0 ? UINT32_MAX : (uint32_t)tid; /* none: the tid
						      * oracle judges it */
}

uint32_t dfz_dropin_mchan_alloc(struct dfz_site s)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	return d ? dfz__mchan_alloc(d, s) : UINT32_MAX;
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
