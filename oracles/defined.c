// SPDX-License-Identifier: MIT
/*
 * mem.undefined: a transfer that reads bytes no one ever wrote (DROPIN
 * 3, "definedness travels with the bytes"). Never-written bytes hold
 * their level's fill pattern (dfz_mem_fill_byte()): L3 the loader never
 * filled, and under cfg.sanitize every fresh block. A source row of at
 * least DF_MIN bytes that holds the fill pattern throughout was never
 * stored by the program, the host or an engine: the transfer loads a
 * tile from memory no one initialized (an input never copied in), or
 * stores an output the kernel never wrote. Judged at ISSUE, in the runs
 * of a program with a memory map (the drop-in), as the bounds oracle
 * judges them; the model's own runs move fill bytes on purpose.
 *
 * A row shorter than DF_MIN, or one a single written byte breaks, is
 * accepted: a chance match of the fill pattern is then at most 2^-64.
 * Under valgrind the bytes are judged on a copy declared defined
 * (dfz__oracle_judged()), so memcheck reports the program's reads of
 * them, never the oracle's.
 */
#include "oracle_int.h"

#define DF_MIN 8u                    /* bytes a row needs to be judged */
#define DF_CHUNK 256u                /* bytes compared a copy */
_Static_assert((DF_MIN & (DF_MIN - 1)) == 0 && (DF_CHUNK & (DF_CHUNK - 1)) == 0,
	       "chunks are powers of two: never_written() masks");

struct defined {
	struct dfz_oracles *set;
	struct dfz_rt *rt;
	bool mapped;                 /* the program has a memory map */
};

static void df_reset(void *st, struct dfz_oracles *set, struct dfz_rt *rt)
{
	struct defined *o = st;
	struct dfz_mem_regions r;

	o->set = set;
	o->rt = rt;
	o->mapped = false;
	for (unsigned l = 0; l < DFZ_NLEVELS; l++) {
		dfz_mem_regions(rt, (enum dfz_level)l, &r);
		o->mapped |= r.statics || r.nstacks;
	}
}

/* Copy @n bytes past ASan (the row may be an in-flight destination the
 * runtime poisoned), without an intercepted memcpy. */
DFZ__ORACLE_NO_ASAN
static void copy_raw(uint8_t *dst, const uint8_t *src, uint32_t n)
{
	const volatile uint8_t *s = src;

	for (uint32_t i = 0; i < n; i++)
		dst[i] = s[i];
}

/* Whether [off, off + n) of @level holds the fill pattern throughout. */
static bool never_written(struct dfz_rt *rt, unsigned level, uint64_t off,
			  uint64_t n)
{
	uint8_t buf[DF_CHUNK];
	uint64_t chunk = 1;          /* a written row differs at once */

	while (n > 0) {
		/* dfz_mem_ptr() vouches for @off's page: never cross one. */
		uint64_t room = chunk - (off & (chunk - 1)); /* powers of 2 */
		uint32_t k = (uint32_t)(n < room ? n : room);
		const uint8_t *p = off <= UINT32_MAX ?
			dfz_mem_ptr(rt, (enum dfz_level)level, (uint32_t)off) :
			NULL;

		if (!p)
			return false;
		copy_raw(buf, p, k);
		dfz__oracle_judged(buf, k);
		for (uint32_t i = 0; i < k; i++)
			if (buf[i] != dfz_mem_fill_byte((enum dfz_level)level,
							(uint32_t)(off + i)))
				return false;
		off += k;
		n -= k;
		chunk = DF_CHUNK;
	}
	return true;
}

static void fail(struct defined *o, const struct dfz_event *ev,
		 const struct dfz__fp *fp, uint64_t off, uint64_t n)
{
	struct dfz_evidence x = dfz__evidence_of(ev, o->set->xfer);

	x.level = fp->level;
	x.off = (int64_t)off;
	dfz_oracle_fail(o->set, "defined", DFZ_CLASS_MEM_UNDEFINED, &x,
			"source %s [0x%llx, 0x%llx) was never written: its %llu "
			"bytes still hold the level's fill pattern (a fresh "
			"block, or memory no one stored to)",
			dfz__level_name(fp->level), (unsigned long long)off,
			(unsigned long long)(off + n), (unsigned long long)n);
}

/*
 * Whether the first byte of every row of @fp (lines of fp->length) was
 * written: then no row holds the fill pattern throughout, and there is
 * nothing to judge. The rows lie in their level below @cap, which the
 * runtime made ready at the ISSUE (rt.c); their first bytes are judged
 * on a copy, DF_CHUNK rows at a time. False also when it cannot tell,
 * and for one range (never_written() probes its first byte as well):
 * the rows are then judged one by one.
 */
static bool rows_written(struct defined *o, const struct dfz__fp *fp,
			 uint64_t cap)
{
	uint8_t buf[DF_CHUNK];
	uint64_t rows = dfz__div(fp->size + fp->length - 1, fp->length), i;
	const uint8_t *p;

	if (!fp->stride || dfz__fp_end(fp) > cap || fp->base > UINT32_MAX ||
	    !(p = dfz_mem_ptr(o->rt, (enum dfz_level)fp->level,
			      (uint32_t)fp->base)))
		return false;
	for (i = 0; i < rows; i += DF_CHUNK) {
		uint32_t k = rows - i < DF_CHUNK ? (uint32_t)(rows - i) :
						   DF_CHUNK;

		for (uint32_t j = 0; j < k; j++)
			copy_raw(&buf[j], p + (i + j) * fp->stride, 1);
		dfz__oracle_judged(buf, k);
		for (uint32_t j = 0; j < k; j++)
			if (buf[j] == dfz_mem_fill_byte(
				    (enum dfz_level)fp->level,
				    (uint32_t)(fp->base + (i + j) * fp->stride)))
				return false;
	}
	return true;
}

static void on_issue(struct defined *o, const struct dfz_event *ev)
{
	const struct dfz_desc *d = &ev->desc;
	struct dfz__fp fp;
	uint64_t cap;

	dfz__fp_init(&fp, d, d->ext2loc);
	if (fp.level >= DFZ_NLEVELS || fp.size == 0)
		return;
	cap = dfz_mem_size(o->rt, (enum dfz_level)fp.level);
	if (!d->is_2d || fp.length == 0 || fp.length >= fp.size)
		fp.length = fp.size;
	if (rows_written(o, &fp, cap))
		return;
	for (uint64_t at = 0, off = fp.base; at < fp.size;
	     at += fp.length, off += fp.stride) {
		uint64_t n = fp.size - at < fp.length ? fp.size - at :
							fp.length;

		if (off + n > cap)
			return;   /* the engine's dma.bad-address */
		if (n >= DF_MIN && never_written(o->rt, fp.level, off, n)) {
			fail(o, ev, &fp, off, n);
			return;
		}
		if (fp.length == fp.size)
			break;
	}
}

static void df_event(void *st, const struct dfz_event *ev)
{
	struct defined *o = st;

	if (o->mapped && ev->kind == DFZ_EV_ISSUE)
		on_issue(o, ev);
}

static const struct dfz_oracle_ops ops = {
	.name = "defined",
	.size = sizeof(struct defined),
	.events = DFZ_EV_BIT(DFZ_EV_ISSUE),
	.reset = df_reset,
	.event = df_event,
};

const struct dfz_oracle_ops *dfz__oracle_defined(void)
{
	return &ops;
}
