/* SPDX-License-Identifier: MIT */
/*
 * Shared by the drop-in suites: one run of a test body on the empty
 * schedule with quirk settings for that run only, a byte pattern, and
 * the host's write of that pattern into L3 (a board's loader putting an
 * input there: a body moves only bytes someone wrote, mem.undefined).
 */
#ifndef DFZ_TESTS_DROPIN_FIXTURE_H
#define DFZ_TESTS_DROPIN_FIXTURE_H

#include <check.h>

#include "dropin_int.h"
#include "runtime_int.h"

/* @body run once with @quirks over the process's settings, which are
 * restored after. */
static inline struct dfz__result run_with(void (*body)(void *),
					  const char *quirks)
{
	struct dfz_dropin_test t = { body, NULL, __FILE__ };
	struct dfz__result r;
	struct dfz__dropin *d = dfz__dropin_get();
	struct dfz__quirks keep = d->base;

	ck_assert_int_eq(dfz_dropin_quirks(quirks), 0);
	dfz__dropin_run(&t, NULL, 0, &r);
	d->base = keep;
	return r;
}

/* Whether @n bytes at @a and @b are equal, read past ASan's poisoning
 * (memcmp is intercepted whoever calls it). */
DFZ__NO_ASAN static inline bool same_bytes(const volatile uint8_t *a,
				      const volatile uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

static inline void fill(uint8_t *p, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(i * 7 + 3);
}

/* Write fill()'s pattern into @n bytes of L3 at @l3, as the host would
 * before the program runs. */
static inline void l3_fill(uint32_t l3, unsigned n)
{
	uint8_t buf[256];

	for (unsigned at = 0; at < n; at += sizeof(buf)) {
		unsigned k = n - at < sizeof(buf) ? n - at : sizeof(buf);

		fill(buf, k);
		ck_assert_int_eq(dfz_dropin_l3_write(l3 + at, buf, k), 0);
	}
}

#endif /* DFZ_TESTS_DROPIN_FIXTURE_H */
