/* SPDX-License-Identifier: MIT */
/*
 * A gather kernel: it loads a table of indices from L3 and sums the data
 * bytes they select. The sum starts before the wait that covers the
 * table's load, so each index it reads is whatever the table's buffer
 * holds while the transfer is in flight. On a board that is an old index
 * or garbage; under dmafuzz it is the poison pattern 0xDFDFDFDF, a large
 * negative index, and the read of data[] through it faults. The run is a
 * finding `crash` at the summing line that names the table's transfer.
 */
#include <pmsis.h>
#include <bsp/ram.h>

uint32_t gather_sum(const uint8_t *data, int32_t *idx, uint32_t idx_l3,
		    uint32_t n)
{
	pi_cl_ram_req_t req;
	uint32_t sum = 0;

	pi_cl_ram_copy(get_ram_ptr(), idx_l3, idx, n * 4, 1, &req); /* dfz-expect: ISSUE */
	for (uint32_t i = 0; i < n; i++)
		sum += data[idx[i]]; /* dfz-expect: AT */
	pi_cl_ram_copy_wait(&req);
	return sum;
}
