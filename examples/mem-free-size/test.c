/* SPDX-License-Identifier: MIT */
/*
 * A row sum over an int16 tensor kept in HyperRAM: the fabric controller
 * reads each row into an L2 buffer of ROW int16 elements and adds it up.
 * Our own writing, in the shape of a PMSIS test. Clean as it is.
 *
 * ELEMS (test_elems.c) frees the buffer with its element count instead of
 * its bytes, a slip the SDK lets through: pi_l2_free(p, size) trusts the
 * size and gives back half the block (dev.misuse at the free, naming the
 * block and the line that allocated it).
 */
#include <pmsis.h>
#include <bsp/ram.h>
#include <dmafuzz/dropin.h>

#define ROWS 4
#define ROW 64

#ifdef ELEMS
#define BUF_SIZE ROW
#else
#define BUF_SIZE (ROW * sizeof(int16_t))
#endif

static int32_t row_sum(struct pi_device *ram, uint32_t l3_row)
{
	int16_t *buf = pi_l2_malloc(ROW * sizeof(int16_t)); /* dfz-expect: ALLOC */
	int32_t sum = 0;

	if (!buf)
		return -1;
	pi_ram_read(ram, l3_row, buf, ROW * sizeof(int16_t));
	for (int i = 0; i < ROW; i++)
		sum += buf[i];
	pi_l2_free(buf, BUF_SIZE); /* dfz-expect: FREE */
	return sum;
}

static void body(void *arg)
{
	int16_t host[ROWS * ROW];
	uint32_t l3;
	int ok = 1;

	(void)arg;
	if (pi_ram_alloc(get_ram_ptr(), &l3, sizeof(host)))
		return;
	for (int i = 0; i < ROWS * ROW; i++)
		host[i] = (int16_t)(i % 7 - 3);
	pi_ram_write(get_ram_ptr(), l3, host, sizeof(host));
	for (int r = 0; r < ROWS; r++) {
		int32_t want = 0;

		for (int i = 0; i < ROW; i++)
			want += host[r * ROW + i];
		ok &= row_sum(get_ram_ptr(), l3 + r * ROW * sizeof(int16_t)) == want;
	}
	DFZ_DROPIN_CHECK(ok);
	pi_ram_free(get_ram_ptr(), l3, sizeof(host));
}

DFZ_DROPIN_MAIN(body, NULL)
