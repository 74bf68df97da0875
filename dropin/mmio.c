// SPDX-License-Identifier: MIT
/*
 * The MCHAN register window (mmio.h). Code with its own register-level
 * mchan.h reads and writes the cluster DMA's registers through volatile
 * pointers: the command register (a read allocates a transfer counter;
 * writes push a command word, then loc, ext, and the 2-D words the
 * command's flags call for) and the status register (a read gives the
 * busy bitmap; a write frees the counters whose bits are set). The page
 * is PROT_NONE: each access faults, and the handler decodes the faulting
 * mov (x86_decode.c), performs it on the mchan engine through the core
 * the MCHAN names share (mchan_v7.c), writes the loaded value into the
 * saved register and resumes after the instruction. A fault elsewhere
 * goes to the action that was there before (the default, ASan's), and
 * dropin/crash.c's guard asks us first. The handler never switches cores
 * (it may run on the guard's alternate stack): a register access is an
 * engine yield point, not a core switch point.
 */
#define _GNU_SOURCE
#define MCHAN_VERSION 7
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "dropin_int.h"
#include "crash.h"
#include "mmio.h"
#include "x86_decode.h"
#include "dmafuzz/dropin/mchan.h"
#include "dmafuzz/dropin/archi/dfz_cluster_regs.h"

#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#endif
#endif
#ifndef __MEMCHECK_H
#define RUNNING_ON_VALGRIND 0
#define VALGRIND_DISABLE_ADDR_ERROR_REPORTING_IN_RANGE(a, n) ((void)(a), (void)(n))
#define VALGRIND_ENABLE_ADDR_ERROR_REPORTING_IN_RANGE(a, n) ((void)(a), (void)(n))
#endif

#define PAGE 4096u
#define WORDS 7          /* cmd, loc, ext, 2 ext 2-D, 2 loc 2-D */
#define SPINS 4          /* busy reads without progress before a wait */
#define SITES 128        /* distinct pcs symbolized */

struct pc_site {
	uintptr_t pc;
	int line;
	char file[200];
	char func[64];
};

static struct {
	bool tried, mapped;
	struct sigaction below;
	uint32_t word[DFZ__DROPIN_MAX_CORES][WORDS];
	unsigned nword[DFZ__DROPIN_MAX_CORES];
	uint32_t pushed;           /* counters pushed on, not seen idle */
	uint32_t last_busy;
	unsigned spins;
	bool evt;                  /* a DMA event is pending */
	unsigned nsites;
	struct pc_site site[SITES];
} mm;

/* Encoding order -> ucontext's. */
static const int greg_of[16] = {
	REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP, REG_RSI, REG_RDI,
	REG_R8, REG_R9, REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15,
};

/* ------------------------------------------------------------- sites */

/* The user's line of the access at @pc: symbolized once per pc. */
static struct dfz_site site_of(uintptr_t pc)
{
	static struct pc_site none = { 0, 0, "MCHAN register access", "" };
	struct dfz__sym sym[8];
	struct pc_site *s;
	unsigned n;

	for (unsigned i = 0; i < mm.nsites; i++)
		if (mm.site[i].pc == pc)
			return (struct dfz_site){ mm.site[i].file,
						  mm.site[i].line,
						  mm.site[i].func };
	if (mm.nsites == SITES)
		return (struct dfz_site){ none.file, 0, none.func };
	s = &mm.site[mm.nsites++];
	*s = (struct pc_site){ .pc = pc };
	n = dfz__symbolize(&pc, 1, sym, 8);
	if (n > 0 && sym[0].line > 0) {
		snprintf(s->file, sizeof(s->file), "%s", sym[0].file);
		snprintf(s->func, sizeof(s->func), "%s", sym[0].func);
		s->line = sym[0].line;
	} else {
		snprintf(s->file, sizeof(s->file), "MCHAN register access at "
			 "pc %#lx", (unsigned long)pc);
	}
	return (struct dfz_site){ s->file, s->line, s->func };
}

/* ------------------------------------------------------------ model */

static uint32_t busy_map(struct dfz_mchan *m)
{
	uint32_t b = 0;

	for (int t = 0; t < DFZ_MCHAN_NTIDS; t++)
		if (dfz_mchan_transfer_busy(m, t))
			b |= 1u << t;
	return b;
}

/* Counters pushed on and now idle: the code saw them done, which is its
 * wait (the engine's wait returns at once and tells the oracles so). */
static void seen_idle(struct dfz_mchan *m, uint32_t busy)
{
	uint32_t done = mm.pushed & ~busy;

	for (int t = 0; t < DFZ_MCHAN_NTIDS; t++)
		if (done & (1u << t))
			dfz_mchan_transfer_wait(m, t);
	mm.pushed &= busy;
}

/* The lowest busy counter waited for: the engine steps until it is done
 * (a hang past the bound is the engine's dma.hang). */
static void wait_lowest(struct dfz_mchan *m, uint32_t busy)
{
	for (int t = 0; t < DFZ_MCHAN_NTIDS; t++)
		if (busy & (1u << t)) {
			dfz_mchan_transfer_wait(m, t);
			return;
		}
}

/* A read of the status register: a yield point where the engine steps;
 * a spin that sees no progress SPINS times waits for a busy counter. */
static uint32_t read_status(struct dfz__dropin *d)
{
	struct dfz_mchan *m = dfz_mchan_get(d->rt);
	uint32_t busy = busy_map(m);

	if (busy) {
		dfz_rt_yield(d->rt, DFZ_YIELD_WAIT);
		busy = busy_map(m);
	}
	if (busy && busy == mm.last_busy && ++mm.spins >= SPINS) {
		wait_lowest(m, busy);
		busy = busy_map(m);
	}
	if (busy != mm.last_busy || !busy)
		mm.spins = 0;
	mm.last_busy = busy;
	seen_idle(m, busy);
	return busy;
}

/* A read of the command register: a counter for the calling core. */
static uint32_t read_cmd(struct dfz__dropin *d)
{
	struct dfz_mchan *m = dfz_mchan_get(d->rt);

	if (dfz__quirk(d, DFZ_QUIRK_MCHAN_STALL_NO_TID) &&
	    dfz_mchan_tids(m) == (1u << DFZ_MCHAN_NTIDS) - 1) {
		dfz__dropin_fail(d, DFZ_CLASS_DMA_HANG, "the read of the MCHAN "
				 "command register stalls: all %d counters are "
				 "allocated (a register access does not switch "
				 "cores, so no other core frees one here)",
				 DFZ_MCHAN_NTIDS);
		return UINT32_MAX;
	}
	return dfz__mchan_alloc(d, d->cur);
}

static uint32_t words_of(uint32_t cmd)
{
	return 3 + (cmd >> DFZ_MCHAN_SHIFT_EXT_2D & 1u) * 2 +
	       (cmd >> DFZ_MCHAN_SHIFT_LOC_2D & 1u) * 2;
}

/* The command's words, complete: one push on the engine. */
static void push_words(struct dfz__dropin *d, const uint32_t *w)
{
	unsigned core = dfz__cores_id(d->cores);
	bool ext2d = w[0] >> DFZ_MCHAN_SHIFT_EXT_2D & 1u;
	bool loc2d = w[0] >> DFZ_MCHAN_SHIFT_LOC_2D & 1u;
	unsigned at = 3;
	struct dfz_mchan_transfer t = {
		.cmd = w[0],
		.size = w[0] & DFZ_MCHAN_LEN_MASK,
		.loc = (void *)(uintptr_t)w[1],
		.ext = (void *)(uintptr_t)w[2],
		.ext_size_1d = UINT32_MAX,
		.loc_size_1d = UINT32_MAX,
	};

	if (ext2d) {
		t.ext_size_1d = w[at++];
		t.ext_stride_1d = w[at++];
	}
	if (loc2d) {
		t.loc_size_1d = w[at++];
		t.loc_stride_1d = w[at++];
	}
	dfz__mchan_push(d, t, loc2d ? DFZ_MCHAN_PUSH_GENERIC :
			      ext2d ? DFZ_MCHAN_PUSH_2D : DFZ_MCHAN_PUSH_1D);
	if (d->last_tid[core] >= 0)
		mm.pushed |= 1u << d->last_tid[core];
	mm.evt = true;
}

static void write_cmd(struct dfz__dropin *d, uint32_t v)
{
	unsigned core = dfz__cores_id(d->cores);
	uint32_t *w = mm.word[core];

	w[mm.nword[core]++] = v;
	if (mm.nword[core] < 3 || mm.nword[core] < words_of(w[0]))
		return;
	mm.nword[core] = 0;
	push_words(d, w);
}

static void write_status(struct dfz__dropin *d, uint32_t v)
{
	struct dfz_mchan *m = dfz_mchan_get(d->rt);

	d->apis |= DFZ__API_MCHAN;
	for (int t = 0; t < DFZ_MCHAN_NTIDS; t++)
		if (v & (1u << t)) {
			dfz_mchan_transfer_free(m, t);
			mm.pushed &= ~(1u << t);
		}
}

/* Another register access while the core's command lacks words: the
 * code thinks it pushed a command the DMA still waits to complete (one
 * encoded in MCHAN v6's layout, whose flags sit one bit lower, reads as
 * a 2-D command here and on a v7 chip). */
static void unfinished(struct dfz__dropin *d)
{
	unsigned core = dfz__cores_id(d->cores);
	unsigned n = mm.nword[core];

	if (n == 0)
		return;
	mm.nword[core] = 0;
	dfz__dropin_fail(d, DFZ_CLASS_CMD_ENCODING, "MCHAN command 0x%08x "
			 "takes %u words and got %u before this register "
			 "access (v6 layout on a v7 MCHAN? MCHAN_VERSION "
			 "must be 7)", n ? mm.word[core][0] : 0,
			 n < 3 ? 3 : words_of(mm.word[core][0]), n);
}

/* The access at @pc: @off 0 or 4, a load (returns the value) or a store
 * of @v. Outside a test body: reads give 0, writes are dropped. */
static uint32_t serve(unsigned off, bool store, uint32_t v, uintptr_t pc)
{
	struct dfz__dropin *d = dfz__dropin_get();

	if (!d->in_run) {
		static bool said;

		if (!said)
			fprintf(stderr, "dmafuzz: an MCHAN register access "
				"outside a test body (pc %#lx): ignored\n",
				(unsigned long)pc);
		said = true;
		return 0;
	}
	d->cur = site_of(pc);
	if (!(off == 0 && store))
		unfinished(d);
	if (off == 0 && store)
		write_cmd(d, v);
	else if (off == 0)
		return read_cmd(d);
	else if (store)
		write_status(d, v);
	else
		return read_status(d);
	return 0;
}

void dfz__mmio_new_run(void)
{
	memset(mm.nword, 0, sizeof(mm.nword));
	mm.pushed = 0;
	mm.last_busy = 0;
	mm.spins = 0;
	mm.evt = false;
}

unsigned int dfz_dropin_eu_evt_wait(struct dfz_site s, unsigned int mask)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);
	struct dfz_mchan *m;
	uint32_t busy;

	if (!d || !(mask & (1u << CL_IRQ_DMA0)))
		return mask;
	m = dfz_mchan_get(d->rt);
	busy = busy_map(m);
	if (busy) {
		wait_lowest(m, busy);
		busy = busy_map(m);
	} else if (!mm.evt) {
		dfz__dropin_fail(d, DFZ_CLASS_DMA_HANG, "eu_evt_maskWaitAndClr"
				 "(%#x) waits for the DMA event with no "
				 "transfer in flight and none pending: it "
				 "never comes", mask);
	}
	mm.evt = false;
	mm.last_busy = busy;
	mm.spins = 0;
	seen_idle(m, busy);
	return mask;
}

/* ----------------------------------------------------------- fault */

/* Valgrind's defaults keep only sp, bp and ip precise at a memory
 * access, and not even ip in a callee it chased into: what the handler
 * reads is stale. */
#define VG_IMPRECISE "valgrind's registers are not precise at memory "       \
		     "accesses: run it with --vex-iropt-register-updates="    \
		     "allregs-at-mem-access --vex-guest-chase=no"

/* An access we cannot model: one line, then exit 2 (a limit of the
 * harness, not a finding). */
static void refuse(uintptr_t pc, uintptr_t addr, const char *why)
{
	char msg[256];
	int n = snprintf(msg, sizeof(msg), "dmafuzz: the access to MCHAN "
			 "register %#lx at pc %#lx is not modelled: %s\n",
			 (unsigned long)addr, (unsigned long)pc, why);

	if (n > 0 && write(2, msg, (size_t)n) < 0)
		n = 0;
	_exit(2);
}

bool dfz__mmio_fault(const siginfo_t *si, void *uctx)
{
	ucontext_t *uc = uctx;
	greg_t *g;
	uintptr_t addr, pc;
	uint64_t regs[16];
	struct dfz__x86_access a = { 0 };
	size_t n;
	uint32_t v;

	if (!si || !uc || si->si_signo != SIGSEGV || !mm.mapped)
		return false;
	addr = (uintptr_t)si->si_addr;
	if (addr < DFZ__MMIO_PAGE || addr >= DFZ__MMIO_PAGE + PAGE)
		return false;
	g = uc->uc_mcontext.gregs;
	pc = (uintptr_t)g[REG_RIP];
	for (int i = 0; i < 16; i++)
		regs[i] = (uint64_t)g[greg_of[i]];
	n = PAGE - (pc & (PAGE - 1));
	if (dfz__x86_decode((const uint8_t *)pc, n < 15 ? n : 15, pc, regs,
			    &a) < 0 || a.addr != addr)
		refuse(pc, addr, RUNNING_ON_VALGRIND ? VG_IMPRECISE :
		       a.len == 0 ? "only a 32-bit mov load or store "
		       "(opcodes 8B, 89, C7) is" :
		       "the decoded address differs");
	if (addr != DFZ__MMIO_MCHAN && addr != DFZ__MMIO_MCHAN + 4)
		refuse(pc, addr, "only the command (+0) and status (+4) "
		       "registers are");
	v = a.has_imm ? a.imm : (uint32_t)regs[a.reg];
	v = serve((unsigned)(addr - DFZ__MMIO_MCHAN), a.store, v, pc);
	if (!a.store)
		g[greg_of[a.reg]] = (greg_t)(uint64_t)v;
	g[REG_RIP] += a.len;
	return true;
}

/* ------------------------------------------------------------- setup */

/* At exit: memcheck's reports on the page as they were (it warns about
 * a disablement still in force otherwise). */
static void vg_restore(void)
{
	VALGRIND_ENABLE_ADDR_ERROR_REPORTING_IN_RANGE(DFZ__MMIO_PAGE, PAGE);
}

static void on_segv(int signo, siginfo_t *si, void *uctx)
{
	int saved = errno;
	struct sigaction *b = &mm.below;

	if (dfz__mmio_fault(si, uctx)) {
		errno = saved;
		return;
	}
	if ((b->sa_flags & SA_SIGINFO) && b->sa_sigaction) {
		b->sa_sigaction(signo, si, uctx);
	} else if (b->sa_handler == SIG_DFL || b->sa_handler == SIG_IGN) {
		/* The fault comes again, with the default action. */
		signal(SIGSEGV, SIG_DFL);
	} else {
		b->sa_handler(signo);
	}
	errno = saved;
}

bool dfz__mmio_mapped(void)
{
	return mm.mapped;
}

const struct sigaction *dfz__mmio_below(const struct sigaction *sa)
{
	if ((sa->sa_flags & SA_SIGINFO) && sa->sa_sigaction == on_segv)
		return &mm.below;
	return sa;
}

void dfz__mmio_init(void)
{
	struct sigaction sa;
	void *p;

	if (mm.tried)
		return;
	mm.tried = true;
	p = mmap((void *)(uintptr_t)DFZ__MMIO_PAGE, PAGE, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p != (void *)(uintptr_t)DFZ__MMIO_PAGE) {
		if (p != MAP_FAILED)
			munmap(p, PAGE);
		fprintf(stderr, "dmafuzz: cannot map the MCHAN register window "
			"at %#x: %s\n", DFZ__MMIO_PAGE,
			p == MAP_FAILED ? strerror(errno) : "taken");
		return;
	}
	/* Memcheck: the faulting accesses are the model's, not errors. */
	VALGRIND_DISABLE_ADDR_ERROR_REPORTING_IN_RANGE(p, PAGE);
	if (RUNNING_ON_VALGRIND)
		atexit(vg_restore);
	sigaction(SIGSEGV, NULL, &mm.below);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO | (mm.below.sa_flags & SA_ONSTACK);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	mm.mapped = true;
}
