/* SPDX-License-Identifier: MIT */
/* faults.c, fault 17 (its comment says which). */
#define FAULT 17
#include "faults.c"
