// SPDX-License-Identifier: MIT
/*
 * The executor of the host and api families: a user of the host runtime.
 * It fills the host tensors and the kernel binary from the plan's seed,
 * stages the child tensors on the device, builds the host program (host:
 * init, the launches, validate, finalize; api: the plan's calls) and
 * performs its calls with the faults the plan asks for, as plain calls to
 * the driver and the host runtime. The oracles get the program as the
 * specification of the run. Buffers are allocated once; a run touches only
 * what its tensors use.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness_int.h"

/* The host tensors, with DFZ_HOST_GAP bytes after each. */
#define HOST_BYTES (DFZ_CAP_HOST_TOTAL + DFZ_HOST_MAX_ARGS * DFZ_HOST_GAP)

struct dfz__hexec {
	struct dfz_host_prog prog;
	struct dfz_host_layout lay;
	uint64_t slot[DFZ_HOST_SLOTS];    /* api: user device buffers */
	struct dfz_rt *rt;                /* current run */
	struct dfz_oracles *set;
	struct dfz_dev *dev;
	struct dfz_host *host;
	unsigned call;                    /* call being performed */
	uint8_t bin[DFZ_CAP_BIN];
	uint8_t scratch[DFZ_HOST_MAX_TENSOR]; /* api copies' host side */
	uint8_t mem[HOST_BYTES];          /* host tensors */
};

int dfz__hexec_create(struct dfz__hexec **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : DFZ_ENOMEM;
}

void dfz__hexec_destroy(struct dfz__hexec *hx)
{
	free(hx);
}

/* splitmix64: the fill of tensors and binary from the plan's seed. */
static uint64_t mix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Each draw gives eight bytes, the high one first. */
static void fill(uint8_t *dst, uint32_t n, uint64_t seed)
{
	uint64_t s = seed, z = 0;

	for (uint32_t i = 0; i < n; i++, z <<= 8) {
		if (i % 8 == 0)
			z = mix64(&s);
		dst[i] = (uint8_t)(z >> 56);
	}
}

/* ------------------------------------------------------- the program */

/*
 * Host tensors get their storage, child tensors a staged device buffer
 * holding their initial bytes (the user's, before the program starts).
 * Return: 0, or the driver's code when a child does not fit the device.
 */
static int place_tensors(struct dfz__hexec *hx)
{
	struct dfz_host_prog *p = &hx->prog;
	int rc;

	for (unsigned i = 0; i < p->ntensors; i++) {
		struct dfz_host_tensor *t = &p->t[i];
		uint32_t at = hx->lay.at[i];

		if (!t->arg.child_memory) {
			if ((uint64_t)at + t->bytes > HOST_BYTES)
				return DFZ_ENOMEM;
			fill(hx->mem + at, t->bytes, hx->lay.seed[i]);
			t->arg.data = (uint64_t)(uintptr_t)(hx->mem + at);
			continue;
		}
		rc = dfz_dev_malloc(hx->dev, t->bytes, &t->arg.data);
		if (rc < 0)
			return rc;
		fill(hx->scratch, t->bytes, hx->lay.seed[i]);
		rc = dfz_dev_copy_to(hx->dev, t->arg.data, hx->scratch,
				     t->bytes);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* ---------------------------------------------------------- the calls */

/* The program's calls, in order (the guarded part of a run); a RUN
 * call's launches each report their code. */
static void perform(void *ctx)
{
	struct dfz__hexec *hx = ctx;
	struct dfz_host_io io = { .bin = hx->bin, .scratch = hx->scratch,
				  .slot = hx->slot };
	struct dfz_host_act a;

	for (; hx->call < hx->prog.ncalls; hx->call++) {
		dfz_host_act_of(&hx->prog, hx->call, &a);
		for (uint32_t r = 0; r < a.times; r++)
			dfz_oracles_returned(hx->set, hx->call, r,
					     dfz_host_act_perform(hx->rt, &a, &io));
	}
}

/* ------------------------------------------------------------ the run */

static void crash_finding(struct dfz__hexec *hx, struct dfz_oracles *set,
			  const struct dfz__crash *cr)
{
	struct dfz_evidence ev = dfz_evidence_none();
	const struct dfz_host_call *c = &hx->prog.call[hx->call];
	char where[32] = "an unmapped address";

	if (cr->addr < 4096)
		snprintf(where, sizeof(where), "address 0x%lx",
			 (unsigned long)cr->addr);
	ev.xfer = hx->call;
	ev.step = (int64_t)dfz_rt_now(hx->rt);
	dfz_oracle_fail(set, "signal", DFZ_CLASS_CRASH, &ev,
			"%s at %s in the runtime during call %u (%s)",
			dfz__signal_name(cr->signo), where, hx->call,
			dfz_api_name(c->op));
}

int dfz__hexec_run(struct dfz__hexec *hx, struct dfz_rt *rt,
		   struct dfz_oracles *set, struct dfz_observer obs,
		   const struct dfz_plan *p, uint32_t bugs, bool catch,
		   struct dfz_verdict *v)
{
	const struct dfz_plan_host *h = &p->host;
	struct dfz_rt_config cfg;
	const struct dfz_finding *f;
	struct dfz__crash cr;
	int rc;

	memset(&cfg, 0, sizeof(cfg));
	cfg.dev_budget = h->budget;
	cfg.bandwidth = 1;
	cfg.wait_bound = 1;
	cfg.bugs = bugs;
	cfg.obs = obs;
	rc = dfz_rt_reset(rt, &cfg);
	if (rc < 0) {
		dfz__verdict_reason(v, "bad runtime configuration: %s",
				    dfz_strerror(rc));
		return v->kind = DFZ_VERDICT_REJECTED;
	}
	dfz_oracles_reset(set, rt);
	dfz_plan_host_prog(p, &hx->prog, &hx->lay);
	memset(hx->slot, 0, sizeof(hx->slot));
	hx->rt = rt;
	hx->set = set;
	hx->dev = dfz_dev_get(rt);
	hx->host = dfz_host_get(rt);
	hx->call = 0;
	rc = place_tensors(hx);
	if (rc < 0) {
		dfz__verdict_reason(v, "the child tensors do not fit the "
				    "device: %s", dfz_strerror(rc));
		return v->kind = DFZ_VERDICT_REJECTED;
	}
	fill(hx->bin, h->bin_size, hx->lay.bin_seed);
	hx->prog.bin = hx->bin;
	dfz_oracles_begin_host(set, &hx->prog);
	if (!catch)
		perform(hx);
	else if (!dfz__guard(perform, hx, &cr))
		crash_finding(hx, set, &cr);
	dfz_oracles_end(set);
	f = dfz_oracles_finding(set);
	v->steps = dfz_rt_now(rt);
	v->xfers = hx->prog.ncalls;
	if (f) {
		v->kind = DFZ_VERDICT_BUG;
		v->finding = *f;
	} else {
		v->kind = DFZ_VERDICT_CLEAN;
	}
	return v->kind;
}
