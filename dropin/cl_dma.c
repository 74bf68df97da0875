// SPDX-License-Identifier: MIT
/*
 * The PMSIS cluster DMA (pi_cl_dma_*) on the mchan engine with pulpos's
 * semantics: every command allocates a TID of its own and pushes under
 * it; its wait waits that TID and frees it. pulpos carries a 1-D size and
 * a 2-D line length in 16 bits (cldma-size16), and pi_cl_dma_memcpy casts
 * the copy to a command, so the TID lands over copy->ext
 * (cldma-copy-aliases). A command whose local side is not in L1, or whose
 * external side is not in L2, is dma.bad-address at the caller's line,
 * never a crash.
 */
#include <string.h>

#include "dropin_int.h"
#include "dmafuzz/dropin/pmsis.h"

/* A cluster DMA call begins: the emulation's interrupts taken by now. */
static struct dfz__dropin *enter(struct dfz_site s)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	if (d)
		d->apis |= DFZ__API_CLDMA;
	if (d && d->nemul > 0)
		dfz__cldma_irq(d);
	return d;
}

/* [a, a+n) lies whole inside @level. */
static bool inside(struct dfz_rt *rt, unsigned level, uint32_t a, uint64_t n)
{
	struct dfz_span sp;

	return n <= UINT32_MAX &&
	       dfz_mem_locate(rt, (void *)(uintptr_t)a, n ? (uint32_t)n : 1,
			      &sp) && sp.level == level;
}

/* Bytes a side spans: @size in lines of @length, @stride apart. */
static uint64_t span_of(uint32_t size, uint32_t stride, uint32_t length,
			bool is_2d)
{
	uint64_t lines;

	if (!is_2d || length == 0 || length >= size)
		return size;
	lines = (size + (uint64_t)length - 1) / length;
	return (lines - 1) * stride + (size - (lines - 1) * length);
}

/* The pulpos command word: 1-D or 2-D on the external side, incrementing,
 * a completion event to the core. */
static struct dfz_mchan_transfer command(uint32_t ext, uint32_t loc,
					 uint32_t size, uint32_t stride,
					 uint32_t length, int is_2d,
					 pi_cl_dma_dir_e dir)
{
	struct dfz_mchan_transfer t = {
		.cmd = dfz_mchan_cmd(size, dir == PI_CL_DMA_DIR_EXT2LOC, 1, 0,
				     is_2d != 0, 0, 1, 0),
		.size = size,
		.loc = (void *)(uintptr_t)loc,
		.loc_size_1d = size,
		.loc_stride_1d = size,
		.ext = (void *)(uintptr_t)ext,
		.ext_size_1d = is_2d ? length : size,
		.ext_stride_1d = is_2d ? stride : size,
	};

	return t;
}

/* One command: a TID of its own (into *@id), the push under it. */
static void issue(struct dfz__dropin *d, uint32_t ext, uint32_t loc,
		  uint32_t size, uint32_t stride, uint32_t length, int is_2d,
		  pi_cl_dma_dir_e dir, int *id)
{
	struct dfz_mchan *m = dfz_mchan_get(d->rt);
	int tid;

	if (dfz__quirk(d, DFZ_QUIRK_CLDMA_SIZE16)) {
		if (is_2d)
			length = (uint16_t)length;
		else
			size = (uint16_t)size;
	}
	if (!inside(d->rt, DFZ_L1, loc, size) ||
	    !inside(d->rt, DFZ_L2, ext, span_of(size, stride, length, is_2d))) {
		dfz__dropin_fail(d, DFZ_CLASS_DMA_BAD_ADDRESS,
				 "pi_cl_dma_cmd%s(ext 0x%x, loc 0x%x, size %u): "
				 "expected ext inside L2 and loc inside L1",
				 is_2d ? "_2d" : "", ext, loc, size);
		return;
	}
	tid = dfz_mchan_transfer_get_id(m);
	*id = tid;
	if (tid < 0)
		return; /* every counter taken: the tid oracle judges it */
	if (is_2d)
		dfz_mchan_transfer_push_2d(m, tid, command(ext, loc, size,
			stride, length, is_2d, dir));
	else
		dfz_mchan_transfer_push_1d(m, tid, command(ext, loc, size,
			stride, length, is_2d, dir));
}

void dfz_dropin_cl_dma(struct dfz_site s, uint32_t ext, uint32_t loc,
		       uint32_t size, uint32_t stride, uint32_t length,
		       int is_2d, pi_cl_dma_dir_e dir, int *id)
{
	struct dfz__dropin *d = enter(s);

	if (d)
		issue(d, ext, loc, size, stride, length, is_2d, dir, id);
}

void dfz_dropin_cl_dma_cmd(struct dfz_site s, uint32_t ext, uint32_t loc,
			   uint32_t size, pi_cl_dma_dir_e dir,
			   pi_cl_dma_cmd_t *cmd)
{
	struct dfz__dropin *d = enter(s);

	if (!d || dfz__cldma_emul_start(d, cmd, ext, loc, size,
					dir == PI_CL_DMA_DIR_EXT2LOC))
		return;
	issue(d, ext, loc, size, 0, 0, 0, dir, &cmd->id);
	cmd->length = 0; /* not emulated */
}

/* pulpos's wait: the TID's transfers done, then the TID freed. */
static void wait_free(struct dfz__dropin *d, int id)
{
	struct dfz_mchan *m = dfz_mchan_get(d->rt);

	dfz_mchan_transfer_wait(m, id);
	dfz_mchan_transfer_free(m, id);
}

void dfz_dropin_cl_dma_wait(struct dfz_site s, int id)
{
	struct dfz__dropin *d = enter(s);

	if (d)
		wait_free(d, id);
}

void dfz_dropin_cl_dma_cmd_wait(struct dfz_site s, pi_cl_dma_cmd_t *cmd)
{
	struct dfz__dropin *d = enter(s);

	if (d && !dfz__cldma_emul_wait(d, cmd))
		wait_free(d, cmd->id);
}

/* Where the copy's TID lives: over ext (pulpos's cast), or its own id. */
static void *copy_tid(struct dfz__dropin *d, pi_cl_dma_copy_t *copy)
{
	return dfz__quirk(d, DFZ_QUIRK_CLDMA_COPY_ALIASES) ? (void *)&copy->ext :
							    (void *)&copy->id;
}

void dfz_dropin_cl_dma_copy(struct dfz_site s, pi_cl_dma_copy_t *copy,
			    int is_2d)
{
	struct dfz__dropin *d = enter(s);
	int tid = -1;

	if (!d)
		return;
	issue(d, copy->ext, copy->loc, copy->size, is_2d ? copy->stride : 0,
	      is_2d ? copy->length : 0, is_2d, copy->dir, &tid);
	memcpy(copy_tid(d, copy), &tid, sizeof(tid));
}

void dfz_dropin_cl_dma_copy_wait(struct dfz_site s, void *copy)
{
	struct dfz__dropin *d = enter(s);
	int tid;

	if (!d)
		return;
	memcpy(&tid, copy_tid(d, copy), sizeof(tid));
	wait_free(d, tid);
}

/* pulpos's barrier: every command pushed so far is done. */
void dfz_dropin_cl_dma_flush(struct dfz_site s)
{
	struct dfz__dropin *d = enter(s);
	struct dfz_mchan *m;
	uint32_t tids;

	if (!d)
		return;
	m = dfz_mchan_get(d->rt);
	tids = dfz_mchan_tids(m);
	for (int t = 0; t < DFZ_MCHAN_NTIDS; t++)
		if (tids & (1u << t))
			dfz_mchan_transfer_wait(m, t);
}
