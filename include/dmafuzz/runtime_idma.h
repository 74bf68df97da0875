/* SPDX-License-Identifier: MIT */
/*
 * Part of the runtime layer's public header (include dmafuzz/runtime.h):
 * the idma engine, a Snitch-style cluster DMA between L2 and L1. A 2-D
 * start returns a monotonically increasing transaction id (txid, 1 for the
 * first of a run); the hardware counts the transfers it retired (the
 * completed id), and a wait spins on that count. The names follow the
 * Snitch runtime (snrt_dma_start_1d/_2d, snrt_dma_wait, snrt_dma_wait_all)
 * with a dfz_ prefix and an explicit engine, so a mapping header is one
 * macro per name, e.g.
 *   #define snrt_dma_start_1d(d, s, n) dfz_idma_start_1d(my_idma, d, s, n)
 *
 * The lag: dfz_idma_wait(t) is the Snitch runtime's wait at the commit
 * Deeploy pins, which spins until the completed count is strictly greater
 * than t. Transfers retire in order, so t must be followed by another
 * retired transfer: the last issued id never resolves alone, and
 * generated code issues a dummy transfer after each copy to work around
 * it. dfz_idma_wait_reached(t) is the later runtime's wait (count >= t).
 * dfz_idma_wait_all() polls the busy status and is not affected.
 * With cfg.quirks DFZ_RTQ_IDMA_ZERO_RETIRES, a transfer without work
 * retires as it is accepted, counting ahead of older ones in flight.
 * With DFZ_RTQ_IDMA_ID_AT_PUSH (iDMA v0.6.0 on, idma_inst64_top) a start
 * returns the id counter as it stands at the push (dfz_idma_next_id())
 * and the counter advances when the midend pops the request from the
 * queue, which it does once the backend accepted the request's last line.
 * The backend accepts lines ahead of the data: its legalizer takes the
 * next line while the bursts of the lines before it fit its request
 * FIFOs (dfz_idma_ax_inflight() bursts, iDMA's NumAxInFlight; a line is
 * one burst unless it crosses a 4 KiB page), at the push and whenever a
 * line finishes moving. So on an idle engine a request of at most
 * NumAxInFlight + 1 lines pops at its push and its start's id is exact;
 * behind a longer 2-D transfer, or a backend whose window is full,
 * starts return an id below the one their transfer retires under, and
 * back-to-back starts return the same id. A transfer without work pops
 * when the lines before it were accepted, and with
 * DFZ_RTQ_IDMA_ZERO_RETIRES retires there. Events name every transfer by
 * the id its start returned.
 */
#ifndef DMAFUZZ_RUNTIME_IDMA_H
#define DMAFUZZ_RUNTIME_IDMA_H

#define DFZ_IDMA_FIFO 64       /* transfers the hardware queue holds */

/* The backend's window under DFZ_RTQ_IDMA_ID_AT_PUSH, in bursts: iDMA
 * v0.6.0's NumAxInFlight, the depth of the backend's read and write
 * request FIFOs and of its AW store (target/rtl/idma_backend_rw_axi.sv
 * L494-528, src/backend/idma_channel_coupler.sv L94-110, at d6245c8b),
 * which the Snitch cluster sets from its configuration's
 * dma_axi_req_fifo_depth: 24 in target/snitch_cluster/cfg/default.hjson
 * L28 (snitch_cluster e02cc9e3, Deeploy's pin; cfg/default.json L21 at
 * 2fa38482), passed by snitch_cluster_wrapper.sv.tpl L275 (the RTL's
 * own parameter default is 3, snitch_cluster.sv L57). */
#define DFZ_IDMA_AX_INFLIGHT 24
#define DFZ_IDMA_AX_INFLIGHT_MAX 64

/* DFZ_EV_ISSUE aux of a transfer its caller will never wait for: one the
 * adapter issues without request storage (the dummy after each copy). */
#define DFZ_IDMA_UNOWED 1

struct dfz_idma;

/** dfz_idma_get() - the runtime's idma engine (one per runtime), or NULL
 * for a NULL @rt. */
struct dfz_idma *dfz_idma_get(struct dfz_rt *rt);

/**
 * dfz_idma_start_2d() - queue @repeat lines of @size bytes from @src to
 * @dst; line k starts at @src + k * @src_stride and @dst + k * @dst_stride.
 * Either side may lie in L2 or L1. Addresses are not checked here: the
 * engine checks both sides against the memory model as it moves bytes and
 * faults (DFZ_EV_FAULT, the transfer completes, the rest unmoved) outside
 * it. A transfer of 0 bytes (@size or @repeat 0) completes in its turn,
 * after the latency, without moving; with DFZ_RTQ_IDMA_ZERO_RETIRES it
 * retires at once (DFZ_EV_COMPLETE right after the DFZ_EV_ISSUE).
 * A start into a full queue steps the engines until a slot frees, at most
 * cfg.wait_bound steps.
 * @dst, @src: addresses only; the engine reads and writes them at service
 *             time, not during the call.
 * Emits DFZ_EV_ISSUE (id = the txid; desc: ext2loc when @dst is in L1 and
 * @src is not, ext = the other side; aux = 0).
 * Return: the txid (1 for the first transfer of a run, then increasing by
 * one; with DFZ_RTQ_IDMA_ID_AT_PUSH dfz_idma_next_id() at the push, which
 * may repeat), DFZ_EINVAL for a NULL @dev, DFZ_EHANG when the queue stayed full
 * (DFZ_EV_HANG emitted), or DFZ_ERANGE when the txids are exhausted.
 */
int dfz_idma_start_2d(struct dfz_idma *dev, void *dst, const void *src,
		      uint32_t size, uint32_t dst_stride, uint32_t src_stride,
		      uint32_t repeat);

/** dfz_idma_start_1d() - as dfz_idma_start_2d() for one contiguous line of
 * @size bytes. */
int dfz_idma_start_1d(struct dfz_idma *dev, void *dst, const void *src,
		      uint32_t size);

/**
 * dfz_idma_wait() - step the engines until dfz_idma_completed_id(@dev)
 * is above @txid, at most cfg.wait_bound steps: the lagging wait, so a
 * wait on the last issued txid hangs unless another transfer follows it;
 * a txid never issued hangs too (the hardware spins). Emits DFZ_EV_WAIT
 * and DFZ_EV_WAITED (aux = the return value) with id = @txid, and
 * DFZ_EV_HANG on a hang.
 * Return: 0, DFZ_EHANG, or DFZ_EINVAL for a NULL @dev.
 */
int dfz_idma_wait(struct dfz_idma *dev, uint32_t txid);

/** dfz_idma_wait_reached() - as dfz_idma_wait(), until the completed id
 * is @txid or above (no lag). */
int dfz_idma_wait_reached(struct dfz_idma *dev, uint32_t txid);

/**
 * dfz_idma_wait_all() - step the engines until @dev is idle (the busy
 * status, unaffected by the lag). Events as dfz_idma_wait() with id = -1.
 * Return: 0, DFZ_EHANG, or DFZ_EINVAL for a NULL @dev.
 */
int dfz_idma_wait_all(struct dfz_idma *dev);

/** dfz_idma_completed_id() - the completed id as the hardware reports it:
 * the transfers retired this run. */
uint32_t dfz_idma_completed_id(const struct dfz_idma *dev);

/** dfz_idma_last_id() - the txid the last start of this run returned. */
uint32_t dfz_idma_last_id(const struct dfz_idma *dev);

/**
 * dfz_idma_set_ax_inflight() - the backend's window of @dev in bursts
 * (NumAxInFlight; 0 restores DFZ_IDMA_AX_INFLIGHT). It holds across
 * dfz_rt_reset() and matters only under DFZ_RTQ_IDMA_ID_AT_PUSH.
 * Return: 0, or DFZ_EINVAL for a NULL @dev, 1 (iDMA needs more than 1),
 * or more than DFZ_IDMA_AX_INFLIGHT_MAX.
 */
int dfz_idma_set_ax_inflight(struct dfz_idma *dev, uint32_t bursts);

/** dfz_idma_ax_inflight() - the window dfz_idma_set_ax_inflight() set; 0
 * for a NULL @dev. */
uint32_t dfz_idma_ax_inflight(const struct dfz_idma *dev);

/** dfz_idma_next_id() - the id counter as the hardware reports it (the
 * status the front end calls next_id): the id the next transfer to be
 * counted gets, counting from 1; 0 for a NULL @dev. */
uint32_t dfz_idma_next_id(const struct dfz_idma *dev);

/** dfz_idma_is_busy() - true while a transfer is queued or moving. */
bool dfz_idma_is_busy(const struct dfz_idma *dev);

#endif /* DMAFUZZ_RUNTIME_IDMA_H */
