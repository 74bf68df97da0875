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
 * struct dfz__hop_run - one hop of a node's run. Buffers and the node-scope
 * handles live for the whole node; the region (shape and tensors) is the
 * node's tensors for hop 0 and, for hop 1, the hop-0 tile being worked on,
 * set anew for each of them.
 */
struct dfz__hop_run {
	struct dfz__node_run *r;
	struct dfz_adapter *ad;
	const struct dfz_hop *hop;
	unsigned h;                     /* index of the hop */
	uint32_t tile[DFZ_MAX_RANK];    /* tile extents of this hop */
	uint32_t tile_bytes;            /* bytes of one local buffer */
	void *in_buf[2];
	void *aux_buf[2];
	void *out_buf[2];
	struct dfz__hset set[2];        /* node scope; iteration (req-escape) */
	struct dfz__hset *cur;          /* the scope new transfers use */
	unsigned fresh;                 /* ring cursor of DFZ_STRAT_FRESH */
	/* Per buffer slot, the handle that carried each transfer, until it
	 * is waited. */
	struct dfz_handle *load_in[2];
	struct dfz_handle *load_aux[2];
	struct dfz_handle *store[2];
	/* The region this hop tiles. */
	uint32_t shape[DFZ_MAX_RANK];
	struct dfz_tensor ts[3];        /* in, aux, out (enum role order) */
	uint32_t nt[DFZ_MAX_RANK];      /* tiles per dim */
	uint64_t ntiles;
};

/* struct dfz__node_run - the run of one node over every hop. */
struct dfz__node_run {
	struct dfz_rt *rt;
	const struct dfz_prog *p;
	const struct dfz_node *node;
	uint32_t bugs;
	struct dfz__hop_run hop[DFZ_MAX_HOPS];
};

/* tile_mem.c */

/**
 * dfz__tile_setup() - allocate every hop's buffers and node-scope handles
 * (hop 0 first; buffers before handles). On error, what was allocated
 * stays recorded for dfz__tile_release().
 */
int dfz__tile_setup(struct dfz__node_run *r);
/** dfz__tile_release() - release what dfz__tile_setup() allocated. */
void dfz__tile_release(struct dfz__node_run *r);
/** dfz__tile_init_set() - initialise the handles of scope @s of hop @q. */
int dfz__tile_init_set(struct dfz__hop_run *q, struct dfz__hset *s);
/** dfz__tile_fini_set() - release scope @s of hop @q (waits nothing). */
void dfz__tile_fini_set(struct dfz__hop_run *q, struct dfz__hset *s);

#endif /* DMAFUZZ_TILE_INT_H */
