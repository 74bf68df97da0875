// SPDX-License-Identifier: MIT
/*
 * Shell words for the replay commands triage and the report print: a
 * command line a user pastes into a POSIX shell must reach the program
 * with the same arguments, whatever the paths hold.
 */
#include <string.h>

#include "common_int.h"

#define PLAIN "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" \
	      "0123456789_-./:,+@%"

/* Append @n bytes of @s to @buf (@k used of @len), NUL-terminated. */
static bool put(char *buf, size_t len, size_t *k, const char *s, size_t n)
{
	if (*k + n >= len)
		return false;
	memcpy(buf + *k, s, n);
	*k += n;
	buf[*k] = 0;
	return true;
}

bool dfz__shell_quote(const char *s, char *buf, size_t len)
{
	size_t k = 0;
	bool ok;

	if (!len)
		return false;
	buf[0] = 0;
	if (*s && strspn(s, PLAIN) == strlen(s))
		return put(buf, len, &k, s, strlen(s));
	ok = put(buf, len, &k, "'", 1);
	for (; ok && *s; s++)
		ok = *s == '\'' ? put(buf, len, &k, "'\\''", 4)
				: put(buf, len, &k, s, 1);
	return ok && put(buf, len, &k, "'", 1);
}
