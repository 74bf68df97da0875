/* SPDX-License-Identifier: MIT */
/* ScaleKernels.c without the previous tile's write-back wait. */
#define NO_WRITE_WAIT 1
#include "ScaleKernels.c"
