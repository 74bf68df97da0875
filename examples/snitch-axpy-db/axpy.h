/* SPDX-License-Identifier: MIT */
/*
 * z = alpha * x + y over int32 matrices of ROWS x COLS elements in the
 * cluster's main memory, tiled in TILE_R x TILE_C tiles (one tile row per
 * compute core), double-buffered in L1, in the shape of the Snitch
 * runtime's BLAS kernels. Each variant file defines axpy_db(), which
 * every core of the cluster runs.
 */
#ifndef SNITCH_AXPY_DB_H
#define SNITCH_AXPY_DB_H

#include <stdint.h>

#define ROWS 32
#define COLS 64
#define TILE_R 8
#define TILE_C 32
#define TILES_PER_ROW (COLS / TILE_C)
#define N_TILES ((ROWS / TILE_R) * TILES_PER_ROW)
#define TILE_BYTES (TILE_R * TILE_C * sizeof(int32_t))
#define ROW_BYTES (COLS * sizeof(int32_t))

typedef struct {
	int32_t alpha;
	int32_t *x;        /* ROWS x COLS, main memory */
	int32_t *y;        /* ROWS x COLS, main memory */
	int32_t *z;        /* ROWS x COLS, main memory */
} axpy_args_t;

void axpy_db(void *args);

/* The first element of tile @t of a ROWS x COLS matrix at @m. */
static inline int32_t *axpy_tile(int32_t *m, int t)
{
	return m + (t / TILES_PER_ROW) * TILE_R * COLS +
	       (t % TILES_PER_ROW) * TILE_C;
}

#endif
