/* SPDX-License-Identifier: MIT */
/*
 * Private interface of the drop-in printer: the program printer
 * (emit_dropin.c, the tile walk's back end) and the SDK calls of each
 * engine (emit_dropin_calls.c, the adapter walk's back ends).
 */
#ifndef DMAFUZZ_EMIT_DROPIN_INT_H
#define DMAFUZZ_EMIT_DROPIN_INT_H

#include "emit_c_int.h"

/*
 * The printer's state. Buffers are buf[hop][role][slot]; the requests of
 * hop H are reqH[scope][handle][request], typed by the hop's engine.
 * @f is NULL for a dry run, which only finds whether every call can be
 * written (@why says why not).
 */
struct dfz__dropin_printer {
	FILE *f;
	const struct dfz_plan_xfer *x;
	struct dfz_prog p;
	unsigned node;                      /* the node printed */
	unsigned outer_slot;                /* hop 0's slot hop 1 works in */
	uint64_t tile_bytes[DFZ_MAX_HOPS];
	uint64_t live[DFZ_NLEVELS];         /* bytes the buffers take now */
	uint64_t peak[DFZ_NLEVELS];         /* and at most */
	uint32_t memory[DFZ_NLEVELS];       /* sizes asked for, 0: default */
	struct dfz_xfer_walk aw[DFZ_MAX_HOPS]; /* the adapters' walks */
	struct dfz_handle hs[DFZ_MAX_HOPS][2][DFZ_TILE_RING];
	const struct dfz_walk_xfer *cur;    /* the tile transfer printed */
	struct dfz_walk_ref ref;            /* the handle it goes on */
	unsigned hop;
	int last_tid;                       /* mchan: request of the core's
					     * latest TID, -1: none */
	char why[160];
};

/* The L3 or L2 tensor that @role of node @k is: t0 the input, then per
 * node its aux (add) and its output (node k + 1 reads node k's output). */
unsigned dfz__dropin_tensor(const struct dfz_plan_xfer *x, unsigned k,
			    enum dfz_walk_role role);

/* The adapter's calls of engine @engine (enum dfz_engine_id): its walk's
 * operations (context: the printer), or NULL for an engine without SDK
 * names here. */
const struct dfz_xfer_ops *dfz__dropin_calls(unsigned engine);

/* The C type of one request of @engine ("pi_cl_ram_req_t", ...). */
const char *dfz__dropin_req_type(unsigned engine);

/**
 * dfz__emit_roll() - @text (@len bytes of whole lines, one call each, as
 * the tile walk prints them) to @f with every run of blocks that repeat,
 * their numbers affine in the repetition (or alternating modulo 2 or the
 * handle ring), rolled into for loops over indices i0, i1, ... (nested);
 * as it came when the loops would not expand back to exactly @text
 * (emit_roll.c). Return: 0; DFZ_EINVAL (@text does not end a line);
 * DFZ_ENOMEM (nothing written).
 */
int dfz__emit_roll(FILE *f, const char *text, size_t len);

/**
 * dfz__emit_dropin_as() - dfz__emit_dropin(), its program's calls rolled
 * into loops (@rolled) or written one by one.
 */
int dfz__emit_dropin_as(FILE *f, const struct dfz_plan_xfer *x,
			uint32_t bugs, bool rolled);

#endif /* DMAFUZZ_EMIT_DROPIN_INT_H */
