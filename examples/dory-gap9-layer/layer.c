/* SPDX-License-Identifier: MIT */
/*
 * BUGGY: the wait before the kernel is removed, so the cores work on a
 * tile still in flight.
 *
 * A layer in the shape of DORY's GAP9 templates (our own writing): one
 * counter made by dma_transfer_create() before the tile loop; each tile's
 * input loaded by dma_transfer_async() with a DmaTransferConf compound
 * literal into one of two L1 buffers, the wait (which frees the counter)
 * before the kernel, the previous tile's output (two more L1 buffers)
 * stored while the next input loads, the last store waited after the
 * loop. The cores add 1 to every byte of their share.
 */
#include "pmsis.h"
#include "dory_dma.h"
#include "layer.h"

typedef struct {
	uint32_t in;
	uint32_t out;
	uint32_t size;
} Args;

static void kernel(void *arg)
{
	Args *a = arg;
	const uint8_t *in = (const uint8_t *)a->in;
	uint8_t *out = (uint8_t *)a->out;
	uint32_t share = a->size / pi_cl_cluster_nb_cores();
	uint32_t first = share * pi_core_id();

	for (uint32_t i = first; i < first + share; i++)
		out[i] = (uint8_t)(in[i] + 1); /* dfz-expect: READ */
}

static void load_input_async(uint32_t ext, uint32_t loc)
{
	dma_transfer_async((DmaTransferConf) {
		.ext = ext,
		.loc = loc,
		.number_of_2d_copies = TILE_H,
		.number_of_1d_copies = 1,
		.length_1d_copy = ROW,
		.hwc_to_chw = 0,
		.stride_2d = ROW,
		.stride_1d = ROW,
		.dir = 1
	});
}

static void store_output_async(uint32_t ext, uint32_t loc)
{
	dma_transfer_1d_async((DmaTransferConf) {
		.ext = ext,
		.loc = loc,
		.length_1d_copy = TILE_H * ROW,
		.dir = 0
	});
}

void layer(uint32_t l2_x, uint32_t l2_y, uint32_t l1_buffer)
{
	uint32_t db_in[2] = { l1_buffer, l1_buffer + TILE_H * ROW };
	uint32_t db_out[2] = { l1_buffer + 2 * TILE_H * ROW,
			       l1_buffer + 3 * TILE_H * ROW };
	DmaTransfer transfer = dma_transfer_create();
	Args args = { 0, 0, TILE_H * ROW };
	uint32_t prev = 0;

	for (int iter = 0; iter < NTILES; iter++) {
		load_input_async(l2_x + iter * TILE_H * ROW, db_in[iter % 2]);
		/* the wait before the kernel is missing here */ /* dfz-expect: WAIT */
		args.in = db_in[iter % 2];
		args.out = db_out[iter % 2];
		pi_cl_team_fork(0, kernel, &args); /* dfz-expect: KERNEL */
		if (iter > 0)
			store_output_async(l2_y + (iter - 1) * TILE_H * ROW, prev);
		prev = db_out[iter % 2];
	}
	dma_transfer_wait(transfer);
	store_output_async(l2_y + (NTILES - 1) * TILE_H * ROW, prev);
	dma_transfer_wait(transfer);
}
