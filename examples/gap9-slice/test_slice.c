/* SPDX-License-Identifier: MIT */
/*
 * The test body: two cores of the cluster. Core 0 slices a 4 x 16 window
 * of an L2 matrix into L1 with dma_slice(); core 1 meanwhile loads a
 * buffer of its own over the cluster DMA on its own counter. Then core 0
 * checks the slice. Which core allocates first is the schedule's choice:
 * in core order (the empty schedule) the slice gets counter 0 and its
 * hard-coded wait happens to be right; when core 1 goes first it is not.
 */
#define MCHAN_VERSION 7
#include <pmsis.h>
#include <mchan.h>
#include <dmafuzz/dropin.h>

#include "slice.h"

static int8_t *l2, *l1, *other_l2, *other_l1;

static void core_work(void *arg)
{
	(void)arg;
	if (pi_core_id() == 0) {
		dma_slice(l1, l2, ROWS, COLS, STRIDE);
		for (int r = 0; r < ROWS; r++)
			for (int c = 0; c < COLS; c++)
				DFZ_DROPIN_CHECK(l1[r * COLS + c] == l2[r * STRIDE + c]);
	} else if (pi_core_id() == 1) {
		mchan_transfer_t t = {
			.cmd = MCHAN_CMD(256, MCHAN_DMA_TRANSFER_DIRECTION_EXT2LOC, MCHAN_CMD_FLAG_INCREMENTAL, 0, 0, 0, MCHAN_CMD_FLAG_EVENT_ENABLE, 0),
			.size = 256, .loc = other_l1, .ext = other_l2,
		};
		int tid = mchan_transfer_get_id();

		mchan_transfer_push_1d(t);
		mchan_transfer_wait(tid);
		mchan_transfer_free(tid);
	}
}

static void body(void *arg)
{
	(void)arg;
	l2 = pi_l2_malloc(ROWS * STRIDE);
	l1 = pmsis_l1_malloc(ROWS * COLS);
	other_l2 = pi_l2_malloc(256);
	other_l1 = pmsis_l1_malloc(256);
	for (int i = 0; i < ROWS * STRIDE; i++)
		l2[i] = (int8_t)(i * 3 + 1);
	for (int i = 0; i < 256; i++)
		other_l2[i] = (int8_t)i;      /* core 1 loads it */
	pi_cl_team_fork(2, core_work, NULL);
}

DFZ_DROPIN_MAIN(body, NULL)
