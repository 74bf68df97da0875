/* SPDX-License-Identifier: MIT */
/*
 * Allocation fault injection by countdown, as SQLite does it: the test
 * binary is linked with -Wl,--wrap for malloc, calloc, realloc, strdup,
 * free, asprintf, realpath, open_memstream and fclose (Makefile,
 * ALLOC_FAIL_WRAP), so every call the library (and the tests) makes goes
 * through tests/alloc_fail.c, the library's own sources unchanged. Armed
 * with N, the Nth allocation fails (NULL, errno ENOMEM) and the others
 * succeed (or, persistent, every one from the Nth on); armed with 0,
 * nothing fails and the calls are only counted.
 * While armed the wrapper also records where each allocation was made
 * (the caller's return address, so distinct sites can be counted) and
 * keeps every block allocated since it was armed until it is freed, so a
 * test asserts "nothing left allocated" without valgrind.
 *
 * Only the process that armed it counts (a forked child allocates as it
 * likes). Not thread-safe: the operations under test are single-threaded.
 * Allocations inside shared libraries (libc's own, jansson's) are not
 * seen: jansson reports some of its allocation failures as parse errors
 * and survives others, which is its own contract, not ours.
 */
#ifndef DFZ_TEST_ALLOC_FAIL_H
#define DFZ_TEST_ALLOC_FAIL_H

#include <stdbool.h>
#include <stddef.h>

#define ALLOC_FAIL_SITES 1024         /* distinct sites kept per count run */

/* struct alloc_fail_stats - what one armed stretch saw. */
struct alloc_fail_stats {
	unsigned long calls;          /* allocations counted */
	unsigned long live;           /* blocks allocated and not yet freed */
	bool failed;                  /* the Nth call was reached and failed */
	const void *failed_site;      /* its caller (return address) */
	bool failed_shrink;           /* every failed call was a realloc()
				       * that would not have grown its block:
				       * the caller may keep the old one and
				       * succeed */
	unsigned nsites;              /* distinct sites (count runs only) */
};

/* alloc_fail_arm() - count from now; fail call @n (0: fail none), and
 * with @persist every call after it too (the error paths then run out of
 * memory as well). */
void alloc_fail_arm(unsigned long n, bool persist);

/* alloc_fail_disarm() - stop counting and failing; what was seen. Blocks
 * still live stay tracked until freed (alloc_fail_live()). */
void alloc_fail_disarm(struct alloc_fail_stats *out);

/* alloc_fail_live() - blocks allocated under the last arm, not yet freed. */
unsigned long alloc_fail_live(void);

/* alloc_fail_live_site() - where one of those blocks was allocated. */
const void *alloc_fail_live_site(void);

/* alloc_fail_site() - site @i of the last count run (i < nsites). */
const void *alloc_fail_site(unsigned i);

/*
 * alloc_fail_site_name() - the call that returns to @site as
 * "binary+0xOFFSET" into @buf (addr2line -e binary OFFSET names its line).
 */
const char *alloc_fail_site_name(const void *site, char *buf, size_t len);

#endif /* DFZ_TEST_ALLOC_FAIL_H */
