/* SPDX-License-Identifier: MIT */
/* The Transpose node's closure: its sizes, tiles and arguments. */
#ifndef CLOSURE_H
#define CLOSURE_H

#include <stdint.h>

#define DIM_C 4
#define DIM_H 6
#define DIM_W 8
#define TILE_C 2
#define TILE_H 3
#define TILE_W 4
#define TILES_C (DIM_C / TILE_C)
#define TILES_H (DIM_H / TILE_H)
#define TILES_W (DIM_W / TILE_W)
#define NUM_TILES (TILES_C * TILES_H * TILES_W)
#define NUM_CORES 8

typedef struct {
	void *data_in;     /* L3, NCHW */
	void *data_out;    /* L3, NHWC */
	int8_t *tile_in;   /* L2, TILE_C x TILE_H x TILE_W */
	int8_t *tile_out;  /* L2, TILE_H x TILE_W x TILE_C */
} closure_args_t;

typedef struct {
	const int8_t *in;
	int8_t *out;
	uint32_t tc, th, tw;
} transpose_tile_args_t;

void _closure_Transpose_0(void *_args);

#endif
