// SPDX-License-Identifier: MIT
/*
 * A reference for free (issue 23 item 5): a differential oracle for test
 * bodies without a golden check of their own. Once per process and test,
 * before its first run, the body runs in an ideal world: every transfer
 * done at its call (the engines drained at every yield), the cores in
 * order (the first ready core always runs), nothing poisoned, every quirk
 * drawn off. The bytes of each output the body names there
 * (DFZ_DROPIN_OUTPUT, DFZ_DROPIN_OUTPUT_L3) are kept; in every later run
 * the k-th output named is compared with the ideal run's k-th. The first
 * differing byte is data.mismatch at the line that named the output,
 * with the byte, its block and the last transfer that wrote it (the
 * earlier call it conflicts with).
 *
 * The ideal run's own verdict is not reported (the schedules' runs report
 * its finding too); the outputs it named before its first finding are the
 * reference, those after are not compared (a request never waited, say,
 * is found only at the end of the body, after its outputs were named).
 */
#include <stdlib.h>
#include <string.h>

#include "dropin_int.h"
#include "golden.h"

#if defined(__SANITIZE_ADDRESS__)
#define NO_ASAN __attribute__((no_sanitize("address")))
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NO_ASAN __attribute__((no_sanitize("address")))
#endif
#endif
#ifndef NO_ASAN
#define NO_ASAN
#endif

#define MAX_OUTPUTS 256
#define MAX_BYTES (64u << 20)   /* the ideal run's outputs, in all */

/* One output the ideal run named. */
struct out {
	int level;                   /* its memory level, -1: host memory */
	uint32_t off;
	size_t n;
	size_t at;                   /* its bytes in golden.bytes */
};

static struct golden {
	struct dfz_dropin_test test; /* the reference is this body's */
	bool made;                   /* the reference is made */
	bool ideal;                  /* the ideal run is running */
	bool entering;               /* ... and its run has not begun */
	bool valid;                  /* a reference to compare with */
	bool cut;                    /* the ideal run had a finding */
	unsigned nout, seen;         /* outputs named: ideal run, this run */
	struct out out[MAX_OUTPUTS];
	uint8_t *bytes;
	size_t nbytes;
	struct dfz_desc *desc;       /* per issue of this run */
} g;

static unsigned ideal_steps(void *ctx, enum dfz_yield where)
{
	(void)ctx;
	(void)where;
	return ~0u; /* as many as the wait bound: till the engines idle */
}

void dfz__golden_config(struct dfz__dropin *d, struct dfz_rt_config *cfg)
{
	(void)d;
	g.seen = 0;
	if (!g.ideal)
		return;
	cfg->sched = ideal_steps;
	cfg->poison_inflight = false;
}

void dfz__golden_begin(struct dfz__dropin *d, const struct dfz_dropin_test *t)
{
	struct dfz__result r;
	bool fuzzing = d->fuzzing;

	if (g.entering) {            /* the ideal run's own begin */
		g.entering = false;
		return;
	}
	g.ideal = false;             /* an ideal run left by a longjmp */
	if (g.made && g.test.body == t->body && g.test.arg == t->arg &&
	    g.test.file == t->file)
		return;
	g = (struct golden){ .test = *t, .made = true, .ideal = true,
			     .entering = true, .bytes = g.bytes,
			     .desc = g.desc };
	d->fuzzing = false;          /* its finding ends nothing */
	dfz__dropin_run(t, NULL, 0, &r);
	d->fuzzing = fuzzing;
	g.ideal = false;
	g.cut = r.finding.cls != DFZ_CLASS_NONE;
	g.valid = g.nout > 0;
	if (g.valid && !g.desc)
		g.desc = calloc(DFZ__DROPIN_SITES, sizeof(*g.desc));
}

void dfz__golden_issue(int64_t xfer, const struct dfz_desc *desc)
{
	if (g.valid && g.desc && xfer >= 0 && xfer < DFZ__DROPIN_SITES)
		g.desc[xfer] = *desc;
}

/* The last transfer of this run (@nissue issues) that wrote @level[@off],
 * or -1. */
static int64_t last_writer(int64_t nissue, int level, uint64_t off)
{
	struct dfz_span s = { .level = (uint8_t)level, .off = (uint32_t)off,
			      .len = 1 };

	if (level < 0 || !g.desc || off > UINT32_MAX)
		return -1;
	if (nissue > DFZ__DROPIN_SITES)
		nissue = DFZ__DROPIN_SITES;
	while (nissue-- > 0)
		if (dfz_desc_writes(&g.desc[nissue], &s))
			return nissue;
	return -1;
}

/* A copy of @n bytes at @p: the output may be an in-flight destination
 * the runtime poisoned for ASan (a wait the body left out). */
NO_ASAN static void read_bytes(uint8_t *dst, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] = p[i];
}

/* The ideal run names output @o with bytes @b. */
static void keep(const struct out *o, const uint8_t *b)
{
	uint8_t *nb;

	if (g.nout == MAX_OUTPUTS || o->n > MAX_BYTES - g.nbytes)
		return;
	nb = realloc(g.bytes, g.nbytes + o->n ? g.nbytes + o->n : 1);
	if (!nb)
		return;
	g.bytes = nb;
	memcpy(g.bytes + g.nbytes, b, o->n);
	g.out[g.nout] = *o;
	g.out[g.nout++].at = g.nbytes;
	g.nbytes += o->n;
}

/* Where byte @i of output @o lies, for the message. */
static void where(const struct out *o, size_t i, char *buf, size_t n)
{
	if (o->level < 0)
		snprintf(buf, n, "host memory");
	else
		snprintf(buf, n, "%s[0x%llx] (the output is the %zu bytes "
			 "from %s[0x%x])", dfz_level_name((unsigned)o->level),
			 (unsigned long long)o->off + i, o->n,
			 dfz_level_name((unsigned)o->level), o->off);
}

/* A run names output @o (bytes @b): compare it with the reference. */
static void compare(struct dfz__dropin *d, unsigned k, const struct out *o,
		    const uint8_t *b)
{
	const struct out *ref = &g.out[k];
	char at[128], by[48] = "no transfer of this run";
	size_t i = 0;
	int64_t w;

	if (k >= g.nout || ref->n != o->n) {
		dfz__dropin_fail(d, DFZ_CLASS_DATA_MISMATCH, "output #%u (%zu "
				 "bytes) is not the ideal run's (%s; expected "
				 "the same outputs in the same order)", k, o->n,
				 k >= g.nout ? "it named fewer" : "another size");
		return;
	}
	while (i < o->n && b[i] == g.bytes[ref->at + i])
		i++;
	if (i == o->n)
		return;
	where(o, i, at, sizeof(at));
	w = last_writer(d->nissue, o->level, (uint64_t)o->off + i);
	if (w >= 0)
		snprintf(by, sizeof(by), "transfer #%lld", (long long)w);
	dfz__sites_prior(d, w);
	dfz__dropin_fail(d, DFZ_CLASS_DATA_MISMATCH, "output #%u differs from "
			 "the ideal run's at byte %zu of %zu, %s: 0x%02x, "
			 "expected 0x%02x; last written by %s (expected "
			 "the bytes of the run with every transfer done at "
			 "its call)", k, i, o->n, at, b[i],
			 g.bytes[ref->at + i], by);
}

/* Output @o with bytes @b named at @s in this run. */
static void named(struct dfz__dropin *d, const struct out *o,
		  const uint8_t *b)
{
	unsigned k = g.seen++;

	if (g.ideal && !d->sited)
		keep(o, b);
	else if (!g.ideal && g.valid && !d->sited && !(g.cut && k >= g.nout))
		compare(d, k, o, b);
}

/* Whether output calls do anything in this run: the reference is being
 * made, or there is one and no verdict yet. */
static struct dfz__dropin *active(struct dfz_site s)
{
	struct dfz__dropin *d = dfz__dropin_get();

	if (!d->in_run)
		return NULL;
	if (!g.ideal && (!g.valid || d->sited)) {
		g.seen++;
		return NULL;
	}
	d->cur = s;
	return d;
}

void dfz_dropin_output(struct dfz_site s, const void *p, size_t n)
{
	struct dfz__dropin *d = active(s);
	struct out o = { -1, 0, n, 0 };
	struct dfz_span sp;
	uint8_t *b;

	if (!d || !dfz__dropin_usable(d, p, n, "the output of "
				      "DFZ_DROPIN_OUTPUT"))
		return;
	if (n <= UINT32_MAX && dfz_mem_locate(d->rt, p, (uint32_t)n, &sp)) {
		o.level = sp.level;
		o.off = sp.off;
	}
	b = malloc(n ? n : 1);
	if (!b)
		return;
	read_bytes(b, p, n);
	named(d, &o, b);
	free(b);
}

void dfz_dropin_output_l3(struct dfz_site s, uint32_t l3, size_t n)
{
	struct dfz__dropin *d = active(s);
	struct out o = { DFZ_L3, l3, n, 0 };
	uint8_t *b;

	if (!d)
		return;
	b = malloc(n ? n : 1);
	if (!b)
		return;
	if (n > UINT32_MAX || dfz_l3_read(d->rt, l3, b, (uint32_t)n) < 0)
		dfz__dropin_fail(d, DFZ_CLASS_DMA_BAD_ADDRESS, "the output "
				 "L3[0x%x] (%zu bytes) lies outside L3 "
				 "(expected an address cl_ram_malloc "
				 "returned)", (unsigned)l3, n);
	else
		named(d, &o, b);
	free(b);
}
