/* SPDX-License-Identifier: MIT */
/* faults.c, fault 7 (its comment says which). */
#define FAULT 7
#include "faults.c"
