/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the tests that run the CLI ($DFZ_CLI, set by `make check`)
 * through the shell and read the files it writes: the binary, a formatted
 * command's exit code, a captured stderr and a whole file.
 */
#ifndef DFZ_TEST_CLI_RUN_H
#define DFZ_TEST_CLI_RUN_H

#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

/* The CLI under test; fails the test when make check did not set it. */
static inline const char *cli_bin(void)
{
	const char *bin = getenv("DFZ_CLI");

	ck_assert_msg(bin && *bin, "DFZ_CLI is not set (run through make check)");
	return bin;
}

/* The exit code of a system() or pclose() status, -1 if it did not exit. */
static inline int exit_code(int st)
{
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Run the shell command @fmt...; its exit code. */
static inline int sh(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static inline int sh(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	ck_assert_msg(n >= 0 && (size_t)n < sizeof(cmd),
		      "command too long: %.80s...", cmd);
	return exit_code(system(cmd));
}

/* `$DFZ_CLI @args`, its output and errors discarded; its exit code. */
static inline int cli_quiet(const char *args)
{
	return sh("%s %s >/dev/null 2>&1", cli_bin(), args);
}

/* The newlines in @s: the lines of a captured stderr. */
static inline int lines(const char *s)
{
	int k = 0;

	for (; *s; s++)
		k += *s == '\n';
	return k;
}

/*
 * read_text() - up to @len - 1 bytes of @path into @buf, NUL-terminated;
 * an absent file reads as empty (a command's stderr it may not have
 * written). Return: the bytes read.
 */
static inline size_t read_text(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(buf, 1, len - 1, f) : 0;

	buf[n] = 0;
	if (f)
		fclose(f);
	return n;
}

/*
 * slurp() - the whole of @path, NUL-terminated, its length in @n (may be
 * NULL). Caller owns; release with free(). Fails the test when @path
 * cannot be read.
 */
static inline char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long len;

	ck_assert_msg(f, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	buf = malloc((size_t)len + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)len, f), (size_t)len);
	buf[len] = 0;
	fclose(f);
	if (n)
		*n = (size_t)len;
	return buf;
}

#endif /* DFZ_TEST_CLI_RUN_H */
