/* SPDX-License-Identifier: MIT */
/* faults.c, fault 5 (its comment says which). */
#define FAULT 5
#include "faults.c"
