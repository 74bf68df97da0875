/* SPDX-License-Identifier: MIT */
/*
 * Private oracle interfaces: the operations every oracle implements, the
 * set that owns them and dispatches events to them, and the small shared
 * tools they are built from (a bounded pointer table, descriptor
 * footprints). Oracles keep their own state machines and never call the
 * runtime code paths they judge; they only read events and memory.
 */
#ifndef DMAFUZZ_ORACLE_INT_H
#define DMAFUZZ_ORACLE_INT_H

#include "dmafuzz/oracle.h"

#define DFZ_EV_BIT(kind) (1u << (kind))

/* Memory an oracle reads may be poisoned for ASan (in-flight
 * destinations, redzones and freed blocks under cfg.sanitize): such reads
 * go through functions ASan does not instrument, in byte loops that never
 * call an intercepted memcpy/memcmp. */
#if defined(__SANITIZE_ADDRESS__)
#define DFZ__ORACLE_NO_ASAN __attribute__((no_sanitize("address")))
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DFZ__ORACLE_NO_ASAN __attribute__((no_sanitize("address")))
#endif
#endif
#ifndef DFZ__ORACLE_NO_ASAN
#define DFZ__ORACLE_NO_ASAN
#endif

/**
 * dfz__oracle_judged() - @n bytes at @p (the oracle's own: a copy of
 * program bytes, or a value computed from them) are defined to valgrind
 * memcheck from now on, so the oracle may branch on them (vbits.c).
 */
void dfz__oracle_judged(const void *p, size_t n);

/*
 * struct dfz__freed_pat - the freed pattern of one level, as an oracle
 * expects it (freed_pat.c): dfz_mem_freed_byte() of each offset below a
 * cap, a page at a time, made the first time a check reaches it.
 */
struct dfz__freed_pat {
	uint8_t *bytes;              /* pages * 4 KiB, offset-indexed */
	uint8_t *have;               /* a byte a page: computed */
	uint32_t pages;
};

/**
 * dfz__freed_pat_init() - a table for offsets [0, @cap): 0 or DFZ_ENOMEM.
 */
int dfz__freed_pat_init(struct dfz__freed_pat *p, uint32_t cap);
/**
 * dfz__freed_pat() - the expected freed bytes of [@off, @off + @len) of
 * @level, or NULL past the table's cap (the caller computes them).
 */
const uint8_t *dfz__freed_pat(struct dfz__freed_pat *p, unsigned level,
			      uint32_t off, uint32_t len);
/** dfz__freed_pat_free() - release the table. */
void dfz__freed_pat_free(struct dfz__freed_pat *p);

/*
 * struct dfz_oracle_ops - one oracle.
 * @name:   short name, copied into findings.
 * @size:   bytes of the oracle's state (allocated zeroed by the set).
 * @events: DFZ_EV_BIT mask of the event kinds @event wants.
 * @init:   allocate everything at the caps, once. Return 0 or DFZ_ENOMEM;
 *          on error @fini still runs on the state. NULL: nothing to
 *          allocate (and @fini NULL too).
 * @fini:   release what @init allocated (state possibly half built).
 * @reset:  start a run on @rt; forget the previous run (only what it used).
 * @event:  observe @ev (borrowed for the call).
 * @begin:  the program @spec is set up (may be NULL in the ops table).
 * @begin_host: the host program @spec is set up (may be NULL).
 * @returned: the caller saw a return code (dfz_oracles_returned; may be
 *          NULL).
 * @end:    the run is over: post-checks (may be NULL).
 */
struct dfz_oracle_ops {
	const char *name;
	size_t size;
	uint32_t events;
	int (*init)(void *st);
	void (*fini)(void *st);
	void (*reset)(void *st, struct dfz_oracles *set, struct dfz_rt *rt);
	void (*event)(void *st, const struct dfz_event *ev);
	void (*begin)(void *st, const struct dfz_prog *spec);
	void (*begin_host)(void *st, const struct dfz_host_prog *spec);
	void (*returned)(void *st, unsigned call, unsigned rep, int rc);
	void (*end)(void *st);
};

/*
 * Each oracle's ops are file-static in its own file (the library exports
 * no variables), handed out by dfz__oracle_<name>(): one per enum
 * dfz_oracle_id, as X(ID, name).
 */
#define DFZ__ORACLE_OPS(X)						\
	X(REF, ref) X(REDZONE, redzone) X(HANDLE, handle) X(TID, tid)	\
	X(QUEUE, queue) X(CMD, cmd) X(DESC, desc) X(HANG, hang)		\
	X(HAZARD, hazard) X(DEV, dev) X(OUTPUT, output)			\
	X(ERRCODE, errcode) X(INFLIGHT, inflight) X(BOUNDS, bounds) X(DEFINED, defined)
#define DFZ__ORACLE_OPS_DECL(id, name)					\
	const struct dfz_oracle_ops *dfz__oracle_##name(void);
DFZ__ORACLE_OPS(DFZ__ORACLE_OPS_DECL)
#undef DFZ__ORACLE_OPS_DECL

#define DFZ__USER_NAMES 32

/*
 * struct dfz_oracles - the set. Events go to the attached oracles in enum
 * order; once a finding exists the run is decided and nothing more is
 * dispatched (first violation wins).
 */
struct dfz_oracles {
	uint32_t mask;                /* attached oracles */
	bool running;                 /* between reset and end */
	bool listening;               /* running, and no finding yet */
	struct dfz_rt *rt;            /* borrowed until the next reset */
	int64_t nissue;               /* ISSUE events seen this run */
	int64_t xfer;                 /* sequence number of the current ISSUE */
	const struct dfz_oracle_ops *ops[DFZ_ORACLE_COUNT];
	void *st[DFZ_ORACLE_COUNT];
	struct dfz__hook {            /* per kind: the oracles that take it */
		void (*event)(void *st, const struct dfz_event *ev);
		void *st;
	} disp[DFZ_EV_COUNT][DFZ_ORACLE_COUNT];
	uint8_t ndisp[DFZ_EV_COUNT];
	struct dfz_finding finding;
	char where[4][32];            /* dfz__where() results, rotating */
	unsigned where_next;
	unsigned nusers;              /* pointers outside the model named */
	const void *users[DFZ__USER_NAMES]; /* ... in order of first naming */
};

/** dfz__oracles_decided() - true once the run has a finding. */
static inline bool dfz__oracles_decided(const struct dfz_oracles *set)
{
	return set->finding.cls != DFZ_CLASS_NONE;
}

/** dfz__oracles_state() - state of oracle @id in @set, or NULL (tests). */
void *dfz__oracles_state(struct dfz_oracles *set, enum dfz_oracle_id id);

/* Largest tensor the reference oracle judges: DFZ_CAP_TENSOR_BYTES of the
 * plan layer (checked by the tests); larger specs are not judged. */
#define DFZ__REF_CAP_BYTES (256u << 10)

/** dfz__ref_snapshot() - the begin-of-run copy of tensor @t of the ref
 * oracle (0: node[0].in, 1 + k: node k's aux, 1 + DFZ_MAX_NODES + k: node
 * k's out), for sabotage tests; NULL when @t is out of range. */
uint8_t *dfz__ref_snapshot(void *ref_state, unsigned t);

/**
 * dfz__where() - a request or buffer address as messages name it: its
 * memory location ("L2+0x1a0"), stable from run to run; outside the
 * memory model (user code's requests), "user#k" by the order of first
 * naming in the run, also stable (the raw pointer once 32 are named).
 * The string lives in @set until four more calls have been made.
 */
const char *dfz__where(struct dfz_oracles *set, const void *p);

/**
 * dfz__place() - the level and offset of host address @p: inside the
 * usable part of L2/L1, or past it inside the level's arena (an engine's
 * runaway line), counted from the arena base so that it is the same in
 * every run. Return: false when @p is nowhere in the memory model.
 */
bool dfz__place(const struct dfz_oracles *set, const void *p,
		unsigned *level, uint64_t *off);

/**
 * dfz__owner() - what a transfer of @engine belongs to, as messages name
 * it: "request L2+0x1a0" (ram: @handle through dfz__where()), "TID 3"
 * (mchan), "txid 4" (idma; "every txid (wait_all)" for -1). Same
 * lifetime as dfz__where() results.
 */
const char *dfz__owner(struct dfz_oracles *set, unsigned engine,
		       const void *handle, int64_t id);

/** dfz__level_name() - "L3", "L2", "L1" or "L?". */
const char *dfz__level_name(unsigned level);

/**
 * dfz__evidence_of() - the evidence of event @ev (its handle and step) for
 * transfer @xfer (-1: none); every other field as dfz_evidence_none().
 */
struct dfz_evidence dfz__evidence_of(const struct dfz_event *ev, int64_t xfer);

/* ------------------------------------------------------- pointer table */

/*
 * struct dfz__ptab - a bounded open-addressing map from a pointer to a
 * dense index 0..n-1 (the order of first insertion). Entries are never
 * removed during a run; clearing costs O(entries).
 */
struct dfz__ptab {
	const void **key;             /* slots, NULL: empty */
	uint32_t *val;
	uint32_t *used;               /* slot of each entry, for clearing */
	uint32_t n;                   /* entries */
	uint32_t max;                 /* entry bound */
	uint32_t mask;                /* slots - 1 */
};

int dfz__ptab_init(struct dfz__ptab *t, uint32_t max);
void dfz__ptab_fini(struct dfz__ptab *t);
void dfz__ptab_clear(struct dfz__ptab *t);
/** dfz__ptab_find() - index of @key, or -1. */
int32_t dfz__ptab_find(const struct dfz__ptab *t, const void *key);
/** dfz__ptab_add() - index of @key, inserted when new; -1 when full. */
int32_t dfz__ptab_add(struct dfz__ptab *t, const void *key, bool *added);

/* ------------------------------------------------- pending transfers */

#define DFZ__MCHAN_TIDS 16            /* mchan TIDs 0..15, as documented */

/*
 * dfz__idma_covers() - the last txid a successful idma wait(@t) proves
 * complete (@t >= 0; wait_all, -1, covers every txid). The documented
 * idma quirk: the completed id lags by one, and txids complete in order,
 * so a wait on t >= 1 returns only once t + 1 has completed as well; this
 * is how the dummy transfer after each copy gets covered. Set the lag to
 * 0 for an engine without the quirk.
 */
#define DFZ__IDMA_LAG 1
static inline int64_t dfz__idma_covers(int64_t t)
{
	return t >= 1 ? t + DFZ__IDMA_LAG : t;
}

/*
 * struct dfz__pend_x - one transfer pending from its ISSUE until a wait
 * retires it. @live is the owner's to set: an entry just added is not yet
 * live, so the owner can judge it against the others first.
 */
struct dfz__pend_x {
	const void *handle;           /* ram: the request; else as emitted */
	struct dfz_desc desc;         /* as issued */
	uint64_t step;                /* of the ISSUE */
	int64_t seq;                  /* issue sequence number */
	int64_t id;                   /* mchan TID, idma txid */
	uint8_t engine;               /* enum dfz_engine_id */
	bool live;
	uint16_t next;                /* next entry of the same chain */
};

/*
 * struct dfz__pend - the transfers a wait has not yet retired, keyed the
 * way each engine's waits name them: a ram request by its address (a wait
 * retires what was issued on it), an mchan TID by number (a wait retires
 * every push under it), idma transfers by txid (wait(t) retires every
 * txid up to dfz__idma_covers(t), wait_all all of them). Ids 1..max index
 * @x; 0 is "untracked" (the table is full, or the key is out of range).
 * Sized once.
 */
struct dfz__pend {
	struct dfz__pend_x *x;        /* ids 1..max */
	uint16_t *freeid;             /* stack of retired ids */
	uint32_t nfree;
	uint32_t nextid;              /* ids below it were used this run */
	uint32_t max;
	struct dfz__ptab tab;         /* ram request -> chain */
	uint16_t *head;               /* chains: ram requests, TIDs, idma */
	uint32_t nreq;                /* ram chains */
};

/** dfz__pend_init() - room for @max pending transfers (<= 65535) and
 * @requests distinct ram requests. Return 0 or DFZ_ENOMEM (then fini). */
int dfz__pend_init(struct dfz__pend *p, uint32_t max, uint32_t requests);
void dfz__pend_fini(struct dfz__pend *p);
/** dfz__pend_clear() - forget the run (the owner undid its own marks). */
void dfz__pend_clear(struct dfz__pend *p);
/** dfz__pend_add() - track ISSUE @ev as transfer #@seq; its id (not yet
 * live), or 0 when untracked. */
uint16_t dfz__pend_add(struct dfz__pend *p, const struct dfz_event *ev,
		       int64_t seq);
/** dfz__pend_first() - first entry of the chain @ev names (a ram
 * request's, a TID's, or every idma transfer's), or 0. */
uint16_t dfz__pend_first(const struct dfz__pend *p,
			 const struct dfz_event *ev);
/**
 * dfz__pend_take() - retire what the WAITED event @ev retires (nothing when
 * the wait failed: aux != 0). Return: the first retired id, the others
 * linked through next; they are no longer live and their entries stay
 * readable until the next dfz__pend_add().
 */
uint16_t dfz__pend_take(struct dfz__pend *p, const struct dfz_event *ev);

/* ------------------------------------------------------------ footprints */

/** dfz__div() - @n / @d (@d > 0): a shift for a power of two, as most
 * line lengths and strides of tiles are (a division costs tens of
 * cycles, at every line an oracle places). */
static inline uint64_t dfz__div(uint64_t n, uint64_t d)
{
	if ((d & (d - 1)) == 0)
		return n >> __builtin_ctzll(d);
	return n / d;
}

/*
 * struct dfz__fp - the bytes one side of a descriptor covers, as disjoint
 * ranges in increasing line order: lines of @length bytes every @stride
 * (the last partial), @size bytes in all. A 1-D side, a contiguous side
 * and lines that overlap (stride < length) come out as one range, marked
 * by @stride 0. Inline: the oracles walk footprints on every transfer.
 */
struct dfz__fp {
	uint8_t level;
	uint64_t base;
	uint64_t stride;
	uint64_t length;
	uint64_t size;
	uint64_t done;                /* bytes produced so far */
	uint64_t line;
};

/** dfz__fp_init() - the external (@ext) or local side of @d. */
static inline void dfz__fp_init(struct dfz__fp *fp, const struct dfz_desc *d,
				bool ext)
{
	uint64_t nlines, last, end;

	fp->level = ext ? d->ext_level : d->loc_level;
	fp->base = ext ? d->ext_off : d->loc_off;
	fp->stride = ext ? d->ext_stride : d->loc_stride;
	fp->length = d->length;
	fp->size = d->size;
	fp->done = 0;
	fp->line = 0;
	if (d->is_2d && d->length == 0) {
		fp->size = 0;             /* no line can hold a byte */
	} else if (!d->is_2d || fp->length >= fp->size ||
		   fp->stride == fp->length) {
		fp->length = fp->size;    /* one contiguous range */
		fp->stride = 0;
	} else if (fp->stride < fp->length) {
		/* Overlapping lines: their union is one range from base. */
		nlines = (fp->size + fp->length - 1) / fp->length;
		last = fp->size - (nlines - 1) * fp->length;
		end = (nlines - 1) * fp->stride + last;
		if (nlines > 1 && (nlines - 2) * fp->stride + fp->length > end)
			end = (nlines - 2) * fp->stride + fp->length;
		fp->size = fp->length = end;
		fp->stride = 0;
	}
}

/** dfz__fp_end() - one past the last byte of @fp, from its base: the last
 * line ends last. */
static inline uint64_t dfz__fp_end(const struct dfz__fp *fp)
{
	uint64_t lines;

	if (!fp->stride)
		return fp->base + fp->size;
	lines = dfz__div(fp->size + fp->length - 1, fp->length);
	return fp->base + (lines - 1) * fp->stride +
	       (fp->size - (lines - 1) * fp->length);
}

/** dfz__fp_next() - next range [*off, *off + *len); false when done. */
static inline bool dfz__fp_next(struct dfz__fp *fp, uint64_t *off,
				uint64_t *len)
{
	uint64_t n;

	if (fp->done >= fp->size)
		return false;
	n = fp->size - fp->done;
	if (n > fp->length)
		n = fp->length;
	*off = fp->base + fp->line * fp->stride;
	*len = n;
	fp->done += n;
	fp->line++;
	return true;
}

/** dfz__fp_has() - true when span @s lies inside one range of @fp. */
static inline bool dfz__fp_has(const struct dfz__fp *fp,
			       const struct dfz_span *s)
{
	uint64_t rel, line = 0, col, linelen;

	if (s->level != fp->level || fp->size == 0 || s->off < fp->base)
		return false;
	rel = s->off - fp->base;
	if (fp->stride) {                 /* lines: find the one at @rel */
		line = dfz__div(rel, fp->stride);
		if (line * fp->length >= fp->size)
			return false;
	}
	col = rel - line * fp->stride;
	linelen = fp->size - line * fp->length;
	if (linelen > fp->length)
		linelen = fp->length;
	return col + s->len <= linelen;
}

/** dfz__fp_contains() - dfz__fp_has() of @d's @ext side. */
static inline bool dfz__fp_contains(const struct dfz_desc *d, bool ext,
				    const struct dfz_span *s)
{
	struct dfz__fp fp;

	dfz__fp_init(&fp, d, ext);
	return dfz__fp_has(&fp, s);
}

#endif /* DMAFUZZ_ORACLE_INT_H */
