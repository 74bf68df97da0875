// SPDX-License-Identifier: MIT
/*
 * A run's schedule, drawn from its bytes: the engines' steps at each
 * yield, their latency and bandwidth, and the core that runs next. The
 * fuzzers learn the bytes' format from this file's branches, so it keeps
 * its coverage where the run's plumbing (state.c) goes without.
 */
#include "dropin_int.h"

/*
 * v mod m of one schedule byte v (< 256) for 1 <= m <= 256 without a
 * division (a core's pick and a yield's steps take one each):
 * v * ceil(2^16 / m) >> 16 is floor(v / m) exactly there, as the
 * rounding adds less than v / 2^16 < 1 / m.
 */
#define INV1(m) ((65536u + (m) - 1) / (m))
#define INV4(m) INV1(m), INV1((m) + 1), INV1((m) + 2), INV1((m) + 3)
#define INV16(m) INV4(m), INV4((m) + 4), INV4((m) + 8), INV4((m) + 12)
#define INV64(m) INV16(m), INV16((m) + 16), INV16((m) + 32), INV16((m) + 48)
static const uint32_t inv_byte[256] = { /* [m - 1] */
	INV64(1), INV64(65), INV64(129), INV64(193),
};

static uint32_t mod_byte(uint32_t v, uint32_t m)
{
	return v - m * ((v * inv_byte[m - 1]) >> 16);
}

/* As the plan decoder's choice stream: little-endian, as few bytes as the
 * range needs, the simplest value once the bytes ran out. A range of one
 * byte (a core's pick, a yield's steps) takes it without a loop, whose
 * edges would say nothing to the fuzzers. */
uint32_t dfz__dropin_take(struct dfz__dropin *d, uint32_t lo, uint32_t hi)
{
	struct dfz__sched *s = &d->sched;
	uint32_t range = hi - lo, v = 0;
	unsigned k = (unsigned)(32 - __builtin_clz(range | 1) + 7) / 8;

	if (hi <= lo)
		return lo;
	if (s->n - s->at < k) {
		s->at = s->n;
		return lo;
	}
	if (k == 1)
		return lo + mod_byte(s->buf[s->at++], range + 1);
	for (unsigned i = 0; i < k; i++)
		v |= (uint32_t)s->buf[s->at + i] << (8 * i);
	s->at += k;
	return lo + (range == UINT32_MAX ? v : v % (range + 1));
}

/* Engine steps at a yield: mostly a few, sometimes enough to drain. */
static unsigned sched_steps(void *ctx, enum dfz_yield where)
{
	uint32_t v = dfz__dropin_take(ctx, 0, 255);

	(void)where;
	return v < 192 ? v : (v - 191) * 1024u;
}

/* The preset's k-th yield, as the harness cycles a plan's sched. */
static uint32_t preset_at;

static unsigned preset_steps(void *ctx, enum dfz_yield where)
{
	const struct dfz_dropin_schedule *p = &dfz_dropin_schedule;

	(void)ctx, (void)where;
	return p->nsteps ? p->steps[preset_at++ % p->nsteps] : 0;
}

/* The run's latency, bandwidth and steps: the preset's for an empty
 * schedule when the test file has one, else drawn from the bytes. */
void dfz__sched_config(struct dfz__dropin *d, struct dfz_rt_config *cfg)
{
	static const uint32_t bandwidth[] = { 64, 1, 4, 16, 256, 4096 };
	const struct dfz_dropin_schedule *p = &dfz_dropin_schedule;

	preset_at = 0;
	cfg->sched = sched_steps;
	cfg->sched_ctx = d;
	if (p && d->sched.n == 0) {
		cfg->latency = p->latency;
		cfg->bandwidth = p->bandwidth;
		cfg->sched = preset_steps;
		return;
	}
	cfg->latency = dfz__dropin_take(d, 0, 16);
	cfg->bandwidth = bandwidth[dfz__dropin_take(d, 0, 5)];
}

unsigned dfz__sched_core(void *ctx, unsigned nready)
{
	return dfz__dropin_take(ctx, 0, nready - 1);
}
