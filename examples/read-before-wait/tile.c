/* SPDX-License-Identifier: MIT */
/*
 * A kernel that sums a tile it loads from L3, and reads the tile before
 * the wait that covers its load: whatever the engine happened to finish,
 * the protocol says the bytes are not the CPU's yet. dmafuzz poisons the
 * in-flight destination, so ASan and valgrind report the read at its line
 * in every schedule, and plain builds read the poison pattern.
 */
#include <pmsis.h>
#include <bsp/ram.h>

uint32_t sum_tile(uint8_t *local, uint32_t ext, uint32_t n)
{
	pi_cl_ram_req_t req;
	uint32_t sum = 0;

	pi_cl_ram_copy(get_ram_ptr(), ext, local, n, 1, &req);
	for (uint32_t i = 0; i < n; i++)
		sum += local[i]; /* dfz-expect: READ */
	pi_cl_ram_copy_wait(&req);
	return sum;
}
