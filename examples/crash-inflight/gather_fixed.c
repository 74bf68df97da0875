/* SPDX-License-Identifier: MIT */
/* The same gather, fixed: the indices are read after the wait. */
#include <pmsis.h>
#include <bsp/ram.h>

uint32_t gather_sum(const uint8_t *data, int32_t *idx, uint32_t idx_l3,
		    uint32_t n)
{
	pi_cl_ram_req_t req;
	uint32_t sum = 0;

	pi_cl_ram_copy(get_ram_ptr(), idx_l3, idx, n * 4, 1, &req);
	pi_cl_ram_copy_wait(&req);
	for (uint32_t i = 0; i < n; i++)
		sum += data[idx[i]];
	return sum;
}
