// SPDX-License-Identifier: MIT
/*
 * The lexer of the text form of a plan: reads one line at a time (without
 * its `#` comment, bounded), splits it into a key and its values, and turns
 * values into numbers, names, permutations and paddings, each checked
 * against its range, and finds the plan's family (its `family` line may
 * stand anywhere). Every error is one "line N: ..." message. The keys and
 * what they mean live in plan_text.c (xfer) and plan_host_text.c (host,
 * api).
 */
#include <stdarg.h>
#include <string.h>

#include "plan_int.h"

int dfz__lex_fail(struct dfz__lex *s, const char *fmt, ...)
{
	char msg[192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (s->err && s->errlen)
		snprintf(s->err, s->errlen, "line %zu: %s", s->lineno, msg);
	return DFZ_EINVAL;
}

/* @src as a printable, bounded one-line excerpt. */
const char *dfz__lex_quote(char dst[DFZ_LEX_QUOTE_BYTES + 4], const char *src)
{
	size_t i;

	for (i = 0; src[i] != '\0' && i < DFZ_LEX_QUOTE_BYTES; i++)
		dst[i] = (src[i] >= 0x20 && src[i] < 0x7f) ? src[i] : '?';
	strcpy(&dst[i], src[i] != '\0' ? "..." : "");
	return dst;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static void split(struct dfz__lex *ln)
{
	char *c = ln->buf;

	ln->ntok = 0;
	for (;;) {
		while (is_blank(*c))
			c++;
		if (*c == '\0')
			return;
		if (ln->ntok < DFZ_LEX_MAX_TOKENS)
			ln->tok[ln->ntok] = c;
		ln->ntok++;
		while (*c != '\0' && !is_blank(*c))
			c++;
		if (*c != '\0')
			*c++ = '\0';
	}
}

void dfz__lex_rewind(struct dfz__lex *s, const char *text)
{
	s->pos = text ? text : "";
	s->lineno = 0;
}

/* Read the next line into s->ln. Return: 1 when a line was read, 0 at the
 * end of the text, or DFZ_EINVAL for a line over DFZ_LEX_LINE_BYTES. */
int dfz__lex_next(struct dfz__lex *s)
{
	size_t n = 0;
	bool comment = false;

	if (*s->pos == '\0')
		return 0;
	s->lineno++;
	for (; *s->pos != '\0' && *s->pos != '\n'; s->pos++) {
		if (*s->pos == '#')
			comment = true;
		if (comment)
			continue;
		if (n == DFZ_LEX_LINE_BYTES)
			return dfz__lex_fail(s, "line longer than %d bytes", DFZ_LEX_LINE_BYTES);
		s->buf[n++] = *s->pos;
	}
	if (*s->pos == '\n')
		s->pos++;
	s->buf[n] = '\0';
	split(s);
	return 1;
}

/* ------------------------------------------------------------- values */

static int digit_of(char c, unsigned base)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (base == 16 && c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (base == 16 && c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decimal or 0x-hex. Return: 0, 1 when not a number, 2 when over 2^32-1. */
static int parse_u32(const char *t, uint32_t *v)
{
	uint64_t x = 0;
	unsigned base = 10;
	int dig;

	if (t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
		base = 16;
		t += 2;
	}
	if (*t == '\0')
		return 1;
	for (; *t != '\0'; t++) {
		dig = digit_of(*t, base);
		if (dig < 0)
			return 1;
		x = x * base + (unsigned)dig;
		if (x > UINT32_MAX)
			x = (uint64_t)UINT32_MAX + 1; /* stays over, no wrap */
	}
	*v = (uint32_t)x;
	return x > UINT32_MAX ? 2 : 0;
}

static int want_values(struct dfz__lex *s, unsigned n)
{
	unsigned got = s->ntok - 1;

	if (got == n)
		return 0;
	return dfz__lex_fail(s, "'%s' needs %u value%s, got %u", s->tok[0], n,
		    n == 1 ? "" : "s", got);
}

/* Value @i (1-based token index) of the line, in [lo, hi]. */
int dfz__lex_num(struct dfz__lex *s, unsigned i, uint32_t lo, uint32_t hi,
		   uint32_t *v)
{
	char q[DFZ_LEX_QUOTE_BYTES + 4];
	int rc = parse_u32(s->tok[i], v);

	if (rc == 1)
		return dfz__lex_fail(s, "bad number '%s' for '%s'",
			    dfz__lex_quote(q, s->tok[i]), s->tok[0]);
	if (rc == 2 || *v < lo || *v > hi)
		return dfz__lex_fail(s, "'%s' value %s out of range %lu..%lu",
			    s->tok[0], dfz__lex_quote(q, s->tok[i]),
			    (unsigned long)lo, (unsigned long)hi);
	return 0;
}

int dfz__lex_one(struct dfz__lex *s, uint32_t lo, uint32_t hi, uint32_t *v)
{
	int rc = want_values(s, 1);

	return rc ? rc : dfz__lex_num(s, 1, lo, hi, v);
}

int dfz__lex_vec(struct dfz__lex *s, unsigned n, uint32_t lo, uint32_t hi,
		   uint32_t *v)
{
	int rc = want_values(s, n);
	unsigned i;

	for (i = 0; i < n && rc == 0; i++)
		rc = dfz__lex_num(s, 1 + i, lo, hi, &v[i]);
	return rc;
}

int dfz__lex_name_at(struct dfz__lex *s, unsigned i, const char *label,
		     enum dfz__name_table t, uint32_t *v)
{
	char q[DFZ_LEX_QUOTE_BYTES + 4], alts[160] = "";
	unsigned k, n;
	const char *const *names = dfz__names(t, &n);

	for (k = 0; k < n; k++) {
		if (!strcmp(s->tok[i], names[k])) {
			*v = k;
			return 0;
		}
		if (strlen(alts) + strlen(names[k]) + 2 < sizeof(alts)) {
			strcat(alts, k ? "|" : "");
			strcat(alts, names[k]);
		}
	}
	return dfz__lex_fail(s, "unknown value '%s' for '%s' (%s)",
			     dfz__lex_quote(q, s->tok[i]), label, alts);
}

int dfz__lex_name(struct dfz__lex *s, enum dfz__name_table t, uint32_t *v)
{
	int rc = want_values(s, 1);

	return rc ? rc : dfz__lex_name_at(s, 1, s->tok[0], t, v);
}

int dfz__lex_order(struct dfz__lex *s, unsigned rank, uint8_t *order)
{
	unsigned d, used = 0;
	uint32_t v[DFZ_MAX_RANK];
	int rc = dfz__lex_vec(s, rank, 0, rank - 1, v);

	if (rc)
		return rc;
	for (d = 0; d < rank; d++)
		used |= 1u << v[d];
	if (used != (1u << rank) - 1)
		return dfz__lex_fail(s, "'%s' is not a permutation of 0..%u",
			    s->tok[0], rank - 1);
	for (d = 0; d < rank; d++)
		order[d] = (uint8_t)v[d];
	return 0;
}

int dfz__lex_pad(struct dfz__lex *s, unsigned rank, uint8_t *pad)
{
	unsigned d;
	uint32_t v[DFZ_MAX_RANK];
	int rc = dfz__lex_vec(s, rank, 0, DFZ_CAP_PAD, v);

	for (d = 0; d < rank && rc == 0; d++)
		pad[d] = (uint8_t)v[d];
	return rc;
}


/* ------------------------------------------------------------- family */

int dfz__lex_family(struct dfz__lex *s, unsigned *family)
{
	size_t first = 0;
	uint32_t v = DFZ_FAMILY_XFER;
	int rc;

	*family = DFZ_FAMILY_XFER;
	while ((rc = dfz__lex_next(s)) == 1) {
		if (s->ntok == 0 || strcmp(s->tok[0], "family"))
			continue;
		if (first)
			return dfz__lex_fail(s, "duplicate key 'family' (first "
					     "on line %zu)", first);
		first = s->lineno;
		rc = dfz__lex_name(s, DFZ_NAMES_FAMILY, &v);
		if (rc)
			return rc;
		*family = v;
	}
	return rc;
}
