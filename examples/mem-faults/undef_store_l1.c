/* SPDX-License-Identifier: MIT */
/* faults.c, fault 16 (its comment says which). */
#define FAULT 16
#include "faults.c"
