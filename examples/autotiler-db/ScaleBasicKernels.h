/* SPDX-License-Identifier: MIT */
/*
 * The basic kernel of the example, in the shape of the AutoTiler's kernel
 * libraries: an argument struct, a function every core of the team runs
 * on its share, and the core queries and placements the SDK's Gap
 * headers define.
 */
#ifndef SCALE_BASIC_KERNELS_H
#define SCALE_BASIC_KERNELS_H

#include "at_api.h"

#define gap_ncore() AT_NCORE()
#define gap_coreid() AT_COREID()
#define __CALL(Entry, Arg)
#define L2_MEM
#define L1_CL_MEM

typedef struct {
	unsigned char *__restrict__ In;
	unsigned char *__restrict__ Out;
	unsigned char *__restrict__ Bias;
	unsigned char *__restrict__ Mul;
	unsigned int Size;
} KerScale_ArgT;

void KerScale(KerScale_ArgT *Arg);

#endif
