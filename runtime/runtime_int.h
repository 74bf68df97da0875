/* SPDX-License-Identifier: MIT */
/*
 * Private runtime interfaces: the engine operations the transfer adapter
 * drives (so adapters are written once for every engine), and the runtime
 * context shared by the memory model, the scheduler and the engines.
 */
#ifndef DMAFUZZ_RUNTIME_INT_H
#define DMAFUZZ_RUNTIME_INT_H

#include "dmafuzz/runtime.h"

/*
 * struct dfz_engine_ops - one engine as the adapter sees it.
 * @kernel_ranks: bit r set when the engine executes rank-r kernels natively.
 * @can_share:    true when one request may carry several transfers in
 *                flight (mchan TIDs); false for ram requests.
 * @req_size:     bytes of one request's storage (allocated in L2/L1).
 * @max_size:     most bytes one kernel transfer may carry (the width of a
 *                command's length field), 0 for no limit. The adapter's
 *                size guard splits larger transfers into pushes that fit.
 * @lagging_id:   the engine reports a transfer complete only once the next
 *                one has completed (idma): the adapter follows every copy
 *                with a 1-byte dummy transfer so the copy's id resolves.
 * @issue:        queue the kernel transfer @d (rank 1 or 2, local side
 *                contiguous) on request storage @req. @req may be NULL on
 *                an engine with @lagging_id: a transfer nobody waits for
 *                (the dummy). Return 0 or DFZ_E*.
 * @wait:         wait for request @req. Return 0 or DFZ_EHANG.
 */
struct dfz_engine_ops {
	const char *name;
	unsigned kernel_ranks;
	bool can_share;
	bool lagging_id;
	uint32_t req_size;
	uint32_t max_size;
	int (*issue)(struct dfz_rt *rt, void *req, const struct dfz_desc *d);
	int (*wait)(struct dfz_rt *rt, void *req);
};

/** dfz__engine_ops() - the ops of engine @id, or NULL. */
const struct dfz_engine_ops *dfz__engine_ops(unsigned id);

/**
 * dfz__handle_bytes() - arena bytes (alignment and redzones included) that
 * dfz_handle_init(@ad, h) takes from @level: the request storage at
 * ad->req_level and, on an engine with @lagging_id, the dummy's scratch
 * byte in L2 and in L1. 0 when @ad cannot drive a transfer.
 */
uint64_t dfz__handle_bytes(const struct dfz_adapter *ad, unsigned level);

/* ------------------------------------------------------------ memory model */

/* Bytes at the start of every level that no allocation covers, so offset 0
 * (and the arena base) is never a valid user address. */
#define DFZ__MEM_RESERVED 64u
/* Alignment of user offsets. */
#define DFZ__MEM_ALIGN 8u

/* One live allocation; its block is [off - DFZ_REDZONE, off + size +
 * DFZ_REDZONE). */
struct dfz_block {
	uint32_t off;         /* first user byte */
	uint32_t size;        /* user bytes */
};

/*
 * struct dfz_arena - one memory level. The storage is allocated once at the
 * cap; a run uses [0, size). Every byte at or above @high holds the fill
 * pattern, so a reset only copies [0, high) back from @fill.
 */
struct dfz_arena {
	uint8_t *base;        /* cap bytes of storage */
	uint8_t *fill;        /* cap bytes: the fresh-arena template */
	uint32_t cap;
	uint32_t size;        /* usable bytes this run */
	uint32_t high;        /* high-water mark of bytes possibly written */
	uint32_t nblocks;
	struct dfz_block block[DFZ_MAX_ALLOCS]; /* live blocks, by address */
};

/* ------------------------------------------------------------- ram engine */

/* One hardware slot of the ram channel. */
struct dfz_ram_hw_slot {
	struct dfz_ram_req *req;  /* NULL: free */
	uint32_t latency;         /* steps left before bytes move */
	uint32_t moved;           /* bytes of the descriptor moved so far */
	bool started;             /* SERVICE emitted */
};

/* The PMSIS-like ram driver: a waiting list made of the requests themselves
 * and DFZ_RAM_SLOTS hardware slots. */
struct dfz_ram {
	struct dfz_rt *rt;
	struct dfz_ram_req *first;    /* waiting list head */
	struct dfz_ram_req *last;     /* waiting list tail */
	struct dfz_ram_hw_slot slot[DFZ_RAM_SLOTS];
};

/* ---------------------------------------------------------------- runtime */

struct dfz_rt {
	struct dfz_rt_config cfg;     /* defaults applied */
	uint64_t now;                 /* virtual steps run since reset */
	struct dfz_arena arena[DFZ_NLEVELS];
	struct dfz_ram ram;
	struct dfz_mchan *mchan;      /* runtime/mchan.c owns it */
	struct dfz_idma *idma;        /* runtime/idma.c owns it */
};

/* mem.c */
int dfz__mem_init(struct dfz_rt *rt);
void dfz__mem_fini(struct dfz_rt *rt);
/** dfz__mem_reset() - refill the touched part, drop allocations, set the
 * usable sizes from rt->cfg. */
void dfz__mem_reset(struct dfz_rt *rt);
/**
 * dfz__mem_touch() - record that [off, off+len) of @level may differ from
 * the fill pattern, so the next reset restores it. Allocations,
 * dfz_l3_write() and every MOVE / COMPUTE_WRITE event (in dfz_rt_emit) call
 * it; code that writes through a raw pointer outside an allocation without
 * emitting such an event must call it itself.
 */
void dfz__mem_touch(struct dfz_rt *rt, unsigned level, uint32_t off,
		    uint32_t len);

/* ram.c */
/** dfz__ram_init() - set up @ram of @rt and register it as live.
 * Return: 0 or DFZ_ENOMEM when the live-engine registry is full. */
int dfz__ram_init(struct dfz_ram *ram, struct dfz_rt *rt);
void dfz__ram_fini(struct dfz_ram *ram);
void dfz__ram_reset(struct dfz_ram *ram);
/** dfz__ram_step() - one engine step: promote, then service every slot. */
void dfz__ram_step(struct dfz_ram *ram);
/** dfz__ram_is_idle() - true when no slot is busy and the list is empty. */
bool dfz__ram_is_idle(const struct dfz_ram *ram);
extern const struct dfz_engine_ops dfz__ram_ops;

/* The L2<->L1 engines: created with the runtime, reset and stepped with it. */
int dfz__mchan_create(struct dfz_rt *rt, struct dfz_mchan **out);
void dfz__mchan_destroy(struct dfz_mchan *m);
void dfz__mchan_reset(struct dfz_mchan *m);
void dfz__mchan_step(struct dfz_mchan *m);
bool dfz__mchan_is_idle(const struct dfz_mchan *m);
extern const struct dfz_engine_ops dfz__mchan_ops;

int dfz__idma_create(struct dfz_rt *rt, struct dfz_idma **out);
void dfz__idma_destroy(struct dfz_idma *d);
void dfz__idma_reset(struct dfz_idma *d);
void dfz__idma_step(struct dfz_idma *d);
bool dfz__idma_is_idle(const struct dfz_idma *d);
extern const struct dfz_engine_ops dfz__idma_ops;

/* rt.c */
/** dfz__rt_step() - one engine step: time advances, every engine steps. */
void dfz__rt_step(struct dfz_rt *rt);
/** dfz__rt_is_idle() - true when stepping cannot change anything. */
bool dfz__rt_is_idle(const struct dfz_rt *rt);
/**
 * dfz__rt_wait() - step the engines until @done(@arg) holds, at most
 * cfg.wait_bound steps. @done is polled before every step.
 * Return: 0, or DFZ_EHANG when the bound ran out (no event emitted).
 */
int dfz__rt_wait(struct dfz_rt *rt, bool (*done)(const void *arg),
		 const void *arg);

#endif /* DMAFUZZ_RUNTIME_INT_H */
