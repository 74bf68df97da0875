// SPDX-License-Identifier: MIT
/*
 * The drop-in's quirks (DROPIN 4): their names, the settings a process
 * starts with (the defaults, then DFZ_QUIRKS, then --quirks), each run's
 * values (a quirk set "any" drawn from the schedule), the body's own
 * dfz_dropin_quirks() call, and the words a verdict names them with.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dropin_int.h"

static const struct {
	const char *name;
	bool def;
	const char *doc;
} quirk[DFZ_NQUIRKS] = {
#define QUIRK_ROW(id, n, d, text) [DFZ_QUIRK_##id] = { n, d, text },
	DFZ_QUIRK_MAP(QUIRK_ROW)
#undef QUIRK_ROW
};

uint32_t dfz__quirks_default(void)
{
	uint32_t on = 0;

	for (unsigned q = 0; q < DFZ_NQUIRKS; q++)
		on |= quirk[q].def ? 1u << q : 0;
	return on;
}

/* The quirk named by @item[0..n), or -1. */
/* @s[0..n) is the word @w. */
static bool is(const char *s, size_t n, const char *w)
{
	return strlen(w) == n && !strncmp(s, w, n);
}

static int lookup(const char *item, size_t n)
{
	for (unsigned q = 0; q < DFZ_NQUIRKS; q++)
		if (is(item, n, quirk[q].name))
			return (int)q;
	return -1;
}

/* One item: NAME, no-NAME, NAME=on|off|any; snrt-pinned is no-snrt-head. */
static int parse_item(const char *item, size_t n, struct dfz__quirks *qs)
{
	const char *eq = memchr(item, '=', n);
	size_t name_n = eq ? (size_t)(eq - item) : n;
	const char *val = eq ? eq + 1 : "on";
	size_t val_n = eq ? n - name_n - 1 : 2;
	bool off = false, pinned;
	int q;

	if (!eq && n > 3 && !strncmp(item, "no-", 3)) {
		item += 3;
		name_n -= 3;
		off = true;
	}
	pinned = is(item, name_n, "snrt-pinned");
	q = pinned ? DFZ_QUIRK_SNRT_HEAD : lookup(item, name_n);
	if (q < 0)
		return -1;
	qs->any &= ~(1u << q);
	if (is(val, val_n, "any"))
		qs->any |= 1u << q;
	else if (is(val, val_n, "on") || is(val, val_n, "off"))
		off ^= pinned ^ is(val, val_n, "off");
	else
		return -1;
	if (!(qs->any & (1u << q)))
		qs->on = off ? qs->on & ~(1u << q) : qs->on | 1u << q;
	return 0;
}

int dfz__quirks_parse(const char *list, struct dfz__quirks *qs)
{
	struct dfz__quirks t = *qs;
	const char *p = list;

	while (p && *p) {
		size_t n = strcspn(p, ",");

		if (n > 0 && parse_item(p, n, &t) < 0) {
			fprintf(stderr, "dmafuzz: unknown quirk setting '%.*s' "
				"(expected NAME, no-NAME or NAME=on|off|any; "
				"--help lists the names)\n", (int)n, p);
			return -1;
		}
		p += n + (p[n] == ',');
	}
	*qs = t;
	return 0;
}

void dfz__quirks_help(FILE *f)
{
	uint32_t def = dfz__quirks_default();

	fputs("Quirks (DFZ_QUIRKS=LIST or --quirks LIST; items NAME, no-NAME, "
	      "NAME=any):\n", f);
	for (unsigned q = 0; q < DFZ_NQUIRKS; q++)
		fprintf(f, "  %-23s %s; default %s\n", quirk[q].name,
			quirk[q].doc, def & (1u << q) ? "on" : "off");
}

/* The SDK family whose behaviour @q changes. */
static uint32_t api_of(unsigned q)
{
	switch (q) {
	case DFZ_QUIRK_SNRT_HEAD:
	case DFZ_QUIRK_IDMA_ZERO_RETIRES:
	case DFZ_QUIRK_IDMA_ID_AT_PUSH:
		return DFZ__API_SNRT;
	case DFZ_QUIRK_MCHAN_STALL_NO_TID:
		return DFZ__API_MCHAN;
	case DFZ_QUIRK_RAM_CONCURRENT:
		return DFZ__API_RAM;
	default:
		return DFZ__API_CLDMA;
	}
}

size_t dfz__quirks_describe(uint32_t on, uint32_t apis, char *buf, size_t n)
{
	size_t at = 0;

	buf[0] = 0;
	for (unsigned q = 0; q < DFZ_NQUIRKS && at < n; q++) {
		bool off = !(on & (1u << q));
		const char *name = off && q == DFZ_QUIRK_SNRT_HEAD ?
					   "snrt-pinned" : quirk[q].name;

		/* A quirk on by default and off here is said as the setting
		 * that restores it, no-NAME; one off by default, not at all. */
		bool no = off && q != DFZ_QUIRK_SNRT_HEAD && quirk[q].def;

		if ((apis & api_of(q)) && (!off || no || q == DFZ_QUIRK_SNRT_HEAD))
			at += (size_t)snprintf(buf + at, n - at, "%s%s%s",
					       at ? ", " : "", no ? "no-" : "",
					       name);
	}
	return at < n ? at : n - 1;
}

/* The engines' share of @on (cfg.quirks). */
static uint32_t rt_quirks(uint32_t on)
{
	uint32_t rtq = (on & (1u << DFZ_QUIRK_IDMA_ZERO_RETIRES) ?
				DFZ_RTQ_IDMA_ZERO_RETIRES : 0) |
		       (on & (1u << DFZ_QUIRK_IDMA_ID_AT_PUSH) ?
				DFZ_RTQ_IDMA_ID_AT_PUSH : 0);

	/* ram-concurrent off is the serial RAM driver */
	if (!(on & (1u << DFZ_QUIRK_RAM_CONCURRENT)))
		rtq |= DFZ_RTQ_RAM_SERIAL;
	return rtq;
}

uint32_t dfz__quirks_start(struct dfz__dropin *d)
{
	d->quirks = d->base.on;
	for (unsigned q = 0; q < DFZ_NQUIRKS; q++) {
		if (!(d->base.any & (1u << q)))
			continue;
		d->quirks &= ~(1u << q);
		d->quirks |= dfz__dropin_take(d, 0, 1) << q;
	}
	return rt_quirks(d->quirks);
}

int dfz_dropin_quirks(const char *list)
{
	struct dfz__dropin *d = dfz__dropin_get();
	struct dfz__quirks qs = { d->in_run ? d->quirks : d->base.on,
				  d->in_run ? 0 : d->base.any };

	if (dfz__quirks_parse(list, &qs) < 0)
		return -1;
	if (!d->in_run) {
		d->base = qs;
		return 0;
	}
	d->quirks = qs.on;
	for (unsigned q = 0; q < DFZ_NQUIRKS; q++)
		if (qs.any & (1u << q)) {
			d->quirks &= ~(1u << q);
			d->quirks |= dfz__dropin_take(d, 0, 1) << q;
		}
	dfz_rt_set_quirks(d->rt, rt_quirks(d->quirks));
	return 0;
}

int dfz_dropin_quirk_on(enum dfz_quirk q)
{
	struct dfz__dropin *d = dfz__dropin_get();
	uint32_t on = d->in_run ? d->quirks : d->base.on;

	return (unsigned)q < DFZ_NQUIRKS && (on & (1u << q));
}

bool dfz__quirk(const struct dfz__dropin *d, enum dfz_quirk q)
{
	return d->quirks & (1u << q);
}
