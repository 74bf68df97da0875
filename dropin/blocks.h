/* SPDX-License-Identifier: MIT */
/*
 * The blocks of a run (blocks.c): every allocation and free the runtime
 * reports, with the user's line that was being served (and, outside fuzz
 * executions, its call stack), so that a verdict about a block names the
 * lines that allocated and freed it; the SDK allocators' misuse (a free
 * with the wrong size, a double free, an interior pointer, a static); and
 * the blocks still allocated at the end of the body (--leaks).
 */
#ifndef DMAFUZZ_DROPIN_BLOCKS_H
#define DMAFUZZ_DROPIN_BLOCKS_H

#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>

#include "dmafuzz/dropin.h"
#include "stack.h"

#define DFZ__DROPIN_BLOCKS 4096        /* allocations remembered per run */
#define DFZ__DROPIN_BLOCK_STACKS 1024  /* of which with call stacks */

/* The block a verdict is about (known false: none). */
struct dfz__block_note {
	bool known;
	bool freed;
	uint8_t level;                   /* enum dfz_level */
	uint32_t off;                    /* its first usable byte, an offset
					  * into the level */
	uint64_t addr;                   /* as the user had it: the pointer
					  * (L1/L2), the 32-bit address (L3) */
	uint32_t size;                   /* usable bytes */
	struct dfz_site alloc;           /* the lines that allocated and
					  * freed it (file NULL: unknown) */
	struct dfz_site free;
	struct dfz__stack alloc_stack;   /* their call stacks (n 0: none) */
	struct dfz__stack free_stack;
};

/* A free of the SDK, as its call passed it. */
struct dfz__free_call {
	const char *call;                /* "pi_l2_free", "cl_ram_free" */
	uint8_t level;
	uint32_t off;                    /* the freed address, an offset into
					  * the level */
	uint64_t addr;                   /* as the user passed it */
	uint32_t size;                   /* the size it passed */
	bool sized;                      /* it passes one */
};

struct dfz__dropin;
struct dfz_event;

/** dfz__blocks_reset() - a run begins: no block known. */
void dfz__blocks_reset(struct dfz__dropin *d);

/** dfz__blocks_event() - an event of the run: ALLOC and FREE are
 * recorded at the call being served (others are ignored: the run's
 * observer hands it DFZ__BLOCKS_EVENTS only). */
void dfz__blocks_event(struct dfz__dropin *d, const struct dfz_event *ev);
#define DFZ__BLOCKS_EVENTS (1u << DFZ_EV_ALLOC | 1u << DFZ_EV_FREE)

/** dfz__blocks_user() - the block of @level at @off that an allocator
 * just handed to the user: its to free (the leak check counts it). */
void dfz__blocks_user(struct dfz__dropin *d, unsigned level, uint32_t off);

/**
 * dfz__blocks_free() - judge the free @c before it is done: a size that
 * differs from the allocation's, the free of an interior pointer, of a
 * static or a stack, or of a block freed already is a finding
 * (dev.misuse) at the call's line naming the block.
 * Return: whether the free may go ahead (a live block starting at the
 * address, whatever the size; or an address no block explains, which the
 * caller's own free refuses).
 */
bool dfz__blocks_free(struct dfz__dropin *d, const struct dfz__free_call *c);

/** dfz__blocks_leaks() - the body ended: with the leak check on
 * (dfz_dropin_leaks(), else $DFZ_LEAKS) and no finding yet, the first
 * block the user still holds is mem.leak at the line that allocated it. */
void dfz__blocks_leaks(struct dfz__dropin *d);

/** dfz__blocks_name() - the run's first finding arrived: the block it is
 * about into d->res.block (mem.oob, mem.use-after-free by ev.block,
 * mem.redzone by ev.off; the layer's own findings by the block it named). */
void dfz__blocks_name(struct dfz__dropin *d);

/** dfz__blocks_at() - the block (live or freed, its redzones included)
 * holding the L1/L2 address @p, the latest one recorded. Return: whether
 * one is known; @out filled when it is. */
bool dfz__blocks_at(const struct dfz__dropin *d, const void *p,
		    struct dfz__block_note *out);

/** dfz__print_block() - the BLOCK, ALLOCATED AT and FREED AT lines of @b
 * (print.c; nothing when it is not known). */
void dfz__print_block(FILE *f, const struct dfz__block_note *b);

#endif /* DMAFUZZ_DROPIN_BLOCKS_H */
