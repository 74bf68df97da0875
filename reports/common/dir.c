// SPDX-License-Identifier: MIT
/*
 * The one directory walk of the reports: every entry of a directory
 * handed to a callback with its path, for the campaign's instances and
 * their queue, crash and hang files (render/) and a campaign's inputs
 * (triage/). Recursion, filters and order are the callers'.
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "common_int.h"

int dfz__dir_each(const char *dir, dfz__dir_fn fn, void *arg, bool *opened)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0;

	if (opened)
		*opened = d != NULL;
	if (!d)
		return 0;
	while (rc == 0 && (e = readdir(d))) {
		const char *name = e->d_name;
		char path[4096];

		if (name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2])))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, name) >=
		    (int)sizeof(path))
			continue;
		rc = fn(path, name, arg);
	}
	closedir(d);
	return rc;
}
