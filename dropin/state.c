// SPDX-License-Identifier: MIT
/*
 * The drop-in's process-wide state and one run of a test body: the
 * observer that hands each event to the oracles and the first finding to
 * the site record (sites.c), and the entry points' common start. The
 * schedule is drawn from the run's bytes by sched.c; the memories are set
 * up by memmap.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crash.h"
#include "dropin_int.h"
#include "reqlife.h"

#define WAIT_BOUND (1u << 20)

struct dfz__dropin *dfz__dropin_state;

/* The verdict is decided: a fuzz execution ends here (the fuzzer wants
 * the crash now, not after whatever the code does next); a bare run goes
 * on with nothing more poisoned. */
static void decided(struct dfz__dropin *d)
{
	if (!d->fuzzing) {
		dfz_rt_poison_stop(d->rt);
		return;
	}
	d->res.finding = *dfz_oracles_finding(d->set);
	d->res.steps = dfz_rt_now(d->rt);
	d->res.xfers = (uint32_t)d->nissue;
	d->res.quirks = d->quirks;
	d->res.apis = d->apis;
	dfz__dropin_print(&d->res, "fuzz input", false, stderr);
	fflush(stderr);
	abort();
}

static void observe(void *ctx, const struct dfz_event *ev)
{
	struct dfz__dropin *d = ctx;
	uint32_t bit = ev->kind < DFZ_EV_COUNT ? 1u << ev->kind : 0;

	if (bit & DFZ__REQLIFE_EVENTS) /* a free that kills a request: first */
		dfz__reqlife_event(d, ev);
	d->oracles.fn(d->oracles.ctx, ev);
	if (bit & DFZ__CRASH_EVENTS)
		dfz__crash_event(d, ev);
	if (!d->sited && dfz_oracles_finding(d->set)) {
		dfz__sites_finding(d, ev);
		decided(d);
	}
	if (ev->kind == DFZ_EV_ISSUE)
		dfz__sites_issue(d, ev);
	if (bit & DFZ__BLOCKS_EVENTS)
		dfz__blocks_event(d, ev);
}

/* -------------------------------------------------------------- state */

/* A preset with steps has them (one line on stderr when not). */
static bool preset_ok(void)
{
	const struct dfz_dropin_schedule *p = &dfz_dropin_schedule;

	if (!p || !p->nsteps || p->steps)
		return true;
	fprintf(stderr, "dmafuzz: DFZ_DROPIN_SCHEDULE gives %u steps and no "
		"array of them\n", p->nsteps);
	return false;
}

/* At exit: the memories unmapped, memcheck's ranges restored. */
void dfz__dropin_teardown(void)
{
	/* exit() from inside the body (the user's, or a refused SDK name)
	 * runs this on the fabric controller's or a core's stack, which the
	 * memories hold: the process ends anyway, nothing is unmapped. */
	if (!dfz__dropin_state || dfz__dropin_state->in_run)
		return;
	dfz__cores_destroy(dfz__dropin_state->cores);
	dfz__memmap_fini(dfz__dropin_state);
	dfz_oracles_destroy(dfz__dropin_state->set);
	dfz_rt_destroy(dfz__dropin_state->rt);
	free(dfz__dropin_state);
	dfz__dropin_state = NULL;
}

struct dfz__dropin *dfz__dropin_make(void)
{
	if (dfz__dropin_state)
		return dfz__dropin_state;
	atexit(dfz__dropin_teardown);
	dfz__dropin_state = calloc(1, sizeof(*dfz__dropin_state));
	if (!dfz__dropin_state) {
		fprintf(stderr, "dmafuzz: cannot set up the drop-in: %s\n",
			dfz_strerror(DFZ_ENOMEM));
		exit(2);
	}
	if (dfz__memmap_create(dfz__dropin_state) < 0 || !preset_ok())
		exit(2);
	dfz__dropin_state->base = (struct dfz__quirks){ dfz__quirks_default(), 0 };
	if (getenv("DFZ_QUIRKS") &&
	    dfz__quirks_parse(getenv("DFZ_QUIRKS"), &dfz__dropin_state->base) < 0)
		exit(2);
	dfz__dropin_state->oracles = dfz_oracles_observer(dfz__dropin_state->set);
	return dfz__dropin_state;
}

/* ---------------------------------------------------------------- run */

static void start(struct dfz__dropin *d, const uint8_t *buf, size_t n)
{
	struct dfz_rt_config cfg = {
		.wait_bound = WAIT_BOUND,
		.obs = { observe, d },
		.user_reqs = true,
		.poison_inflight = true,
		.sanitize = true,
	};

	d->sched = (struct dfz__sched){ buf, n, 0 };
	dfz__guard_new_run();
	dfz__sched_config(d, &cfg);
	cfg.quirks = dfz__quirks_start(d);
	dfz__golden_config(d, &cfg);
	dfz__memmap_restore(d);
	dfz_rt_reset(d->rt, &cfg);
	dfz_oracles_reset(d->set, d->rt);
	memset(&d->res, 0, sizeof(d->res));
	d->sited = false;
	dfz__reqlife_reset();
	d->nissue = 0;
	dfz__sites_reset(d);
	d->nemul = 0;
	d->apis = 0;
	d->team = DFZ_DROPIN_CORES;
	dfz__blocks_reset(d);
	for (unsigned i = 0; i < DFZ__DROPIN_MAX_CORES; i++)
		d->last_tid[i] = -1;
}

/* The body, guarded in a bare run or a replay: a signal or the time
 * limit comes back here and is the run's verdict (crash.c). Return:
 * whether it escaped. */
/* The body on the fabric controller's stack, which is L2 as on the chip. */
static void body_on_fc(struct dfz__dropin *d, const struct dfz_dropin_test *t)
{
	if (dfz__cores_fc(d->cores, t->body, t->arg) < 0)
		dfz__dropin_fail(d, DFZ_CLASS_RT_ERRCODE, "the test body cannot "
				 "run on the fabric controller's stack (L2)");
}

static bool run_body(struct dfz__dropin *d, const struct dfz_dropin_test *t)
{
	if (!dfz__crash_installed() || d->fuzzing) {
		body_on_fc(d, t);
		return false;
	}
	/* No mask saved: an escape restores the body's itself (crash.c). */
	if (sigsetjmp(*dfz__crash_jmp(), 0) == 0) {
		dfz__crash_arm(d);
		body_on_fc(d, t);
		dfz__crash_disarm();
		return false;
	}
	/* Landed here from the fabric controller's or a core's stack: those
	 * contexts are gone, the next run makes them anew. */
	dfz__cores_abandon(d->cores);
	dfz__crash_verdict(d);
	return true;
}

void dfz__dropin_run(const struct dfz_dropin_test *t, const uint8_t *buf,
		     size_t n, struct dfz__result *res)
{
	struct dfz__dropin *d = dfz__dropin_get();
	bool escaped;

	dfz__golden_begin(d, t);
	start(d, buf, n);
	d->cur = (struct dfz_site){ t->file, 0, "the test body" };
	d->in_run = true;
	dfz_rt_judge(d->rt, true);
	escaped = run_body(d, t);
	dfz_rt_judge(d->rt, false);
	if (!escaped)
		dfz__cldma_drain(d);
	d->in_run = false;
	if (!escaped) {
		d->cur = (struct dfz_site){ t->file, 0,
					    "the end of the test body" };
		dfz__reqlife_end(d);
		dfz_oracles_end(d->set);
		dfz__blocks_leaks(d);
	}
	if (!d->sited && dfz_oracles_finding(d->set)) {
		dfz__sites_finding(d, NULL);
		decided(d);
	}
	if (dfz_oracles_finding(d->set))
		d->res.finding = *dfz_oracles_finding(d->set);
	d->res.steps = dfz_rt_now(d->rt);
	d->res.xfers = (uint32_t)d->nissue;
	d->res.quirks = d->quirks;
	d->res.apis = d->apis;
	*res = d->res;
}

/* ------------------------------------------------------- entry points */

/* Never inlined (the fuzzers' builds link the library as one object):
 * its own frame and return address tell reqlife where the SDK entry's
 * caller's live frames begin. */
__attribute__((noinline)) struct dfz__dropin *
dfz__dropin_enter(struct dfz_site s)
{
	struct dfz__dropin *d = dfz__dropin_state;

	if (!d || !d->in_run)
		return NULL;
	d->cur = s;
	dfz__reqlife_enter(d, __builtin_frame_address(0),
			   __builtin_return_address(0));
	dfz__cores_yield(d->cores);
	d->cur = s;
	return d;
}

static void fail_v(struct dfz__dropin *d, const char *oracle,
		   enum dfz_class cls, const char *fmt, va_list ap)
{
	struct dfz_evidence ev = dfz_evidence_none();
	char msg[DFZ_MSG_MAX];

	if (d->sited)
		return;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	ev.step = (int64_t)dfz_rt_now(d->rt);
	dfz_oracle_fail(d->set, oracle, cls, &ev, "%s", msg);
	if (dfz_oracles_finding(d->set)) {
		d->sited = true;
		dfz__sites_here(d);
		decided(d);
	}
}

void dfz__dropin_fail(struct dfz__dropin *d, enum dfz_class cls,
		      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fail_v(d, "dropin", cls, fmt, ap);
	va_end(ap);
}

void dfz__dropin_fail_as(struct dfz__dropin *d, const char *oracle,
			 enum dfz_class cls, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fail_v(d, oracle, cls, fmt, ap);
	va_end(ap);
}

int dfz__dropin_fork(struct dfz__dropin *d, unsigned n, void (*fn)(void *),
		     void *arg)
{
	return dfz__cores_fork(d->cores, n, fn, arg, dfz__sched_core, d);
}

void dfz_dropin_check(struct dfz_site s, int ok, const char *what)
{
	struct dfz__dropin *d = dfz__dropin_state;

	if (ok || !d || !d->in_run)
		return;
	d->cur = s;
	dfz__dropin_fail(d, DFZ_CLASS_DATA_MISMATCH,
			 "the test body's check failed: %s", what);
}

/* A compute event of @kind over @n bytes at @p, when they are L2 or L1. */
static void compute_event(struct dfz__dropin *d, enum dfz_ev_kind kind,
			  const void *p, size_t n)
{
	struct dfz_event ev = { .kind = (uint8_t)kind,
				.step = dfz_rt_now(d->rt) };
	struct dfz_span s;

	if (!p || !n || n > UINT32_MAX ||
	    !dfz_mem_locate(d->rt, p, (uint32_t)n, &s))
		return;
	if (kind == DFZ_EV_COMPUTE_READ)
		ev.src = s;
	else
		ev.dst = s;
	dfz_rt_emit(d->rt, &ev);
}

void dfz_dropin_compute(struct dfz_site s, const void *in, const void *aux,
			void *out, size_t n)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	if (!d)
		return;
	compute_event(d, DFZ_EV_COMPUTE_READ, in, n);
	compute_event(d, DFZ_EV_COMPUTE_READ, aux, n);
	compute_event(d, DFZ_EV_COMPUTE_WRITE, out, n);
	dfz_rt_yield(d->rt, DFZ_YIELD_COMPUTE);
}
