/* SPDX-License-Identifier: MIT */
/* faults.c, fault 15 (its comment says which). */
#define FAULT 15
#include "faults.c"
