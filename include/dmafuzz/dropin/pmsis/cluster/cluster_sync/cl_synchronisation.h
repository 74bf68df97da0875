/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz drop-in at the PMSIS path pmsis/cluster/cluster_sync/cl_synchronisation.h (pulp-sdk
 * rtos/pmsis/pmsis_api/include, gap_sdk rtos/pmsis/api/include): code
 * that includes it by name gets the drop-in's PMSIS names (pmsis.h).
 */
#ifndef DMAFUZZ_DROPIN_PMSIS_CLUSTER_CLUSTER_SYNC_CL_SYNCHRONISATION_H
#define DMAFUZZ_DROPIN_PMSIS_CLUSTER_CLUSTER_SYNC_CL_SYNCHRONISATION_H

#include "dmafuzz/dropin/pmsis.h"

#endif /* DMAFUZZ_DROPIN_PMSIS_CLUSTER_CLUSTER_SYNC_CL_SYNCHRONISATION_H */
