/* SPDX-License-Identifier: MIT */
/* faults.c, fault 13 (its comment says which). */
#define FAULT 13
#include "faults.c"
