/* SPDX-License-Identifier: MIT */
/* The layer's geometry and entry. */
#ifndef LAYER_H
#define LAYER_H

#include <stdint.h>

#define ROW 64
#define TILE_H 8
#define NTILES 6

void layer(uint32_t l2_x, uint32_t l2_y, uint32_t l1_buffer);

#endif
