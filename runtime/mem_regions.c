// SPDX-License-Identifier: MIT
/*
 * The parts of a level that are not allocations (runtime.h,
 * struct dfz_mem_regions): the program's statics at the start of a fixed
 * level, with the objects the program declared in them, and the cores'
 * stacks at its end. Oracles read them to judge a transfer that lies
 * there as they judge one in a block. And the one query of the blocks
 * themselves (dfz_mem_block()): which live block holds an offset, for
 * the drop-in's allocator checks.
 */
#include <stdlib.h>
#include <string.h>

#include "runtime_int.h"

void dfz_mem_regions(const struct dfz_rt *rt, enum dfz_level level,
		     struct dfz_mem_regions *out)
{
	const struct dfz_arena *a;
	uint32_t guard;

	memset(out, 0, sizeof(*out));
	if (!rt || (unsigned)level >= DFZ_NLEVELS)
		return;
	a = &rt->arena[level];
	out->statics = a->statics;
	out->obj = a->obj;
	out->nobj = a->nobj;
	if (a->nstacks == 0)
		return;
	guard = 1u << a->shift;
	out->nstacks = a->nstacks;
	out->stack0 = a->stacks + guard;
	out->stack_step = a->slot;
	out->stack_len = a->slot - guard;
}

static int by_off(const void *x, const void *y)
{
	const struct dfz_span *a = x, *b = y;

	if (a->off != b->off)
		return a->off < b->off ? -1 : 1;
	return a->len < b->len ? 1 : a->len > b->len ? -1 : 0;
}

/* Sort @o by offset and drop the empty and the overlapping (the larger
 * of two starting together is kept); return how many remain. */
static uint32_t tidy(struct dfz_span *o, uint32_t n)
{
	uint32_t k = 0;

	qsort(o, n, sizeof(*o), by_off);
	for (uint32_t i = 0; i < n; i++) {
		if (o[i].len == 0)
			continue;
		if (k > 0 && (uint64_t)o[k - 1].off + o[k - 1].len > o[i].off)
			continue;
		o[k++] = o[i];
	}
	return k;
}

int dfz_mem_declare_statics(struct dfz_rt *rt, enum dfz_level level,
			    const struct dfz_span *obj, uint32_t n)
{
	struct dfz_arena *a;
	struct dfz_span *o = NULL;

	if (!rt || (unsigned)level >= DFZ_NLEVELS || (n && !obj))
		return DFZ_EINVAL;
	a = &rt->arena[level];
	if (n && a->statics == 0)
		return DFZ_EINVAL;
	for (uint32_t i = 0; i < n; i++)
		if ((uint64_t)obj[i].off + obj[i].len > a->statics)
			return DFZ_EINVAL;
	if (n && !(o = malloc((size_t)n * sizeof(*o))))
		return DFZ_ENOMEM;
	if (n)
		memcpy(o, obj, (size_t)n * sizeof(*o));
	for (uint32_t i = 0; i < n; i++)
		o[i].level = (uint8_t)level;
	free(a->obj);
	a->obj = o;
	a->nobj = n ? tidy(o, n) : 0;
	return 0;
}

int dfz_mem_block(const struct dfz_rt *rt, enum dfz_level level, uint32_t off,
		  uint32_t *user_off, uint32_t *size)
{
	const struct dfz_block *b;

	if (!rt || (unsigned)level >= DFZ_NLEVELS)
		return DFZ_EINVAL;
	b = dfz__mem_block_at(rt, level, off);
	if (!b)
		return DFZ_EFAULT;
	if (user_off)
		*user_off = b->off;
	if (size)
		*size = b->size;
	return 0;
}
