// SPDX-License-Identifier: MIT
/*
 * The PMSIS cluster names on the drop-in's cores: the cluster's bring-up
 * (its conf, pi_open_from_conf, open and close), cluster tasks (sent and
 * run to their end, then their completion task ended), the core
 * queries, the team fork, barrier and critical section (the event unit's
 * one mutex: a core that finds it taken stalls until its holder leaves).
 */

#include "pmsis_int.h"

enum { PE_READY, PE_BARRIER, PE_DONE };

/* The cluster as the program left it in this run, and the team's cores
 * as the scheduler sees them (ready, at the barrier, returned), which the
 * fork's pick function needs to find the critical section's holder. */
static struct {
	int lock_owner;                  /* core in the critical section,
					  * -1: none */
	int preset;                      /* pi_cl_team_prepare_fork's team */
	unsigned n;                      /* cores of the running fork */
	unsigned arrived;                /* at the barrier */
	uint8_t state[DFZ_DROPIN_CORES];
	void (*entry)(void *);
	void *arg;
} cl = { -1, 0, 0, 0, { 0 }, NULL, NULL };

void dfz__pmsis_cluster_reset(void)
{
	cl.lock_owner = -1;
	cl.preset = 0;
	cl.n = 0;
}

void dfz_dropin_open_from_conf(struct dfz_site s, struct pi_device *device,
			       void *conf)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	if (d && !dfz__dropin_usable(d, device, sizeof(*device),
				     "the device of pi_open_from_conf"))
		return;
	if (device)
		*device = (struct pi_device){ .config = conf };
}

void dfz_dropin_cluster_conf_init(struct dfz_site s,
				  struct pi_cluster_conf *conf)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	if (d && !dfz__dropin_usable(d, conf, sizeof(*conf),
				     "the conf of pi_cluster_conf_init"))
		return;
	if (conf)
		*conf = (struct pi_cluster_conf){
			.device_type = PI_DEVICE_CLUSTER_TYPE,
			.cc_stack_size = PI_CL_CC_STACK_SIZE,
		};
}

int dfz_dropin_cluster_open(struct dfz_site s, struct pi_device *device,
			    int open)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	if (d && !dfz__dropin_usable(d, device, sizeof(*device), open ?
				     "the device of pi_cluster_open" :
				     "the device of pi_cluster_close"))
		return -1;
	return 0;
}

int dfz_dropin_core_id(void)
{
	struct dfz__dropin *d = dfz__dropin_get();

	return (int)dfz__cores_id(d->cores);
}

int dfz_dropin_nb_cores(void)
{
	return DFZ_DROPIN_CORES;
}

int dfz_dropin_team_nb_cores(void)
{
	struct dfz__dropin *d = dfz__dropin_get();

	return d->in_run ? (int)d->team : DFZ_DROPIN_CORES;
}

void dfz_dropin_team_prepare(struct dfz_site s, int nb_cores)
{
	if (dfz__dropin_enter(s))
		cl.preset = nb_cores;
}

/* The index, among the @nready ready cores the scheduler offers (the
 * running one left out when it stalls), of core @want; -1 if absent. */
static int index_of(struct dfz__dropin *d, unsigned nready, int want)
{
	unsigned me = dfz__cores_id(d->cores), all = 0, k = 0;

	for (unsigned i = 0; i < cl.n; i++)
		all += cl.state[i] == PE_READY;
	for (unsigned i = 0; i < cl.n; i++) {
		if (cl.state[i] != PE_READY || (nready < all && i == me))
			continue;
		if ((int)i == want)
			return (int)k;
		k++;
	}
	return -1;
}

/*
 * The team's scheduler: the schedule's pick, except while a core holds
 * the critical section and is ready: then it runs (the event unit's
 * mutex makes every core that wants it sleep, and the drop-in keeps the
 * others waiting too), so a holder that makes SDK calls inside the
 * section leaves it before anyone finds it taken.
 */
static unsigned team_pick(void *ctx, unsigned nready)
{
	struct dfz__dropin *d = ctx;
	int k = cl.lock_owner >= 0 ? index_of(d, nready, cl.lock_owner) : -1;

	return k >= 0 ? (unsigned)k : dfz__dropin_take(d, 0, nready - 1);
}

static void team_core(void *arg)
{
	(void)arg;
	cl.entry(cl.arg);
	cl.state[dfz__cores_id(dfz__dropin_get()->cores)] = PE_DONE;
}

static int team_run(struct dfz__dropin *d, unsigned n, void (*entry)(void *),
		    void *arg)
{
	int rc;

	if (!entry)
		return DFZ_EINVAL;
	cl.n = n;
	cl.arrived = 0;
	memset(cl.state, PE_READY, sizeof(cl.state));
	cl.entry = entry;
	cl.arg = arg;
	rc = dfz__cores_fork(d->cores, n, team_core, NULL, team_pick, d);
	cl.n = 0;
	return rc;
}

void dfz_dropin_team_fork(struct dfz_site s, int nb_cores,
			  void (*entry)(void *), void *arg)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);
	int rc;
	unsigned n;

	if (!d)
		return;
	/* pulpos: a team of 0 cores keeps the previous team's size (all
	 * cores before any fork); a preset fork takes the prepared one. */
	if (nb_cores == 0 && cl.preset > 0)
		nb_cores = cl.preset;
	if (nb_cores > 0)
		d->team = (unsigned)nb_cores;
	n = d->team;
	rc = n > DFZ_DROPIN_CORES ? DFZ_EINVAL : team_run(d, n, entry, arg);
	d->cur = s;
	cl.lock_owner = -1;
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
	unsigned me;

	if (!d)
		return;
	me = dfz__cores_id(d->cores);
	if (cl.n && me < cl.n) {
		if (++cl.arrived >= cl.n) {
			memset(cl.state, PE_READY, cl.n);
			cl.arrived = 0;
		} else {
			cl.state[me] = PE_BARRIER;
		}
	}
	dfz__cores_barrier(d->cores);
}

/*
 * The critical section: enter and leave are no switch points (the
 * event unit's mutex is one load), so a section without SDK calls inside
 * is atomic. A core that finds it held (its holder switched at an SDK
 * call inside) stalls until the holder leaves; STALL_MAX rounds without
 * that are a hang (the holder never leaves, or the model's scheduler
 * keeps to the waiters: docs/porting/pmsis.md).
 */
#define STALL_MAX 4096

static void critical_enter(struct dfz__dropin *d, int me)
{
	unsigned rounds = 0;

	if (!dfz__cores_in_fork(d->cores))
		cl.lock_owner = -1;
	if (cl.lock_owner == me) {
		dfz__dropin_fail(d, DFZ_CLASS_DMA_HANG, "core %d enters the "
				 "team's critical section it already holds (the "
				 "event unit's mutex is not recursive)", me);
		return;
	}
	while (cl.lock_owner >= 0) {
		if (rounds++ == STALL_MAX || !dfz__cores_stall(d->cores)) {
			dfz__dropin_fail(d, DFZ_CLASS_DMA_HANG, "core %d waits "
					 "for the critical section, which core "
					 "%d never leaves", me, cl.lock_owner);
			return;
		}
	}
	cl.lock_owner = me;
}

/* Not dfz__dropin_enter(): no switch point here. */
void dfz_dropin_team_critical(struct dfz_site s, int enter)
{
	struct dfz__dropin *d = dfz__dropin_get();
	int me;

	if (!d->in_run)
		return;
	d->cur = s;
	me = (int)dfz__cores_id(d->cores);
	if (enter) {
		critical_enter(d, me);
	} else if (cl.lock_owner != me) {
		dfz__dropin_fail(d, DFZ_CLASS_DEV_MISUSE, "core %d leaves the "
				 "team's critical section, which it does not "
				 "hold (expected a pi_cl_team_critical_enter "
				 "first)", me);
	} else {
		cl.lock_owner = -1;
	}
	d->cur = s;
}

struct pi_cluster_task *dfz_dropin_cluster_task(struct dfz_site s,
						struct pi_cluster_task *task,
						void (*entry)(void *),
						void *arg)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	if (d && !dfz__dropin_usable(d, task, sizeof(*task),
				     "the task of pi_cluster_task"))
		return task;
	if (task)
		*task = (struct pi_cluster_task){ .entry = entry, .arg = arg,
						  .nb_cores = DFZ_DROPIN_CORES };
	return task;
}

/* The cluster runs @task to its end (its master core: the entry then
 * forks the team as on the chip); @done, when given, ends after. */
int dfz_dropin_send_task(struct dfz_site s, struct pi_device *device,
			 struct pi_cluster_task *task, pi_task_t *done)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	(void)device;
	if (!d || !dfz__dropin_usable(d, task, sizeof(*task),
				      "the task of pi_cluster_send_task"))
		return -1;
	if (done && !dfz__dropin_usable(d, done, sizeof(*done), "the "
					"completion task of "
					"pi_cluster_send_task_async"))
		return -1;
	if (!task->entry) {
		dfz__dropin_fail(d, DFZ_CLASS_DEV_MISUSE, "a cluster task "
				 "without an entry (expected pi_cluster_task() "
				 "or .entry set)");
		return -1;
	}
	/* The task's team: what a fork of 0 cores in it takes. */
	if (task->nb_cores > 0 && task->nb_cores <= DFZ_DROPIN_CORES)
		d->team = (unsigned)task->nb_cores;
	task->entry(task->arg);
	d->cur = s;
	if (done)
		dfz__pmsis_task_push(d, done);
	return 0;
}
