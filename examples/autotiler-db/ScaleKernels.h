/* SPDX-License-Identifier: MIT */
/*
 * The generated header's shape: the memories the tiler was given, the
 * layer's entry. Our own writing (see README of examples/).
 */
#ifndef SCALEKERNEL_H
#define SCALEKERNEL_H

#include "ScaleBasicKernels.h"

#define TILE 1024
#define NTILES 8
#define _Scale_L1_Memory_SIZE (4 * TILE + 128)
#define _Scale_L2_Memory_Dyn_SIZE (4 * TILE)
extern AT_L1_POINTER Scale_L1_Memory;
extern AT_L2_POINTER Scale_L2_Memory_Dyn;
extern AT_HYPERRAM_T HyperRam;

void S1_Scale(AT_HYPERRAM_POINTER In, AT_HYPERRAM_POINTER Out,
	      unsigned char *__restrict__ Bias,
	      unsigned char *__restrict__ Mul);

#endif
