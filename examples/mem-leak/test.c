/* SPDX-License-Identifier: MIT */
/*
 * A network of three layers, each run by one call that takes an L2 tile
 * and an L3 block for its weights, loads the weights, reduces the tile and
 * gives both back; a layer marked to skip (a pruned one) returns early.
 * Our own writing, in the shape of generated network code. Clean as it
 * is: the early return goes through the same frees.
 *
 * EARLY (test_early.c) returns straight away for a skipped layer, holding
 * both blocks. Firmware that never frees is common, so this is reported
 * only with the leak check on (--leaks, DFZ_LEAKS=1): mem.leak at the
 * line that allocated the first block still held, naming it.
 */
#include <pmsis.h>
#include <bsp/ram.h>
#include <dmafuzz/dropin.h>

#define TILE 256

struct layer {
	uint32_t wsize;
	int skip;
};

static int32_t run_layer(const struct layer *l, const uint8_t *w_host)
{
	uint8_t *tile = pi_l2_malloc(TILE); /* dfz-expect: ALLOC */
	void *w = cl_ram_malloc(l->wsize);
	pi_cl_ram_req_t req;
	int32_t sum = 0;

	if (!tile || !w)
		return -1;
#ifdef EARLY
	if (l->skip)
		return 0;
#endif
	if (!l->skip) {
		ram_write(w, (void *)w_host, l->wsize);
		pi_cl_ram_read(get_ram_ptr(), (uint32_t)(uintptr_t)w, tile, l->wsize, &req);
		pi_cl_ram_read_wait(&req);
		for (uint32_t i = 0; i < l->wsize; i++)
			sum += tile[i];
	}
	cl_ram_free(w, l->wsize);
	pi_l2_free(tile, TILE);
	return sum;
}

static void body(void *arg)
{
	static const struct layer net[] = { { 64, 0 }, { 128, 1 }, { 32, 0 } };
	uint8_t w_host[TILE];
	int32_t got = 0, want = 0;

	(void)arg;
	for (int i = 0; i < TILE; i++)
		w_host[i] = (uint8_t)(i * 3 + 1);
	for (unsigned k = 0; k < sizeof(net) / sizeof(net[0]); k++) {
		got += run_layer(&net[k], w_host);
		for (uint32_t i = 0; !net[k].skip && i < net[k].wsize; i++)
			want += w_host[i];
	}
	DFZ_DROPIN_CHECK(got == want);
}

DFZ_DROPIN_MAIN(body, NULL)
