// SPDX-License-Identifier: MIT
/*
 * The harness never dies without a verdict (issue 23, item 2). In a bare
 * run or a replay, a signal in the test body (SIGSEGV, SIGBUS, SIGFPE,
 * SIGILL, SIGABRT) is caught on an alternate stack, its pc, registers,
 * stack words and backtrace captured, and control jumps back into
 * dfz__dropin_run(), which calls dfz__crash_verdict(): a finding of class
 * crash at the first frame of the user's code (symbolize.c), naming the
 * transfer still in flight whose poisoned destination the faulting value
 * came from, when one did. A body past its time limit (CPU time, so a
 * loaded machine does not change the verdict) is sampled for a few
 * milliseconds more and ends the same way: dma.hang at the line where it
 * spins. A signal that has a handler already (ASan's, UBSan's) keeps it;
 * the sanitizer reports, and the context follows from its death callback.
 *
 * A run makes no system call of its own here: the time limit is a
 * periodic CPU-time timer set once, TICKS ticks to the limit, whose
 * ticks count only while a body is armed; arming and disarming are
 * stores. A body is stopped after between the limit and TICKS + 1 ticks
 * of CPU time (10% more). After an escape the signal mask the body was
 * armed with is restored here, so the caller's sigsetjmp need not save
 * it (a system call at every run).
 */
#define _GNU_SOURCE /* REG_*, pthread_getattr_np */
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <ucontext.h>
#include <unistd.h>

#include "crash.h"
#include "mmio.h"

#define SAMPLES 16          /* pc samples of a body past its time limit */
#define FRAMES 32           /* return addresses kept per sample */
#define NREGS 31
#define STACK_WORDS 64      /* words above the faulting sp */
#define FLIGHTS 64          /* transfers in flight tracked */
#define ALT_STACK (64u << 10)
#define SAMPLE_USEC 1000    /* CPU time between samples */
#define TICKS 10            /* timer ticks to the time limit */

static const int caught[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT,
			      SIGVTALRM };
#define NCAUGHT (sizeof(caught) / sizeof(caught[0]))

static sigjmp_buf crash_jmp;

sigjmp_buf *dfz__crash_jmp(void)
{
	return &crash_jmp;
}

struct sample {
	unsigned n;
	uintptr_t frame[FRAMES];          /* frame[0]: the pc */
};

/* One transfer whose destination has not landed yet. */
struct flight {
	int64_t xfer;                     /* issue index of the run */
	uint8_t engine;
	uint64_t key;                     /* ram: request; else the id */
	uintptr_t dst;                    /* first destination byte */
	uint32_t extent;                  /* to one past the last */
	uint32_t size;
};

static struct {
	bool installed;
	unsigned timeout;
	bool ours[NCAUGHT];
	struct sigaction old[NCAUGHT];
	stack_t alt, old_alt;
	int probe[2];
	volatile sig_atomic_t armed;
	volatile sig_atomic_t ticking;    /* the periodic timer runs */
	volatile sig_atomic_t ticks;      /* of the armed body */
	sigset_t mask;                    /* the thread's, at install */
	volatile sig_atomic_t signo;      /* the escape's signal, 0: none */
	volatile sig_atomic_t nsamples;
	int code;
	uintptr_t addr;
	uintptr_t reg[NREGS];
	unsigned nregs;
	uint64_t stack[STACK_WORDS];
	unsigned nstack;
	struct sample sample[SAMPLES];
	const char *schedule;
	int pending_fd;                   /* dfz__crash_pending() */
	const uint8_t *pending;
	size_t npending;
	const void *main_bottom;          /* the main stack, for ASan */
	size_t main_size;
} cr = { .probe = { -1, -1 }, .pending_fd = -1 };

static struct flight flight[FLIGHTS];
static unsigned nflight;
static struct dfz__dropin *running;     /* the state of the armed run */
static struct dfz_site last_call;       /* of the escaped run */
static struct flight at_fault[FLIGHTS]; /* its transfers in flight */
static struct dfz_site at_site[FLIGHTS];/* and their issuing calls */
static unsigned nat_fault;
static int64_t read_from = -1;          /* the one a wild value came from */

/* ASan's fiber switch, present when the program links ASan. */
void __sanitizer_start_switch_fiber(void **fake, const void *bottom,
				    size_t size) __attribute__((weak));
void __sanitizer_finish_switch_fiber(void *fake, const void **bottom,
				     size_t *size) __attribute__((weak));
void __sanitizer_set_death_callback(void (*cb)(void)) __attribute__((weak));
void *__asan_get_report_address(void) __attribute__((weak));

/* ------------------------------------------------------------ capture */

/* Can @n bytes at @p be read? write(2) from them fails with EFAULT if
 * not; async-signal-safe. */
static bool readable(uintptr_t p, size_t n)
{
	char c[8];

	if (cr.probe[1] < 0 || n > sizeof(c) ||
	    write(cr.probe[1], (const void *)p, n) != (ssize_t)n)
		return false;
	return read(cr.probe[0], c, n) == (ssize_t)n;
}

/* The pc, the stack pointer and the general registers of @uc. */
static uintptr_t context_regs(const ucontext_t *uc, uintptr_t *sp)
{
#if defined(__linux__) && defined(__x86_64__)
	static const int gr[] = { REG_RAX, REG_RBX, REG_RCX, REG_RDX, REG_RSI,
				  REG_RDI, REG_RBP, REG_R8, REG_R9, REG_R10,
				  REG_R11, REG_R12, REG_R13, REG_R14, REG_R15 };

	cr.nregs = sizeof(gr) / sizeof(gr[0]);
	for (unsigned i = 0; i < cr.nregs; i++)
		cr.reg[i] = (uintptr_t)uc->uc_mcontext.gregs[gr[i]];
	*sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
	return (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__linux__) && defined(__aarch64__)
	cr.nregs = NREGS;
	for (unsigned i = 0; i < NREGS; i++)
		cr.reg[i] = (uintptr_t)uc->uc_mcontext.regs[i];
	*sp = (uintptr_t)uc->uc_mcontext.sp;
	return (uintptr_t)uc->uc_mcontext.pc;
#else
	(void)uc;
	cr.nregs = 0;
	*sp = 0;
	return 0;
#endif
}

/* The backtrace from the interrupted frame on: the unwinder goes through
 * the handler and the signal trampoline first. */
static void capture_frames(struct sample *s, uintptr_t pc)
{
	void *bt[FRAMES + 8];
	int n = backtrace(bt, FRAMES + 8), k;

	s->frame[0] = pc;
	s->n = 1;
	for (k = 0; k < n && (uintptr_t)bt[k] != pc; k++)
		;
	for (k++; k < n && s->n < FRAMES; k++)
		s->frame[s->n++] = (uintptr_t)bt[k];
}

/* The words above the faulting stack pointer, where a function keeps
 * its locals (a pointer into a buffer in flight, at -O0 above all). A
 * core's stack may end within them (a guard page above): read by the
 * kernel, which stops at the first page it cannot read (and memcheck
 * does not take the words for uses of what they hold); where that call
 * is refused, word by word behind the write(2) probe. */
static void capture_stack(uintptr_t sp)
{
	struct iovec here = { cr.stack, sizeof(cr.stack) };
	struct iovec there;
	ssize_t got;

	sp &= ~(uintptr_t)7;
	there = (struct iovec){ (void *)sp, sizeof(cr.stack) };
	got = sp ? process_vm_readv(getpid(), &here, 1, &there, 1, 0) : 0;
	if (got >= 0 || errno == EFAULT) {
		cr.nstack = got > 0 ? (unsigned)got / 8 : 0;
		return;
	}
	cr.nstack = 0;
	while (cr.nstack < STACK_WORDS && readable(sp, 8)) {
		memcpy(&cr.stack[cr.nstack++], (const void *)sp, 8);
		sp += 8;
	}
}

/* ------------------------------------------------------------ handler */

/* The CPU-time timer: first after @first microseconds, then every
 * @every (0: once); 0, 0 stops it. */
static void set_timer(uint64_t first, uint64_t every)
{
	struct itimerval it = {
		{ (time_t)(every / 1000000u), (suseconds_t)(every % 1000000u) },
		{ (time_t)(first / 1000000u), (suseconds_t)(first % 1000000u) },
	};

	setitimer(ITIMER_VIRTUAL, &it, NULL);
}

/* The time limit's ticks, TICKS of them to the limit, from now on. */
static void start_ticking(void)
{
	uint64_t usec = (uint64_t)cr.timeout * 1000000u / TICKS;

	set_timer(usec, usec);
	cr.ticking = 1;
}

static void stop_ticking(void)
{
	set_timer(0, 0);
	cr.ticking = 0;
}

/* Back to dfz__dropin_run(), on the stack the run started on, with the
 * signal mask the body was armed with (the handler's is wider). */
static void escape(int signo)
{
	cr.armed = 0;
	cr.signo = signo;
	stop_ticking();
	sigprocmask(SIG_SETMASK, &cr.mask, NULL);
	if (cr.main_size && __sanitizer_start_switch_fiber)
		__sanitizer_start_switch_fiber(NULL, cr.main_bottom,
					       cr.main_size);
	siglongjmp(crash_jmp, 1);
}

static void on_signal(int signo, siginfo_t *si, void *uctx)
{
	uintptr_t sp, pc;
	struct sample *s;
	int saved = errno;

	if (!cr.armed && signo == SIGVTALRM)
		return;
	if (signo == SIGSEGV && dfz__mmio_fault(si, uctx)) {
		errno = saved;   /* an MCHAN register access, served */
		return;
	}
	if (!cr.armed) {
		/* Outside a body: the signal's own action, as without us. */
		signal(signo, SIG_DFL);
		if (signo != SIGVTALRM)
			raise(signo);
		errno = saved;
		return;
	}
	if (signo == SIGVTALRM && cr.nsamples == 0 && ++cr.ticks <= TICKS) {
		errno = saved;   /* the body is within its limit */
		return;
	}
	s = &cr.sample[cr.nsamples < SAMPLES ? cr.nsamples : SAMPLES - 1];
	pc = context_regs(uctx, &sp);
	capture_frames(s, pc);
	if (signo == SIGVTALRM) {
		if (++cr.nsamples == 1)
			set_timer(SAMPLE_USEC, SAMPLE_USEC);
		errno = saved;
		if (cr.nsamples < SAMPLES)
			return;
		escape(signo);
	}
	cr.nsamples = 1;
	cr.code = si ? si->si_code : 0;
	cr.addr = si ? (uintptr_t)si->si_addr : 0;
	capture_stack(sp);
	escape(signo);
}

/* ------------------------------------------------------- install */

/* The main thread's stack, which ASan must be told it is back on after
 * an escape from a core's stack. */
static void main_stack(void)
{
	pthread_attr_t a;
	void *bottom;
	size_t size;

	if (!__sanitizer_start_switch_fiber ||
	    pthread_getattr_np(pthread_self(), &a) != 0)
		return;
	if (pthread_attr_getstack(&a, &bottom, &size) == 0) {
		cr.main_bottom = bottom;
		cr.main_size = size;
	}
	pthread_attr_destroy(&a);
}

static void death_context(void);

static int prepare(void)
{
	void *frames[2];

	(void)backtrace(frames, 2);   /* the unwinder loaded now, not in
				       * the handler */
	if (pipe(cr.probe) < 0)
		return DFZ_ENOMEM;
	for (int i = 0; i < 2; i++) {
		fcntl(cr.probe[i], F_SETFD, FD_CLOEXEC);
		fcntl(cr.probe[i], F_SETFL, O_NONBLOCK);
	}
	cr.alt.ss_sp = malloc(ALT_STACK);
	cr.alt.ss_size = ALT_STACK;
	if (!cr.alt.ss_sp || sigaltstack(&cr.alt, &cr.old_alt) < 0) {
		free(cr.alt.ss_sp);
		cr.alt.ss_sp = NULL;
		return DFZ_ENOMEM;
	}
	main_stack();
	if (__sanitizer_set_death_callback)
		__sanitizer_set_death_callback(death_context);
	return 0;
}

int dfz__crash_install(unsigned timeout)
{
	struct sigaction sa;

	if (cr.installed && timeout != cr.timeout && cr.ticking)
		stop_ticking();      /* ticks of the new limit at the next arm */
	cr.timeout = timeout;
	if (cr.installed)
		return 0;
	sigprocmask(SIG_SETMASK, NULL, &cr.mask);
	dfz__mmio_init();   /* first: its handler below ours */
	if (prepare() < 0)
		return DFZ_ENOMEM;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	/* SA_RESTART: a tick in a system call of the body is no error. */
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (unsigned i = 0; i < NCAUGHT; i++) {
		sigaction(caught[i], NULL, &cr.old[i]);
		/* A handler already there (a sanitizer's) keeps the signal;
		 * the MCHAN window's counts as what it passes faults to. */
		cr.ours[i] = dfz__mmio_below(&cr.old[i])->sa_handler == SIG_DFL;
		if (cr.ours[i])
			sigaction(caught[i], &sa, NULL);
	}
	cr.installed = true;
	return 0;
}

void dfz__crash_uninstall(void)
{
	if (!cr.installed)
		return;
	stop_ticking();
	for (unsigned i = 0; i < NCAUGHT; i++)
		if (cr.ours[i])
			sigaction(caught[i], &cr.old[i], NULL);
	sigaltstack(&cr.old_alt, NULL);
	free(cr.alt.ss_sp);
	cr.alt.ss_sp = NULL;
	for (int i = 0; i < 2; i++) {
		close(cr.probe[i]);
		cr.probe[i] = -1;
	}
	if (__sanitizer_set_death_callback)
		__sanitizer_set_death_callback(NULL);
	cr.installed = false;
}

bool dfz__crash_installed(void)
{
	return cr.installed;
}

void dfz__crash_schedule(const char *path)
{
	cr.schedule = path;
}

void dfz__crash_pending(int fd, const uint8_t *buf, size_t n)
{
	cr.pending_fd = fd;
	cr.pending = buf;
	cr.npending = n;
}

void dfz__crash_arm(struct dfz__dropin *d)
{
	running = d;
	nflight = 0;
	cr.signo = 0;
	cr.nsamples = 0;
	cr.ticks = 0;
	cr.armed = 1;
	if (cr.timeout && !cr.ticking)
		start_ticking();
}

/* The timer keeps ticking: outside a body its ticks are ignored. */
void dfz__crash_disarm(void)
{
	cr.armed = 0;
}

bool dfz__crash_escaped(void)
{
	return cr.signo != 0;
}

/* ------------------------------------------------ transfers in flight */

static void flight_issue(struct dfz__dropin *d, const struct dfz_event *ev)
{
	const struct dfz_desc *ds = &ev->desc;
	unsigned level = ds->ext2loc ? ds->loc_level : ds->ext_level;
	uint32_t off = ds->ext2loc ? ds->loc_off : ds->ext_off;
	uint32_t len = ds->is_2d && ds->length ? ds->length : ds->size;
	uint32_t stride = ds->ext2loc ? ds->loc_stride : ds->ext_stride;
	uint64_t lines = len ? ((uint64_t)ds->size + len - 1) / len : 0;
	uint8_t *dst;

	if ((level != DFZ_L2 && level != DFZ_L1) || ds->size == 0)
		return;
	if (!ds->is_2d || stride < len)
		stride = len;
	dst = dfz_mem_ptr(d->rt, level, off);
	if (!dst)
		return;
	if (nflight == FLIGHTS)
		memmove(flight, flight + 1, --nflight * sizeof(*flight));
	flight[nflight++] = (struct flight){
		.xfer = d->nissue,
		.engine = ev->engine,
		.key = ev->engine == DFZ_ENGINE_RAM ? (uintptr_t)ev->handle :
						      (uint64_t)ev->id,
		.dst = (uintptr_t)dst,
		.extent = (uint32_t)((lines - 1) * stride +
				     (ds->size - (lines - 1) * len)),
		.size = ds->size,
	};
}

/* COMPLETE: the oldest transfer of that request or id landed. */
static void flight_complete(const struct dfz_event *ev)
{
	uint64_t key = ev->engine == DFZ_ENGINE_RAM ? (uintptr_t)ev->handle :
						      (uint64_t)ev->id;

	for (unsigned i = 0; i < nflight; i++) {
		if (flight[i].engine != ev->engine || flight[i].key != key)
			continue;
		memmove(&flight[i], &flight[i + 1],
			(--nflight - i) * sizeof(*flight));
		return;
	}
}

void dfz__crash_event(struct dfz__dropin *d, const struct dfz_event *ev)
{
	if (!cr.installed)
		return;
	if (ev->kind == DFZ_EV_ISSUE)
		flight_issue(d, ev);
	else if (ev->kind == DFZ_EV_COMPLETE)
		flight_complete(ev);
}

/* ----------------------------------------------------------- analysis */

static bool is_poison32(uint64_t v)
{
	uint32_t p = DFZ_POISON_BYTE * 0x01010101u;

	return (uint32_t)v == p || (uint32_t)(v >> 32) == p;
}

/* @n bytes at @src into @dst, past ASan's poisoning and memcheck's
 * no-access marks of a destination in flight (both there on purpose):
 * the kernel reads them; where that call is refused, a plain loop. */
__attribute__((no_sanitize("address")))
static void raw_read(uint8_t *dst, uintptr_t src, size_t n)
{
	struct iovec here = { dst, n }, there = { (void *)src, n };
	const volatile uint8_t *p = (const volatile uint8_t *)src;

	if (process_vm_readv(getpid(), &here, 1, &there, 1, 0) == (ssize_t)n)
		return;
	for (size_t i = 0; i < n; i++)
		dst[i] = p[i];
}

/* Does the destination of @f still hold four poison bytes in a row? */
static bool holds_poison(const struct flight *f)
{
	uint8_t buf[256];
	unsigned run = 0;

	for (uint32_t at = 0; at < f->extent; at += sizeof(buf)) {
		uint32_t n = f->extent - at < sizeof(buf) ? f->extent - at :
							    (uint32_t)sizeof(buf);

		raw_read(buf, f->dst + at, n);
		for (uint32_t i = 0; i < n; i++) {
			run = buf[i] == DFZ_POISON_BYTE ? run + 1 : 0;
			if (run == 4)
				return true;
		}
	}
	return false;
}

/* The candidate @v points into, or -1. */
static int pointed(uint64_t v, const bool *cand)
{
	for (unsigned i = 0; i < nat_fault; i++)
		if (cand[i] && v >= at_fault[i].dst &&
		    v < at_fault[i].dst + at_fault[i].extent)
			return (int)i;
	return -1;
}

/*
 * Was the faulting value read from a destination in flight? Some register
 * or local holds the poison; the transfer is the one a register or a
 * local points into (the buffer the value was read from), else the
 * latest one whose destination still holds the poison.
 */
static int64_t find_read_from(void)
{
	bool cand[FLIGHTS], seen = false;
	int latest = -1, at = -1;

	for (unsigned i = 0; i < cr.nregs; i++)
		seen |= is_poison32(cr.reg[i]);
	for (unsigned i = 0; i < cr.nstack; i++)
		seen |= is_poison32(cr.stack[i]);
	if (!seen || cr.signo == SIGVTALRM || cr.signo == SIGABRT)
		return -1;
	for (unsigned i = 0; i < nat_fault; i++) {
		cand[i] = holds_poison(&at_fault[i]);
		if (cand[i])
			latest = (int)i;
	}
	for (unsigned i = 0; i < cr.nregs && at < 0; i++)
		at = pointed(cr.reg[i], cand);
	for (unsigned i = 0; i < cr.nstack && at < 0; i++)
		at = pointed(cr.stack[i], cand);
	at = at >= 0 ? at : latest;
	return at >= 0 ? (int64_t)at : -1;
}

/* --------------------------------------------------------- the line */

/* Every distinct code address of the samples (return addresses minus
 * one: the call, not the instruction after it) into @addr. */
static unsigned sample_addrs(uintptr_t *addr, unsigned max)
{
	unsigned n = 0;

	for (int s = 0; s < cr.nsamples && s < SAMPLES; s++) {
		for (unsigned f = 0; f < cr.sample[s].n; f++) {
			uintptr_t a = cr.sample[s].frame[f] - (f > 0);
			unsigned k = 0;

			while (k < n && addr[k] != a)
				k++;
			if (k == n && n < max)
				addr[n++] = a;
		}
	}
	return n;
}

/* The first user frame of sample @s, or NULL. */
static const struct dfz__sym *user_frame(const struct sample *s,
					 const struct dfz__sym *sym,
					 unsigned nsym)
{
	for (unsigned f = 0; f < s->n; f++) {
		uintptr_t a = s->frame[f] - (f > 0);

		for (unsigned k = 0; k < nsym; k++)
			if (sym[k].addr == a && !sym[k].ours && sym[k].line > 0)
				return &sym[k];
	}
	return NULL;
}

static bool same_func(const struct dfz__sym *a, const struct dfz__sym *b)
{
	return !strcmp(a->func, b->func) && !strcmp(a->file, b->file);
}

/* Of the samples' user frames, the function most of them are in, and
 * its lowest line there (a loop's lines are sampled in turn; the
 * lowest is the same every time: the loop's head). */
static const struct dfz__sym *spin_line(const struct dfz__sym **u,
					unsigned n)
{
	const struct dfz__sym *best = NULL;
	unsigned most = 0;

	for (unsigned i = 0; i < n; i++) {
		unsigned same = 0;

		for (unsigned k = 0; u[i] && k < n; k++)
			same += u[k] && same_func(u[k], u[i]);
		if (same > most) {
			most = same;
			best = u[i];
		}
	}
	for (unsigned i = 0; best && i < n; i++)
		if (u[i] && same_func(u[i], best) && u[i]->line < best->line)
			best = u[i];
	return best;
}

/* The user's line of the escape into @site (file and function copied
 * into static storage, kept until the next escape). */
static bool user_site(struct dfz_site *site)
{
	static uintptr_t addr[SAMPLES * FRAMES];
	static struct dfz__sym sym[SAMPLES * FRAMES * 2];
	static char file[200], func[64];
	const struct dfz__sym *u[SAMPLES], *best;
	unsigned n = sample_addrs(addr, SAMPLES * FRAMES), nsym, k = 0;

	nsym = dfz__symbolize(addr, n, sym, SAMPLES * FRAMES * 2);
	for (int s = 0; s < cr.nsamples && s < SAMPLES; s++)
		u[k++] = user_frame(&cr.sample[s], sym, nsym);
	best = spin_line(u, k);
	if (!best)
		return false;
	snprintf(file, sizeof(file), "%s", best->file);
	snprintf(func, sizeof(func), "%s", best->func);
	*site = (struct dfz_site){ file, best->line, func };
	return true;
}

/* ------------------------------------------------------------ verdict */

static const char *signal_name(int signo)
{
	switch (signo) {
	case SIGSEGV: return "SIGSEGV";
	case SIGBUS: return "SIGBUS";
	case SIGFPE: return "SIGFPE";
	case SIGILL: return "SIGILL";
	case SIGABRT: return "SIGABRT (abort)";
	default: return "signal";
	}
}

/* What the fault was, for the message: "SIGSEGV at address 0x10 (not
 * mapped)". */
static void describe(char *buf, size_t n)
{
	const char *why = "";

	if (cr.signo == SIGSEGV)
		why = cr.code == SEGV_MAPERR ? " (not mapped)" :
		      cr.code == SEGV_ACCERR ? " (not allowed)" :
		      cr.code == SI_KERNEL ? " (outside the address space)" :
					     "";
	else if (cr.signo == SIGFPE)
		why = cr.code == FPE_INTDIV ? " (an integer divide by zero)" :
					      "";
	if (cr.signo == SIGSEGV || cr.signo == SIGBUS)
		snprintf(buf, n, "%s at address 0x%lx%s", signal_name(cr.signo),
			 (unsigned long)cr.addr, why);
	else
		snprintf(buf, n, "%s%s", signal_name(cr.signo), why);
}

/* The run's transfers in flight and its last call, kept for printing. */
static void snapshot(struct dfz__dropin *d)
{
	last_call = d->cur;
	nat_fault = nflight;
	memcpy(at_fault, flight, nflight * sizeof(*flight));
	for (unsigned i = 0; i < nat_fault; i++) {
		int64_t x = at_fault[i].xfer;

		at_site[i] = x >= 0 && x < DFZ__DROPIN_SITES && x < d->nissue ?
			     d->issue_site[x] : (struct dfz_site){ 0 };
	}
}

static void message(char *msg, size_t n, const struct dfz_site *site)
{
	char what[128];
	size_t at;

	if (cr.signo == SIGVTALRM) {
		snprintf(msg, n, "the test body ran past its time limit (%u s "
			 "of CPU time, --timeout): it spins in %s, at line %d",
			 cr.timeout, site->func ? site->func : "?", site->line);
		return;
	}
	describe(what, sizeof(what));
	at = (size_t)snprintf(msg, n, "%s", what);
	if (read_from >= 0 && at < n)
		at += (size_t)snprintf(msg + at, n - at, "; the faulting value "
			"came from transfer %lld, still in flight (its "
			"destination holds the poison 0x%02X)",
			(long long)at_fault[read_from].xfer, DFZ_POISON_BYTE);
	if (last_call.line > 0 && at < n)
		snprintf(msg + at, n - at, "; last SDK call at line %d of %s",
			 last_call.line, last_call.file);
}

void dfz__crash_verdict(struct dfz__dropin *d)
{
	struct dfz_site site = { last_call.file, 0, NULL };
	char msg[DFZ_MSG_MAX];
	bool timeout = cr.signo == SIGVTALRM;

	if (cr.main_size && __sanitizer_finish_switch_fiber)
		__sanitizer_finish_switch_fiber(NULL, NULL, NULL);
	dfz__cores_abandon(d->cores);
	snapshot(d);
	read_from = find_read_from();
	site.file = last_call.file;
	site.func = "the test body (no line: build it with -g, with "
		    "addr2line on the PATH)";
	user_site(&site);
	message(msg, sizeof(msg), &site);
	d->cur = site;
	dfz__dropin_fail_as(d, timeout ? "timeout" : "signal",
			    timeout ? DFZ_CLASS_DMA_HANG : DFZ_CLASS_CRASH,
			    "%s", msg);
	if (read_from >= 0 && d->res.site.line == site.line &&
	    d->res.site.file == site.file)
		d->res.prior = at_site[read_from];
}

/* ----------------------------------------------------------- printing */

static void print_site(FILE *f, const char *key, const struct dfz_site *s)
{
	if (s->file && s->line > 0)
		fprintf(f, "%s: %s:%d (in %s)\n", key, s->file, s->line,
			s->func ? s->func : "?");
	else
		fprintf(f, "%s: none\n", key);
}

static void print_flights(FILE *f, const struct flight *fl,
			  const struct dfz_site *site, unsigned n)
{
	if (n == 0)
		fprintf(f, "IN FLIGHT: none\n");
	for (unsigned i = 0; i < n; i++) {
		fprintf(f, "IN FLIGHT: transfer %lld, %u bytes to %p",
			(long long)fl[i].xfer, fl[i].size, (void *)fl[i].dst);
		if (site[i].file && site[i].line > 0)
			fprintf(f, ", issued at %s:%d (in %s)", site[i].file,
				site[i].line, site[i].func ? site[i].func : "?");
		fputc('\n', f);
	}
}

void dfz__crash_print(FILE *f)
{
	if (!cr.signo)
		return;
	print_site(f, "LAST CALL", &last_call);
	print_flights(f, at_fault, at_site, nat_fault);
	if (read_from >= 0)
		fprintf(f, "READ FROM: transfer %lld (its destination still "
			"held the poison)\n", (long long)at_fault[read_from].xfer);
}

/* ASan reported an access to an L1/L2 address: the block it lies in or
 * next to (its redzone, or freed), with the lines that allocated and
 * freed it, which ASan cannot name for memory the drop-in poisons. */
static void report_block(struct dfz__dropin *d)
{
	struct dfz__block_note b;
	void *at = __asan_get_report_address ? __asan_get_report_address() :
					       NULL;

	if (!at || !dfz__blocks_at(d, at, &b))
		return;
	fprintf(stderr, "ADDRESS: %p, %s\n", at,
		(uintptr_t)at < b.addr ? "before the block's first byte" :
		(uintptr_t)at >= b.addr + b.size ? "past the block's last byte" :
		b.freed ? "inside the block, which was freed" :
			  "inside the block");
	dfz__print_block(stderr, &b);
}

/* A sanitizer ends the process (its own report printed): the drop-in's
 * context of the run, and where its schedule is. */
static void death_context(void)
{
	static struct dfz_site none;
	struct dfz__dropin *d = running;

	if (!d || !d->in_run)
		return;
	if (cr.pending_fd >= 0 &&
	    (pwrite(cr.pending_fd, cr.pending, cr.npending, 0) !=
		     (ssize_t)cr.npending ||
	     ftruncate(cr.pending_fd, (off_t)cr.npending) < 0))
		cr.schedule = NULL; /* not written: name no file */
	fprintf(stderr, "dmafuzz drop-in: the run ended in the sanitizer's "
		"report above\n");
	if (cr.schedule)
		fprintf(stderr, "SCHEDULE: %s (replay it: the binary with the "
			"file as its argument)\n", cr.schedule);
	print_site(stderr, "LAST CALL", d->cur.line > 0 ? &d->cur : &none);
	report_block(d);
	for (unsigned i = 0; i < nflight; i++)
		at_site[i] = flight[i].xfer < d->nissue &&
			     flight[i].xfer < DFZ__DROPIN_SITES ?
			     d->issue_site[flight[i].xfer] : none;
	print_flights(stderr, flight, at_site, nflight);
}
