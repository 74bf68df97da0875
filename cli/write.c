// SPDX-License-Identifier: MIT
/*
 * Files of the commands. Output files (emit-c -o, min -o/--bin, min
 * --exec): a regular file is replaced atomically (the reports' own
 * temporary file and rename, reports/common/files.c), anything else
 * written in place, and a failure is one line with its exit code. Input
 * files (emit-c, min): read whole, "-" from standard input.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "common_int.h"

/* @n bytes of @buf to @path in place: a device, a FIFO, /dev/stdout. */
static int write_in_place(const char *cmd, const char *path, const void *buf,
			  size_t n)
{
	FILE *f = fopen(path, "w");
	int err = 0;

	if (!f) {
		cli_error(cmd, "cannot write '%s': %m", path);
		return EXIT_BAD_INPUT;
	}
	errno = 0;
	if (fwrite(buf, 1, n, f) != n)
		err = errno ? errno : EIO;
	if (fclose(f) != 0 && !err)
		err = errno ? errno : EIO;
	if (!err)
		return EXIT_CLEAN;
	cli_error(cmd, "cannot write '%s': %s", path, strerror(err));
	return EXIT_INTERNAL;
}

/*
 * cli_write_file() - @n bytes of @buf to @path for command @cmd: a
 * regular file (or a new one) atomically, through a temporary file beside
 * it, renamed; anything else (a device, a FIFO, /dev/stdout) in place, as
 * a rename would replace it. Return: an exit code: a path that cannot be
 * created is bad input, a write, close or rename that fails (a full disk)
 * is an I/O error, EXIT_INTERNAL.
 */
int cli_write_file(const char *cmd, const char *path, const void *buf,
		   size_t n)
{
	char tmp[4200];
	struct stat st;
	int fd;

	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return write_in_place(cmd, path, buf, n);
	fd = dfz__open_temp(path, tmp, sizeof(tmp));
	if (fd < 0) {
		cli_error(cmd, "cannot write '%s': %m", path);
		return EXIT_BAD_INPUT;
	}
	if (dfz__write_temp(fd, tmp, path, buf, n) == 0)
		return EXIT_CLEAN;
	cli_error(cmd, "cannot write '%s': %m", path);
	return EXIT_INTERNAL;
}

int cli_read_file(const char *cmd, const char *path, uint8_t **buf,
		  size_t *n)
{
	bool is_stdin = !strcmp(path, "-"), cut;
	FILE *f = is_stdin ? stdin : fopen(path, "rb");
	char *b;
	int e;

	if (!f) {
		cli_error(cmd, "cannot open '%s': %m", path);
		return EXIT_BAD_INPUT;
	}
	b = dfz__read_stream(f, CLI_FILE_MAX, n, &cut);
	e = errno;
	if (!is_stdin)
		fclose(f);
	if (!b && e == ENOMEM) {
		cli_error(cmd, "out of memory");
		return EXIT_INTERNAL;
	}
	if (!b || cut) {
		free(b);
		cli_error(cmd, "cannot read '%s': unreadable or over 1 MiB", path);
		return EXIT_BAD_INPUT;
	}
	*buf = (uint8_t *)b;
	return 0;
}
