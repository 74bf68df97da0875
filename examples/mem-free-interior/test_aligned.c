/* SPDX-License-Identifier: MIT */
/* test.c freeing the rounded-up pointer instead of the block's own. */
#define ALIGNED 1
#include "test.c"
