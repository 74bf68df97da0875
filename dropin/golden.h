/* SPDX-License-Identifier: MIT */
/*
 * The ideal run's reference (golden.c): the hooks a run calls. The
 * ideal run is made once per process and test, before the test's first
 * run; every run after compares the outputs its body names.
 */
#ifndef DMAFUZZ_DROPIN_GOLDEN_H
#define DMAFUZZ_DROPIN_GOLDEN_H

#include <stdint.h>

#include "dmafuzz/dropin.h"

struct dfz__dropin;

/** dfz__golden_begin() - a run of @t begins: run the ideal run first
 * when @t has no reference yet (a no-op inside the ideal run). */
void dfz__golden_begin(struct dfz__dropin *d, const struct dfz_dropin_test *t);

/** dfz__golden_config() - the run's engine configuration @cfg, about to
 * be applied: the ideal run's when it is the one starting. */
void dfz__golden_config(struct dfz__dropin *d, struct dfz_rt_config *cfg);

/** dfz__golden_issue() - issue @xfer of this run moves @desc (kept when
 * there is a reference, to name the last transfer that wrote a byte). */
void dfz__golden_issue(int64_t xfer, const struct dfz_desc *desc);

#endif /* DMAFUZZ_DROPIN_GOLDEN_H */
