/* SPDX-License-Identifier: MIT */
/*
 * tk_dequant() fixed: core 0 waits for the write-back that still reads an
 * output buffer before the barrier that lets the team write it again
 * (../tk_dequant.c built with TK_DEQUANT_FIXED).
 */
#define TK_DEQUANT_FIXED 1
#include "../tk_dequant.c"
