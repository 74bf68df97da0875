/* SPDX-License-Identifier: MIT */
/* faults.c, fault 14 (its comment says which). */
#define FAULT 14
#include "faults.c"
