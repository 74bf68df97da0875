// SPDX-License-Identifier: MIT
/*
 * Files of the reports, written once for every folder: an output written
 * atomically (a temporary file beside it, then rename(2)), so that a
 * failure leaves the old file or none, never a partial one; a text built
 * in memory and then written so; an input read whole.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common_int.h"

/*
 * The DFZ_E* code of a failed write, errno kept for the message. A path
 * that vanished under us is the disk's doing, not an unreadable input's
 * (DFZ_ENOENT marks those).
 */
static int out_err(void)
{
	int rc = dfz_err_from_errno(errno);

	return rc == DFZ_ENOENT ? DFZ_EIO : rc;
}

int dfz__write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w == 0)
			errno = EIO;
		if (w <= 0)
			return out_err();
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int dfz__open_temp(const char *path, char *tmp, size_t len)
{
	int fd;

	if (snprintf(tmp, len, "%s.tmp.XXXXXX", path) >= (int)len) {
		errno = ENAMETOOLONG;
		return DFZ_EINVAL;
	}
	fd = mkstemp(tmp);
	return fd < 0 ? out_err() : fd;
}

int dfz__write_atomic(const char *path, const void *buf, size_t n)
{
	char tmp[4200];
	int fd = dfz__open_temp(path, tmp, sizeof(tmp));

	return fd < 0 ? fd : dfz__write_temp(fd, tmp, path, buf, n);
}

/* The mode a new file gets from open(2): 0666 less the umask (mkstemp
 * creates 0600). Reading the umask sets it; it is set back at once. */
static mode_t new_file_mode(void)
{
	mode_t mask = umask(022);

	umask(mask);
	return 0666 & ~mask;
}

int dfz__write_temp(int fd, const char *tmp, const char *path,
		    const void *buf, size_t n)
{
	int rc, e;

	fchmod(fd, new_file_mode());
	rc = dfz__write_all(fd, buf, n);
	if (close(fd) != 0 && !rc)
		rc = out_err();
	if (!rc && rename(tmp, path) != 0)
		rc = out_err();
	if (rc) {
		e = errno;
		unlink(tmp);
		errno = e;
	}
	return rc;
}

int dfz__text_open(struct dfz__text *t)
{
	t->buf = NULL;
	t->len = 0;
	t->f = open_memstream(&t->buf, &t->len);
	return t->f ? 0 : DFZ_ENOMEM;
}

int dfz__text_commit(struct dfz__text *t, const char *path)
{
	/* A memory stream fails only when memory runs out. */
	int rc = fclose(t->f) != 0 ? DFZ_ENOMEM :
		 dfz__write_atomic(path, t->buf, t->len);

	free(t->buf);
	t->buf = NULL;
	return rc;
}

char *dfz__read_stream(FILE *f, size_t max, size_t *n, bool *cut)
{
	char *buf = malloc(max + 1);
	size_t k;

	if (cut)
		*cut = false;
	if (!buf) {
		errno = ENOMEM;
		return NULL;
	}
	k = fread(buf, 1, max, f);
	if (cut && k == max && fgetc(f) != EOF)
		*cut = true;
	if (ferror(f)) {
		free(buf);
		errno = EIO;
		return NULL;
	}
	buf[k] = 0;
	if (n)
		*n = k;
	return buf;
}

char *dfz__read_file(const char *path, size_t max, size_t *n, bool *cut)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	int e;

	if (cut)
		*cut = false;
	if (!f)
		return NULL;
	buf = dfz__read_stream(f, max, n, cut);
	e = errno;
	fclose(f);
	errno = e;
	return buf;
}
