// SPDX-License-Identifier: MIT
/*
 * The DMA sequence of gemm_db_fixed.c (or gemm_db_nodummy.c) replayed on
 * dmafuzz's idma engine under idma-id-at-push, for one backend window
 * (NumAxInFlight) and one runtime wait, with no engine step outside the
 * waits (the fuzzer's empty schedule: the DMA makes no progress while
 * the cores issue and compute). For each wait it prints the id waited
 * on, which start the program kept it from, and whether that start's
 * own transfer had retired when the wait returned. Every transfer has
 * work, so transfers retire in push order and the k-th start's transfer
 * has retired once the completed id reaches k. A wait that never
 * returns (the pinned wait on the newest id) ends at the wait bound and
 * is printed as a hang.
 * Usage: window fixed|nodummy pinned|head NUM_AX_IN_FLIGHT
 * Build: cc window.c $(pkg-config --cflags --libs dmafuzz) -o window
 * Exit status: 0 every wait covered its start, 1 some did not or hung,
 * 2 bad use.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmafuzz/runtime.h"

#define TM 8
#define TN 8
#define K 16
#define TILES 4

static struct dfz_idma *dma;
static uint8_t *l2, *l1;
static int pushes, dummies, head, early, hangs;

/* A 2-D start of @lines lines of @size bytes; *@k gets its push index. */
static int start(uint32_t lines, uint32_t size, int *k)
{
	int t = dfz_idma_start_2d(dma, l1 + 64 * pushes, l2 + 64 * pushes,
				  size, size, size, lines);

	*k = ++pushes;
	return t;
}

/* The one-byte scratch copy gemm_db_fixed.c issues after each copy. */
static void dummy(void)
{
	int k;

	if (dummies)
		start(1, 1, &k);
}

/* A wait on @t, kept from start @k: early when it returns before the
 * k-th transfer retired; a hang (the pinned wait on the newest id) is
 * said as such. */
static void wait_on(const char *what, int t, int k)
{
	uint32_t done;
	int rc;

	if (k == 0)
		return;
	if (head)
		rc = dfz_idma_wait_reached(dma, (uint32_t)t);
	else
		rc = dfz_idma_wait(dma, (uint32_t)t);
	done = dfz_idma_completed_id(dma);
	early += rc == 0 && (int)done < k;
	hangs += rc != 0;
	printf("  wait %s: id %2d, kept from start %2d; completed %2u: %s\n",
	       what, t, k, done, rc ? "HANG (wait bound)" :
	       (int)done < k ? "EARLY" : "ok");
}

static unsigned no_steps(void *ctx, enum dfz_yield where)
{
	(void)ctx;
	(void)where;
	return 0;
}

/* The closure's DMA order: tile 0's loads, then per tile the input
 * waits, the next tile's loads, the previous store's wait, the store. */
static void gemm(void)
{
	int a, b, c = -1, ka, kb, kc = 0;

	a = start(TM, K, &ka);
	dummy();
	b = start(K, TN, &kb);
	dummy();
	for (int i = 0; i < TILES; i++) {
		printf(" tile %d\n", i);
		wait_on("A", a, ka);
		wait_on("B", b, kb);
		if (i + 1 < TILES) {
			a = start(TM, K, &ka);
			dummy();
			b = start(K, TN, &kb);
			dummy();
		}
		wait_on("C", c, kc);
		c = start(TM, TN * 4, &kc);
		dummy();
	}
	wait_on("C", c, kc);
}

int main(int argc, char **argv)
{
	struct dfz_rt_config cfg = { .latency = 0, .bandwidth = 64,
		.wait_bound = 1u << 20, .sched = no_steps,
		.quirks = DFZ_RTQ_IDMA_ID_AT_PUSH | DFZ_RTQ_IDMA_ZERO_RETIRES };
	struct dfz_rt *rt;
	char *end;
	unsigned long w = argc == 4 ? strtoul(argv[3], &end, 10) : 0;

	if (argc != 4 || *end || (strcmp(argv[1], "fixed") &&
	    strcmp(argv[1], "nodummy")) || (strcmp(argv[2], "pinned") &&
	    strcmp(argv[2], "head"))) {
		fprintf(stderr, "usage: window fixed|nodummy pinned|head "
			"NUM_AX_IN_FLIGHT\n");
		return 2;
	}
	dummies = !strcmp(argv[1], "fixed");
	head = !strcmp(argv[2], "head");
	if (dfz_rt_create(&rt) || !(dma = dfz_idma_get(rt)) ||
	    dfz_idma_set_ax_inflight(dma, (uint32_t)w) ||
	    dfz_rt_reset(rt, &cfg) ||
	    dfz_local_alloc(rt, DFZ_L2, 4096, (void **)&l2) ||
	    dfz_local_alloc(rt, DFZ_L1, 4096, (void **)&l1)) {
		fprintf(stderr, "window: NUM_AX_IN_FLIGHT %lu: 2 to %d\n", w,
			DFZ_IDMA_AX_INFLIGHT_MAX);
		return 2;
	}
	printf("%s, %s, NumAxInFlight %lu\n", argv[1], argv[2], w);
	gemm();
	printf("%d waits returned before their start's transfer retired, "
	       "%d hung\n", early, hangs);
	dfz_rt_destroy(rt);
	return early || hangs ? 1 : 0;
}
