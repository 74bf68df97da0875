/* SPDX-License-Identifier: MIT */
/* test.c freeing its buffer with the element count, not the bytes. */
#define ELEMS 1
#include "test.c"
