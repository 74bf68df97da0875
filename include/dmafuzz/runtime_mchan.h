/* SPDX-License-Identifier: MIT */
/*
 * Part of the runtime layer's public header (include dmafuzz/runtime.h):
 * the mchan engine, the PULP cluster DMA between L2 (the external side) and
 * L1 (the local side, the cluster's TCDM). Generated code allocates a
 * transfer id (TID), pushes one or more commands under it, waits for the
 * TID and frees it. The names follow the PULP mchan driver
 * (mchan_transfer_get_id, mchan_transfer_push_1d/_2d, mchan_transfer_busy,
 * mchan_transfer_wait, mchan_transfer_free) with a dfz_ prefix, an explicit
 * engine and, for a push, an explicit TID: on the hardware a push carries
 * the TID its core allocated last, which a model driven by interleaved
 * handles cannot leave implicit. A mapping header binds both with one
 * macro per name, e.g.
 *   #define mchan_transfer_push_1d(t) \
 *           dfz_mchan_transfer_push_1d(my_mchan, my_tid, (t))
 */
#ifndef DMAFUZZ_RUNTIME_MCHAN_H
#define DMAFUZZ_RUNTIME_MCHAN_H

#define DFZ_MCHAN_NTIDS 16     /* transfer ids 0..15 */
#define DFZ_MCHAN_FIFO 64      /* commands the hardware FIFO holds */

/* The command word: a 17-bit length, then one bit per flag. */
#define DFZ_MCHAN_LEN_BITS 17
#define DFZ_MCHAN_LEN_MASK ((1u << DFZ_MCHAN_LEN_BITS) - 1u) /* 0x1FFFF */
#define DFZ_MCHAN_SHIFT_EXT2LOC 17     /* 1: L2 -> L1 */
#define DFZ_MCHAN_SHIFT_INC 18         /* incrementing external address */
#define DFZ_MCHAN_SHIFT_EXT_2D 19      /* 2-D on the external side */
#define DFZ_MCHAN_SHIFT_EVENT 20       /* completion event to the core */
#define DFZ_MCHAN_SHIFT_IRQ 21         /* completion interrupt */
#define DFZ_MCHAN_SHIFT_BROADCAST 22   /* completion broadcast */
#define DFZ_MCHAN_SHIFT_LOC_2D 23      /* 2-D on the local side */

struct dfz_mchan;

/*
 * struct dfz_mchan_transfer - what generated code fills before a push
 * (mchan_transfer_t). The engine executes @cmd; @size is the caller's own
 * record of the bytes it meant to move, which the hardware never reads.
 */
struct dfz_mchan_transfer {
	uint32_t cmd;             /* command word, see dfz_mchan_cmd() */
	uint32_t size;            /* bytes meant (not read by the engine) */
	void *loc;                /* L1 side */
	uint32_t loc_size_1d;     /* 2-D local: bytes per line */
	uint32_t loc_stride_1d;   /* 2-D local: line start to next line start */
	void *ext;                /* L2 side */
	uint32_t ext_size_1d;     /* 2-D external: bytes per line */
	uint32_t ext_stride_1d;   /* 2-D external: line start to next */
};

/* A command word taken apart as the hardware decodes it. */
struct dfz_mchan_cmd_fields {
	uint32_t len;             /* cmd & DFZ_MCHAN_LEN_MASK */
	bool ext2loc;
	bool inc;
	bool ext_2d;
	bool event;
	bool irq;
	bool broadcast;
	bool loc_2d;
};

/** dfz_mchan_get() - the runtime's mchan engine (one per runtime), or NULL
 * for a NULL @rt. */
struct dfz_mchan *dfz_mchan_get(struct dfz_rt *rt);

/**
 * dfz_mchan_cmd() - pack a command word as generated code does:
 * len | ext2loc << 17 | inc << 18 | ext_2d << 19 | event << 20 |
 * irq << 21 | broadcast << 22 | loc_2d << 23. Each flag counts as 0 or 1;
 * @len is NOT masked, so a length of 2^17 or more spills into the flags,
 * exactly as in real code. Argument order as PULP's MCHAN_CMD().
 */
uint32_t dfz_mchan_cmd(uint32_t len, unsigned ext2loc, unsigned inc,
		       unsigned loc_2d, unsigned ext_2d, unsigned irq,
		       unsigned event, unsigned broadcast);

/** dfz_mchan_cmd_decode() - the fields of @cmd as the hardware reads them.
 * @out: caller-owned, written. */
void dfz_mchan_cmd_decode(uint32_t cmd, struct dfz_mchan_cmd_fields *out);

/**
 * dfz_mchan_transfer_get_id() - allocate the lowest free TID.
 * Emits DFZ_EV_ID_ALLOC (id = the TID, aux = 0; on exhaustion id = -1 and
 * aux = DFZ_EBUSY).
 * Return: a TID in 0..15, DFZ_EBUSY when all 16 are allocated, or
 * DFZ_EINVAL for a NULL @m.
 */
int dfz_mchan_transfer_get_id(struct dfz_mchan *m);

/**
 * dfz_mchan_transfer_push_1d() - push a command and its loc and ext words
 * under @tid. The words are copied into the hardware FIFO: @t is not read
 * again. Addresses are not checked here: the engine checks, as it moves
 * bytes, that the external side lies in L2 and the local side in L1, and
 * faults (DFZ_EV_FAULT, the command completes, the rest unmoved) if not.
 * A command whose length field is 0 completes, after the latency, without
 * moving a byte. A push into a full FIFO steps the engines until a slot frees
 * (back-pressure), at most cfg.wait_bound steps.
 * @tid: 0..15; it need not be allocated (oracles judge that).
 * Emits DFZ_EV_ISSUE: id = @tid, aux = @t.cmd, desc = the transfer asked
 * for (size = @t.size, direction from the command word, ext = L2 side).
 * When the channel starts the command, DFZ_EV_SERVICE carries the transfer
 * as decoded (desc) and the command word (aux); FAULT aux is the address.
 * Return: 0; DFZ_EINVAL for a NULL @m or a @tid outside 0..15 (nothing
 * pushed); DFZ_EHANG when the FIFO stayed full (DFZ_EV_HANG emitted).
 */
int dfz_mchan_transfer_push_1d(struct dfz_mchan *m, int tid,
			       struct dfz_mchan_transfer t);

/**
 * dfz_mchan_transfer_push_2d() - as dfz_mchan_transfer_push_1d(), also
 * pushing the external 2-D words (@t.ext_size_1d, @t.ext_stride_1d).
 */
int dfz_mchan_transfer_push_2d(struct dfz_mchan *m, int tid,
			       struct dfz_mchan_transfer t);

/**
 * dfz_mchan_transfer_push() - the generic push: the external 2-D words when
 * @t.ext_size_1d < @t.size, the local ones when @t.loc_size_1d < @t.size.
 * Otherwise as dfz_mchan_transfer_push_1d().
 *
 * Whatever was pushed, the engine decodes the command word alone: a 2-D
 * flag whose words were not pushed reads them as 0 (a line of 0 bytes is a
 * fault), pushed words the command does not use are ignored. (The real
 * FIFO would take missing words from the next push and lose sync; the
 * model keeps each push's words together.)
 */
int dfz_mchan_transfer_push(struct dfz_mchan *m, int tid,
			    struct dfz_mchan_transfer t);

/**
 * dfz_mchan_transfer_busy() - true while any command pushed under @tid is
 * unfinished; false for a NULL @m or a @tid outside 0..15.
 */
bool dfz_mchan_transfer_busy(const struct dfz_mchan *m, int tid);

/**
 * dfz_mchan_transfer_wait() - step the engines until
 * !dfz_mchan_transfer_busy(@m, @tid), at most cfg.wait_bound steps. A TID
 * never allocated, already free or outside 0..15 returns at once, as the
 * hardware does. Emits DFZ_EV_WAIT and DFZ_EV_WAITED (aux = the return
 * value) with id = @tid in every case, and DFZ_EV_HANG on a hang.
 * Return: 0, DFZ_EHANG, or DFZ_EINVAL for a NULL @m.
 */
int dfz_mchan_transfer_wait(struct dfz_mchan *m, int tid);

/**
 * dfz_mchan_transfer_free() - release @tid. Commands still pending under it
 * keep running. A TID not allocated or outside 0..15 is ignored, as the
 * hardware ignores it; DFZ_EV_ID_FREE (id = @tid, aux = 0) is emitted in
 * every case, for oracles to judge.
 * Return: 0, or DFZ_EINVAL for a NULL @m.
 */
int dfz_mchan_transfer_free(struct dfz_mchan *m, int tid);

/** dfz_mchan_tids() - bitmask of the allocated TIDs (bit t: TID t). */
uint32_t dfz_mchan_tids(const struct dfz_mchan *m);

/** dfz_mchan_queued() - commands pushed and not yet completed (the FIFO
 * and the one in the channel). */
unsigned dfz_mchan_queued(const struct dfz_mchan *m);

#endif /* DMAFUZZ_RUNTIME_MCHAN_H */
