/* SPDX-License-Identifier: MIT */
/* faults.c, fault 8 (its comment says which). */
#define FAULT 8
#include "faults.c"
