/* SPDX-License-Identifier: MIT */
/*
 * A tile loader split in two, as drivers often are: start_load() issues
 * the read of a tile from L3 and returns, finish_load() waits for it
 * later, so the caller can work in between. The request must live until
 * the wait returns: it is the driver's queue node. Clean as written.
 *
 * REQ_ON_STACK (test_frame.c): start_load() keeps the request on its own
 * stack, and the frame returns while the engine still holds it. dmafuzz
 * reports mem.use-after-free at the read's line at the next SDK call
 * (here the wait); on the chip the wait would read whatever the next
 * calls wrote over that frame.
 */
#include <pmsis.h>
#include <bsp/ram.h>

#include "loader.h"

__attribute__((noinline)) void start_load(struct loader *ld, uint32_t ext,
					  uint8_t *tile, uint32_t n)
{
#ifdef REQ_ON_STACK
	pi_cl_ram_req_t req;
	pi_cl_ram_req_t *r = &req;
#else
	pi_cl_ram_req_t *r = &ld->slot;
#endif

	pi_cl_ram_read(get_ram_ptr(), ext, tile, n, r); /* dfz-expect: AT */
	remember(ld, r);
}

__attribute__((noinline)) void finish_load(struct loader *ld)
{
	pi_cl_ram_read_wait(ld->req); /* dfz-expect: WAIT */
}
