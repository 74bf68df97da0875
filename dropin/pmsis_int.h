/* SPDX-License-Identifier: MIT */
/*
 * Private interfaces between the drop-in's PMSIS files (pmsis_task.c,
 * pmsis_cluster.c, pmsis_fc_ram.c) and the own-main runner
 * (dropin/sdk/main.c): the pending tasks, the exits pmsis_exit may take,
 * and the per-run reset.
 */
#ifndef DMAFUZZ_DROPIN_PMSIS_INT_H
#define DMAFUZZ_DROPIN_PMSIS_INT_H

#include <setjmp.h>

#include "dropin_int.h"
#include "dmafuzz/dropin/pmsis.h"

/* Where pmsis_exit goes: the innermost pmsis_kickoff or runner. */
struct dfz__pmsis_exit {
	jmp_buf env;
	int status;                      /* pmsis_exit's argument */
	struct dfz__pmsis_exit *next;
	void *stack;                     /* the stack it is on (ASan) */
	size_t stack_size;
};

/** dfz__pmsis_exit_push() - @e (on the caller's stack, set with setjmp()
 * by the caller after this) is where pmsis_exit goes until popped. */
void dfz__pmsis_exit_push(struct dfz__pmsis_exit *e);
/** dfz__pmsis_exit_pop() - @e, the innermost, is no longer an exit. */
void dfz__pmsis_exit_pop(struct dfz__pmsis_exit *e);
/** dfz__pmsis_landed() - control came back to an exit by longjmp, from a
 * core's stack when @from_core: the fork is abandoned, ASan told. */
void dfz__pmsis_landed(struct dfz__dropin *d, bool from_core);

/** dfz__pmsis_reset() - a program starts: no task pending, the counters
 * and the cluster's lock and team as at boot. */
void dfz__pmsis_reset(void);
/** dfz__pmsis_cluster_reset() - the cluster's part of the reset. */
void dfz__pmsis_cluster_reset(void);

/**
 * dfz__pmsis_task_start() - @t tracks work that ends later: a RAM copy
 * on its own request (@copy) or a pushed task. Return: false (a finding
 * recorded) when too many are pending.
 */
bool dfz__pmsis_task_start(struct dfz__dropin *d, pi_task_t *t, bool copy);
/** dfz__pmsis_task_push() - @task ended: it runs at the next yield. */
void dfz__pmsis_task_push(struct dfz__dropin *d, pi_task_t *task);

#endif /* DMAFUZZ_DROPIN_PMSIS_INT_H */
