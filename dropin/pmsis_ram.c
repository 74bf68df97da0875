// SPDX-License-Identifier: MIT
/*
 * The PMSIS memory and cluster-RAM names (bsp/ram.h, pmsis.h) on the
 * runtime: the L2/L1 allocators (redzones around every block), Deeploy's
 * cl_ram_malloc over L3, and pi_cl_ram_copy(_2d) / pi_cl_ram_copy_wait on
 * the ram engine, the caller's request being the driver's queue node.
 * A local address outside L1/L2 is dma.bad-address at the caller's line;
 * a free is judged against the block it names first (blocks.c: the size,
 * an interior pointer, a static, a double free).
 */
#include "dropin_int.h"
#include "dmafuzz/dropin/bsp/ram.h"

static const char *const level_names[] = { "L3", "L2", "L1" };

void *dfz_dropin_malloc(struct dfz_site s, int level, uint32_t size)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);
	struct dfz_span sp;
	void *p = NULL;

	if (!d || (level != DFZ_L2 && level != DFZ_L1))
		return NULL;
	if (dfz_local_alloc(d->rt, (enum dfz_level)level, size, &p) < 0)
		return NULL;
	if (dfz_mem_locate(d->rt, p, 1, &sp))
		dfz__blocks_user(d, sp.level, sp.off);
	return p;
}

/* The free of a live block of @level, judged first (blocks.c): whether
 * it was done or judged a misuse. */
static bool local_free(struct dfz__dropin *d, int level, void *ptr,
		       uint32_t size)
{
	struct dfz_span sp;
	struct dfz__free_call c;

	if (!dfz_mem_locate(d->rt, ptr, 1, &sp) || sp.level != level)
		return false;
	c = (struct dfz__free_call){ level == DFZ_L2 ? "pi_l2_free" :
				     "pi_cl_l1_free", sp.level, sp.off,
				     (uintptr_t)ptr, size, true };
	return !dfz__blocks_free(d, &c) || dfz_local_free(d->rt, ptr) == 0;
}

void dfz_dropin_free(struct dfz_site s, int level, void *ptr, uint32_t size)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	if (!d || !ptr || local_free(d, level, ptr, size))
		return;
	dfz__dropin_fail(d, DFZ_CLASS_DEV_MISUSE,
			 "free of %p, which is not a live %s block "
			 "(expected a pointer the %s allocator returned)",
			 ptr, level_names[level % 3], level_names[level % 3]);
}

void *dfz_dropin_ram_malloc(struct dfz_site s, uint32_t size)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);
	uint32_t off;

	if (!d || dfz_l3_alloc(d->rt, size, &off) < 0)
		return NULL;
	dfz__blocks_user(d, DFZ_L3, off);
	return (void *)(uintptr_t)off;
}

void dfz_dropin_ram_free(struct dfz_site s, void *ptr, uint32_t size)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);
	uint32_t off = (uint32_t)(uintptr_t)ptr;
	struct dfz__free_call c = { "cl_ram_free", DFZ_L3, off, off, size,
				    true };

	if (!d || !dfz__blocks_free(d, &c))
		return;
	if (dfz_l3_free(d->rt, off) < 0)
		dfz__dropin_fail(d, DFZ_CLASS_DEV_MISUSE,
				 "cl_ram_free of 0x%x, which is not a live L3 "
				 "block (expected an address cl_ram_malloc "
				 "returned)", (unsigned)off);
}

struct pi_device *dfz_dropin_ram_device(void)
{
	static struct pi_device ram;

	return &ram;
}

int dfz_dropin_l3_write(uint32_t l3, const void *src, uint32_t n)
{
	return dfz_l3_write(dfz__dropin_get()->rt, l3, src, n) < 0 ? -1 : 0;
}

int dfz_dropin_l3_read(uint32_t l3, void *dst, uint32_t n)
{
	return dfz_l3_read(dfz__dropin_get()->rt, l3, dst, n) < 0 ? -1 : 0;
}

/* ram_write(dest L3, src, n) or ram_read(dest, src L3, n): a copy between
 * L3 and CPU memory that is over when it returns. */
void dfz_dropin_ram_load(struct dfz_site s, void *dest, const void *src,
			 size_t size, int to_l3)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);
	int rc;

	if (!d)
		return;
	if (size > UINT32_MAX)
		rc = DFZ_ERANGE;
	else if (to_l3)
		rc = dfz_l3_write(d->rt, (uint32_t)(uintptr_t)dest, src,
				  (uint32_t)size);
	else
		rc = dfz_l3_read(d->rt, (uint32_t)(uintptr_t)src, dest,
				 (uint32_t)size);
	if (rc < 0)
		dfz__dropin_fail(d, DFZ_CLASS_DMA_BAD_ADDRESS,
				 "%s of %zu bytes at L3 0x%x: outside L3 "
				 "(expected an address cl_ram_malloc returned)",
				 to_l3 ? "ram_write" : "ram_read", size,
				 (unsigned)(uintptr_t)(to_l3 ? dest : src));
}

void dfz_dropin_ram_copy(struct dfz_site s, struct pi_device *device,
			 uint32_t ram_addr, void *addr, uint32_t size,
			 uint32_t stride, uint32_t length, int ext2loc,
			 int is_2d, pi_cl_ram_req_t *req)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);
	struct dfz_ram *ram;
	int rc;

	(void)device;
	if (!d)
		return;
	d->apis |= DFZ__API_RAM;
	ram = dfz_ram_get(d->rt);
	rc = is_2d ? dfz_ram_copy_2d(ram, ram_addr, addr, size, stride, length,
				     ext2loc, req) :
		     dfz_ram_copy(ram, ram_addr, addr, size, ext2loc, req);
	if (rc == DFZ_EFAULT)
		dfz__dropin_fail(d, DFZ_CLASS_DMA_BAD_ADDRESS,
				 "pi_cl_ram_copy%s: local address %p is outside "
				 "L1/L2 (expected a buffer from pi_l2_malloc or "
				 "pmsis_l1_malloc)", is_2d ? "_2d" : "", addr);
	else if (rc < 0)
		dfz__dropin_fail(d, DFZ_CLASS_RT_ERRCODE,
				 "pi_cl_ram_copy%s(size %u, length %u) cannot "
				 "be queued: %s", is_2d ? "_2d" : "", size,
				 length, dfz_strerror(rc));
}

void dfz_dropin_ram_wait(struct dfz_site s, pi_cl_ram_req_t *req)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	if (d)
		dfz_ram_wait_on(dfz_ram_get(d->rt), req);
}
