/* SPDX-License-Identifier: MIT */
/*
 * Two walks, apart from what their steps do: the transfer adapter's
 * (DESIGN 3.6: an N-d transfer as the engine's kernel calls on a handle's
 * requests) and the tiled program's (DESIGN 3.7). Each calls a table of
 * operations; the runtime performs them, a printer writes them as C.
 *
 * The walk of a tiled program, apart from what its steps do:
 * per node the row-major tile grid of each hop (partial edge tiles), the
 * local buffers and handle scopes allocated and released in their order,
 * the handle each waiting strategy picks for each transfer, single and
 * double buffering (with the double-buffering order), the inner hop over
 * each hop-0 tile, and the four bug switches that change the generated
 * code (early-compute, db-war, edge-tile, req-escape). The walk calls one
 * table of operations; dfz_prog_run() performs them on the runtime,
 * `dmafuzz emit-c` prints them as C, so what a reproducer prints is what
 * the executor performs.
 *
 * Included by dmafuzz/runtime.h; not for direct inclusion.
 */
#ifndef DMAFUZZ_RUNTIME_WALK_H
#define DMAFUZZ_RUNTIME_WALK_H

/* Which tensor of a node a transfer moves. */
enum dfz_walk_role { DFZ_WALK_IN, DFZ_WALK_AUX, DFZ_WALK_OUT, DFZ_WALK_ROLES };

/*
 * struct dfz_walk_ref - a handle the walk names: index @idx of scope
 * @scope of a hop (0: the node's handles, 1: the loop iteration's, which
 * req-escape declares in the loop body). @set is false for "no transfer".
 */
struct dfz_walk_ref {
	bool set;
	uint8_t scope;
	uint8_t idx;
};

/* One tile: origin and extent (elements) per logical dim. */
struct dfz_walk_tile {
	uint32_t o[DFZ_MAX_RANK];
	uint32_t e[DFZ_MAX_RANK];
};

/*
 * struct dfz_walk_xfer - one tile transfer of hop @hop: tile @tile of
 * tensor @role against local buffer slot @slot, carried by handle @ref.
 * @x holds everything but where the two sides live: rank, elem, ext2loc,
 * shape and both strides; the external side starts @ext_add bytes past
 * the base of the hop's tensor @role, the local side at the slot's buffer.
 */
struct dfz_walk_xfer {
	unsigned hop;
	enum dfz_walk_role role;
	unsigned slot;
	const struct dfz_walk_tile *tile;
	struct dfz_walk_ref ref;
	uint64_t ext_add;
	struct dfz_xfer x;
};

/* What a note marks: a printer writes comments at them; DFZ_NOTE_NODE
 * is also where a back end takes up the node's tensors (the runtime's
 * does, tile.c). */
enum dfz_walk_note {
	DFZ_NOTE_NODE,          /* node @node starts */
	DFZ_NOTE_EMPTY,         /* its shape is empty: nothing runs */
	DFZ_NOTE_SETUP_HOP,     /* hop @hop's buffers and handles follow */
	DFZ_NOTE_GRID,          /* hop @hop's grid of @ntiles tiles starts */
	DFZ_NOTE_TILE,          /* tile @i of @ntiles (@tile) starts */
	DFZ_NOTE_PREFETCH,      /* the loads of tile @i into @slot follow */
	DFZ_NOTE_PREFETCH_WAR,  /* the same, db-war: into the worked slot */
	DFZ_NOTE_EARLY,         /* early-compute: loads waited after work */
	DFZ_NOTE_EAGER,         /* eager order: only tile i-2's store */
	DFZ_NOTE_DRAIN,         /* the last two stores, older first */
	DFZ_NOTE_ESCAPE,        /* req-escape: the iteration's handles */
	DFZ_NOTE_RELEASE,       /* node @node's release follows */
	DFZ_NOTE_NODE_END,      /* node @node ended and another follows */
};

/* Where a note is: the fields its enum dfz_walk_note names. */
struct dfz_walk_at {
	unsigned node;
	unsigned hop;
	unsigned slot;
	uint64_t i;
	uint64_t ntiles;
	const struct dfz_walk_tile *tile;
};

/*
 * struct dfz_walk_ops - the operations of a walk, on context @ctx. Each
 * returning int returns 0 or a negative DFZ_E* code, which ends the walk
 * (releases still run); a back end that only records returns 0.
 * @alloc_buf: buffer @slot of @role of hop @hop, @bytes (may exceed
 *	32 bits: the back end refuses what it cannot hold).
 * @free_buf: the same buffer, allocated or not.
 * @scope_init: the @n handles of scope @scope of hop @hop.
 * @scope_fini: release them (waits nothing).
 * @issue: one tile transfer.
 * @wait: wait handle @ref of hop @hop (everything it carries).
 * @compute: the kernel over the @n elements of slot @slot of the
 *	innermost hop @hop.
 * @enter: the next hop's tensors are hop @hop's buffers of slot @slot,
 *	holding tile @tile (compact row-major); its tile loop follows.
 * @leave: that tile loop ended.
 * @note: marks a place of the walk (enum dfz_walk_note); may be NULL
 *	for a back end that keeps no per-node state.
 */
struct dfz_walk_ops {
	int (*alloc_buf)(void *ctx, unsigned hop, enum dfz_walk_role role,
			 unsigned slot, uint64_t bytes);
	void (*free_buf)(void *ctx, unsigned hop, enum dfz_walk_role role,
			 unsigned slot);
	int (*scope_init)(void *ctx, unsigned hop, unsigned scope, unsigned n);
	void (*scope_fini)(void *ctx, unsigned hop, unsigned scope,
			   unsigned n);
	int (*issue)(void *ctx, const struct dfz_walk_xfer *x);
	int (*wait)(void *ctx, unsigned hop, struct dfz_walk_ref ref);
	int (*compute)(void *ctx, unsigned hop, unsigned slot, uint64_t n);
	int (*enter)(void *ctx, unsigned hop, unsigned slot,
		     const struct dfz_walk_tile *tile);
	void (*leave)(void *ctx, unsigned hop);
	void (*note)(void *ctx, enum dfz_walk_note what,
		     const struct dfz_walk_at *at);
};

/**
 * dfz_prog_is_valid() - whether dfz_prog_run() accepts @p: rank, elem,
 * counts, each hop's buffering, strategy and local level (L2 or L1), each
 * node's kernel and non-zero tiles. @p: borrowed; NULL is not valid.
 */
bool dfz_prog_is_valid(const struct dfz_prog *p);

/**
 * dfz_prog_walk() - walk program @p with the bug switches @bugs (bits of
 * enum dfz_bug; those of the tiling executor apply), calling @ops on
 * @ctx for every step dfz_prog_run() performs, in its order. Node @k's
 * hop-0 tensors are p->node[k].in/aux/out (only their strides are read).
 * Return: 0, DFZ_EINVAL for an invalid @p (nothing called), or the first
 * negative code an operation returned.
 */
int dfz_prog_walk(const struct dfz_prog *p, uint32_t bugs,
		  const struct dfz_walk_ops *ops, void *ctx);

/* ----------------------------------------------------- the adapter's walk */

/* What the adapter's walk needs to know of an engine. */
struct dfz_engine_caps {
	uint8_t kernel_ranks;     /* bit r set: the engine has an r-D kernel */
	uint32_t max_size;        /* bytes one command moves; 0: no limit */
	bool can_share;           /* a request may carry several transfers */
	bool lagging_id;          /* its completed id lags: a dummy follows */
};

/** dfz_engine_caps_of() - the caps of engine @engine (enum
 * dfz_engine_id); false for an unknown engine or a NULL @caps. */
bool dfz_engine_caps_of(unsigned engine, struct dfz_engine_caps *caps);

/** dfz_policy_requests() - the requests of one handle under policy
 * @policy (enum dfz_policy): @pool_k for the pool, else 1. */
unsigned dfz_policy_requests(unsigned policy, unsigned pool_k);

/*
 * struct dfz_xfer_ops - the operations of the adapter's walk on context
 * @ctx; each returns 0 or a negative DFZ_E* code, which ends the walk.
 * @issue: kernel call @d on request @q of handle @h.
 * @dummy: the 1-byte transfer on no request that follows a copy on an
 *	engine whose completed id lags (between @h's scratch bytes).
 * @wait: wait request @q of @h.
 */
struct dfz_xfer_ops {
	int (*issue)(void *ctx, struct dfz_handle *h, unsigned q,
		     const struct dfz_desc *d);
	int (*dummy)(void *ctx, struct dfz_handle *h);
	int (*wait)(void *ctx, struct dfz_handle *h, unsigned q);
};

/* struct dfz_xfer_walk - one adapter's walk: its engine's caps, its
 * policy (enum dfz_policy), the bug switches, its operations. */
struct dfz_xfer_walk {
	struct dfz_engine_caps caps;
	uint8_t policy;
	uint32_t bugs;
	const struct dfz_xfer_ops *ops;
	void *ctx;
};

/**
 * dfz_xfer_walk() - transfer @x on handle @h as dfz_xfer_issue() makes it:
 * normalised, cut into the engine's kernel calls (split by the size
 * guard), each on the request its policy picks after the waits the policy
 * and the reuse guard make; @h's record of requests in flight (nreq, next,
 * in_flight; req[] is the back end's) is kept as the calls are made.
 * Return: 0, DFZ_EINVAL, DFZ_ERANGE, or the first code an op returned.
 */
int dfz_xfer_walk(const struct dfz_xfer_walk *w, const struct dfz_xfer *x,
		  struct dfz_handle *h);

/** dfz_handle_walk_wait() - dfz_handle_wait()'s walk: each request of @h
 * in flight waited, in order. Return: 0 or the first error. */
int dfz_handle_walk_wait(const struct dfz_xfer_walk *w, struct dfz_handle *h);

#endif /* DMAFUZZ_RUNTIME_WALK_H */
