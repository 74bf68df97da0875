/* SPDX-License-Identifier: MIT */
/*
 * A double-buffered GEMM tiling closure in the shape Deeploy's Snitch
 * target generates (written here from the structure its SnitchDma and
 * double-buffering templates emit, not copied): one future per tensor and
 * direction, initialised to -1; tile 0 loaded before the loop; per tile,
 * the input futures waited, the next tile's inputs prefetched, the kernel
 * between two cluster barriers on the compute cores, the previous output
 * waited before the current one is sent. Every transfer is a
 * snrt_dma_start_2d on the DM core followed by Deeploy's dummy
 * snrt_dma_start_2d(dst, dst, 1, 0, 0, 0), which works around the pinned
 * runtime's wait never resolving the last id.
 */
#include <snrt.h>

#include "gemm.h"

static void gemm_kernel(const int8_t *a, const int8_t *b, int32_t *c)
{
	if (!snrt_is_compute_core())
		return;
	for (uint32_t r = snrt_cluster_core_idx(); r < TM;
	     r += snrt_cluster_compute_core_num())
		for (int j = 0; j < TN; j++) {
			int32_t acc = 0;

			for (int k = 0; k < K; k++)
				acc += a[r * K + k] * b[k * TN + j]; /* dfz-expect: READ */
			c[r * TN + j] = acc;
		}
}

void _closure_Gemm_0(void *_args)
{
	gemm_args_t *args = _args;
	int8_t *A_l1 = args->A_l1[0], *B_l1 = args->B_l1[0];
	int32_t *C_l1 = args->C_l1[0];

	// Initialize DMA future
	snrt_dma_txid_t A_ExternalToLocal = (snrt_dma_txid_t)-1;
	snrt_dma_txid_t B_ExternalToLocal = (snrt_dma_txid_t)-1;
	snrt_dma_txid_t C_LocalToExternal = (snrt_dma_txid_t)-1;

	// Transfer initial input tile
	if (snrt_is_dm_core()) {
		A_ExternalToLocal = snrt_dma_start_2d(args->A_l1[0], args->A, K, K, K, TM);
		// WIESEP: Hack as otherwise the last commited DMA transaction ID can never be resolved.
		snrt_dma_start_2d(args->A_l1[0], args->A_l1[0], 1, 0, 0, 0);
	}
	if (snrt_is_dm_core()) {
		B_ExternalToLocal = snrt_dma_start_2d(args->B_l1[0], args->B, TN, TN, N, K);
		// WIESEP: Hack as otherwise the last commited DMA transaction ID can never be resolved.
		snrt_dma_start_2d(args->B_l1[0], args->B_l1[0], 1, 0, 0, 0);
	}

	for (int TILING_I = 0; TILING_I < NUM_TILES; TILING_I++) {
		int tm = TILING_I / (N / TN), tn = TILING_I % (N / TN);

		switch (TILING_I % 2) {
		case 0: A_l1 = args->A_l1[0]; B_l1 = args->B_l1[0]; C_l1 = args->C_l1[0]; break;
		case 1: A_l1 = args->A_l1[1]; B_l1 = args->B_l1[1]; C_l1 = args->C_l1[1]; break;
		}

		// Wait for current input tile
		if ((A_ExternalToLocal != ((snrt_dma_txid_t)-1)) && snrt_is_dm_core())
			snrt_dma_wait(A_ExternalToLocal); /* dfz-expect: WAIT_A */
		if ((B_ExternalToLocal != ((snrt_dma_txid_t)-1)) && snrt_is_dm_core())
			snrt_dma_wait(B_ExternalToLocal); /* dfz-expect: WAIT_B */

		// DOUBLE BUFFERING CHECK TILE LOAD
		if (TILING_I + 1 < NUM_TILES) {
			int nm = (TILING_I + 1) / (N / TN), nn = (TILING_I + 1) % (N / TN);
			int8_t *A_next = args->A_l1[(TILING_I + 1) % 2];
			int8_t *B_next = args->B_l1[(TILING_I + 1) % 2];

			// Transfer next input tile
			if (snrt_is_dm_core()) {
				A_ExternalToLocal = snrt_dma_start_2d(A_next, args->A + nm * TM * K, K, K, K, TM);
				// WIESEP: Hack as otherwise the last commited DMA transaction ID can never be resolved.
				snrt_dma_start_2d(A_next, A_next, 1, 0, 0, 0);
			}
			if (snrt_is_dm_core()) {
				B_ExternalToLocal = snrt_dma_start_2d(B_next, args->B + nn * TN, TN, TN, N, K);
				// WIESEP: Hack as otherwise the last commited DMA transaction ID can never be resolved.
				snrt_dma_start_2d(B_next, B_next, 1, 0, 0, 0);
			}
		}

		snrt_cluster_hw_barrier();
		gemm_kernel(A_l1, B_l1, C_l1);
		snrt_cluster_hw_barrier();

		// Wait for previous output tile
		if ((C_LocalToExternal != ((snrt_dma_txid_t)-1)) && snrt_is_dm_core())
			snrt_dma_wait(C_LocalToExternal); /* dfz-expect: WAIT_C */

		// Transfer current output tile
		if (snrt_is_dm_core()) {
			int32_t *C_ref = args->C + tm * TM * N + tn * TN;

			C_LocalToExternal = snrt_dma_start_2d(C_ref, C_l1, TN * 4, N * 4, TN * 4, TM);
			// WIESEP: Hack as otherwise the last commited DMA transaction ID can never be resolved.
			snrt_dma_start_2d(C_ref, C_ref, 1, 0, 0, 0);
		}
	}

	// Wait for final output tile
	if ((C_LocalToExternal != ((snrt_dma_txid_t)-1)) && snrt_is_dm_core())
		snrt_dma_wait(C_LocalToExternal);
}
