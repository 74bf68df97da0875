// SPDX-License-Identifier: MIT
/*
 * The call stacks behind a finding's lines (item 7 of issue 23): at each
 * issue of a bare run or a replay, and at the call where a finding
 * arrives, the return addresses of the stack (glibc's backtrace()); when
 * the verdict is printed, those addresses symbolized by addr2line over
 * the running binary, and the user's frames kept: past the drop-in's
 * frames at the top, from the first frame of the user's code (the SDK
 * call's line) outwards, up to the next frame of the drop-in (its
 * sources, the SDK-named headers, a dfz_ name), of libc, or without line
 * information. So a DMA call inside the user's own wrapper library names
 * the wrapper's line and the lines of the user's code that called the
 * wrapper.
 *
 * The drop-in's own sources are told apart by where the compiler saw
 * them: the directory that holds this file's source, as the binary's
 * debug information names it.
 */
#define _GNU_SOURCE /* dl_iterate_phdr */
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<execinfo.h>)
#include <execinfo.h>
#define HAVE_BACKTRACE 1
#endif
#endif

#include "dropin_int.h"
#include "stack.h"

#define MAX_FLAT (DFZ__STACK_PCS * 4 + 4)  /* frames with inlined ones */

static struct dfz__stack *kept;  /* per issue, DFZ__DROPIN_SITES of them */

void dfz__stack_capture(struct dfz__stack *s)
{
#ifdef HAVE_BACKTRACE
	int n = backtrace(s->pc, DFZ__STACK_PCS);

	s->n = n > 0 ? (uint32_t)n : 0;
#else
	s->n = 0;
#endif
}

void dfz__stack_keep(int64_t xfer)
{
	if (xfer < 0 || xfer >= DFZ__DROPIN_SITES)
		return;
	if (!kept)
		kept = calloc(DFZ__DROPIN_SITES, sizeof(*kept));
	if (kept)
		dfz__stack_capture(&kept[xfer]);
}

void dfz__stack_of(int64_t xfer, struct dfz__stack *out)
{
	out->n = 0;
	if (kept && xfer >= 0 && xfer < DFZ__DROPIN_SITES)
		*out = kept[xfer];
}

/* --------------------------------------------------------- symbolizing */

/* The main program's loaded range and load bias (PIE or not). */
struct prog {
	uintptr_t lo, hi, bias;
};

static int first_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct prog *p = arg;

	(void)size;
	p->bias = info->dlpi_addr;
	p->lo = UINTPTR_MAX;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t a = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type != PT_LOAD)
			continue;
		if (a < p->lo)
			p->lo = a;
		if (a + ph->p_memsz > p->hi)
			p->hi = a + ph->p_memsz;
	}
	return 1; /* the first object is the program */
}

/* One symbolized frame, before the user's are picked. */
struct flat {
	char file[DFZ__FRAME_FILE];
	int line;
	char func[DFZ__FRAME_FUNC];
	uint32_t pc;                  /* index of its address */
};

void dfz__stack_put(char *dst, size_t cap, const char *src)
{
	size_t n = strlen(src);

	if (n >= cap)
		n = cap - 1;
	memcpy(dst, src, n);
	dst[n] = 0;
}

/* "file:line[:col] [(discriminator N)]" into @fl. */
static void parse_loc(const char *s, struct flat *fl)
{
	const char *c = s;

	while ((c = strchr(c, ':')) && !(c[1] >= '0' && c[1] <= '9'))
		c++;
	fl->line = c ? atoi(c + 1) : 0;
	snprintf(fl->file, sizeof(fl->file), "%.*s",
		 (int)(c ? c - s : (ptrdiff_t)strcspn(s, "\n")), s);
}

/* Read addr2line -a -f -i output: an address line opens each address,
 * then (function, location) pairs, innermost inlined first. */
static uint32_t read_frames(FILE *in, struct flat *fl, uint32_t max)
{
	char line[DFZ__FRAME_FILE + 64];
	uint32_t n = 0, pc = 0;
	bool want_func = true;
	int seen = -1;

	while (fgets(line, sizeof(line), in)) {
		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, "0x", 2) && want_func) {
			pc = (uint32_t)++seen;
			continue;
		}
		if (seen < 0 || (n == max && want_func))
			continue;
		if (want_func) {
			dfz__stack_put(fl[n].func, sizeof(fl[n].func), line);
			fl[n].pc = pc;
		} else {
			parse_loc(line, &fl[n++]);
		}
		want_func = !want_func;
	}
	return n;
}

/* Symbolize @pcs (@npc, the last one this file's own) into @fl. */
static uint32_t symbolize(void *const *pcs, uint32_t npc, struct flat *fl)
{
	char exe[PATH_MAX], cmd[2 * PATH_MAX + 64 * (DFZ__STACK_PCS + 1)];
	struct prog p = { 0, 0, 0 };
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	size_t at;
	uint32_t n;
	FILE *in;

	if (len <= 0 || memchr(exe, '\'', (size_t)len))
		return 0;
	exe[len] = 0;
	dl_iterate_phdr(first_object, &p);
	at = (size_t)snprintf(cmd, sizeof(cmd), "exec 2>/dev/null; set -- -a "
			      "-f -i -e '%s'", exe);
	for (uint32_t i = 0; i < npc; i++) {
		uintptr_t a = (uintptr_t)pcs[i] - 1; /* the call, not after */

		/* Outside the program (libc, the vdso): an address that
		 * names nothing, so the frame ends the user's run. */
		a = a >= p.lo && a < p.hi ? a - p.bias : 0;
		at += (size_t)snprintf(cmd + at, sizeof(cmd) - at, " 0x%lx",
				       (unsigned long)a);
	}
	snprintf(cmd + at, sizeof(cmd) - at, "; addr2line \"$@\" || "
		 "llvm-addr2line \"$@\"");
	in = popen(cmd, "r");
	if (!in)
		return 0;
	n = read_frames(in, fl, MAX_FLAT);
	pclose(in);
	return n;
}

/* ------------------------------------------------------- user frames */

/* The directory the drop-in's sources were compiled from ("" unknown):
 * this file's path, as the debug information names it, less its own
 * name. */
static size_t lib_root(const struct flat *self, const char **root)
{
	static const char me[] = "dropin/stack.c";
	size_t n = strlen(self->file);

	*root = self->file;
	if (n < sizeof(me) - 1 || strcmp(self->file + n - (sizeof(me) - 1), me))
		return 0;
	return n - (sizeof(me) - 1);
}

/* Is frame @fl the drop-in's own (its sources, the SDK-named headers
 * wherever installed, a dfz_ name), or without a file? */
static bool not_user(const struct flat *fl, const char *root, size_t nroot)
{
	const char *file = fl->file;

	static const char *const dirs[] = {
		"dropin/", "runtime/", "oracles/", "harness/", "include/",
		"reports/", "fuzz/",
	};

	if (!file[0] || file[0] == '?' || strstr(file, "/include/dmafuzz/") ||
	    strstr(file, "/dmafuzz/dropin/") || !strncmp(fl->func, "dfz_", 4))
		return true;
	if (nroot == 0 || strncmp(file, root, nroot))
		return false;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (!strncmp(file + nroot, dirs[i], strlen(dirs[i])))
			return true;
	return false;
}

/* @file relative to the working directory when it lies inside. */
static void show_file(char *dst, const char *file)
{
	char cwd[PATH_MAX];
	size_t n;

	if (getcwd(cwd, sizeof(cwd)) && (n = strlen(cwd)) > 1 &&
	    !strncmp(file, cwd, n) && file[n] == '/')
		file += n + 1;
	memmove(dst, file, strlen(file) + 1);
}

/* The user's frames of @fl (@n, the last one this file's own): past the
 * drop-in's frames at the top, up to the next frame that is not the
 * user's. */
static uint32_t pick_user(const struct flat *fl, uint32_t n,
			  struct dfz__frames *out)
{
	const char *root;
	size_t nroot = lib_root(&fl[n - 1], &root);
	uint32_t i = 0;

	n--;
	while (i < n && not_user(&fl[i], root, nroot))
		i++;
	out->n = 0;
	for (; i < n && out->n < DFZ__STACK_USER; i++) {
		struct dfz__frame *f = &out->f[out->n];

		if (not_user(&fl[i], root, nroot))
			break;
		dfz__stack_put(f->file, sizeof(f->file), fl[i].file);
		show_file(f->file, f->file);
		f->line = fl[i].line;
		dfz__stack_put(f->func, sizeof(f->func), fl[i].func);
		out->n++;
	}
	return out->n;
}

uint32_t dfz__stack_user(const struct dfz__stack *s, const struct dfz_site *at,
			 struct dfz__frames *out)
{
	void *pcs[DFZ__STACK_PCS + 1];
	struct flat *fl;
	uint32_t n;

	out->n = 0;
	if (!s->n || !at->file)
		return 0;
	memcpy(pcs, s->pc, s->n * sizeof(pcs[0]));
	/* One past this function's start: symbolized as this file's. */
	pcs[s->n] = (void *)((uintptr_t)dfz__stack_capture + 1);
	fl = calloc(MAX_FLAT, sizeof(*fl));
	if (!fl)
		return 0;
	n = symbolize(pcs, s->n + 1, fl);
	/* The calibration address is the last one: its frames last. */
	if (n && fl[n - 1].pc == s->n)
		n = pick_user(fl, n, out);
	free(fl);
	return out->n;
}
