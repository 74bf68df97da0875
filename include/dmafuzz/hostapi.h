/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz host-API device (docs/host-runtime.md): a device behind a host
 * runtime's table of device operations (simpler's HostApiOps), in three
 * layers, and the C API the C++ adapter include/dmafuzz/host_api_ops.hpp
 * forwards to.
 *
 * - The device (runtime/hdev.c, dfz_hdev_*): device memory in a reserved
 *   address range that host code cannot touch (PROT_NONE: a host access
 *   to a device address faults at its line), addresses never reused
 *   within a session, each block poisoned until written: a per-byte
 *   record of the run that last wrote it (a copy to the device, a memset,
 *   a kernel's write); a copy from the device returns the poison byte for
 *   bytes never written. Calls fail where the schedule says.
 * - The judge (oracles/hjudge.c, dfz_hjudge_*): its own ledger of the
 *   blocks (who owns each, the stack that allocated and freed it), fed
 *   the device's events; it reads the device's per-byte record the way
 *   the other oracles read memory. Classes: dev.leak, dev.misuse,
 *   mem.undefined, dev.child-memory, api.unsupported.
 * - The session (dropin/hostapi.c, dfz_hapi_*): the table's operations by
 *   their simpler names, a stack captured at each call, findings at the
 *   user's file:line (the first frame outside dmafuzz and the table's
 *   HostApi:: wrappers).
 */
#ifndef DMAFUZZ_HOSTAPI_H
#define DMAFUZZ_HOSTAPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------- the calls */

/* X(id, name): the device's calls, by the table's member names; the last
 * three are the test's fake kernel and the platform's finalize. */
#define DFZ_HAPI_OP_MAP(X)                                           \
	X(MALLOC, "device_malloc")                                   \
	X(FREE, "device_free")                                       \
	X(COPY_TO, "copy_to_device")                                 \
	X(COPY_FROM, "copy_from_device")                             \
	X(MEMSET, "device_memset")                                   \
	X(ARENA, "setup_static_arena")                               \
	X(GRAPH_DEF, "acquire_graph_definition_buffer")              \
	X(MAP_HOST, "register_device_memory_to_host")                \
	X(UNMAP_HOST, "unregister_device_memory_from_host")          \
	X(RETAIN, "set_retained_temp_buffer")                        \
	X(KWRITE, "kernel write")                                    \
	X(KREAD, "kernel read")                                      \
	X(FINALIZE, "finalize")

enum dfz_hapi_op {
#define DFZ_HAPI_OP_ENUM(id, name) DFZ_HAPI_##id,
	DFZ_HAPI_OP_MAP(DFZ_HAPI_OP_ENUM)
#undef DFZ_HAPI_OP_ENUM
	DFZ_HAPI_OP_COUNT
};

/* The calls a schedule may name: MALLOC .. GRAPH_DEF (FREE never fails:
 * device_free returns nothing through the table). */
#define DFZ_HAPI_FALLIBLE (DFZ_HAPI_GRAPH_DEF + 1)

/** dfz_hapi_op_name() - the member name of @op, or "call?". */
const char *dfz_hapi_op_name(unsigned op);

/* Pooled regions of setup_static_arena. */
enum dfz_hapi_pool { DFZ_HAPI_GM_HEAP, DFZ_HAPI_GM_SM, DFZ_HAPI_RT_ARENA,
		     DFZ_HAPI_POOLS };

/* ------------------------------------------------------------- the device */

struct dfz_hdev;

/* What the device tells its observer after each call. */
struct dfz_hdev_ev {
	uint8_t op;                /* enum dfz_hapi_op */
	int rc;                    /* 0, or the failure it returned */
	bool injected;             /* the schedule made it fail */
	uint64_t dev;              /* the device address argument (MALLOC,
				    * ARENA, GRAPH_DEF: the block made) */
	const void *host;          /* the host pointer argument, or NULL */
	uint64_t n;                /* bytes */
	uint32_t aux;              /* ARENA: region (enum dfz_hapi_pool);
				    * RETAIN: the pipeline slot */
	uint64_t seq;              /* calls of the session so far */
};

typedef void (*dfz_hdev_observer)(void *ctx, const struct dfz_hdev_ev *ev);

/* Per-byte state of a device range, as dfz_hdev_state() counts it. */
struct dfz_hdev_bytes {
	uint64_t never;            /* never written */
	uint64_t stale;            /* last written by an earlier run */
	uint64_t first_never;      /* offset into the range of the first */
	uint64_t first_stale;
	uint32_t stale_run;        /* the run that wrote first_stale */
	uint8_t stale_op;          /* and the call (enum dfz_hapi_op) */
};

/**
 * dfz_hdev_create() - a device with its address range reserved.
 * Return: 0, or DFZ_ENOMEM (no address range, no memory).
 */
int dfz_hdev_create(struct dfz_hdev **out);
/** dfz_hdev_destroy() - release @d and its range; accepts NULL. */
void dfz_hdev_destroy(struct dfz_hdev *d);

/** dfz_hdev_observe() - @fn(@ctx, ev) after every call (NULL: none). */
void dfz_hdev_observe(struct dfz_hdev *d, dfz_hdev_observer fn, void *ctx);

/**
 * dfz_hdev_reset() - a new session (a device runner's lifetime): every
 * block dropped, addresses start over, run 1, no failure scheduled.
 * @budget: live device bytes granted (0: 1 GiB); @poison: the byte a
 * copy from the device returns for a byte never written.
 */
void dfz_hdev_reset(struct dfz_hdev *d, uint64_t budget, uint8_t poison);

/** dfz_hdev_next_run() - the next run of the session begins. */
void dfz_hdev_next_run(struct dfz_hdev *d);
/** dfz_hdev_run() - the run under way, 1-based. */
uint32_t dfz_hdev_run(const struct dfz_hdev *d);

/**
 * dfz_hdev_fail() - the @ordinal-th call (0-based, in the session) of
 * @op (< DFZ_HAPI_FALLIBLE) fails: returns @rc (a NULL block for the
 * allocating calls); with @partial a copy or memset first moves half its
 * bytes. Return: 0, or DFZ_EINVAL (bad @op, @rc 0, table full: 16).
 */
int dfz_hdev_fail(struct dfz_hdev *d, unsigned op, uint32_t ordinal, int rc,
		  bool partial);

/**
 * dfz_hdev_schedule() - failures from a schedule's bytes: records of 3
 * bytes (op mod DFZ_HAPI_FALLIBLE, ordinal, how: bit 0 partial, rc =
 * -(1 + (how >> 1) % 8)); a short tail is ignored. Return: records taken.
 */
unsigned dfz_hdev_schedule(struct dfz_hdev *d, const uint8_t *s, size_t n);

/*
 * The calls. Device addresses are uint64_t. Each is published to the
 * observer after it, with its return code.
 */
/** dfz_hdev_malloc() - a block of @size bytes, never written; 0 when the
 * schedule fails it, @size is 0 or the budget is spent. */
uint64_t dfz_hdev_malloc(struct dfz_hdev *d, uint64_t size);
/** Return: 0, or DFZ_ENOENT (not the start of a live block). 0 is a
 * no-op. */
int dfz_hdev_free(struct dfz_hdev *d, uint64_t dev);
/** dfz_hdev_copy_to(), dfz_hdev_copy_from(), dfz_hdev_memset() - move
 * @n bytes. Return: 0; DFZ_EFAULT (the device range is not inside one live
 * block, or the host pointer lies in the device range: nothing moved);
 * DFZ_EINVAL (NULL host pointer); the schedule's code. */
int dfz_hdev_copy_to(struct dfz_hdev *d, uint64_t dev, const void *host,
		     uint64_t n);
int dfz_hdev_copy_from(struct dfz_hdev *d, void *host, uint64_t dev,
		       uint64_t n);
int dfz_hdev_memset(struct dfz_hdev *d, uint64_t dev, int value, uint64_t n);
/** dfz_hdev_pool() - a platform-owned block (ARENA region @which, or a
 * graph-definition buffer with @which DFZ_HAPI_POOLS). */
uint64_t dfz_hdev_pool(struct dfz_hdev *d, unsigned which, uint64_t size);
/** dfz_hdev_note() - publish a call that moves no byte (MAP_HOST,
 * UNMAP_HOST, RETAIN, FINALIZE) for the observer. */
void dfz_hdev_note(struct dfz_hdev *d, unsigned op, uint64_t dev,
		   const void *host, uint64_t n, uint32_t aux);
/** The test's kernel: writes (defines) and reads device bytes. Return:
 * 0, or DFZ_EFAULT (outside every live block: nothing moved). */
int dfz_hdev_kernel_write(struct dfz_hdev *d, uint64_t dev, const void *src,
			  uint64_t n);
int dfz_hdev_kernel_read(struct dfz_hdev *d, void *dst, uint64_t dev,
			 uint64_t n);

/* Queries, for oracles and tests (no event, no failure). */
/** dfz_hdev_is_dev() - whether @p lies in the device's address range. */
bool dfz_hdev_is_dev(const struct dfz_hdev *d, uint64_t p);
/** dfz_hdev_state() - count the bytes of [dev, dev+n) of one live block
 * by state. Return: 0, or DFZ_EFAULT (not inside one live block). */
int dfz_hdev_state(const struct dfz_hdev *d, uint64_t dev, uint64_t n,
		   struct dfz_hdev_bytes *out);
/** dfz_hdev_live() - live blocks and bytes. */
uint64_t dfz_hdev_live(const struct dfz_hdev *d, uint32_t *blocks);

/* -------------------------------------------------------------- the judge */

/* The user's policy for device bytes read that nothing wrote. */
enum dfz_hapi_policy {
	DFZ_HAPI_REPORT_UNWRITTEN,  /* a finding (mem.undefined) */
	DFZ_HAPI_ACCEPT_UNWRITTEN   /* accepted (simpler since #1365), but
				     * stale bytes and regions no host code
				     * wrote are still reported */
};

#define DFZ_HAPI_PCS 24             /* frames kept of a stack */

struct dfz_hapi_stack {
	uint32_t n;
	void *pc[DFZ_HAPI_PCS];
};

#define DFZ_HAPI_MSG 384

/* A finding: its class, what was seen and expected, and the stacks. */
struct dfz_hapi_finding {
	char cls[24];               /* "dev.leak", "mem.undefined", ... */
	char msg[DFZ_HAPI_MSG];
	uint64_t seq;               /* the call of the session */
	uint32_t run;
	struct dfz_hapi_stack at;   /* the call that made it */
	struct dfz_hapi_stack alloc; /* the block's allocation, when one */
	struct dfz_hapi_stack freed; /* the block's free, when one */
};

struct dfz_hjudge;

/** dfz_hjudge_create() - a judge. Return: 0 or DFZ_ENOMEM. */
int dfz_hjudge_create(struct dfz_hjudge **out);
/** dfz_hjudge_destroy() - release @j; accepts NULL. */
void dfz_hjudge_destroy(struct dfz_hjudge *j);
/** dfz_hjudge_reset() - a new session on @d with @policy. */
void dfz_hjudge_reset(struct dfz_hjudge *j, const struct dfz_hdev *d,
		      unsigned policy);
/** dfz_hjudge_stack() - the stack of the call the next event is about
 * (borrowed until it returns). */
void dfz_hjudge_stack(struct dfz_hjudge *j, const struct dfz_hapi_stack *s);
/** dfz_hjudge_event() - a dfz_hdev_observer. */
void dfz_hjudge_event(void *j, const struct dfz_hdev_ev *ev);
/** dfz_hjudge_run_end() - a run ended: the runtime's live device bytes
 * must not have grown since the previous run's end (dev.leak). */
void dfz_hjudge_run_end(struct dfz_hjudge *j);
/** dfz_hjudge_platform() - the frees from now on are the platform's own
 * (a pooled region replaced, a graph-definition buffer grown, the
 * finalize): not judged as the runtime's. Return: the previous setting. */
bool dfz_hjudge_platform(struct dfz_hjudge *j, bool on);
/** dfz_hjudge_unsupported() - a member the device does not model was
 * called (api.unsupported). */
void dfz_hjudge_unsupported(struct dfz_hjudge *j, const char *member);
/** dfz_hjudge_finding() - the first finding of the session, or NULL. */
const struct dfz_hapi_finding *dfz_hjudge_finding(const struct dfz_hjudge *j);

/* ------------------------------------------------------------ the session */

struct dfz_hapi;

/**
 * dfz_hapi_create() - a session: a device and its judge.
 * Return: 0 or DFZ_ENOMEM.
 */
int dfz_hapi_create(struct dfz_hapi **out);
/** dfz_hapi_destroy() - release @s; accepts NULL. */
void dfz_hapi_destroy(struct dfz_hapi *s);
/** dfz_hapi_default() - the process's session (created on first use;
 * the one a NULL runner_ctx names). NULL when it cannot be created. */
struct dfz_hapi *dfz_hapi_default(void);

/**
 * dfz_hapi_begin() - a new session (a fresh device runner) with
 * @policy (enum dfz_hapi_policy), its failures from @sched (@n bytes,
 * dfz_hdev_schedule(); NULL: none) and @budget, @poison as for
 * dfz_hdev_reset(). The first run begins.
 */
void dfz_hapi_begin(struct dfz_hapi *s, unsigned policy, const uint8_t *sched,
		    size_t n, uint64_t budget, uint8_t poison);
/** dfz_hapi_run_end() - the run ended (judge the ledger); the next one
 * begins. */
void dfz_hapi_run_end(struct dfz_hapi *s);
/** dfz_hapi_finalize() - the platform's finalize (DeviceRunner::finalize):
 * frees the retained buffers, pooled regions and graph-definition
 * buffers; any other block still live is a leak. */
void dfz_hapi_finalize(struct dfz_hapi *s);
/** dfz_hapi_finding() - the session's first finding, or NULL. */
const struct dfz_hapi_finding *dfz_hapi_finding(const struct dfz_hapi *s);
/** dfz_hapi_device() - the session's device (tests, queries). */
struct dfz_hdev *dfz_hapi_device(struct dfz_hapi *s);

/**
 * dfz_hapi_report() - print the finding (if any) to @f: a line
 * "dmafuzz: CLASS at FILE:LINE: MESSAGE", then the stacks, each frame
 * "file:line in function" (addr2line on the running program).
 * @f: a FILE * (void * to keep stdio out of C++ users' way).
 * Return: 1 when there was a finding, 0 when clean.
 */
int dfz_hapi_report(const struct dfz_hapi *s, void *f);

/**
 * dfz_hapi_site() - "file:line" of the first user frame of the finding's
 * call stack into @buf ("?" when it cannot be symbolized). Return: @buf.
 */
char *dfz_hapi_site(const struct dfz_hapi *s, char *buf, size_t n);

/* The table's operations, simpler's names and argument order. */
void *dfz_hapi_device_malloc(struct dfz_hapi *s, size_t size);
void dfz_hapi_device_free(struct dfz_hapi *s, void *dev);
int dfz_hapi_copy_to_device(struct dfz_hapi *s, void *dev, const void *host,
			    size_t size);
int dfz_hapi_copy_from_device(struct dfz_hapi *s, void *host, const void *dev,
			      size_t size);
int dfz_hapi_device_memset(struct dfz_hapi *s, void *dev, int value,
			   size_t size);
void *dfz_hapi_register_device_memory_to_host(struct dfz_hapi *s, void *dev,
					      size_t bytes);
void dfz_hapi_unregister_device_memory_from_host(struct dfz_hapi *s,
						 void *dev);
void dfz_hapi_get_retained_temp_buffer(struct dfz_hapi *s, uint32_t slot,
				       void **addr, size_t *size);
void dfz_hapi_set_retained_temp_buffer(struct dfz_hapi *s, uint32_t slot,
				       void *addr, size_t size);
void *dfz_hapi_acquire_graph_definition_buffer(struct dfz_hapi *s,
					       uint32_t slot, uint64_t key,
					       size_t bytes, size_t align);
int dfz_hapi_setup_static_arena(struct dfz_hapi *s, uint32_t bank,
				size_t heap, size_t sm, size_t rt_arena);
/** @which: enum dfz_hapi_pool. NULL before setup_static_arena. */
void *dfz_hapi_acquire_pooled(struct dfz_hapi *s, uint32_t bank,
			      unsigned which);
bool dfz_hapi_lookup_cache(struct dfz_hapi *s, uint32_t bank, uint64_t hash,
			   const void *key, size_t key_size, void **heap,
			   void **sm, void **rt_arena, size_t *rt_off,
			   const void **image, size_t *image_size);
void dfz_hapi_mark_cached(struct dfz_hapi *s, uint32_t bank, uint64_t hash,
			  const void *key, size_t key_size, void *heap,
			  void *sm, void *rt_arena, size_t rt_off);
/** dfz_hapi_unsupported() - a member that is not modelled was called. */
void dfz_hapi_unsupported(struct dfz_hapi *s, const char *member);

/* The test's fake kernel (device side). Return: 0 or DFZ_EFAULT. */
int dfz_hapi_kernel_write(struct dfz_hapi *s, void *dev, const void *src,
			  size_t n);
int dfz_hapi_kernel_read(struct dfz_hapi *s, void *dst, const void *dev,
			 size_t n);

#ifdef __cplusplus
}
#endif

#endif /* DMAFUZZ_HOSTAPI_H */
