/* SPDX-License-Identifier: MIT */
/*
 * Seed 000's loop: the load of one rank-3 tile from L3, as a tiling code
 * generator emits it for an engine whose kernel is 2-D
 * (pi_cl_ram_copy_2d): one 2-D copy per index of the outermost dimension,
 * every copy on the same request, one wait after the loop. The request is
 * the driver's queue node: the second copy re-issues it while the first
 * is still queued. Only the include line is added to the generated code.
 */
#include <pmsis.h>

void load_tile(void *local, uint32_t ext, uint32_t d0, uint32_t d1,
	       uint32_t d2, uint32_t ext_d1, uint32_t ext_d2)
{
	pi_cl_ram_req_t req;

	for (uint32_t i = 0; i < d0; i++) {
		pi_cl_ram_copy_2d(get_ram_ptr(), ext + i * ext_d1 * ext_d2, (char *)local + i * d1 * d2, d1 * d2, ext_d2, d2, 1, &req); /* dfz-expect: AT */
	}
	pi_cl_ram_copy_wait(&req);
}
