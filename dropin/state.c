// SPDX-License-Identifier: MIT
/*
 * The drop-in's process-wide state and one run of a test body: the
 * runtime with L1/L2 at the PULP addresses, the oracle set, the cores, the
 * schedule drawn from the run's bytes, and the call-site record that turns
 * the first finding into the user's file:line and the earlier call it
 * conflicts with.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dropin_int.h"

#define WAIT_BOUND (1u << 20)

/* The oracles of user code: every engine oracle. The reference, output
 * and errcode oracles judge a plan's own program, which user code is not. */
#define DROPIN_ORACLES                                                   \
	(DFZ_ORACLES_ALL & ~((1u << DFZ_ORACLE_REF) |                    \
			     (1u << DFZ_ORACLE_OUTPUT) |                 \
			     (1u << DFZ_ORACLE_ERRCODE)))

static struct dfz__dropin *state;

/*
 * The program's PI_L2 / PI_CL_L1 statics: the linker's bounds of their
 * sections (NULL without any). The link flags place them at the start of
 * L2 and L1, and place one byte above both windows (dfz_top), so that the
 * program break, which starts after the highest loaded byte, stays clear
 * of the memories the drop-in maps.
 */
extern char __start_dfz_l2[] __attribute__((weak));
extern char __stop_dfz_l2[] __attribute__((weak));
extern char __start_dfz_l1[] __attribute__((weak));
extern char __stop_dfz_l1[] __attribute__((weak));
static char top_guard __attribute__((section("dfz_top"), used)) = 1;

/* ------------------------------------------------------------ schedule */

/* As the plan decoder's choice stream: little-endian, as few bytes as the
 * range needs, the simplest value once the bytes ran out. */
uint32_t dfz__dropin_take(struct dfz__dropin *d, uint32_t lo, uint32_t hi)
{
	struct dfz__sched *s = &d->sched;
	unsigned k = hi - lo <= 0xffu ? 1 : hi - lo <= 0xffffu ? 2 :
		     hi - lo <= 0xffffffu ? 3 : 4;
	uint32_t v = 0;

	if (hi <= lo)
		return lo;
	if (s->n - s->at < k) {
		s->at = s->n;
		return lo;
	}
	for (unsigned i = 0; i < k; i++)
		v |= (uint32_t)s->buf[s->at + i] << (8 * i);
	s->at += k;
	return lo + (uint32_t)(v % ((uint64_t)hi - lo + 1));
}

/* Engine steps at a yield: mostly a few, sometimes enough to drain. */
static unsigned sched_steps(void *ctx, enum dfz_yield where)
{
	uint32_t v = dfz__dropin_take(ctx, 0, 255);

	(void)where;
	return v < 192 ? v : (v - 191) * 1024u;
}

static unsigned pick_core(void *ctx, unsigned nready)
{
	return dfz__dropin_take(ctx, 0, nready - 1);
}

/* ------------------------------------------------------------- sites */

static struct dfz__key *key_of(struct dfz__dropin *d, const struct dfz_event *ev)
{
	for (uint32_t i = 0; i < d->nkeys; i++) {
		struct dfz__key *k = &d->key[i];

		if (k->engine == ev->engine && (ev->engine == DFZ_ENGINE_RAM ?
		    k->handle == ev->handle : k->id == ev->id))
			return k;
	}
	return NULL;
}

static void remember_issue(struct dfz__dropin *d, const struct dfz_event *ev)
{
	struct dfz__key *k = key_of(d, ev);

	if (d->nissue < DFZ__DROPIN_SITES)
		d->issue_site[d->nissue] = d->cur;
	if (!k && d->nkeys < DFZ__DROPIN_KEYS)
		k = &d->key[d->nkeys++];
	if (k)
		*k = (struct dfz__key){ ev->engine, ev->handle, ev->id,
					d->nissue };
	d->nissue++;
}

static struct dfz_site issue_site(const struct dfz__dropin *d, int64_t xfer)
{
	if (xfer >= 0 && xfer < d->nissue && xfer < DFZ__DROPIN_SITES)
		return d->issue_site[xfer];
	return (struct dfz_site){ NULL, 0, NULL };
}

/* The first finding arrived during @ev (NULL: a post-check): name the
 * call being served and the earlier issue on the same handle. */
static void site_finding(struct dfz__dropin *d, const struct dfz_event *ev)
{
	const struct dfz_finding *f = dfz_oracles_finding(d->set);
	struct dfz__key *k = ev ? key_of(d, ev) : NULL;

	d->sited = true;
	d->res.site = d->cur;
	d->res.prior = issue_site(d, k ? k->xfer : f->ev.xfer);
	/* An early wait conflicts with the transfer still in flight. */
	if (f->cls == DFZ_CLASS_DMA_EARLY_WAIT && f->ev.xfer >= 0)
		d->res.prior = issue_site(d, f->ev.xfer);
	if (!ev && f->ev.xfer >= 0) {
		/* A post-check (a leak): the issuing call is the offender. */
		d->res.site = issue_site(d, f->ev.xfer);
		d->res.prior = (struct dfz_site){ NULL, 0, NULL };
		if (!d->res.site.file)
			d->res.site = d->cur;
	}
}

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

	d->oracles.fn(d->oracles.ctx, ev);
	if (!d->sited && dfz_oracles_finding(d->set)) {
		site_finding(d, ev);
		decided(d);
	}
	if (ev->kind == DFZ_EV_ISSUE)
		remember_issue(d, ev);
}

/* -------------------------------------------------------------- state */

/* The bytes of statics section [start, stop) at the start of the window
 * at @base of @size, or -1 (said on stderr) when they are elsewhere. */
static int64_t statics_of(const char *name, const char *start,
			  const char *stop, uintptr_t base, uint32_t size)
{
	if (!start || stop <= start)
		return 0;
	if ((uintptr_t)start == base && (uintptr_t)(stop - start) <= size)
		return stop - start;
	fprintf(stderr, "dmafuzz: the %s statics are at %p (%zu bytes), not at "
		"the start of the %u-byte window at 0x%08lx: link with "
		"`pkg-config --libs dmafuzz-dropin`\n", name, (void *)start,
		(size_t)(stop - start), size, (unsigned long)base);
	return -1;
}

/* A test file's sizes (DFZ_DROPIN_MEMORY), when it gives them. */
extern const struct dfz_dropin_memory dfz_dropin_memory __attribute__((weak));

/* The size of a window: the test file's, or @def; 0 (said on stderr) when
 * the test file's is above @max. */
static uint32_t window_size(const char *name, uint32_t asked, uint32_t def,
			    uint32_t max)
{
	if (asked == 0)
		return def;
	if (asked <= max)
		return asked;
	fprintf(stderr, "dmafuzz: DFZ_DROPIN_MEMORY asks for %u bytes of %s; "
		"its window holds %u\n", asked, name, max);
	return 0;
}

static int create(struct dfz__dropin *d)
{
	const struct dfz_dropin_memory *m = &dfz_dropin_memory;
	uint32_t l2_size = window_size("L2", m ? m->l2 : 0, DFZ_DROPIN_L2_SIZE,
				       DFZ_DROPIN_L2_MAX);
	uint32_t l1_size = window_size("L1", m ? m->l1 : 0, DFZ_DROPIN_L1_SIZE,
				       DFZ_DROPIN_L1_MAX);
	struct dfz_rt_layout lay = {
		.base = { [DFZ_L2] = DFZ_DROPIN_L2_BASE,
			  [DFZ_L1] = DFZ_DROPIN_L1_BASE },
		.cap = { [DFZ_L2] = l2_size, [DFZ_L1] = l1_size },
	};
	int64_t l2, l1;
	int rc;

	(void)top_guard;
	if (!l2_size || !l1_size)
		return DFZ_EINVAL;
	l2 = statics_of("PI_L2", __start_dfz_l2, __stop_dfz_l2,
			DFZ_DROPIN_L2_BASE, l2_size);
	l1 = l2 < 0 ? -1 :
	     statics_of("PI_CL_L1", __start_dfz_l1, __stop_dfz_l1,
			DFZ_DROPIN_L1_BASE, l1_size);
	if (l1 < 0)
		return DFZ_EINVAL;
	lay.statics[DFZ_L2] = (uint32_t)l2;
	lay.statics[DFZ_L1] = (uint32_t)l1;
	rc = dfz_rt_create_at(&lay, &d->rt);

	if (rc == DFZ_EFAULT) {
		fprintf(stderr, "dmafuzz: cannot map L2 at 0x%08x and L1 at "
			"0x%08x: %s\n", DFZ_DROPIN_L2_BASE, DFZ_DROPIN_L1_BASE,
			strerror(errno));
		return rc;
	}
	if (rc == 0)
		rc = dfz_oracles_create(DROPIN_ORACLES, &d->set);
	if (rc == 0)
		rc = dfz__cores_create(DFZ__DROPIN_MAX_CORES, 0, &d->cores);
	if (rc < 0)
		fprintf(stderr, "dmafuzz: cannot set up the drop-in: %s\n",
			dfz_strerror(rc));
	return rc;
}

/* At exit: the memories unmapped, memcheck's ranges restored. */
void dfz__dropin_teardown(void)
{
	if (!state)
		return;
	dfz__cores_destroy(state->cores);
	dfz_oracles_destroy(state->set);
	dfz_rt_destroy(state->rt);
	free(state);
	state = NULL;
}

struct dfz__dropin *dfz__dropin_get(void)
{
	if (state)
		return state;
	atexit(dfz__dropin_teardown);
	state = calloc(1, sizeof(*state));
	if (!state) {
		fprintf(stderr, "dmafuzz: cannot set up the drop-in: %s\n",
			dfz_strerror(DFZ_ENOMEM));
		exit(2);
	}
	if (create(state) < 0)
		exit(2);
	state->base = (struct dfz__quirks){ dfz__quirks_default(), 0 };
	if (getenv("DFZ_QUIRKS") &&
	    dfz__quirks_parse(getenv("DFZ_QUIRKS"), &state->base) < 0)
		exit(2);
	state->oracles = dfz_oracles_observer(state->set);
	return state;
}

/* ---------------------------------------------------------------- run */

static void start(struct dfz__dropin *d, const uint8_t *buf, size_t n)
{
	static const uint32_t bandwidth[] = { 64, 1, 4, 16, 256, 4096 };
	struct dfz_rt_config cfg = {
		.wait_bound = WAIT_BOUND,
		.sched = sched_steps,
		.sched_ctx = d,
		.obs = { observe, d },
		.user_reqs = true,
		.poison_inflight = true,
	};

	d->sched = (struct dfz__sched){ buf, n, 0 };
	cfg.latency = dfz__dropin_take(d, 0, 16);
	cfg.bandwidth = bandwidth[dfz__dropin_take(d, 0, 5)];
	cfg.quirks = dfz__quirks_start(d);
	dfz_rt_reset(d->rt, &cfg);
	dfz_oracles_reset(d->set, d->rt);
	memset(&d->res, 0, sizeof(d->res));
	d->sited = false;
	d->nissue = 0;
	d->nkeys = 0;
	d->nemul = 0;
	d->apis = 0;
	d->team = DFZ_DROPIN_CORES;
	for (unsigned i = 0; i < DFZ__DROPIN_MAX_CORES; i++)
		d->last_tid[i] = -1;
}

void dfz__dropin_run(const struct dfz_dropin_test *t, const uint8_t *buf,
		     size_t n, struct dfz__result *res)
{
	struct dfz__dropin *d = dfz__dropin_get();

	start(d, buf, n);
	d->cur = (struct dfz_site){ t->file, 0, "the test body" };
	d->in_run = true;
	dfz_rt_judge(d->rt, true);
	t->body(t->arg);
	dfz_rt_judge(d->rt, false);
	dfz__cldma_drain(d);
	d->in_run = false;
	d->cur = (struct dfz_site){ t->file, 0, "the end of the test body" };
	dfz_oracles_end(d->set);
	if (!d->sited && dfz_oracles_finding(d->set)) {
		site_finding(d, NULL);
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

struct dfz__dropin *dfz__dropin_enter(struct dfz_site s)
{
	struct dfz__dropin *d = state;

	if (!d || !d->in_run)
		return NULL;
	d->cur = s;
	dfz__cores_yield(d->cores);
	d->cur = s;
	return d;
}

void dfz__dropin_fail(struct dfz__dropin *d, enum dfz_class cls,
		      const char *fmt, ...)
{
	struct dfz_evidence ev = dfz_evidence_none();
	char msg[DFZ_MSG_MAX];
	va_list ap;

	if (d->sited)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ev.step = (int64_t)dfz_rt_now(d->rt);
	dfz_oracle_fail(d->set, "dropin", cls, &ev, "%s", msg);
	if (dfz_oracles_finding(d->set)) {
		d->sited = true;
		d->res.site = d->cur;
		decided(d);
	}
}

int dfz__dropin_fork(struct dfz__dropin *d, unsigned n, void (*fn)(void *),
		     void *arg)
{
	return dfz__cores_fork(d->cores, n, fn, arg, pick_core, d);
}

void dfz_dropin_check(struct dfz_site s, int ok, const char *what)
{
	struct dfz__dropin *d = state;

	if (ok || !d || !d->in_run)
		return;
	d->cur = s;
	dfz__dropin_fail(d, DFZ_CLASS_DATA_MISMATCH,
			 "the test body's check failed: %s", what);
}
