/* SPDX-License-Identifier: MIT */
/*
 * A strict subset of XML 1.0 well-formedness, for the tests of the HTML
 * report (well-formed XML, so a strict parser can check it): one root
 * element, tags nested and closed in order, attributes quoted and not
 * repeated, '&' only in the five predefined entities or character
 * references, no '<' in text or attribute values. An optional
 * <!DOCTYPE ...> and comments.
 */
#ifndef DFZ_TEST_XML_CHECK_H
#define DFZ_TEST_XML_CHECK_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static inline const char *xml_entity(const char *p)
{
	static const char *const ents[] = { "&amp;", "&lt;", "&gt;",
					    "&quot;", "&apos;" };

	for (size_t i = 0; i < 5; i++)
		if (!strncmp(p, ents[i], strlen(ents[i])))
			return p + strlen(ents[i]);
	if (p[1] == '#') {
		const char *q = p + 2;
		bool hex = *q == 'x';

		q += hex;
		if (!strspn(q, hex ? "0123456789abcdefABCDEF" : "0123456789"))
			return NULL;
		q += strspn(q, hex ? "0123456789abcdefABCDEF" : "0123456789");
		return *q == ';' ? q + 1 : NULL;
	}
	return NULL;
}

static inline size_t name_len(const char *p)
{
	return strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			 "0123456789-_:.");
}

/* The attributes of a start tag up to '>' or '/>'; NULL when malformed. */
static inline const char *xml_attrs(const char *p)
{
	char seen[32][64];
	int nseen = 0;

	for (;;) {
		size_t k;

		p += strspn(p, " \t\r\n");
		if (*p == '>' || (p[0] == '/' && p[1] == '>'))
			return p;
		k = name_len(p);
		if (!k || k >= 64 || p[k] != '=' || (p[k + 1] != '"' &&
						     p[k + 1] != '\''))
			return NULL;
		for (int i = 0; i < nseen; i++)
			if (strlen(seen[i]) == k && !strncmp(seen[i], p, k))
				return NULL;
		if (nseen < 32)
			snprintf(seen[nseen++], 64, "%.*s", (int)k, p);
		{
			char q = p[k + 1];

			p += k + 2;
			while (*p && *p != q) {
				if (*p == '<')
					return NULL;
				if (*p == '&' && !(p = xml_entity(p)))
					return NULL;
				else if (*p != '&' && *p != q)
					p++;
			}
			if (!*p)
				return NULL;
			p++;
		}
	}
}

static inline bool xml_well_formed(const char *s, char *why, size_t len)
{
	char stack[256][32];
	int depth = 0, roots = 0;
	const char *p = s;

	if (!strncmp(p, "<!DOCTYPE", 9))
		p = strchr(p, '>') + 1;
	while (*p) {
		if (*p == '&') {
			if (!xml_entity(p))
				goto bad;
			p = xml_entity(p);
		} else if (!strncmp(p, "<!--", 4)) {
			p = strstr(p, "-->");
			if (!p)
				goto bad;
			p += 3;
		} else if (p[0] == '<' && p[1] == '/') {
			size_t k = name_len(p + 2);

			if (!depth || strlen(stack[depth - 1]) != k ||
			    strncmp(stack[depth - 1], p + 2, k) || p[2 + k] != '>')
				goto bad;
			depth--;
			p += k + 3;
		} else if (*p == '<') {
			size_t k = name_len(p + 1);

			if (!k || k >= 32 || depth == 256)
				goto bad;
			if (!depth)
				roots++;
			snprintf(stack[depth], 32, "%.*s", (int)k, p + 1);
			p = xml_attrs(p + 1 + k);
			if (!p)
				goto bad;
			if (*p == '/')
				p += 2;
			else
				depth++, p++;
		} else {
			if (!depth && !strchr(" \t\r\n", *p))
				goto bad;
			p++;
		}
	}
	if (depth || roots != 1) {
		snprintf(why, len, "%d unclosed element(s), %d root(s)", depth,
			 roots);
		return false;
	}
	return true;
bad:
	snprintf(why, len, "at byte %td: %.40s", p ? p - s : -1, p ? p : "");
	return false;
}

#endif /* DFZ_TEST_XML_CHECK_H */
