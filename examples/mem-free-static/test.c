/* SPDX-License-Identifier: MIT */
/*
 * A layer's scratch buffer: small layers use a PI_L2 static, larger ones
 * a block from pi_l2_malloc, and the layer gives the scratch back when it
 * is done. Our own writing, in the shape of generated layer code. Clean
 * as it is: only a block from the allocator is freed.
 *
 * ALWAYS (test_always.c) frees the scratch whichever it is: for a small
 * layer, the free of a static that no allocator handed out (dev.misuse
 * at the free); on the chip the allocator takes the static into its free
 * list and later hands it out over live data.
 */
#include <pmsis.h>
#include <dmafuzz/dropin.h>

#define SMALL 128

PI_L2 static uint8_t scratch_small[SMALL];

static uint32_t layer(const uint8_t *in, uint32_t n)
{
	uint8_t *scratch = n <= SMALL ? scratch_small : pi_l2_malloc(n);
	uint32_t sum = 0;

	if (!scratch)
		return 0;
	for (uint32_t i = 0; i < n; i++)
		scratch[i] = (uint8_t)(in[i] ^ 0x5a);
	for (uint32_t i = 0; i < n; i++)
		sum += scratch[i];
#ifdef ALWAYS
	pi_l2_free(scratch, n); /* dfz-expect: FREE */
#else
	if (scratch != scratch_small)
		pi_l2_free(scratch, n);
#endif
	return sum;
}

static void body(void *arg)
{
	static const uint32_t sizes[] = { 512, 64 };
	uint8_t *in = pi_l2_malloc(512);
	int ok = 1;

	(void)arg;
	for (int i = 0; i < 512; i++)
		in[i] = (uint8_t)(i * 13 + 7);
	for (unsigned k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		uint32_t want = 0;

		for (uint32_t i = 0; i < sizes[k]; i++)
			want += (uint8_t)(in[i] ^ 0x5a);
		ok &= layer(in, sizes[k]) == want;
	}
	DFZ_DROPIN_CHECK(ok);
	pi_l2_free(in, 512);
}

DFZ_DROPIN_MAIN(body, NULL)
