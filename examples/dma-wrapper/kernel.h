/* SPDX-License-Identifier: MIT */
/* The kernel's shape and entry (kernel.c, kernel_fixed.c). */
#ifndef KERNEL_H
#define KERNEL_H

#include <stdint.h>

#define TILE 64
#define NTILES 4

/* The sum of the NTILES * TILE bytes at L3 address @l3, loaded through
 * the L2 buffers @buf0 and @buf1 (TILE bytes each). */
uint32_t kernel_sum(uint32_t l3, uint8_t *buf0, uint8_t *buf1);

#endif
