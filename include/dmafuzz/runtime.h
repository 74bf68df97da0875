/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz runtime: the host-side model of the system under test.
 *
 * This header holds the memory model (L3 addressed by 32-bit offsets, L2/L1
 * arenas of pointer-addressable buffers with redzones), virtual time and the
 * scheduler hook, the one observer interface through which every observable
 * action is published, the PMSIS-shaped ram engine (L3<->L2), the N-d
 * transfer adapter that compilers generate on top of an engine, and the
 * tiling executor. The runtime knows nothing of oracles or the harness.
 */
#ifndef DMAFUZZ_RUNTIME_H
#define DMAFUZZ_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---------------------------------------------------------------- errors */

/* X(name, value, message): one list yields the enum and the message table. */
#define DFZ_ERRNO_MAP(X)                                              \
	X(EINVAL, -1, "invalid argument")                              \
	X(ENOMEM, -2, "out of memory")                                 \
	X(ERANGE, -3, "value out of range")                            \
	X(EBUSY, -4, "resource busy")                                  \
	X(EHANG, -5, "wait did not complete within the step bound")    \
	X(EFAULT, -6, "address outside the memory model")             \
	X(ENOENT, -7, "no such object")                                \
	X(EIO, -8, "input/output error")                               \
	X(ENOTDIR, -9, "not a directory")                              \
	X(EACCES, -10, "permission denied")

enum dfz_errno {
#define DFZ_ERRNO_ENUM(name, val, msg) DFZ_##name = (val),
	DFZ_ERRNO_MAP(DFZ_ERRNO_ENUM)
#undef DFZ_ERRNO_ENUM
};

/**
 * dfz_json_string() - write @s (NULL: empty) to @f as a JSON string, with
 * its quotes: '"', '\\', control bytes and DEL escaped (\n, \t, ... where
 * JSON has a name for one, else \u00XX), and a byte that starts no valid
 * UTF-8 sequence written as U+FFFD, so the output always parses.
 */
void dfz_json_string(const char *s, FILE *f);

/**
 * dfz_utf8_len() - the length of the valid UTF-8 sequence at @p (at most
 * @n bytes, @n >= 1): 1 to 4, or 0 when it is not one (an overlong form,
 * a surrogate, past U+10FFFF or past @n).
 */
size_t dfz_utf8_len(const unsigned char *p, size_t n);

/**
 * dfz_strerror() - message for a DFZ_E* code (or "ok" for 0).
 * Return: a static string; never NULL.
 */
const char *dfz_strerror(int err);

/**
 * dfz_err_from_errno() - the DFZ_E* code of a failed system call's errno.
 * @e: the errno; 0 (a stdio failure that set none) counts as an I/O error.
 *
 * A path that cannot be used (ENOENT; ENOTDIR or EEXIST for a file where a
 * directory belongs; EACCES, EPERM, EROFS; ENAMETOOLONG, ELOOP, EISDIR as
 * DFZ_EINVAL) is the caller's; ENOMEM is DFZ_ENOMEM; anything else (EIO,
 * ENOSPC, EDQUOT, EFBIG, ...) is DFZ_EIO.
 *
 * Return: a negative DFZ_E* code, never 0.
 */
int dfz_err_from_errno(int e);

/* ------------------------------------------------------------ bug switches */

/* X(id, name): the ground-truth bug zoo. Each restores a faulty code path. */
#define DFZ_BUG_MAP(X)                       \
	X(SHARED_HANDLE, "shared-handle")    \
	X(EARLY_COMPUTE, "early-compute")    \
	X(DB_WAR, "db-war")                  \
	X(EDGE_TILE, "edge-tile")            \
	X(REQ_ESCAPE, "req-escape")          \
	X(MCHAN_LEN_OVERFLOW, "mchan-len-overflow") \
	X(MCHAN_TID_LEAK, "mchan-tid-leak")  \
	X(IDMA_NO_DUMMY, "idma-no-dummy")    \
	X(CHILD_MISALIGN, "child-misalign")  \
	X(PAIR_OVERFLOW, "pair-overflow")    \
	X(REGISTER_LEAK, "register-leak")    \
	X(NULL_ARG, "null-arg")              \
	X(MCHAN_PUSH_LATEST, "mchan-push-latest")

enum dfz_bug {
#define DFZ_BUG_ENUM(id, name) DFZ_BUG_##id,
	DFZ_BUG_MAP(DFZ_BUG_ENUM)
#undef DFZ_BUG_ENUM
	DFZ_BUG_COUNT
};

#define DFZ_BUG_BIT(id) (1u << (DFZ_BUG_##id))

/** dfz_bug_name() - switch name of @bug, or NULL when out of range. */
const char *dfz_bug_name(unsigned bug);

/**
 * dfz_bugs_parse() - parse a comma-separated list of switch names.
 * @list: borrowed; "" or NULL yields 0.
 * @mask: out, a bitmask of DFZ_BUG_BIT values.
 * Return: 0, or DFZ_EINVAL naming no known switch (mask untouched).
 */
int dfz_bugs_parse(const char *list, uint32_t *mask);

/**
 * dfz_bugs_format() - the switches of @mask by name, comma-separated: the
 * list dfz_bugs_parse() reads back ("" when no switch is on).
 * @mask: a bitmask of DFZ_BUG_BIT values; unknown bits are left out.
 * @buf: out, always NUL-terminated (cut short when @len is too small).
 * @len: the size of @buf.
 * Return: @buf.
 */
char *dfz_bugs_format(uint32_t mask, char *buf, size_t len);

/* ------------------------------------------------------------ memory model */

/* X(id, name): the memory levels, outermost first. */
#define DFZ_LEVEL_MAP(X) X(L3, "L3") X(L2, "L2") X(L1, "L1")

enum dfz_level {
#define DFZ_LEVEL_ENUM(id, name) DFZ_##id,
	DFZ_LEVEL_MAP(DFZ_LEVEL_ENUM)
#undef DFZ_LEVEL_ENUM
	DFZ_NLEVELS
};

/** dfz_level_name() - "L3", "L2", "L1", or NULL. */
const char *dfz_level_name(unsigned level);

/* What an in-flight destination holds until the engine moves its bytes
 * (cfg.poison_inflight). */
#define DFZ_POISON_BYTE 0xDFu
#define DFZ_REDZONE 16        /* canary bytes on each side of an allocation */
#define DFZ_MAX_ALLOCS 256    /* live allocations per level */

/* A byte range of one memory level, addressed by offset into the level. */
struct dfz_span {
	uint8_t level;        /* enum dfz_level */
	uint32_t off;
	uint32_t len;
};

/* ------------------------------------------------------------------ events */

enum dfz_ev_kind {
	DFZ_EV_ALLOC,         /* span = user region; aux = redzone bytes */
	DFZ_EV_FREE,          /* span = user region being released */
	DFZ_EV_ISSUE,         /* handle, desc as stamped by the caller */
	DFZ_EV_SERVICE,       /* engine reads desc from handle (start or resume) */
	DFZ_EV_MOVE,          /* engine moved bytes: dst <- src, handle;
			       * one line, or several (lines) */
	DFZ_EV_COMPLETE,      /* engine finished handle's transfer */
	DFZ_EV_WAIT,          /* a wait on handle begins */
	DFZ_EV_WAITED,        /* the wait on handle returned; aux = rc */
	DFZ_EV_HANG,          /* a wait hit the step bound; handle */
	DFZ_EV_FAULT,         /* engine met an address outside memory; aux */
	DFZ_EV_COMPUTE_READ,  /* compute reads span (src) */
	DFZ_EV_COMPUTE_WRITE, /* compute writes span (dst) */
	DFZ_EV_ID_ALLOC,      /* engine id allocated (mchan TID): id; aux = rc */
	DFZ_EV_ID_FREE,       /* engine id released: id; aux = rc */
	DFZ_EV_API_ENTER,     /* a host-runtime call begins (runtime_host.h) */
	DFZ_EV_API_RET,       /* a driver or host-runtime call returns */
	DFZ_EV_RECLAIM,       /* dst = a freed block's user region whose
			       * storage an allocation is about to reuse
			       * (before any byte of it is written) */
	DFZ_EV_COUNT
};

/*
 * A generic kernel-rank descriptor, as an engine reads it from a request:
 * the external side (L3 for ram) and the local side, each possibly 2-D.
 * A 1-D descriptor has length == size and stride == length.
 */
struct dfz_desc {
	uint8_t ext_level;    /* enum dfz_level of the external side */
	uint8_t loc_level;    /* enum dfz_level of the local side */
	uint8_t ext2loc;      /* 1: external -> local (a load) */
	uint8_t is_2d;
	uint32_t ext_off;     /* offset into ext_level */
	uint32_t loc_off;     /* offset into loc_level */
	uint32_t size;        /* total bytes */
	uint32_t length;      /* bytes per line (2-D) */
	uint32_t ext_stride;  /* bytes from a line's start to the next, ext side */
	uint32_t loc_stride;  /* same, local side (== length when contiguous) */
};

struct dfz_event {
	uint8_t kind;         /* enum dfz_ev_kind */
	uint8_t engine;       /* enum dfz_engine_id */
	/* MOVE: the lines it moved, 0 counting as 1. dst and src are the
	 * first; line k lies k * dst_pitch (src_pitch) bytes past it, on
	 * the same level, with the same length. An engine moving lines
	 * while no core runs (a step, or a stretch of steps at once)
	 * reports them so; read them with dfz_move_line(). */
	uint32_t lines;
	uint64_t step;        /* virtual time of the event */
	const void *handle;   /* engine request / handle address, or NULL */
	struct dfz_desc desc; /* ISSUE, SERVICE */
	struct dfz_span dst;  /* MOVE, COMPUTE_WRITE, ALLOC, FREE */
	struct dfz_span src;  /* MOVE, COMPUTE_READ */
	uint32_t dst_pitch;   /* MOVE: see lines */
	int64_t aux;          /* kind-specific, see above; mchan ISSUE: the
			       * command word as pushed */
	int64_t id;           /* engine transfer id: mchan TID, idma txid
			       * (meaningful for those engines only) */
	uint32_t ext_2d[2];   /* mchan ISSUE: the external side's 2-D words
			       * as pushed (line length, stride); 0 when
			       * the push has none */
	uint32_t loc_2d[2];   /* same, local side */
	uint32_t src_pitch;   /* MOVE: see lines */
};

/** dfz_move_lines() - the lines of MOVE @ev: at least 1. */
static inline uint32_t dfz_move_lines(const struct dfz_event *ev)
{
	return ev->lines > 1 ? ev->lines : 1;
}

/** dfz_move_line() - line @k of MOVE @ev (k < dfz_move_lines(ev)): its
 * destination in *@dst, its source in *@src. */
static inline void dfz_move_line(const struct dfz_event *ev, uint32_t k,
				 struct dfz_span *dst, struct dfz_span *src)
{
	*dst = ev->dst;
	*src = ev->src;
	dst->off += k * ev->dst_pitch;
	src->off += k * ev->src_pitch;
}

typedef void (*dfz_observer_fn)(void *ctx, const struct dfz_event *ev);

/* The one observer interface. fn may be NULL (no observer). */
struct dfz_observer {
	dfz_observer_fn fn;
	void *ctx;            /* borrowed until the runtime is destroyed */
};

/* -------------------------------------------------------- time, scheduling */

enum dfz_yield {
	DFZ_YIELD_ISSUE,      /* right after a transfer is issued */
	DFZ_YIELD_COMPUTE,    /* between compute chunks */
	DFZ_YIELD_WAIT,       /* once per wait, before it polls */
	DFZ_YIELD_COUNT
};

/* How many engine steps to run at a yield point; drawn from the plan. */
typedef unsigned (*dfz_sched_fn)(void *ctx, enum dfz_yield where);

/* X(id, name): the engines (the name is what plans and reports spell).
 * RAM: PMSIS cluster RAM, L3 <-> L2; MCHAN: cluster DMA, L2 <-> L1, TIDs;
 * IDMA: Snitch-style iDMA, L2 <-> L1, txids. */
#define DFZ_ENGINE_MAP(X) \
	X(RAM, "ram")     \
	X(MCHAN, "mchan") \
	X(IDMA, "idma")

enum dfz_engine_id {
#define DFZ_ENGINE_ENUM(id, name) DFZ_ENGINE_##id,
	DFZ_ENGINE_MAP(DFZ_ENGINE_ENUM)
#undef DFZ_ENGINE_ENUM
	DFZ_ENGINE_COUNT
};

/** dfz_engine_name() - "ram", "mchan", "idma", or NULL. */
const char *dfz_engine_name(unsigned e);

struct dfz_rt_config {
	uint32_t mem_size[DFZ_NLEVELS]; /* bytes usable per level this run */
	uint32_t latency;     /* steps before a descriptor starts moving */
	uint32_t bandwidth;   /* bytes per step per active slot (>= 1) */
	uint32_t wait_bound;  /* steps a wait may run before it is a hang */
	uint32_t dev_budget;  /* live device bytes the device grants
			       * (clamped to DFZ_CAP_DEV_BUDGET); 0: none */
	uint32_t bugs;        /* DFZ_BUG_BIT mask */
	dfz_sched_fn sched;   /* NULL: no steps at yield points */
	void *sched_ctx;
	struct dfz_observer obs;
	/* User code (the drop-in): requests may live in any memory (stack,
	 * static, heap), as on the chip, not only in L2/L1. */
	bool user_reqs;
	/* User code: an in-flight CPU-visible destination holds a poison
	 * pattern until the engine moves its bytes, and (ASan builds) is
	 * poisoned until it has landed and a covering wait returned. */
	bool poison_inflight;
	/* User code: the allocators are a sanitizer's. A fresh block holds
	 * the fill pattern (never written: undefined to valgrind); a freed
	 * block holds the freed pattern (dfz_mem_freed_byte()), is poisoned
	 * (ASan, valgrind) and sits in a quarantine, reused only when an
	 * allocation finds no other room (oldest first, DFZ_EV_RECLAIM);
	 * redzones are poisoned under ASan as under valgrind. */
	bool sanitize;
	/* Hardware behaviours that differ between versions (DFZ_RTQ_*): the
	 * drop-in's quirks that live in an engine. 0: the design's model. */
	uint32_t quirks;
};

/* cfg.quirks: a zero-work idma transfer (no bytes, or no lines) retires
 * when the engine accepts it, ahead of older transfers still in flight
 * (iDMA's nd_midend; the drop-in's idma-zero-work-retires). */
#define DFZ_RTQ_IDMA_ZERO_RETIRES (1u << 0)
/* cfg.quirks: an idma start returns the id counter as it stands at the
 * push; the counter advances when the midend pops a request, after the
 * last line of its predecessor (iDMA's inst64 front end; the drop-in's
 * idma-id-at-push). 0: exact ids, counted at the start. */
#define DFZ_RTQ_IDMA_ID_AT_PUSH (1u << 1)

/* cfg.quirks: the ram engine runs one request at a time (gap_sdk's GAP8
 * HyperRAM driver; the drop-in's ram-concurrent off), not two (pulp-sdk). */
#define DFZ_RTQ_RAM_SERIAL (1u << 2)

/* Capacity caps: a runtime is created once at these sizes and reused. */
#define DFZ_CAP_L3 (8u << 20)
#define DFZ_CAP_L2 (1u << 20)
/* L1: a GAP9 cluster has 128 KiB of L1 plus TCDM extensions; the cap must
 * hold a tile's two 2^17-byte buffers (one mchan transfer each) with their
 * redzones and the hop's requests. */
#define DFZ_CAP_L1 (512u << 10)

struct dfz_rt;

/**
 * dfz_rt_create() - allocate a runtime with arenas at the capacity caps.
 * @out: caller owns; release with dfz_rt_destroy().
 * Return: 0 or DFZ_ENOMEM.
 */
int dfz_rt_create(struct dfz_rt **out);

/*
 * struct dfz_rt_layout - where a runtime's L2 and L1 live: the drop-in
 * maps them at the PULP addresses so that the (uint32_t) casts of user
 * code round-trip. L3 is never CPU-addressable: its entries are ignored
 * but for the cap.
 */
struct dfz_rt_layout {
	uintptr_t base[DFZ_NLEVELS]; /* fixed address of a level, 0: anywhere */
	uint32_t cap[DFZ_NLEVELS];   /* arena bytes, 0: the default cap */
	/* Bytes at the start of a fixed level that the program's loader
	 * already mapped: its statics placed there (PI_L2, PI_CL_L1). They
	 * are part of the level (engines move them, oracles see them) but
	 * never refilled nor allocated; the arena is mapped after them. */
	uint32_t statics[DFZ_NLEVELS];
	/* Stacks of a fixed level, after its cap (page-aligned): @nstacks of
	 * @stack bytes (rounded up to the page), each above a guard page.
	 * They are part of the level (engines move them, oracles see them,
	 * dfz_mem_locate() accepts a span inside one stack, never one that
	 * touches a guard page) but never allocated, refilled nor poisoned
	 * by a reset: cores run on them (dfz_mem_stack()). */
	uint32_t nstacks[DFZ_NLEVELS];
	uint32_t stack[DFZ_NLEVELS];
};

/**
 * dfz_rt_create_at() - as dfz_rt_create(), with L2/L1 placed and sized by
 * @lay (borrowed; NULL is dfz_rt_create()). A fixed level is mapped there
 * and never over an existing mapping.
 * Return: 0, DFZ_ENOMEM, or DFZ_EFAULT when a fixed address could not be
 * mapped (errno tells why, e.g. EEXIST).
 */
int dfz_rt_create_at(const struct dfz_rt_layout *lay, struct dfz_rt **out);

/** dfz_rt_destroy() - release @rt; accepts NULL. */
void dfz_rt_destroy(struct dfz_rt *rt);

/**
 * dfz_rt_reset() - start a new run with @cfg: arenas re-filled with the known
 * pattern (only the part the last run touched), allocations dropped, engines
 * idle, time at 0.
 * @cfg: borrowed; sizes above the caps are clamped.
 * Return: 0 or DFZ_EINVAL.
 */
int dfz_rt_reset(struct dfz_rt *rt, const struct dfz_rt_config *cfg);

/** dfz_rt_bugs() - the bug mask of the current run. */
uint32_t dfz_rt_bugs(const struct dfz_rt *rt);

/** dfz_rt_now() - current virtual step. */
uint64_t dfz_rt_now(const struct dfz_rt *rt);

/**
 * dfz_rt_yield() - a yield point: run as many engine steps as the scheduler
 * draws for @where (at most cfg.wait_bound).
 */
void dfz_rt_yield(struct dfz_rt *rt, enum dfz_yield where);

/**
 * dfz_rt_judge() - user code runs (@on) or stops running: under valgrind,
 * its accesses to the arenas are judged from now on (vg.h), as the
 * runtime's own code always is. Nests.
 */
void dfz_rt_judge(struct dfz_rt *rt, bool on);

/**
 * dfz_rt_poison_stop() - the run's verdict is decided: every in-flight
 * destination is the CPU's again for ASan, and nothing more is poisoned
 * until the next reset (what user code does next is a consequence, not a
 * new finding).
 */
void dfz_rt_poison_stop(struct dfz_rt *rt);

/**
 * dfz_rt_cut() - the run's verdict is decided: from now on a wait gives
 * up after a few steps (a hang after the verdict changes nothing), so a
 * run ends in bounded work; the next reset restores cfg.wait_bound.
 */
void dfz_rt_cut(struct dfz_rt *rt);

/**
 * dfz_rt_refusal() - the first call of this run that refused its work
 * with an error other than a hang (an engine, an adapter or the tiling
 * executor's own allocation), as "CALL returned ERROR (where)"; NULL when
 * none did. A reset clears it.
 */
const char *dfz_rt_refusal(const struct dfz_rt *rt);

/** dfz_rt_set_quirks() - the engines' quirks (DFZ_RTQ_*) from now on in
 * this run (the next reset takes cfg.quirks again). */
void dfz_rt_set_quirks(struct dfz_rt *rt, uint32_t quirks);
/** dfz_rt_quirks() - the engines' quirks (DFZ_RTQ_*) now; 0 for NULL. */
uint32_t dfz_rt_quirks(const struct dfz_rt *rt);

/** dfz_rt_emit() - publish @ev (step and engine filled by the caller). */
void dfz_rt_emit(struct dfz_rt *rt, const struct dfz_event *ev);

/* Memory. L3 is not CPU-addressable: only engines and the host-side
 * loader (dfz_l3_read/write, the debugger's view) touch it. */

/** The fill byte of a fresh arena at offset @off of @level. */
uint8_t dfz_mem_fill_byte(enum dfz_level level, uint32_t off);

/** The canary byte at offset @off of @level (redzones). */
uint8_t dfz_mem_canary_byte(enum dfz_level level, uint32_t off);

/** The freed byte at offset @off of @level (cfg.sanitize: a freed block's
 * bytes), distinct from the fill and canary bytes there. */
uint8_t dfz_mem_freed_byte(enum dfz_level level, uint32_t off);

/**
 * dfz_l3_alloc() - allocate @size bytes of L3 with redzones.
 * @off: out, the L3 offset of the first usable byte.
 * Return: 0, DFZ_EINVAL for size 0, or DFZ_ENOMEM.
 */
int dfz_l3_alloc(struct dfz_rt *rt, uint32_t size, uint32_t *off);
int dfz_l3_free(struct dfz_rt *rt, uint32_t off);
/** Host-side access to L3 (setup and readback). Return 0 or DFZ_EFAULT. */
int dfz_l3_write(struct dfz_rt *rt, uint32_t off, const void *src, uint32_t n);
int dfz_l3_read(const struct dfz_rt *rt, uint32_t off, void *dst, uint32_t n);

/**
 * dfz_local_alloc() - allocate @size bytes of L2 or L1 with redzones.
 * @ptr: out; caller owns, release with dfz_local_free(). Freed memory is
 *       not poisoned (like a stack): it keeps its bytes until reused;
 *       under cfg.sanitize it is quarantined, holds the freed pattern
 *       and is poisoned, and a fresh block holds the fill pattern.
 * Return: 0, DFZ_EINVAL, or DFZ_ENOMEM.
 */
int dfz_local_alloc(struct dfz_rt *rt, enum dfz_level level, uint32_t size,
		    void **ptr);
/**
 * dfz_local_reserve() - as dfz_local_alloc(), for a block its owner hands
 * out a part at a time (an SDK runtime's heap). A reset gives the fill
 * pattern back to what the run touched: of this block, only what
 * dfz_local_use() named, or a transfer or model access reached, from its
 * start on. Past that, as everywhere above what a run touched, the bytes
 * hold the fill pattern unless a stray store reached them.
 */
int dfz_local_reserve(struct dfz_rt *rt, enum dfz_level level, uint32_t size,
		      void **ptr);
/** dfz_local_use() - @n bytes from @ptr (L2 or L1) are in use this run. */
void dfz_local_use(struct dfz_rt *rt, const void *ptr, uint32_t n);
int dfz_local_free(struct dfz_rt *rt, void *ptr);

/**
 * dfz_mem_locate() - map @ptr (L2/L1 memory) to a span of @len bytes.
 * Return: true when [ptr, ptr+len) lies inside the usable part of a level.
 */
bool dfz_mem_locate(const struct dfz_rt *rt, const void *ptr, uint32_t len,
		    struct dfz_span *out);

/**
 * dfz_mem_ptr() - pointer to @level at @off (L2/L1; L3 for engines and
 * oracles only), or NULL when out of range. Arena pages come into being
 * when first used: the pointer is good for the block holding @off (every
 * allocation's bytes and redzones are there) and to the end of @off's
 * page; memory past both may not be mapped yet.
 */
uint8_t *dfz_mem_ptr(const struct dfz_rt *rt, enum dfz_level level,
		     uint32_t off);

/** dfz_mem_size() - usable bytes of @level in this run. */
uint32_t dfz_mem_size(const struct dfz_rt *rt, enum dfz_level level);

/*
 * struct dfz_mem_regions - the parts of a level that are not allocations:
 * the program's statics at its start (with the objects declared in them)
 * and the cores' stacks at its end. Offsets into the level.
 */
struct dfz_mem_regions {
	uint32_t statics;              /* [0, statics): the loader's */
	const struct dfz_span *obj;    /* declared static objects, by offset,
					* disjoint (borrowed from the runtime
					* until the next declaration) */
	uint32_t nobj;
	uint32_t nstacks;              /* stacks, each [stack[i], +stack_len) */
	uint32_t stack0;               /* offset of stack 0's lowest byte */
	uint32_t stack_step;           /* from one stack's lowest byte to the
					* next's (its guard page between) */
	uint32_t stack_len;            /* usable bytes of one stack */
};

/** dfz_mem_regions() - the statics and stacks of @level. @out: filled
 * (all zero for a level that has none). */
void dfz_mem_regions(const struct dfz_rt *rt, enum dfz_level level,
		     struct dfz_mem_regions *out);

/**
 * dfz_mem_block() - the live block of @level whose user region holds
 * offset @off (its redzones are not part of it).
 * @user_off: out (may be NULL), the offset of the block's first usable byte.
 * @size: out (may be NULL), its usable bytes.
 * Return: 0, DFZ_EFAULT when no live block holds @off (a freed block, the
 * statics, a stack, a redzone), DFZ_EINVAL for a NULL @rt or a bad @level.
 */
int dfz_mem_block(const struct dfz_rt *rt, enum dfz_level level, uint32_t off,
		  uint32_t *user_off, uint32_t *size);

/**
 * dfz_mem_declare_statics() - the objects (variables, arrays) of @level's
 * statics, each a span of @level inside [0, statics): oracles judge a
 * transfer into the statics against them as against blocks. Replaces the
 * previous declaration; @n 0 clears it.
 * @obj: borrowed for the call, any order; overlapping or empty objects
 * are dropped (an alias is not an object of its own).
 * Return: 0, DFZ_EINVAL (a level without statics, an object outside
 * them), or DFZ_ENOMEM.
 */
int dfz_mem_declare_statics(struct dfz_rt *rt, enum dfz_level level,
			    const struct dfz_span *obj, uint32_t n);

/**
 * dfz_mem_stack() - stack @i of @level (struct dfz_rt_layout's stacks).
 * @bytes: out (may be NULL), its size.
 * Return: its lowest byte (the stack grows down from @bytes above it), or
 * NULL when @level has no stack @i.
 */
uint8_t *dfz_mem_stack(const struct dfz_rt *rt, enum dfz_level level,
		       unsigned i, size_t *bytes);

/* ------------------------------------------------- ram engine (PMSIS-like) */

struct dfz_ram;

/*
 * struct dfz_ram_req - caller-owned request; the driver's own queue node.
 * It must live in L2 or L1 (the driver reads it from there; with
 * cfg.user_reqs, anywhere) and stay alive and untouched until
 * dfz_ram_copy_wait() on it returns, as PMSIS says.
 */
struct dfz_ram_req {
	struct dfz_ram *device; /* engine the request was issued on */
	void *addr;             /* L2 side, contiguous */
	union {
		uint32_t ram_addr;      /* L3 offset */
		uint32_t pi_ram_addr;   /* the same, by the PMSIS name
					 * (pi_cl_ram_req_t), which generated
					 * code may set or read */
	};
	uint32_t size;          /* total bytes */
	uint32_t stride;        /* RAM side: line start to next line start */
	uint32_t length;        /* bytes per line */
	uint8_t ext2loc;        /* 1: L3 -> L2 */
	uint8_t is_2d;
	volatile uint8_t done;  /* set by any completion; no generation */
	struct dfz_ram_req *next; /* driver queue link */
};

#define DFZ_RAM_SLOTS 2

/** dfz_ram_get() - the runtime's ram engine (one per runtime). */
struct dfz_ram *dfz_ram_get(struct dfz_rt *rt);

/**
 * dfz_ram_copy() - queue a 1-D copy between L3 and L2 (pi_cl_ram_copy).
 * @req: caller-owned; borrowed by the driver until dfz_ram_copy_wait(@req)
 *       returns. Reusing it earlier corrupts the queue, as on hardware.
 * Return: 0, or a negative DFZ_E* code; on error @req is untouched:
 * DFZ_EINVAL for a NULL or unknown @dev, NULL @req or @addr, @size 0;
 * DFZ_EFAULT when @req (whole, aligned) or @addr is not in L2/L1. The
 * footprint [addr, addr+size) and the L3 side are checked as bytes move.
 */
int dfz_ram_copy(struct dfz_ram *dev, uint32_t ram_addr, void *addr,
		 uint32_t size, int ext2loc, struct dfz_ram_req *req);

/**
 * dfz_ram_copy_2d() - queue a 2-D copy (pi_cl_ram_copy_2d): @size bytes in
 * lines of @length bytes, @stride apart on the RAM side; L2 side contiguous.
 * @req: as for dfz_ram_copy().
 * Return: as for dfz_ram_copy(); also DFZ_EINVAL for @length 0.
 */
int dfz_ram_copy_2d(struct dfz_ram *dev, uint32_t ram_addr, void *addr,
		    uint32_t size, uint32_t stride, uint32_t length,
		    int ext2loc, struct dfz_ram_req *req);

/**
 * dfz_ram_copy_wait() - advance the engine until @req->done is set
 * (pi_cl_ram_copy_wait). @req: borrowed.
 * Return: 0, or DFZ_EHANG when the step bound ran out; DFZ_EFAULT when
 * @req is not in the L2/L1 of a live runtime, DFZ_EINVAL when @req is NULL
 * or @req->device is not a live engine (a stale or never-issued request).
 */
int dfz_ram_copy_wait(struct dfz_ram_req *req);

/**
 * dfz_ram_wait_on() - dfz_ram_copy_wait() on the engine @dev named by the
 * caller (user code: the request may live anywhere and never have been
 * issued, so req->device says nothing). A request never issued waits on
 * its done byte as the driver does: a hang unless it is set.
 * Return: 0, DFZ_EHANG, or DFZ_EINVAL for a NULL @dev or @req.
 */
int dfz_ram_wait_on(struct dfz_ram *dev, struct dfz_ram_req *req);

/** dfz_ram_queue_head() - first node of the waiting list (read-only view
 * for integrity checks), or NULL. */
const struct dfz_ram_req *dfz_ram_queue_head(const struct dfz_ram *dev);

/** dfz_ram_slot() - request in hardware slot @i, or NULL. */
const struct dfz_ram_req *dfz_ram_slot(const struct dfz_ram *dev, unsigned i);

/* --------------------------------------------------- N-d transfer adapter */

#define DFZ_MAX_RANK 5
#define DFZ_MAX_POOL 8

/* An N-d strided transfer in bytes; dims outermost first. */
struct dfz_xfer {
	uint8_t rank;                     /* 1..DFZ_MAX_RANK */
	uint8_t elem;                     /* element size in bytes */
	uint8_t ext2loc;
	uint8_t ext_level;
	uint8_t loc_level;
	uint32_t ext_off;
	uint32_t loc_off;
	uint32_t shape[DFZ_MAX_RANK];     /* elements per dim */
	uint32_t ext_stride[DFZ_MAX_RANK]; /* bytes */
	uint32_t loc_stride[DFZ_MAX_RANK]; /* bytes */
};

/*
 * X(id, name): how an adapter decomposes a transfer above the engine's
 * rank. ASYNC_SHARED: all sub-transfers on one handle; WAIT_EACH: wait
 * the previous sub-transfer first; POOL: K requests round-robin;
 * BLOCKING: wait right after each whole transfer.
 */
#define DFZ_POLICY_MAP(X)                  \
	X(ASYNC_SHARED, "async-shared")    \
	X(WAIT_EACH, "wait-each")          \
	X(POOL, "pool")                    \
	X(BLOCKING, "blocking")

enum dfz_policy {
#define DFZ_POLICY_ENUM(id, name) DFZ_POLICY_##id,
	DFZ_POLICY_MAP(DFZ_POLICY_ENUM)
#undef DFZ_POLICY_ENUM
	DFZ_POLICY_COUNT
};

/*
 * X(id, name): which handle carries a tile transfer. TENSOR_DIR: one per
 * (tensor, direction); DIR: one per direction; BARRIER: one for
 * everything; FRESH: a fresh handle per transfer.
 */
#define DFZ_STRAT_MAP(X)                   \
	X(TENSOR_DIR, "tensor-dir")        \
	X(DIR, "dir")                      \
	X(BARRIER, "barrier")              \
	X(FRESH, "fresh")

enum dfz_strategy {
#define DFZ_STRAT_ENUM(id, name) DFZ_STRAT_##id,
	DFZ_STRAT_MAP(DFZ_STRAT_ENUM)
#undef DFZ_STRAT_ENUM
	DFZ_STRAT_COUNT
};

/*
 * enum dfz_db_order - when double buffering waits the store of an earlier
 * tile (the store that still reads an output buffer).
 * @DFZ_DB_GENERATOR: the store of the previous tile, before each tile's
 *	work: Deeploy's double-buffering template waits the egress future
 *	before every kernel, so at most one store is in flight when the next
 *	is issued, and never two on one request.
 * @DFZ_DB_EAGER: only the store of tile i-2, the last one that read this
 *	tile's output slot: the stores of two tiles may be in flight at
 *	once, on one handle when the strategy shares it.
 */
#define DFZ_DB_ORDER_MAP(X) \
	X(GENERATOR, "generator") \
	X(EAGER, "eager")

enum dfz_db_order {
#define DFZ_DB_ORDER_ENUM(id, name) DFZ_DB_##id,
	DFZ_DB_ORDER_MAP(DFZ_DB_ORDER_ENUM)
#undef DFZ_DB_ORDER_ENUM
	DFZ_DB_ORDER_COUNT
};

const char *dfz_policy_name(unsigned p);
const char *dfz_strategy_name(unsigned s);

/*
 * struct dfz_handle - what generated code calls a DMA handle: one or more
 * engine requests (DFZ_MAX_POOL at most) living in local memory, and the
 * adapter's own record of which of them are in flight (issued, not waited).
 */
struct dfz_handle {
	void *req[DFZ_MAX_POOL];  /* engine request storage, L2/L1 */
	uint8_t nreq;
	uint8_t next;             /* round-robin cursor (pool) */
	uint8_t in_flight[DFZ_MAX_POOL];
};

struct dfz_adapter {
	struct dfz_rt *rt;
	uint8_t engine;           /* enum dfz_engine_id */
	uint8_t policy;           /* enum dfz_policy */
	uint8_t pool_k;           /* requests per handle for DFZ_POLICY_POOL */
	uint8_t req_level;        /* where request storage lives (L2/L1) */
};

/**
 * dfz_handle_init() - allocate @h's request storage in local memory.
 * Return: 0 or a negative DFZ_E*; on error nothing is allocated.
 */
int dfz_handle_init(struct dfz_adapter *ad, struct dfz_handle *h);
/** dfz_handle_fini() - release @h's storage (waits nothing); NULL-safe. */
void dfz_handle_fini(struct dfz_adapter *ad, struct dfz_handle *h);

/**
 * dfz_xfer_issue() - run @x on the adapter's engine, decomposed to the
 * engine's kernel rank by the adapter's policy, on handle @h.
 * @x: borrowed. @h: borrowed until dfz_handle_wait(@h) returns.
 * Return: 0 or a negative DFZ_E* code (DFZ_EHANG from an internal wait).
 */
int dfz_xfer_issue(struct dfz_adapter *ad, const struct dfz_xfer *x,
		   struct dfz_handle *h);

/** dfz_handle_wait() - wait every request of @h that is in flight. */
int dfz_handle_wait(struct dfz_adapter *ad, struct dfz_handle *h);

/**
 * dfz_xfer_rank() - the transfer rank of @x after normalisation (a byte
 * dimension appended, size-1 dims dropped, dims contiguous on both sides
 * merged); 0 for an empty transfer.
 */
unsigned dfz_xfer_rank(const struct dfz_xfer *x);

/**
 * dfz_xfer_calls() - the pushes dfz_xfer_issue() makes for @x on engine
 * @engine (enum dfz_engine_id) with every bug switch off: its kernel calls
 * times the size guard's splits (counted generously), not the dummy
 * transfers an adapter adds. 0 for an empty or invalid transfer.
 */
uint64_t dfz_xfer_calls(const struct dfz_xfer *x, unsigned engine);

/* --------------------------------------------------------- tiling executor */

#define DFZ_MAX_NODES 3
#define DFZ_MAX_HOPS 2

/* X(id, name): the compute kernels. COPY: out = in; INC: out = in + 1;
 * ADD: out = in + aux (both mod 2^(8*elem)). */
#define DFZ_KERNEL_MAP(X) X(COPY, "copy") X(INC, "inc") X(ADD, "add")

enum dfz_kernel {
#define DFZ_KERNEL_ENUM(id, name) DFZ_KERNEL_##id,
	DFZ_KERNEL_MAP(DFZ_KERNEL_ENUM)
#undef DFZ_KERNEL_ENUM
	DFZ_KERNEL_COUNT
};

const char *dfz_kernel_name(unsigned k);

/* Handles of the fresh-per-transfer strategy, used as a ring. */
#define DFZ_TILE_RING 8

/**
 * dfz_tile_handles() - the handles one scope (a node, or one iteration)
 * of a hop holds under strategy @s (enum dfz_strategy), as dfz_prog_run()
 * allocates them: DFZ_TILE_RING for the fresh strategy.
 */
unsigned dfz_tile_handles(unsigned s);

/**
 * dfz_tile_grid() - the grid dfz_prog_run() lays over a hop's region.
 * @rank: the dims of the arrays.
 * @shape: the region, elements per dim. @tile: the tile, elements per dim.
 * @nt: out, tiles per dim (a partial edge tile counts).
 * Return: the number of tiles; 0 when a dim of @shape is empty.
 */
uint64_t dfz_tile_grid(unsigned rank, const uint32_t *shape,
		       const uint32_t *tile, uint32_t *nt);

/**
 * dfz_tile_at() - the origin @o and extent @e (elements per dim) of tile
 * @i, row-major, of the grid @nt that dfz_tile_grid() gave for @shape and
 * @tile. An edge tile is cut to the region; with @full_edges (the
 * edge-tile bug switch) it keeps the full tile extent, as dfz_prog_run()
 * then transfers and computes it.
 */
void dfz_tile_at(unsigned rank, const uint32_t *shape, const uint32_t *tile,
		 const uint32_t *nt, bool full_edges, uint64_t i, uint32_t *o,
		 uint32_t *e);

/* A tensor in external memory: a strided view in logical dim order. */
struct dfz_tensor {
	uint8_t level;
	uint32_t off;                     /* level offset of element 0 */
	uint32_t stride[DFZ_MAX_RANK];    /* bytes per logical dim */
	uint32_t bytes;                   /* allocation size */
};

struct dfz_node {
	uint8_t kernel;                   /* enum dfz_kernel */
	struct dfz_tensor in;
	struct dfz_tensor aux;            /* DFZ_KERNEL_ADD only */
	struct dfz_tensor out;
	/* Tile extent per hop and dim, >= 1 (hop 1: two-hop programs only).
	 * A hop-1 tile tiles one hop-0 tile; it is expected to be no larger,
	 * and is partial at the hop-0 tile's edges. */
	uint32_t tile[DFZ_MAX_HOPS][DFZ_MAX_RANK];
};

/*
 * struct dfz_hop - one hop of the tiling hierarchy: tiles of the level
 * above (the tensors for hop 0, a hop-0 tile for hop 1) moved into local
 * buffers in @local_level, through the adapter of that hop.
 */
struct dfz_hop {
	uint8_t local_level;              /* where the hop's tiles live */
	uint8_t buffering;                /* 1 single, 2 double */
	uint8_t strategy;                 /* enum dfz_strategy */
	uint8_t db_order;                 /* enum dfz_db_order (double only) */
};

/*
 * A tiled program: a chain of copy-like nodes over one logical shape, on
 * one hop (L3<->L2 or L2<->L1) or two nested hops (L3->L2 tiles, each
 * tiled again L2->L1; compute runs on the innermost tiles).
 */
struct dfz_prog {
	uint8_t rank;
	uint8_t elem;
	uint32_t shape[DFZ_MAX_RANK];
	uint8_t nnodes;
	struct dfz_node node[DFZ_MAX_NODES];
	uint8_t nhops;                    /* 1 or 2 */
	struct dfz_hop hop[DFZ_MAX_HOPS]; /* hop 0 outermost */
	uint8_t compute_chunks;           /* yields inside one tile's compute */
};

/**
 * dfz_prog_run() - execute @p as a tiling compiler's generated code would:
 * per node, tiles loaded into local buffers, computed (or, with two hops,
 * tiled again by the inner hop), stored.
 * @ad: an array of @p->nhops adapters, borrowed; @ad[h] drives hop h and
 *      keeps its requests in its req_level (normally hop h's local level).
 * @p: borrowed. Local buffers and handles are allocated per hop in
 *     p->hop[h].local_level and released before return.
 * Return: 0 or the first negative DFZ_E* code (a hang or an allocation
 * failure); a run that returns an error leaves memory as it is.
 */
int dfz_prog_run(struct dfz_adapter *ad, const struct dfz_prog *p);

/*
 * struct dfz_compute - one tile's compute, as the tiling executor runs it:
 * @n elements of @elem bytes, laid out compactly in every buffer. All
 * buffers are borrowed for the call and live in L2 or L1.
 */
struct dfz_compute {
	struct dfz_rt *rt;
	uint8_t engine;       /* enum dfz_engine_id, stamped on the events */
	uint8_t kernel;       /* enum dfz_kernel */
	uint8_t elem;
	uint8_t chunks;       /* yields inside the tile; 0 counts as 1 */
	const uint8_t *in;
	const uint8_t *aux;   /* DFZ_KERNEL_ADD only, else NULL */
	uint8_t *out;
	uint64_t n;           /* elements */
};

/**
 * dfz_compute_run() - the compute step of dfz_prog_run(), for code that
 * performs a tiled program's calls itself (a reproducer emitted by
 * `dmafuzz emit-c`): the kernel over @c in chunks; per chunk it publishes
 * COMPUTE_READ for the in (and aux) span, computes, publishes
 * COMPUTE_WRITE for the out span, then yields DFZ_YIELD_COMPUTE so the
 * engines may run. @c: borrowed.
 */
void dfz_compute_run(const struct dfz_compute *c);

/**
 * dfz_prog_local_bytes() - bytes of @level that dfz_prog_run() needs for
 * @p's most demanding node: the buffers and requests (with redzones) of
 * every hop whose local level is @level, the requests and engine scratch
 * every hop keeps there, plus the level's reserved start.
 * @ad: the array of @p->nhops adapters, borrowed. Returns 0 when @p or @ad
 *      is NULL.
 */
uint32_t dfz_prog_local_bytes(const struct dfz_prog *p,
			      const struct dfz_adapter *ad,
			      enum dfz_level level);

#include "dmafuzz/runtime_walk.h"
#include "dmafuzz/runtime_mchan.h"
#include "dmafuzz/runtime_idma.h"
#include "dmafuzz/runtime_host.h"

#endif /* DMAFUZZ_RUNTIME_H */
