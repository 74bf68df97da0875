// SPDX-License-Identifier: MIT
/*
 * The crash reporter of the replay driver: a real fault (SIGSEGV, SIGBUS,
 * SIGFPE, SIGILL) prints one line on stderr, DFZ_CRASH_TAG and the crash
 * site (signal, address, pc, direction, the program's load base, the code
 * bytes around pc, the backtrace), then dies of the same signal, so the
 * exit status still says how it died. `dmafuzz triage --exec` reads the
 * line back (dfz_crash_site_parse()) and disassembles the bytes.
 *
 * Linking this object installs it (a constructor): the replay driver and
 * a user's own target need no call. A handler already installed (a
 * sanitizer's) is chained: it runs after the line, with its own report.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "dmafuzz/harness.h"

static const int reported[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL };
#define NREPORTED (sizeof(reported) / sizeof(reported[0]))
static struct sigaction previous[NREPORTED];
static uintptr_t program_base;

/* The handler that was there before ours, if any, then the default. */
static void chain(int signo, siginfo_t *si, void *uctx)
{
	for (size_t i = 0; i < NREPORTED; i++) {
		const struct sigaction *p = &previous[i];

		if (reported[i] != signo)
			continue;
		if ((p->sa_flags & SA_SIGINFO) && p->sa_sigaction)
			p->sa_sigaction(signo, si, uctx);
		else if (p->sa_handler != SIG_DFL && p->sa_handler != SIG_IGN)
			p->sa_handler(signo);
	}
	signal(signo, SIG_DFL);
	raise(signo);
}

static void on_fault(int signo, siginfo_t *si, void *uctx)
{
	struct dfz_crash_site site;

	dfz_crash_site_capture(signo, si, uctx, &site);
	site.base = program_base;
	dfz_crash_site_write(&site, STDERR_FILENO);
	chain(signo, si, uctx);
}

__attribute__((constructor)) static void install(void)
{
	struct sigaction sa;
	Dl_info info;

	if (dladdr((void *)(uintptr_t)install, &info) && info.dli_fbase)
		program_base = (uintptr_t)info.dli_fbase;
	dfz_crash_site_prepare();
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NREPORTED; i++)
		sigaction(reported[i], &sa, &previous[i]);
}
