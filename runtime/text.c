// SPDX-License-Identifier: MIT
/*
 * Text helpers shared by every layer that writes machine-readable reports
 * (the harness's verdicts, the drop-in's): a string as a JSON string, the
 * memory levels' names.
 */
#include <stdio.h>

#include "runtime_int.h"

void dfz_json_string(const char *s, FILE *f)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

const char *dfz_level_name(unsigned level)
{
#define NAME_OF(id, name) name,
	static const char *const names[DFZ_NLEVELS] = { DFZ_LEVEL_MAP(NAME_OF) };
#undef NAME_OF

	return level < DFZ_NLEVELS ? names[level] : NULL;
}
