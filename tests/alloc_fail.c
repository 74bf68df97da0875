// SPDX-License-Identifier: MIT
/*
 * The allocation countdown of the unit tests (alloc_fail.h): the
 * __wrap_ functions the linker puts in place of the C library's
 * allocators in the test binary (-Wl,--wrap=..., Makefile). Unarmed they
 * only pass the call on (and forget a tracked block when it is freed);
 * armed they count, fail the chosen call, record the sites and track the
 * blocks. The bookkeeping lives in static tables: the wrapper never
 * allocates.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc_fail.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t k, size_t n);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
void __real_free(void *p);
char *__real_realpath(const char *path, char *resolved);
FILE *__real_open_memstream(char **buf, size_t *n);
int __real_fclose(FILE *f);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t k, size_t n);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);
void __wrap_free(void *p);
int __wrap_asprintf(char **out, const char *fmt, ...);
char *__wrap_realpath(const char *path, char *resolved);
FILE *__wrap_open_memstream(char **buf, size_t *n);
int __wrap_fclose(FILE *f);

#define LIVE_SLOTS (1u << 18)         /* tracked blocks at once, at most */

static struct {
	bool armed;
	pid_t pid;                    /* the process that armed it */
	unsigned long fail_at;        /* 0: none */
	bool persist;                 /* and every call after it */
	unsigned long hard_fails;     /* failed calls but shrinking reallocs */
	struct alloc_fail_stats st;
	const void *site[ALLOC_FAIL_SITES];
	unsigned long nlive;
	const void *live[LIVE_SLOTS]; /* open addressing, NULL: empty */
	const void *live_site[LIVE_SLOTS]; /* where each was allocated */
} af;

static size_t slot_of(const void *p)
{
	uintptr_t h = (uintptr_t)p;

	h ^= h >> 17;
	h *= 0x9e3779b97f4a7c15ull;
	return (size_t)(h >> 20) & (LIVE_SLOTS - 1);
}

static void track(const void *p, const void *site)
{
	size_t i = slot_of(p);

	if (!p)
		return;
	if (af.nlive + 1 >= LIVE_SLOTS) {
		fputs("alloc_fail: too many live blocks to track\n", stderr);
		abort();
	}
	while (af.live[i])
		i = (i + 1) & (LIVE_SLOTS - 1);
	af.live[i] = p;
	af.live_site[i] = site;
	af.nlive++;
}

/* Forget @p if tracked; backward-shift deletion keeps the probe chains. */
static void untrack(const void *p)
{
	size_t i = slot_of(p), j;

	if (!p || !af.nlive)
		return;
	while (af.live[i] != p) {
		if (!af.live[i])
			return;
		i = (i + 1) & (LIVE_SLOTS - 1);
	}
	af.live[i] = NULL;
	af.nlive--;
	for (j = (i + 1) & (LIVE_SLOTS - 1); af.live[j];
	     j = (j + 1) & (LIVE_SLOTS - 1)) {
		size_t home = slot_of(af.live[j]);

		/* The entry at j may move to the hole at i when its home
		 * is not cyclically within (i, j]. */
		if ((j > i && (home <= i || home > j)) ||
		    (j < i && home <= i && home > j)) {
			af.live[i] = af.live[j];
			af.live_site[i] = af.live_site[j];
			af.live[j] = NULL;
			i = j;
		}
	}
}

static void note_site(const void *site)
{
	unsigned k;

	if (af.fail_at)
		return;               /* sites are counted in count runs */
	for (k = 0; k < af.st.nsites; k++)
		if (af.site[k] == site)
			return;
	if (af.st.nsites < ALLOC_FAIL_SITES)
		af.site[af.st.nsites++] = site;
}

/* One allocation made from @site (@shrink: a realloc() that would not
 * grow its block): true when it must fail. */
static bool must_fail(const void *site, bool shrink)
{
	if (!af.armed || getpid() != af.pid)
		return false;
	af.st.calls++;
	note_site(site);
	if (!af.fail_at || af.st.calls < af.fail_at ||
	    (af.st.calls > af.fail_at && !af.persist))
		return false;
	if (!af.st.failed)
		af.st.failed_site = site;
	af.st.failed = true;
	af.hard_fails += !shrink;
	errno = ENOMEM;
	return true;
}

/* Track @p, allocated from @site, when armed (in the arming process). */
static void *tracked(void *p, const void *site)
{
	if (p && af.armed && getpid() == af.pid)
		track(p, site);
	return p;
}

void *__wrap_malloc(size_t n)
{
	if (must_fail(__builtin_return_address(0), false))
		return NULL;
	return tracked(__real_malloc(n), __builtin_return_address(0));
}

void *__wrap_calloc(size_t k, size_t n)
{
	if (must_fail(__builtin_return_address(0), false))
		return NULL;
	return tracked(__real_calloc(k, n), __builtin_return_address(0));
}

void *__wrap_realloc(void *p, size_t n)
{
	void *q;

	if (must_fail(__builtin_return_address(0),
		      p && n <= malloc_usable_size(p)))
		return NULL;
	q = __real_realloc(p, n);
	if (q || !n)
		untrack(p);
	return tracked(q, __builtin_return_address(0));
}

char *__wrap_strdup(const char *s)
{
	if (must_fail(__builtin_return_address(0), false))
		return NULL;
	return tracked(__real_strdup(s), __builtin_return_address(0));
}

void __wrap_free(void *p)
{
	untrack(p);
	__real_free(p);
}

int __wrap_asprintf(char **out, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (must_fail(__builtin_return_address(0), false))
		return -1;
	va_start(ap, fmt);
	n = vasprintf(out, fmt, ap);
	va_end(ap);
	if (n >= 0)
		tracked(*out, __builtin_return_address(0));
	return n;
}

/* Only realpath(path, NULL) allocates. */
char *__wrap_realpath(const char *path, char *resolved)
{
	if (!resolved && must_fail(__builtin_return_address(0), false))
		return NULL;
	return resolved ? __real_realpath(path, resolved) :
			  tracked(__real_realpath(path, NULL),
				  __builtin_return_address(0));
}

/* The stream is tracked until fclose(); its buffer, which the C library
 * allocates, is not (valgrind sees it). */
FILE *__wrap_open_memstream(char **buf, size_t *n)
{
	if (must_fail(__builtin_return_address(0), false))
		return NULL;
	return tracked(__real_open_memstream(buf, n),
		       __builtin_return_address(0));
}

int __wrap_fclose(FILE *f)
{
	untrack(f);
	return __real_fclose(f);
}

void alloc_fail_arm(unsigned long n, bool persist)
{
	if (af.nlive) {               /* a leak an earlier test reported */
		memset(af.live, 0, sizeof(af.live));
		af.nlive = 0;
	}
	memset(&af.st, 0, sizeof(af.st));
	af.fail_at = n;
	af.persist = persist;
	af.hard_fails = 0;
	af.pid = getpid();
	af.armed = true;
}

void alloc_fail_disarm(struct alloc_fail_stats *out)
{
	af.armed = false;
	af.st.live = af.nlive;
	af.st.failed_shrink = af.st.failed && !af.hard_fails;
	if (out)
		*out = af.st;
}

unsigned long alloc_fail_live(void)
{
	return af.nlive;
}

const void *alloc_fail_live_site(void)
{
	for (size_t i = 0; af.nlive && i < LIVE_SLOTS; i++)
		if (af.live[i])
			return af.live_site[i];
	return NULL;
}

const void *alloc_fail_site(unsigned i)
{
	return i < af.st.nsites ? af.site[i] : NULL;
}

const char *alloc_fail_site_name(const void *site, char *buf, size_t len)
{
	Dl_info di;

	if (site && dladdr(site, &di) && di.dli_fname) {
		const char *base = strrchr(di.dli_fname, '/');

		/* The call instruction ends at the return address. */
		snprintf(buf, len, "%s+0x%lx", base ? base + 1 : di.dli_fname,
			 (unsigned long)((uintptr_t)site - 1 -
					 (uintptr_t)di.dli_fbase));
	} else {
		snprintf(buf, len, "%p", site);
	}
	return buf;
}
