// SPDX-License-Identifier: MIT
/*
 * What an oracle learns from bytes the program never wrote. Under
 * valgrind memcheck such bytes are undefined (cfg.sanitize: a fresh block;
 * definedness travels with the bytes through a transfer), and a branch
 * on anything computed from them is an error memcheck reports in the
 * oracle, not in the program. An oracle reads program bytes to judge
 * them, never to use them: it declares what it computed defined before
 * it compares.
 */
#include "oracle_int.h"

#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#endif
#endif

void dfz__oracle_judged(const void *p, size_t n)
{
#ifdef __MEMCHECK_H
	(void)VALGRIND_MAKE_MEM_DEFINED(p, n);
#else
	(void)p;
	(void)n;
#endif
}
