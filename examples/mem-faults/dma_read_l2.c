/* SPDX-License-Identifier: MIT */
/* faults.c, fault 1 (its comment says which). */
#define FAULT 1
#include "faults.c"
