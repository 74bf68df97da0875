/* SPDX-License-Identifier: MIT */
/* faults.c, fault 11 (its comment says which). */
#define FAULT 11
#include "faults.c"
