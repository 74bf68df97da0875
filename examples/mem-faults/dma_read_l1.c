/* SPDX-License-Identifier: MIT */
/* faults.c, fault 6 (its comment says which). */
#define FAULT 6
#include "faults.c"
