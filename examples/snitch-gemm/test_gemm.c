/* SPDX-License-Identifier: MIT */
/*
 * The test body of the GEMM closure: A and B in the cluster's main memory,
 * the double buffers in L1, the closure run SPMD on the cluster's nine
 * cores, C checked against a reference product. Built with gemm_db.c
 * (Deeploy's dummies), gemm_db_nodummy.c or gemm_db_fixed.c.
 */
#include <snrt.h>
#include <dmafuzz/dropin.h>

#include "gemm.h"

static void body(void *arg)
{
	int8_t *A = snrt_l3alloc(M * K), *B = snrt_l3alloc(K * N);
	gemm_args_t args = { A, B, snrt_l3alloc(M * N * 4), { 0 }, { 0 }, { 0 },
			     snrt_l1alloc(2) };
	int ok = 1;

	(void)arg;
	for (int i = 0; i < M * K; i++)
		A[i] = (int8_t)(i * 7 - 50);
	for (int i = 0; i < K * N; i++)
		B[i] = (int8_t)(i * 3 + 11);
	for (int b = 0; b < 2; b++) {
		args.A_l1[b] = snrt_l1alloc(TM * K);
		args.B_l1[b] = snrt_l1alloc(K * TN);
		args.C_l1[b] = snrt_l1alloc(TM * TN * 4);
	}
	dfz_snrt_spmd(_closure_Gemm_0, &args);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t acc = 0;

			for (int k = 0; k < K; k++)
				acc += A[i * K + k] * B[k * N + j];
			ok &= args.C[i * N + j] == acc;
		}
	DFZ_DROPIN_CHECK(ok);
}

DFZ_DROPIN_MAIN(body, NULL)
