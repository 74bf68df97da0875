// SPDX-License-Identifier: MIT
/*
 * Unit tests of cfg.sanitize in the memory model (runtime/mem.c, and
 * poison.c for ASan): the quarantine of freed blocks (no reuse while
 * other room exists, oldest first when none, a DFZ_EV_RECLAIM before a
 * byte is rewritten, its bound, the reset), the fill and freed patterns,
 * determinism, the allocator unchanged with sanitize off, and (in a
 * SAN=asan build) ASan's poisoning of redzones and freed blocks composed
 * with the in-flight poisoning. Each property is asserted through a
 * check that a disabled quarantine (the arena's qcap set to 0) fails.
 */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "rt_fixture.h"

#if defined(__SANITIZE_ADDRESS__)
#define ASAN_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ASAN_BUILD 1
#endif
#endif
#ifdef ASAN_BUILD
#include <sanitizer/asan_interface.h>
#endif

#define NEV 1024
static struct dfz_event ev[NEV];
static unsigned nev;

static void record(void *ctx, const struct dfz_event *e)
{
	(void)ctx;
	if (nev < NEV)
		ev[nev] = *e;
	nev++;
}

/* A run with sanitize @on, L2 limited to @l2 bytes (0: the cap). */
static void run(bool on, uint32_t l2)
{
	struct dfz_rt_config cfg = { .sanitize = on, .obs = { record, NULL } };

	cfg.mem_size[DFZ_L2] = l2;
	nev = 0;
	ck_assert_int_eq(dfz_rt_reset(rt, &cfg), 0);
}

static void setup(void)
{
	rt_setup();
	run(true, 0);
}

/* A byte of an arena, read past ASan's checks (it may be poisoned). */
DFZ__NO_ASAN static uint8_t peek(enum dfz_level l, uint32_t off)
{
	return *(volatile uint8_t *)(rt->arena[l].base + off);
}

static uint32_t alloc(enum dfz_level l, uint32_t size)
{
	uint32_t off = 0;

	ck_assert_int_eq(dfz__mem_alloc(rt, l, size, 0, &off), 0);
	return off;
}

static void release(enum dfz_level l, uint32_t off)
{
	ck_assert_int_eq(dfz__mem_free(rt, l, off), 0);
}

/* Events of @kind since event @from, their dst.off into @offs (in order).
 * Return: how many. */
static unsigned offs_of(unsigned from, enum dfz_ev_kind kind, uint32_t *offs,
			unsigned max)
{
	unsigned n = 0;

	ck_assert_uint_le(nev, NEV);
	for (unsigned i = from; i < nev; i++)
		if (ev[i].kind == kind && n < max)
			offs[n++] = ev[i].dst.off;
	return n;
}

/* Bytes of [off, off + n) of @l that differ from the freed (@freed) or
 * the fill pattern. */
static uint32_t off_pattern(enum dfz_level l, uint32_t off, uint32_t n,
			    bool freed)
{
	uint32_t bad = 0;

	for (uint32_t k = off; k < off + n; k++)
		bad += peek(l, k) != (freed ? dfz_mem_freed_byte(l, k) :
					      dfz_mem_fill_byte(l, k));
	return bad;
}

/* ------------------------------------------------------------ patterns */

START_TEST(test_freed_byte_distinct)
{
	for (unsigned l = 0; l < DFZ_NLEVELS; l++)
		for (uint32_t off = 0; off < 70000; off += 7) {
			uint8_t f = dfz_mem_freed_byte(l, off);

			ck_assert_uint_ne(f, dfz_mem_fill_byte(l, off));
			ck_assert_uint_ne(f, dfz_mem_canary_byte(l, off));
		}
}
END_TEST

/* A freed block holds the freed pattern; a fresh block on storage that
 * held another block's bytes holds the fill pattern. */
static void patterns_at(enum dfz_level l)
{
	uint32_t a = alloc(l, 100), b;

	memset(rt->arena[l].base + a, 0x5a, 100);
	release(l, a);
	ck_assert_uint_eq(off_pattern(l, a, 100, true), 0);
	run(true, 0);
	b = alloc(l, 100);
	ck_assert_uint_eq(b, a); /* the reset emptied the quarantine */
	ck_assert_uint_eq(off_pattern(l, b, 100, false), 0);
	memset(rt->arena[l].base + b, 0x5a, 100);
	rt->arena[l].qcap = 0; /* reused at once: still fill, not 0x5a */
	release(l, b);
	ck_assert_uint_eq(alloc(l, 100), b);
	ck_assert_uint_eq(off_pattern(l, b, 100, false), 0);
}

START_TEST(test_patterns)
{
	patterns_at((enum dfz_level)_i);
}
END_TEST

/* With sanitize off, nothing of the above: a freed block keeps its bytes
 * and its storage is handed out again at once, no RECLAIM. */
START_TEST(test_off_unchanged)
{
	uint32_t a, offs[4];

	run(false, 0);
	a = alloc(DFZ_L2, 100);
	memset(rt->arena[DFZ_L2].base + a, 0x5a, 100);
	release(DFZ_L2, a);
	ck_assert_uint_eq(alloc(DFZ_L2, 100), a);
	for (uint32_t k = 0; k < 100; k++)
		ck_assert_uint_eq(peek(DFZ_L2, a + k), 0x5a);
	ck_assert_uint_eq(offs_of(0, DFZ_EV_RECLAIM, offs, 4), 0);
	ck_assert_uint_eq(rt->arena[DFZ_L2].nquar, 0);
}
END_TEST

/* The device arena (the host side's) is served as without sanitize. */
START_TEST(test_dev_untouched)
{
	uint32_t a = alloc(DFZ_DEV_LEVEL, 64), offs[4];

	release(DFZ_DEV_LEVEL, a);
	ck_assert_uint_eq(alloc(DFZ_DEV_LEVEL, 64), a);
	ck_assert_uint_eq(rt->arena[DFZ_DEV_LEVEL].nquar, 0);
	ck_assert_uint_eq(offs_of(0, DFZ_EV_RECLAIM, offs, 4), 0);
}
END_TEST

/* --------------------------------------------------------- quarantine */

/* Free a block, allocate the same size: true when the new block keeps
 * clear of the freed one's storage and no RECLAIM was emitted. */
static bool kept_apart(enum dfz_level l)
{
	uint32_t a = alloc(l, 64), b, offs[4];
	unsigned from = nev;

	release(l, a);
	b = alloc(l, 64);
	return (b >= a + 64 + 2 * DFZ_REDZONE || b + 64 + 2 * DFZ_REDZONE <= a) &&
	       offs_of(from, DFZ_EV_RECLAIM, offs, 4) == 0 &&
	       off_pattern(l, a, 64, true) == 0;
}

START_TEST(test_no_reuse_while_room)
{
	ck_assert(kept_apart((enum dfz_level)_i));
}
END_TEST

/* Sabotage: with the quarantine disabled the same check fails. */
START_TEST(test_sabotage_no_quarantine)
{
	rt->arena[_i].qcap = 0;
	ck_assert(!kept_apart((enum dfz_level)_i));
}
END_TEST

/* L2 holds four 96-byte blocks exactly (each 128 bytes of storage). */
#define BLK 96u
#define STORE (BLK + 2 * DFZ_REDZONE)
#define FOUR (DFZ__MEM_RESERVED + 4 * STORE)

/* Room only by reclaiming: oldest first, only the blocks overlapped, the
 * RECLAIM of each before the ALLOC (and before its bytes change). */
START_TEST(test_reuse_when_full)
{
	uint32_t b[4], offs[8], got;
	unsigned from;

	run(true, FOUR);
	for (unsigned i = 0; i < 4; i++)
		b[i] = alloc(DFZ_L2, BLK);
	ck_assert_int_eq(dfz__mem_alloc(rt, DFZ_L2, 1, 0, &got), DFZ_ENOMEM);
	release(DFZ_L2, b[0]);
	release(DFZ_L2, b[2]);
	release(DFZ_L2, b[1]);
	from = nev;
	got = alloc(DFZ_L2, 2 * STORE - 2 * DFZ_REDZONE); /* b0's and b1's */
	ck_assert_uint_eq(got, b[0]);
	ck_assert_uint_eq(offs_of(from, DFZ_EV_RECLAIM, offs, 8), 2);
	ck_assert_uint_eq(offs[0], b[0]); /* freed first */
	ck_assert_uint_eq(offs[1], b[1]);
	ck_assert_uint_eq(ev[nev - 1].kind, DFZ_EV_ALLOC);
	ck_assert_uint_eq(ev[from].kind, DFZ_EV_RECLAIM);
	ck_assert_uint_eq(ev[from].dst.len, BLK);
	/* b2 was let go in the search but not overlapped: still held */
	ck_assert_uint_eq(rt->arena[DFZ_L2].nquar, 1);
	ck_assert_uint_eq(off_pattern(DFZ_L2, b[2], BLK, true), 0);
	from = nev;
	ck_assert_uint_eq(alloc(DFZ_L2, BLK), b[2]);
	ck_assert_uint_eq(offs_of(from, DFZ_EV_RECLAIM, offs, 8), 1);
	ck_assert_uint_eq(offs[0], b[2]);
	ck_assert_int_eq(dfz__mem_alloc(rt, DFZ_L2, 1, 0, &got), DFZ_ENOMEM);
}
END_TEST

/* The RECLAIM comes while the reclaimed bytes still hold the freed
 * pattern: an observer that reads them then sees it. */
static unsigned reclaim_seen_freed;

static void check_at_reclaim(void *ctx, const struct dfz_event *e)
{
	record(ctx, e);
	if (e->kind == DFZ_EV_RECLAIM &&
	    off_pattern(e->dst.level, e->dst.off, e->dst.len, true) == 0)
		reclaim_seen_freed++;
}

START_TEST(test_reclaim_before_rewrite)
{
	struct dfz_rt_config cfg = { .sanitize = true,
				     .obs = { check_at_reclaim, NULL } };
	uint32_t b[4];

	cfg.mem_size[DFZ_L2] = FOUR;
	ck_assert_int_eq(dfz_rt_reset(rt, &cfg), 0);
	reclaim_seen_freed = 0;
	for (unsigned i = 0; i < 4; i++)
		b[i] = alloc(DFZ_L2, BLK);
	release(DFZ_L2, b[3]);
	ck_assert_uint_eq(alloc(DFZ_L2, 8), b[3]);
	ck_assert_uint_eq(reclaim_seen_freed, 1);
}
END_TEST

/* The FIFO's bound: the free that overfills it sends the oldest out at
 * once, with its RECLAIM; later frees one each. */
START_TEST(test_quarantine_bound)
{
	uint32_t first = 0, offs[4];
	unsigned from = 0;

	for (unsigned i = 0; i <= DFZ__QUARANTINE; i++) {
		uint32_t a = alloc(DFZ_L1, 8);

		if (i == 0)
			first = a;
		from = nev;
		release(DFZ_L1, a);
		ck_assert_uint_eq(offs_of(from, DFZ_EV_RECLAIM, offs, 4),
				  i == DFZ__QUARANTINE);
	}
	ck_assert_uint_eq(offs[0], first);
	ck_assert_uint_eq(ev[nev - 1].kind, DFZ_EV_RECLAIM);
	ck_assert_uint_eq(ev[nev - 2].kind, DFZ_EV_FREE);
	ck_assert_uint_eq(rt->arena[DFZ_L1].nquar, DFZ__QUARANTINE);
	/* its storage is free again, the lowest fit */
	ck_assert_uint_eq(alloc(DFZ_L1, 8), first);
}
END_TEST

START_TEST(test_reset_empties)
{
	uint32_t a = alloc(DFZ_L3, 4096);

	release(DFZ_L3, a);
	ck_assert_uint_eq(rt->arena[DFZ_L3].nquar, 1);
	run(true, 0);
	ck_assert_uint_eq(rt->arena[DFZ_L3].nquar, 0);
	ck_assert_uint_eq(alloc(DFZ_L3, 4096), a);
	ck_assert_uint_eq(off_pattern(DFZ_L3, a, 4096, false), 0);
}
END_TEST

/* A mixed sequence, twice: the same addresses and the same events. */
static unsigned sequence(uint32_t *out)
{
	uint32_t live[16];
	unsigned n = 0, nl = 0;

	run(true, 2048);
	for (unsigned i = 0; i < 60; i++) {
		uint32_t size = 8 + (i * 37) % 200, off;

		if (nl == 16 || (nl > 0 && i % 3 == 2)) {
			unsigned k = (i * 7) % nl;

			release(DFZ_L2, live[k]);
			live[k] = live[--nl];
		}
		if (dfz__mem_alloc(rt, DFZ_L2, size, 0, &off) == 0)
			live[nl++] = out[n++] = off;
		else
			out[n++] = 0;
	}
	return n;
}

START_TEST(test_deterministic)
{
	uint32_t a[64], b[64];
	struct dfz_event first[NEV];
	unsigned na, nfirst, reclaims = 0;

	na = sequence(a);
	nfirst = nev < NEV ? nev : NEV;
	memcpy(first, ev, nfirst * sizeof(ev[0]));
	ck_assert_uint_eq(sequence(b), na);
	ck_assert_mem_eq(a, b, na * sizeof(a[0]));
	ck_assert_uint_eq(nev, nfirst);
	for (unsigned i = 0; i < nfirst; i++) {
		ck_assert_uint_eq(ev[i].kind, first[i].kind);
		ck_assert_uint_eq(ev[i].dst.off, first[i].dst.off);
		reclaims += ev[i].kind == DFZ_EV_RECLAIM;
	}
	ck_assert_uint_gt(reclaims, 0); /* the sequence ran out of room */
}
END_TEST

/* ---------------------------------------------------------------- ASan */

#ifdef ASAN_BUILD
static bool poisoned(enum dfz_level l, uint32_t off)
{
	return __asan_address_is_poisoned(rt->arena[l].base + off);
}

/* Exactly the user region addressable; the redzones poisoned. */
static void live_shape(enum dfz_level l, uint32_t off, uint32_t size)
{
	ck_assert(poisoned(l, off - DFZ_REDZONE));
	ck_assert(poisoned(l, off - 1));
	ck_assert(!poisoned(l, off));
	ck_assert(!poisoned(l, off + size - 1));
	ck_assert(poisoned(l, off + size));
	ck_assert(poisoned(l, off + size + DFZ_REDZONE - 1));
}

START_TEST(test_asan_blocks)
{
	enum dfz_level l = (enum dfz_level)_i;
	uint32_t a = alloc(l, 100), b;

	live_shape(l, a, 100);
	release(l, a);
	ck_assert(poisoned(l, a));
	ck_assert(poisoned(l, a + 99));
	b = alloc(l, 100);
	live_shape(l, b, 100);
	ck_assert(poisoned(l, a)); /* still in quarantine */
	run(true, 0);
	ck_assert(!poisoned(l, a));
	ck_assert(!poisoned(l, a - 1));
	ck_assert(!poisoned(l, b + 100));
	/* sanitize off: nothing poisoned */
	run(false, 0);
	a = alloc(l, 100);
	ck_assert(!poisoned(l, a - 1));
	release(l, a);
	ck_assert(!poisoned(l, a));
}
END_TEST

/* In-flight poisoning and the quarantine compose: a block freed while a
 * transfer into it is in flight stays poisoned when the wait releases
 * the transfer's mark; a reclaimed block is addressable again. */
START_TEST(test_asan_inflight)
{
	struct dfz_rt_config cfg = { .sanitize = true, .poison_inflight = true };
	static char handle;
	struct dfz_event e = { .kind = DFZ_EV_ISSUE, .engine = DFZ_ENGINE_RAM,
			       .handle = &handle };
	uint32_t a;

	cfg.mem_size[DFZ_L2] = FOUR;
	ck_assert_int_eq(dfz_rt_reset(rt, &cfg), 0);
	a = alloc(DFZ_L2, BLK);
	e.desc = (struct dfz_desc){ .ext2loc = true, .loc_level = DFZ_L2,
				    .loc_off = a, .ext_level = DFZ_L3,
				    .size = BLK };
	dfz__poison_event(rt, &e);
	ck_assert(poisoned(DFZ_L2, a));
	release(DFZ_L2, a);
	e.kind = DFZ_EV_COMPLETE;
	dfz__poison_event(rt, &e);
	e.kind = DFZ_EV_WAITED;
	dfz__poison_event(rt, &e);
	ck_assert(poisoned(DFZ_L2, a)); /* freed: the wait does not lift it */
	for (unsigned i = 0; i < 3; i++)
		alloc(DFZ_L2, BLK);
	ck_assert_uint_eq(alloc(DFZ_L2, BLK), a); /* reclaimed */
	live_shape(DFZ_L2, a, BLK);
	dfz_rt_poison_stop(rt); /* the verdict: every poisoning lifted */
	ck_assert(!poisoned(DFZ_L2, a - 1));
}
END_TEST
#endif

Suite *suite_mem_sanitize(void)
{
	Suite *s = suite_create("mem_sanitize");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, rt_teardown);
	tcase_add_test(tc, test_freed_byte_distinct);
	tcase_add_loop_test(tc, test_patterns, DFZ_L3, DFZ_L1 + 1);
	tcase_add_test(tc, test_off_unchanged);
	tcase_add_test(tc, test_dev_untouched);
	tcase_add_loop_test(tc, test_no_reuse_while_room, DFZ_L3, DFZ_L1 + 1);
	tcase_add_loop_test(tc, test_sabotage_no_quarantine, DFZ_L3,
			    DFZ_L1 + 1);
	tcase_add_test(tc, test_reuse_when_full);
	tcase_add_test(tc, test_reclaim_before_rewrite);
	tcase_add_test(tc, test_quarantine_bound);
	tcase_add_test(tc, test_reset_empties);
	tcase_add_test(tc, test_deterministic);
#ifdef ASAN_BUILD
	tcase_add_loop_test(tc, test_asan_blocks, DFZ_L2, DFZ_L1 + 1);
	tcase_add_test(tc, test_asan_inflight);
#endif
	suite_add_tcase(s, tc);
	return s;
}
