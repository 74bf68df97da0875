// SPDX-License-Identifier: MIT
/*
 * mkdir -p: the one directory maker of the reports and the command line
 * (triage buckets, a report's output, the fuzz and matrix outputs).
 */
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>

#include "common_int.h"

/* One level: an existing directory is fine, an existing file is not. */
static int mkdir_one(const char *dir)
{
	struct stat st;

	if (mkdir(dir, 0777) == 0)
		return 0;
	if (errno != EEXIST)
		return dfz_err_from_errno(errno);
	if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
		return 0;
	errno = ENOTDIR;
	return DFZ_ENOTDIR;
}

int dfz__mkdir_p(const char *path)
{
	char buf[4096];
	int rc;

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf)) {
		errno = ENAMETOOLONG;
		return DFZ_EINVAL;
	}
	if (!buf[0]) {                    /* the loop starts past the first */
		errno = ENOENT;
		return DFZ_ENOENT;
	}
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		rc = mkdir_one(buf);
		if (rc < 0)
			return rc;
		*p = '/';
	}
	return mkdir_one(buf);
}
