/* SPDX-License-Identifier: MIT */
/* test.c freeing the scratch even when it is the PI_L2 static. */
#define ALWAYS 1
#include "test.c"
