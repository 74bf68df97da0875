/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the plan test suites (check_plan.c, check_plan_text.c):
 * a fixed-seed xorshift, random choice streams, the text form of a plan as
 * a string, the range and cap checks every decoded plan passes, and
 * hand-written plans to start from.
 */
#ifndef DMAFUZZ_CHECK_PLAN_H
#define DMAFUZZ_CHECK_PLAN_H

#include <check.h>

#include "plan_int.h"

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_BYTES 300

Suite *suite_plan(void);
Suite *suite_plan_text(void);

uint64_t rng_next(uint64_t *s);
/* A random byte string of at most MAX_BYTES, a quarter of its bytes 0. */
size_t random_bytes(uint64_t *s, uint8_t *buf);
/* The text form of @p; caller owns, release with free(). */
char *print_to_string(const struct dfz_plan *p);
/* Every field in its range, every undrawn field canonical. */
void check_ranges(const struct dfz_plan *p);
/* Every cap and every local fit holds. */
void check_caps(const struct dfz_plan *p);
/* A one-hop ram plan of rank @rank, unit tiles, 16 KiB tensor cap. */
void hand_plan(struct dfz_plan *p, unsigned rank);
/* Make @p two hops, ram then @engine, unit inner tiles, L1 at its cap. */
void two_hops(struct dfz_plan *p, unsigned engine);

#endif /* DMAFUZZ_CHECK_PLAN_H */
