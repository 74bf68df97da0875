// SPDX-License-Identifier: MIT
/*
 * The idma engine (DESIGN 3.5): a model of a Snitch-style cluster DMA
 * between L2 and L1. A start copies the 2-D transfer into a bounded
 * hardware queue (back-pressure when full) and returns the next
 * transaction id; one channel executes transfers in order, after a latency
 * and a bandwidth's worth of bytes per step, checking both sides against
 * the memory model before every move. The completed id the hardware
 * reports counts the retired transfers; the pinned runtime's wait needs it
 * above the txid, so a wait on the last issued id hangs unless another
 * transfer follows (the lag). With DFZ_RTQ_IDMA_ZERO_RETIRES a transfer
 * without work retires as it is accepted, counting ahead of older ones.
 * With DFZ_RTQ_IDMA_ID_AT_PUSH (iDMA's inst64 front end) a start returns
 * the id counter as it stands at the push, and the counter advances when
 * a request leaves the queue for the midend: once the backend accepted the
 * request's last line. The backend accepts lines ahead of the data, into
 * a window of bursts in flight (iDMA's NumAxInFlight, plus the line its
 * legalizer holds), at the push and as earlier lines finish moving; the
 * channel then moves the accepted lines in order. Events name a transfer
 * by the id its start returned, which then may be shared or stale.
 * The engine ops at the end are the generated-code pattern: start,
 * remember the txid, wait on it; the adapter adds the dummy transfer that
 * works around the lag.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "runtime_int.h"
#include "vg.h"

/* One transfer as the hardware queue holds it. */
struct idma_xfer {
	uintptr_t dst;
	uintptr_t src;
	uint32_t size;            /* bytes per line */
	uint32_t dst_stride;
	uint32_t src_stride;
	uint32_t repeat;          /* lines */
	uint32_t txid;            /* the id its start returned */
	uint8_t is_2d;            /* started as 2-D (for events only) */
	uint8_t counted;          /* the counter advanced at its push */
	uint32_t acc;             /* lines the backend accepted */
	uint32_t out;             /* bursts of accepted lines still moving */
	struct dfz_desc view;     /* desc_of() it, taken at its start: the
				   * memories do not move under a run */
	bool at_known;            /* all its lines lie in one level on each
				   * side, the first ones at: */
	struct dfz_span dst_at, src_at;
};

/* The ring holds the queue (requests not yet popped, at most
 * DFZ_IDMA_FIFO) and, ahead of it, the popped ones the channel has not
 * taken yet (their lines sit in the backend's window). */
#define RING (2 * DFZ_IDMA_FIFO)
#define PAGE 4096u                /* AXI: no burst crosses 4 KiB */

struct dfz_idma {
	struct dfz_rt *rt;
	uint32_t last_id;                 /* txid of the last start */
	uint32_t taken;                   /* the id counter: ids taken (the
					   * hardware's next_id, less one) */
	uint32_t retired;                 /* the completed id: transfers
					   * retired this run */
	unsigned head;
	unsigned count;
	unsigned npopped;                 /* popped entries at the ring's head */
	uint32_t out;                     /* bursts accepted, still moving */
	uint32_t ax_inflight;             /* the window (NumAxInFlight) */
	bool active;                      /* @cur is in the channel */
	bool started;                     /* SERVICE emitted for @cur */
	bool popped;                      /* @cur has left the queue */
	struct idma_xfer cur;
	uint32_t latency;
	uint64_t moved;                   /* bytes of @cur moved so far */
	uint64_t line;                    /* @moved as whole lines of @cur */
	uint32_t within;                  /* and the bytes into the next */
	/* Last: entries are written whole and read only below @count, so
	 * a reset clears what comes before them. */
	struct idma_xfer fifo[RING];
};

/* The request storage of the engine ops: the handle's latest txid. */
struct idma_req {
	uint32_t txid;
};

/* ------------------------------------------------------------------ events */

static void emit(struct dfz_idma *d, struct dfz_event *ev)
{
	ev->engine = DFZ_ENGINE_IDMA;
	ev->step = dfz_rt_now(d->rt);
	dfz_rt_emit(d->rt, ev);
}

static void emit_id(struct dfz_idma *d, enum dfz_ev_kind kind, int64_t id,
		    int64_t aux)
{
	struct dfz_event ev = { .kind = (uint8_t)kind, .id = id, .aux = aux };

	emit(d, &ev);
}

/* Level and offset of @p for an event; DFZ_NLEVELS when outside L2/L1. */
static void locate_side(const struct dfz_idma *d, uintptr_t p,
			uint8_t *level, uint32_t *off)
{
	struct dfz_span s;

	*level = DFZ_NLEVELS;
	*off = 0;
	if (dfz_mem_locate(d->rt, (const void *)p, 1, &s)) {
		*level = s.level;
		*off = s.off;
	}
}

/* The generic view of @x: a load (ext2loc) when the destination is in L1
 * and the source is not; the external side is the other one. */
static DFZ__NOCOV void desc_of(const struct dfz_idma *d,
			       const struct idma_xfer *x, struct dfz_desc *out)
{
	uint8_t dl, sl;
	uint32_t doff, soff;
	uint64_t total = (uint64_t)x->size * x->repeat;
	bool load;

	if (x->at_known) {        /* its first bytes, located already */
		dl = x->dst_at.level;
		doff = x->dst_at.off;
		sl = x->src_at.level;
		soff = x->src_at.off;
	} else {
		locate_side(d, x->dst, &dl, &doff);
		locate_side(d, x->src, &sl, &soff);
	}
	load = dl == DFZ_L1 && sl != DFZ_L1;
	memset(out, 0, sizeof(*out));
	out->ext2loc = load;
	out->is_2d = x->is_2d;
	out->ext_level = load ? sl : dl;
	out->ext_off = load ? soff : doff;
	out->loc_level = load ? dl : sl;
	out->loc_off = load ? doff : soff;
	out->size = total > UINT32_MAX ? UINT32_MAX : (uint32_t)total;
	out->length = x->size;
	out->ext_stride = load ? x->src_stride : x->dst_stride;
	out->loc_stride = load ? x->dst_stride : x->src_stride;
}

/* ------------------------------------------------------------------ start */

static bool id_at_push(const struct dfz_idma *d)
{
	return d->rt->cfg.quirks & DFZ_RTQ_IDMA_ID_AT_PUSH;
}

/* The queue has room: popped requests left it for the backend. */
static bool has_room(const void *arg)
{
	const struct dfz_idma *d = arg;

	if (!id_at_push(d))
		return d->count < DFZ_IDMA_FIFO;
	return d->count - d->npopped < DFZ_IDMA_FIFO && d->count < RING;
}

static bool no_work(const struct idma_xfer *x)
{
	return x->size == 0 || x->repeat == 0;
}

/* iDMA's midend: a transfer without work retires as it is accepted. */
static bool zero_retires(const struct dfz_idma *d, const struct idma_xfer *x)
{
	return (d->rt->cfg.quirks & DFZ_RTQ_IDMA_ZERO_RETIRES) && no_work(x);
}

/* The id a start hands out: the counter after its own advance (exact
 * ids), or as it stands, for the transfer the midend takes next. */
static uint32_t hand_out(struct dfz_idma *d, struct idma_xfer *x)
{
	x->counted = !id_at_push(d);
	if (x->counted)
		d->taken++;
	return x->counted ? d->taken : d->taken + 1;
}

/* Queue @x (after back-pressure) under the next txid and publish the
 * transfer asked for: @asked when the caller knows it, else @x's view;
 * @unowed marks a transfer its caller will never wait for. */
static void accept(struct dfz_idma *d);

static int start(struct dfz_idma *d, struct idma_xfer *x,
		 const struct dfz_desc *asked, bool unowed)
{
	struct dfz_event ev = { .kind = DFZ_EV_ISSUE,
				.aux = unowed ? DFZ_IDMA_UNOWED : 0 };
	int rc;

	if (!d)
		return DFZ_EINVAL;
	if (d->taken + (id_at_push(d) ? DFZ_IDMA_FIFO + 1u : 0u) >= INT32_MAX)
		return DFZ_ERANGE;
	rc = dfz__rt_wait(d->rt, has_room, d);
	if (rc < 0) {
		emit_id(d, DFZ_EV_HANG, (int64_t)d->last_id + 1, 0);
		return rc;
	}
	x->txid = d->last_id = hand_out(d, x);
	ev.id = x->txid;
	x->at_known = dfz__mem_locate_lines(d->rt, (const void *)x->dst,
					    x->dst_stride, x->size, x->repeat,
					    &x->dst_at) &&
		      dfz__mem_locate_lines(d->rt, (const void *)x->src,
					    x->src_stride, x->size, x->repeat,
					    &x->src_at);
	desc_of(d, x, &x->view);
	ev.desc = asked ? *asked : x->view;
	if (zero_retires(d, x) && x->counted) {
		emit(d, &ev);
		d->retired++;
		emit_id(d, DFZ_EV_COMPLETE, x->txid, 0);
	} else {
		d->fifo[(d->head + d->count) % RING] = *x;
		d->count++;
		emit(d, &ev);
		accept(d);
	}
	dfz_rt_yield(d->rt, DFZ_YIELD_ISSUE);
	return (int)x->txid;
}

int dfz_idma_start_2d(struct dfz_idma *dev, void *dst, const void *src,
		      uint32_t size, uint32_t dst_stride, uint32_t src_stride,
		      uint32_t repeat)
{
	struct idma_xfer x = {
		.dst = (uintptr_t)dst,
		.src = (uintptr_t)src,
		.size = size,
		.dst_stride = dst_stride,
		.src_stride = src_stride,
		.repeat = repeat,
		.is_2d = 1,
	};

	return start(dev, &x, NULL, false);
}

int dfz_idma_start_1d(struct dfz_idma *dev, void *dst, const void *src,
		      uint32_t size)
{
	struct idma_xfer x = {
		.dst = (uintptr_t)dst,
		.src = (uintptr_t)src,
		.size = size,
		.dst_stride = size,
		.src_stride = size,
		.repeat = 1,
	};

	return start(dev, &x, NULL, false);
}

/* ------------------------------------------------------------------ engine */

int dfz__idma_create(struct dfz_rt *rt, struct dfz_idma **out)
{
	struct dfz_idma *d = calloc(1, sizeof(*d));

	if (!d)
		return DFZ_ENOMEM;
	d->rt = rt;
	d->ax_inflight = DFZ_IDMA_AX_INFLIGHT;
	*out = d;
	return 0;
}

void dfz__idma_destroy(struct dfz_idma *d)
{
	free(d);
}

void dfz__idma_reset(struct dfz_idma *d)
{
	struct dfz_rt *rt = d->rt;
	uint32_t window = d->ax_inflight;

	memset(d, 0, offsetof(struct dfz_idma, fifo));
	d->rt = rt;
	d->ax_inflight = window ? window : DFZ_IDMA_AX_INFLIGHT;
}

bool dfz__idma_is_idle(const struct dfz_idma *d)
{
	return !d->active && d->count == 0;
}

/* ------------------------------------------------------------- acceptance */

static uint32_t lines_of(const struct idma_xfer *x)
{
	return no_work(x) ? 0 : x->repeat;
}

/* 4 KiB page boundaries inside [@a, @a + @n). */
static uint64_t crossings(uint64_t a, uint64_t n)
{
	return (a + n - 1) / PAGE - a / PAGE;
}

/* The bursts iDMA's legalizer cuts line @k of @x into: read and write
 * are coupled, so a burst ends at the nearer page boundary of either
 * side (the 256-beat limit is past a page at Snitch's 512-bit bus). */
static DFZ__NOCOV uint32_t bursts(const struct idma_xfer *x, uint64_t k)
{
	uint64_t s = (uint64_t)x->src + k * x->src_stride;
	uint64_t t = (uint64_t)x->dst + k * x->dst_stride;
	uint64_t n = crossings(s, x->size) + crossings(t, x->size);

	if ((s - t) % PAGE == 0)      /* both sides cross together */
		n -= crossings(s, x->size);
	return n + 1 > UINT32_MAX ? UINT32_MAX : (uint32_t)(n + 1);
}

/* The request the midend feeds next: the oldest not yet popped. */
static struct idma_xfer *front(struct dfz_idma *d)
{
	if (d->active && !d->popped)
		return &d->cur;
	if (d->npopped < d->count)
		return &d->fifo[(d->head + d->npopped) % RING];
	return NULL;
}

/* Take entry @i (counting from the head) out of the ring. */
static void drop_at(struct dfz_idma *d, unsigned i)
{
	for (; i + 1 < d->count; i++)
		d->fifo[(d->head + i) % RING] = d->fifo[(d->head + i + 1) % RING];
	d->count--;
}

/* @x leaves the queue for the midend: the counter advances (unless it
 * did at the push). */
static void pop(struct dfz_idma *d, const struct idma_xfer *x)
{
	if (!x->counted)
		d->taken++;
}

/* The front @x had its last line accepted: it leaves the queue; without
 * work, under DFZ_RTQ_IDMA_ZERO_RETIRES, it retires there. */
static void pop_front(struct dfz_idma *d, struct idma_xfer *x)
{
	pop(d, x);
	if (x == &d->cur) {
		d->popped = true;
	} else if (zero_retires(d, x)) {
		uint32_t txid = x->txid;

		drop_at(d, d->npopped);
		d->retired++;
		emit_id(d, DFZ_EV_COMPLETE, txid, 0);
	} else {
		d->npopped++;
	}
}

/* iDMA's backend under id-at-push: its legalizer takes the next line
 * once the bursts of the lines before it fit the window (the request
 * FIFOs of NumAxInFlight bursts), and the midend pops a request with
 * its last line; one without lines when the legalizer could take a line
 * (idma_nd_midend.sv L92 needs burst_req_ready_i). Lines accepted
 * before their bytes move are what lets an idle engine pop a short
 * request at its push. */
static void accept(struct dfz_idma *d)
{
	struct idma_xfer *x;

	if (!id_at_push(d))
		return;
	while ((x = front(d)) != NULL) {
		while (x->acc < lines_of(x) && d->out <= d->ax_inflight) {
			uint32_t b = bursts(x, x->acc);

			x->acc++;
			x->out += b;
			d->out += b;
		}
		/* without lines, it still needs the backend ready (L92) */
		if (x->acc < lines_of(x) ||
		    (lines_of(x) == 0 && d->out > d->ax_inflight))
			return;
		pop_front(d, x);
	}
}

/* A line of @cur finished moving: its bursts leave the window. */
static void line_done(struct dfz_idma *d, uint64_t k)
{
	uint32_t b;

	if (!id_at_push(d))
		return;
	b = bursts(&d->cur, k);
	b = b < d->cur.out ? b : d->cur.out;
	d->cur.out -= b;
	d->out -= b;
	accept(d);
}

/* ----------------------------------------------------------------- channel */

static void complete(struct dfz_idma *d)
{
	d->out -= d->cur.out;             /* a fault left lines unmoved */
	d->cur.out = 0;
	if (!d->popped) { /* a fault ended it before its last line */
		d->popped = true;
		pop(d, &d->cur);
	}
	d->active = false;
	d->retired++;
	emit_id(d, DFZ_EV_COMPLETE, d->cur.txid, 0);
	accept(d);
}

/* The span in @s of the @len bytes at @base + @off, whose address goes
 * to @at (a fault's, when they are outside memory). */
static bool locate_at(const struct dfz_idma *d, uintptr_t base, uint64_t off,
		      uint32_t len, struct dfz_span *s, int64_t *at)
{
	uintptr_t p = base + (uintptr_t)off;

	*at = (int64_t)p;
	return dfz_mem_locate(d->rt, (const void *)p, len, s);
}

/* Whether a line end of @cur can still pop a queued request (which frees
 * a slot, and retires one without work): with ids at the push, while one
 * is not popped yet. (@cur's own pop only advances the id counter, which
 * no wait reads.) */
static bool pops_ahead(const struct dfz_idma *d)
{
	return id_at_push(d) && d->npopped < d->count;
}

/*
 * The lines of a stretch, located once (stretch_fits()): the spans of
 * line @l0's first byte on each side, from which every line's follow at
 * the strides, all in one level each. @on false: locate each.
 */
struct idma_lines {
	bool on;
	uint64_t l0;
	struct dfz_span dst, src;
};

/* Whether @cur's whole lines holding its bytes from the next to move up
 * to @to each lie in one level on each side, as dfz_mem_locate() would
 * find them: then @known holds the first line's spans. */
static DFZ__NOCOV bool lines_known(const struct dfz_idma *d, uint64_t to,
				   struct idma_lines *known)
{
	const struct idma_xfer *x = &d->cur;
	uint64_t l0 = d->line, rel = to - 1 - l0 * x->size;
	uint64_t left = x->repeat - l0;   /* lines from l0 on */
	uint64_t n = rel < x->size ? 1 :  /* to the last one: no division */
		     rel >= (left - 1) * x->size ? left : rel / x->size + 1;

	known->l0 = l0;
	if (x->at_known) {        /* lines of a range located whole */
		known->dst = x->dst_at;
		known->src = x->src_at;
		known->dst.off += (uint32_t)(l0 * x->dst_stride);
		known->src.off += (uint32_t)(l0 * x->src_stride);
		return known->on = true;
	}
	known->on = dfz__mem_locate_lines(d->rt,
				(const void *)(x->dst + l0 * x->dst_stride),
				x->dst_stride, x->size, n, &known->dst) &&
		    dfz__mem_locate_lines(d->rt,
				(const void *)(x->src + l0 * x->src_stride),
				x->src_stride, x->size, n, &known->src);
	return known->on;
}

/* The spans of @cur's @n bytes from byte @within of its line @line by
 * @known's lines: what dfz_mem_locate() gives, by arithmetic. */
static void known_spans(const struct idma_xfer *x,
			const struct idma_lines *known, uint64_t line,
			uint64_t within, uint32_t n, struct dfz_span *ds,
			struct dfz_span *ss)
{
	uint64_t k = line - known->l0;

	*ds = (struct dfz_span){ known->dst.level,
		(uint32_t)(known->dst.off + k * x->dst_stride + within), n };
	*ss = (struct dfz_span){ known->src.level,
		(uint32_t)(known->src.off + k * x->src_stride + within), n };
}

/*
 * The moves of a step or a stretch (dfz__idma_burst()) gathered into one
 * MOVE of several lines (dfz_event.lines) while they follow one another
 * at one pitch on each side: no core runs between them, and the gathered
 * MOVE goes out before any other event. @run->lines == 0: none.
 */
static DFZ__NOCOV void run_flush(struct dfz_idma *d,
				 struct dfz_event *run)
{
	uint64_t now = d->rt->now;

	if (run->lines == 0)
		return;
	d->rt->now = run->step;           /* its last line's step */
	dfz_rt_emit(d->rt, run);
	d->rt->now = now;
	run->lines = 0;
}

static bool run_extends(const struct dfz_event *run, const struct dfz_span *ds,
			const struct dfz_span *ss)
{
	uint64_t k = run->lines;

	if (k == 0 || ds->level != run->dst.level ||
	    ss->level != run->src.level || ds->len != run->dst.len ||
	    ss->len != run->src.len)
		return false;
	if (k == 1)
		return ds->off >= run->dst.off && ss->off >= run->src.off;
	return ds->off == run->dst.off + k * run->dst_pitch &&
	       ss->off == run->src.off + k * run->src_pitch;
}

/* Move @ev joins @run, or @run goes out and @ev starts the next. */
static void run_add(struct dfz_idma *d, struct dfz_event *run,
		    const struct dfz_event *ev)
{
	if (!run_extends(run, &ev->dst, &ev->src)) {
		run_flush(d, run);
		*run = *ev;
		run->lines = 1;
		return;
	}
	if (run->lines == 1) {
		run->dst_pitch = ev->dst.off - run->dst.off;
		run->src_pitch = ev->src.off - run->src.off;
	}
	run->lines++;
	run->step = ev->step;
}

/* The @n lines after @ev, @dst_pitch and @src_pitch apart, join @run
 * (which @ev just joined): at once while they follow at the run's own
 * pitches, else one by one (run_add()). */
static void run_add_lines(struct dfz_idma *d, struct dfz_event *run,
			  struct dfz_event *ev, uint64_t n, uint32_t dst_pitch,
			  uint32_t src_pitch)
{
	if (n > 0 && run->lines == 1) { /* the second sets the pitches */
		ev->dst.off += dst_pitch;
		ev->src.off += src_pitch;
		run_add(d, run, ev);
		n--;
	}
	if (n > 0 && run->lines >= 2 && run->dst_pitch == dst_pitch &&
	    run->src_pitch == src_pitch && run->lines + n <= UINT32_MAX &&
	    ev->dst.off + n * dst_pitch <= UINT32_MAX &&
	    ev->src.off + n * src_pitch <= UINT32_MAX) {
		run->lines += (uint32_t)n;
		return;
	}
	for (; n > 0; n--) {
		ev->dst.off += dst_pitch;
		ev->src.off += src_pitch;
		run_add(d, run, ev);
	}
}

/* How many whole lines of @cur one move takes from its current byte
 * within @budget bytes: more than one only from a line start, with the
 * lines' spans @known, and while no line end can pop a request (then a
 * line end has no event to place, and the lines' MOVEs gather into one
 * anyway). */
static DFZ__NOCOV uint64_t group_lines(const struct dfz_idma *d,
				       uint64_t budget,
				       const struct idma_lines *known)
{
	const struct idma_xfer *x = &d->cur;
	uint64_t n, left;

	if (!known->on || d->within != 0 || budget < 2 * (uint64_t)x->size ||
	    pops_ahead(d))
		return 1;
	budget = budget < UINT32_MAX ? budget : UINT32_MAX;
	left = x->repeat - d->line;
	/* every line left (a stretch to the end): no division */
	n = budget >= left * x->size ? left : budget / x->size;
	return n > 1 ? n : 1;
}

/* Move one chunk of the current transfer (at most @budget bytes, never
 * across a line end), or the whole lines group_lines() allows in one
 * copy, gathered into @run, its spans from @known when on. Return the
 * bytes moved, or -1 after a fault. */
static int64_t move_chunk(struct dfz_idma *d, uint32_t budget,
			  struct dfz_event *run, const struct idma_lines *known)
{
	const struct idma_xfer *x = &d->cur;
	uint64_t line = d->line, within = d->within;
	uint64_t lines = group_lines(d, budget, known);
	uint32_t chunk = x->size - (uint32_t)within;
	struct dfz_span ds, ss;
	struct dfz_event ev = { .kind = DFZ_EV_MOVE, .id = x->txid,
				.engine = DFZ_ENGINE_IDMA };
	int64_t dp, sp = 0;               /* located: the bytes themselves */

	chunk = budget < chunk ? budget : chunk;
	if (known->on) {
		known_spans(x, known, line, within, chunk, &ds, &ss);
		dp = (int64_t)(x->dst + line * x->dst_stride + within);
		sp = (int64_t)(x->src + line * x->src_stride + within);
	} else {
		bool dst_ok = locate_at(d, x->dst,
					line * x->dst_stride + within, chunk,
					&ds, &dp);

		if (!dst_ok ||
		    !locate_at(d, x->src, line * x->src_stride + within,
			       chunk, &ss, &sp)) {
			run_flush(d, run);
			emit_id(d, DFZ_EV_FAULT, x->txid, dst_ok ? sp : dp);
			return -1;
		}
	}
	dfz__vg_move_lines(d->rt, (uint8_t *)(uintptr_t)dp, x->dst_stride,
			   (const uint8_t *)(uintptr_t)sp, x->src_stride, chunk,
			   (uint32_t)lines);
	d->moved += chunk * lines;
	if (lines > 1) {
		d->line += lines;
	} else if ((d->within += chunk) == x->size) {
		d->line++;
		d->within = 0;
	}
	ev.step = dfz_rt_now(d->rt);
	ev.dst = ds;
	ev.src = ss;
	run_add(d, run, &ev);
	run_add_lines(d, run, &ev, lines - 1, x->dst_stride, x->src_stride);
	return (int64_t)(chunk * lines);
}

/* After a move into @run of @cur's bytes from @from on: at each line end
 * it reached, the line's bursts leave the window; a queued request that
 * can pop there may retire, so the gathered MOVE goes out first. */
static void moved(struct dfz_idma *d, struct dfz_event *run, uint64_t from)
{
	uint64_t size = d->cur.size;

	if (!id_at_push(d))   /* line ends pop nothing: the window is off */
		return;
	for (uint64_t k = from / size; (k + 1) * size <= d->moved; k++) {
		if (pops_ahead(d))
			run_flush(d, run);
		line_done(d, k);
	}
}

static void service(struct dfz_idma *d)
{
	uint64_t total = (uint64_t)d->cur.size * d->cur.repeat;
	uint32_t budget = d->rt->cfg.bandwidth;
	struct dfz_event run = { .lines = 0 };
	struct idma_lines known = { .on = false };

	if (d->latency > 0) {
		d->latency--;
		return;
	}
	if (!d->started) {
		struct dfz_event ev = { .kind = DFZ_EV_SERVICE, .id = d->cur.txid };

		d->started = true;
		ev.desc = d->cur.view;
		emit(d, &ev);
	}
	/* Every line this step reaches in one level: no line to fault. */
	if (budget > 0 && d->moved < total)
		lines_known(d, d->moved + budget < total ? d->moved + budget :
							   total, &known);
	while (budget > 0 && d->moved < total) {
		uint64_t from = d->moved;
		int64_t n = move_chunk(d, budget, &run, &known);

		if (n < 0) {
			complete(d);
			return;
		}
		budget -= (uint32_t)n;
		moved(d, &run, from);
	}
	run_flush(d, &run);
	if (d->moved >= total)
		complete(d);
}

/* The queue's head, taken off. */
static struct idma_xfer dequeue(struct dfz_idma *d)
{
	struct idma_xfer x = d->fifo[d->head];

	d->head = (d->head + 1) % RING;
	d->count--;
	return x;
}

void dfz__idma_step(struct dfz_idma *d)
{
	if (!d->active) {
		if (d->count == 0)
			return;
		d->popped = d->npopped > 0;   /* it left the queue already */
		if (d->popped)
			d->npopped--;
		d->cur = dequeue(d);
		d->active = true;
		d->started = false;
		d->latency = d->rt->cfg.latency;
		d->moved = 0;
		d->line = 0;
		d->within = 0;
		accept(d);
	}
	service(d);
}

/*
 * Whether the moves of @cur's bytes from the next to move to @to, a
 * line's part at a time (as dfz__idma_burst() makes them), each locate
 * and read no byte they write: a line part whose source and destination
 * overlap lands differently in one move than in a bandwidth at a time.
 */
static DFZ__NOCOV bool stretch_fits(const struct dfz_idma *d, uint64_t to,
				    struct idma_lines *known)
{
	const struct idma_xfer *x = &d->cur;
	uint64_t from = d->moved, line = d->line, within = d->within;
	struct dfz_span ds, ss;
	int64_t fault;

	known->on = false;
	if (lines_known(d, to, known)) {
		if (known->dst.level != known->src.level)
			return true;
		for (; from < to; line++, within = 0) {
			uint64_t stop = (line + 1) * x->size < to ?
						(line + 1) * x->size : to;

			known_spans(x, known, line, within,
				    (uint32_t)(stop - from), &ds, &ss);
			if (ds.off < ss.off + ds.len && ss.off < ds.off + ds.len)
				return false;
			from = stop;
		}
		return true;
	}
	for (; from < to; line++, within = 0) {
		uint64_t stop = (line + 1) * x->size < to ? (line + 1) * x->size : to;
		uint32_t n = (uint32_t)(stop - from);

		if (!locate_at(d, x->dst, line * x->dst_stride + within, n, &ds,
			       &fault) ||
		    !locate_at(d, x->src, line * x->src_stride + within, n, &ss,
			       &fault) ||
		    (ds.level == ss.level && ds.off < ss.off + n &&
		     ss.off < ds.off + n))
			return false;
		from = stop;
	}
	return true;
}

/*
 * The steps up to the one in which @cur's current line ends (or, when no
 * line end can pop a request, @cur itself; or @max), at once (rt.c's
 * burst()): the same bytes, line ends and completion as that many
 * dfz__idma_step(), in a move per line part, each stamped with the step
 * its last byte lands in; latency steps are counted off. 0 when a
 * single step does as well, with no transfer in the channel, or when a
 * move of the stretch would fault (single steps place a fault to the
 * bandwidth's byte) or read what it writes.
 */
uint64_t dfz__idma_burst(struct dfz_idma *d, uint64_t max)
{
	struct dfz_rt *rt = d->rt;
	const struct idma_xfer *x = &d->cur;
	uint64_t bw = rt->cfg.bandwidth, now0 = rt->now, total, from, k, to;
	struct dfz_event run = { .lines = 0 };
	struct idma_lines known;

	if (!d->active || max == 0)
		return 0;
	if (d->latency > 0)
		return dfz__rt_latency(rt, &d->latency, max);
	total = (uint64_t)x->size * x->repeat;
	from = d->moved;
	if (bw == 0 || total == 0 || from >= total)
		return 0;
	k = dfz__steps_for((pops_ahead(d) ? (d->line + 1) * x->size : total) - from,
		      bw);
	k = k < max ? k : max;
	to = from + k * bw < total ? from + k * bw : total;
	if (k < 2 || !stretch_fits(d, to, &known))
		return 0;
	dfz__vg_enter(rt);
	if (!d->started) {
		struct dfz_event ev = { .kind = DFZ_EV_SERVICE, .id = x->txid };

		rt->now = now0 + 1;
		d->started = true;
		ev.desc = x->view;
		emit(d, &ev);
	}
	while (d->active && d->moved < to) {
		uint64_t at = d->moved, line_end = (d->line + 1) * x->size;
		uint64_t stop = line_end < to ? line_end : to;
		uint64_t lines = group_lines(d, to - at, &known);

		if (lines > 1) /* stamped with the last line's step */
			stop = at + lines * x->size;
		rt->now = now0 + dfz__steps_for(stop - from, bw);
		if (move_chunk(d, (uint32_t)(stop - at), &run, &known) < 0) {
			complete(d);
			break;
		}
		moved(d, &run, at);
	}
	run_flush(d, &run);
	if (d->active && d->moved >= total)
		complete(d);
	rt->now = now0 + k;
	dfz__vg_leave(rt);
	return k;
}

/* -------------------------------------------------------------------- wait */

struct txid_arg {
	const struct dfz_idma *d;
	uint64_t until;                   /* the count the wait spins for */
};

static bool txid_done(const void *arg)
{
	const struct txid_arg *a = arg;

	return a->d->retired >= a->until;
}

static bool all_done(const void *arg)
{
	return dfz__idma_is_idle(arg);
}

/* A wait on @done, published under @id. */
static int wait_on(struct dfz_idma *d, int64_t id,
		   bool (*done)(const void *arg), const void *arg)
{
	int rc;

	emit_id(d, DFZ_EV_WAIT, id, 0);
	dfz_rt_yield(d->rt, DFZ_YIELD_WAIT);
	rc = dfz__rt_wait(d->rt, done, arg);
	if (rc < 0)
		emit_id(d, DFZ_EV_HANG, id, 0);
	emit_id(d, DFZ_EV_WAITED, id, rc);
	return rc;
}

int dfz_idma_wait(struct dfz_idma *dev, uint32_t txid)
{
	struct txid_arg arg = { dev, (uint64_t)txid + 1 };

	if (!dev)
		return DFZ_EINVAL;
	return wait_on(dev, txid, txid_done, &arg);
}

int dfz_idma_wait_reached(struct dfz_idma *dev, uint32_t txid)
{
	struct txid_arg arg = { dev, txid };

	if (!dev)
		return DFZ_EINVAL;
	return wait_on(dev, txid, txid_done, &arg);
}

int dfz_idma_wait_all(struct dfz_idma *dev)
{
	if (!dev)
		return DFZ_EINVAL;
	return wait_on(dev, -1, all_done, dev);
}

/* ------------------------------------------------------------ read access */

struct dfz_idma *dfz_idma_get(struct dfz_rt *rt)
{
	return rt ? rt->idma : NULL;
}

uint32_t dfz_idma_completed_id(const struct dfz_idma *dev)
{
	return dev ? dev->retired : 0;
}

uint32_t dfz_idma_last_id(const struct dfz_idma *dev)
{
	return dev ? dev->last_id : 0;
}

int dfz_idma_set_ax_inflight(struct dfz_idma *dev, uint32_t bursts)
{
	if (!dev || bursts == 1 || bursts > DFZ_IDMA_AX_INFLIGHT_MAX)
		return DFZ_EINVAL;
	dev->ax_inflight = bursts ? bursts : DFZ_IDMA_AX_INFLIGHT;
	return 0;
}

uint32_t dfz_idma_ax_inflight(const struct dfz_idma *dev)
{
	return dev ? dev->ax_inflight : 0;
}

uint32_t dfz_idma_next_id(const struct dfz_idma *dev)
{
	return dev ? dev->taken + 1 : 0;
}

bool dfz_idma_is_busy(const struct dfz_idma *dev)
{
	return dev && !dfz__idma_is_idle(dev);
}

/* ------------------------------------------------------------ engine ops */

/* A kernel transfer onto idma: each side in L2 or L1, the local side
 * strided by its own stride. Without request storage (the adapter's
 * dummy) the txid is dropped and the ISSUE says nobody will wait. */
static int ops_issue(struct dfz_rt *rt, void *req, const struct dfz_desc *d)
{
	struct idma_xfer x = { .repeat = 1 };
	uint8_t *ext, *loc;
	int rc;

	if (!rt || !d || (d->ext_level != DFZ_L2 && d->ext_level != DFZ_L1) ||
	    (d->loc_level != DFZ_L2 && d->loc_level != DFZ_L1))
		return DFZ_EINVAL;
	if (d->is_2d && (d->length == 0 || d->size % d->length != 0))
		return DFZ_EINVAL;
	ext = dfz_mem_ptr(rt, (enum dfz_level)d->ext_level, d->ext_off);
	loc = dfz_mem_ptr(rt, (enum dfz_level)d->loc_level, d->loc_off);
	if (!ext || !loc)
		return DFZ_EFAULT;
	x.dst = (uintptr_t)(d->ext2loc ? loc : ext);
	x.src = (uintptr_t)(d->ext2loc ? ext : loc);
	x.size = d->is_2d ? d->length : d->size;
	x.dst_stride = d->is_2d ? (d->ext2loc ? d->loc_stride : d->ext_stride) : x.size;
	x.src_stride = d->is_2d ? (d->ext2loc ? d->ext_stride : d->loc_stride) : x.size;
	x.repeat = d->is_2d ? d->size / d->length : 1;
	x.is_2d = d->is_2d;
	rc = start(rt->idma, &x, d, req == NULL);
	if (rc < 0)
		return rc;
	if (req)
		((struct idma_req *)req)->txid = (uint32_t)rc;
	return 0;
}

static int ops_wait(struct dfz_rt *rt, void *req)
{
	if (!rt || !req)
		return DFZ_EINVAL;
	return dfz_idma_wait(rt->idma, ((struct idma_req *)req)->txid);
}

static const struct dfz_engine_ops ops = {
	.name = "idma",
	.kernel_ranks = (1u << 1) | (1u << 2),
	.can_share = true,
	.lagging_id = true,
	.req_size = sizeof(struct idma_req),
	.max_size = 0,
	.issue = ops_issue,
	.wait = ops_wait,
};

const struct dfz_engine_ops *dfz__idma_ops(void)
{
	return &ops;
}
