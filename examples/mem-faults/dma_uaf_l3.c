/* SPDX-License-Identifier: MIT */
/* faults.c, fault 4 (its comment says which). */
#define FAULT 4
#include "faults.c"
