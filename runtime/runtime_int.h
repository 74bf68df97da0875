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

/* Arenas of a runtime: the SoC levels, then the device memory (runtime_host.h)
 * at index DFZ_DEV_LEVEL. DFZ_NLEVELS stays the "no SoC level" sentinel. */
#define DFZ__NARENAS (DFZ_NLEVELS + 1u)
_Static_assert(DFZ_DEV_LEVEL == DFZ_NLEVELS, "the device arena follows L1");

/* Bytes at the start of every level that no allocation covers, so offset 0
 * (and the arena base) is never a valid user address. */
#define DFZ__MEM_RESERVED 64u
/* Alignment of user offsets. */
#define DFZ__MEM_ALIGN 8u

/* One live allocation; its block is [off - DFZ_REDZONE, off + size +
 * DFZ_REDZONE). */
struct dfz_block {
	uint32_t off;         /* first user byte */
	uint8_t tag;          /* the arena owner's kind of block (the device:
			       * enum dfz__dev_kind); 0 on the SoC levels */
	uint32_t size;        /* user bytes */
	uint32_t vg;          /* memcheck's description of it (vg.c), or 0 */
};
/* Never off and size in one 64-bit word: with size 4096 that word would
 * read as the device address DFZ_DEV_BASE + off, a reference memcheck's
 * leak check would count (vg.c registers device blocks there). */

/* cfg.sanitize: a freed block held back from reuse (its user region;
 * the storage is the block's with its redzones), @seq its place in the
 * FIFO (lower: older). */
struct dfz__qblock {
	uint32_t off;
	uint32_t size;
	uint64_t seq;
	uint32_t vg;          /* memcheck's description of it (vg.c), or 0 */
};
/* Freed blocks a level holds in quarantine at most: the oldest leaves
 * (with its DFZ_EV_RECLAIM) when one more arrives. */
#define DFZ__QUARANTINE DFZ_MAX_ALLOCS

/*
 * struct dfz_arena - one memory level. The address space is reserved once
 * at the cap; a run uses [0, size). A page is materialized (accessible,
 * holding the fill pattern) the first time it is used (dfz__mem_ready());
 * until then it is PROT_NONE. Every materialized byte at or above @high
 * holds the fill pattern, so a reset only copies the materialized pages of
 * [0, high) back from @fill.
 */
struct dfz__fill;
struct dfz_arena {
	uint8_t *base;        /* cap bytes of address space */
	bool mapped;          /* placed at a fixed address: materialized whole
			       * at creation */
	uint32_t statics;     /* bytes at the start mapped by the program's
			       * loader (its statics): kept, never refilled,
			       * never allocated; page-rounded */
	bool own_fill;        /* @fill is this arena's own (larger than the
			       * shared template): free it */
	struct dfz__fill *fill; /* the fresh-arena template (shared by every
				 * runtime of the process), built by pages */
	uint64_t *ready;      /* a bit a page: materialized */
	uint32_t ready_to;    /* every page below it is materialized */
	uint8_t shift;        /* log2 of a page's bytes */
	uint32_t cap;
	uint32_t stacks;      /* where the stacks begin (cap: none): the heap
			       * is [statics, stacks), never allocated, filled
			       * nor refilled above */
	uint32_t slot;        /* bytes of one stack with its guard page below */
	uint32_t nstacks;
	uint32_t size;        /* usable bytes this run */
	uint32_t high;        /* high-water mark of bytes possibly written */
	uint32_t nblocks;
	struct dfz_block block[DFZ_MAX_ALLOCS]; /* live blocks, by address */
	/* cfg.sanitize (the SoC levels): the quarantine, by address */
	uint32_t nquar;
	uint32_t qcap;        /* its capacity (a reset sets DFZ__QUARANTINE;
			       * a test may lower it) */
	uint64_t qseq;        /* the next freed block's seq */
	struct dfz__qblock quar[DFZ__QUARANTINE + 1]; /* + the one arriving */
	struct dfz_span *obj; /* declared static objects, by offset (heap) */
	uint32_t nobj;
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
#define DFZ__RAM_LINKS 1024
struct dfz_ram {
	struct dfz_rt *rt;
	struct dfz_ram_req *first;    /* waiting list head */
	struct dfz_ram_req *last;     /* waiting list tail */
	struct dfz_ram_hw_slot slot[DFZ_RAM_SLOTS];
	/* The driver's own record of the links it wrote: for each node it
	 * appended this run, the value it last stored in node->next. The
	 * engine follows node->next only while it still holds that value,
	 * so a node the user clobbered while queued is a fault, never a
	 * wild read. */
	uint32_t nlinks;
	struct dfz_ram_link {
		const struct dfz_ram_req *node;
		const struct dfz_ram_req *next;
	} link[DFZ__RAM_LINKS];
};

/* ------------------------------------------------------------ the device */

/* The kinds of device blocks (their arena tag). */
enum dfz__dev_kind { DFZ__DEV_USER = 1, DFZ__DEV_IMAGE };

/*
 * struct dfz_dev - the driver's state over the device arena. The arena
 * keeps the blocks, tagged with their kind; the device keeps the live-byte
 * ledger the budget is checked against.
 */
struct dfz_dev {
	struct dfz_rt *rt;
	uint64_t live;                /* requested bytes of live blocks */
	uint8_t *sum;                 /* kernel scratch, DFZ_CAP_DEV bytes */
};

/* One (host, device, size) entry of the host runtime's pair table. */
struct dfz_host_pair {
	uint64_t host;                /* host pointer */
	uint64_t dev;                 /* device address */
	uint32_t size;                /* bytes */
};

/*
 * struct dfz_host - the host runtime's context (one per runtime). Init
 * copies the argument table; everything here is dropped, not freed, by a
 * reset (the device arena's reset takes the memory back).
 */
struct dfz_host {
	struct dfz_rt *rt;
	bool inited;
	bool ran;                     /* a launch succeeded since init */
	bool has_kernel;              /* @kernel is cached */
	uint32_t nargs;
	struct dfz_tensor_arg args[DFZ_HOST_MAX_ARGS];
	uint8_t roles[DFZ_HOST_MAX_ARGS];
	uint32_t bytes[DFZ_HOST_MAX_ARGS];
	uint64_t dev_of_arg[DFZ_HOST_MAX_ARGS]; /* device address launched */
	uint32_t npairs;
	struct dfz_host_pair pairs[DFZ_HOST_MAX_PAIRS]; /* non-child args */
	uint64_t graph;               /* packed graph output buffer, or 0 */
	uint64_t kernel;              /* image handle, when @has_kernel */
	uint32_t launches;            /* driver launches since init */
};

/* ---------------------------------------------------------------- runtime */

struct dfz_rt {
	struct dfz_rt_config cfg;     /* defaults applied */
	uint64_t now;                 /* virtual steps run since reset */
	struct dfz_arena arena[DFZ__NARENAS];
	struct dfz_ram ram;
	struct dfz_mchan *mchan;      /* runtime/mchan.c owns it */
	struct dfz_idma *idma;        /* runtime/idma.c owns it */
	struct dfz_dev dev;
	struct dfz_host host;
	struct dfz__vg *vg;           /* memcheck's view (vg.c), NULL
				       * outside valgrind */
	struct dfz__poison *poison;   /* in-flight marks (poison.c), made on
				       * first use */
	char refusal[200];            /* dfz_rt_refusal(), "" when none */
	bool san_painted;             /* cfg.sanitize poisoned something for
				       * ASan since the last lift (poison.c) */
	bool san_lifted;              /* dfz_rt_poison_stop(): no more until
				       * the next reset */
	uint8_t issued;               /* bit e: engine e had an ISSUE this
				       * run; the others are idle */
};

/**
 * dfz__rt_refuse() - record that @call failed with @rc (not a hang) at the
 * place @fmt describes, unless an earlier refusal of this run is recorded.
 * Return: @rc, so that a caller can return through it.
 */
int dfz__rt_refuse(struct dfz_rt *rt, int rc, const char *call,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Does the successful wait @ev cover a transfer of @engine issued under
 * @key (ram: the request address; mchan: the TID; idma: the txid), by the
 * API's contract? An idma wait covers every id up to its own; -1 is
 * wait_all. */
static inline bool dfz__wait_covers(const struct dfz_event *ev,
				    unsigned engine, uint64_t key)
{
	if (engine != ev->engine)
		return false;
	switch (ev->engine) {
	case DFZ_ENGINE_RAM:
		return key == (uintptr_t)ev->handle;
	case DFZ_ENGINE_MCHAN:
		return key == (uint64_t)ev->id;
	default:
		return ev->id < 0 || key <= (uint64_t)ev->id;
	}
}

/* poison.c: in-flight destinations under user code (cfg.poison_inflight) */
/** dfz__poison_event() - the runtime's own view of @ev: ISSUE fills and
 * poisons the CPU-visible destination, COMPLETE and WAITED release it. */
void dfz__poison_event(struct dfz_rt *rt, const struct dfz_event *ev);
/** dfz__poison_reset() - drop every mark, unpoison L2/L1. */
void dfz__poison_reset(struct dfz_rt *rt);
void dfz__poison_destroy(struct dfz_rt *rt);
/** dfz__poison_copy() - an engine's copy, allowed through poisoned bytes. */
void dfz__poison_copy(struct dfz_rt *rt, void *dst, const void *src, size_t n);
/** dfz__poison_copy_lines() - dfz__poison_copy() of @lines lines of @len
 * bytes, @dst_pitch and @src_pitch apart. */
void dfz__poison_copy_lines(struct dfz_rt *rt, uint8_t *dst, size_t dst_pitch,
			    const uint8_t *src, size_t src_pitch, size_t len,
			    uint32_t lines);

/* poison.c: cfg.sanitize for ASan (L2 and L1, in ASan builds). The
 * poisoned bytes of a level are always: the redzones of its live blocks,
 * the storage of its quarantined blocks, the in-flight destinations. */
/** dfz__asan_on() - the process runs with ASan (built in, or linked). */
bool dfz__asan_on(void);
/** dfz__san_poison() - poison [@lo, @hi) of @level (a quarantined block). */
void dfz__san_poison(struct dfz_rt *rt, unsigned level, uint64_t lo,
		     uint64_t hi);
/** dfz__san_unpoison() - unpoison [@lo, @hi) of @level, nothing else. */
void dfz__san_unpoison(struct dfz_rt *rt, unsigned level, uint64_t lo,
		       uint64_t hi);
/** dfz__san_repaint() - [@lo, @hi) of @level poisoned exactly as the rule
 * above says (after a block came or left). */
void dfz__san_repaint(struct dfz_rt *rt, unsigned level, uint64_t lo,
		      uint64_t hi);

/* mem_arena.c (storage, pages, reset) and mem.c (allocation, access) */
/** dfz__mem_init() - the arenas of @rt, placed as @lay says (NULL: every
 * level anywhere, at its default cap). Return 0, DFZ_ENOMEM, or DFZ_EFAULT
 * when a fixed placement could not be mapped (errno says why). */
int dfz__mem_init(struct dfz_rt *rt, const struct dfz_rt_layout *lay);
void dfz__mem_fini(struct dfz_rt *rt);
/** dfz__mem_reset() - refill the touched part (its materialized pages),
 * drop allocations, set the usable sizes from rt->cfg. */
void dfz__mem_reset(struct dfz_rt *rt);
/**
 * dfz__mem_locate_lines() - whether @n lines of @len bytes, the first at
 * @first and each @stride bytes past the one before, would each be
 * located by dfz_mem_locate() in one level, the first's span in *@out.
 * False also when it cannot tell without locating each: a line that
 * reaches the level's stacks. Two lookups, whatever @n.
 */
bool dfz__mem_locate_lines(const struct dfz_rt *rt, const void *first,
			   uint64_t stride, uint32_t len, uint64_t n,
			   struct dfz_span *out);

/**
 * dfz__mem_touch() - record that [off, off+len) of @level may differ from
 * the fill pattern, so the next reset restores it. Allocations,
 * dfz_l3_write() and every MOVE / COMPUTE_WRITE event (in dfz_rt_emit) call
 * it; code that writes through a raw pointer outside an allocation without
 * emitting such an event must call it itself.
 */
void dfz__mem_touch(struct dfz_rt *rt, unsigned level, uint32_t off,
		    uint32_t len);
/**
 * dfz__mem_ready() - materialize the pages of [off, off+len) of @level (the
 * part below its cap): afterwards they are accessible and hold the fill
 * pattern or what a run wrote. Allocations, dfz_mem_ptr() (the page of its
 * offset), dfz_l3_read() / dfz_l3_write(), engine copies (dfz__vg_move())
 * and the footprints of ISSUE and COMPUTE_READ events (in dfz_rt_emit)
 * call it; code that reads or writes an arena elsewhere through a raw
 * pointer, beyond a block and the page dfz_mem_ptr() gave, must call it
 * itself. Whether a page is new depends on the runs before, so callers
 * branch on nothing but the error: mem_arena.c is built without fuzzer
 * coverage (Makefile) and keeps such branches to itself.
 * Return: 0, or DFZ_ENOMEM when the pages could not be mapped.
 */
int dfz__mem_ready(struct dfz_rt *rt, unsigned level, uint64_t off,
		   uint64_t len);
/** dfz__mem_ready_copy() - the same for the [@dst, @dst + @dst_n) and
 * [@src, @src + @src_n) of a copy, each when it lies in an arena. */
void dfz__mem_ready_copy(struct dfz_rt *rt, const void *dst, size_t dst_n,
			 const void *src, size_t src_n);
/** dfz__mem_ready_event() - the footprint of event @ev (ISSUE: both sides
 * of its descriptor; COMPUTE_READ: its span). */
void dfz__mem_ready_event(struct dfz_rt *rt, const struct dfz_event *ev);
/**
 * dfz__mem_alloc() - first-fit allocation of @size bytes of arena @level
 * (any arena, the device's included) with redzones, tagged @tag; emits
 * ALLOC. Return: 0, DFZ_EINVAL for size 0, or DFZ_ENOMEM.
 */
int dfz__mem_alloc(struct dfz_rt *rt, unsigned level, uint32_t size,
		   uint8_t tag, uint32_t *off);
/** dfz__mem_free() - free the block whose user region starts at @off;
 * emits FREE. Return: 0, or DFZ_EINVAL when there is no such block. */
int dfz__mem_free(struct dfz_rt *rt, unsigned level, uint32_t off);
/** dfz__mem_fill() - the fill pattern into [@off, @off + @len) of @level
 * (materialized), written past ASan's checks. */
void dfz__mem_fill(struct dfz_rt *rt, unsigned level, uint32_t off,
		   uint32_t len);
/** dfz__mem_freed() - the freed pattern (dfz_mem_freed_byte()) into
 * [@off, @off + @len) of SoC level @level, the same way. */
void dfz__mem_freed(struct dfz_rt *rt, unsigned level, uint32_t off,
		    uint32_t len);
/** dfz__mem_block_at() - the live block of @level whose user region holds
 * offset @off, or NULL. */
const struct dfz_block *dfz__mem_block_at(const struct dfz_rt *rt,
					  unsigned level, uint32_t off);

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
const struct dfz_engine_ops *dfz__ram_ops(void);

/* The L2<->L1 engines: created with the runtime, reset and stepped with it. */
int dfz__mchan_create(struct dfz_rt *rt, struct dfz_mchan **out);
void dfz__mchan_destroy(struct dfz_mchan *m);
void dfz__mchan_reset(struct dfz_mchan *m);
void dfz__mchan_step(struct dfz_mchan *m);
bool dfz__mchan_is_idle(const struct dfz_mchan *m);
/** dfz__ceil_div() - @n / @d (@d > 0) rounded up: a shift for a power of
 * two, as every drop-in bandwidth and most tile lines are (a division
 * costs tens of cycles, at every move of a stretch and every line). */
static inline uint64_t dfz__ceil_div(uint64_t n, uint64_t d)
{
	if ((d & (d - 1)) == 0)
		return (n + d - 1) >> __builtin_ctzll(d);
	return (n + d - 1) / d;
}
/** dfz__steps_for() - the steps @n bytes take at @bw (> 0) bytes a step. */
static inline uint64_t dfz__steps_for(uint64_t n, uint64_t bw)
{
	return dfz__ceil_div(n, bw);
}
/** dfz__rt_latency() - up to @max of a channel's @latency steps at once
 * (a stretch of them, in which nothing moves): the steps taken. */
uint64_t dfz__rt_latency(struct dfz_rt *rt, uint32_t *latency, uint64_t max);
/** dfz__mchan_burst() - up to @max steps of the channel alone at once
 * (rt.c's stretch): the steps taken, 0 when single steps must go on. */
uint64_t dfz__mchan_burst(struct dfz_mchan *m, uint64_t max);
const struct dfz_engine_ops *dfz__mchan_ops(void);

int dfz__idma_create(struct dfz_rt *rt, struct dfz_idma **out);
void dfz__idma_destroy(struct dfz_idma *d);
void dfz__idma_reset(struct dfz_idma *d);
void dfz__idma_step(struct dfz_idma *d);
bool dfz__idma_is_idle(const struct dfz_idma *d);
/** dfz__idma_burst() - as dfz__mchan_burst(), for the idma channel. */
uint64_t dfz__idma_burst(struct dfz_idma *d, uint64_t max);
const struct dfz_engine_ops *dfz__idma_ops(void);

/* dev.c, dev_kernel.c: the device and its driver */
int dfz__dev_init(struct dfz_dev *dev, struct dfz_rt *rt);
void dfz__dev_fini(struct dfz_dev *dev);
/** dfz__dev_reset() - drop the ledger (the arena's reset drops the
 * blocks, images included). */
void dfz__dev_reset(struct dfz_dev *dev);
/** dfz__dev_live() - live device bytes (user buffers and images). */
uint64_t dfz__dev_live(const struct dfz_dev *dev);
/** dfz__dev_in_user() - true when [addr, addr+n) lies inside one live
 * user block (n >= 1). @off: out, the arena offset of @addr. */
bool dfz__dev_in_user(const struct dfz_dev *dev, uint64_t addr, uint64_t n,
		      uint32_t *off);
/** dfz__dev_is_image() - true when @addr starts a live kernel image. */
bool dfz__dev_is_image(const struct dfz_dev *dev, uint64_t addr);

/* The fields of an API event (runtime_host.h) besides kind and step. */
struct dfz__api {
	uint8_t call;                 /* enum dfz_api */
	int rc;                       /* RET: the return code */
	const void *host;             /* the host pointer argument */
	struct dfz_span dst;
	struct dfz_span src;
	uint64_t size;                /* the size argument */
};

/** dfz__dev_span() - the API-event span of device range [addr, addr+n):
 * level DFZ_DEV_LEVEL when @addr is in the arena, else DFZ_NOWHERE_LEVEL;
 * the length saturates at UINT32_MAX. */
struct dfz_span dfz__dev_span(uint64_t addr, uint64_t n);
/** dfz__api_init() - @a for @call: no host pointer, both spans nowhere. */
void dfz__api_init(struct dfz__api *a, enum dfz_api call);
/** dfz__api_emit() - publish @a as an event of @kind at the current step. */
void dfz__api_emit(struct dfz_rt *rt, enum dfz_ev_kind kind,
		   const struct dfz__api *a);
/** dfz__api_ret() - set @a's return code to @rc, publish it as API_RET.
 * Return: @rc. */
int dfz__api_ret(struct dfz_rt *rt, struct dfz__api *a, int rc);

/* host.c */
/** dfz__host_reset() - back to idle, nothing freed. */
void dfz__host_reset(struct dfz_host *h, struct dfz_rt *rt);

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

/* A function mk/nocov.list names, kept out of line where an instrumented
 * function calls it: AFL++ and SanitizerCoverage instrument inlined code
 * as the caller's, so an inlined copy would keep the edges the list
 * drops. */
#define DFZ__NOCOV __attribute__((noinline))

/* A function that reads bytes the runtime poisoned on purpose (in-flight
 * destinations, redzones), past ASan's checks when the code is built
 * with it. */
#if defined(__SANITIZE_ADDRESS__)
#define DFZ__NO_ASAN __attribute__((no_sanitize("address")))
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DFZ__NO_ASAN __attribute__((no_sanitize("address")))
#endif
#endif
#ifndef DFZ__NO_ASAN
#define DFZ__NO_ASAN
#endif

/**
 * dfz__raw_move() - memmove(@dst, @src, @n) past ASan's checks and its
 * interceptors (poisoned bytes are the runtime's to move), a word at a
 * time (poison.c).
 */
void dfz__raw_move(void *dst, const void *src, size_t n);
/** dfz__raw_set() - memset(@dst, @byte, @n), the same way. */
void dfz__raw_set(void *dst, uint8_t byte, size_t n);

#endif /* DMAFUZZ_RUNTIME_INT_H */
