// SPDX-License-Identifier: MIT
/*
 * The choice stream under every plan (as in Hypothesis): a cursor over fuzz
 * bytes from which each field is drawn. take(lo, hi) reads just enough bytes
 * for the range; once the bytes run out every draw returns lo, so shrinking
 * the bytes toward zero (or cutting them short) simplifies the plan.
 * take_size() favours boundary values and powers of two, so that exact sizes
 * such as 4096 or 2^17 are two bytes away; draw_weighted() maps one byte
 * onto a few values with chosen odds. The emitters are the inverse,
 * used by the encoder: they write the bytes a draw reads back as a value.
 * A reader can record where each draw took its bytes (dfz_plan_spans()),
 * so that a shrinker acts on whole choices.
 */
#include <assert.h>
#include <string.h>

#include "plan_int.h"

#define MODE_UNIFORM 0x80u /* take_size mode bytes >= this draw uniformly */

void dfz__choice_reader(struct dfz_choice *c, const uint8_t *buf, size_t n)
{
	memset(c, 0, offsetof(struct dfz_choice, out));
	c->in = buf;
	c->n = buf ? n : 0;
}

/* The recording hook: note that a draw read @k bytes at @off. */
static void record(struct dfz_choice *c, size_t off, unsigned k)
{
	if (c->nspans < c->maxspans) {
		c->spans[c->nspans].off = (uint32_t)off;
		c->spans[c->nspans].len = k;
	}
	c->nspans++;
}

unsigned dfz_plan_spans(unsigned family, const uint8_t *buf, size_t n,
			 struct dfz_choice_span *spans, unsigned max)
{
	static const struct dfz_plan none;
	struct dfz_plan scratch;
	struct dfz_choice c;

	dfz__choice_reader(&c, buf, n);
	c.spans = spans;
	c.maxspans = spans ? max : 0;
	dfz__plan_visit_as(&c, family, &none, &scratch);
	return c.nspans;
}

void dfz__choice_writer(struct dfz_choice *c)
{
	memset(c, 0, sizeof(*c));
	c->writing = true;
}

/* Bytes needed to hold every offset 0..range. */
static unsigned bytes_for(uint32_t range)
{
	if (range <= 0xffu)
		return 1;
	if (range <= 0xffffu)
		return 2;
	if (range <= 0xffffffu)
		return 3;
	return 4;
}

uint32_t dfz__choice_take(struct dfz_choice *c, uint32_t lo, uint32_t hi)
{
	uint32_t v = 0;
	unsigned k, i;

	if (hi <= lo)
		return lo;
	k = bytes_for(hi - lo);
	if (c->n - c->pos < k) {
		c->pos = c->n;
		return lo;
	}
	for (i = 0; i < k; i++)
		v |= (uint32_t)c->in[c->pos + i] << (8 * i);
	if (c->spans)
		record(c, c->pos, k);
	c->pos += k;
	return lo + (uint32_t)(v % ((uint64_t)hi - lo + 1));
}

/* Append @v to the ascending list @cand of @n when it is in [lo, hi] and
 * above the last entry. */
static unsigned add_size(uint32_t *cand, unsigned n, uint64_t v, uint32_t lo,
			 uint32_t hi)
{
	if (v >= lo && v <= hi && (n == 0 || v > cand[n - 1]))
		cand[n++] = (uint32_t)v;
	return n;
}

/*
 * The boundary sizes of [lo, hi], ascending and unique: lo, lo + 1, every
 * power of two p within the range with p - 1 and p + 1, hi - 1, hi. They
 * are generated in ascending order (each group starts above the one
 * before, or repeats what is already there), so no sort is needed.
 */
unsigned dfz__choice_sizes(uint32_t lo, uint32_t hi,
			   uint32_t cand[DFZ_CHOICE_MAX_SIZES])
{
	unsigned n = 0, j;

	if (hi <= lo) {
		cand[0] = lo;
		return 1;
	}
	n = add_size(cand, n, lo, lo, hi);
	n = add_size(cand, n, (uint64_t)lo + 1, lo, hi);
	for (j = 0; j < 32; j++) {
		uint64_t p = (uint64_t)1 << j;

		if (p + 1 < lo)
			continue;
		if (p > hi)
			break;
		n = add_size(cand, n, p - 1, lo, hi);
		n = add_size(cand, n, p, lo, hi);
		n = add_size(cand, n, p + 1, lo, hi);
	}
	n = add_size(cand, n, (uint64_t)hi - 1, lo, hi);
	return add_size(cand, n, hi, lo, hi);
}

uint32_t dfz__choice_take_size(struct dfz_choice *c, uint32_t lo, uint32_t hi)
{
	uint32_t cand[DFZ_CHOICE_MAX_SIZES];
	unsigned n;
	uint8_t mode;

	if (hi <= lo || c->pos >= c->n)
		return lo;
	if (c->spans)
		record(c, c->pos, 1);
	mode = c->in[c->pos++];
	if (mode >= MODE_UNIFORM)
		return dfz__choice_take(c, lo, hi);
	n = dfz__choice_sizes(lo, hi, cand);
	return cand[dfz__choice_take(c, 0, n - 1)];
}

/* Append the @k little-endian bytes of @x. */
static void put(struct dfz_choice *c, uint32_t x, unsigned k)
{
	unsigned i;

	for (i = 0; i < k; i++) {
		if (c->len >= sizeof(c->out)) {
			c->overflow = true;
			return;
		}
		c->out[c->len++] = (uint8_t)(x >> (8 * i));
	}
	if (x != 0)
		c->keep = c->len;
}

static uint32_t clamp_u32(uint32_t v, uint32_t lo, uint32_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

void dfz__choice_emit(struct dfz_choice *c, uint32_t lo, uint32_t hi,
		      uint32_t v)
{
	if (hi <= lo)
		return;
	put(c, clamp_u32(v, lo, hi) - lo, bytes_for(hi - lo));
}

void dfz__choice_emit_size(struct dfz_choice *c, uint32_t lo, uint32_t hi,
			   uint32_t v)
{
	uint32_t cand[DFZ_CHOICE_MAX_SIZES];
	unsigned n, i;

	if (hi <= lo)
		return;
	v = clamp_u32(v, lo, hi);
	n = dfz__choice_sizes(lo, hi, cand);
	for (i = 0; i < n; i++) {
		if (cand[i] == v) {
			put(c, 0, 1);
			dfz__choice_emit(c, 0, n - 1, i);
			return;
		}
	}
	put(c, MODE_UNIFORM, 1);
	dfz__choice_emit(c, lo, hi, v);
}

uint32_t dfz__choice_draw(struct dfz_choice *c, uint32_t lo, uint32_t hi,
			  uint32_t v)
{
	if (!c->writing)
		return dfz__choice_take(c, lo, hi);
	v = hi <= lo ? lo : clamp_u32(v, lo, hi);
	dfz__choice_emit(c, lo, hi, v);
	return v;
}

uint32_t dfz__choice_draw_size(struct dfz_choice *c, uint32_t lo, uint32_t hi,
			       uint32_t v)
{
	if (!c->writing)
		return dfz__choice_take_size(c, lo, hi);
	v = hi <= lo ? lo : clamp_u32(v, lo, hi);
	dfz__choice_emit_size(c, lo, hi, v);
	return v;
}

/* The value whose share of the byte values holds @b. */
static uint32_t bucket_of(const uint8_t *w, unsigned n, uint32_t b)
{
	uint32_t end = 0;

	for (unsigned i = 0; i < n; i++) {
		end += w[i];
		if (b < end)
			return i;
	}
	return n - 1;
}

/* The first byte value of @v's share. */
static uint32_t first_byte_of(const uint8_t *w, unsigned v)
{
	uint32_t start = 0;

	for (unsigned i = 0; i < v; i++)
		start += w[i];
	return start;
}

uint32_t dfz__choice_draw_weighted(struct dfz_choice *c, const uint8_t *w,
				   unsigned n, uint32_t v)
{
	assert(first_byte_of(w, n) == 256); /* the odds cover every byte */
	if (n <= 1)
		return 0;
	if (!c->writing)
		return bucket_of(w, n, dfz__choice_take(c, 0, 255));
	v = v < n ? v : n - 1;
	dfz__choice_emit(c, 0, 255, first_byte_of(w, v));
	return v;
}
