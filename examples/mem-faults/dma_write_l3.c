/* SPDX-License-Identifier: MIT */
/* faults.c, fault 3 (its comment says which). */
#define FAULT 3
#include "faults.c"
