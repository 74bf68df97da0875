/* SPDX-License-Identifier: MIT */
/* job.c with the job freed before the wait on its request. */
#define FREE_EARLY 1
#include "job.c"
