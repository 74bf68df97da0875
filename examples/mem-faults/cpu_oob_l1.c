/* SPDX-License-Identifier: MIT */
/* faults.c, fault 12 (its comment says which). */
#define FAULT 12
#include "faults.c"
