// SPDX-License-Identifier: MIT
/*
 * Text helpers shared by every layer that writes machine-readable reports
 * (the harness's verdicts, the drop-in's, triage.json, the campaign
 * report): a string as a JSON string, written here once, the memory
 * levels' names.
 */
#include <stdio.h>
#include <string.h>

#include "runtime_int.h"

/* The length of the valid UTF-8 sequence at @p: 0 for none (an overlong
 * form, a surrogate, past U+10FFFF or past @n). */
size_t dfz_utf8_len(const unsigned char *p, size_t n)
{
	size_t k;
	unsigned cp;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		k = 2, cp = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		k = 3, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		k = 4, cp = p[0] & 0x07;
	else
		return 0;
	if (k > n)
		return 0;
	for (size_t i = 1; i < k; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((k == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (k == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return k;
}

void dfz_json_string(const char *s, FILE *f)
{
	static const char esc[] = "\"\\\b\f\n\r\t", name[] = "\"\\bfnrt";
	const unsigned char *p = (const unsigned char *)s;
	size_t n = s ? strlen(s) : 0;

	fputc('"', f);
	while (n) {
		const char *e = *p ? strchr(esc, *p) : NULL;
		size_t k;

		if (e) {
			fputc('\\', f);
			fputc(name[e - esc], f);
			k = 1;
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(f, "\\u%04x", *p);
			k = 1;
		} else if ((k = dfz_utf8_len(p, n)) > 0) {
			fwrite(p, 1, k, f);
		} else {
			fputs("\\ufffd", f);
			k = 1;
		}
		p += k;
		n -= k;
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
