/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the plan test suites (check_plan.c, check_plan_text.c):
 * a fixed-seed xorshift, random choice streams, the text form of a plan as
 * a string, the range and cap checks every decoded plan passes, and
 * hand-written plans to start from. check_plan_host.c shares them too.
 */
#ifndef DMAFUZZ_CHECK_PLAN_H
#define DMAFUZZ_CHECK_PLAN_H

#include <check.h>

#include "plan_int.h"

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_BYTES 300

Suite *suite_plan(void);
Suite *suite_plan_text(void);
Suite *suite_plan_host(void);

uint64_t rng_next(uint64_t *s);
/* A random byte string of at most MAX_BYTES, a quarter of its bytes 0. */
size_t random_bytes(uint64_t *s, uint8_t *buf);
/* The same, of at most @max bytes. */
size_t random_bytes_max(uint64_t *s, uint8_t *buf, size_t max);
/* The text form of @p; caller owns, release with free(). */
char *print_to_string(const struct dfz_plan *p);
/* Every field in its range, every undrawn field canonical (any family). */
void check_ranges(const struct dfz_plan *p);
/* Every cap and every local fit holds (any family). */
void check_caps(const struct dfz_plan *p);
/* The same for the host part of a host or api plan (check_plan_host.c). */
void check_host_ranges(const struct dfz_plan *p);
void check_host_caps(const struct dfz_plan *p);
/* A text that dfz_plan_parse() must reject, on @line, with @needle in
 * its message. */
struct parse_error {
	const char *text;
	unsigned line;
	const char *needle;
};

/* @rc and @err are a one-line DFZ_EINVAL error on @line with @needle. */
void check_parse_error(int rc, const char *err, unsigned line,
		       const char *needle);
/* dfz_plan_parse() rejects @e as it says. */
void check_parse_case(const struct parse_error *e);
/* Parse @text: a plan in range (and under the caps once normalised), or a
 * one-line error. Return: true when it parsed. */
bool parse_any(const char *text);
/* Print @p, overwrite 1 + @round % 3 random bytes of the text, and
 * parse_any() it. */
bool parse_mutated(uint64_t *s, const struct dfz_plan *p, unsigned round);
/* A one-hop ram plan of rank @rank, unit tiles, 16 KiB tensor cap. */
void hand_plan(struct dfz_plan *p, unsigned rank);
/* Make @p two hops, ram then @engine, unit inner tiles, L1 at its cap. */
void two_hops(struct dfz_plan *p, unsigned engine);

#endif /* DMAFUZZ_CHECK_PLAN_H */
