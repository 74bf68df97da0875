/* SPDX-License-Identifier: MIT */
#ifndef SLICE_H
#define SLICE_H
#include <stdint.h>
#define ROWS 4
#define COLS 16
#define STRIDE 64
void dma_slice(int8_t *l1, const int8_t *l2, int rows, int cols, int stride);
#endif
