/* SPDX-License-Identifier: MIT */
/* faults.c, fault 9 (its comment says which). */
#define FAULT 9
#include "faults.c"
