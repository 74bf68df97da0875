/* SPDX-License-Identifier: MIT */
/*
 * A tiled elementwise kernel over L3: each tile loaded into L2, computed
 * into an output tile, and written back to L3 on its own request, whose
 * wait comes before the output tile is reused. The bug: the write-back
 * of the last tile is never waited, so the kernel returns while it is
 * still in flight. The body checks nothing itself: it names the L3 output
 * (DFZ_DROPIN_OUTPUT_L3), and the ideal run supplies the expected bytes.
 */
#include <pmsis.h>
#include <bsp/ram.h>

#include "scale.h"

void scale(uint32_t in, uint32_t out, uint8_t *in_buf, uint8_t *out_buf)
{
	pi_cl_ram_req_t rd, wr;

	for (unsigned t = 0; t < NTILES; t++) {
		pi_cl_ram_read(get_ram_ptr(), in + t * TILE, in_buf, TILE, &rd);
		pi_cl_ram_read_wait(&rd);
		if (t > 0)
			pi_cl_ram_write_wait(&wr);
		for (unsigned i = 0; i < TILE; i++)
			out_buf[i] = (uint8_t)(3 * in_buf[i] + 1);
		pi_cl_ram_write(get_ram_ptr(), out + t * TILE, out_buf, TILE, &wr); /* dfz-expect: WRITE */
	}
}
