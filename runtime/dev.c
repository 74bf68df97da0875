// SPDX-License-Identifier: MIT
/*
 * The simulated accelerator device and its driver (DESIGN 3.8). Device
 * memory is the runtime's arena DFZ_DEV_LEVEL, handed out by the first-fit
 * allocator of the SoC levels (same fill pattern, redzones and cheap
 * reset); the driver tags each block a user buffer or a kernel image and
 * adds a budget on live bytes, images that are never freed, copies checked
 * against live user blocks, and one API_RET event per call. The kernel
 * launch lives in dev_kernel.c.
 */
#include <stdlib.h>
#include <string.h>

#include "runtime_int.h"

/* ---------------------------------------------------------------- lifecycle */

int dfz__dev_init(struct dfz_dev *dev, struct dfz_rt *rt)
{
	memset(dev, 0, sizeof(*dev));
	dev->rt = rt;
	/* A kernel argument never exceeds its block, so the arena bounds it. */
	dev->sum = malloc(DFZ_CAP_DEV);
	return dev->sum ? 0 : DFZ_ENOMEM;
}

void dfz__dev_fini(struct dfz_dev *dev)
{
	free(dev->sum);
	dev->sum = NULL;
}

void dfz__dev_reset(struct dfz_dev *dev)
{
	dev->live = 0;
}

struct dfz_dev *dfz_dev_get(struct dfz_rt *rt)
{
	return rt ? &rt->dev : NULL;
}

uint64_t dfz__dev_live(const struct dfz_dev *dev)
{
	return dev->live;
}

/* ------------------------------------------------------------------ events */

static uint32_t saturate(uint64_t n)
{
	return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

/* True when @addr is a device address inside the arena; @off: its offset. */
static bool arena_off(uint64_t addr, uint32_t *off)
{
	if (addr < DFZ_DEV_BASE || addr - DFZ_DEV_BASE >= DFZ_CAP_DEV)
		return false;
	*off = (uint32_t)(addr - DFZ_DEV_BASE);
	return true;
}

struct dfz_span dfz__dev_span(uint64_t addr, uint64_t n)
{
	struct dfz_span s = { .level = DFZ_NOWHERE_LEVEL, .len = saturate(n) };

	if (arena_off(addr, &s.off))
		s.level = DFZ_DEV_LEVEL;
	return s;
}

void dfz__api_init(struct dfz__api *a, enum dfz_api call)
{
	memset(a, 0, sizeof(*a));
	a->call = (uint8_t)call;
	a->dst.level = DFZ_NOWHERE_LEVEL;
	a->src.level = DFZ_NOWHERE_LEVEL;
}

void dfz__api_emit(struct dfz_rt *rt, enum dfz_ev_kind kind,
		   const struct dfz__api *a)
{
	struct dfz_event ev = {
		.kind = (uint8_t)kind,
		.step = dfz_rt_now(rt),
		.handle = a->host,
		.dst = a->dst,
		.src = a->src,
		.aux = a->call,
		.id = kind == DFZ_EV_API_RET ? a->rc : 0,
	};

	ev.desc.size = saturate(a->size);
	dfz_rt_emit(rt, &ev);
}

int dfz__api_ret(struct dfz_rt *rt, struct dfz__api *a, int rc)
{
	a->rc = rc;
	dfz__api_emit(rt, DFZ_EV_API_RET, a);
	return rc;
}

/* ------------------------------------------------------------------ blocks */

/* The live block of kind @kind whose user region holds @addr, or NULL. */
static const struct dfz_block *block_of(const struct dfz_dev *dev,
					uint64_t addr, uint8_t kind,
					uint32_t *off)
{
	const struct dfz_block *b;

	if (!arena_off(addr, off))
		return NULL;
	b = dfz__mem_block_at(dev->rt, DFZ_DEV_LEVEL, *off);
	return b && b->tag == kind ? b : NULL;
}

bool dfz__dev_is_image(const struct dfz_dev *dev, uint64_t addr)
{
	const struct dfz_block *b;
	uint32_t off;

	b = block_of(dev, addr, DFZ__DEV_IMAGE, &off);
	return b && b->off == off;
}

bool dfz__dev_in_user(const struct dfz_dev *dev, uint64_t addr, uint64_t n,
		      uint32_t *off)
{
	const struct dfz_block *b = block_of(dev, addr, DFZ__DEV_USER, off);

	return b && n <= (uint64_t)b->off + b->size - *off;
}

/* A block of @size bytes within the budget. Return: 0 or DFZ_ENOMEM. */
static int dev_alloc(struct dfz_dev *dev, uint64_t size, uint8_t kind,
		     uint32_t *off)
{
	uint64_t budget = dev->rt->cfg.dev_budget;

	if (size > budget || dev->live > budget - size)
		return DFZ_ENOMEM;
	if (dfz__mem_alloc(dev->rt, DFZ_DEV_LEVEL, (uint32_t)size, kind,
			   off) < 0)
		return DFZ_ENOMEM;
	dev->live += size;
	return 0;
}

static int dev_free(struct dfz_dev *dev, uint64_t addr)
{
	const struct dfz_block *b;
	uint32_t off, size;

	b = block_of(dev, addr, DFZ__DEV_USER, &off);
	if (!b || b->off != off)
		return DFZ_ENOENT;
	size = b->size;
	dfz__mem_free(dev->rt, DFZ_DEV_LEVEL, off);
	dev->live -= size;
	return 0;
}

static uint8_t *arena_at(const struct dfz_dev *dev, uint32_t off)
{
	return dev->rt->arena[DFZ_DEV_LEVEL].base + off;
}

/* --------------------------------------------------------------- the driver */

/*
 * MALLOC and REGISTER: a block of @size bytes, a kernel image filled from
 * @bin when @bin is given, else a user buffer; @bad: an argument check
 * failed. @addr: out, the block's device address.
 */
static int alloc_call(struct dfz_dev *dev, enum dfz_api call,
		      const void *bin, uint64_t size, uint64_t *addr, bool bad)
{
	uint8_t kind = bin ? DFZ__DEV_IMAGE : DFZ__DEV_USER;
	struct dfz__api a;
	uint32_t off;
	int rc;

	dfz__api_init(&a, call);
	a.host = bin;
	a.size = size;
	rc = bad ? DFZ_EINVAL : dev_alloc(dev, size, kind, &off);
	if (rc < 0)
		return dfz__api_ret(dev->rt, &a, rc);
	if (bin) {
		memcpy(arena_at(dev, off), bin, (size_t)size);
		dfz__mem_touch(dev->rt, DFZ_DEV_LEVEL, off, (uint32_t)size);
	}
	*addr = DFZ_DEV_BASE + off;
	a.dst = dfz__dev_span(*addr, size);
	return dfz__api_ret(dev->rt, &a, 0);
}

int dfz_dev_malloc(struct dfz_dev *dev, uint64_t size, uint64_t *addr)
{
	if (!dev)
		return DFZ_EINVAL;
	return alloc_call(dev, DFZ_API_MALLOC, NULL, size, addr,
			  size == 0 || !addr);
}

int dfz_dev_register(struct dfz_dev *dev, const void *bin, uint32_t size,
		     uint64_t *handle)
{
	if (!dev)
		return DFZ_EINVAL;
	return alloc_call(dev, DFZ_API_REGISTER, bin, size, handle,
			  !bin || size == 0 || !handle);
}

int dfz_dev_free(struct dfz_dev *dev, uint64_t addr)
{
	struct dfz__api a;

	if (!dev)
		return DFZ_EINVAL;
	dfz__api_init(&a, DFZ_API_FREE);
	a.dst = dfz__dev_span(addr, 0);
	return dfz__api_ret(dev->rt, &a,
			    addr == 0 ? DFZ_EINVAL : dev_free(dev, addr));
}

/* ------------------------------------------------------------------ copies */

/*
 * One copy: @dst and @src are device addresses or, when @to_dev / @from_dev
 * says so, host pointers (as integers). The host side is trusted; every
 * device range must lie inside one live user block.
 */
struct copy {
	enum dfz_api call;
	uint64_t dst;
	uint64_t src;
	uint64_t n;
	bool dst_dev;
	bool src_dev;
};

static int do_copy(struct dfz_dev *dev, const struct copy *c)
{
	uint32_t doff = 0, soff = 0;
	uint8_t *d, *s;

	if ((c->dst_dev && !dfz__dev_in_user(dev, c->dst, c->n, &doff)) ||
	    (c->src_dev && !dfz__dev_in_user(dev, c->src, c->n, &soff)))
		return DFZ_EFAULT;
	d = c->dst_dev ? arena_at(dev, doff) : (uint8_t *)(uintptr_t)c->dst;
	s = c->src_dev ? arena_at(dev, soff) : (uint8_t *)(uintptr_t)c->src;
	memmove(d, s, (size_t)c->n);
	if (c->dst_dev)
		dfz__mem_touch(dev->rt, DFZ_DEV_LEVEL, doff, (uint32_t)c->n);
	return 0;
}

static int copy(struct dfz_dev *dev, const struct copy *c)
{
	struct dfz__api a;
	bool bad;

	if (!dev)
		return DFZ_EINVAL;
	dfz__api_init(&a, c->call);
	a.size = c->n;
	if (c->dst_dev)
		a.dst = dfz__dev_span(c->dst, c->n);
	else
		a.host = (const void *)(uintptr_t)c->dst;
	if (c->src_dev)
		a.src = dfz__dev_span(c->src, c->n);
	else
		a.host = (const void *)(uintptr_t)c->src;
	bad = (!c->dst_dev && !c->dst) || (!c->src_dev && !c->src) || !c->n;
	return dfz__api_ret(dev->rt, &a, bad ? DFZ_EINVAL : do_copy(dev, c));
}

int dfz_dev_copy_to(struct dfz_dev *dev, uint64_t dst, const void *src,
		    uint64_t n)
{
	struct copy c = { DFZ_API_COPY_TO, dst, (uintptr_t)src, n,
			  true, false };

	return copy(dev, &c);
}

int dfz_dev_copy_from(struct dfz_dev *dev, void *dst, uint64_t src,
		      uint64_t n)
{
	struct copy c = { DFZ_API_COPY_FROM, (uintptr_t)dst, src, n,
			  false, true };

	return copy(dev, &c);
}

int dfz_dev_copy_dev(struct dfz_dev *dev, uint64_t dst, uint64_t src,
		     uint64_t n)
{
	struct copy c = { DFZ_API_COPY_DEV, dst, src, n, true, true };

	return copy(dev, &c);
}

int dfz_dev_peek(const struct dfz_dev *dev, uint64_t addr, void *dst,
		 uint64_t n)
{
	uint64_t off;

	if (!dev || (!dst && n))
		return DFZ_EINVAL;
	if (addr < DFZ_DEV_BASE)
		return DFZ_EFAULT;
	off = addr - DFZ_DEV_BASE;
	if (off > DFZ_CAP_DEV || n > DFZ_CAP_DEV - off)
		return DFZ_EFAULT;
	if (dfz__mem_ready(dev->rt, DFZ_DEV_LEVEL, off, n) < 0)
		return DFZ_ENOMEM;
	if (n)
		memcpy(dst, arena_at(dev, (uint32_t)off), (size_t)n);
	return 0;
}
