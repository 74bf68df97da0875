/* SPDX-License-Identifier: MIT */
/*
 * Seed 000's loop, fixed: each 2-D copy is waited before its request is
 * issued again (the generator's wait-each decomposition).
 */
#include <pmsis.h>

void load_tile(void *local, uint32_t ext, uint32_t d0, uint32_t d1,
	       uint32_t d2, uint32_t ext_d1, uint32_t ext_d2)
{
	pi_cl_ram_req_t req;

	for (uint32_t i = 0; i < d0; i++) {
		pi_cl_ram_copy_2d(get_ram_ptr(), ext + i * ext_d1 * ext_d2, (char *)local + i * d1 * d2, d1 * d2, ext_d2, d2, 1, &req);
		pi_cl_ram_copy_wait(&req);
	}
}
