/* SPDX-License-Identifier: MIT */
/* faults.c, fault 10 (its comment says which). */
#define FAULT 10
#include "faults.c"
