// SPDX-License-Identifier: MIT
/*
 * Catching a real crash of the system under test: a signal raised while
 * the runtime runs a plan (a NULL dereference on the null-arg path, say) is
 * turned into a `crash` verdict instead of killing the caller. Used by the
 * CLI; fuzz targets leave signals alone so the fuzzer and the sanitizers
 * see the fault where it happened. The handler jumps back out of the
 * runtime: the runtime's state is garbage afterwards and the executor
 * resets it before the next run.
 *
 * The handler also records the crash site (struct dfz_crash_site): the pc
 * and the fault's direction from the ucontext, the code bytes around the
 * pc and a backtrace, for triage to disassemble and symbolize. The same
 * capture serves external programs (fuzz/crash_report.c), which print the
 * site as one line (dfz_crash_site_write()) that triage parses back.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <inttypes.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#include "harness_int.h"

static const int caught[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL };
#define NCAUGHT (sizeof(caught) / sizeof(caught[0]))

static sigjmp_buf *volatile guard_env;
static volatile sig_atomic_t guard_signo;
static void *volatile guard_addr;
static struct dfz_crash_site last_site;
static volatile sig_atomic_t have_site;

/* ------------------------------------------------------------ capture */

static int probe[2] = { -1, -1 };     /* a pipe: write() probes a byte */
static uintptr_t page_size = 4096;

int dfz_crash_site_prepare(void)
{
	void *frames[2];
	long ps;

	if (probe[0] >= 0)
		return 0;
	(void)backtrace(frames, 2);   /* loads the unwinder now, not in the
				       * handler */
	ps = sysconf(_SC_PAGESIZE);
	if (ps > 0)
		page_size = (uintptr_t)ps;
	if (pipe(probe) < 0) {
		probe[0] = probe[1] = -1;
		return DFZ_ENOMEM;
	}
	for (int i = 0; i < 2; i++) {
		fcntl(probe[i], F_SETFD, FD_CLOEXEC);
		fcntl(probe[i], F_SETFL, O_NONBLOCK);
	}
	return 0;
}

/* Can the byte at @p be read? write(2) from it fails with EFAULT if not. */
static bool is_readable(uintptr_t p)
{
	char c;

	if (probe[1] < 0 || write(probe[1], (const void *)p, 1) != 1)
		return false;
	if (read(probe[0], &c, 1) != 1)
		return false;
	return true;
}

/* The pc, and whether the fault was a write, from the ucontext. */
static uintptr_t context_pc(const void *uctx, int signo, int *write)
{
	*write = -1;
#if defined(__linux__) && defined(__x86_64__)
	const ucontext_t *uc = uctx;

	/* A page fault (trap 14) leaves its error code: bit 1 is a write. */
	if (signo == SIGSEGV && uc->uc_mcontext.gregs[REG_TRAPNO] == 14)
		*write = (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0;
	return (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__linux__) && defined(__aarch64__)
	(void)signo;
	return (uintptr_t)((const ucontext_t *)uctx)->uc_mcontext.pc;
#else
	(void)uctx;
	(void)signo;
	return 0;
#endif
}

/* The readable code bytes of [pc - BEFORE, pc + AFTER): the pc's page is
 * probed, and the neighbouring page when the window reaches into it. */
static void capture_code(struct dfz_crash_site *s)
{
	uintptr_t pc = s->pc, page = pc & ~(page_size - 1);
	uintptr_t lo = pc >= DFZ_CRASH_BEFORE ? pc - DFZ_CRASH_BEFORE : 0;
	uintptr_t hi = pc + DFZ_CRASH_AFTER;

	s->ncode = 0;
	s->code_at = pc;
	if (!pc || !is_readable(pc))
		return;
	if (lo < page && !is_readable(lo))
		lo = page;
	if (hi - 1 >= page + page_size && !is_readable(hi - 1))
		hi = page + page_size;
	memcpy(s->code, (const void *)lo, hi - lo);
	s->code_at = lo;
	s->ncode = (uint32_t)(hi - lo);
}

/* The backtrace from the faulting frame on: the unwinder goes through
 * the handler and the signal trampoline first. */
static void capture_frames(struct dfz_crash_site *s)
{
	void *bt[DFZ_CRASH_FRAMES + 8];
	int n = backtrace(bt, DFZ_CRASH_FRAMES + 8), k;

	s->frame[0] = s->pc;
	s->nframes = 1;
	for (k = 0; k < n && (uintptr_t)bt[k] != s->pc; k++)
		;
	for (k++; k < n && s->nframes < DFZ_CRASH_FRAMES; k++)
		s->frame[s->nframes++] = (uintptr_t)bt[k];
}

void dfz_crash_site_capture(int signo, const void *siginfo, const void *uctx,
			    struct dfz_crash_site *out)
{
	const siginfo_t *si = siginfo;
	int saved = errno;

	memset(out, 0, sizeof(*out));
	out->signo = signo;
	out->addr = si ? (uintptr_t)si->si_addr : 0;
	out->pc = uctx ? context_pc(uctx, signo, &out->write) : 0;
	if (!uctx)
		out->write = -1;
	capture_code(out);
	if (out->pc)
		capture_frames(out);
	errno = saved;
}

bool dfz_exec_crash_site(struct dfz_crash_site *out)
{
	if (!have_site)
		return false;
	*out = last_site;
	return true;
}

/* ------------------------------------------------------------ the line */

/* Async-signal-safe appends to a fixed line buffer. */
struct line {
	char buf[64 + 32 * 9 + DFZ_CRASH_CODE * 2 + DFZ_CRASH_FRAMES * 19];
	size_t at;
};

static void put_str(struct line *l, const char *s)
{
	while (*s && l->at < sizeof(l->buf) - 1)
		l->buf[l->at++] = *s++;
}

static void put_hex(struct line *l, uintptr_t v, bool prefix)
{
	char tmp[2 + 2 * sizeof(v)];
	int n = 0;

	if (prefix)
		put_str(l, "0x");
	do {
		tmp[n++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	while (n > 0 && l->at < sizeof(l->buf) - 1)
		l->buf[l->at++] = tmp[--n];
}

static void put_field(struct line *l, const char *key, uintptr_t v)
{
	put_str(l, key);
	put_hex(l, v, true);
}

void dfz_crash_site_write(const struct dfz_crash_site *s, int fd)
{
	struct line l = { .at = 0 };
	const char *p;
	ssize_t w;

	put_str(&l, DFZ_CRASH_TAG);
	put_field(&l, " signo=", (uintptr_t)s->signo);
	put_str(&l, s->write < 0 ? " write=-1" : s->write ? " write=1" : " write=0");
	put_field(&l, " addr=", s->addr);
	put_field(&l, " pc=", s->pc);
	put_field(&l, " base=", s->base);
	put_field(&l, " code_at=", s->code_at);
	put_str(&l, " code=");
	for (uint32_t i = 0; i < s->ncode && i < DFZ_CRASH_CODE; i++) {
		put_str(&l, (const char[]){ "0123456789abcdef"[s->code[i] >> 4], 0 });
		put_str(&l, (const char[]){ "0123456789abcdef"[s->code[i] & 15], 0 });
	}
	put_str(&l, " frames=");
	for (uint32_t i = 0; i < s->nframes && i < DFZ_CRASH_FRAMES; i++) {
		if (i)
			put_str(&l, ",");
		put_hex(&l, s->frame[i], true);
	}
	put_str(&l, "\n");
	for (p = l.buf; l.at > 0; p += w, l.at -= (size_t)w) {
		w = write(fd, p, l.at);
		if (w <= 0)
			return;
	}
}

/* The value of field @key (" key=") in @line, as a number. */
static bool field(const char *line, const char *key, uintptr_t *v)
{
	const char *p = strstr(line, key);
	char *end;

	if (!p)
		return false;
	p += strlen(key);
	errno = 0;
	*v = (uintptr_t)strtoull(p, &end, 0);
	return !errno && end != p && (*end == ' ' || *end == '\n' || !*end);
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static bool parse_code(const char *line, struct dfz_crash_site *s)
{
	const char *p = strstr(line, " code=");

	if (!p)
		return false;
	for (p += 6; hexval(p[0]) >= 0 && hexval(p[1]) >= 0; p += 2) {
		if (s->ncode == DFZ_CRASH_CODE)
			return false;
		s->code[s->ncode++] = (uint8_t)(hexval(p[0]) << 4 | hexval(p[1]));
	}
	return *p == ' ' || *p == '\n' || !*p;
}

static bool parse_frames(const char *line, struct dfz_crash_site *s)
{
	const char *p = strstr(line, " frames=");
	char *end;

	if (!p)
		return false;
	for (p += 8; *p == '0' && s->nframes < DFZ_CRASH_FRAMES; p = end + 1) {
		s->frame[s->nframes++] = (uintptr_t)strtoull(p, &end, 16);
		if (*end != ',')
			break;
	}
	return true;
}

int dfz_crash_site_parse(const char *text, struct dfz_crash_site *out)
{
	const char *line = strstr(text, DFZ_CRASH_TAG " ");
	uintptr_t signo, write;
	char buf[sizeof(((struct line *)0)->buf)];
	size_t n;

	memset(out, 0, sizeof(*out));
	if (!line)
		return DFZ_ENOENT;
	n = strcspn(line, "\n");
	if (n >= sizeof(buf))
		return DFZ_ENOENT;
	memcpy(buf, line, n);
	buf[n] = 0;
	if (!field(buf, " signo=", &signo) || !field(buf, " addr=", &out->addr) ||
	    !field(buf, " pc=", &out->pc) || !field(buf, " base=", &out->base) ||
	    !field(buf, " code_at=", &out->code_at) ||
	    !parse_code(buf, out) || !parse_frames(buf, out))
		return DFZ_ENOENT;
	out->signo = (int)signo;
	out->write = !strstr(buf, " write=-1") && field(buf, " write=", &write) ?
		     (int)write : -1;
	return 0;
}

/* ------------------------------------------------------------ the guard */

static void on_signal(int signo, siginfo_t *si, void *uctx)
{
	guard_signo = signo;
	guard_addr = si ? si->si_addr : NULL;
	dfz_crash_site_capture(signo, si, uctx, &last_site);
	have_site = 1;
	siglongjmp(*guard_env, 1);
}

bool dfz__guard(dfz__guarded_fn fn, void *ctx, struct dfz__crash *out)
{
	struct sigaction sa, old[NCAUGHT];
	sigjmp_buf env;
	bool ok = true;
	unsigned i;

	dfz_crash_site_prepare();
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
