/* SPDX-License-Identifier: MIT */
/*
 * The fixture of the tests that drive the runtime's engines directly
 * (check_idma.c, check_mchan.c, check_xfer*.c, check_tile*.c and the
 * device, memory, ram and host tests): one runtime per test file or test,
 * and a scheduler that hands out the steps of a small array, cycled.
 */
#ifndef DFZ_TEST_RT_FIXTURE_H
#define DFZ_TEST_RT_FIXTURE_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime_int.h"

static struct dfz_rt *rt;

static struct {
	const unsigned *v;
	unsigned n;
	unsigned i;
} sched;

static inline void rt_setup(void)
{
	ck_assert_int_eq(dfz_rt_create(&rt), 0);
}

static inline void rt_teardown(void)
{
	dfz_rt_destroy(rt);
	rt = NULL;
}

/* Steps at each yield point: @v[0..n) cycled from the start (n 0: none). */
static inline void sched_set(const unsigned *v, unsigned n)
{
	sched.v = v;
	sched.n = n;
	sched.i = 0;
}

/* The scheduler of a run configured with sched_set(). */
static inline unsigned draw(void *ctx, enum dfz_yield where)
{
	(void)ctx;
	(void)where;
	return sched.n ? sched.v[sched.i++ % sched.n] : 0;
}

/* A buffer of @n bytes in @level filled with a pattern seeded by @seed. */
static inline uint8_t *buffer(enum dfz_level level, uint32_t n, unsigned seed)
{
	void *p;

	ck_assert_int_eq(dfz_local_alloc(rt, level, n, &p), 0);
	for (uint32_t i = 0; i < n; i++)
		((uint8_t *)p)[i] = (uint8_t)(i * seed + seed / 2 + 1);
	return p;
}

#endif /* DFZ_TEST_RT_FIXTURE_H */
