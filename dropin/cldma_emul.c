// SPDX-License-Identifier: MIT
/*
 * cldma-emul-64k: the cluster DMA of GAP9-class SDKs (gap_sdk's Vega port
 * of PMSIS, cl_dma.h and cl_dma_irq.c, the public code closest to GAP9)
 * runs a 1-D pi_cl_dma_cmd of 64 KiB or more as 64 KiB pieces. The
 * caller's command struct keeps the progress (loc_addr, ext_addr, size)
 * and is linked by its `next` into a FIFO of such commands; the first
 * piece is pushed at once when the FIFO was empty, and the DMA's
 * interrupt handler frees each finished piece's TID, pops a command
 * whose size reached 0 and pushes the next piece. The wait on such a
 * command spins until its size is 0: it can return while the last piece,
 * pushed by the handler, is still in flight.
 *
 * The handler runs here where its interrupt would have been taken by
 * then: at every cluster DMA call and in the emulated wait. It observes a
 * piece's completion as an interrupt does, through a wait on the piece's
 * TID, then frees it. The FIFO's order and each entry's piece TID are the
 * layer's own record; the `next` links it writes into the caller's
 * structs are checked against it before they would be followed. When the
 * body ends, the interrupts still to come free their pieces' TIDs from
 * that record alone: the structs may be gone with the body's frame (a
 * wait that returned early let the caller believe it could drop them).
 */
#include <string.h>

#include "dropin_int.h"
#include "dmafuzz/dropin/pmsis.h"

#define PIECE 65536u

static void fail_fifo(struct dfz__dropin *d, const pi_cl_dma_cmd_t *c)
{
	dfz__dropin_fail(d, DFZ_CLASS_QUEUE_CORRUPT,
			 "the cluster DMA's FIFO of emulated commands: the "
			 "next link of command %p was overwritten while it "
			 "was queued (expected each command struct to stay "
			 "untouched until its wait returned)", (const void *)c);
}

/* The piece at the head command's cursor: a TID, then the push (as the
 * handler does, in that order); the cursor moves on. */
static void push_piece(struct dfz__dropin *d)
{
	pi_cl_dma_cmd_t *c = d->emul[0].cmd;
	struct dfz_mchan *m = dfz_mchan_get(d->rt);
	uint32_t n = c->size < c->length ? c->size : c->length;
	struct dfz_mchan_transfer t = {
		.cmd = c->cmd | n,
		.size = n,
		.loc = (void *)(uintptr_t)c->loc_addr,
		.ext = (void *)(uintptr_t)c->ext_addr,
	};

	c->loc_addr += n;
	c->ext_addr += c->stride;
	c->size -= n;
	d->emul[0].last = c->size == 0;
	c->id = d->emul[0].tid = dfz_mchan_transfer_get_id(m);
	if (c->id >= 0)
		dfz_mchan_transfer_push_1d(m, c->id, t);
}

bool dfz__cldma_emul_start(struct dfz__dropin *d, pi_cl_dma_cmd_t *c,
			   uint32_t ext, uint32_t loc, uint32_t size, int ext2loc)
{
	if (!dfz__quirk(d, DFZ_QUIRK_CLDMA_EMUL_64K) || size < PIECE)
		return false;
	if (d->nemul == DFZ__DROPIN_EMUL) {
		dfz__dropin_fail(d, DFZ_CLASS_RT_ERRCODE, "more than %d emulated "
				 "cluster DMA commands queued at once",
				 DFZ__DROPIN_EMUL);
		return true;
	}
	*c = (pi_cl_dma_cmd_t){
		.id = -1,
		/* pieces raise the interrupt, not the core's event */
		.cmd = dfz_mchan_cmd(0, (unsigned)ext2loc, 1, 0, 0, 1, 0, 0),
		.size = size, .stride = PIECE, .length = PIECE,
		.loc_addr = loc, .ext_addr = ext, .next = NULL,
	};
	d->emul[d->nemul++] = (struct dfz__emul){ c, -1, false };
	if (d->nemul > 1)
		d->emul[d->nemul - 2].cmd->next = c;
	else
		push_piece(d);
	return true;
}

/* The head's piece is done: observed, its TID freed. */
static void retire_piece(struct dfz__dropin *d)
{
	struct dfz_mchan *m = dfz_mchan_get(d->rt);

	dfz_mchan_transfer_wait(m, d->emul[0].tid);
	dfz_mchan_transfer_free(m, d->emul[0].tid);
	d->emul[0].tid = -1;
}

static void pop(struct dfz__dropin *d)
{
	d->nemul--;
	memmove(d->emul, d->emul + 1, d->nemul * sizeof(*d->emul));
}

/* The handler, for each head whose piece finished. */
void dfz__cldma_irq(struct dfz__dropin *d)
{
	struct dfz_mchan *m = dfz_mchan_get(d->rt);

	while (d->nemul > 0 && !d->sited) {
		pi_cl_dma_cmd_t *c = d->emul[0].cmd;

		if (d->emul[0].tid >= 0 &&
		    dfz_mchan_transfer_busy(m, d->emul[0].tid))
			return;
		if (d->emul[0].tid >= 0)
			retire_piece(d);
		if (c->size == 0) {
			if (c->next != (d->nemul > 1 ? d->emul[1].cmd : NULL)) {
				fail_fifo(d, c);
				return;
			}
			pop(d);
			if (d->nemul == 0)
				return;
		}
		push_piece(d);
		if (d->emul[0].tid < 0)
			return; /* no TID: the tid oracle judged it */
	}
}

bool dfz__cldma_emul_wait(struct dfz__dropin *d, pi_cl_dma_cmd_t *c)
{
	struct dfz_mchan *m = dfz_mchan_get(d->rt);

	if (!dfz__quirk(d, DFZ_QUIRK_CLDMA_EMUL_64K) || c->length == 0)
		return false;
	dfz__cldma_irq(d);
	while (c->size > 0 && !d->sited) {
		if (d->nemul == 0 || d->emul[0].tid < 0) {
			dfz__dropin_fail(d, DFZ_CLASS_DMA_HANG,
					 "pi_cl_dma_cmd_wait on an emulated command "
					 "whose size (%u) no queued piece will "
					 "bring to 0", c->size);
			return true;
		}
		if (dfz_mchan_transfer_wait(m, d->emul[0].tid) < 0)
			return true; /* a hang: judged by the hang oracle */
		dfz__cldma_irq(d);
	}
	return true;
}

void dfz__cldma_drain(struct dfz__dropin *d)
{
	if (d->nemul == 0 || d->sited)
		return;
	if (d->emul[0].tid >= 0 && d->emul[0].last) {
		retire_piece(d);
		pop(d);
	}
	if (d->nemul > 0 && !d->sited)
		dfz__dropin_fail(d, DFZ_CLASS_HANDLE_LEAK, "%u emulated cluster "
				 "DMA command(s) still queued when the body "
				 "ended: their pieces never ran (expected a "
				 "pi_cl_dma_cmd_wait on each)", d->nemul);
	d->nemul = 0;
}
