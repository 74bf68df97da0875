// SPDX-License-Identifier: MIT
/*
 * mkdir -p: the one directory maker of the reports and the command line
 * (triage buckets, a report's output, the fuzz and matrix outputs).
 */
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>

#include "dmafuzz/report.h"

int dfz_mkdir_p(const char *path)
{
	char buf[4096];

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, 0777) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(buf, 0777) < 0 && errno != EEXIST ? -1 : 0;
}
