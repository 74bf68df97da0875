/* SPDX-License-Identifier: MIT */
/*
 * Private interface of the tiling executor: the state of one node's run
 * over one or two hops, shared by the tile loops (tile.c), the local
 * buffers, handle scopes and sizing (tile_mem.c) and the compute kernels
 * (tile_compute.c).
 */
#ifndef DMAFUZZ_TILE_INT_H
#define DMAFUZZ_TILE_INT_H

#include "runtime_int.h"

/* The handles of one scope: a whole node, or one loop iteration. */
struct dfz__hset {
	struct dfz_handle h[DFZ_TILE_RING];
	unsigned n;                 /* initialised handles */
};

struct dfz__node_run;

/*
 * struct dfz__hop_run - what one hop of a node's run holds on the runtime
 * (the walk, tile_walk.c, holds the grid and which handle carries what).
 * Buffers and the node-scope handles live for the whole node; the
 * tensors are the node's for hop 0 and, for hop 1, the hop-0 tile being
 * worked on, set anew for each of them.
 */
struct dfz__hop_run {
	struct dfz__node_run *r;
	struct dfz_adapter *ad;
	const struct dfz_hop *hop;
	unsigned h;                     /* index of the hop */
	uint32_t tile_bytes;            /* bytes of one local buffer */
	void *buf[DFZ_WALK_ROLES][2];   /* per role, per slot */
	struct dfz__hset set[2];        /* node scope; iteration (req-escape) */
	struct dfz_tensor ts[DFZ_WALK_ROLES]; /* where the tensors live */
};

/* struct dfz__node_run - the run of one node over every hop. */
struct dfz__node_run {
	struct dfz_rt *rt;
	const struct dfz_prog *p;
	const struct dfz_node *node;
	struct dfz__hop_run hop[DFZ_MAX_HOPS];
};

/* tile_mem.c */

/**
 * dfz__tile_alloc_buf() - buffer @slot of @role of hop @q: @bytes in the
 * hop's local level (refused beyond 32 bits).
 */
int dfz__tile_alloc_buf(struct dfz__hop_run *q, enum dfz_walk_role role,
			unsigned slot, uint64_t bytes);
/** dfz__tile_free_buf() - release that buffer if it is allocated. */
void dfz__tile_free_buf(struct dfz__hop_run *q, enum dfz_walk_role role,
			unsigned slot);
/** dfz__tile_init_set() - initialise the handles of scope @s of hop @q. */
int dfz__tile_init_set(struct dfz__hop_run *q, struct dfz__hset *s);
/** dfz__tile_fini_set() - release scope @s of hop @q (waits nothing). */
void dfz__tile_fini_set(struct dfz__hop_run *q, struct dfz__hset *s);

#endif /* DMAFUZZ_TILE_INT_H */
