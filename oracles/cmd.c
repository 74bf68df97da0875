// SPDX-License-Identifier: MIT
/*
 * cmd.encoding: on every mchan push, the command word the driver wrote
 * must encode the transfer the caller asked for. The oracle decodes the
 * word with its own table of the documented layout (length in bits 0..16,
 * then direction, increment, 2-D external, event, IRQ, broadcast, 2-D
 * local; nothing above bit 23) and names every field that disagrees with
 * the request: a length of 2^17 or more cannot be encoded at all, and
 * spills into the flags. Event and IRQ are the caller's choice of
 * completion notice and are not judged. A 2-D flag makes the hardware read
 * two more words for that side (line length, stride: 32 bits each on
 * MCHAN v7): the external ones must give the request's line length and
 * stride, the local stride the request's, and neither line may be 0 (a
 * flag without its words, or a 0 line, stalls the channel).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "oracle_int.h"

/* The documented layout of the mchan command word. */
#define CMD_LEN_BITS 17
#define CMD_LEN_MASK ((1u << CMD_LEN_BITS) - 1)
#define CMD_DIR (1u << 17)            /* 1: external -> local */
#define CMD_INC (1u << 18)            /* incrementing addresses */
#define CMD_2D_EXT (1u << 19)
#define CMD_EVENT (1u << 20)
#define CMD_IRQ (1u << 21)
#define CMD_BCAST (1u << 22)
#define CMD_2D_LOC (1u << 23)
#define CMD_KNOWN (CMD_LEN_MASK | CMD_DIR | CMD_INC | CMD_2D_EXT | \
		   CMD_EVENT | CMD_IRQ | CMD_BCAST | CMD_2D_LOC)

struct cmd {
	struct dfz_oracles *set;
};

/* Two descriptions of the wrong fields: what the word says, what the
 * request needs. */
struct cmd_text {
	char got[128];
	char exp[128];
	char tail[48];                /* reserved bits, after "transfer" */
	size_t ngot;
	size_t nexp;
};

static int cmd_init(void *st)
{
	(void)st;
	return 0;
}

static void cmd_fini(void *st)
{
	(void)st;
}

static void cmd_reset(void *st, struct dfz_oracles *set, struct dfz_rt *rt)
{
	struct cmd *c = st;

	(void)rt;
	c->set = set;
}

static void put(char *buf, size_t cap, size_t *n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Append a space-separated word to @buf (truncating, never overflowing). */
static void put(char *buf, size_t cap, size_t *n, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (*n + 2 > cap)                 /* no room for a separator */
		return;
	if (*n > 0)
		buf[(*n)++] = ' ';
	va_start(ap, fmt);
	k = vsnprintf(buf + *n, cap - *n, fmt, ap);
	va_end(ap);
	if (k > 0)
		*n += (size_t)k < cap - *n ? (size_t)k : cap - *n - 1;
}

/* "L2->L1" for a transfer from the @ext2loc side of @d. */
static void direction(char *out, size_t cap, const struct dfz_desc *d,
		      bool ext2loc)
{
	const char *e = dfz__level_name(d->ext_level);
	const char *l = dfz__level_name(d->loc_level);

	snprintf(out, cap, "%s->%s", ext2loc ? e : l, ext2loc ? l : e);
}

static void check_flag(struct cmd_text *t, bool got, bool want,
		       const char *on, const char *off)
{
	if (got == want)
		return;
	put(t->got, sizeof(t->got), &t->ngot, "%s", got ? on : off);
	put(t->exp, sizeof(t->exp), &t->nexp, "%s", want ? on : off);
}

static void check_word(struct cmd_text *t, uint32_t got, uint32_t want,
		       const char *what)
{
	if (got == want)
		return;
	put(t->got, sizeof(t->got), &t->ngot, "%s %u", what, got);
	put(t->exp, sizeof(t->exp), &t->nexp, "%s %u", what, want);
}

/* A 2-D side whose line length word is 0 (or was never pushed). */
static void no_line(struct cmd_text *t, const char *side)
{
	put(t->got, sizeof(t->got), &t->ngot, "%s line 0", side);
	put(t->exp, sizeof(t->exp), &t->nexp, "a %s line of 1 byte or more",
	    side);
}

/* The 2-D words of @ev's push that the flags of @w make the hardware
 * read, against @d. */
static void decode_2d(uint32_t w, const struct dfz_event *ev,
		      const struct dfz_desc *d, struct cmd_text *t)
{
	if (w & CMD_2D_EXT) {
		check_word(t, ev->ext_2d[0], d->length, "external line");
		check_word(t, ev->ext_2d[1], d->ext_stride, "external stride");
		if (ev->ext_2d[0] == 0 && d->length == 0)
			no_line(t, "external");
	}
	if (w & CMD_2D_LOC) {
		check_word(t, ev->loc_2d[1], d->loc_stride, "local stride");
		if (ev->loc_2d[0] == 0)
			no_line(t, "local");
	}
}

/* Describe every field of @ev's command word @w that does not encode @d;
 * false when none. */
static bool decode(uint32_t w, const struct dfz_event *ev,
		   const struct dfz_desc *d, struct cmd_text *t)
{
	bool dir = (w & CMD_DIR) != 0, loc2d = (w & CMD_2D_LOC) != 0;
	bool need_loc2d = d->is_2d && d->loc_stride != d->length;
	char a[16], b[16];

	if ((w & CMD_LEN_MASK) != d->size) {
		put(t->got, sizeof(t->got), &t->ngot, "%u-byte",
		    w & CMD_LEN_MASK);
		put(t->exp, sizeof(t->exp), &t->nexp, "%u bytes", d->size);
	}
	if (dir != (d->ext2loc != 0)) {
		direction(a, sizeof(a), d, dir);
		direction(b, sizeof(b), d, d->ext2loc != 0);
		put(t->got, sizeof(t->got), &t->ngot, "%s", a);
		put(t->exp, sizeof(t->exp), &t->nexp, "%s", b);
	}
	check_flag(t, (w & CMD_2D_EXT) != 0, d->is_2d != 0, "2-D external",
		   "1-D external");
	check_flag(t, (w & CMD_INC) != 0, true, "incrementing",
		   "non-incrementing");
	/* A 2-D local side whose stride is its line length is contiguous. */
	if (loc2d ? !d->is_2d : need_loc2d)
		check_flag(t, loc2d, need_loc2d, "2-D local",
			   "contiguous local");
	check_flag(t, (w & CMD_BCAST) != 0, false, "broadcast",
		   "point-to-point");
	decode_2d(w, ev, d, t);
	if (w & ~CMD_KNOWN) {
		snprintf(t->tail, sizeof(t->tail),
			 " with reserved bits 0x%08x set", w & ~CMD_KNOWN);
		put(t->exp, sizeof(t->exp), &t->nexp, "reserved bits clear");
	}
	return t->nexp > 0;
}

/* The word is the low 32 bits of aux (however the engine widened it). */
static void cmd_event(void *st, const struct dfz_event *ev)
{
	struct cmd *c = st;
	uint32_t w = (uint32_t)ev->aux;
	struct dfz_evidence x = dfz_evidence_none();
	struct cmd_text t = { .ngot = 0 };

	if (ev->engine != DFZ_ENGINE_MCHAN || !decode(w, ev, &ev->desc, &t))
		return;
	x.handle = ev->handle;
	x.step = (int64_t)ev->step;
	x.xfer = c->set->xfer;
	dfz_oracle_fail(c->set, "cmd", DFZ_CLASS_CMD_ENCODING, &x,
			"command word 0x%08x encodes a %s%stransfer%s "
			"(expected %s%s), pushed on TID %lld", w, t.got,
			t.ngot ? " " : "", t.tail, t.exp,
			ev->desc.size > CMD_LEN_MASK ?
			"; 17 length bits hold at most 131071" : "",
			(long long)ev->id);
}

static const struct dfz_oracle_ops ops = {
	.name = "cmd",
	.size = sizeof(struct cmd),
	.events = DFZ_EV_BIT(DFZ_EV_ISSUE),
	.init = cmd_init,
	.fini = cmd_fini,
	.reset = cmd_reset,
	.event = cmd_event,
};

const struct dfz_oracle_ops *dfz__oracle_cmd(void)
{
	return &ops;
}
