// SPDX-License-Identifier: MIT
/*
 * Reading plan files: the text form that people write, or the binary
 * choice stream that fuzzers produce. A file is text when it starts like
 * the text form (`#` or `family`) and holds only printable ASCII and
 * whitespace; anything else is a choice stream, which always decodes.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmafuzz/harness.h"

#define LOAD_MAX (1u << 20)   /* a plan file is small; more is not a plan */

bool dfz_plan_bytes_are_text(const uint8_t *buf, size_t n)
{
	if (n == 0 || !(buf[0] == '#' || (n >= 6 && !memcmp(buf, "family", 6))))
		return false;
	for (size_t i = 0; i < n; i++) {
		uint8_t c = buf[i];

		if (!(c == '\n' || c == '\r' || c == '\t' || (c >= 0x20 && c < 0x7f)))
			return false;
	}
	return true;
}

/* Read all of @f into a malloc'ed, NUL-terminated buffer. */
static int slurp(FILE *f, uint8_t **out, size_t *n)
{
	size_t cap = 4096, len = 0;
	uint8_t *buf = malloc(cap + 1);

	if (!buf)
		return DFZ_ENOMEM;
	errno = 0;
	for (;;) {
		size_t got = fread(buf + len, 1, cap - len, f);

		len += got;
		if (len < cap)
			break;
		if (cap >= LOAD_MAX) {
			/* Exactly LOAD_MAX bytes is a plan file; more is not. */
			if (fgetc(f) == EOF)
				break;
			free(buf);
			return DFZ_ERANGE;
		}
		cap *= 2;
		uint8_t *nb = realloc(buf, cap + 1);

		if (!nb) {
			free(buf);
			return DFZ_ENOMEM;
		}
		buf = nb;
	}
	if (ferror(f)) {
		int e = errno;

		free(buf);
		errno = e;
		return dfz_err_from_errno(e);
	}
	buf[len] = 0;
	*out = buf;
	*n = len;
	return 0;
}

int dfz_plan_load(const char *path, struct dfz_plan *out, char *err,
		  size_t errlen)
{
	bool is_stdin = !strcmp(path, "-");
	FILE *f = is_stdin ? stdin : fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t n = 0;
	int rc;

	if (!f) {
		snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
		return dfz_err_from_errno(errno);
	}
	rc = slurp(f, &buf, &n);
	if (rc < 0)
		snprintf(err, errlen, "cannot read '%s': %s", path,
			 rc == DFZ_ERANGE ? "larger than 1 MiB" :
			 rc == DFZ_ENOMEM ? dfz_strerror(rc) : strerror(errno));
	if (!is_stdin)
		fclose(f);
	if (rc == 0) {
		char perr[200];

		rc = dfz_plan_from_bytes(buf, n, out, perr, sizeof(perr));
		if (rc < 0)
			snprintf(err, errlen, "%s: %s", path, perr);
	}
	free(buf);
	return rc;
}

int dfz_plan_from_bytes(const uint8_t *buf, size_t n, struct dfz_plan *out,
			char *err, size_t errlen)
{
	if (dfz_plan_bytes_are_text(buf, n))
		return dfz_plan_parse((const char *)buf, out, err, errlen);
	dfz_plan_decode(buf, n, out);
	return 0;
}
