// SPDX-License-Identifier: MIT
/*
 * The drop-in's memory map (DROPIN 3): L2 and L1 mapped at the PULP
 * addresses, sized by the test file (DFZ_DROPIN_MEMORY) or the defaults,
 * with the program's statics at their start (L2: PI_L2 and every plain
 * static of the user's objects; L1: PI_CL_L1) and the stacks after them
 * (L1: one per core, the TCDM's; L2: the fabric controller's, on which
 * the test body runs); then the oracle set and the cores that run on
 * those memories. docs/porting/memory.md says what a user sees.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dropin_int.h"
#include "mmio.h"

/* The oracles of user code: every engine oracle. The reference, output
 * and errcode oracles judge a plan's own program, which user code is not. */
#define DROPIN_ORACLES                                                   \
	(DFZ_ORACLES_ALL & ~((1u << DFZ_ORACLE_REF) |                    \
			     (1u << DFZ_ORACLE_OUTPUT) |                 \
			     (1u << DFZ_ORACLE_ERRCODE)))

/*
 * The program's statics, as the link places them (dmafuzz-dropin.ld,
 * which `pkg-config --libs dmafuzz-dropin` passes): at the start of L2
 * the PI_L2 ones, then every .rodata, .data and .bss of the user's
 * objects (__dfz_l2_end after the last); at the start of L1 the PI_CL_L1
 * ones (__dfz_l1_start, __dfz_l1_end). The library's own statics stay
 * out of both windows, and one byte sits above them (dfz_top) so that the
 * program break starts clear of the memories the drop-in maps. The
 * bounds are NULL without the script.
 */
extern char __dfz_l2_start[] __attribute__((weak));
extern char __dfz_l2_end[] __attribute__((weak));
extern char __dfz_l1_start[] __attribute__((weak));
extern char __dfz_l1_end[] __attribute__((weak));
/* Without the script: the sections' own bounds, wherever they are. */
extern char __start_dfz_l2[] __attribute__((weak));
extern char __stop_dfz_l2[] __attribute__((weak));
extern char __start_dfz_l1[] __attribute__((weak));
extern char __stop_dfz_l1[] __attribute__((weak));
static char top_guard __attribute__((section("dfz_top"), used)) = 1;

/* Where dfz_top goes: the memories end below. */
#define TOP 0x40000000u

/* Statics of the harness itself (this library's .data and .bss), which a
 * user's DMA must never reach: checked outside both windows. */
static char harness_data = 1;
static char harness_bss;

/* The cores' stacks (L1, each core's TCDM) and the fabric controller's
 * (L2), after the heaps of their levels. Host frames are larger than the
 * chip's: the harness's own calls run on them too. */
#define CORE_STACK (256u << 10)
#define FC_STACK (1u << 20)
#define PAGE_ROOM(n, each) ((uint64_t)(n) * ((each) + 65536u) + 65536u)

/* The bytes of statics section [start, stop) at the start of the window
 * at @base of @size, or -1 (said on stderr) when they are elsewhere. */
static int64_t statics_of(const char *name, const char *start,
			  const char *stop, uintptr_t base, uint32_t size)
{
	if (!start || stop <= start)
		return 0;
	if ((uintptr_t)start == base && (uintptr_t)(stop - start) <= size)
		return stop - start;
	if ((uintptr_t)start == base)
		fprintf(stderr, "dmafuzz: the %s statics take %zu bytes, more "
			"than the %u of the memory: give it more with "
			"DFZ_DROPIN_MEMORY(l2, l1)\n", name,
			(size_t)(stop - start), size);
	else
		fprintf(stderr, "dmafuzz: the %s statics are at %p (%zu bytes), "
			"not at the start of the %u-byte window at 0x%08lx: "
			"link with `pkg-config --libs dmafuzz-dropin`\n", name,
			(void *)start, (size_t)(stop - start), size,
			(unsigned long)base);
	return -1;
}

/* Whether the harness's statics lie outside the windows (said on stderr
 * when not: a link that put the library's objects into L2). */
static bool harness_apart(void)
{
	uintptr_t p[2] = { (uintptr_t)&harness_data, (uintptr_t)&harness_bss };

	for (unsigned i = 0; i < 2; i++) {
		if (p[i] < DFZ_DROPIN_L1_BASE || p[i] >= TOP)
			continue;
		fprintf(stderr, "dmafuzz: the harness's own statics are at "
			"%#lx, inside the memories a DMA reaches: link with "
			"`pkg-config --libs dmafuzz-dropin` (GNU ld), whose "
			"script keeps libdmafuzz*.a out of L2\n",
			(unsigned long)p[i]);
		return false;
	}
	return true;
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

/* The layout of L2 and L1 at their PULP addresses: heaps of @l2 and @l1
 * bytes, the statics at their start, the stacks after them; false (said
 * on stderr) when the program's statics do not fit or lie elsewhere. */
static bool layout(struct dfz_rt_layout *lay, uint32_t l2_size,
		   uint32_t l1_size)
{
	bool script = __dfz_l2_start && __dfz_l2_end;
	const char *l2 = script ? __dfz_l2_start : __start_dfz_l2;
	const char *l2_end = script ? __dfz_l2_end : __stop_dfz_l2;
	const char *l1 = script ? __dfz_l1_start : __start_dfz_l1;
	const char *l1_end = script ? __dfz_l1_end : __stop_dfz_l1;
	int64_t s2, s1;

	*lay = (struct dfz_rt_layout){
		.base = { [DFZ_L2] = DFZ_DROPIN_L2_BASE,
			  [DFZ_L1] = DFZ_DROPIN_L1_BASE },
		.cap = { [DFZ_L2] = l2_size, [DFZ_L1] = l1_size },
		.nstacks = { [DFZ_L2] = 1, [DFZ_L1] = DFZ__DROPIN_MAX_CORES },
		.stack = { [DFZ_L2] = FC_STACK, [DFZ_L1] = CORE_STACK },
	};
	if (l1_size + PAGE_ROOM(DFZ__DROPIN_MAX_CORES, CORE_STACK) >
	    DFZ_DROPIN_L1_MAX) {
		fprintf(stderr, "dmafuzz: %u bytes of L1 leave no room in its "
			"window for the cores' stacks\n", l1_size);
		return false;
	}
	s2 = statics_of("L2", l2, l2_end, DFZ_DROPIN_L2_BASE, l2_size);
	s1 = s2 < 0 ? -1 :
	     statics_of("PI_CL_L1", l1, l1_end, DFZ_DROPIN_L1_BASE, l1_size);
	if (s1 < 0 || !harness_apart())
		return false;
	lay->statics[DFZ_L2] = (uint32_t)s2;
	lay->statics[DFZ_L1] = (uint32_t)s1;
	return true;
}

/* The copy below is run before every run, in fuzz builds too: neither
 * ASan (a program's statics hold its redzones between globals) nor the
 * fuzzers' compare tracing (a traced compare a word costs more than the
 * copy) may see it. */
#if defined(__clang__)
#define RAW_COPY __attribute__((no_sanitize("address", "coverage")))
#elif defined(__SANITIZE_ADDRESS__)
#define RAW_COPY __attribute__((no_sanitize("address")))
#else
#define RAW_COPY
#endif

/* Copies @n bytes a word at a time, without a call the compiler could
 * turn into memcpy (which ASan intercepts). */
static RAW_COPY void copy_raw(uint8_t *dst, const uint8_t *src, size_t n)
{
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t w;

		__builtin_memcpy(&w, src + i, 8);
		__builtin_memcpy(dst + i, &w, 8);
		__asm__ volatile("" ::: "memory");
	}
	for (; i < n; i++) {
		dst[i] = src[i];
		__asm__ volatile("" ::: "memory");
	}
}

/* The statics of @level at @at (@n bytes), as loaded. The chip's L2 and
 * L1 are RAM, const objects included: the linker gives a window that holds
 * only read-only sections (a program whose L2 statics are all const, as
 * clang places them) a read-only segment, which the restore before each
 * run, and a DMA into a const table, write. Its pages are made writable. */
static int snapshot(struct dfz__statics *st, uintptr_t at, size_t n)
{
	long pg = sysconf(_SC_PAGESIZE);
	size_t span;

	*st = (struct dfz__statics){ (uint8_t *)at, NULL, n };
	if (n == 0)
		return 0;
	pg = pg > 0 ? pg : 4096;
	span = (n + (size_t)pg - 1) / (size_t)pg * (size_t)pg;
	if (mprotect((void *)at, span, PROT_READ | PROT_WRITE) != 0) {
		fprintf(stderr, "dmafuzz: cannot make the statics at 0x%08lx "
			"writable: %s\n", (unsigned long)at, strerror(errno));
		return DFZ_EFAULT;
	}
	st->copy = malloc(n);
	if (!st->copy)
		return DFZ_ENOMEM;
	copy_raw(st->copy, st->at, n);
	return 0;
}

void dfz__memmap_restore(struct dfz__dropin *d)
{
	dfz__mmio_new_run();
	for (unsigned i = 0; i < 2; i++)
		if (d->statics[i].copy)
			copy_raw(d->statics[i].at, d->statics[i].copy,
				 d->statics[i].n);
}

void dfz__memmap_fini(struct dfz__dropin *d)
{
	for (unsigned i = 0; i < 2; i++) {
		free(d->statics[i].copy);
		d->statics[i] = (struct dfz__statics){ 0 };
	}
}

int dfz__memmap_create(struct dfz__dropin *d)
{
	const struct dfz_dropin_memory *m = &dfz_dropin_memory;
	uint32_t l2_size = window_size("L2", m ? m->l2 : 0, DFZ_DROPIN_L2_SIZE,
				       DFZ_DROPIN_L2_MAX);
	uint32_t l1_size = window_size("L1", m ? m->l1 : 0, DFZ_DROPIN_L1_SIZE,
				       DFZ_DROPIN_L1_MAX);
	struct dfz_rt_layout lay;
	int rc;

	(void)top_guard;
	dfz__mmio_init();    /* the MCHAN register window, once */
	if (!l2_size || !l1_size || !layout(&lay, l2_size, l1_size))
		return DFZ_EINVAL;
	rc = dfz_rt_create_at(&lay, &d->rt);
	if (rc == DFZ_EFAULT) {
		fprintf(stderr, "dmafuzz: cannot map L2 at 0x%08x and L1 at "
			"0x%08x: %s\n", DFZ_DROPIN_L2_BASE, DFZ_DROPIN_L1_BASE,
			strerror(errno));
		return rc;
	}
	if (rc == 0)
		rc = snapshot(&d->statics[0], DFZ_DROPIN_L2_BASE,
			      lay.statics[DFZ_L2]);
	if (rc == 0)
		rc = snapshot(&d->statics[1], DFZ_DROPIN_L1_BASE,
			      lay.statics[DFZ_L1]);
	if (rc == 0)
		rc = dfz__statics_declare(d->rt);
	if (rc == 0)
		rc = dfz_oracles_create(DROPIN_ORACLES, &d->set);
	if (rc == 0)
		rc = dfz__cores_create_on(d->rt, DFZ__DROPIN_MAX_CORES,
					  &d->cores);
	if (rc < 0)
		fprintf(stderr, "dmafuzz: cannot set up the drop-in: %s\n",
			dfz_strerror(rc));
	return rc;
}
