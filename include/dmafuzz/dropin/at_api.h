/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz drop-in for the AutoTiler's at_api.h (gap_sdk
 * tools/autotiler_v3/Emulation/at_api.h), which generated kernel files
 * and the SDK's Gap.h include: on the host it is always the drop-in's
 * PMSIS definitions (at_api_pmsis.h), whether or not __EMUL__ is defined
 * (the SDK would take its host emulation, at_api_emul.h, which moves
 * data by memcpy and judges nothing).
 */
#ifndef DMAFUZZ_DROPIN_AT_API_H
#define DMAFUZZ_DROPIN_AT_API_H

#include "dmafuzz/dropin/at_api_pmsis.h"

#endif /* DMAFUZZ_DROPIN_AT_API_H */
