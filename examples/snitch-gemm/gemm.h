/* SPDX-License-Identifier: MIT */
/* The GEMM closure's shapes and arguments: C = A * B, int8 inputs, int32
 * output, tiled over M and N into TM x TN output tiles; A's tile is TM
 * rows of K, B's is K rows of TN columns. */
#ifndef GEMM_H
#define GEMM_H

#include <stdint.h>

#define M 16
#define N 16
#define K 16
#define TM 8
#define TN 8
#define NUM_TILES ((M / TM) * (N / TN))

typedef struct {
	const int8_t *A;       /* M x K, the cluster's main memory */
	const int8_t *B;       /* K x N */
	int32_t *C;            /* M x N */
	int8_t *A_l1[2];       /* TM x K, double-buffered in L1 */
	int8_t *B_l1[2];       /* K x TN */
	int32_t *C_l1[2];      /* TM x TN */
	int8_t *scratch;       /* 2 bytes of L1 for gemm_db_fixed.c's dummy */
} gemm_args_t;

void _closure_Gemm_0(void *args);

#endif
