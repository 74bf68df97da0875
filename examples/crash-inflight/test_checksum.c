/* SPDX-License-Identifier: MIT */
/*
 * The test body of the checksum: 300 bytes loaded from L3 into L2, waited
 * for, and checksummed. Built with checksum.c (an endless loop: a
 * timeout finding at its line) or checksum_fixed.c (clean).
 */
#include <pmsis.h>
#include <bsp/ram.h>
#include <dmafuzz/dropin.h>

#define N 300

uint32_t checksum(const uint8_t *p, uint32_t n);

static void body(void *arg)
{
	uint8_t host[N];
	uint8_t *tile = pi_l2_malloc(N);
	uint32_t l3 = (uint32_t)cl_ram_malloc(N);
	pi_cl_ram_req_t req;
	uint32_t want = 0;

	(void)arg;
	for (unsigned i = 0; i < N; i++) {
		host[i] = (uint8_t)(i * 5 + 3);
		want += host[i];
	}
	dfz_dropin_l3_write(l3, host, N);
	pi_cl_ram_copy(get_ram_ptr(), l3, tile, N, 1, &req);
	pi_cl_ram_copy_wait(&req);
	DFZ_DROPIN_CHECK(checksum(tile, N) == want);
	cl_ram_free((void *)(uintptr_t)l3, N);
	pi_l2_free(tile, N);
}

DFZ_DROPIN_MAIN(body, NULL)
