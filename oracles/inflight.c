// SPDX-License-Identifier: MIT
/*
 * dma.early-wait and the source half of hazard.race, judged per transfer
 * from ISSUE to the wait that retires it (DROPIN 6).
 *
 * A wait that returns while a transfer it covers is still in flight is an
 * early wait. What a wait covers is the API's contract, not the engine's
 * bookkeeping: a ram wait covers the transfers issued on its request, an
 * mchan wait those pushed under its TID, an idma wait(t) every txid up to
 * t (wait_all: every one). A transfer is in flight until the engine
 * completes it, matched oldest first by request, TID or txid. An idma
 * txid handed out to several transfers (iDMA counts ids at the pop and
 * returns them at the push) covers them all; the message says so.
 *
 * Sources stay still: the CPU-visible source bytes (L2/L1) of a transfer
 * are checksummed at ISSUE and again when the engine completes it; a
 * difference means the CPU (or another writer) changed what the DMA was
 * still reading.
 */
#include <stdio.h>
#include <string.h>

#include "oracle_int.h"


#define XF_MAX 4096    /* transfers tracked at once; more go unjudged */

struct xf {
	uint8_t engine;
	bool done;                    /* the engine completed it */
	bool summed;                  /* @sum holds the source checksum */
	const void *handle;           /* ram: the request */
	int64_t id;                   /* mchan TID, idma txid */
	int64_t xfer;                 /* issue sequence number */
	uint64_t step;                /* of the ISSUE */
	uint64_t sum;
	struct dfz_desc desc;
};

struct inflight {
	struct dfz_oracles *set;
	struct dfz_rt *rt;
	uint32_t n;
	struct xf x[XF_MAX];
};

static int inflight_init(void *st)
{
	(void)st;
	return 0;
}

static void inflight_fini(void *st)
{
	(void)st;
}

static void inflight_reset(void *st, struct dfz_oracles *set,
			   struct dfz_rt *rt)
{
	struct inflight *o = st;

	o->set = set;
	o->rt = rt;
	o->n = 0;
}

/* A multiply-xorshift hash of @n bytes, eight at a time. The source may
 * be an in-flight destination that the runtime poisoned for ASan, so it
 * is read uninstrumented (memcpy of a word is a plain load here). */
DFZ__ORACLE_NO_ASAN
static uint64_t hash_bytes(uint64_t h, const uint8_t *p, uint64_t n)
{
	uint64_t w;

	for (; n >= 8; n -= 8, p += 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ull;
		h ^= h >> 29;
	}
	for (; n > 0; n--, p++)
		h = (h ^ *p) * 0x100000001b3ull;
	return h;
}

/* One word of hash_words(): its product is off the chain of adds and
 * rotations, which any one changed word changes. */
DFZ__ORACLE_NO_ASAN
static inline uint64_t mix_word(uint64_t h, const uint8_t *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
	h += w * 0x9e3779b97f4a7c15ull;
	return h << 31 | h >> 33;
}

/* A hash of @size bytes in lines of @len every @stride bytes from @p
 * (both multiples of eight; the last line may be shorter; @len 0: one
 * range), as one stream of words: a loop per line, whose words go
 * straight (a stream that tests for a line's end at each word compiles
 * to twice the instructions a word), and none for lines of one word. */
DFZ__ORACLE_NO_ASAN
static uint64_t hash_words(uint64_t h, const uint8_t *p, uint64_t size,
			   uint64_t len, uint64_t stride)
{
	uint64_t words = size / 8, per = len ? len / 8 : words;

	if (per == 1)
		for (; words > 0; words--, p += stride)
			h = mix_word(h, p);
	while (words > 0) {
		uint64_t n = words < per ? words : per;
		const uint8_t *q = p;

		words -= n;
		for (; n > 0; n--, q += 8)
			h = mix_word(h, q);
		if (words > 0) /* the next line's: no step past the last */
			p += stride;
	}
	return h;
}

/* Checksum of the CPU-visible source side of @d; false when the source is
 * not in L2/L1 (L3 is the engines' alone) or leaves the level. */
static bool source_sum(struct dfz_rt *rt, const struct dfz_desc *d,
		       uint64_t *sum)
{
	struct dfz__fp fp;
	uint64_t h = 0xcbf29ce484222325ull, end;
	const uint8_t *p;

	dfz__fp_init(&fp, d, d->ext2loc);
	if ((fp.level != DFZ_L2 && fp.level != DFZ_L1) || fp.size == 0)
		return false;
	/* Lines at a stride past their length, or one range (stride 0):
	 * the level is one block of memory, and the runtime made the
	 * footprint ready at the ISSUE (rt.c). */
	end = dfz__fp_end(&fp);
	if (end > dfz_mem_size(rt, fp.level) ||
	    !(p = dfz_mem_ptr(rt, fp.level, (uint32_t)fp.base)))
		return false;
	if (fp.length % 8 == 0 && fp.size % 8 == 0)  /* whole words */
		h = hash_words(h, p, fp.size, fp.length, fp.stride);
	else
		for (uint64_t at = 0; at < fp.size;
		     at += fp.length, p += fp.stride)
			h = hash_bytes(h, p, fp.size - at < fp.length ?
						     fp.size - at : fp.length);
	dfz__oracle_judged(&h, sizeof(h)); /* of never-written bytes too */
	*sum = h;
	return true;
}

static void on_issue(struct inflight *o, const struct dfz_event *ev)
{
	struct xf *x;

	if (o->n == XF_MAX)
		return;
	x = &o->x[o->n++];
	*x = (struct xf){
		.engine = ev->engine, .handle = ev->handle, .id = ev->id,
		.xfer = o->set->xfer, .step = ev->step, .desc = ev->desc,
	};
	x->summed = source_sum(o->rt, &ev->desc, &x->sum);
}

static bool same_key(const struct xf *x, const struct dfz_event *ev)
{
	if (x->engine != ev->engine)
		return false;
	return ev->engine == DFZ_ENGINE_RAM ? x->handle == ev->handle :
					      x->id == ev->id;
}

static void on_complete(struct inflight *o, const struct dfz_event *ev)
{
	struct xf *x = NULL;
	struct dfz_evidence e;
	uint64_t now;

	for (uint32_t i = 0; i < o->n && !x; i++)
		if (!o->x[i].done && same_key(&o->x[i], ev))
			x = &o->x[i];
	if (!x)
		return;
	x->done = true;
	if (!x->summed || !source_sum(o->rt, &x->desc, &now) || now == x->sum)
		return;
	e = dfz__evidence_of(ev, x->xfer);
	dfz_oracle_fail(o->set, "inflight", DFZ_CLASS_HAZARD_RACE, &e,
			"the source of %s (transfer #%lld, issued at step "
			"%llu) changed before the engine finished reading it "
			"at step %llu (expected it untouched until the "
			"transfer completed)",
			dfz__owner(o->set, x->engine, x->handle, x->id),
			(long long)x->xfer, (unsigned long long)x->step,
			(unsigned long long)ev->step);
}

/* Does the wait @ev cover transfer @x, by the API's contract? */
static bool covers(const struct dfz_event *ev, const struct xf *x)
{
	if (x->engine != ev->engine)
		return false;
	if (ev->engine == DFZ_ENGINE_IDMA)
		return ev->id < 0 || x->id <= ev->id;
	return same_key(x, ev);
}

/* The idma transfers tracked under @x's txid: more than one when a start
 * handed out an id another start had returned (ids counted at the pop). */
static uint32_t sharing(const struct inflight *o, const struct xf *x)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < o->n; i++)
		n += o->x[i].engine == DFZ_ENGINE_IDMA && o->x[i].id == x->id;
	return x->engine == DFZ_ENGINE_IDMA ? n : 0;
}

static void early(struct inflight *o, const struct dfz_event *ev,
		  const struct xf *x)
{
	struct dfz_evidence e = dfz__evidence_of(ev, x->xfer);
	uint32_t n = sharing(o, x);
	char why[64] = "";

	if (n > 1)
		snprintf(why, sizeof(why), ", one of %u given txid %lld: "
			 "idma-id-at-push", n, (long long)x->id);
	dfz_oracle_fail(o->set, "inflight", DFZ_CLASS_DMA_EARLY_WAIT, &e,
			"wait on %s returned at step %llu while transfer #%lld "
			"(issued at step %llu%s) was still in flight (expected "
			"the wait to return only after the transfers it "
			"covers completed)",
			dfz__owner(o->set, ev->engine, ev->handle, ev->id),
			(unsigned long long)ev->step, (long long)x->xfer,
			(unsigned long long)x->step, why);
}

/* A wait returned: every transfer it covers must be done; those retire. */
static void on_waited(struct inflight *o, const struct dfz_event *ev)
{
	uint32_t k = 0;

	if (ev->aux != 0)
		return; /* a hang: judged by the hang oracle */
	for (uint32_t i = 0; i < o->n; i++) {
		if (covers(ev, &o->x[i])) {
			if (!o->x[i].done) {
				early(o, ev, &o->x[i]);
				return;
			}
			continue;
		}
		o->x[k++] = o->x[i];
	}
	o->n = k;
}

static void inflight_event(void *st, const struct dfz_event *ev)
{
	struct inflight *o = st;

	switch (ev->kind) {
	case DFZ_EV_ISSUE:
		on_issue(o, ev);
		break;
	case DFZ_EV_COMPLETE:
		on_complete(o, ev);
		break;
	default:
		on_waited(o, ev);
		break;
	}
}

static const struct dfz_oracle_ops ops = {
	.name = "inflight",
	.size = sizeof(struct inflight),
	.events = DFZ_EV_BIT(DFZ_EV_ISSUE) | DFZ_EV_BIT(DFZ_EV_COMPLETE) |
		  DFZ_EV_BIT(DFZ_EV_WAITED),
	.init = inflight_init,
	.fini = inflight_fini,
	.reset = inflight_reset,
	.event = inflight_event,
};

const struct dfz_oracle_ops *dfz__oracle_inflight(void)
{
	return &ops;
}
