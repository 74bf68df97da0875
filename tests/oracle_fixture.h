/* SPDX-License-Identifier: MIT */
/*
 * The fixture every oracle test shares (check_oracles.c, check_oracle_
 * proto.c, check_oracle_hazard.c, oracle_engines.h, oracle_host.h): one
 * runtime and one oracle set per test file, a run observed by the oracles
 * of a mask, synthetic events fed straight to the set, a scheduler that
 * steps the engines only when a test asks, and the verdict asserts.
 */
#ifndef DFZ_TEST_ORACLE_FIXTURE_H
#define DFZ_TEST_ORACLE_FIXTURE_H

#include <check.h>
#include <stdint.h>
#include <string.h>

#include "oracle_int.h"

static struct dfz_rt *rt;
static struct dfz_oracles *set;
static unsigned pending_steps;        /* handed out at the next yield */

static inline void rt_setup(void)
{
	ck_assert_int_eq(dfz_rt_create(&rt), 0);
}

static inline void rt_teardown(void)
{
	dfz_oracles_destroy(set);
	set = NULL;
	dfz_rt_destroy(rt);
	rt = NULL;
}

/*
 * oracles_run() - a new run of @cfg observed by the oracles of @mask: the
 * set is kept while the mask stays the same, made anew when it changes,
 * and reset for the run. @cfg's observer is set here.
 */
static inline void oracles_run(uint32_t mask, struct dfz_rt_config *cfg)
{
	if (set && set->mask != mask) {
		dfz_oracles_destroy(set);
		set = NULL;
	}
	if (!set)
		ck_assert_int_eq(dfz_oracles_create(mask, &set), 0);
	cfg->obs = dfz_oracles_observer(set);
	ck_assert_int_eq(dfz_rt_reset(rt, cfg), 0);
	dfz_oracles_reset(set, rt);
	pending_steps = 0;
}

/* A scheduler: the steps step() asks for at the next yield, else none. */
static inline unsigned step_sched(void *ctx, enum dfz_yield where)
{
	unsigned n = pending_steps;

	(void)ctx;
	(void)where;
	pending_steps = 0;
	return n;
}

/* Yield once with @n engine steps (under step_sched). */
static inline void step(unsigned n)
{
	pending_steps = n;
	dfz_rt_yield(rt, DFZ_YIELD_COMPUTE);
}

/* Hand @ev to the oracles as if the runtime had emitted it. */
/* A block of @n bytes allocated in @level: its offset there. */
static inline uint32_t alloc_at(enum dfz_level level, uint32_t n)
{
	struct dfz_span s;
	void *p;

	ck_assert_int_eq(dfz_local_alloc(rt, level, n, &p), 0);
	ck_assert(dfz_mem_locate(rt, p, n, &s));
	return s.off;
}

static inline void feed(const struct dfz_event *ev)
{
	struct dfz_observer obs = dfz_oracles_observer(set);

	obs.fn(obs.ctx, ev);
}

static inline unsigned verdict(void)
{
	const struct dfz_finding *f = dfz_oracles_finding(set);

	return f ? f->cls : DFZ_CLASS_NONE;
}

#define ck_class(want)                                                   \
	ck_assert_msg(verdict() == (want), "expected %s, got %s: %s",     \
		      dfz_class_name(want), dfz_class_name(verdict()),    \
		      verdict() ? set->finding.msg : "(no finding)")

#define ck_msg_has(s)                                                    \
	ck_assert_msg(strstr(set->finding.msg, (s)) != NULL,              \
		      "message '%s' lacks '%s'", set->finding.msg, (s))

#endif /* DFZ_TEST_ORACLE_FIXTURE_H */
