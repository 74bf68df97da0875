/* SPDX-License-Identifier: MIT */
/* test.c with each tile's wait after the team used the tile. */
#define EARLY 1
#include "test.c"
