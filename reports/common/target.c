// SPDX-License-Identifier: MIT
/*
 * The fuzz targets by name, for the reports that sort a campaign's files
 * by target (triage's inputs, the report's instances and run record):
 * the target of a path is the nearest component naming one.
 */
#include <string.h>

#include "common_int.h"

static const char *const target_names[DFZ__TARGETS] = {
	"xfer", "host", "api", "parse", "other",
};

const char *const *dfz__target_names(void)
{
	return target_names;
}

unsigned dfz__target_of(const char *path)
{
	unsigned t = DFZ__TARGETS - 1;

	for (const char *p = path; *p; p += strcspn(p, "/"), p += *p == '/') {
		size_t l = strcspn(p, "/");

		for (unsigned i = 0; i + 1 < DFZ__TARGETS; i++)
			if (strlen(target_names[i]) == l &&
			    !strncmp(p, target_names[i], l))
				t = i;
	}
	return t;
}
