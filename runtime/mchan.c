// SPDX-License-Identifier: MIT
/*
 * The mchan engine (DESIGN 3.4): a model of the PULP cluster DMA between L2
 * and L1. Sixteen transfer ids are allocated and freed as the hardware
 * does (silently ignoring a free or wait it cannot honour); a push copies
 * the command word and its address words into a bounded hardware FIFO
 * (back-pressure when full), and one channel takes commands from the FIFO
 * in order and executes each as the hardware decodes its command word: the
 * length is the low 17 bits, so a length that spilled into the flags moves
 * something else by itself. Bytes move only when the engine steps, after a
 * latency and a bandwidth's worth per step, and both sides are checked
 * against the memory model before every move: the harness never crashes.
 * The engine ops at the end are the generated-code pattern on top of it,
 * Deeploy's: a TID taken for each transfer group, the group pushed (a push
 * goes to the TID its core took last, so a request whose TID is no longer
 * the latest takes a fresh one for its next group), and at the wait every
 * TID the request took waited and freed, oldest first.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "runtime_int.h"
#include "vg.h"

#define NTIDS DFZ_MCHAN_NTIDS

_Static_assert(NTIDS < 32, "the TID mask is 32 bits");
#define ALL_TIDS ((1u << NTIDS) - 1u)

/* One command as the hardware FIFO holds it: the words of one push. */
struct mchan_cmd {
	uint32_t cmd;
	int32_t tid;
	uintptr_t loc;
	uintptr_t ext;
	uint32_t ext_len;         /* 2-D external words; 0 when not pushed */
	uint32_t ext_stride;
	uint32_t loc_len;         /* 2-D local words; 0 when not pushed */
	uint32_t loc_stride;
	bool located;             /* the sides' levels and offsets below,
				   * found at the push (a run's memory
				   * windows stay where they are) */
	uint8_t ext_level, loc_level;
	uint32_t ext_off, loc_off;
};

struct dfz_mchan {
	struct dfz_rt *rt;
	uint32_t tids;                    /* bit t: TID t allocated */
	int last;                         /* the TID taken last, -1: none */
	uint32_t nalloc;                  /* allocations so far */
	uint32_t seq[NTIDS];              /* @nalloc when TID t was taken */
	uint32_t pending[NTIDS];          /* unfinished commands per TID */
	unsigned head;                    /* oldest command of the FIFO */
	unsigned count;                   /* commands in the FIFO */
	bool active;                      /* @cur is in the channel */
	bool started;                     /* SERVICE emitted for @cur */
	struct mchan_cmd cur;
	uint32_t latency;                 /* steps left before @cur moves */
	uint32_t moved;                   /* bytes of @cur moved so far */
	/* Last: commands are written whole and read only below @count, so
	 * a reset clears what comes before them. */
	struct mchan_cmd fifo[DFZ_MCHAN_FIFO];
};

/* The request storage of the engine ops: bit t, TID t was taken for one
 * of the request's groups and not yet waited. */
struct mchan_req {
	uint32_t held;
};

/* ------------------------------------------------------------------ events */

static void emit(struct dfz_mchan *m, struct dfz_event *ev)
{
	ev->engine = DFZ_ENGINE_MCHAN;
	ev->step = dfz_rt_now(m->rt);
	dfz_rt_emit(m->rt, ev);
}

static void emit_id(struct dfz_mchan *m, enum dfz_ev_kind kind, int64_t id,
		    int64_t aux)
{
	struct dfz_event ev = { .kind = (uint8_t)kind, .id = id, .aux = aux };

	emit(m, &ev);
}

/* Level and offset of @p for an event; DFZ_NLEVELS when outside L2/L1. */
static void locate_side(const struct dfz_mchan *m, uintptr_t p,
			uint8_t *level, uint32_t *off)
{
	struct dfz_span s;

	*level = DFZ_NLEVELS;
	*off = 0;
	if (dfz_mem_locate(m->rt, (const void *)p, 1, &s)) {
		*level = s.level;
		*off = s.off;
	}
}

/* The transfer @c executes, as the hardware decodes its command word. */
static DFZ__NOCOV void decoded_desc(const struct dfz_mchan *m,
				      const struct mchan_cmd *c,
				      struct dfz_desc *d)
{
	struct dfz_mchan_cmd_fields f;

	dfz_mchan_cmd_decode(c->cmd, &f);
	memset(d, 0, sizeof(*d));
	if (c->located) {
		d->ext_level = c->ext_level;
		d->ext_off = c->ext_off;
		d->loc_level = c->loc_level;
		d->loc_off = c->loc_off;
	} else {
		locate_side(m, c->ext, &d->ext_level, &d->ext_off);
		locate_side(m, c->loc, &d->loc_level, &d->loc_off);
	}
	d->ext2loc = f.ext2loc;
	d->is_2d = f.ext_2d;
	d->size = f.len;
	d->length = f.ext_2d ? c->ext_len : f.len;
	d->ext_stride = f.ext_2d ? c->ext_stride : f.len;
	d->loc_stride = f.loc_2d ? c->loc_stride : d->length;
}

/* The transfer @t asks for: its size field, direction from the command. */
static void asked_desc(const struct dfz_mchan *m, const struct mchan_cmd *c,
		       uint32_t size, struct dfz_desc *d)
{
	decoded_desc(m, c, d);
	d->size = size;
	if (!d->is_2d) {
		d->length = size;
		d->ext_stride = size;
		d->loc_stride = size;
	}
}

/* ------------------------------------------------------------- commands */

uint32_t dfz_mchan_cmd(uint32_t len, unsigned ext2loc, unsigned inc,
		       unsigned loc_2d, unsigned ext_2d, unsigned irq,
		       unsigned event, unsigned broadcast)
{
	return len | (uint32_t)(ext2loc != 0) << DFZ_MCHAN_SHIFT_EXT2LOC |
	       (uint32_t)(inc != 0) << DFZ_MCHAN_SHIFT_INC |
	       (uint32_t)(ext_2d != 0) << DFZ_MCHAN_SHIFT_EXT_2D |
	       (uint32_t)(event != 0) << DFZ_MCHAN_SHIFT_EVENT |
	       (uint32_t)(irq != 0) << DFZ_MCHAN_SHIFT_IRQ |
	       (uint32_t)(broadcast != 0) << DFZ_MCHAN_SHIFT_BROADCAST |
	       (uint32_t)(loc_2d != 0) << DFZ_MCHAN_SHIFT_LOC_2D;
}

static bool bit(uint32_t v, unsigned shift)
{
	return (v >> shift) & 1u;
}

void dfz_mchan_cmd_decode(uint32_t cmd, struct dfz_mchan_cmd_fields *out)
{
	out->len = cmd & DFZ_MCHAN_LEN_MASK;
	out->ext2loc = bit(cmd, DFZ_MCHAN_SHIFT_EXT2LOC);
	out->inc = bit(cmd, DFZ_MCHAN_SHIFT_INC);
	out->ext_2d = bit(cmd, DFZ_MCHAN_SHIFT_EXT_2D);
	out->event = bit(cmd, DFZ_MCHAN_SHIFT_EVENT);
	out->irq = bit(cmd, DFZ_MCHAN_SHIFT_IRQ);
	out->broadcast = bit(cmd, DFZ_MCHAN_SHIFT_BROADCAST);
	out->loc_2d = bit(cmd, DFZ_MCHAN_SHIFT_LOC_2D);
}

/* ------------------------------------------------------------------ TIDs */

static bool is_tid(int tid)
{
	return tid >= 0 && tid < NTIDS;
}

int dfz_mchan_transfer_get_id(struct dfz_mchan *m)
{
	if (!m)
		return DFZ_EINVAL;
	for (int t = 0; t < NTIDS; t++) {
		if (m->tids & (1u << t))
			continue;
		m->tids |= 1u << t;
		m->last = t;
		m->seq[t] = ++m->nalloc;
		emit_id(m, DFZ_EV_ID_ALLOC, t, 0);
		return t;
	}
	emit_id(m, DFZ_EV_ID_ALLOC, -1, DFZ_EBUSY);
	return DFZ_EBUSY;
}

int dfz_mchan_transfer_free(struct dfz_mchan *m, int tid)
{
	if (!m)
		return DFZ_EINVAL;
	emit_id(m, DFZ_EV_ID_FREE, tid, 0);
	if (is_tid(tid))
		m->tids &= ~(1u << tid);
	return 0;
}

bool dfz_mchan_transfer_busy(const struct dfz_mchan *m, int tid)
{
	return m && is_tid(tid) && m->pending[tid] > 0;
}

/* ------------------------------------------------------------------ push */

static bool has_room(const void *arg)
{
	const struct dfz_mchan *m = arg;

	return m->count < DFZ_MCHAN_FIFO;
}

/*
 * Copy @c into the FIFO (after back-pressure) and publish the transfer
 * asked for: @asked when the caller knows it (the engine ops), else what
 * @size and the command word say.
 */
static int push(struct dfz_mchan *m, const struct mchan_cmd *c, uint32_t size,
		const struct dfz_desc *asked)
{
	struct dfz_event ev = { .kind = DFZ_EV_ISSUE, .id = c->tid,
				.aux = c->cmd,
				.ext_2d = { c->ext_len, c->ext_stride },
				.loc_2d = { c->loc_len, c->loc_stride } };
	struct mchan_cmd *e;
	int rc = dfz__rt_wait(m->rt, has_room, m);

	if (rc < 0) {
		emit_id(m, DFZ_EV_HANG, c->tid, 0);
		return rc;
	}
	e = &m->fifo[(m->head + m->count) % DFZ_MCHAN_FIFO];
	*e = *c;
	m->count++;
	m->pending[c->tid]++;
	if (asked) {
		ev.desc = *asked;
	} else {
		locate_side(m, e->ext, &e->ext_level, &e->ext_off);
		locate_side(m, e->loc, &e->loc_level, &e->loc_off);
		e->located = true;
		asked_desc(m, e, size, &ev.desc);
	}
	emit(m, &ev);
	dfz_rt_yield(m->rt, DFZ_YIELD_ISSUE);
	return 0;
}

/* The words of @t a push writes: the 2-D ones when @ext_2d / @loc_2d. */
static int push_words(struct dfz_mchan *m, int tid,
		      const struct dfz_mchan_transfer *t, bool ext_2d,
		      bool loc_2d, const struct dfz_desc *asked)
{
	struct mchan_cmd c = {
		.cmd = t->cmd,
		.tid = tid,
		.loc = (uintptr_t)t->loc,
		.ext = (uintptr_t)t->ext,
	};

	if (!m || !is_tid(tid))
		return DFZ_EINVAL;
	if (ext_2d) {
		c.ext_len = t->ext_size_1d;
		c.ext_stride = t->ext_stride_1d;
	}
	if (loc_2d) {
		c.loc_len = t->loc_size_1d;
		c.loc_stride = t->loc_stride_1d;
	}
	return push(m, &c, t->size, asked);
}

int dfz_mchan_transfer_push_1d(struct dfz_mchan *m, int tid,
			       struct dfz_mchan_transfer t)
{
	return push_words(m, tid, &t, false, false, NULL);
}

int dfz_mchan_transfer_push_2d(struct dfz_mchan *m, int tid,
			       struct dfz_mchan_transfer t)
{
	return push_words(m, tid, &t, true, false, NULL);
}

int dfz_mchan_transfer_push(struct dfz_mchan *m, int tid,
			    struct dfz_mchan_transfer t)
{
	return push_words(m, tid, &t, t.ext_size_1d < t.size,
			  t.loc_size_1d < t.size, NULL);
}

/* ------------------------------------------------------------------ engine */

int dfz__mchan_create(struct dfz_rt *rt, struct dfz_mchan **out)
{
	struct dfz_mchan *m = calloc(1, sizeof(*m));

	if (!m)
		return DFZ_ENOMEM;
	m->rt = rt;
	m->last = -1;
	*out = m;
	return 0;
}

void dfz__mchan_destroy(struct dfz_mchan *m)
{
	free(m);
}

void dfz__mchan_reset(struct dfz_mchan *m)
{
	struct dfz_rt *rt = m->rt;

	memset(m, 0, offsetof(struct dfz_mchan, fifo));
	m->rt = rt;
	m->last = -1;
}

bool dfz__mchan_is_idle(const struct dfz_mchan *m)
{
	return !m->active && m->count == 0;
}

/* Byte @p of a side: its offset from the side's start and the bytes left
 * before the line (or the transfer, @len) ends. */
static uint64_t side_pos(bool two_d, uint32_t line, uint32_t stride,
			 uint32_t p, uint32_t len, uint32_t *room)
{
	if (!two_d) {
		*room = len - p;
		return p;
	}
	*room = line - p % line;
	return (uint64_t)(p / line) * stride + p % line;
}

/* @len bytes at @base + @off inside @level, or false (@fault: the address). */
static bool locate_in(const struct dfz_mchan *m, uintptr_t base, uint64_t off,
		      uint32_t len, unsigned level, struct dfz_span *s,
		      int64_t *fault)
{
	uintptr_t p = base + (uintptr_t)off;

	*fault = (int64_t)p;
	return dfz_mem_locate(m->rt, (const void *)p, len, s) &&
	       s->level == level;
}

static void complete(struct dfz_mchan *m)
{
	int32_t tid = m->cur.tid;

	m->active = false;
	m->pending[tid]--;
	emit_id(m, DFZ_EV_COMPLETE, tid, 0);
}

static void emit_move(struct dfz_mchan *m, struct dfz_span dst,
		      struct dfz_span src)
{
	struct dfz_event ev = {
		.kind = DFZ_EV_MOVE,
		.id = m->cur.tid,
		.dst = dst,
		.src = src,
	};

	emit(m, &ev);
}

/*
 * Move one chunk of the current command (at most @budget bytes, never
 * across a line end on either side). The external address stays put when
 * the command's increment flag is clear. Return the bytes moved, or -1
 * after a fault.
 */
/* The chunk of the current command from its byte @p on (at most @budget
 * bytes, never across a line end): its length, located into @es and @ls,
 * or 0 (@fault: the address that does not locate). */
static uint32_t chunk_at(const struct dfz_mchan *m,
			 const struct dfz_mchan_cmd_fields *f, uint32_t p,
			 uint32_t budget, struct dfz_span *es,
			 struct dfz_span *ls, int64_t *fault)
{
	const struct mchan_cmd *c = &m->cur;
	uint32_t er, lr, chunk;
	uint64_t eoff = side_pos(f->ext_2d, c->ext_len, c->ext_stride, p,
				 f->len, &er);
	uint64_t loff = side_pos(f->loc_2d, c->loc_len, c->loc_stride, p,
				 f->len, &lr);

	if (!f->inc) {
		eoff = 0;
		er = 1;
	}
	chunk = budget < er ? budget : er;
	chunk = chunk < lr ? chunk : lr;
	if (chunk > f->len - p)
		chunk = f->len - p;
	if (!locate_in(m, c->ext, eoff, chunk, DFZ_L2, es, fault) ||
	    !locate_in(m, c->loc, loff, chunk, DFZ_L1, ls, fault))
		return 0;
	return chunk;
}

/* Move the @chunk bytes located at @es and @ls. */
static void move_at(struct dfz_mchan *m, const struct dfz_mchan_cmd_fields *f,
		    uint32_t chunk, struct dfz_span es, struct dfz_span ls)
{
	if (f->ext2loc)
		dfz__vg_move(m->rt, dfz_mem_ptr(m->rt, DFZ_L1, ls.off),
			     dfz_mem_ptr(m->rt, DFZ_L2, es.off), chunk);
	else
		dfz__vg_move(m->rt, dfz_mem_ptr(m->rt, DFZ_L2, es.off),
			     dfz_mem_ptr(m->rt, DFZ_L1, ls.off), chunk);
	m->moved += chunk;
	emit_move(m, f->ext2loc ? ls : es, f->ext2loc ? es : ls);
}

static int64_t move_chunk(struct dfz_mchan *m,
			  const struct dfz_mchan_cmd_fields *f,
			  uint32_t budget)
{
	struct dfz_span es, ls;
	int64_t fault;
	uint32_t chunk = chunk_at(m, f, m->moved, budget, &es, &ls, &fault);

	if (chunk == 0) {
		emit_id(m, DFZ_EV_FAULT, m->cur.tid, fault);
		return -1;
	}
	move_at(m, f, chunk, es, ls);
	return chunk;
}

/* Start the channel's command: publish what the hardware will execute. */
static void start(struct dfz_mchan *m)
{
	struct dfz_event ev = { .kind = DFZ_EV_SERVICE, .id = m->cur.tid,
				.aux = m->cur.cmd };

	m->started = true;
	decoded_desc(m, &m->cur, &ev.desc);
	emit(m, &ev);
}

/* One step of the channel: latency first, then up to a bandwidth of bytes
 * of the command as decoded now. */
static void service(struct dfz_mchan *m)
{
	uint32_t budget = m->rt->cfg.bandwidth;
	struct dfz_mchan_cmd_fields f;

	if (m->latency > 0) {
		m->latency--;
		return;
	}
	if (!m->started)
		start(m);
	dfz_mchan_cmd_decode(m->cur.cmd, &f);
	if ((f.ext_2d && m->cur.ext_len == 0) ||
	    (f.loc_2d && m->cur.loc_len == 0)) {
		emit_id(m, DFZ_EV_FAULT, m->cur.tid, (int64_t)m->cur.ext);
		complete(m);
		return;
	}
	while (budget > 0 && m->moved < f.len) {
		int64_t n = move_chunk(m, &f, budget);

		if (n < 0) {
			complete(m);
			return;
		}
		budget -= (uint32_t)n;
	}
	if (m->moved >= f.len)
		complete(m);
}

void dfz__mchan_step(struct dfz_mchan *m)
{
	if (!m->active) {
		if (m->count == 0)
			return;
		m->cur = m->fifo[m->head];
		m->head = (m->head + 1) % DFZ_MCHAN_FIFO;
		m->count--;
		m->active = true;
		m->started = false;
		m->latency = m->rt->cfg.latency;
		m->moved = 0;
	}
	service(m);
}

/* The chunks of a stretch, as its first pass located them for the second
 * (the same bytes from the same byte on: the same chunks). */
#define STRETCH_KEPT 16
struct stretch_chunk {
	uint32_t n;
	struct dfz_span es, ls;
};

/*
 * The steps up to the one in which the current command ends (or @max), at
 * once (rt.c's burst()): the same bytes and completion as that many
 * dfz__mchan_step(), in a move per line part (either side's line), each
 * stamped with the step its last byte lands in; latency steps are counted
 * off. 0 when a single step does as well, with no command in the
 * channel, or when a move of the stretch would fault (single steps place
 * a fault to the bandwidth's byte).
 */
uint64_t dfz__mchan_burst(struct dfz_mchan *m, uint64_t max)
{
	struct dfz_rt *rt = m->rt;
	uint64_t bw = rt->cfg.bandwidth, now0 = rt->now, k, to;
	struct dfz_mchan_cmd_fields f;
	struct dfz_span es, ls;
	struct stretch_chunk ch[STRETCH_KEPT];
	int64_t fault;
	uint32_t from, p, nch = 0, i = 0;

	if (!m->active || max == 0)
		return 0;
	if (m->latency > 0)
		return dfz__rt_latency(rt, &m->latency, max);
	dfz_mchan_cmd_decode(m->cur.cmd, &f);
	from = (uint32_t)m->moved;
	if (bw == 0 || from >= f.len || (f.ext_2d && m->cur.ext_len == 0) ||
	    (f.loc_2d && m->cur.loc_len == 0))
		return 0;
	k = dfz__steps_for(f.len - from, bw);
	k = k < max ? k : max;
	to = from + k * bw < f.len ? from + k * bw : f.len;
	if (k < 2)
		return 0;
	for (p = from; p < to;) {
		uint32_t n = chunk_at(m, &f, p, (uint32_t)(to - p), &es, &ls,
				      &fault);

		if (n == 0)
			return 0;
		if (nch < STRETCH_KEPT)
			ch[nch++] = (struct stretch_chunk){ n, es, ls };
		p += n;
	}
	dfz__vg_enter(rt);
	if (!m->started) {
		rt->now = now0 + 1;
		start(m);
	}
	while (m->active && m->moved < to) {
		uint32_t n;

		if (i < nch) {            /* as the first pass found it */
			n = ch[i].n;
			es = ch[i].es;
			ls = ch[i++].ls;
		} else {
			n = chunk_at(m, &f, m->moved,
				     (uint32_t)(to - m->moved), &es, &ls,
				     &fault);
		}

		rt->now = now0 + dfz__steps_for(m->moved + n - from, bw);
		if (n == 0) { /* not reached: the stretch located */
			emit_id(m, DFZ_EV_FAULT, m->cur.tid, fault);
			complete(m);
			break;
		}
		move_at(m, &f, n, es, ls);
	}
	if (m->active && m->moved >= f.len)
		complete(m);
	rt->now = now0 + k;
	dfz__vg_leave(rt);
	return k;
}

/* -------------------------------------------------------------------- wait */

struct tid_arg {
	const struct dfz_mchan *m;
	int tid;
};

static bool tid_done(const void *arg)
{
	const struct tid_arg *a = arg;

	return !dfz_mchan_transfer_busy(a->m, a->tid);
}

int dfz_mchan_transfer_wait(struct dfz_mchan *m, int tid)
{
	struct tid_arg arg = { m, tid };
	int rc;

	if (!m)
		return DFZ_EINVAL;
	emit_id(m, DFZ_EV_WAIT, tid, 0);
	dfz_rt_yield(m->rt, DFZ_YIELD_WAIT);
	rc = dfz__rt_wait(m->rt, tid_done, &arg);
	if (rc < 0)
		emit_id(m, DFZ_EV_HANG, tid, 0);
	emit_id(m, DFZ_EV_WAITED, tid, rc);
	return rc;
}

/* ------------------------------------------------------------ read access */

struct dfz_mchan *dfz_mchan_get(struct dfz_rt *rt)
{
	return rt ? rt->mchan : NULL;
}

uint32_t dfz_mchan_tids(const struct dfz_mchan *m)
{
	return m ? m->tids : 0;
}

unsigned dfz_mchan_queued(const struct dfz_mchan *m)
{
	return m ? m->count + m->active : 0;
}

/* ------------------------------------------------------------ engine ops */

/* The push generated code writes for the kernel transfer @d. */
static void transfer_of(const struct dfz_desc *d, void *ext, void *loc,
			struct dfz_mchan_transfer *t)
{
	memset(t, 0, sizeof(*t));
	t->cmd = dfz_mchan_cmd(d->size, d->ext2loc, 1, 0, d->is_2d, 0, 1, 0);
	t->size = d->size;
	t->ext = ext;
	t->loc = loc;
	t->ext_size_1d = d->length;
	t->ext_stride_1d = d->ext_stride;
}

/*
 * The TID the next push of @r goes on. A request holding the core's latest
 * TID pushes on under it (the group goes on); otherwise the request takes
 * a fresh one (@fresh), as Deeploy does for each transfer. mchan-push-latest
 * restores the faulty code that keeps pushing a group under the TID it
 * took first: the push goes where the hardware sends it, to the latest TID.
 */
static int group_tid(struct dfz_rt *rt, struct mchan_req *r, bool *fresh)
{
	struct dfz_mchan *m = rt->mchan;
	int rc;

	*fresh = false;
	if (r->held && m->last >= 0 &&
	    ((r->held >> m->last & 1u) ||
	     (dfz_rt_bugs(rt) & DFZ_BUG_BIT(MCHAN_PUSH_LATEST))))
		return m->last;
	rc = dfz_mchan_transfer_get_id(m);
	if (rc < 0)
		return rc;
	r->held |= 1u << rc;
	*fresh = true;
	return rc;
}

/*
 * A kernel transfer onto mchan: external side in L2, local side in L1 and
 * contiguous, pushed on the TID of its group (group_tid()).
 */
static int ops_issue(struct dfz_rt *rt, void *req, const struct dfz_desc *d)
{
	struct mchan_req *r = req;
	struct dfz_mchan_transfer t;
	void *ext, *loc;
	bool fresh;
	int tid, rc;

	if (!rt || !r || !d || d->ext_level != DFZ_L2 || d->loc_level != DFZ_L1)
		return DFZ_EINVAL;
	if (d->is_2d && (d->length == 0 || d->loc_stride != d->length))
		return DFZ_EINVAL;
	ext = dfz_mem_ptr(rt, DFZ_L2, d->ext_off);
	loc = dfz_mem_ptr(rt, DFZ_L1, d->loc_off);
	if (!ext || !loc)
		return DFZ_EFAULT;
	tid = group_tid(rt, r, &fresh);
	if (tid < 0)
		return tid;
	transfer_of(d, ext, loc, &t);
	rc = push_words(rt->mchan, tid, &t, d->is_2d, false, d);
	if (rc < 0 && fresh) {
		dfz_mchan_transfer_free(rt->mchan, tid);
		r->held &= ~(1u << tid);
	}
	return rc;
}

/* The TID of @held taken first. */
static int oldest(const struct dfz_mchan *m, uint32_t held)
{
	int best = -1;

	for (int t = 0; t < NTIDS; t++)
		if ((held >> t & 1u) &&
		    (best < 0 || m->seq[t] < m->seq[best]))
			best = t;
	return best;
}

/* wait(tid); free(tid) for each TID of the request, oldest first -- the
 * free is what mchan-tid-leak skips. A wait that hangs ends the run: the
 * TIDs after it are dropped. Return: 0 or the error of the wait. */
static int ops_wait(struct dfz_rt *rt, void *req)
{
	struct mchan_req *r = req;
	int rc = 0;

	if (!rt || !r)
		return DFZ_EINVAL;
	r->held &= ALL_TIDS;
	while (r->held && rc == 0) {
		int tid = oldest(rt->mchan, r->held);

		rc = dfz_mchan_transfer_wait(rt->mchan, tid);
		if (!(dfz_rt_bugs(rt) & DFZ_BUG_BIT(MCHAN_TID_LEAK)))
			dfz_mchan_transfer_free(rt->mchan, tid);
		r->held &= ~(1u << tid);
	}
	r->held = 0;
	return rc;
}

static const struct dfz_engine_ops ops = {
	.name = "mchan",
	.kernel_ranks = (1u << 1) | (1u << 2),
	.can_share = true,
	.lagging_id = false,
	.req_size = sizeof(struct mchan_req),
	.max_size = DFZ_MCHAN_LEN_MASK,
	.issue = ops_issue,
	.wait = ops_wait,
};

const struct dfz_engine_ops *dfz__mchan_ops(void)
{
	return &ops;
}
