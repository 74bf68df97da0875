/* SPDX-License-Identifier: MIT */
/* The Snitch program of test.c with the DM core's first wait left out. */
#define NOWAIT 1
#include "test.c"
