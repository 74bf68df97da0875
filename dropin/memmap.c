// SPDX-License-Identifier: MIT
/*
 * The drop-in's memory map (DROPIN 3): L2 and L1 mapped at the PULP
 * addresses, sized by the test file (DFZ_DROPIN_MEMORY) or the defaults,
 * with the program's PI_L2 / PI_CL_L1 statics at their start; then the
 * oracle set and the cores that run on those memories.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dropin_int.h"

/* The oracles of user code: every engine oracle. The reference, output
 * and errcode oracles judge a plan's own program, which user code is not. */
#define DROPIN_ORACLES                                                   \
	(DFZ_ORACLES_ALL & ~((1u << DFZ_ORACLE_REF) |                    \
			     (1u << DFZ_ORACLE_OUTPUT) |                 \
			     (1u << DFZ_ORACLE_ERRCODE)))

/*
 * The program's PI_L2 / PI_CL_L1 statics: the linker's bounds of their
 * sections (NULL without any). The link flags place them at the start of
 * L2 and L1, and place one byte above both windows (dfz_top), so that the
 * program break, which starts after the highest loaded byte, stays clear
 * of the memories the drop-in maps.
 */
extern char __start_dfz_l2[] __attribute__((weak));
extern char __stop_dfz_l2[] __attribute__((weak));
extern char __start_dfz_l1[] __attribute__((weak));
extern char __stop_dfz_l1[] __attribute__((weak));
static char top_guard __attribute__((section("dfz_top"), used)) = 1;

/* The bytes of statics section [start, stop) at the start of the window
 * at @base of @size, or -1 (said on stderr) when they are elsewhere. */
static int64_t statics_of(const char *name, const char *start,
			  const char *stop, uintptr_t base, uint32_t size)
{
	if (!start || stop <= start)
		return 0;
	if ((uintptr_t)start == base && (uintptr_t)(stop - start) <= size)
		return stop - start;
	fprintf(stderr, "dmafuzz: the %s statics are at %p (%zu bytes), not at "
		"the start of the %u-byte window at 0x%08lx: link with "
		"`pkg-config --libs dmafuzz-dropin`\n", name, (void *)start,
		(size_t)(stop - start), size, (unsigned long)base);
	return -1;
}

/* A test file's sizes (DFZ_DROPIN_MEMORY), when it gives them. */
extern const struct dfz_dropin_memory dfz_dropin_memory __attribute__((weak));

/* The size of a window: the test file's, or @def; 0 (said on stderr) when
 * the test file's is above @max. */
static uint32_t window_size(const char *name, uint32_t asked, uint32_t def,
			    uint32_t max)
{
	if (asked == 0)
		return def;
	if (asked <= max)
		return asked;
	fprintf(stderr, "dmafuzz: DFZ_DROPIN_MEMORY asks for %u bytes of %s; "
		"its window holds %u\n", asked, name, max);
	return 0;
}

int dfz__memmap_create(struct dfz__dropin *d)
{
	const struct dfz_dropin_memory *m = &dfz_dropin_memory;
	uint32_t l2_size = window_size("L2", m ? m->l2 : 0, DFZ_DROPIN_L2_SIZE,
				       DFZ_DROPIN_L2_MAX);
	uint32_t l1_size = window_size("L1", m ? m->l1 : 0, DFZ_DROPIN_L1_SIZE,
				       DFZ_DROPIN_L1_MAX);
	struct dfz_rt_layout lay = {
		.base = { [DFZ_L2] = DFZ_DROPIN_L2_BASE,
			  [DFZ_L1] = DFZ_DROPIN_L1_BASE },
		.cap = { [DFZ_L2] = l2_size, [DFZ_L1] = l1_size },
	};
	int64_t l2, l1;
	int rc;

	(void)top_guard;
	if (!l2_size || !l1_size)
		return DFZ_EINVAL;
	l2 = statics_of("PI_L2", __start_dfz_l2, __stop_dfz_l2,
			DFZ_DROPIN_L2_BASE, l2_size);
	l1 = l2 < 0 ? -1 :
	     statics_of("PI_CL_L1", __start_dfz_l1, __stop_dfz_l1,
			DFZ_DROPIN_L1_BASE, l1_size);
	if (l1 < 0)
		return DFZ_EINVAL;
	lay.statics[DFZ_L2] = (uint32_t)l2;
	lay.statics[DFZ_L1] = (uint32_t)l1;
	rc = dfz_rt_create_at(&lay, &d->rt);

	if (rc == DFZ_EFAULT) {
		fprintf(stderr, "dmafuzz: cannot map L2 at 0x%08x and L1 at "
			"0x%08x: %s\n", DFZ_DROPIN_L2_BASE, DFZ_DROPIN_L1_BASE,
			strerror(errno));
		return rc;
	}
	if (rc == 0)
		rc = dfz_oracles_create(DROPIN_ORACLES, &d->set);
	if (rc == 0)
		rc = dfz__cores_create(DFZ__DROPIN_MAX_CORES, 0, &d->cores);
	if (rc < 0)
		fprintf(stderr, "dmafuzz: cannot set up the drop-in: %s\n",
			dfz_strerror(rc));
	return rc;
}
