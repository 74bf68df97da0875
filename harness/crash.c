// SPDX-License-Identifier: MIT
/*
 * Catching a real crash of the system under test: a signal raised while
 * the runtime runs a plan (a NULL dereference on the null-arg path, say) is
 * turned into a `crash` verdict instead of killing the caller. Used by the
 * CLI; fuzz targets leave signals alone so the fuzzer and the sanitizers
 * see the fault where it happened. The handler jumps back out of the
 * runtime: the runtime's state is garbage afterwards and the executor
 * resets it before the next run.
 */
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>

#include "harness_int.h"

static const int caught[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL };
#define NCAUGHT (sizeof(caught) / sizeof(caught[0]))

static sigjmp_buf *volatile guard_env;
static volatile sig_atomic_t guard_signo;
static void *volatile guard_addr;

static void on_signal(int signo, siginfo_t *si, void *uctx)
{
	(void)uctx;
	guard_signo = signo;
	guard_addr = si ? si->si_addr : NULL;
	siglongjmp(*guard_env, 1);
}

bool dfz__guard(dfz__guarded_fn fn, void *ctx, struct dfz__crash *out)
{
	struct sigaction sa, old[NCAUGHT];
	sigjmp_buf env;
	bool ok = true;
	unsigned i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	guard_env = &env;
	for (i = 0; i < NCAUGHT; i++)
		sigaction(caught[i], &sa, &old[i]);
	if (sigsetjmp(env, 1) == 0) {
		fn(ctx);
	} else {
		ok = false;
		out->signo = guard_signo;
		out->addr = (uintptr_t)guard_addr;
	}
	for (i = 0; i < NCAUGHT; i++)
		sigaction(caught[i], &old[i], NULL);
	guard_env = NULL;
	return ok;
}

const char *dfz__signal_name(int signo)
{
	switch (signo) {
	case SIGSEGV:
		return "SIGSEGV";
	case SIGBUS:
		return "SIGBUS";
	case SIGFPE:
		return "SIGFPE";
	case SIGILL:
		return "SIGILL";
	default:
		return "signal";
	}
}
