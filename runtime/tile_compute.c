// SPDX-License-Identifier: MIT
/*
 * The compute kernels of the tiling executor (DESIGN 3.7): deterministic
 * elementwise transforms over a tile's local buffers, on little-endian
 * unsigned integers of the element size, run in chunks with a yield point
 * between chunks (where a transfer racing with the compute becomes
 * visible). Every read and write is published as a compute event.
 */
#include <string.h>

#include "runtime_int.h"

#define NAME_OF(id, name) name,
static const char *const kernel_names[DFZ_KERNEL_COUNT] = {
	DFZ_KERNEL_MAP(NAME_OF)
};
#undef NAME_OF

const char *dfz_kernel_name(unsigned k)
{
	return k < DFZ_KERNEL_COUNT ? kernel_names[k] : NULL;
}

static void emit_compute(const struct dfz_compute *c,
			 enum dfz_ev_kind kind, const uint8_t *at,
			 uint32_t len)
{
	struct dfz_event ev = {
		.kind = (uint8_t)kind,
		.engine = c->engine,
		.step = dfz_rt_now(c->rt),
	};
	struct dfz_span s = { 0 };

	dfz_mem_locate(c->rt, at, len, &s);
	if (kind == DFZ_EV_COMPUTE_READ)
		ev.src = s;
	else
		ev.dst = s;
	dfz_rt_emit(c->rt, &ev);
}

/* @n elements: out = in (COPY), in + 1 (INC) or in + aux (ADD), modulo
 * 2^(8 elem), byte by byte with carry so any element size works. */
static void apply_kernel(unsigned kernel, uint8_t *out, const uint8_t *in,
			 const uint8_t *aux, uint32_t n, unsigned elem)
{
	if (kernel == DFZ_KERNEL_COPY) {
		memcpy(out, in, (size_t)n * elem);
		return;
	}
	for (size_t i = 0, k = 0; i < n; i++) {
		unsigned carry = kernel == DFZ_KERNEL_INC;

		for (unsigned b = 0; b < elem; b++, k++) {
			unsigned sum = in[k] + (aux ? aux[k] : 0u) + carry;

			out[k] = (uint8_t)sum;
			carry = sum >> 8;
		}
	}
}

/* Elements [@lo, @lo + @n); the engines may run afterwards. The byte
 * counts fit: the buffers hold a whole tile. */
static void compute_chunk(const struct dfz_compute *c, uint64_t lo,
			  uint64_t n)
{
	uint32_t off = (uint32_t)(lo * c->elem), len = (uint32_t)(n * c->elem);
	const uint8_t *aux = c->aux ? c->aux + off : NULL;

	emit_compute(c, DFZ_EV_COMPUTE_READ, c->in + off, len);
	if (aux)
		emit_compute(c, DFZ_EV_COMPUTE_READ, aux, len);
	apply_kernel(c->kernel, c->out + off, c->in + off, aux, (uint32_t)n,
		     c->elem);
	emit_compute(c, DFZ_EV_COMPUTE_WRITE, c->out + off, len);
	dfz_rt_yield(c->rt, DFZ_YIELD_COMPUTE);
}

void dfz_compute_run(const struct dfz_compute *c)
{
	uint64_t chunks = c->chunks ? c->chunks : 1;

	if (chunks > c->n)
		chunks = c->n;
	for (uint64_t k = 0; k < chunks; k++) {
		uint64_t lo = c->n * k / chunks, hi = c->n * (k + 1) / chunks;

		compute_chunk(c, lo, hi - lo);
	}
}
