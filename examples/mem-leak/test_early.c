/* SPDX-License-Identifier: MIT */
/* test.c returning early from a skipped layer, its blocks still held. */
#define EARLY 1
#include "test.c"
