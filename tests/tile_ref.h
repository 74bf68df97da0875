/* SPDX-License-Identifier: MIT */
/*
 * Shared by the tiling suites (check_tile.c, check_tile_hops.c): the
 * naive kernel every executor run is compared against, one element at a
 * time, written here from the design rather than from runtime/tile.c.
 */
#ifndef DFZ_TEST_TILE_REF_H
#define DFZ_TEST_TILE_REF_H

#include <stdint.h>

#include "runtime_int.h"

/*
 * naive_elem() - one element of @kernel: @out = @in (COPY), @in + 1 (INC)
 * or @in + @aux (ADD), as little-endian integers of @elem bytes.
 */
static inline void naive_elem(unsigned kernel, uint8_t *out,
			      const uint8_t *in, const uint8_t *aux,
			      unsigned elem)
{
	unsigned carry = kernel == DFZ_KERNEL_INC;

	for (unsigned b = 0; b < elem; b++) {
		unsigned sum = in[b] + carry +
			       (kernel == DFZ_KERNEL_ADD ? aux[b] : 0u);

		out[b] = (uint8_t)sum;
		carry = kernel == DFZ_KERNEL_COPY ? 0 : sum >> 8;
	}
}

#endif /* DFZ_TEST_TILE_REF_H */
