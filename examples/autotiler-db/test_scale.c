/* SPDX-License-Identifier: MIT */
/*
 * The test body: the memories the tiler was promised, 8 KiB of input in
 * HyperRAM, the layer, and the output read back from HyperRAM against a
 * golden computed on the host. Built with ScaleKernels.c (flagged) or
 * ScaleKernels_fixed.c (clean).
 */
#include <string.h>

#include <dmafuzz/dropin.h>

#include "ScaleKernels.h"

#define N (TILE * NTILES)



static void body(void *arg)
{
	static unsigned char in[N], want[N], got[N];
	AT_HYPERRAM_POINTER l3_in = AT_HYPERRAM_ALLOC(&HyperRam, N);
	AT_HYPERRAM_POINTER l3_out = AT_HYPERRAM_ALLOC(&HyperRam, N);
	unsigned char *bias = (unsigned char *)AT_L2_ALLOC(0, 64);
	unsigned char *mul = (unsigned char *)AT_L2_ALLOC(0, 64);

	(void)arg;
	Scale_L1_Memory = AT_L1_ALLOC(0, _Scale_L1_Memory_SIZE);
	Scale_L2_Memory_Dyn = AT_L2_ALLOC(0, _Scale_L2_Memory_Dyn_SIZE);
	for (unsigned i = 0; i < 64; i++) {
		bias[i] = (unsigned char)(i * 3 + 1);
		mul[i] = (unsigned char)(i % 5 + 1);
	}
	for (unsigned i = 0; i < N; i++) {
		in[i] = (unsigned char)(i * 7 + i / 256);
		want[i] = (unsigned char)(in[i] * mul[i % 64] + bias[i % 64]);
	}
	dfz_dropin_l3_write(l3_in, in, N);
	S1_Scale(l3_in, l3_out, bias, mul);
	dfz_dropin_l3_read(l3_out, got, N);
	DFZ_DROPIN_CHECK(memcmp(got, want, N) == 0);
	AT_L2_FREE(0, Scale_L2_Memory_Dyn, _Scale_L2_Memory_Dyn_SIZE);
	AT_L1_FREE(0, Scale_L1_Memory, _Scale_L1_Memory_SIZE);
	AT_L2_FREE(0, mul, 64);
	AT_L2_FREE(0, bias, 64);
	AT_HYPERRAM_FREE(&HyperRam, l3_out, N);
	AT_HYPERRAM_FREE(&HyperRam, l3_in, N);
}

DFZ_DROPIN_MAIN(body, NULL)
