/* SPDX-License-Identifier: MIT */
/*
 * Private interface between the tiling executor (tile.c) and its compute
 * kernels (tile_compute.c).
 */
#ifndef DMAFUZZ_TILE_INT_H
#define DMAFUZZ_TILE_INT_H

#include "dmafuzz/runtime.h"

/*
 * struct dfz__tile_compute - one tile's compute: @n elements of @elem bytes,
 * laid out compactly in every buffer. All buffers are borrowed for the call.
 */
struct dfz__tile_compute {
	struct dfz_rt *rt;
	uint8_t engine;       /* stamped on the compute events */
	uint8_t kernel;       /* enum dfz_kernel */
	uint8_t elem;
	uint8_t chunks;       /* yields inside the tile; 0 counts as 1 */
	const uint8_t *in;
	const uint8_t *aux;   /* DFZ_KERNEL_ADD only, else NULL */
	uint8_t *out;
	uint64_t n;           /* elements */
};

/**
 * dfz__tile_compute() - run the kernel over @c in chunks; per chunk emit
 * COMPUTE_READ for the in (and aux) span, compute, emit COMPUTE_WRITE for
 * the out span, then yield DFZ_YIELD_COMPUTE so the engines may run.
 */
void dfz__tile_compute(const struct dfz__tile_compute *c);

#endif /* DMAFUZZ_TILE_INT_H */
