/* SPDX-License-Identifier: MIT */
/* The tiles of the column-sum-plus-bias closure and its arguments. */
#ifndef CLOSURE_H
#define CLOSURE_H
#include <stdint.h>

#define ROWS 8          /* rows of an A tile */
#define HALF (ROWS / 2) /* rows of one row block */
#define COLS 16         /* columns of a tile */
#define WIDTH 64        /* columns of the L2 matrix: the 2-D stride */
#define NUM_TILES (WIDTH / COLS)

/* The L1 arena: A's tile, the bias tile, the output tile (int32). */
#define L1_A 0
#define L1_BIAS (L1_A + ROWS * COLS)
#define L1_OUT (L1_BIAS + COLS)
#define L1_SIZE (L1_OUT + COLS * 4)

typedef struct {
	int8_t *l1;         /* L1: the arena, L1_SIZE bytes */
	const int8_t *a;    /* L2: ROWS x WIDTH */
	const int8_t *bias; /* L2: WIDTH */
	int32_t *out;       /* L2: WIDTH */
} closure_args_t;

void _closure_ColSumBias_0(void *_args);
#endif
