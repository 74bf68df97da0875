// SPDX-License-Identifier: MIT
/*
 * The PMSIS cluster names on the drop-in's cores: the core queries, the
 * team fork and barrier, and a task sent to the cluster.
 */

#include "dropin_int.h"
#include "dmafuzz/dropin/pmsis.h"

int dfz_dropin_core_id(void)
{
	struct dfz__dropin *d = dfz__dropin_get();

	return (int)dfz__cores_id(d->cores);
}

int dfz_dropin_nb_cores(void)
{
	return DFZ_DROPIN_CORES;
}

void dfz_dropin_team_fork(struct dfz_site s, int nb_cores,
			  void (*entry)(void *), void *arg)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);
	unsigned n;
	int rc;

	if (!d)
		return;
	/* pulpos: a team of 0 cores keeps the previous team's size (all
	 * cores before any fork). */
	if (nb_cores > 0)
		d->team = (unsigned)nb_cores;
	n = d->team;
	rc = n > DFZ_DROPIN_CORES ? DFZ_EINVAL :
				    dfz__dropin_fork(d, n, entry, arg);
	d->cur = s;
	if (rc == DFZ_EHANG)
		dfz__dropin_fail(d, DFZ_CLASS_DMA_HANG,
				 "pi_cl_team_fork(%u): a team barrier can never "
				 "complete (a core returned while the others "
				 "wait at it)", n);
	else if (rc < 0)
		dfz__dropin_fail(d, DFZ_CLASS_RT_ERRCODE,
				 "pi_cl_team_fork(%d) cannot run: %s (expected "
				 "1..%d cores, not from inside a fork)",
				 nb_cores, dfz_strerror(rc), DFZ_DROPIN_CORES);
}

void dfz_dropin_team_barrier(struct dfz_site s)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	if (d)
		dfz__cores_barrier(d->cores);
}

int dfz_dropin_send_task(struct dfz_site s, struct pi_device *device,
			 struct pi_cluster_task *task)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	(void)device;
	if (!d || !task || !task->entry)
		return -1;
	task->entry(task->arg);
	return 0;
}
