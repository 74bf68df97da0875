/* SPDX-License-Identifier: MIT */
/*
 * The modelled MCHAN register window (mmio.c): one page mapped PROT_NONE
 * at the cluster DMA's register address, whose loads and stores fault and
 * are performed on the mchan engine by a SIGSEGV handler, so that code
 * with its own register-level mchan.h (DORY's, Deeploy's GAP9 one) runs
 * unchanged. docs/porting/registers.md says what a user sees.
 */
#ifndef DMAFUZZ_DROPIN_MMIO_H
#define DMAFUZZ_DROPIN_MMIO_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#define DFZ__MMIO_PAGE 0x00201000u   /* the page mapped */
#define DFZ__MMIO_MCHAN 0x00201800u  /* command register; status at +4 */

struct dfz__dropin;

/**
 * dfz__mmio_init() - map the window and install the handler, once per
 * process (later calls return at once). A window that cannot be mapped
 * is said on stderr once; register-level code then faults as without us.
 */
void dfz__mmio_init(void);

/** dfz__mmio_mapped() - whether the window is there (dfz__mmio_init()
 * found its page free). */
bool dfz__mmio_mapped(void);

/**
 * dfz__mmio_fault() - serve @si (a SIGSEGV) when it is an access to the
 * window: the access performed on the model, the registers in @uctx
 * updated, its rip past the instruction. Return: whether it was one.
 */
bool dfz__mmio_fault(const siginfo_t *si, void *uctx);

/**
 * dfz__mmio_below() - @sa itself, or, when @sa is the window's handler,
 * the action it passes other faults to (for dfz__crash_install(), which
 * decides by it whether a sanitizer holds SIGSEGV).
 */
const struct sigaction *dfz__mmio_below(const struct sigaction *sa);

/** dfz__mmio_new_run() - a run begins: the command ports are empty. */
void dfz__mmio_new_run(void);

#endif /* DMAFUZZ_DROPIN_MMIO_H */
