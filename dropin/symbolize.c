// SPDX-License-Identifier: MIT
/*
 * Code addresses of the running test binary to the user's file:line, from
 * the binary's own debug info: addr2line (binutils, beside every gcc;
 * $DFZ_ADDR2LINE names another, e.g. llvm-addr2line) runs once per
 * crash, after the handler has escaped to safe code. Addresses outside the
 * program (libc, the loader) and lines of the drop-in and the library are
 * marked as ours, so that the caller can take the first frame in the
 * user's code.
 */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "crash.h"

#define MAX_ADDRS 512
#define OUT_BYTES (64u << 10)

/* The library's own source tree, as its debug info names it ("" when
 * unknown): the folders below it hold the drop-in and the layers. */
static const char *const ours_dirs[] = { "dropin/", "runtime/", "oracles/",
					 "harness/", "reports/", "include/" };

/* The address addr2line wants for @pc: inside the program (the object
 * that holds this function), minus its load address when it is a
 * position-independent executable. False for addresses elsewhere. */
static bool file_addr(uintptr_t pc, uintptr_t *out)
{
	Dl_info self, at;
	const ElfW(Ehdr) *eh;

	if (!dladdr((void *)(uintptr_t)&file_addr, &self) ||
	    !dladdr((void *)pc, &at) || at.dli_fbase != self.dli_fbase)
		return false;
	eh = self.dli_fbase;
	*out = eh->e_type == ET_DYN ? pc - (uintptr_t)self.dli_fbase : pc;
	return true;
}

/* Run addr2line on @exe for the @n addresses in @argv[7..]: its output
 * in @buf (NUL-terminated). Return: bytes read, or -1. */
static ssize_t run_tool(char **argv, char *buf, size_t size)
{
	int fd[2], status;
	ssize_t got = 0, r;
	pid_t pid;

	if (pipe(fd) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		dup2(fd[1], 1);
		if (null >= 0)
			dup2(null, 2);
		close(fd[0]);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fd[1]);
	while (pid > 0 && (size_t)got < size - 1 &&
	       (r = read(fd[0], buf + got, size - 1 - (size_t)got)) > 0)
		got += r;
	close(fd[0]);
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		return -1;
	buf[got] = 0;
	return got;
}

/* Whether @file is the library's: no line, the drop-in's headers, or a
 * file of the library's source tree @root. */
static bool is_ours(const char *file, const char *root)
{
	size_t n = root ? strlen(root) : 0;

	if (file[0] == '?' || strstr(file, "include/dmafuzz/"))
		return true;
	if (!root || strncmp(file, root, n))
		return false;
	for (size_t i = 0; i < sizeof(ours_dirs) / sizeof(ours_dirs[0]); i++)
		if (!strncmp(file + n, ours_dirs[i], strlen(ours_dirs[i])))
			return true;
	return false;
}

/* @file relative to the working directory when it lies below it, as the
 * compiler's own names of the user's files (__FILE__) mostly are. */
static const char *relative(const char *file)
{
	static char cwd[4096];
	size_t n;

	if (!cwd[0] && !getcwd(cwd, sizeof(cwd)))
		return file;
	n = strlen(cwd);
	if (n > 1 && !strncmp(file, cwd, n) && file[n] == '/')
		return file + n + 1;
	return file;
}

/* One function/location pair of the output into @s. */
static void parse_pair(char *func, char *loc, struct dfz__sym *s)
{
	char *colon = strrchr(loc, ':');
	char *sp = strchr(loc, ' ');

	if (sp)
		*sp = 0;                  /* " (discriminator N)" */
	colon = strrchr(loc, ':');
	s->line = colon ? atoi(colon + 1) : 0;
	if (colon)
		*colon = 0;
	snprintf(s->file, sizeof(s->file), "%s", relative(loc));
	snprintf(s->func, sizeof(s->func), "%s", func);
}

/* The output of `addr2line -a -f -i`: per address its "0x..." line, then
 * function and location lines, innermost inlined frame first. @addr[i]
 * is the running address of the i-th. */
static unsigned parse(char *text, const uintptr_t *addr, unsigned n,
		      struct dfz__sym *out, unsigned max)
{
	unsigned k = 0, at = 0;
	char *line = strtok(text, "\n"), *func;

	while (line && at <= n) {
		if (!strncmp(line, "0x", 2)) {
			at++;
			line = strtok(NULL, "\n");
			continue;
		}
		func = line;
		line = strtok(NULL, "\n");
		if (!line || at == 0)
			break;
		if (k < max) {
			out[k].addr = addr[at - 1];
			parse_pair(func, line, &out[k]);
			k++;
		}
		line = strtok(NULL, "\n");
	}
	return k;
}

/* The source tree of this file's build: its name without the tail
 * "dropin/symbolize.c" (NULL when the library has no debug info). */
static const char *find_root(struct dfz__sym *self, unsigned k, char *root,
			     size_t n)
{
	const char *tail = "dropin/symbolize.c";
	size_t f, t = strlen(tail);

	if (!k)
		return NULL;
	f = strlen(self[k - 1].file);
	if (f < t || strcmp(self[k - 1].file + f - t, tail) || f - t >= n)
		return NULL;
	snprintf(root, f - t + 1, "%s", self[k - 1].file);
	return root;
}

/* The argument vector: tool, options, the program, every address inside
 * the program (@keep: which of @addr they are), then this function's. */
static unsigned make_argv(char **argv, char (*hex)[20], const char *exe,
			  const uintptr_t *addr, unsigned n, uintptr_t *keep)
{
	const char *tool = getenv("DFZ_ADDR2LINE");
	unsigned a = 0, m = 0;
	uintptr_t fa;

	argv[a++] = (char *)(tool && *tool ? tool : "addr2line");
	argv[a++] = (char *)"-a";
	argv[a++] = (char *)"-f";
	argv[a++] = (char *)"-i";
	argv[a++] = (char *)"-e";
	argv[a++] = (char *)exe;
	for (unsigned i = 0; i < n && m < MAX_ADDRS; i++) {
		if (!file_addr(addr[i], &fa))
			continue;
		keep[m] = addr[i];
		snprintf(hex[m], sizeof(hex[m]), "0x%lx", (unsigned long)fa);
		argv[a++] = hex[m++];
	}
	if (file_addr((uintptr_t)&find_root, &fa)) {
		keep[m] = (uintptr_t)&find_root;
		snprintf(hex[m], sizeof(hex[m]), "0x%lx", (unsigned long)fa);
		argv[a++] = hex[m++];
	}
	argv[a] = NULL;
	return m;
}

unsigned dfz__symbolize(const uintptr_t *addr, unsigned n,
			struct dfz__sym *out, unsigned max)
{
	static char exe[4096], text[OUT_BYTES], hex[MAX_ADDRS + 1][20];
	static char *argv[MAX_ADDRS + 8];
	static uintptr_t keep[MAX_ADDRS + 1];
	static struct dfz__sym all[MAX_ADDRS * 2];
	char buf[200];
	const char *root;
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	unsigned m, k, w = 0;

	if (len <= 0)
		return 0;
	exe[len] = 0;
	m = make_argv(argv, hex, exe, addr, n, keep);
	if (m == 0 || run_tool(argv, text, sizeof(text)) < 0)
		return 0;
	k = parse(text, keep, m, all, MAX_ADDRS * 2);
	/* The last address is this file's own: the library's tree. */
	for (m = k; m > 0 && all[m - 1].addr == (uintptr_t)&find_root; m--)
		;
	root = find_root(all, k, buf, sizeof(buf));
	for (unsigned i = 0; i < m && w < max; i++) {
		all[i].ours = is_ours(all[i].file, root);
		out[w++] = all[i];
	}
	return w;
}
