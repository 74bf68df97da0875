/* SPDX-License-Identifier: MIT */
/*
 * The drop-in's crash and time-limit guard (dropin/crash.c): in a bare run
 * or a replay, a signal in the test body (SIGSEGV, SIGBUS, SIGFPE, SIGILL,
 * SIGABRT) or a body past its time limit leaves the body by a jump back
 * into dfz__dropin_run(), which turns it into a finding at the user's line
 * (symbolized by dropin/symbolize.c). Fuzz executions install none of it:
 * the fuzzers keep their own crash handling.
 */
#ifndef DMAFUZZ_DROPIN_CRASH_H
#define DMAFUZZ_DROPIN_CRASH_H

#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "dropin_int.h"

#define DFZ__CRASH_TIMEOUT 10u   /* seconds of CPU per run, by default */

/* Where a signal in an armed body lands (sigsetjmp in dfz__dropin_run).
 * Reached through a function: the library exports no variable (GCC's
 * ASan would add an unprefixed ODR indicator beside it). */
sigjmp_buf *dfz__crash_jmp(void);

/**
 * dfz__crash_install() - catch the body's signals from now on, and end a
 * run after @timeout seconds of CPU time (0: no limit; up to a tenth more:
 * the timer, set once, ticks every tenth of the limit). A signal that
 * already has a handler (a sanitizer's) keeps it. Idempotent; the limit
 * is updated. Return: 0, or DFZ_ENOMEM (no alternate signal stack).
 */
int dfz__crash_install(unsigned timeout);

/** dfz__crash_uninstall() - the handlers before install, no time limit. */
void dfz__crash_uninstall(void);

/** dfz__crash_installed() - whether bodies run guarded. */
bool dfz__crash_installed(void);

/**
 * dfz__crash_arm() - the body of @d's run starts (after the sigsetjmp on
 * dfz__crash_jmp): its signals and its time limit escape there. Also
 * forgets the previous run's transfers in flight.
 */
void dfz__crash_arm(struct dfz__dropin *d);

/** dfz__crash_disarm() - the body returned: the time limit is off. */
void dfz__crash_disarm(void);

/**
 * dfz__crash_event() - track the transfers whose destination is still in
 * flight (ISSUE to COMPLETE), to name the one a wild value came from.
 * Called by the run's observer before the site record counts the issue,
 * for DFZ__CRASH_EVENTS only.
 */
void dfz__crash_event(struct dfz__dropin *d, const struct dfz_event *ev);
#define DFZ__CRASH_EVENTS (1u << DFZ_EV_ISSUE | 1u << DFZ_EV_COMPLETE)

/**
 * dfz__crash_verdict() - the body escaped: leave any fork, then record the
 * finding (class crash for a signal, dma.hang for the time limit) at the
 * first frame of the user's code, with the transfer the faulting value
 * was read from as the earlier call, when one is known.
 */
void dfz__crash_verdict(struct dfz__dropin *d);

/** dfz__crash_escaped() - whether the last run's body escaped. */
bool dfz__crash_escaped(void);

/**
 * dfz__crash_print() - the text verdict's extra lines of an escaped run:
 * the last SDK call and the transfers in flight at the fault.
 */
void dfz__crash_print(FILE *f);

/**
 * dfz__crash_schedule() - the file holding the run's schedule, named in
 * the context printed when a sanitizer ends the process (NULL: none).
 * @path: borrowed until the next call.
 */
void dfz__crash_schedule(const char *path);

/**
 * dfz__crash_pending() - the schedule of the bare run about to start,
 * written to @fd (the file dfz__crash_schedule() names) only when a
 * sanitizer ends the process; a finding the run returns is the caller's
 * to write. No system call: the bare run's schedules cost none.
 * @fd: -1 for none. @buf, @n: borrowed until the next call.
 */
void dfz__crash_pending(int fd, const uint8_t *buf, size_t n);

/**
 * dfz__dropin_fail_as() - as dfz__dropin_fail(), by oracle @oracle
 * ("signal", "timeout") instead of "dropin" (state.c).
 */
void dfz__dropin_fail_as(struct dfz__dropin *d, const char *oracle,
			 enum dfz_class cls, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/** dfz__guard_new_run() - a run starts: the pages dfz__dropin_usable()
 * found mapped are looked at again (guard.c). */
void dfz__guard_new_run(void);

/* symbolize.c: the binary's own debug info */
struct dfz__sym {
	uintptr_t addr;
	int line;                 /* 0: unknown */
	char file[200];
	char func[64];
	bool ours;                /* in the drop-in or the library */
};

/**
 * dfz__symbolize() - file:line of each of the @n code addresses at
 * @addr (in the running program), by addr2line over the binary's debug
 * info ($DFZ_ADDR2LINE, else addr2line on the PATH), inlined frames
 * expanded innermost first. @out: room for @max entries.
 * Return: the entries written (0 when nothing could be symbolized).
 */
unsigned dfz__symbolize(const uintptr_t *addr, unsigned n,
			struct dfz__sym *out, unsigned max);

#endif /* DMAFUZZ_DROPIN_CRASH_H */
