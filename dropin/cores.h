/* SPDX-License-Identifier: MIT */
/*
 * The cluster's cores as deterministic cooperative contexts (dropin/
 * cores.c): a fork runs a function on n cores, each on its own stack;
 * control passes only at switch points, the next core chosen by a pick
 * function (drawn from the schedule). Single-threaded.
 */
#ifndef DMAFUZZ_DROPIN_CORES_H
#define DMAFUZZ_DROPIN_CORES_H

#include <stdbool.h>
#include <stddef.h>

#include "dmafuzz/runtime.h"

struct dfz__cores;

/* The index, in [0, @nready), of the ready core that runs next (the ready
 * cores in core-id order). */
typedef unsigned (*dfz__cores_pick_fn)(void *ctx, unsigned nready);

/**
 * dfz__cores_create() - room for forks of up to @max_cores cores (1..64),
 * each with a stack of @stack_bytes (0: 256 KiB) and a guard page.
 * @out: caller owns; release with dfz__cores_destroy().
 * Return: 0, DFZ_EINVAL or DFZ_ENOMEM.
 */
int dfz__cores_create(unsigned max_cores, size_t stack_bytes,
		      struct dfz__cores **out);

/**
 * dfz__cores_create_on() - as dfz__cores_create(), the stacks in @rt's
 * memories (struct dfz_rt_layout): core i runs on stack i of L1 (its
 * TCDM), the fabric controller (dfz__cores_fc()) on stack 0 of L2, or on
 * its caller's stack when L2 has none. @rt: borrowed until destroy.
 * Return: 0, DFZ_EINVAL when L1 has fewer than @max_cores stacks, or
 * DFZ_ENOMEM.
 */
int dfz__cores_create_on(struct dfz_rt *rt, unsigned max_cores,
			 struct dfz__cores **out);

/**
 * dfz__cores_fc() - run @fn(@arg) on the fabric controller's stack (in
 * L2, as on the chip) and return when it returns. A call from that stack
 * runs @fn at once. A longjmp out of @fn leaves the context; the next
 * call makes it anew (dfz__cores_abandon() does it at once).
 * Return: 0; DFZ_EINVAL inside a fork; DFZ_ENOMEM.
 */
int dfz__cores_fc(struct dfz__cores *c, void (*fn)(void *), void *arg);

/** dfz__cores_destroy() - release @c; accepts NULL; refused in a fork. */
void dfz__cores_destroy(struct dfz__cores *c);

/**
 * dfz__cores_fork() - run @fn(@arg) on @n cores (ids 0..n-1) until every
 * one returned. Core 0 starts; at each switch point @pick (NULL: the
 * lowest ready id) chooses among the ready cores.
 * Return: 0; DFZ_EINVAL for n 0 or above the maximum, a NULL @fn, or a
 * fork from inside a fork; DFZ_EHANG when cores wait at a barrier that
 * can never complete (another core returned): they are abandoned.
 */
int dfz__cores_fork(struct dfz__cores *c, unsigned n, void (*fn)(void *),
		    void *arg, dfz__cores_pick_fn pick, void *pick_ctx);

/*
 * struct dfz__cores_view - what every SDK call asks of the cores, first in
 * struct dfz__cores (cores.c), so that the accessors below inline:
 * whether a fork runs, the running core, the fork's cores.
 */
struct dfz__cores_view {
	bool in_fork;
	unsigned cur;
	unsigned n;
};

/** dfz__cores_id() - the running core's id; 0 outside a fork. */
static inline unsigned dfz__cores_id(const struct dfz__cores *c)
{
	const struct dfz__cores_view *v = (const struct dfz__cores_view *)c;

	return v && v->in_fork ? v->cur : 0;
}

/** dfz__cores_count() - the cores of the running fork; 1 outside one. */
static inline unsigned dfz__cores_count(const struct dfz__cores *c)
{
	const struct dfz__cores_view *v = (const struct dfz__cores_view *)c;

	return v && v->in_fork ? v->n : 1;
}

/** dfz__cores_in_fork() - true while a fork runs. */
static inline bool dfz__cores_in_fork(const struct dfz__cores *c)
{
	const struct dfz__cores_view *v = (const struct dfz__cores_view *)c;

	return v && v->in_fork;
}

/** dfz__cores_yield() - a switch point (a DMA call): the pick function
 * may pass control to another ready core. No-op outside a fork. */
void dfz__cores_yield(struct dfz__cores *c);

/**
 * dfz__cores_stall() - the running core cannot go on until another core
 * acts (frees what it waits for): control passes to another ready core,
 * the pick function choosing among the others.
 * Return: true when one ran (the caller looks again), false when no other
 * core is ready (outside a fork too): the stall never ends.
 */
bool dfz__cores_stall(struct dfz__cores *c);

/**
 * dfz__cores_barrier() - the team barrier: returns once every core of the
 * fork arrived. Return: 0 (at once outside a fork).
 */
int dfz__cores_barrier(struct dfz__cores *c);

/**
 * dfz__cores_abandon() - control left a fork or the fabric controller
 * without returning through it (a longjmp out of a core or out of the
 * body: a signal, pmsis_exit): every core of the fork is dropped, the
 * fabric controller's context too, their stacks clean again for ASan, and
 * no fork runs. The caller is back on the stack dfz__cores_fc() (or the
 * fork) was called from. No-op when nothing runs.
 */
void dfz__cores_abandon(struct dfz__cores *c);

#endif /* DMAFUZZ_DROPIN_CORES_H */
