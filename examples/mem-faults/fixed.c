/* SPDX-License-Identifier: MIT */
/* faults.c, fault 0 (its comment says which). */
#define FAULT 0
#include "faults.c"
