// SPDX-License-Identifier: MIT
/*
 * Output files of the commands (emit-c -o, min -o/--bin, min --exec): a
 * regular file is replaced atomically, anything else written in place,
 * and a failure is one line with its exit code.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/*
 * cli_write_file() - @n bytes of @buf to @path for command @cmd: a regular file (or a new one) atomically, through a
 * temporary file beside it, renamed; anything else (a device, a FIFO,
 * /dev/stdout) in place, as a rename would replace it. Return: an exit
 * code: a path that cannot be created is bad input, a write, close or
 * rename that fails (a full disk) is an I/O error, EXIT_INTERNAL.
 */
int cli_write_file(const char *cmd, const char *path, const void *buf,
		   size_t n)
{
	char tmp[4096];
	struct stat st;
	bool in_place = stat(path, &st) == 0 && !S_ISREG(st.st_mode);
	FILE *f;
	int err = 0;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path,
		     (long)getpid()) >= (int)sizeof(tmp)) {
		cli_error(cmd, "cannot write '%s': name too long", path);
		return EXIT_BAD_INPUT;
	}
	f = fopen(in_place ? path : tmp, "w");
	if (!f) {
		cli_error(cmd, "cannot write '%s': %m", path);
		return EXIT_BAD_INPUT;
	}
	errno = 0;
	if (fwrite(buf, 1, n, f) != n)
		err = errno ? errno : EIO;
	if (fclose(f) != 0 && !err)
		err = errno ? errno : EIO;
	if (!err && !in_place && rename(tmp, path) != 0)
		err = errno;
	if (!err)
		return EXIT_CLEAN;
	if (!in_place)
		unlink(tmp);
	cli_error(cmd, "cannot write '%s': %s", path, strerror(err));
	return EXIT_INTERNAL;
}
