/* SPDX-License-Identifier: MIT */
/* faults.c, fault 2 (its comment says which). */
#define FAULT 2
#include "faults.c"
