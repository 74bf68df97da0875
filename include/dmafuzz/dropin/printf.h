/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz drop-in: the Snitch runtime's printf.h, which the runtime's
 * tests include by name; on the host printf and its family are the C
 * library's.
 */
#ifndef DMAFUZZ_DROPIN_PRINTF_H
#define DMAFUZZ_DROPIN_PRINTF_H

#include <stdio.h>

#endif /* DMAFUZZ_DROPIN_PRINTF_H */
