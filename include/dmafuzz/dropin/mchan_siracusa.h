/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz drop-in for Deeploy's mchan_siracusa.h: the Siracusa cluster's
 * defaults (its MCHAN base address, event-driven waits) over mchan_v7.h,
 * which the model's engine serves whatever they are.
 */
#ifndef DMAFUZZ_DROPIN_MCHAN_SIRACUSA_H
#define DMAFUZZ_DROPIN_MCHAN_SIRACUSA_H

#if !defined(MCHAN_EVENT) && !defined(MCHAN_POLLED)
#define MCHAN_EVENT
#endif

#include "dmafuzz/dropin/mchan_v7.h"

#endif /* DMAFUZZ_DROPIN_MCHAN_SIRACUSA_H */
