// SPDX-License-Identifier: MIT
/*
 * Unit tests of the simulated device and its driver (runtime/dev.c,
 * runtime/dev_kernel.c): the device arena (fill, redzones, reset), the
 * argument checks and their order, the budget over user buffers and kernel
 * images at its exact boundary, frees, copy ranges at their exact
 * boundaries, the kernel against a naive implementation of its text
 * (INOUT accumulation, graph redirection, the launch salt), nothing
 * written on error, and the fields of every API_RET event.
 */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "check_fast.h"
#include "rt_fixture.h"

static struct dfz_dev *dev;

#define MAX_EVENTS 1024
#include "ev_seen.h"

/* A new run with device budget @budget and no events recorded yet. */
static void start(uint32_t budget)
{
	struct dfz_rt_config cfg = { .dev_budget = budget,
				     .obs = { .fn = record } };

	ck_assert_int_eq(dfz_rt_reset(rt, &cfg), 0);
	nevents = 0;
}

static void setup(void)
{
	rt_setup();
	dev = dfz_dev_get(rt);
	ck_assert_ptr_nonnull(dev);
	start(DFZ_CAP_DEV_BUDGET);
}

static const struct dfz_event *last(void)
{
	ck_assert_uint_gt(nevents, 0);
	ck_assert_uint_le(nevents, MAX_EVENTS);
	return &events[nevents - 1];
}

/* The last event is the API_RET of @call with code @rc. */
static void assert_ret(enum dfz_api call, int rc)
{
	const struct dfz_event *ev = last();

	ck_assert_uint_eq(ev->kind, DFZ_EV_API_RET);
	ck_assert_int_eq(ev->aux, call);
	ck_assert_int_eq(ev->id, rc);
}

static void assert_span(const struct dfz_span *s, unsigned level,
			uint32_t off, uint32_t len)
{
	ck_assert_uint_eq(s->level, level);
	if (level != DFZ_NOWHERE_LEVEL)
		ck_assert_uint_eq(s->off, off);
	ck_assert_uint_eq(s->len, len);
}

static uint64_t dmalloc(uint64_t size)
{
	uint64_t a = 0;

	CK_CHECK_INT(dfz_dev_malloc(dev, size, &a), ==, 0);
	return a;
}

static uint32_t off_of(uint64_t addr)
{
	return (uint32_t)(addr - DFZ_DEV_BASE);
}

static uint8_t pat(uint32_t i, uint32_t seed)
{
	return (uint8_t)(i * 29u + seed * 101u + 3u);
}

static void fill_pat(uint8_t *p, uint32_t n, uint32_t seed)
{
	for (uint32_t i = 0; i < n; i++)
		p[i] = pat(i, seed);
}

/* A device buffer of @n bytes holding pat(.., @seed). */
static uint64_t dbuf(uint32_t n, uint32_t seed)
{
	static uint8_t tmp[1 << 16];
	uint64_t a = dmalloc(n);

	ck_assert_uint_le(n, sizeof(tmp));
	fill_pat(tmp, n, seed);
	ck_assert_int_eq(dfz_dev_copy_to(dev, a, tmp, n), 0);
	return a;
}

/* ------------------------------------------------ the reference kernel */

/*
 * The kernel text of runtime_host.h, byte by byte, on host copies of the
 * arguments (distinct buffers). Shared with check_host.c.
 */
void ref_kernel(uint8_t *const buf[], const uint32_t bytes[],
		const uint8_t roles[], uint32_t nargs, uint32_t launch,
		uint8_t *graph);

void ref_kernel(uint8_t *const buf[], const uint32_t bytes[],
		const uint8_t roles[], uint32_t nargs, uint32_t launch,
		uint8_t *graph)
{
	int first_out = -1;

	for (uint32_t j = 0; j < nargs; j++)
		if (first_out < 0 && roles[j] == DFZ_ROLE_OUT)
			first_out = (int)j;
	for (uint32_t j = 0; j < nargs; j++) {
		uint8_t *dst = graph && (int)j == first_out ? graph : buf[j];

		if (roles[j] == DFZ_ROLE_IN)
			continue;
		for (uint32_t e = 0; e < bytes[j]; e++) {
			unsigned s = 0, v;

			for (uint32_t i = 0; i < nargs; i++)
				if (roles[i] == DFZ_ROLE_IN)
					s += buf[i][e % bytes[i]];
			v = (s + 13u * launch + 7u * j + e) % 256u;
			if (roles[j] == DFZ_ROLE_OUT)
				dst[e] = (uint8_t)v;
			else
				dst[e] = (uint8_t)((dst[e] + v) % 256u);
		}
	}
}

/* --------------------------------------------------------- device arena */

START_TEST(test_arena_fresh)
{
	static uint8_t buf[1 << 16];
	const uint32_t at[] = { 0, 1 << 20, DFZ_CAP_DEV - sizeof(buf) };

	for (unsigned k = 0; k < 3; k++) {
		ck_assert_int_eq(dfz_dev_peek(dev, DFZ_DEV_BASE + at[k], buf,
					      sizeof(buf)), 0);
		for (uint32_t i = 0; i < sizeof(buf); i++)
			CK_CHECK_UINT(buf[i], ==, dfz_mem_fill_byte(DFZ_DEV_LEVEL,
								    at[k] + i));
	}
	/* Not CPU-addressable, and not a SoC level. */
	ck_assert_ptr_null(dfz_mem_ptr(rt, DFZ_DEV_LEVEL, 0));
	ck_assert_uint_eq(dfz_mem_size(rt, DFZ_DEV_LEVEL), 0);
	ck_assert(!dfz_mem_locate(rt, rt->arena[DFZ_DEV_LEVEL].base + 100, 1,
				  NULL));
	ck_assert_uint_eq(rt->arena[DFZ_DEV_LEVEL].cap, DFZ_CAP_DEV);
	ck_assert_uint_eq(rt->arena[DFZ_DEV_LEVEL].high, 0);
	ck_assert_uint_eq(nevents, 0);
}
END_TEST

START_TEST(test_malloc_layout)
{
	uint8_t rz[DFZ_REDZONE];
	uint64_t a = dmalloc(100);
	uint32_t off = off_of(a);

	ck_assert_uint_ge(a, DFZ_DEV_BASE + 64 + DFZ_REDZONE);
	ck_assert_uint_eq(off % 8, 0);
	ck_assert_int_eq(dfz_dev_peek(dev, a - DFZ_REDZONE, rz, DFZ_REDZONE), 0);
	for (uint32_t k = 0; k < DFZ_REDZONE; k++)
		ck_assert_uint_eq(rz[k], dfz_mem_canary_byte(DFZ_DEV_LEVEL,
							     off - DFZ_REDZONE + k));
	ck_assert_int_eq(dfz_dev_peek(dev, a + 100, rz, DFZ_REDZONE), 0);
	for (uint32_t k = 0; k < DFZ_REDZONE; k++)
		ck_assert_uint_eq(rz[k], dfz_mem_canary_byte(DFZ_DEV_LEVEL,
							     off + 100 + k));
	/* ALLOC from the arena, then the driver's RET. */
	ck_assert_uint_eq(nevents, 2);
	ck_assert_uint_eq(events[0].kind, DFZ_EV_ALLOC);
	assert_span(&events[0].dst, DFZ_DEV_LEVEL, off, 100);
	ck_assert_int_eq(events[0].aux, DFZ_REDZONE);
	assert_ret(DFZ_API_MALLOC, 0);
	assert_span(&last()->dst, DFZ_DEV_LEVEL, off, 100);
	assert_span(&last()->src, DFZ_NOWHERE_LEVEL, 0, 0);
	ck_assert_uint_eq(last()->desc.size, 100);
	ck_assert_ptr_null(last()->handle);
	ck_assert_uint_eq(dfz__dev_live(dev), 100);
	/* The SoC levels are untouched. */
	for (unsigned l = 0; l < DFZ_NLEVELS; l++)
		ck_assert_uint_eq(rt->arena[l].high, 0);
}
END_TEST

/* -------------------------------------------------------------- malloc */

START_TEST(test_malloc_args)
{
	uint64_t a = 42;

	ck_assert_int_eq(dfz_dev_malloc(NULL, 8, &a), DFZ_EINVAL);
	ck_assert_uint_eq(nevents, 0);  /* no runtime to publish through */
	ck_assert_int_eq(dfz_dev_malloc(dev, 0, &a), DFZ_EINVAL);
	assert_ret(DFZ_API_MALLOC, DFZ_EINVAL);
	assert_span(&last()->dst, DFZ_NOWHERE_LEVEL, 0, 0);
	ck_assert_int_eq(dfz_dev_malloc(dev, 8, NULL), DFZ_EINVAL);
	assert_ret(DFZ_API_MALLOC, DFZ_EINVAL);
	ck_assert_uint_eq(last()->desc.size, 8);
	/* Argument checks beat the budget. */
	ck_assert_int_eq(dfz_dev_malloc(dev, 1ull << 40, NULL), DFZ_EINVAL);
	ck_assert_uint_eq(a, 42);
	ck_assert_uint_eq(nevents, 3);
	ck_assert_uint_eq(dfz__dev_live(dev), 0);
}
END_TEST

START_TEST(test_budget_exact)
{
	uint64_t a, b, c, img;
	static const uint8_t bin[97] = { 7 };

	start(4096);
	a = dmalloc(4096);
	ck_assert_int_eq(dfz_dev_malloc(dev, 1, &b), DFZ_ENOMEM);
	assert_ret(DFZ_API_MALLOC, DFZ_ENOMEM);
	assert_span(&last()->dst, DFZ_NOWHERE_LEVEL, 0, 0);
	ck_assert_int_eq(dfz_dev_free(dev, a), 0);
	ck_assert_uint_eq(dfz__dev_live(dev), 0);
	a = dmalloc(4000);
	/* An image counts like a user buffer. */
	ck_assert_int_eq(dfz_dev_register(dev, bin, 97, &img), DFZ_ENOMEM);
	ck_assert_int_eq(dfz_dev_register(dev, bin, 96, &img), 0);
	ck_assert_uint_eq(dfz__dev_live(dev), 4096);
	ck_assert_int_eq(dfz_dev_malloc(dev, 1, &b), DFZ_ENOMEM);
	ck_assert_int_eq(dfz_dev_free(dev, a), 0);
	b = dmalloc(3999);
	c = dmalloc(1);
	ck_assert_uint_ne(b, c);
	ck_assert_uint_eq(dfz__dev_live(dev), 4096);
	/* Sizes that overflow a naive live + size. */
	ck_assert_int_eq(dfz_dev_free(dev, c), 0);
	ck_assert_int_eq(dfz_dev_malloc(dev, UINT64_MAX, &a), DFZ_ENOMEM);
	ck_assert_int_eq(dfz_dev_malloc(dev, 1ull << 40, &a), DFZ_ENOMEM);
	ck_assert_uint_eq(last()->desc.size, UINT32_MAX);
	ck_assert_int_eq(dfz_dev_malloc(dev, (1ull << 32) + 1, &a), DFZ_ENOMEM);
	ck_assert_uint_eq(dfz__dev_live(dev), 4095);
}
END_TEST

START_TEST(test_budget_zero_and_clamp)
{
	struct dfz_rt_config cfg = { .dev_budget = 3u << 20 };
	uint64_t a;

	start(0);
	ck_assert_int_eq(dfz_dev_malloc(dev, 1, &a), DFZ_ENOMEM);
	ck_assert_int_eq(dfz_rt_reset(rt, &cfg), 0);
	ck_assert_uint_eq(rt->cfg.dev_budget, DFZ_CAP_DEV_BUDGET);
	a = dmalloc(DFZ_CAP_DEV_BUDGET);
	ck_assert_int_eq(dfz_dev_malloc(dev, 1, &a), DFZ_ENOMEM);
}
END_TEST

/* The arena fails before the budget: its table of live blocks is full. */
START_TEST(test_arena_table_full)
{
	uint64_t a[DFZ_MAX_ALLOCS], b;

	for (unsigned i = 0; i < DFZ_MAX_ALLOCS; i++)
		a[i] = dmalloc(8);
	ck_assert_int_eq(dfz_dev_malloc(dev, 8, &b), DFZ_ENOMEM);
	ck_assert_uint_eq(dfz__dev_live(dev), 8 * DFZ_MAX_ALLOCS);
	ck_assert_int_eq(dfz_dev_free(dev, a[17]), 0);
	ck_assert_uint_eq(dmalloc(8), a[17]);
}
END_TEST

/* ---------------------------------------------------------------- free */

START_TEST(test_free_rules)
{
	static const uint8_t bin[10] = { 1 };
	uint64_t a = dmalloc(64), img;
	unsigned n;

	ck_assert_int_eq(dfz_dev_register(dev, bin, 10, &img), 0);
	ck_assert_int_eq(dfz_dev_free(NULL, a), DFZ_EINVAL);
	ck_assert_int_eq(dfz_dev_free(dev, 0), DFZ_EINVAL);
	assert_ret(DFZ_API_FREE, DFZ_EINVAL);
	assert_span(&last()->dst, DFZ_NOWHERE_LEVEL, 0, 0);
	ck_assert_int_eq(dfz_dev_free(dev, 12345), DFZ_ENOENT);
	ck_assert_int_eq(dfz_dev_free(dev, DFZ_DEV_BASE + DFZ_CAP_DEV), DFZ_ENOENT);
	assert_span(&last()->dst, DFZ_NOWHERE_LEVEL, 0, 0);
	ck_assert_int_eq(dfz_dev_free(dev, DFZ_DEV_BASE + 200000), DFZ_ENOENT);
	assert_span(&last()->dst, DFZ_DEV_LEVEL, 200000, 0);
	ck_assert_int_eq(dfz_dev_free(dev, a + 8), DFZ_ENOENT);
	ck_assert_int_eq(dfz_dev_free(dev, a - 8), DFZ_ENOENT);
	ck_assert_int_eq(dfz_dev_free(dev, img), DFZ_ENOENT);
	assert_ret(DFZ_API_FREE, DFZ_ENOENT);
	ck_assert_uint_eq(dfz__dev_live(dev), 74);
	n = nevents;
	ck_assert_int_eq(dfz_dev_free(dev, a), 0);
	ck_assert_uint_eq(nevents, n + 2);
	ck_assert_uint_eq(events[n].kind, DFZ_EV_FREE);
	assert_span(&events[n].dst, DFZ_DEV_LEVEL, off_of(a), 64);
	assert_ret(DFZ_API_FREE, 0);
	assert_span(&last()->dst, DFZ_DEV_LEVEL, off_of(a), 0);
	ck_assert_uint_eq(dfz__dev_live(dev), 10);
	ck_assert_int_eq(dfz_dev_free(dev, a), DFZ_ENOENT);
	ck_assert(dfz__dev_is_image(dev, img));
}
END_TEST

/* --------------------------------------------------------------- copies */

START_TEST(test_copy_args)
{
	uint8_t host[8] = { 0 };
	uint64_t a = dmalloc(8);
	unsigned n = nevents;

	ck_assert_int_eq(dfz_dev_copy_to(NULL, a, host, 8), DFZ_EINVAL);
	ck_assert_int_eq(dfz_dev_copy_from(NULL, host, a, 8), DFZ_EINVAL);
	ck_assert_int_eq(dfz_dev_copy_dev(NULL, a, a, 8), DFZ_EINVAL);
	ck_assert_uint_eq(nevents, n);
	/* Argument checks come before the range checks. */
	ck_assert_int_eq(dfz_dev_copy_to(dev, 0, NULL, 8), DFZ_EINVAL);
	assert_ret(DFZ_API_COPY_TO, DFZ_EINVAL);
	ck_assert_int_eq(dfz_dev_copy_to(dev, 0, host, 0), DFZ_EINVAL);
	ck_assert_int_eq(dfz_dev_copy_from(dev, NULL, 0, 8), DFZ_EINVAL);
	assert_ret(DFZ_API_COPY_FROM, DFZ_EINVAL);
	ck_assert_int_eq(dfz_dev_copy_from(dev, host, 0, 0), DFZ_EINVAL);
	ck_assert_int_eq(dfz_dev_copy_dev(dev, 0, 0, 0), DFZ_EINVAL);
	assert_ret(DFZ_API_COPY_DEV, DFZ_EINVAL);
	ck_assert_int_eq(dfz_dev_copy_to(dev, 0, host, 8), DFZ_EFAULT);
	ck_assert_int_eq(dfz_dev_copy_dev(dev, a, a, 8), 0);
	ck_assert_uint_eq(nevents, n + 7);
}
END_TEST

/*
 * The range rules, once per way a copy names device memory: 0 copy_to's
 * destination, 1 copy_from's source, 2 copy_dev's destination, 3 its
 * source (the other side a valid buffer).
 */
static uint64_t other;

static int copy_as(int way, uint64_t addr, uint64_t n)
{
	static uint8_t host[1 << 12];

	switch (way) {
	case 0:
		return dfz_dev_copy_to(dev, addr, host, n);
	case 1:
		return dfz_dev_copy_from(dev, host, addr, n);
	case 2:
		return dfz_dev_copy_dev(dev, addr, other, n);
	default:
		return dfz_dev_copy_dev(dev, other, addr, n);
	}
}

START_TEST(test_copy_ranges)
{
	static const uint8_t bin[32] = { 5 };
	uint64_t a, b, img, gone;

	other = dmalloc(1 << 12);
	a = dmalloc(100);
	b = dmalloc(100);
	gone = dmalloc(50);
	ck_assert_int_eq(dfz_dev_free(dev, gone), 0);
	ck_assert_int_eq(dfz_dev_register(dev, bin, 32, &img), 0);
	ck_assert_int_eq(copy_as(_i, a, 100), 0);
	ck_assert_int_eq(copy_as(_i, a + 99, 1), 0);
	ck_assert_int_eq(copy_as(_i, a + 1, 99), 0);
	ck_assert_int_eq(copy_as(_i, a, 101), DFZ_EFAULT);
	ck_assert_int_eq(copy_as(_i, a + 100, 1), DFZ_EFAULT);
	ck_assert_int_eq(copy_as(_i, a + 1, 100), DFZ_EFAULT);
	ck_assert_int_eq(copy_as(_i, a - 1, 1), DFZ_EFAULT);
	ck_assert_int_eq(copy_as(_i, a + 50, UINT64_MAX), DFZ_EFAULT);
	ck_assert_int_eq(copy_as(_i, a + 50, UINT64_MAX - 49), DFZ_EFAULT);
	/* Two neighbouring blocks are not one range. */
	ck_assert_uint_lt(a, b);
	ck_assert_int_eq(copy_as(_i, a, b + 100 - a), DFZ_EFAULT);
	ck_assert_int_eq(copy_as(_i, b, 100), 0);
	ck_assert_int_eq(copy_as(_i, gone, 1), DFZ_EFAULT);
	ck_assert_int_eq(copy_as(_i, img, 1), DFZ_EFAULT);
	ck_assert_int_eq(copy_as(_i, 0, 1), DFZ_EFAULT);
	ck_assert_int_eq(copy_as(_i, DFZ_DEV_BASE - 1, 1), DFZ_EFAULT);
	ck_assert_int_eq(copy_as(_i, DFZ_DEV_BASE + DFZ_CAP_DEV, 1), DFZ_EFAULT);
	ck_assert_int_eq(copy_as(_i, UINT64_MAX, 1), DFZ_EFAULT);
}
END_TEST

START_TEST(test_copy_bytes)
{
	uint8_t in[300], out[300], probe[400];
	uint64_t a = dmalloc(300), b = dmalloc(300);

	fill_pat(in, 300, 1);
	ck_assert_int_eq(dfz_dev_copy_to(dev, a, in, 300), 0);
	ck_assert_int_eq(dfz_dev_peek(dev, a, probe, 300), 0);
	ck_assert_mem_eq(probe, in, 300);
	ck_assert_int_eq(dfz_dev_copy_dev(dev, b + 10, a, 200), 0);
	memset(out, 0, sizeof(out));
	ck_assert_int_eq(dfz_dev_copy_from(dev, out, b, 300), 0);
	for (uint32_t i = 0; i < 300; i++) {
		uint8_t want = i >= 10 && i < 210 ?
			in[i - 10] : dfz_mem_fill_byte(DFZ_DEV_LEVEL,
							off_of(b) + i);

		CK_CHECK_UINT(out[i], ==, want);
	}
	/* Overlapping device copy behaves as memmove. */
	ck_assert_int_eq(dfz_dev_copy_dev(dev, a + 1, a, 299), 0);
	ck_assert_int_eq(dfz_dev_peek(dev, a + 1, probe, 299), 0);
	ck_assert_mem_eq(probe, in, 299);
	/* The redzones survived. */
	ck_assert_int_eq(dfz_dev_peek(dev, b + 300, probe, DFZ_REDZONE), 0);
	for (uint32_t k = 0; k < DFZ_REDZONE; k++)
		ck_assert_uint_eq(probe[k], dfz_mem_canary_byte(DFZ_DEV_LEVEL,
								off_of(b) + 300 + k));
}
END_TEST

/* A failing copy writes nothing, on either side. */
START_TEST(test_copy_error_writes_nothing)
{
	uint8_t host[200], before[400], after[400];
	uint64_t a = dmalloc(100);

	memset(host, 0x5a, sizeof(host));
	ck_assert_int_eq(dfz_dev_peek(dev, DFZ_DEV_BASE, before, 400), 0);
	ck_assert_int_eq(dfz_dev_copy_to(dev, a, host, 101), DFZ_EFAULT);
	ck_assert_int_eq(dfz_dev_copy_dev(dev, a, a + 1, 100), DFZ_EFAULT);
	ck_assert_int_eq(dfz_dev_copy_from(dev, host, a + 1, 100), DFZ_EFAULT);
	ck_assert_int_eq(dfz_dev_peek(dev, DFZ_DEV_BASE, after, 400), 0);
	ck_assert_mem_eq(before, after, 400);
	for (unsigned i = 0; i < sizeof(host); i++)
		CK_CHECK_UINT(host[i], ==, 0x5a);
}
END_TEST

START_TEST(test_copy_events)
{
	uint8_t host[64] = { 0 };
	uint64_t a = dmalloc(64), b = dmalloc(64);

	ck_assert_int_eq(dfz_dev_copy_to(dev, a + 4, host, 60), 0);
	assert_ret(DFZ_API_COPY_TO, 0);
	ck_assert_ptr_eq(last()->handle, host);
	assert_span(&last()->dst, DFZ_DEV_LEVEL, off_of(a) + 4, 60);
	assert_span(&last()->src, DFZ_NOWHERE_LEVEL, 0, 0);
	ck_assert_uint_eq(last()->desc.size, 60);
	ck_assert_int_eq(dfz_dev_copy_from(dev, host + 1, b, 63), 0);
	assert_ret(DFZ_API_COPY_FROM, 0);
	ck_assert_ptr_eq(last()->handle, host + 1);
	assert_span(&last()->src, DFZ_DEV_LEVEL, off_of(b), 63);
	assert_span(&last()->dst, DFZ_NOWHERE_LEVEL, 0, 0);
	ck_assert_int_eq(dfz_dev_copy_dev(dev, b, a, 64), 0);
	assert_ret(DFZ_API_COPY_DEV, 0);
	ck_assert_ptr_null(last()->handle);
	assert_span(&last()->dst, DFZ_DEV_LEVEL, off_of(b), 64);
	assert_span(&last()->src, DFZ_DEV_LEVEL, off_of(a), 64);
	/* Failed calls name what they were given; sizes saturate. */
	ck_assert_int_eq(dfz_dev_copy_dev(dev, 7, a, 1ull << 40), DFZ_EFAULT);
	assert_ret(DFZ_API_COPY_DEV, DFZ_EFAULT);
	assert_span(&last()->dst, DFZ_NOWHERE_LEVEL, 0, UINT32_MAX);
	assert_span(&last()->src, DFZ_DEV_LEVEL, off_of(a), UINT32_MAX);
	ck_assert_uint_eq(last()->desc.size, UINT32_MAX);
	ck_assert_uint_eq(last()->step, dfz_rt_now(rt));
}
END_TEST

/* ------------------------------------------------------------- register */

START_TEST(test_register)
{
	uint8_t bin[50], probe[50];
	uint64_t img = 0, img2;

	fill_pat(bin, 50, 9);
	ck_assert_int_eq(dfz_dev_register(NULL, bin, 50, &img), DFZ_EINVAL);
	ck_assert_uint_eq(nevents, 0);
	ck_assert_int_eq(dfz_dev_register(dev, NULL, 50, &img), DFZ_EINVAL);
	assert_ret(DFZ_API_REGISTER, DFZ_EINVAL);
	ck_assert_ptr_null(last()->handle);
	ck_assert_int_eq(dfz_dev_register(dev, bin, 0, &img), DFZ_EINVAL);
	ck_assert_int_eq(dfz_dev_register(dev, bin, 50, NULL), DFZ_EINVAL);
	ck_assert_ptr_eq(last()->handle, bin);
	ck_assert_uint_eq(last()->desc.size, 50);
	assert_span(&last()->dst, DFZ_NOWHERE_LEVEL, 0, 0);
	ck_assert_uint_eq(img, 0);
	ck_assert_int_eq(dfz_dev_register(dev, bin, 50, &img), 0);
	assert_ret(DFZ_API_REGISTER, 0);
	assert_span(&last()->dst, DFZ_DEV_LEVEL, off_of(img), 50);
	ck_assert_uint_eq(events[nevents - 2].kind, DFZ_EV_ALLOC);
	ck_assert_int_eq(dfz_dev_peek(dev, img, probe, 50), 0);
	ck_assert_mem_eq(probe, bin, 50);
	/* Every registration is a new image. */
	ck_assert_int_eq(dfz_dev_register(dev, bin, 50, &img2), 0);
	ck_assert_uint_ne(img, img2);
	ck_assert_uint_eq(dfz__dev_live(dev), 100);
	ck_assert(dfz__dev_is_image(dev, img2));
	ck_assert(!dfz__dev_is_image(dev, img2 + 1));
}
END_TEST

START_TEST(test_reset_drops_and_refills)
{
	static const uint8_t bin[64] = { 1, 2, 3 };
	uint8_t junk[256], probe[1 << 12];
	struct dfz_kargs ka = { .nargs = 1, .launch = 1 };
	uint64_t a = dmalloc(256), img, again;
	uint32_t high;

	memset(junk, 0xee, sizeof(junk));
	ck_assert_int_eq(dfz_dev_copy_to(dev, a, junk, 256), 0);
	ck_assert_int_eq(dfz_dev_register(dev, bin, 64, &img), 0);
	high = rt->arena[DFZ_DEV_LEVEL].high;
	ck_assert_uint_ge(high, off_of(img) + 64);
	start(DFZ_CAP_DEV_BUDGET);
	ck_assert_uint_eq(rt->arena[DFZ_DEV_LEVEL].high, 0);
	ck_assert_uint_eq(dfz__dev_live(dev), 0);
	ck_assert(!dfz__dev_is_image(dev, img));
	ck_assert_int_eq(dfz_dev_peek(dev, DFZ_DEV_BASE, probe, high), 0);
	for (uint32_t i = 0; i < high; i++)
		CK_CHECK_UINT(probe[i], ==,
			      dfz_mem_fill_byte(DFZ_DEV_LEVEL, i));
	ck_assert_int_eq(dfz_dev_free(dev, a), DFZ_ENOENT);
	ka.arg[0] = (struct dfz_karg){ a, 8, DFZ_ROLE_OUT };
	ck_assert_int_eq(dfz_dev_launch(dev, img, &ka), DFZ_ENOENT);
	again = dmalloc(256);
	ck_assert_uint_eq(again, a);
}
END_TEST

START_TEST(test_peek)
{
	uint8_t b[4];
	uint64_t a = dmalloc(8);
	unsigned n = nevents;

	ck_assert_int_eq(dfz_dev_peek(dev, DFZ_DEV_BASE - 1, b, 1), DFZ_EFAULT);
	ck_assert_int_eq(dfz_dev_peek(dev, 0, b, 1), DFZ_EFAULT);
	ck_assert_int_eq(dfz_dev_peek(dev, DFZ_DEV_BASE + DFZ_CAP_DEV - 1, b, 1), 0);
	ck_assert_uint_eq(b[0], dfz_mem_fill_byte(DFZ_DEV_LEVEL, DFZ_CAP_DEV - 1));
	ck_assert_int_eq(dfz_dev_peek(dev, DFZ_DEV_BASE + DFZ_CAP_DEV - 1, b, 2),
			 DFZ_EFAULT);
	ck_assert_int_eq(dfz_dev_peek(dev, a, b, UINT64_MAX), DFZ_EFAULT);
	/* No liveness check: freed memory and redzones read fine. */
	ck_assert_int_eq(dfz_dev_free(dev, a), 0);
	n += 2;
	ck_assert_int_eq(dfz_dev_peek(dev, a - 2, b, 4), 0);
	ck_assert_uint_eq(b[0], dfz_mem_canary_byte(DFZ_DEV_LEVEL, off_of(a) - 2));
	ck_assert_uint_eq(nevents, n);
}
END_TEST

/* ---------------------------------------------------------------- launch */

static uint64_t image(void)
{
	static const uint8_t bin[16] = { 0xc3 };
	uint64_t img;

	ck_assert_int_eq(dfz_dev_register(dev, bin, sizeof(bin), &img), 0);
	return img;
}

static void karg(struct dfz_kargs *ka, uint32_t i, uint64_t addr,
		 uint32_t bytes, uint8_t role)
{
	ka->arg[i] = (struct dfz_karg){ addr, bytes, role };
	if (ka->nargs <= i)
		ka->nargs = i + 1;
}

START_TEST(test_launch_checks)
{
	struct dfz_kargs ka = { .launch = 1 };
	uint64_t in = dbuf(32, 1), out = dmalloc(32), img = image(), g;
	uint8_t before[1 << 10], after[1 << 10];

	g = dmalloc(16);
	karg(&ka, 0, in, 32, DFZ_ROLE_IN);
	karg(&ka, 1, out, 32, DFZ_ROLE_OUT);
	ck_assert_int_eq(dfz_dev_peek(dev, DFZ_DEV_BASE, before, sizeof(before)), 0);
	ck_assert_int_eq(dfz_dev_launch(NULL, img, &ka), DFZ_EINVAL);
	ck_assert_int_eq(dfz_dev_launch(dev, img, NULL), DFZ_EINVAL);
	assert_ret(DFZ_API_LAUNCH, DFZ_EINVAL);
	assert_span(&last()->dst, DFZ_DEV_LEVEL, off_of(img), 0);
	/* EINVAL before ENOENT before EFAULT. */
	ka.nargs = 0;
	ck_assert_int_eq(dfz_dev_launch(dev, 0, &ka), DFZ_EINVAL);
	ka.nargs = DFZ_HOST_MAX_ARGS + 1;
	ck_assert_int_eq(dfz_dev_launch(dev, img, &ka), DFZ_EINVAL);
	ka.nargs = 2;
	ka.arg[1].role = DFZ_ROLE_COUNT;
	ck_assert_int_eq(dfz_dev_launch(dev, 0, &ka), DFZ_EINVAL);
	ka.arg[1].role = DFZ_ROLE_OUT;
	ka.arg[0].bytes = 0;
	ck_assert_int_eq(dfz_dev_launch(dev, img, &ka), DFZ_EINVAL);
	ka.arg[0].bytes = 33;
	ck_assert_int_eq(dfz_dev_launch(dev, 0, &ka), DFZ_ENOENT);
	assert_span(&last()->dst, DFZ_NOWHERE_LEVEL, 0, 0);
	ck_assert_int_eq(dfz_dev_launch(dev, img + 1, &ka), DFZ_ENOENT);
	ck_assert_int_eq(dfz_dev_launch(dev, in, &ka), DFZ_ENOENT);
	ck_assert_int_eq(dfz_dev_launch(dev, img, &ka), DFZ_EFAULT);
	ka.arg[0].bytes = 32;
	ka.arg[1].dev = img;
	ck_assert_int_eq(dfz_dev_launch(dev, img, &ka), DFZ_EFAULT);
	ka.arg[1].dev = out;
	/* The graph buffer must hold the first OUT argument's bytes. */
	ka.graph = g;
	ck_assert_int_eq(dfz_dev_launch(dev, img, &ka), DFZ_EFAULT);
	ka.graph = img;
	ck_assert_int_eq(dfz_dev_launch(dev, img, &ka), DFZ_EFAULT);
	ck_assert_int_eq(dfz_dev_peek(dev, DFZ_DEV_BASE, after, sizeof(after)), 0);
	ck_assert_mem_eq(before, after, sizeof(after));
	ka.graph = 0;
	ck_assert_int_eq(dfz_dev_launch(dev, img, &ka), 0);
	assert_ret(DFZ_API_LAUNCH, 0);
	ck_assert_ptr_null(last()->handle);
	ck_assert_uint_eq(last()->desc.size, 0);
}
END_TEST

/* Argument tables of the kernel test: sizes and roles. */
struct kcase {
	uint32_t nargs;
	uint32_t bytes[6];
	uint8_t roles[6];
	bool graph;
};

static const struct kcase kcases[] = {
	{ 2, { 40, 40 }, { DFZ_ROLE_IN, DFZ_ROLE_OUT }, false },
	{ 4, { 3, 100, 7, 64 },
	  { DFZ_ROLE_IN, DFZ_ROLE_OUT, DFZ_ROLE_IN, DFZ_ROLE_INOUT }, false },
	{ 3, { 500, 1, 300 }, { DFZ_ROLE_INOUT, DFZ_ROLE_OUT, DFZ_ROLE_OUT },
	  false },
	{ 5, { 17, 9, 200, 31, 4 },
	  { DFZ_ROLE_INOUT, DFZ_ROLE_IN, DFZ_ROLE_OUT, DFZ_ROLE_OUT,
	    DFZ_ROLE_IN }, true },
	{ 1, { 1000 }, { DFZ_ROLE_OUT }, true },
	{ 2, { 60, 70 }, { DFZ_ROLE_IN, DFZ_ROLE_INOUT }, true },
};

#define NKCASES (sizeof(kcases) / sizeof(kcases[0]))
_Static_assert(NKCASES == 6, "tcase_add_loop_test bound below");

/* Launch salts run: 1, 2, then values that wrap 13 * launch mod 256. */
static const uint32_t salts[] = { 1, 2, 20, 256, 0xffffffffu };

START_TEST(test_launch_kernel)
{
	const struct kcase *k = &kcases[_i];
	static uint8_t ref[6][1000], got[1000], gref[1000];
	uint8_t *bufs[6];
	struct dfz_kargs ka = { .nargs = k->nargs };
	uint64_t img = image(), graph = 0;
	int first_out = -1;

	for (uint32_t i = 0; i < k->nargs; i++) {
		karg(&ka, i, dbuf(k->bytes[i], i + 1), k->bytes[i], k->roles[i]);
		fill_pat(ref[i], k->bytes[i], i + 1);
		bufs[i] = ref[i];
		if (first_out < 0 && k->roles[i] == DFZ_ROLE_OUT)
			first_out = (int)i;
	}
	if (k->graph && first_out >= 0) {
		graph = dbuf(k->bytes[first_out], 77);
		fill_pat(gref, k->bytes[first_out], 77);
	}
	ka.graph = graph;
	for (unsigned s = 0; s < sizeof(salts) / sizeof(salts[0]); s++) {
		ka.launch = salts[s];
		ck_assert_int_eq(dfz_dev_launch(dev, img, &ka), 0);
		ref_kernel(bufs, k->bytes, k->roles, k->nargs, salts[s],
			   graph ? gref : NULL);
		for (uint32_t i = 0; i < k->nargs; i++) {
			ck_assert_int_eq(dfz_dev_copy_from(dev, got, ka.arg[i].dev,
							   k->bytes[i]), 0);
			ck_assert_mem_eq(got, ref[i], k->bytes[i]);
		}
		if (graph) {
			ck_assert_int_eq(dfz_dev_copy_from(dev, got, graph,
							   k->bytes[first_out]), 0);
			ck_assert_mem_eq(got, gref, k->bytes[first_out]);
		}
	}
}
END_TEST

/* The reference itself, on a hand-computed case: it is what the kernel is
 * checked against, so it must be the text and not a copy of the code. */
START_TEST(test_ref_kernel_by_hand)
{
	uint8_t in[2] = { 10, 250 }, out[3] = { 0 }, io[2] = { 100, 200 };
	uint8_t *bufs[3] = { in, out, io };
	const uint32_t bytes[3] = { 2, 3, 2 };
	const uint8_t roles[3] = { DFZ_ROLE_IN, DFZ_ROLE_OUT, DFZ_ROLE_INOUT };

	ref_kernel(bufs, bytes, roles, 3, 1, NULL);
	/* out[e] = in[e % 2] + 13 + 7 + e */
	ck_assert_uint_eq(out[0], 30);
	ck_assert_uint_eq(out[1], (250 + 20 + 1) % 256);
	ck_assert_uint_eq(out[2], 10 + 20 + 2);
	/* io[e] += in[e] + 13 + 14 + e */
	ck_assert_uint_eq(io[0], 100 + 10 + 27);
	ck_assert_uint_eq(io[1], (200 + 250 + 28) % 256);
}
END_TEST

/* Aliased arguments: sums are taken before any write, outputs written in
 * argument order (the reading documented in dev_kernel.c). */
START_TEST(test_launch_alias)
{
	struct dfz_kargs ka = { .launch = 3 };
	uint64_t a = dbuf(8, 4), img = image();
	uint8_t in[8], got[8];

	fill_pat(in, 8, 4);
	karg(&ka, 0, a, 8, DFZ_ROLE_IN);
	karg(&ka, 1, a, 8, DFZ_ROLE_OUT);
	karg(&ka, 2, a, 4, DFZ_ROLE_OUT);
	ck_assert_int_eq(dfz_dev_launch(dev, img, &ka), 0);
	ck_assert_int_eq(dfz_dev_copy_from(dev, got, a, 8), 0);
	for (uint32_t e = 0; e < 8; e++) {
		uint32_t j = e < 4 ? 2 : 1;

		ck_assert_uint_eq(got[e], (uint8_t)(in[e] + 39 + 7 * j + e));
	}
}
END_TEST

/* A graph buffer with no OUT argument is not used (nor checked). */
START_TEST(test_launch_graph_unused)
{
	struct dfz_kargs ka = { .launch = 1, .graph = 12345 };
	uint64_t a = dbuf(8, 2), img = image();

	karg(&ka, 0, a, 8, DFZ_ROLE_INOUT);
	ck_assert_int_eq(dfz_dev_launch(dev, img, &ka), 0);
	ka.arg[0].role = DFZ_ROLE_OUT;
	ck_assert_int_eq(dfz_dev_launch(dev, img, &ka), DFZ_EFAULT);
}
END_TEST

START_TEST(test_launch_touches_for_reset)
{
	struct dfz_kargs ka = { .launch = 1 };
	uint64_t img = image(), out = dmalloc(64);
	uint8_t probe[64];

	/* Drop what the allocations touched, then only the kernel writes. */
	rt->arena[DFZ_DEV_LEVEL].high = 0;
	karg(&ka, 0, out, 64, DFZ_ROLE_OUT);
	ck_assert_int_eq(dfz_dev_launch(dev, img, &ka), 0);
	ck_assert_uint_eq(rt->arena[DFZ_DEV_LEVEL].high, off_of(out) + 64);
	start(DFZ_CAP_DEV_BUDGET);
	ck_assert_int_eq(dfz_dev_peek(dev, out, probe, 64), 0);
	for (uint32_t i = 0; i < 64; i++)
		ck_assert_uint_eq(probe[i],
				  dfz_mem_fill_byte(DFZ_DEV_LEVEL, off_of(out) + i));
}
END_TEST

Suite *suite_dev(void)
{
	Suite *s = suite_create("dev");
	TCase *tc = tcase_create("dev");

	tcase_add_checked_fixture(tc, setup, rt_teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_arena_fresh);
	tcase_add_test(tc, test_malloc_layout);
	tcase_add_test(tc, test_malloc_args);
	tcase_add_test(tc, test_budget_exact);
	tcase_add_test(tc, test_budget_zero_and_clamp);
	tcase_add_test(tc, test_arena_table_full);
	tcase_add_test(tc, test_free_rules);
	tcase_add_test(tc, test_copy_args);
	tcase_add_loop_test(tc, test_copy_ranges, 0, 4);
	tcase_add_test(tc, test_copy_bytes);
	tcase_add_test(tc, test_copy_error_writes_nothing);
	tcase_add_test(tc, test_copy_events);
	tcase_add_test(tc, test_register);
	tcase_add_test(tc, test_reset_drops_and_refills);
	tcase_add_test(tc, test_peek);
	tcase_add_test(tc, test_launch_checks);
	tcase_add_loop_test(tc, test_launch_kernel, 0, NKCASES);
	tcase_add_test(tc, test_ref_kernel_by_hand);
	tcase_add_test(tc, test_launch_alias);
	tcase_add_test(tc, test_launch_graph_unused);
	tcase_add_test(tc, test_launch_touches_for_reset);
	suite_add_tcase(s, tc);
	return s;
}
