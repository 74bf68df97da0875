/* SPDX-License-Identifier: MIT */
/*
 * The basic kernel of the example, in the shape of the AutoTiler's kernel
 * libraries: an argument struct, a function every core of the team runs
 * on its share (gap_ncore(), gap_coreid() and __CALL come with
 * at_api.h, as generated GAP9 files take them).
 */
#ifndef SCALE_BASIC_KERNELS_H
#define SCALE_BASIC_KERNELS_H

#include "at_api.h"

typedef struct {
	unsigned char *__restrict__ In;
	unsigned char *__restrict__ Out;
	unsigned char *__restrict__ Bias;
	unsigned char *__restrict__ Mul;
	unsigned int Size;
} KerScale_ArgT;

void KerScale(KerScale_ArgT *Arg);

#endif
