// SPDX-License-Identifier: MIT
/*
 * Guards that keep the harness alive under the user's faults: a pointer
 * handed to an SDK call is checked before the drop-in touches it. NULL
 * and the zero page, memory no mapping holds, and the program's own
 * read-only image (code, constants) are each a finding at the call's
 * line, of class dma.bad-address: the address the SDK call was handed is
 * not memory it can use. Checked without touching the memory: the
 * cluster's memories and the program's writable statics by their bounds,
 * anything else by mincore(2) on its pages, whose answers are kept: for
 * the rest of the run (a per-run cache, so each page costs one system
 * call per run at most), and for good when the page is on the stack the
 * call runs on, just above its stack pointer (stacks stay mapped; their
 * pages cost one system call per process). Memory that is mapped but
 * read-only or PROT_NONE elsewhere (another library's constants, a guard
 * page) passes; a write there is caught by the crash guard (crash.c), at
 * the same line.
 */
#define _DEFAULT_SOURCE /* mincore */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "crash.h"

#define ZERO_PAGE (64u << 10)  /* below Linux's default mmap_min_addr */
#define CACHED 64              /* pages known mapped this run */
#define STACKS 32              /* stack pages known mapped for good */
#define STACK_NEAR (256u << 10)  /* "on the running stack": this far above
				  * the stack pointer (a core's stack) */

/* The program's image (ld's symbols): code and constants up to the
 * writable data, which ends at `end`. */
extern char __executable_start[] __attribute__((weak));
extern char __data_start[] __attribute__((weak));
extern char end[] __attribute__((weak));

static uintptr_t cache[CACHED];     /* page numbers + 1; 0: empty */
static uintptr_t stack_cache[STACKS];
static uint64_t cache_run;          /* the run the cache holds */
static uint64_t run_id;

void dfz__guard_new_run(void)
{
	run_id++;
}

static uintptr_t page_size(void)
{
	static uintptr_t ps;

	if (!ps) {
		long v = sysconf(_SC_PAGESIZE);

		ps = v > 0 ? (uintptr_t)v : 4096;
	}
	return ps;
}

/* Are pages [lo, hi] (page numbers) mapped? One mincore per miss; the
 * answer kept for good for pages of the running stack (@stack). The
 * answer's vector is not on the stack: this file is not built with ASan,
 * and ASan's mincore interceptor checks it against the running core's
 * stack shadow, which can still hold the poison of a frame of the user's
 * ASan code that a core switch left. */
static bool mapped(uintptr_t lo, uintptr_t hi, bool stack)
{
	uintptr_t ps = page_size();
	static unsigned char vec[16];

	if (cache_run != run_id) {
		memset(cache, 0, sizeof(cache));
		cache_run = run_id;
	}
	for (uintptr_t pg = lo; pg <= hi; pg++) {
		uintptr_t *slot = stack ? &stack_cache[pg % STACKS] :
					  &cache[pg % CACHED];

		if (*slot == pg + 1)
			continue;
		if (mincore((void *)(pg * ps), ps, vec) < 0 && errno != EAGAIN)
			return false;
		*slot = pg + 1;
	}
	return true;
}

/* Why [p, p + n) cannot be used (@ro: only read), or NULL when it can. */
static const char *unusable(struct dfz__dropin *d, const void *p, size_t n,
			    bool ro)
{
	uintptr_t a = (uintptr_t)p, ps = page_size();
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
	struct dfz_span span;

	if (a < ZERO_PAGE)
		return a ? "points into the zero page" : "is NULL";
	if (a + n < a)
		return "wraps around the address space";
	if (dfz_mem_locate(d->rt, p, n ? (uint32_t)n : 1, &span))
		return NULL;                /* L1 or L2 */
	if (__data_start && end && a >= (uintptr_t)__data_start &&
	    a + n <= (uintptr_t)end)
		return NULL;                /* the program's writable data */
	if (!ro && __executable_start && __data_start &&
	    a >= (uintptr_t)__executable_start && a < (uintptr_t)__data_start)
		return "is in the program's read-only image (code or "
		       "constants)";
	if (!mapped(a / ps, (a + (n ? n : 1) - 1) / ps,
		    a >= sp && a - sp < STACK_NEAR))
		return "is not mapped";
	return NULL;
}

bool dfz__dropin_usable(struct dfz__dropin *d, const void *p, size_t n,
			const char *what)
{
	const char *why = unusable(d, p, n, false);

	if (!why)
		return true;
	dfz__dropin_fail(d, DFZ_CLASS_DMA_BAD_ADDRESS,
			 "%s %s (%p; expected a pointer to caller-owned, "
			 "writable memory)", what, why, p);
	return false;
}

bool dfz__dropin_readable(struct dfz__dropin *d, const void *p, size_t n,
			  const char *what)
{
	const char *why = unusable(d, p, n, true);

	if (!why)
		return true;
	dfz__dropin_fail(d, DFZ_CLASS_DMA_BAD_ADDRESS, "%s %s (%p; expected "
			 "a pointer to memory the call can read)", what, why, p);
	return false;
}
