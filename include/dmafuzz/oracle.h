/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz oracles: observers with post-checks that judge a run of the
 * runtime. An oracle reads events and memory; it never drives the runtime.
 * The first violation of a run becomes its finding, with a stable class id,
 * a message saying what was expected and what was seen, and evidence.
 */
#ifndef DMAFUZZ_ORACLE_H
#define DMAFUZZ_ORACLE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "dmafuzz/runtime.h"

/* X(id, name): the stable class ids used for dedup and reports. */
#define DFZ_CLASS_MAP(X)                                  \
	X(DATA_MISMATCH, "data.mismatch")                 \
	X(DATA_CLOBBER, "data.clobber")                   \
	X(MEM_REDZONE, "mem.redzone")                     \
	X(HANDLE_REUSE, "handle.reuse")                   \
	X(HANDLE_STALE, "handle.stale")                   \
	X(HANDLE_LEAK, "handle.leak")                     \
	X(QUEUE_CORRUPT, "queue.corrupt")                 \
	X(DESC_CLOBBERED, "desc.clobbered")               \
	X(DMA_HANG, "dma.hang")                           \
	X(HAZARD_RBW, "hazard.read-before-wait")          \
	X(HAZARD_RACE, "hazard.race")                     \
	X(CMD_ENCODING, "cmd.encoding")                   \
	X(DEV_LEAK, "dev.leak")                           \
	X(DEV_MISUSE, "dev.misuse")                       \
	X(RT_OUTPUT, "rt.output")                         \
	X(RT_ERRCODE, "rt.errcode")                       \
	X(CRASH, "crash")                                 \
	X(DMA_EARLY_WAIT, "dma.early-wait")               \
	X(DMA_BAD_ADDRESS, "dma.bad-address")             \
	X(RT_REFUSED, "rt.refused")                       \
	X(MEM_OOB, "mem.oob")                             \
	X(MEM_UAF, "mem.use-after-free")                  \
	X(MEM_UNDEFINED, "mem.undefined")                 \
	X(MEM_LEAK, "mem.leak")

enum dfz_class {
	DFZ_CLASS_NONE = 0,
#define DFZ_CLASS_ENUM(id, name) DFZ_CLASS_##id,
	DFZ_CLASS_MAP(DFZ_CLASS_ENUM)
#undef DFZ_CLASS_ENUM
	DFZ_CLASS_COUNT
};

/** dfz_class_name() - stable id string of @cls ("none" for NONE), or NULL. */
const char *dfz_class_name(unsigned cls);

/** dfz_class_parse() - class for @name; DFZ_CLASS_NONE when unknown. */
unsigned dfz_class_parse(const char *name);

/* What a finding points at. Fields that do not apply hold -1 / NULL. */
struct dfz_evidence {
	const void *handle;       /* request involved, or NULL */
	int64_t step;             /* virtual step of the violation */
	int64_t xfer;             /* issue sequence number (0-based) */
	int64_t elem;             /* flat element index (data oracles) */
	int64_t level;            /* memory level, or -1 */
	int64_t off;              /* level offset, or -1 */
	int64_t other;            /* the earlier pending transfer it
				   * conflicts with (issue sequence
				   * number), when not @xfer; or -1 */
	int64_t block;            /* the block of @level it is about:
				   * offset of its first usable byte
				   * (mem.* classes), or -1 */
};

#define DFZ_MSG_MAX 256

struct dfz_finding {
	uint8_t cls;              /* enum dfz_class; NONE: clean */
	char oracle[16];          /* name of the oracle that fired */
	char msg[DFZ_MSG_MAX];
	struct dfz_evidence ev;
};

/*
 * X(id, name): the oracles of the set. Events reach them in this order, so
 * the order decides which violation of one event is reported: the request
 * and transfer-id lifecycles first, then the mchan command word (judged at
 * ISSUE, before desc sees the bytes a bad word moves).
 */
#define DFZ_ORACLE_MAP(X)     \
	X(REF, "ref")         \
	X(REDZONE, "redzone") \
	X(HANDLE, "handle")   \
	X(TID, "tid")         \
	X(QUEUE, "queue")     \
	X(CMD, "cmd")         \
	X(DESC, "desc")       \
	X(HANG, "hang")       \
	X(HAZARD, "hazard")   \
	X(DEV, "dev")         \
	X(OUTPUT, "output")   \
	X(ERRCODE, "errcode") \
	X(INFLIGHT, "inflight") \
	X(BOUNDS, "bounds")     \
	X(DEFINED, "defined")

enum dfz_oracle_id {
#define DFZ_ORACLE_ENUM(id, name) DFZ_ORACLE_##id,
	DFZ_ORACLE_MAP(DFZ_ORACLE_ENUM)
#undef DFZ_ORACLE_ENUM
	DFZ_ORACLE_COUNT
};

#define DFZ_ORACLES_ALL ((1u << DFZ_ORACLE_COUNT) - 1)

/** dfz_oracle_name() - the name of oracle @id ("ref", ...), or NULL. */
const char *dfz_oracle_name(unsigned id);

/**
 * dfz_oracles_parse() - an oracle selection: "all", "none", or a comma
 * list of oracle names.
 * @list: borrowed; NULL means "all".
 * @mask: out, a mask of enum dfz_oracle_id bits (untouched on error).
 * Return: 0, or DFZ_EINVAL for an unknown name or an empty list.
 */
int dfz_oracles_parse(const char *list, uint32_t *mask);

struct dfz_oracles;

/**
 * dfz_oracles_create() - a set of the oracles in @mask (bits of
 * enum dfz_oracle_id), created once and reused across runs.
 * @out: caller owns; release with dfz_oracles_destroy().
 * Return: 0 or DFZ_ENOMEM.
 */
int dfz_oracles_create(uint32_t mask, struct dfz_oracles **out);
void dfz_oracles_destroy(struct dfz_oracles *set);

/** dfz_oracles_observer() - the observer to put in dfz_rt_config.obs. */
struct dfz_observer dfz_oracles_observer(struct dfz_oracles *set);

/**
 * dfz_oracles_reset() - start a run on @rt; call right after dfz_rt_reset()
 * and before any allocation. @rt: borrowed until the next reset.
 */
void dfz_oracles_reset(struct dfz_oracles *set, struct dfz_rt *rt);

/**
 * dfz_oracles_begin() - the program is set up (tensors allocated, inputs
 * written); snapshot what the post-checks compare against.
 * @spec: borrowed until dfz_oracles_end(); what the run must compute.
 */
void dfz_oracles_begin(struct dfz_oracles *set, const struct dfz_prog *spec);

/**
 * dfz_oracles_begin_host() - as dfz_oracles_begin() for a host program:
 * the child tensors are staged on the device, the host tensors filled, and
 * @spec's calls are about to run. @spec: borrowed until dfz_oracles_end().
 */
void dfz_oracles_begin_host(struct dfz_oracles *set,
			    const struct dfz_host_prog *spec);

/**
 * dfz_oracles_returned() - the caller of a host program saw @rc from call
 * @call of the spec (each launch of a RUN call reports once, @rep its
 * 0-based index). Calls the runtime publishes as API events are judged from
 * those; this is how the calls that cannot publish (a NULL context: no
 * runtime is reachable) are judged too.
 */
void dfz_oracles_returned(struct dfz_oracles *set, unsigned call,
			  unsigned rep, int rc);

/** dfz_oracles_end() - run every post-check. */
void dfz_oracles_end(struct dfz_oracles *set);

/** dfz_oracles_finding() - the first violation of the run, or NULL. */
const struct dfz_finding *dfz_oracles_finding(const struct dfz_oracles *set);

/**
 * dfz_oracle_fail() - record a violation (kept only if it is the first).
 * For oracle implementations and sabotage tests.
 */
void dfz_oracle_fail(struct dfz_oracles *set, const char *oracle,
		     enum dfz_class cls, const struct dfz_evidence *ev,
		     const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/** dfz_evidence_none() - evidence with every field "does not apply". */
struct dfz_evidence dfz_evidence_none(void);

/**
 * dfz_desc_writes() - whether the transfer @d (as issued; borrowed)
 * writes every byte of @s (borrowed): its destination side's footprint,
 * line by line, as the oracles judge it.
 */
bool dfz_desc_writes(const struct dfz_desc *d, const struct dfz_span *s);

#endif /* DMAFUZZ_ORACLE_H */
