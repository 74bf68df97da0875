// SPDX-License-Identifier: MIT
/*
 * The executor: turns a plan into one run of the runtime. It sizes the
 * memories (L2 and L1 from the plan), allocates and fills the tensors (in
 * L3, or in L2 for a one-hop L2<->L1 plan), builds the tiled program, one
 * adapter per hop (requests in that hop's local level) and the scheduler
 * from the plan, attaches the oracles, runs the program and collects the
 * verdict. One executor is created once and reset
 * per run, so a fuzz execution does no setup that could be done once.
 */
#include <stdlib.h>
#include <string.h>

#include "dmafuzz/harness.h"
#include "harness_int.h"
#include "plan_int.h"

struct dfz_exec {
	struct dfz_rt *rt;
	struct dfz_oracles *oracles;
	struct dfz_observer forward;  /* the oracle set's observer */
	const struct dfz_plan_xfer *x; /* plan of the current run */
	unsigned sched_next;          /* cursor in x->sched */
	uint32_t issues;              /* ISSUE events of the current run */
	struct dfz_prog prog;
	struct dfz_adapter ad[DFZ_MAX_HOPS]; /* one per hop of prog */
	struct dfz__hexec *hx;        /* host and api families */
	bool catch_signals;           /* a runtime crash becomes a verdict */
	dfz__prog_runner run_prog;    /* dfz_prog_run, or a test's stand-in */
	int run_rc;                   /* what run_prog returned */
	bool cut;                     /* this run's verdict is decided */
	uint8_t fill[DFZ_CAP_TENSOR_BYTES];
};

/* The scheduler hook: steps per yield come from the plan, cycled. */
static unsigned sched_draw(void *ctx, enum dfz_yield where)
{
	struct dfz_exec *ex = ctx;

	(void)where;
	if (ex->x->nsched == 0)
		return 0;
	return ex->x->sched[ex->sched_next++ % ex->x->nsched];
}

/* Counts transfers for the verdict, then hands the event to the oracles. */
static void observe(void *ctx, const struct dfz_event *ev)
{
	struct dfz_exec *ex = ctx;

	if (ev->kind == DFZ_EV_ISSUE)
		ex->issues++;
	if (ex->forward.fn)
		ex->forward.fn(ex->forward.ctx, ev);
	/* The first finding is the verdict: the rest of the run is bounded
	 * (waits that would hang give up at once). */
	if (!ex->cut && dfz_oracles_finding(ex->oracles)) {
		ex->cut = true;
		dfz_rt_cut(ex->rt);
	}
}

int dfz_exec_create(uint32_t oracles, struct dfz_exec **out)
{
	struct dfz_exec *ex = calloc(1, sizeof(*ex));

	if (!ex)
		return DFZ_ENOMEM;
	if (dfz_rt_create(&ex->rt) < 0)
		goto err_free_exec;
	if (dfz_oracles_create(oracles, &ex->oracles) < 0)
		goto err_destroy_rt;
	if (dfz__hexec_create(&ex->hx) < 0)
		goto err_destroy_oracles;
	ex->forward = dfz_oracles_observer(ex->oracles);
	ex->run_prog = dfz_prog_run;
	*out = ex;
	return 0;

err_destroy_oracles:
	dfz_oracles_destroy(ex->oracles);
err_destroy_rt:
	dfz_rt_destroy(ex->rt);
err_free_exec:
	free(ex);
	return DFZ_ENOMEM;
}

/* The runtime goes first: its teardown is the device's leak check under
 * memcheck, which must see the host executor's pointers to the blocks
 * the last plan still holds, or it reports them lost. */
void dfz_exec_destroy(struct dfz_exec *ex)
{
	if (!ex)
		return;
	dfz_rt_destroy(ex->rt);
	dfz__hexec_destroy(ex->hx);
	dfz_oracles_destroy(ex->oracles);
	free(ex);
}

/*
 * A wait may legitimately run until everything in flight has moved: in the
 * fixed runtime that is at most the local levels' bytes (every transfer
 * has one side in a local buffer) plus each queued descriptor's latency.
 * Ram requests carry one descriptor each (at most 128 are queued); on the
 * L2<->L1 engines a handle carries many, each of at least one element.
 */
uint32_t dfz_plan_wait_bound(const struct dfz_plan_xfer *x)
{
	uint64_t local = (uint64_t)x->l2_size + x->l1_size, descs = 128, b;

	if (dfz__plan_is_level_used(x, DFZ_L1))
		descs += local / x->elem;
	b = 2 * (local / x->bandwidth + 1) + descs * (x->latency + 2) + 1024;
	return b > UINT32_MAX ? UINT32_MAX : (uint32_t)b;
}

static void config_of(struct dfz_exec *ex, const struct dfz_plan_xfer *x,
		      uint32_t bugs, struct dfz_rt_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->mem_size[DFZ_L3] = DFZ_CAP_L3;
	cfg->mem_size[DFZ_L2] = x->l2_size ? x->l2_size : DFZ_CAP_L2;
	cfg->mem_size[DFZ_L1] = x->l1_size ? x->l1_size : DFZ_CAP_L1;
	cfg->latency = x->latency;
	cfg->bandwidth = x->bandwidth;
	cfg->wait_bound = dfz_plan_wait_bound(x);
	cfg->bugs = bugs;
	cfg->sched = sched_draw;
	cfg->sched_ctx = ex;
	cfg->obs.fn = observe;
	cfg->obs.ctx = ex;
}

/* Place tensor @t (its level and bytes set) where the plan's tensors
 * live: L3, or L2 for a one-hop L2<->L1 plan. */
static int tensor_place(struct dfz_exec *ex, struct dfz_tensor *t)
{
	uint32_t size = t->bytes ? t->bytes : 1;
	struct dfz_span at;
	void *ptr;
	int rc;

	if (t->level == DFZ_L3)
		return dfz_l3_alloc(ex->rt, size, &t->off);
	rc = dfz_local_alloc(ex->rt, (enum dfz_level)t->level, size, &ptr);
	if (rc < 0)
		return rc;
	if (!dfz_mem_locate(ex->rt, ptr, size, &at))
		return DFZ_EFAULT;
	t->off = at.off;
	return 0;
}

/* Fill a pure input tensor (padding included) from the plan's seed. */
static int tensor_fill(struct dfz_exec *ex, const struct dfz_tensor *t,
		       uint64_t seed)
{
	struct dfz_gen g;
	uint8_t *at;

	if (t->bytes == 0)
		return 0;
	dfz_gen_init(&g, seed);
	if (t->level == DFZ_L3) {
		dfz_gen_bytes(&g, ex->fill, t->bytes);
		return dfz_l3_write(ex->rt, t->off, ex->fill, t->bytes);
	}
	at = dfz_mem_ptr(ex->rt, (enum dfz_level)t->level, t->off);
	if (!at)
		return DFZ_EFAULT;
	dfz_gen_bytes(&g, at, t->bytes);
	return 0;
}

/* One adapter per hop, keeping its requests in the hop's local level. */
static void build_adapters(struct dfz_exec *ex, const struct dfz_plan_xfer *x)
{
	memset(ex->ad, 0, sizeof(ex->ad));
	for (unsigned h = 0; h < x->nhops; h++)
		ex->ad[h] = (struct dfz_adapter){
			.rt = ex->rt,
			.engine = x->hop[h].engine,
			.policy = x->hop[h].policy,
			.pool_k = x->hop[h].pool_k,
			.req_level = ex->prog.hop[h].local_level };
}

/* The program, its adapters, and its tensors placed: the input, then per
 * node its aux (add) and its output; inputs filled from the seed. */
static int build_prog(struct dfz_exec *ex, const struct dfz_plan_xfer *x)
{
	struct dfz_prog *p = &ex->prog;
	int rc;

	dfz_plan_prog(x, p);
	build_adapters(ex, x);
	rc = tensor_place(ex, &p->node[0].in);
	if (rc == 0)
		rc = tensor_fill(ex, &p->node[0].in, x->seed);
	for (unsigned k = 0; rc == 0 && k < x->nnodes; k++) {
		struct dfz_node *n = &p->node[k];

		if (k)
			n->in = p->node[k - 1].out;
		if (n->kernel == DFZ_KERNEL_ADD) {
			rc = tensor_place(ex, &n->aux);
			if (rc == 0)
				rc = tensor_fill(ex, &n->aux, x->seed + k + 1);
		}
		if (rc == 0)
			rc = tensor_place(ex, &n->out);
	}
	return rc;
}

/*
 * A plan that got here is legal input (decoded, or normalised, and its
 * tensors placed): a runtime that refuses to run it has a bug, named by
 * the call that refused (rt.refused).
 */
static void refused(struct dfz_exec *ex, int rc, struct dfz_verdict *v)
{
	const char *why = dfz_rt_refusal(ex->rt);
	struct dfz_finding *f = &v->finding;

	v->kind = DFZ_VERDICT_BUG;
	memset(f, 0, sizeof(*f));
	f->cls = DFZ_CLASS_RT_REFUSED;
	snprintf(f->oracle, sizeof(f->oracle), "runtime");
	f->ev = dfz_evidence_none();
	f->ev.step = (int64_t)v->steps;
	if (why)
		snprintf(f->msg, sizeof(f->msg), "the runtime refused a valid "
			 "plan: %s", why);
	else
		snprintf(f->msg, sizeof(f->msg), "the runtime refused a valid "
			 "plan: dfz_prog_run() returned %s", dfz_strerror(rc));
}

static void verdict_of(struct dfz_exec *ex, int rc, struct dfz_verdict *v)
{
	const struct dfz_finding *f = dfz_oracles_finding(ex->oracles);

	v->steps = dfz_rt_now(ex->rt);
	v->xfers = ex->issues;
	if (f) {
		v->kind = DFZ_VERDICT_BUG;
		v->finding = *f;
	} else if (rc < 0 && rc != DFZ_EHANG) {
		refused(ex, rc, v);
	} else {
		v->kind = DFZ_VERDICT_CLEAN;
	}
}

static void run_prog(void *ctx)
{
	struct dfz_exec *ex = ctx;

	ex->run_rc = ex->run_prog(ex->ad, &ex->prog);
}

/*
 * The program, with signals caught when the executor catches them: a
 * signal raised in the runtime becomes a crash finding naming the signal
 * and the transfer, as for host plans. Return false after a crash.
 */
static bool run_guarded(struct dfz_exec *ex)
{
	struct dfz_evidence e = dfz_evidence_none();
	struct dfz__crash cr;

	if (!ex->catch_signals) {
		run_prog(ex);
		return true;
	}
	if (dfz__guard(run_prog, ex, &cr))
		return true;
	e.xfer = ex->issues;
	e.step = (int64_t)dfz_rt_now(ex->rt);
	dfz_oracle_fail(ex->oracles, "signal", DFZ_CLASS_CRASH, &e,
			"%s at address 0x%lx in the runtime during dfz_prog_run(), "
			"after %u transfers", dfz__signal_name(cr.signo),
			(unsigned long)cr.addr, ex->issues);
	return false;
}

void dfz__exec_set_runner(struct dfz_exec *ex, dfz__prog_runner fn)
{
	ex->run_prog = fn ? fn : dfz_prog_run;
}

static int run_xfer(struct dfz_exec *ex, const struct dfz_plan_xfer *x,
		    uint32_t bugs, struct dfz_verdict *v)
{
	struct dfz_rt_config cfg;
	int rc;

	ex->x = x;
	ex->sched_next = 0;
	ex->issues = 0;
	ex->cut = false;
	config_of(ex, x, bugs, &cfg);
	rc = dfz_rt_reset(ex->rt, &cfg);
	if (rc < 0) {
		dfz__verdict_reason(v, "bad runtime configuration: %s",
				    dfz_strerror(rc));
		return v->kind = DFZ_VERDICT_REJECTED;
	}
	dfz_oracles_reset(ex->oracles, ex->rt);
	rc = build_prog(ex, x);
	if (rc < 0) {
		dfz__verdict_reason(v, "tensors do not fit the memory: %s",
				    dfz_strerror(rc));
		return v->kind = DFZ_VERDICT_REJECTED;
	}
	dfz_oracles_begin(ex->oracles, &ex->prog);
	if (!run_guarded(ex))
		rc = 0;         /* the crash is the finding; nothing to end */
	else if ((rc = ex->run_rc) == 0 || rc == DFZ_EHANG)
		/* A run the runtime gave up on (not a hang) wrote no output:
		 * the post-checks would only report that, so it is judged by
		 * what the oracles saw while it ran. */
		dfz_oracles_end(ex->oracles);
	verdict_of(ex, rc, v);
	return v->kind;
}

/* Run a plan that is known to be within the caps (decoded, or normalised). */
static int run_plan(struct dfz_exec *ex, const struct dfz_plan *p,
		    uint32_t bugs, struct dfz_verdict *v)
{
	memset(v, 0, sizeof(*v));
	switch (p->family) {
	case DFZ_FAMILY_XFER:
		return run_xfer(ex, &p->xfer, bugs, v);
	case DFZ_FAMILY_HOST:
	case DFZ_FAMILY_API:
		ex->issues = 0;
		ex->cut = false;
		return dfz__hexec_run(ex->hx, ex->rt, ex->oracles,
				      (struct dfz_observer){ observe, ex }, p,
				      bugs, ex->catch_signals, v);
	default:
		dfz__verdict_reason(v, "unknown plan family %u", p->family);
		return v->kind = DFZ_VERDICT_REJECTED;
	}
}

void dfz_exec_catch_signals(struct dfz_exec *ex, bool on)
{
	ex->catch_signals = on;
}

int dfz_exec_run(struct dfz_exec *ex, const struct dfz_plan *p, uint32_t bugs,
		 struct dfz_verdict *v)
{
	struct dfz_plan norm = *p;

	if (dfz_plan_normalise(&norm) < 0) {
		memset(v, 0, sizeof(*v));
		dfz__verdict_reason(v, "out of memory while normalising the plan");
		return v->kind = DFZ_VERDICT_REJECTED;
	}
	return run_plan(ex, &norm, bugs, v);
}

int dfz_exec_bytes(struct dfz_exec *ex, const uint8_t *buf, size_t n,
		   uint32_t bugs, struct dfz_verdict *v)
{
	struct dfz_plan p;

	dfz_plan_decode(buf, n, &p);
	return run_plan(ex, &p, bugs, v);
}
