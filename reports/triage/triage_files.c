// SPDX-License-Identifier: MIT
/*
 * The files of a triage: the campaign's inputs found and copied (never
 * moved, never written over), and every output written atomically (a
 * temporary file beside it, then rename(2)).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "triage_int.h"

/*
 * The DFZ_E* code of a failed write into OUT, errno kept for the message.
 * A path that vanished under us is the disk's doing, not an unreadable
 * input's (DFZ_ENOENT marks those).
 */
static int out_err(void)
{
	int rc = dfz_err_from_errno(errno);

	return rc == DFZ_ENOENT ? DFZ_EIO : rc;
}

/* ------------------------------------------------------------ finding */

static bool has_component(const char *path, const char *name)
{
	size_t k = strlen(name);

	for (const char *p = path; (p = strstr(p, name)); p += k)
		if ((p == path || p[-1] == '/') && (p[k] == '/' || !p[k]))
			return true;
	return false;
}

/* A file fuzz.sh writes beside a finding: X.txt (its report), X.plan. */
static bool is_companion(const char *dir, const char *name)
{
	const char *dot = strrchr(name, '.');
	char stem[4096];
	struct stat st;

	if (!dot || (strcmp(dot, ".txt") && strcmp(dot, ".plan")))
		return false;
	snprintf(stem, sizeof(stem), "%s/%.*s", dir, (int)(dot - name), name);
	return stat(stem, &st) == 0 && S_ISREG(st.st_mode);
}

static int add_input(struct dfz__triage *t, const char *dir, const char *path)
{
	struct dfz__input *in;

	if (dfz__grow(&t->in, &t->in_cap, t->nin, sizeof(*t->in), 16))
		return DFZ_ENOMEM;
	in = &t->in[t->nin];
	memset(in, 0, sizeof(*in));
	in->bucket = -1;
	in->same_as = -1;
	in->src = strdup(path);
	if (!in->src)
		return DFZ_ENOMEM;
	snprintf(in->target, sizeof(in->target), "%s",
		 dfz__target_names()[dfz__target_of(dir)]);
	t->nin++;
	return 0;
}

static bool is_input_dir(const char *dir)
{
	return has_component(dir, "crashes") || has_component(dir, "hangs") ||
	       has_component(dir, "findings");
}

/* Where walk() is: the triage, the dir it reads, OUT (not entered). */
struct walk {
	struct dfz__triage *t;
	const char *dir;
	const struct stat *skip;
	unsigned depth;
};

static int walk(struct dfz__triage *t, const char *dir, const struct stat *skip,
		unsigned depth);

/* One entry of a walked dir: a subdir is walked in turn, a file of an
 * input dir is an input. */
static int walk_entry(const char *path, const char *name, void *arg)
{
	const struct walk *w = arg;
	struct stat st;

	if (name[0] == '.' || lstat(path, &st) < 0) /* AFL++'s and fuzz.sh's
						   * state files */
		return 0;
	if (S_ISDIR(st.st_mode)) {
		if (!w->skip || st.st_dev != w->skip->st_dev ||
		    st.st_ino != w->skip->st_ino)
			return walk(w->t, path, w->skip, w->depth + 1);
		return 0;
	}
	if (S_ISLNK(st.st_mode) && (stat(path, &st) < 0 || S_ISDIR(st.st_mode)))
		return 0;
	if (!S_ISREG(st.st_mode))             /* a FIFO, socket or device
					       * would block or never end */
		return 0;
	if (!is_input_dir(w->dir) || !strcmp(name, "README.txt") ||
	    is_companion(w->dir, name))
		return 0;
	return add_input(w->t, w->dir, path);
}

static int walk(struct dfz__triage *t, const char *dir, const struct stat *skip,
		unsigned depth)
{
	struct walk w = { t, dir, skip, depth };

	return depth > 32 ? 0 : dfz__dir_each(dir, walk_entry, &w, NULL);
}

static int by_src(const void *a, const void *b)
{
	return strcmp(((const struct dfz__input *)a)->src,
		      ((const struct dfz__input *)b)->src);
}

int dfz__triage_scan(struct dfz__triage *t, const char *dir, const char *skip)
{
	struct stat st;
	char root[4096];
	size_t l = strlen(dir);
	int rc;

	/* "DIR/" and "DIR" find the same paths. */
	while (l > 1 && dir[l - 1] == '/')
		l--;
	snprintf(root, sizeof(root), "%.*s", (int)l, dir);
	rc = walk(t, root, stat(skip, &st) == 0 ? &st : NULL, 0);
	if (rc == 0 && t->nin)
		qsort(t->in, t->nin, sizeof(*t->in), by_src);
	return rc;
}

/* ------------------------------------------------------------ copying */

/* Does @path hold exactly @n bytes of @buf? */
static bool same_bytes(const char *path, const uint8_t *buf, size_t n)
{
	FILE *f = fopen(path, "rb");
	uint8_t chunk[4096];
	size_t at = 0, k;
	bool same = f != NULL;

	while (same && (k = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		same = at + k <= n && !memcmp(chunk, buf + at, k);
		at += k;
	}
	if (f)
		fclose(f);
	return same && at == n;
}

/* Is OUT-relative @rel taken by an earlier input of this triage? */
static bool is_claimed(const struct dfz__triage *t, const char *rel)
{
	for (unsigned i = 0; i < t->nin; i++)
		if (t->in[i].copy && !strcmp(t->in[i].copy, rel))
			return true;
	return false;
}

/*
 * Put the temporary copy @tmp at a free name: link(2) never replaces a
 * file. An older copy of the same bytes (an earlier triage into OUT) is
 * taken as it is.
 */
static int place(struct dfz__triage *t, struct dfz__input *in, const char *tmp,
		 const uint8_t *buf, size_t n, bool whole)
{
	const char *name = strrchr(in->src, '/');
	char rel[4096], path[8300];

	name = name ? name + 1 : in->src;
	for (unsigned k = 0; k < 100000; k++) {
		if (k)
			snprintf(rel, sizeof(rel), "inputs/%s/%s~%u", in->target,
				 name, k);
		else
			snprintf(rel, sizeof(rel), "inputs/%s/%s", in->target, name);
		if (is_claimed(t, rel))
			continue;
		snprintf(path, sizeof(path), "%s/%s", t->out, rel);
		if (link(tmp, path) == 0 ||
		    (errno == EEXIST && whole && same_bytes(path, buf, n))) {
			in->copy = strdup(rel);
			return in->copy ? 0 : DFZ_ENOMEM;
		}
		if (errno != EEXIST)
			return out_err();
	}
	errno = EEXIST;
	return DFZ_EIO;
}

/* Stream @src into the open @fd, keeping its first bytes in @in->buf. */
static int copy_bytes(int src, int fd, struct dfz__input *in, bool *whole)
{
	uint8_t chunk[65536];
	ssize_t r;
	int rc;

	in->n = 0;
	*whole = true;
	while ((r = read(src, chunk, sizeof(chunk))) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return DFZ_ENOENT;
		rc = dfz__write_all(fd, chunk, (size_t)r);
		if (rc < 0)
			return rc;
		if (in->n + (size_t)r > DFZ__INPUT_MAX) {
			*whole = false;
			continue;
		}
		memcpy(in->buf + in->n, chunk, (size_t)r);
		in->n += (size_t)r;
	}
	return 0;
}

int dfz__copy_input(struct dfz__triage *t, struct dfz__input *in, char *err,
		    size_t errlen)
{
	char dir[4200], base[4220], tmp[4300];
	uint8_t *shrunk;
	int src, fd, rc;
	bool whole;

	snprintf(dir, sizeof(dir), "%s/inputs/%s", t->out, in->target);
	rc = dfz__mkdir_p(dir);
	if (rc < 0) {
		snprintf(err, errlen, "cannot create '%s': %s", dir, strerror(errno));
		return rc == DFZ_ENOENT ? DFZ_EIO : rc;
	}
	in->buf = malloc(DFZ__INPUT_MAX + 1);
	if (!in->buf)
		return DFZ_ENOMEM;
	src = open(in->src, O_RDONLY);
	if (src < 0) {
		snprintf(err, errlen, "cannot read it: %s", strerror(errno));
		return DFZ_ENOENT;
	}
	snprintf(base, sizeof(base), "%s/.copy", dir);
	fd = dfz__open_temp(base, tmp, sizeof(tmp));
	if (fd < 0) {
		snprintf(err, errlen, "cannot write in '%s': %s", dir, strerror(errno));
		close(src);
		return fd;
	}
	rc = copy_bytes(src, fd, in, &whole);
	if (rc == DFZ_ENOENT)
		snprintf(err, errlen, "cannot read it: %s", strerror(errno));
	else if (rc)
		snprintf(err, errlen, "cannot write in '%s': %s", dir, strerror(errno));
	close(src);
	if (close(fd) != 0 && !rc) {
		rc = out_err();
		snprintf(err, errlen, "cannot write in '%s': %s", dir,
			 strerror(errno));
	}
	if (!rc) {
		rc = place(t, in, tmp, in->buf, in->n, whole);
		if (rc < 0 && rc != DFZ_ENOMEM)
			snprintf(err, errlen, "cannot copy it into '%s': %s", dir,
				 strerror(errno));
	}
	unlink(tmp);
	in->buf[in->n] = 0;
	shrunk = realloc(in->buf, in->n + 1);  /* keep only its bytes */
	if (shrunk)
		in->buf = shrunk;
	if (!rc && !whole) {
		snprintf(err, errlen, "over %u bytes, the fuzz targets' limit",
			 DFZ__INPUT_MAX);
		rc = DFZ_ERANGE;
	}
	in->whole = rc == 0;
	if (in->whole)
		in->hash = dfz__fnv1a(in->buf, in->n);
	return rc;
}
