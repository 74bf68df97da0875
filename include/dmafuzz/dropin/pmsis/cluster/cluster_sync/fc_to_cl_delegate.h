/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz drop-in at the PMSIS path pmsis/cluster/cluster_sync/fc_to_cl_delegate.h (pulp-sdk
 * rtos/pmsis/pmsis_api/include, gap_sdk rtos/pmsis/api/include): code
 * that includes it by name gets the drop-in's PMSIS names (pmsis.h).
 */
#ifndef DMAFUZZ_DROPIN_PMSIS_CLUSTER_CLUSTER_SYNC_FC_TO_CL_DELEGATE_H
#define DMAFUZZ_DROPIN_PMSIS_CLUSTER_CLUSTER_SYNC_FC_TO_CL_DELEGATE_H

#include "dmafuzz/dropin/pmsis.h"

#endif /* DMAFUZZ_DROPIN_PMSIS_CLUSTER_CLUSTER_SYNC_FC_TO_CL_DELEGATE_H */
