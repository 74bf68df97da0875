/* SPDX-License-Identifier: MIT */
/* ScaleKernels.c without the wait on the tile's load. */
#define NO_READ_WAIT 1
#include "ScaleKernels.c"
