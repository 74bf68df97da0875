// SPDX-License-Identifier: MIT
/*
 * Tensor layouts: the byte strides of a plan's logical shape stored in a
 * physical dim order with per-dim padding (a transposed or padded tensor).
 */
#include "harness_int.h"

uint32_t dfz__layout_strides(const struct dfz_plan_xfer *x,
			     const struct dfz_plan_layout *l,
			     uint32_t stride[DFZ_MAX_RANK])
{
	uint64_t s = x->elem;

	for (unsigned d = 0; d < DFZ_MAX_RANK; d++)
		stride[d] = 0;
	for (int j = x->rank - 1; j >= 0; j--) {
		unsigned d = l->order[j];

		stride[d] = (uint32_t)s;
		s *= (uint64_t)x->shape[d] + l->pad[d];
	}
	return s > UINT32_MAX ? UINT32_MAX : (uint32_t)s;
}

uint32_t dfz_plan_layout_strides(const struct dfz_plan_xfer *x,
				 const struct dfz_plan_layout *l,
				 uint32_t stride[DFZ_MAX_RANK])
{
	return dfz__layout_strides(x, l, stride);
}
