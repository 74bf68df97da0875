// SPDX-License-Identifier: MIT
/*
 * The one directory walk of the reports and the command line: every
 * entry of a directory handed to a callback with its path, in readdir
 * order (the campaign's instances and their queue, crash and hang files,
 * render/; a campaign's inputs, triage/) or sorted by name (the plans of
 * a directory that `dmafuzz run`, `fuzz` and `bench` read, whose output
 * follows that order). Recursion and filters are the callers'.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common_int.h"

static bool is_dot(const char *name)
{
	return name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2]));
}

/* @fn on @dir/@name, unless it is . or .. or its path is too long. */
static int visit(const char *dir, const char *name, dfz__dir_fn fn, void *arg)
{
	char path[4096];

	if (is_dot(name) ||
	    snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return 0;
	return fn(path, name, arg);
}

int dfz__dir_each(const char *dir, dfz__dir_fn fn, void *arg, bool *opened)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0;

	if (opened)
		*opened = d != NULL;
	if (!d)
		return 0;
	while (rc == 0 && (e = readdir(d)))
		rc = visit(dir, e->d_name, fn, arg);
	closedir(d);
	return rc;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

int dfz__dir_each_sorted(const char *dir, dfz__dir_fn fn, void *arg,
			 bool *opened)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, by_name), rc = 0;

	if (opened)
		*opened = n >= 0;
	for (int i = 0; i < n; i++) {
		if (rc == 0)
			rc = visit(dir, names[i]->d_name, fn, arg);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	return rc;
}
