/* SPDX-License-Identifier: MIT */
/*
 * The test body of the gather: 256 data bytes in L2, 64 indices into
 * them in L3, and the sum checked against the host's. Built with
 * gather.c (a crash at the summing line) or gather_fixed.c (clean).
 */
#include <pmsis.h>
#include <bsp/ram.h>
#include <dmafuzz/dropin.h>

#define DATA 256
#define N 64

uint32_t gather_sum(const uint8_t *data, int32_t *idx, uint32_t idx_l3,
		    uint32_t n);

static void body(void *arg)
{
	uint8_t *data = pi_l2_malloc(DATA);
	int32_t *idx = pi_l2_malloc(N * 4);
	uint32_t l3 = (uint32_t)cl_ram_malloc(N * 4);
	int32_t host[N];
	uint32_t want = 0;

	(void)arg;
	for (unsigned i = 0; i < DATA; i++)
		data[i] = (uint8_t)(i * 29 + 7);
	for (unsigned i = 0; i < N; i++) {
		host[i] = (int32_t)((i * 37 + 11) % DATA);
		want += data[host[i]];
	}
	dfz_dropin_l3_write(l3, host, sizeof(host));
	DFZ_DROPIN_CHECK(gather_sum(data, idx, l3, N) == want);
	cl_ram_free((void *)(uintptr_t)l3, N * 4);
	pi_l2_free(idx, N * 4);
	pi_l2_free(data, DATA);
}

DFZ_DROPIN_MAIN(body, NULL)
