/* SPDX-License-Identifier: MIT */
/*
 * Shared by the adapter suites (check_xfer.c for ram, check_xfer_l1.c for
 * mchan/idma): the naive reference copy every adapter run is compared
 * against, and the schedules the runs are repeated under.
 */
#ifndef DMAFUZZ_TESTS_XFER_REF_H
#define DMAFUZZ_TESTS_XFER_REF_H

#include <stdint.h>

#include "dmafuzz/runtime.h"

/*
 * The naive reference: every byte of every element, one at a time. @ext
 * and @loc are the byte images of the two sides, starting at level offsets
 * @ext_base and @loc_base.
 */
static inline void naive_copy(const struct dfz_xfer *x, uint8_t *ext,
			      uint32_t ext_base, uint8_t *loc, uint32_t loc_base)
{
	uint32_t idx[DFZ_MAX_RANK] = { 0 };
	uint64_t n = 1;

	for (unsigned d = 0; d < x->rank; d++)
		n *= x->shape[d];
	for (uint64_t k = 0; k < n; k++) {
		uint32_t e = x->ext_off - ext_base, l = x->loc_off - loc_base;

		for (unsigned d = 0; d < x->rank; d++) {
			e += idx[d] * x->ext_stride[d];
			l += idx[d] * x->loc_stride[d];
		}
		for (unsigned b = 0; b < x->elem; b++) {
			if (x->ext2loc)
				loc[l + b] = ext[e + b];
			else
				ext[e + b] = loc[l + b];
		}
		for (unsigned d = x->rank; d-- > 0;) {
			if (++idx[d] < x->shape[d])
				break;
			idx[d] = 0;
		}
	}
}

static const unsigned sched_zero[] = { 0 };
static const unsigned sched_mixed[] = { 0, 3, 1, 0, 7, 2, 0, 1 };
static const unsigned sched_busy[] = { 5, 1 };

struct schedule {
	const unsigned *v;
	unsigned n;
};

/* Nothing runs at yields; a mix; the engine mostly ahead. */
static const struct schedule schedules[] = {
	{ sched_zero, 1 },
	{ sched_mixed, sizeof(sched_mixed) / sizeof(sched_mixed[0]) },
	{ sched_busy, 2 },
};

#define NSCHED (sizeof(schedules) / sizeof(schedules[0]))

#endif /* DMAFUZZ_TESTS_XFER_REF_H */
