/* SPDX-License-Identifier: MIT */
/*
 * A per-channel scale, bias and ReLU over an int32 activation tensor of
 * ROWS channels by COLS elements in the cluster's main memory, tiled in
 * TILE_R x TILE_C tiles (one row per compute core), in the shape of the
 * Snitch runtime's double-buffered BLAS/DNN kernels. Each variant file
 * defines relu_layer(), which every core of the cluster runs.
 */
#ifndef SNITCH_DNN_LAYER_H
#define SNITCH_DNN_LAYER_H

#include <stdint.h>

#define ROWS 32
#define COLS 64
#define TILE_R 8
#define TILE_C 32
#define N_TILES ((ROWS / TILE_R) * (COLS / TILE_C))

typedef struct {
	int32_t *x;        /* ROWS x COLS, main memory */
	int32_t *y;        /* ROWS x COLS, main memory */
	int32_t *scale;    /* ROWS */
	int32_t *bias;     /* ROWS */
} relu_args_t;

void relu_layer(void *args);

#endif
