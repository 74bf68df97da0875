/* SPDX-License-Identifier: MIT */
/* The same kernel, fixed: the tile is read after the wait. */
#include <pmsis.h>
#include <bsp/ram.h>

uint32_t sum_tile(uint8_t *local, uint32_t ext, uint32_t n)
{
	pi_cl_ram_req_t req;
	uint32_t sum = 0;

	pi_cl_ram_copy(get_ram_ptr(), ext, local, n, 1, &req);
	pi_cl_ram_copy_wait(&req);
	for (uint32_t i = 0; i < n; i++)
		sum += local[i];
	return sum;
}
