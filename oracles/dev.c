// SPDX-License-Identifier: MIT
/*
 * dev.leak and dev.misuse: a ledger of the device's allocations, kept from
 * the ALLOC and FREE events of device memory, that judges how the host
 * runtime uses the device. A block is tagged by who allocated it: the
 * user (a top-level call: the harness staging child tensors, an api
 * plan's mallocs), the runtime (inside a host call), or a kernel image
 * (retagged when a REGISTER returns 0).
 *
 * dev.misuse: every driver call the host runtime makes is judged on its
 * arguments against the ledger, whatever the driver answered: a free of
 * anything but the start of a live runtime block (a double free, a user's
 * block, an image, an address inside a block, one never allocated), a
 * copy whose device range is not inside one live block (use after free,
 * out of bounds), a launch of something that is not a live image. The
 * user's own misuse at the top level is rt.errcode's business.
 *
 * dev.leak: the runtime's share of device memory (its blocks and images)
 * must not grow from one successful launch to the next of the same init,
 * and no block the runtime allocated may be live after a successful
 * finalize, or after an init that failed. Images are the device context's
 * (no unregister exists) and may outlive finalize.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_model.h"

#define DV_LIVE_MAX 1024             /* live device blocks tracked */
#define DV_FREED_MAX 64              /* freed blocks remembered */
#define DV_STOLEN_MAX 64             /* runtime blocks the user freed */

enum dv_tag { DV_USER, DV_RT, DV_IMAGE };

struct dv_block {
	uint32_t off;                /* arena offset of the first user byte */
	uint32_t size;
	uint8_t tag;                 /* enum dv_tag */
	uint8_t by;                  /* enum dfz_api: host call that
				      * allocated (or freed) it; COUNT: the
				      * top level */
	uint32_t launch;             /* successful launches of the init
				      * before it was allocated (or freed) */
	uint64_t seq;                /* allocation order */
};

struct dev {
	struct dfz_oracles *set;
	struct dv_block *live;       /* DV_LIVE_MAX, unordered */
	uint32_t nlive;
	struct dv_block *freed;      /* DV_FREED_MAX, a ring */
	uint32_t nfreed;             /* entries ever pushed this run */
	struct dv_block *stolen;     /* DV_STOLEN_MAX: runtime blocks or
				      * images freed at the top level */
	uint32_t nstolen;
	bool overflow;               /* a block could not be tracked */
	struct dfz__hnest nest;
	uint64_t seq;                /* next allocation's number */
	uint64_t call_seq;           /* seq at the current host call's ENTER */
	bool has_gone;               /* @gone: the block the last FREE
				      * event released, until the API_RET */
	struct dv_block gone;
	bool has_base;               /* a successful launch of this init */
	uint64_t base_bytes;         /* runtime bytes after it */
	uint64_t base_seq;           /* seq after it */
	uint32_t launches;           /* successful launches of this init */
};

static int dv_init(void *st)
{
	struct dev *d = st;

	d->live = calloc(DV_LIVE_MAX, sizeof(*d->live));
	d->freed = calloc(DV_FREED_MAX, sizeof(*d->freed));
	d->stolen = calloc(DV_STOLEN_MAX, sizeof(*d->stolen));
	return d->live && d->freed && d->stolen ? 0 : DFZ_ENOMEM;
}

static void dv_fini(void *st)
{
	struct dev *d = st;

	free(d->live);
	free(d->freed);
	free(d->stolen);
}

static void dv_reset(void *st, struct dfz_oracles *set, struct dfz_rt *rt)
{
	struct dev *d = st;

	(void)rt;
	d->set = set;
	d->nlive = 0;
	d->nfreed = 0;
	d->nstolen = 0;
	d->overflow = false;
	memset(&d->nest, 0, sizeof(d->nest));
	d->seq = 0;
	d->call_seq = 0;
	d->has_gone = false;
	d->has_base = false;
	d->launches = 0;
}

/* ------------------------------------------------------------ the ledger */

static struct dv_block *live_at(struct dev *d, uint32_t off)
{
	uint32_t i;

	for (i = 0; i < d->nlive; i++)
		if (d->live[i].off == off)
			return &d->live[i];
	return NULL;
}

/* The live block holding byte @off, or NULL. */
static struct dv_block *live_holding(struct dev *d, uint64_t off)
{
	uint32_t i;

	for (i = 0; i < d->nlive; i++)
		if (off >= d->live[i].off &&
		    off - d->live[i].off < d->live[i].size)
			return &d->live[i];
	return NULL;
}

static bool overlaps(const struct dv_block *b, uint64_t off, uint64_t len)
{
	return off < (uint64_t)b->off + b->size && b->off < off + len;
}

/* The live block with the lowest address overlapping the range. */
static const struct dv_block *live_overlap(const struct dev *d, uint64_t off,
					   uint64_t len)
{
	const struct dv_block *best = NULL;
	uint32_t i;

	for (i = 0; i < d->nlive; i++)
		if (overlaps(&d->live[i], off, len) &&
		    (!best || d->live[i].off < best->off))
			best = &d->live[i];
	return best;
}

/* The most recently freed block matching: starting at @off (@start) or
 * overlapping [off, off+len). */
static const struct dv_block *freed_find(const struct dev *d, uint64_t off,
					 uint64_t len, bool start)
{
	uint32_t n = d->nfreed < DV_FREED_MAX ? d->nfreed : DV_FREED_MAX;
	uint32_t k;

	for (k = 1; k <= n; k++) {
		const struct dv_block *b = &d->freed[(d->nfreed - k) %
						     DV_FREED_MAX];

		if (start ? b->off == off : overlaps(b, off, len))
			return b;
	}
	return NULL;
}

static uint8_t current_by(const struct dev *d)
{
	return d->nest.depth ? d->nest.op : (uint8_t)DFZ_API_COUNT;
}

/*
 * A user who frees a runtime block through a stale address (an api plan
 * keeps a slot's address after freeing it, and the allocator hands the
 * block to init) takes it from the runtime, which still holds the address:
 * what the runtime then does with that range (copies it back, frees it at
 * finalize) is the user's misuse, not the runtime's. A range stays excused
 * until the runtime frees its start, which ends its claim on it.
 */
static bool excused(const struct dev *d, uint64_t off, uint64_t len)
{
	uint32_t i;

	for (i = 0; i < d->nstolen; i++)
		if (off >= d->stolen[i].off &&
		    off + len <= (uint64_t)d->stolen[i].off + d->stolen[i].size)
			return true;
	return false;
}

/* The runtime frees @off: true when that ends a stolen block's claim. */
static bool unsteal(struct dev *d, uint32_t off)
{
	uint32_t i;

	for (i = 0; i < d->nstolen; i++)
		if (d->stolen[i].off == off) {
			d->stolen[i] = d->stolen[--d->nstolen];
			return true;
		}
	return false;
}

static void steal(struct dev *d, const struct dv_block *b)
{
	if (d->nstolen >= DV_STOLEN_MAX)
		d->overflow = true;
	else
		d->stolen[d->nstolen++] = *b;
}

static void on_alloc(struct dev *d, const struct dfz_event *ev)
{
	struct dv_block *b;

	if (d->nlive >= DV_LIVE_MAX) {
		d->overflow = true;
		return;
	}
	b = &d->live[d->nlive++];
	b->off = ev->dst.off;
	b->size = ev->dst.len;
	b->tag = d->nest.depth ? DV_RT : DV_USER;
	b->by = current_by(d);
	b->launch = d->launches;
	b->seq = d->seq++;
}

static void on_free(struct dev *d, const struct dfz_event *ev)
{
	struct dv_block *b = live_at(d, ev->dst.off);

	if (!b)
		return;               /* untracked (overflow) */
	d->gone = *b;
	d->has_gone = true;
	if (!d->nest.depth && b->tag != DV_USER)
		steal(d, b);
	d->freed[d->nfreed++ % DV_FREED_MAX] = *b;
	d->freed[(d->nfreed - 1) % DV_FREED_MAX].by = current_by(d);
	d->freed[(d->nfreed - 1) % DV_FREED_MAX].launch = d->launches;
	*b = d->live[--d->nlive];
}

/* ------------------------------------------------------------ messages */

static const char *tag_name(unsigned tag)
{
	return tag == DV_USER ? "user block" :
	       tag == DV_RT ? "runtime block" : "kernel image";
}

/* Who allocated or freed @b: "init", "run (launch 3)", "the top level". */
static const char *by_name(char *buf, size_t n, const struct dv_block *b)
{
	if (b->by == DFZ_API_RUN)
		snprintf(buf, n, "run (launch %u)", b->launch + 1);
	else if (b->by < DFZ_API_COUNT)
		snprintf(buf, n, "%s", dfz__hapi_name(b->by));
	else
		snprintf(buf, n, "the top level");
	return buf;
}

/* Evidence at device arena offset @off (-1: outside the arena). */
static struct dfz_evidence dv_evidence(const struct dfz_event *ev,
				       int64_t off)
{
	struct dfz_evidence x = dfz_evidence_none();

	x.step = (int64_t)ev->step;
	if (off >= 0) {
		x.level = DFZ_DEV_LEVEL;
		x.off = off;
	}
	return x;
}

/* ------------------------------------------------------------ dev.misuse */

static void misuse(struct dev *d, const struct dfz_event *ev, int64_t off,
		   const char *what, const char *why)
{
	struct dfz_evidence x = dv_evidence(ev, off);

	dfz_oracle_fail(d->set, "dev", DFZ_CLASS_DEV_MISUSE, &x,
			"%s (in %s) %s (expected %s)",
			dfz__hapi_name(ev->aux), dfz__hapi_name(d->nest.op),
			what, why);
}

/* A free named @b, the block it released or the one live at its address,
 * which the runtime does not own. */
static void judge_owner(struct dev *d, const struct dfz_event *ev,
			const struct dv_block *b)
{
	char what[128], by[32];

	snprintf(what, sizeof(what), "frees dev+0x%x, a %s of %u bytes "
		 "allocated by %s", b->off, tag_name(b->tag), b->size,
		 by_name(by, sizeof(by), b));
	misuse(d, ev, b->off, what, b->tag == DV_USER ?
	       "only blocks the runtime allocated; the caller owns this one" :
	       "no free of an image: no unregister exists");
}

static void judge_free(struct dev *d, const struct dfz_event *ev)
{
	const char *want = "the start of a live block the runtime allocated";
	const struct dv_block *b;
	char what[128], by[32];
	uint32_t off = ev->dst.off;

	if (ev->dst.level != DFZ_DEV_LEVEL) {
		misuse(d, ev, -1, "frees an address outside the device arena",
		       want);
		return;
	}
	b = d->has_gone && d->gone.off == off ? &d->gone : live_at(d, off);
	if ((b && b->tag == DV_RT) || unsteal(d, off))
		return;
	if (b) {
		judge_owner(d, ev, b);
		return;
	}
	if ((b = live_holding(d, off))) {
		snprintf(what, sizeof(what), "frees dev+0x%x, %u bytes into "
			 "the %s dev+0x%x of %u bytes", off, off - b->off,
			 tag_name(b->tag), b->off, b->size);
	} else if ((b = freed_find(d, off, 1, true))) {
		snprintf(what, sizeof(what), "frees dev+0x%x (%u bytes) "
			 "again: double free, already freed by %s", off,
			 b->size, by_name(by, sizeof(by), b));
	} else {
		snprintf(what, sizeof(what), "frees dev+0x%x, which was "
			 "never allocated", off);
	}
	misuse(d, ev, off, what, want);
}

/* Why the range [off, off+len) is not inside one live block: it starts
 * in @b (an image, or running past its end), or in none. */
static void range_why(const struct dev *d, char *what, size_t n,
		      const char *side, uint64_t off, uint64_t len,
		      const struct dv_block *b)
{
	unsigned long long o = off, l = len;
	char by[32];

	if (b && b->tag == DV_IMAGE)
		snprintf(what, n, "%s dev+0x%llx lies in the kernel image "
			 "dev+0x%x", side, o, b->off);
	else if (b)
		snprintf(what, n, "%s dev+0x%llx+%llu runs %llu bytes past "
			 "the end of the %s dev+0x%x of %u bytes", side, o, l,
			 o + l - b->off - b->size, tag_name(b->tag), b->off,
			 b->size);
	else if ((b = freed_find(d, off, len, false)))
		snprintf(what, n, "%s dev+0x%llx+%llu uses the block dev+0x%x "
			 "(%u bytes) after %s freed it", side, o, l, b->off,
			 b->size, by_name(by, sizeof(by), b));
	else if ((b = live_overlap(d, off, len)))
		snprintf(what, n, "%s dev+0x%llx+%llu starts %llu bytes "
			 "before the %s dev+0x%x of %u bytes", side, o, l,
			 b->off - o, tag_name(b->tag), b->off, b->size);
	else
		snprintf(what, n, "%s dev+0x%llx+%llu lies in no block ever "
			 "allocated", side, o, l);
}

/* One device range of a copy: inside one live block that is not an
 * image, or misuse. */
static void judge_range(struct dev *d, const struct dfz_event *ev,
			const struct dfz_span *s, const char *side)
{
	const char *want = "a range inside one live block";
	uint64_t off = s->off, len = ev->desc.size ? ev->desc.size : 1;
	const struct dv_block *b;
	char what[160];

	if (s->level != DFZ_DEV_LEVEL) {
		snprintf(what, sizeof(what), "%s lies outside the device "
			 "arena", side);
		misuse(d, ev, -1, what, want);
		return;
	}
	b = live_holding(d, off);
	if ((b && b->tag != DV_IMAGE &&
	     off + len <= (uint64_t)b->off + b->size) ||
	    excused(d, off, len))
		return;
	range_why(d, what, sizeof(what), side, off, len, b);
	misuse(d, ev, (int64_t)off, what, want);
}

static void judge_launch(struct dev *d, const struct dfz_event *ev)
{
	const struct dv_block *b = live_at(d, ev->dst.off);
	const char *want = "the handle of a registered image";
	char what[96];

	if (ev->dst.level != DFZ_DEV_LEVEL) {
		misuse(d, ev, -1, "runs an image outside the device arena",
		       want);
		return;
	}
	if (b && b->tag == DV_IMAGE)
		return;
	snprintf(what, sizeof(what), "runs dev+0x%x, which is not a live "
		 "kernel image", ev->dst.off);
	misuse(d, ev, ev->dst.off, what, want);
}

static void on_nested(struct dev *d, const struct dfz_event *ev)
{
	if (d->overflow)
		return;
	switch (ev->aux) {
	case DFZ_API_FREE:
		judge_free(d, ev);
		break;
	case DFZ_API_COPY_TO:
		judge_range(d, ev, &ev->dst, "destination");
		break;
	case DFZ_API_COPY_FROM:
		judge_range(d, ev, &ev->src, "source");
		break;
	case DFZ_API_COPY_DEV:
		judge_range(d, ev, &ev->dst, "destination");
		judge_range(d, ev, &ev->src, "source");
		break;
	case DFZ_API_LAUNCH:
		judge_launch(d, ev);
		break;
	default:
		break;
	}
}

/* -------------------------------------------------------------- dev.leak */

/* Live bytes of the runtime (its blocks and images); @first: the oldest of
 * them allocated at or after @since, @n how many. */
static uint64_t rt_bytes(const struct dev *d, uint64_t since, bool images,
			 const struct dv_block **first, uint32_t *n)
{
	uint64_t bytes = 0;
	uint32_t i;

	*first = NULL;
	*n = 0;
	for (i = 0; i < d->nlive; i++) {
		const struct dv_block *b = &d->live[i];

		if (b->tag == DV_USER || (b->tag == DV_IMAGE && !images))
			continue;
		bytes += b->size;
		if (b->seq < since)
			continue;
		++*n;
		if (!*first || b->seq < (*first)->seq)
			*first = b;
	}
	return bytes;
}

static void on_launched(struct dev *d, const struct dfz_event *ev)
{
	const struct dv_block *b;
	uint64_t bytes;
	uint32_t n;
	char by[32], more[32] = "";
	struct dfz_evidence x;

	d->launches++;
	bytes = rt_bytes(d, d->base_seq, true, &b, &n);
	if (d->has_base && bytes > d->base_bytes && b) {
		x = dv_evidence(ev, b->off);
		if (n > 1)
			snprintf(more, sizeof(more), " and %u more block%s",
				 n - 1, n > 2 ? "s" : "");
		dfz_oracle_fail(d->set, "dev", DFZ_CLASS_DEV_LEAK, &x,
				"runtime device memory grew by %llu bytes "
				"from launch %u to launch %u of one init "
				"(%llu -> %llu bytes; expected no growth per "
				"launch): %s dev+0x%x (%u bytes) allocated by "
				"%s%s", (unsigned long long)(bytes -
							    d->base_bytes),
				d->launches - 1, d->launches,
				(unsigned long long)d->base_bytes,
				(unsigned long long)bytes, tag_name(b->tag),
				b->off, b->size, by_name(by, sizeof(by), b),
				more);
		return;
	}
	d->has_base = true;
	d->base_bytes = bytes;
	d->base_seq = d->seq;
}

/* Runtime blocks allocated at or after @since still live: a leak. */
static void leak_check(struct dev *d, const struct dfz_event *ev,
		       uint64_t since, const char *when)
{
	const struct dv_block *b;
	uint64_t bytes;
	uint32_t n;
	char by[32];
	struct dfz_evidence x;

	bytes = rt_bytes(d, since, false, &b, &n);
	if (!b)
		return;
	x = dv_evidence(ev, b->off);
	dfz_oracle_fail(d->set, "dev", DFZ_CLASS_DEV_LEAK, &x,
			"%u bytes at dev+0x%x allocated by %s still live "
			"after %s (%u runtime block%s, %llu bytes in all; "
			"expected the runtime to free them)", b->size, b->off,
			by_name(by, sizeof(by), b), when, n, n > 1 ? "s" : "",
			(unsigned long long)bytes);
}

static void on_top(struct dev *d, const struct dfz_event *ev)
{
	switch (ev->aux) {
	case DFZ_API_INIT:
		if (ev->id == 0) {
			d->has_base = false;
			d->launches = 0;
		} else if (!d->overflow) {
			leak_check(d, ev, d->call_seq, "a failed init");
		}
		break;
	case DFZ_API_RUN:
		if (ev->id == 0 && !d->overflow)
			on_launched(d, ev);
		break;
	case DFZ_API_FINALIZE:
		if (ev->id == 0 && !d->overflow)
			leak_check(d, ev, 0, "finalize");
		d->has_base = false;
		break;
	default:
		break;
	}
}

static void dv_event(void *st, const struct dfz_event *ev)
{
	struct dev *d = st;
	struct dv_block *b;

	switch (ev->kind) {
	case DFZ_EV_ALLOC:
		if (ev->dst.level == DFZ_DEV_LEVEL)
			on_alloc(d, ev);
		return;
	case DFZ_EV_FREE:
		if (ev->dst.level == DFZ_DEV_LEVEL)
			on_free(d, ev);
		return;
	default:
		break;
	}
	switch (dfz__hnest_step(&d->nest, ev)) {
	case DFZ__H_ENTER:
		d->call_seq = d->seq;
		break;
	case DFZ__H_NESTED:
		on_nested(d, ev);
		break;
	case DFZ__H_TOP:
		if (DFZ_API_IS_HOST(ev->aux))
			on_top(d, ev);
		break;
	default:
		break;
	}
	if (ev->aux == DFZ_API_REGISTER && ev->id == 0 &&
	    ev->dst.level == DFZ_DEV_LEVEL && (b = live_at(d, ev->dst.off)))
		b->tag = DV_IMAGE;
	d->has_gone = false;
}

static const struct dfz_oracle_ops ops = {
	.name = "dev",
	.size = sizeof(struct dev),
	.events = DFZ_EV_BIT(DFZ_EV_ALLOC) | DFZ_EV_BIT(DFZ_EV_FREE) |
		  DFZ_EV_BIT(DFZ_EV_API_ENTER) | DFZ_EV_BIT(DFZ_EV_API_RET),
	.init = dv_init,
	.fini = dv_fini,
	.reset = dv_reset,
	.event = dv_event,
};

const struct dfz_oracle_ops *dfz__oracle_dev(void)
{
	return &ops;
}
