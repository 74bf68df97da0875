// SPDX-License-Identifier: MIT
/*
 * The PMSIS cluster DMA (pi_cl_dma_*) on the mchan engine with pulpos's
 * semantics: every command allocates a TID of its own and pushes under
 * it; its wait waits that TID and frees it. pulpos carries a 1-D size and
 * a 2-D line length in 16 bits (cldma-size16), and pi_cl_dma_memcpy casts
 * the copy to a command, so the TID lands over copy->ext
 * (cldma-copy-aliases). A merged command (a copy's merge flag, at_api.h's
 * AT_L2_COPY_MERGED) takes no TID: it joins the one the calling core
 * allocated last, as the hardware's push does, and the wait of the
 * command that allocated it covers it. pi_cl_dma_cmd_2d clears the
 * command's length as the GAP SDK does (its wait reads a non-zero length
 * as an emulated command's). A command whose local side is not in L1, or
 * whose external side is not in L2, is dma.bad-address at the caller's
 * line, and a NULL command or copy a finding there, never a crash.
 */
#include <string.h>

#include "dropin_int.h"
#include "reqlife.h"
#include "dmafuzz/dropin/pmsis.h"

#define ALL_TIDS ((1u << DFZ_MCHAN_NTIDS) - 1u)

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

/* A command's words as the caller gave them. */
struct cl_req {
	uint32_t ext, loc, size, stride, length;
	int is_2d;
	pi_cl_dma_dir_e dir;
};

/* cldma-size16, then the sides' levels: false (a finding) when either
 * side lies outside its memory. */
static bool admit(struct dfz__dropin *d, struct cl_req *r)
{
	if (dfz__quirk(d, DFZ_QUIRK_CLDMA_SIZE16)) {
		if (r->is_2d)
			r->length = (uint16_t)r->length;
		else
			r->size = (uint16_t)r->size;
	}
	if (inside(d->rt, DFZ_L1, r->loc, r->size) &&
	    inside(d->rt, DFZ_L2, r->ext, span_of(r->size, r->stride,
						  r->length, r->is_2d)))
		return true;
	dfz__dropin_fail(d, DFZ_CLASS_DMA_BAD_ADDRESS,
			 "pi_cl_dma_cmd%s(ext 0x%x, loc 0x%x, size %u): "
			 "expected ext inside L2 and loc inside L1",
			 r->is_2d ? "_2d" : "", r->ext, r->loc, r->size);
	return false;
}

/* The push of @r under @tid. */
static void push(struct dfz__dropin *d, int tid, const struct cl_req *r)
{
	struct dfz_mchan *m = dfz_mchan_get(d->rt);
	struct dfz_mchan_transfer t = command(r->ext, r->loc, r->size,
					      r->stride, r->length, r->is_2d,
					      r->dir);

	if (r->is_2d)
		dfz_mchan_transfer_push_2d(m, tid, t);
	else
		dfz_mchan_transfer_push_1d(m, tid, t);
}

/*
 * The TID of a command, or -1 after a finding. pulpos reads it with mutex
 * 0 held (pos/implem/dma.h, __cl_dma_memcpy), and the read is not granted
 * while all 16 are busy: under mchan-stall-no-tid the core stalls until
 * another core frees one (dma.hang when none can); otherwise the call is
 * a finding itself (the tid oracle names a leak first when there is one):
 * the stall never ends, as pi_cl_dma_wait, which frees, needs the mutex.
 */
static int take_tid(struct dfz__dropin *d)
{
	struct dfz_mchan *m = dfz_mchan_get(d->rt);
	struct dfz_site s = d->cur;
	bool stall = dfz__quirk(d, DFZ_QUIRK_MCHAN_STALL_NO_TID);
	int tid;

	while (stall && dfz_mchan_tids(m) == ALL_TIDS) {
		bool ran = dfz__cores_stall(d->cores);

		d->cur = s;
		if (!ran)
			break;
	}
	tid = dfz_mchan_transfer_get_id(m);
	if (tid >= 0)
		return tid;
	dfz__dropin_fail(d, DFZ_CLASS_DMA_HANG, "cluster DMA command with all "
			 "%d TIDs allocated: it %s in the TID allocation "
			 "(expected at most %d commands not yet waited)",
			 DFZ_MCHAN_NTIDS, stall ? "stalls for ever, no other "
			 "core can free one," : "would stall for ever, with "
			 "the mutex its wait needs held,", DFZ_MCHAN_NTIDS);
	return -1;
}

/* One command: a TID of its own (into *@id), the push under it. The TID
 * is the calling core's last, which a merged push joins. */
static void issue_req(struct dfz__dropin *d, struct cl_req r, int *id)
{
	int tid;

	if (!admit(d, &r))
		return;
	tid = take_tid(d);
	*id = tid;
	if (tid < 0)
		return;
	d->last_tid[dfz__cores_id(d->cores)] = tid;
	push(d, tid, &r);
}

static void issue(struct dfz__dropin *d, uint32_t ext, uint32_t loc,
		  uint32_t size, uint32_t stride, uint32_t length, int is_2d,
		  pi_cl_dma_dir_e dir, int *id)
{
	issue_req(d, (struct cl_req){ ext, loc, size, stride, length, is_2d,
				      dir }, id);
}

/* A merged command: no TID of its own, pushed on the core's last one. */
static void merge(struct dfz__dropin *d, struct cl_req r)
{
	unsigned core = dfz__cores_id(d->cores);
	int tid = d->last_tid[core];

	if (!admit(d, &r))
		return;
	if (tid < 0 || !(dfz_mchan_tids(dfz_mchan_get(d->rt)) & 1u << tid)) {
		dfz__dropin_fail(d, DFZ_CLASS_HANDLE_STALE,
				 "merged cluster DMA command on core %u, whose "
				 "last TID (%d) is %s (expected a command with "
				 "a TID of its own before it, not yet waited)",
				 core, tid, tid < 0 ? "none" : "free");
		return;
	}
	push(d, tid, &r);
}

void dfz_dropin_cl_dma(struct dfz_site s, uint32_t ext, uint32_t loc,
		       uint32_t size, uint32_t stride, uint32_t length,
		       int is_2d, pi_cl_dma_dir_e dir, int *id)
{
	struct dfz__dropin *d = enter(s);

	if (d && dfz__dropin_usable(d, id, sizeof(*id), "the id of a cluster "
				    "DMA command"))
		issue(d, ext, loc, size, stride, length, is_2d, dir, id);
}

void dfz_dropin_cl_dma_merge(struct dfz_site s, uint32_t ext, uint32_t loc,
			     uint32_t size, uint32_t stride, uint32_t length,
			     int is_2d, pi_cl_dma_dir_e dir)
{
	struct dfz__dropin *d = enter(s);

	if (d)
		merge(d, (struct cl_req){ ext, loc, size, stride, length,
					  is_2d, dir });
}

void dfz_dropin_cl_dma_cmd(struct dfz_site s, uint32_t ext, uint32_t loc,
			   uint32_t size, pi_cl_dma_dir_e dir,
			   pi_cl_dma_cmd_t *cmd)
{
	struct dfz__dropin *d = enter(s);

	if (!d || !dfz__dropin_usable(d, cmd, sizeof(*cmd), "the command of "
				      "pi_cl_dma_cmd"))
		return;
	dfz__reqlife_hold(d, cmd, sizeof(*cmd), DFZ__REQ_CMD);
	if (dfz__cldma_emul_start(d, cmd, ext, loc, size,
				  dir == PI_CL_DMA_DIR_EXT2LOC))
		return;
	issue(d, ext, loc, size, 0, 0, 0, dir, &cmd->id);
	cmd->length = 0; /* not emulated */
}

/* The GAP SDK's 2-D command (a stride under 64 KiB): its TID, and the
 * length cleared, which its wait reads as "not emulated". */
void dfz_dropin_cl_dma_cmd_2d(struct dfz_site s, uint32_t ext, uint32_t loc,
			      uint32_t size, uint32_t stride, uint32_t length,
			      pi_cl_dma_dir_e dir, pi_cl_dma_cmd_t *cmd)
{
	struct dfz__dropin *d = enter(s);

	if (!d || !dfz__dropin_usable(d, cmd, sizeof(*cmd), "the command of "
				      "pi_cl_dma_cmd_2d"))
		return;
	dfz__reqlife_hold(d, cmd, sizeof(*cmd), DFZ__REQ_CMD);
	issue(d, ext, loc, size, stride, length, 1, dir, &cmd->id);
	cmd->length = 0;
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

	if (d && dfz__dropin_usable(d, cmd, sizeof(*cmd), "the command of "
				    "pi_cl_dma_cmd_wait") &&
	    !dfz__cldma_emul_wait(d, cmd))
		wait_free(d, cmd->id);
	dfz__reqlife_release(cmd);
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

	if (!d || !dfz__dropin_usable(d, copy, sizeof(*copy), is_2d ?
				      "the copy of pi_cl_dma_memcpy_2d" :
				      "the copy of pi_cl_dma_memcpy"))
		return;
	if (copy->merge) {
		merge(d, (struct cl_req){ copy->ext, copy->loc, copy->size,
					  is_2d ? copy->stride : 0,
					  is_2d ? copy->length : 0, is_2d,
					  copy->dir });
		return;
	}
	dfz__reqlife_hold(d, copy, sizeof(*copy), DFZ__REQ_COPY);
	issue(d, copy->ext, copy->loc, copy->size, is_2d ? copy->stride : 0,
	      is_2d ? copy->length : 0, is_2d, copy->dir, &tid);
	memcpy(copy_tid(d, copy), &tid, sizeof(tid));
}

void dfz_dropin_cl_dma_copy_wait(struct dfz_site s, void *copy)
{
	struct dfz__dropin *d = enter(s);
	int tid;

	if (!d || !dfz__dropin_usable(d, copy, sizeof(pi_cl_dma_copy_t),
				      "the copy of pi_cl_dma_wait"))
		return;
	memcpy(&tid, copy_tid(d, copy), sizeof(tid));
	wait_free(d, tid);
	dfz__reqlife_release(copy);
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
