// SPDX-License-Identifier: MIT
/*
 * PMSIS tasks and the program's life on the drop-in: pi_task_t (blocking
 * and callback tasks), the fabric controller's event loop (pi_yield, the
 * waits), pmsis_kickoff / pmsis_exit, pi_time_wait_us and the
 * performance counters.
 *
 * A task ends when the work it tracks did: a RAM copy (its request is
 * the task's own dfz_req, which the ram engine links as the driver links
 * the task) or a cluster task. An ended callback task runs its callback
 * at the fabric controller's next pi_yield or wait, as pulpos runs it
 * from its scheduler; pi_yield with nothing ended sleeps until the next
 * copy ends (the controller's wait for an event), so a `while (!done)
 * pi_yield();` loop always progresses. pmsis_exit leaves the program by
 * a longjmp to the innermost pmsis_kickoff (or the own-main module's
 * runner): a non-zero status is a failed check at its line.
 */
#define _GNU_SOURCE /* pthread_getattr_np */
#include <pthread.h>
#include <setjmp.h>

#include "dropin_int.h"
#include "pmsis_int.h"
#include "dmafuzz/dropin/pmsis.h"

#if defined(__SANITIZE_ADDRESS__)
#define PMSIS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PMSIS_ASAN 1
#endif
#endif
#ifdef PMSIS_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

#define MAX_PENDING 64
#define IDLE_MAX 1000

/* The tasks not ended yet, oldest first; valid within the run that
 * queued them (stamp: the run's virtual time at the last change). */
static struct {
	pi_task_t *task[MAX_PENDING];
	unsigned n;
	uint64_t stamp;
	unsigned idle;                   /* pi_yield in a row with none */
} pend;

static struct dfz__pmsis_exit *exits;    /* innermost first */

/* One set of counters (the cluster's timer is shared by its cores, and
 * the model has one clock): virtual steps while started. */
static struct {
	unsigned events;
	uint64_t acc;
	uint64_t since;
	bool running;
} perf;


static void jump_out(int status) __attribute__((noreturn));

static void pend_check_run(struct dfz__dropin *d)
{
	uint64_t now = dfz_rt_now(d->rt);

	if (now < pend.stamp)
		pend.n = 0;
	pend.stamp = now;
}

void dfz__pmsis_reset(void)
{
	pend.n = 0;
	pend.stamp = 0;
	pend.idle = 0;
	memset(&perf, 0, sizeof(perf));
	dfz__pmsis_cluster_reset();
}

pi_task_t *dfz_dropin_task_init(struct dfz_site s, pi_task_t *task, int kind,
				pi_callback_func_t fn, void *arg)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	if (d && !dfz__dropin_usable(d, task, sizeof(*task),
				     kind ? "the task of pi_task_callback" :
					    "the task of pi_task_block"))
		return task;
	if (!task)
		return task;
	task->done = 0;
	task->dfz_kind = (uint8_t)kind;
	task->dfz_busy = 0;
	task->arg[0] = (uintptr_t)fn;
	task->arg[1] = (uintptr_t)arg;
	return task;
}

/* @t's work began: it ends at a later yield or wait. */
bool dfz__pmsis_task_start(struct dfz__dropin *d, pi_task_t *t, bool copy)
{
	pend_check_run(d);
	if (pend.n == MAX_PENDING) {
		dfz__dropin_fail(d, DFZ_CLASS_RT_ERRCODE, "more than %d PMSIS "
				 "tasks pending at once (the drop-in's limit)",
				 MAX_PENDING);
		return false;
	}
	t->done = 0;
	t->dfz_busy = copy ? 1 : 2;
	pend.idle = 0;
	pend.task[pend.n++] = t;
	return true;
}

/* Task @i of the pending list ended: its copy (if any) waited, its flag
 * set, its callback run. */
static void finish(struct dfz__dropin *d, unsigned i)
{
	pi_task_t *t = pend.task[i];

	if (t->dfz_busy == 1)
		dfz_ram_wait_on(dfz_ram_get(d->rt), &t->dfz_req);
	memmove(&pend.task[i], &pend.task[i + 1],
		(pend.n - i - 1) * sizeof(pend.task[0]));
	pend.n--;
	t->dfz_busy = 0;
	t->done = 1;
	if (t->dfz_kind == 1 && t->arg[0]) {
		pi_callback_func_t fn;

		memcpy(&fn, &t->arg[0], sizeof(fn));
		fn((void *)t->arg[1]);
	}
}

static bool ended(const pi_task_t *t)
{
	return t->dfz_busy != 1 || t->dfz_req.done;
}

/* Run every ended task; return how many. */
static unsigned run_ended(struct dfz__dropin *d)
{
	unsigned ran = 0;

	for (unsigned i = 0; i < pend.n;) {
		if (ended(pend.task[i])) {
			finish(d, i);
			ran++;
			i = 0;
		} else {
			i++;
		}
	}
	return ran;
}

/* The program left by pmsis_exit's way (the verdict is already set). */
static void leave(void)
{
	if (exits)
		jump_out(0);
}

/* pi_yield with nothing pending: nothing can change while the fabric
 * controller spins (cluster tasks run to their end when sent), so a loop
 * of them never ends. After IDLE_MAX in a row, or at once when the
 * run's verdict is already decided, the program is left. */
static void idle_yield(struct dfz__dropin *d)
{
	if (d->sited)
		leave();
	if (++pend.idle < IDLE_MAX)
		return;
	dfz__dropin_fail(d, DFZ_CLASS_DMA_HANG, "pi_yield %u times with no "
			 "task pending: the loop around it waits for "
			 "something that will never happen", IDLE_MAX);
	leave();
}

void dfz_dropin_yield(struct dfz_site s)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	if (!d)
		return;
	pend_check_run(d);
	dfz_rt_yield(d->rt, DFZ_YIELD_WAIT);
	if (run_ended(d) > 0) {
		pend.idle = 0;
	} else if (pend.n > 0) {
		finish(d, 0);  /* sleep until the oldest one ends */
		pend.idle = 0;
	} else {
		idle_yield(d);
	}
	d->cur = s;
}

void dfz_dropin_task_wait(struct dfz_site s, pi_task_t *task)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);
	unsigned i;

	if (!d || !dfz__dropin_usable(d, task, sizeof(*task),
				      "the task of pi_task_wait_on"))
		return;
	pend_check_run(d);
	for (i = 0; i < pend.n && pend.task[i] != task; i++)
		;
	if (i < pend.n) {
		finish(d, i);
	} else if (!task->done) {
		dfz__dropin_fail(d, DFZ_CLASS_DMA_HANG, "pi_task_wait_on a "
				 "task nothing will end (no copy or cluster "
				 "task was started with it, and it is not done)");
		return;
	}
	run_ended(d);
	d->cur = s;
}

void dfz_dropin_task_push(struct dfz_site s, pi_task_t *task)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	if (!d || !dfz__dropin_usable(d, task, sizeof(*task),
				      "the task of pi_task_push"))
		return;
	dfz__pmsis_task_start(d, task, false);
}

void dfz__pmsis_task_push(struct dfz__dropin *d, pi_task_t *task)
{
	dfz__pmsis_task_start(d, task, false);
}

/* ------------------------------------------------------ kickoff, exit */

void dfz__pmsis_exit_push(struct dfz__pmsis_exit *e)
{
	pthread_attr_t a;

	e->status = 0;
	e->next = exits;
	e->stack = NULL;
	e->stack_size = 0;
	if (pthread_getattr_np(pthread_self(), &a) == 0) {
		pthread_attr_getstack(&a, &e->stack, &e->stack_size);
		pthread_attr_destroy(&a);
	}
	exits = e;
}

/* The longjmp to the innermost exit; from a core's stack, ASan is told
 * the switch (the core's fiber ends here). */
static void jump_out(int status)
{
	struct dfz__dropin *d = dfz__dropin_get();

	exits->status = status;
#ifdef PMSIS_ASAN
	if (dfz__cores_in_fork(d->cores))
		__sanitizer_start_switch_fiber(NULL, exits->stack,
					       exits->stack_size);
#else
	(void)d;
#endif
	longjmp(exits->env, 1);
}

void dfz__pmsis_landed(struct dfz__dropin *d, bool from_core)
{
	if (!from_core)
		return;
#ifdef PMSIS_ASAN
	__sanitizer_finish_switch_fiber(NULL, NULL, NULL);
#endif
	dfz__cores_abandon(d->cores);
	dfz__pmsis_cluster_reset();
}

void dfz__pmsis_exit_pop(struct dfz__pmsis_exit *e)
{
	exits = e->next;
}

int dfz_dropin_kickoff(struct dfz_site s, void *entry)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);
	struct dfz__pmsis_exit e;
	void (*fn)(void *);

	if (!d || !dfz__dropin_readable(d, entry, 1,
				      "the entry of pmsis_kickoff"))
		return -1;
	memcpy(&fn, &entry, sizeof(fn));
	dfz__pmsis_exit_push(&e);
	if (setjmp(e.env) == 0)
		fn(NULL);
	else
		dfz__pmsis_landed(d, dfz__cores_in_fork(d->cores));
	dfz__pmsis_exit_pop(&e);
	d->cur = s;
	return e.status;
}

void dfz_dropin_pmsis_exit(struct dfz_site s, int err)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	if (d && err != 0)
		dfz__dropin_fail(d, DFZ_CLASS_DATA_MISMATCH, "pmsis_exit(%d): "
				 "the program reports a failure", err);
	if (!exits) {
		fprintf(stderr, "dmafuzz: pmsis_exit(%d) at %s:%d outside "
			"pmsis_kickoff and the own-main runner: the process "
			"ends here\n", err, s.file, s.line);
		exit(err ? 1 : 0);
	}
	jump_out(err);
}

/* -------------------------------------------------------------- time */

void dfz_dropin_wait_us(struct dfz_site s, int us)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	(void)us;
	if (d) {
		dfz_rt_yield(d->rt, DFZ_YIELD_WAIT);
		run_ended(d);
	}
}

/* --------------------------------------------------------------- perf */

static uint64_t now_steps(void)
{
	struct dfz__dropin *d = dfz__dropin_get();

	return d->in_run ? dfz_rt_now(d->rt) : 0;
}

void dfz_dropin_perf(enum dfz_perf_op op, unsigned events)
{
	uint64_t now = now_steps();

	switch (op) {
	case DFZ_PERF_CONF:
		perf.events = events;
		break;
	case DFZ_PERF_RESET:
		perf.acc = 0;
		perf.since = now;
		break;
	case DFZ_PERF_START:
		if (!perf.running)
			perf.since = now;
		perf.running = true;
		break;
	case DFZ_PERF_STOP:
		if (perf.running && now >= perf.since)
			perf.acc += now - perf.since;
		perf.running = false;
		break;
	}
}

unsigned int dfz_dropin_perf_read(int event)
{
	uint64_t v = perf.acc, now = now_steps();

	if (event != PI_PERF_CYCLES && event != PI_PERF_ACTIVE_CYCLES)
		return 0;
	if (perf.running && now >= perf.since)
		v += now - perf.since;
	return (unsigned int)v;
}
