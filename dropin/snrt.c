// SPDX-License-Identifier: MIT
/*
 * The Snitch runtime's names (include/dmafuzz/dropin/snrt.h) on the idma
 * engine and the drop-in's cores: SPMD code on 8 compute cores and one
 * data-mover core, the DMA's starts and waits as the runtime version the
 * quirks name does them (snitch_cluster sw/snRuntime/src/dma.h at the
 * commit Deeploy pins, e02cc9e3, and from #153 on).
 *
 * Transaction ids count from 1 and the completed id from 0 (the hardware
 * resets them to 2 and 1: the same distance, so every comparison the
 * runtime makes comes out the same).
 */
#include "snrt_int.h"
#include "dmafuzz/dropin/snrt.h"

/* A DMA call of the Snitch runtime begins. */
static struct dfz__dropin *enter(struct dfz_site s)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	if (d)
		dfz__snrt_begin(d);
	return d;
}

/* Both sides of a 2-D transfer inside L2/L1, line by line. */
static bool side_ok(struct dfz_rt *rt, uintptr_t p, size_t size,
		    size_t stride, size_t repeat)
{
	struct dfz_span first, last;
	uint64_t end;

	if (size == 0 || repeat == 0)
		return dfz_mem_locate(rt, (void *)p, 1, &first);
	if (size > UINT32_MAX || repeat > UINT32_MAX || stride > UINT32_MAX)
		return false;
	end = (uint64_t)stride * (repeat - 1);
	return dfz_mem_locate(rt, (void *)p, (uint32_t)size, &first) &&
	       end <= UINT32_MAX - p &&
	       dfz_mem_locate(rt, (void *)(p + (uintptr_t)end), (uint32_t)size,
			      &last) &&
	       first.level == last.level;
}

snrt_dma_txid_t dfz_dropin_snrt_start(struct dfz_site s, uintptr_t dst,
				      uintptr_t src, size_t size,
				      size_t dst_stride, size_t src_stride,
				      size_t repeat, int is_2d,
				      uint32_t channel)
{
	struct dfz__dropin *d = enter(s);
	struct dfz_idma *dma;
	int id;

	(void)channel; /* one channel: its ids are the global ones */
	if (!d)
		return (snrt_dma_txid_t)-1;
	/* The pinned runtime: the hardware of its day could not retire a
	 * size-0 transfer, so the start issues nothing. */
	if (size == 0 && !dfz__quirk(d, DFZ_QUIRK_SNRT_HEAD))
		return (snrt_dma_txid_t)-1;
	if (size && repeat && repeat <= UINT32_MAX && dst_stride <= UINT32_MAX)
		dst = dfz__snrt_dma_dst(d, dst, (uint64_t)dst_stride *
					(repeat - 1) + size);
	if (!side_ok(d->rt, dst, size, dst_stride, repeat) ||
	    !side_ok(d->rt, src, size, src_stride, repeat)) {
		dfz__dropin_fail(d, DFZ_CLASS_DMA_BAD_ADDRESS,
				 "snrt_dma_start_%s(dst %#lx, src %#lx, size %zu, "
				 "repeat %zu): expected both sides inside L1 "
				 "or the cluster's memory", is_2d ? "2d" : "1d",
				 (unsigned long)dst, (unsigned long)src, size,
				 repeat);
		return (snrt_dma_txid_t)-1;
	}
	dma = dfz_idma_get(d->rt);
	id = dfz_idma_start_2d(dma, (void *)dst, (const void *)src,
			       (uint32_t)size, (uint32_t)dst_stride,
			       (uint32_t)src_stride, (uint32_t)repeat);
	return id < 0 ? (snrt_dma_txid_t)-1 : (snrt_dma_txid_t)id;
}

void dfz_dropin_snrt_wait(struct dfz_site s, snrt_dma_txid_t tid)
{
	struct dfz__dropin *d = enter(s);
	struct dfz_idma *dma;

	if (!d)
		return;
	dma = dfz_idma_get(d->rt);
	if (dfz__quirk(d, DFZ_QUIRK_SNRT_HEAD)) {
		/* #153 on: spin while completed < tid (unsigned). */
		dfz_idma_wait_reached(dma, tid);
		return;
	}
	/* The pin: spin while (int)(completed - tid) <= 0, so an id never
	 * issued but "behind" the count by the signed distance (-1, the
	 * empty future) returns at once. */
	if (tid > dfz_idma_last_id(dma) &&
	    (int32_t)(dfz_idma_completed_id(dma) - tid) > 0)
		return;
	dfz_idma_wait(dma, tid);
}

void dfz_dropin_snrt_wait_all(struct dfz_site s)
{
	struct dfz__dropin *d = enter(s);

	if (d)
		dfz_idma_wait_all(dfz_idma_get(d->rt));
}

void dfz_dropin_snrt_barrier(struct dfz_site s)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	if (d)
		dfz__cores_barrier(d->cores);
}

uint32_t dfz_dropin_snrt_core_idx(void)
{
	return dfz__cores_id(dfz__dropin_get()->cores);
}

void dfz_dropin_spmd(struct dfz_site s, void (*fn)(void *), void *arg)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);
	int rc;

	if (!d)
		return;
	rc = dfz__dropin_fork(d, DFZ_SNRT_CORES, fn, arg);
	d->cur = s;
	if (rc == DFZ_EHANG)
		dfz__dropin_fail(d, DFZ_CLASS_DMA_HANG,
				 "dfz_snrt_spmd: a cluster barrier can never "
				 "complete (a core returned while the others "
				 "wait at it)");
	else if (rc < 0)
		dfz__dropin_fail(d, DFZ_CLASS_RT_ERRCODE,
				 "dfz_snrt_spmd cannot run: %s (not from inside "
				 "a fork)", dfz_strerror(rc));
}
