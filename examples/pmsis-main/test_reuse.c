/* SPDX-License-Identifier: MIT */
/* test.c with one request for the tile in use and the prefetch. */
#define REUSE 1
#include "test.c"
