// SPDX-License-Identifier: MIT
/*
 * The ram engine (DESIGN 3.3): a model of the PMSIS cluster RAM driver,
 * pi_cl_ram_copy / pi_cl_ram_copy_2d / pi_cl_ram_copy_wait, between L3 and
 * L2/L1. The caller-owned request is the driver's own queue node: issue
 * stamps it and appends it to a linked waiting list exactly as the driver
 * does (no guard against re-appending the tail), two hardware slots take
 * requests from the list head (one with DFZ_RTQ_RAM_SERIAL: gap_sdk's
 * GAP8 HyperRAM driver starts the next request when the last is done),
 * and each step the engine re-reads the descriptor from the request, so a
 * request clobbered while in flight moves the wrong bytes by itself. The model follows the driver wherever the
 * driver would corrupt itself, but never dereferences a pointer that is not
 * in the memory model: the harness must never crash.
 */
#include <stdatomic.h>
#include <string.h>

#include "runtime_int.h"
#include "vg.h"

/*
 * Live engines. dfz_ram_copy_wait() gets nothing but the request, and the
 * only way from a request to its runtime is req->device, which a stale or
 * never-issued request may hold as garbage. Comparing that pointer with the
 * engines that exist (without dereferencing it) is what makes such a wait
 * an error instead of a crash. Filled by dfz_rt_create(), cleared by
 * dfz_rt_destroy(); atomic so runtimes on different threads cannot tear it.
 */
#define LIVE_MAX 32
static _Atomic(struct dfz_ram *) live[LIVE_MAX];

/* A per-step copy of the descriptor fields, read from the request. */
struct ram_desc {
	uintptr_t addr;
	uint32_t ram_addr;
	uint32_t size;
	uint32_t stride;
	uint32_t length;
	uint8_t ext2loc;
	uint8_t is_2d;
};

/* -------------------------------------------------------------- registry */

int dfz__ram_init(struct dfz_ram *ram, struct dfz_rt *rt)
{
	memset(ram, 0, sizeof(*ram));
	ram->rt = rt;
	for (unsigned i = 0; i < LIVE_MAX; i++) {
		struct dfz_ram *expect = NULL;

		if (atomic_compare_exchange_strong(&live[i], &expect, ram))
			return 0;
	}
	return DFZ_ENOMEM;
}

void dfz__ram_fini(struct dfz_ram *ram)
{
	for (unsigned i = 0; i < LIVE_MAX; i++) {
		struct dfz_ram *expect = ram;

		atomic_compare_exchange_strong(&live[i], &expect, NULL);
	}
}

static bool is_live(const struct dfz_ram *dev)
{
	if (!dev)
		return false;
	for (unsigned i = 0; i < LIVE_MAX; i++)
		if (atomic_load(&live[i]) == dev)
			return true;
	return false;
}

/* True when a request may be read at @p: aligned, inside L2/L1 of @rt
 * (anywhere with cfg.user_reqs: user code keeps requests on its stack). */
static bool is_req_addr(const struct dfz_rt *rt, const void *p)
{
	if ((uintptr_t)p % _Alignof(struct dfz_ram_req) != 0 || !p)
		return false;
	return rt->cfg.user_reqs ||
	       dfz_mem_locate(rt, p, sizeof(struct dfz_ram_req), NULL);
}

/* The live engine whose runtime's memory holds @req, or NULL. */
static struct dfz_ram *owner_of(const struct dfz_ram_req *req)
{
	for (unsigned i = 0; i < LIVE_MAX; i++) {
		struct dfz_ram *dev = atomic_load(&live[i]);

		if (dev && is_req_addr(dev->rt, req))
			return dev;
	}
	return NULL;
}

/* ------------------------------------------------------------------ events */

static void emit(struct dfz_ram *ram, struct dfz_event *ev)
{
	ev->engine = DFZ_ENGINE_RAM;
	ev->step = dfz_rt_now(ram->rt);
	dfz_rt_emit(ram->rt, ev);
}

static void emit_simple(struct dfz_ram *ram, enum dfz_ev_kind kind,
			const void *handle, int64_t aux)
{
	struct dfz_event ev = {
		.kind = (uint8_t)kind,
		.handle = handle,
		.aux = aux,
	};

	emit(ram, &ev);
}

/* The generic view of @r as the engine reads it now. A local address that
 * is not in L2/L1 shows as level DFZ_NLEVELS, offset 0. */
static void emit_desc(struct dfz_ram *ram, enum dfz_ev_kind kind,
		      const struct dfz_ram_req *r)
{
	struct dfz_event ev = { .kind = (uint8_t)kind, .handle = r };
	struct dfz_desc *d = &ev.desc;
	struct dfz_span s;

	d->ext_level = DFZ_L3;
	d->ext_off = r->ram_addr;
	d->loc_level = DFZ_NLEVELS;
	if (dfz_mem_locate(ram->rt, r->addr, 1, &s)) {
		d->loc_level = s.level;
		d->loc_off = s.off;
	}
	d->size = r->size;
	d->length = r->length;
	d->ext_stride = r->stride;
	d->loc_stride = r->length;
	d->ext2loc = r->ext2loc;
	d->is_2d = r->is_2d;
	emit(ram, &ev);
}

/* ------------------------------------------------------------------- issue */

static int check_issue(const struct dfz_ram *dev, const void *addr,
		       uint32_t size, const struct dfz_ram_req *req)
{
	if (!dev || !req || !addr || size == 0 || !is_live(dev))
		return DFZ_EINVAL;
	if (!is_req_addr(dev->rt, req) || !dfz_mem_locate(dev->rt, addr, 1, NULL))
		return DFZ_EFAULT;
	return 0;
}

/* The record of @node's link, added when new; NULL when the record is
 * full (then @node cannot be queued). */
static struct dfz_ram_link *link_of(struct dfz_ram *dev,
				    const struct dfz_ram_req *node, bool add)
{
	for (uint32_t i = dev->nlinks; i-- > 0;)
		if (dev->link[i].node == node)
			return &dev->link[i];
	if (!add || dev->nlinks == DFZ__RAM_LINKS)
		return NULL;
	dev->link[dev->nlinks] = (struct dfz_ram_link){ node, NULL };
	return &dev->link[dev->nlinks++];
}

/* The driver's enqueue, verbatim: re-appending the tail links it to itself.
 * Each link written is recorded (the tail's is known: it was appended). */
static void append(struct dfz_ram *dev, struct dfz_ram_req *node)
{
	link_of(dev, node, true)->next = NULL;
	node->next = NULL;
	if (dev->first) {
		link_of(dev, dev->last, false)->next = node;
		dev->last->next = node;
	} else {
		dev->first = node;
	}
	dev->last = node;
}

static int issue(struct dfz_ram *dev, uint32_t ram_addr, void *addr,
		 uint32_t size, uint32_t stride, uint32_t length, int ext2loc,
		 uint8_t is_2d, struct dfz_ram_req *req)
{
	int rc = check_issue(dev, addr, size, req);

	if (rc < 0)
		return rc;
	if (!link_of(dev, req, true))
		return DFZ_EBUSY;
	req->device = dev;
	req->addr = addr;
	req->ram_addr = ram_addr;
	req->size = size;
	req->stride = stride;
	req->length = length;
	req->ext2loc = ext2loc != 0;
	req->is_2d = is_2d;
	req->done = 0;
	append(dev, req);
	emit_desc(dev, DFZ_EV_ISSUE, req);
	dfz_rt_yield(dev->rt, DFZ_YIELD_ISSUE);
	return 0;
}

int dfz_ram_copy(struct dfz_ram *dev, uint32_t ram_addr, void *addr,
		 uint32_t size, int ext2loc, struct dfz_ram_req *req)
{
	return issue(dev, ram_addr, addr, size, size, size, ext2loc, 0, req);
}

int dfz_ram_copy_2d(struct dfz_ram *dev, uint32_t ram_addr, void *addr,
		    uint32_t size, uint32_t stride, uint32_t length,
		    int ext2loc, struct dfz_ram_req *req)
{
	if (length == 0)
		return DFZ_EINVAL;
	return issue(dev, ram_addr, addr, size, stride, length, ext2loc, 1, req);
}

/* ------------------------------------------------------------------ engine */

void dfz__ram_reset(struct dfz_ram *ram)
{
	ram->first = NULL;
	ram->last = NULL;
	ram->nlinks = 0;
	memset(ram->slot, 0, sizeof(ram->slot));
}

bool dfz__ram_is_idle(const struct dfz_ram *ram)
{
	if (ram->first)
		return false;
	for (unsigned i = 0; i < DFZ_RAM_SLOTS; i++)
		if (ram->slot[i].req)
			return false;
	return true;
}

/* True when @node->next still holds the link the driver wrote there. */
static bool link_intact(struct dfz_ram *ram, const struct dfz_ram_req *node)
{
	const struct dfz_ram_link *l = link_of(ram, node, false);

	return l && l->next == node->next;
}

/* The driver meets @wild where a node should be: on the chip it would
 * die there; the model faults and drops the rest of the list. */
static void drop_list(struct dfz_ram *ram, const void *wild)
{
	emit_simple(ram, DFZ_EV_FAULT, NULL, (int64_t)(uintptr_t)wild);
	ram->first = NULL;
	ram->last = NULL;
}

/* The slots the driver keeps busy: pulp-sdk's two, or one when serial. */
static unsigned slots_of(const struct dfz_ram *ram)
{
	return (ram->rt->cfg.quirks & DFZ_RTQ_RAM_SERIAL) ? 1 : DFZ_RAM_SLOTS;
}

/* Fill free slots from the list head. A node that is not a request in
 * L2/L1, or a link the driver did not make, is where the real driver would
 * die: fault, drop the list. */
static void promote(struct dfz_ram *ram)
{
	unsigned busy = 0;

	for (unsigned i = 0; i < DFZ_RAM_SLOTS; i++)
		busy += ram->slot[i].req != NULL;
	for (unsigned i = 0; i < DFZ_RAM_SLOTS && ram->first &&
			     busy < slots_of(ram); i++) {
		struct dfz_ram_hw_slot *s = &ram->slot[i];
		struct dfz_ram_req *node = ram->first;

		if (s->req)
			continue;
		if (!is_req_addr(ram->rt, node)) {
			drop_list(ram, node);
			return;
		}
		ram->first = node->next;
		if (!ram->first)
			ram->last = NULL;
		if (!link_intact(ram, node))
			drop_list(ram, ram->first);
		s->req = node;
		busy++;
		s->latency = ram->rt->cfg.latency;
		s->moved = 0;
		s->started = false;
	}
}

/* Completion, normal or aborted by a fault: any completion sets done. */
static void complete(struct dfz_ram *ram, struct dfz_ram_hw_slot *s)
{
	struct dfz_ram_req *r = s->req;

	r->done = 1;
	s->req = NULL;
	emit_simple(ram, DFZ_EV_COMPLETE, r, 0);
}

static void read_desc(const struct dfz_ram_req *r, struct ram_desc *d)
{
	d->addr = (uintptr_t)r->addr;
	d->ram_addr = r->ram_addr;
	d->size = r->size;
	d->stride = r->stride;
	d->length = r->length;
	d->ext2loc = r->ext2loc;
	d->is_2d = r->is_2d;
}

/* L3 offset of byte @p of @d and the bytes left in its line. */
static uint64_t ext_pos(const struct ram_desc *d, uint32_t p, uint32_t *room)
{
	uint64_t line, within;

	if (!d->is_2d) {
		*room = d->size - p;
		return (uint64_t)d->ram_addr + p;
	}
	line = p / d->length;
	within = p % d->length;
	*room = d->length - (uint32_t)within;
	return d->ram_addr + line * d->stride + within;
}

static void emit_move(struct dfz_ram *ram, const struct dfz_ram_req *r,
		      struct dfz_span dst, struct dfz_span src)
{
	struct dfz_event ev = {
		.kind = DFZ_EV_MOVE,
		.handle = r,
		.dst = dst,
		.src = src,
	};

	emit(ram, &ev);
}

/*
 * Move one chunk of @d (at most @budget bytes, never across a line end)
 * for slot @s. Return the bytes moved, or -1 after a fault.
 */
static int64_t move_chunk(struct dfz_ram *ram, struct dfz_ram_hw_slot *s,
			  const struct ram_desc *d, uint32_t budget)
{
	struct dfz_rt *rt = ram->rt;
	struct dfz_span ext, loc;
	uint32_t room, chunk;
	uint64_t eoff = ext_pos(d, s->moved, &room);
	uint8_t *l3, *lp;

	chunk = budget < room ? budget : room;
	if (chunk > d->size - s->moved)
		chunk = d->size - s->moved;
	if (eoff > dfz_mem_size(rt, DFZ_L3) ||
	    chunk > dfz_mem_size(rt, DFZ_L3) - eoff) {
		emit_simple(ram, DFZ_EV_FAULT, s->req, (int64_t)eoff);
		return -1;
	}
	if (!dfz_mem_locate(rt, (const void *)(d->addr + s->moved), chunk, &loc)) {
		emit_simple(ram, DFZ_EV_FAULT, s->req,
			    (int64_t)(d->addr + s->moved));
		return -1;
	}
	ext = (struct dfz_span){ DFZ_L3, (uint32_t)eoff, chunk };
	l3 = dfz_mem_ptr(rt, DFZ_L3, ext.off);
	lp = dfz_mem_ptr(rt, (enum dfz_level)loc.level, loc.off);
	if (d->ext2loc)
		dfz__vg_move(rt, lp, l3, chunk);
	else
		dfz__vg_move(rt, l3, lp, chunk);
	s->moved += chunk;
	emit_move(ram, s->req, d->ext2loc ? loc : ext, d->ext2loc ? ext : loc);
	return chunk;
}

/* One step of a busy slot: latency first, then up to a bandwidth of bytes
 * of the descriptor as the request holds it now. */
static void service(struct dfz_ram *ram, struct dfz_ram_hw_slot *s)
{
	uint32_t budget = ram->rt->cfg.bandwidth;
	struct ram_desc d;

	if (s->latency > 0) {
		s->latency--;
		return;
	}
	if (!s->started) {
		s->started = true;
		emit_desc(ram, DFZ_EV_SERVICE, s->req);
	}
	read_desc(s->req, &d);
	if (d.is_2d && d.length == 0) {
		emit_simple(ram, DFZ_EV_FAULT, s->req, (int64_t)d.ram_addr);
		complete(ram, s);
		return;
	}
	while (budget > 0 && s->moved < d.size) {
		int64_t n = move_chunk(ram, s, &d, budget);

		if (n < 0) {
			complete(ram, s);
			return;
		}
		budget -= (uint32_t)n;
	}
	if (s->moved >= s->req->size)
		complete(ram, s);
}

void dfz__ram_step(struct dfz_ram *ram)
{
	promote(ram);
	for (unsigned i = 0; i < DFZ_RAM_SLOTS; i++)
		if (ram->slot[i].req)
			service(ram, &ram->slot[i]);
}

/* -------------------------------------------------------------------- wait */

static bool req_done(const void *arg)
{
	const struct dfz_ram_req *r = arg;

	return r->done != 0;
}

int dfz_ram_copy_wait(struct dfz_ram_req *req)
{
	if (!req)
		return DFZ_EINVAL;
	if (!owner_of(req))
		return DFZ_EFAULT;
	if (!is_live(req->device))
		return DFZ_EINVAL;
	return dfz_ram_wait_on(req->device, req);
}

int dfz_ram_wait_on(struct dfz_ram *dev, struct dfz_ram_req *req)
{
	int rc;

	if (!dev || !req)
		return DFZ_EINVAL;
	emit_simple(dev, DFZ_EV_WAIT, req, 0);
	dfz_rt_yield(dev->rt, DFZ_YIELD_WAIT);
	rc = dfz__rt_wait(dev->rt, req_done, req);
	if (rc < 0)
		emit_simple(dev, DFZ_EV_HANG, req, 0);
	emit_simple(dev, DFZ_EV_WAITED, req, rc);
	return rc;
}

/* ------------------------------------------------------------ read access */

struct dfz_ram *dfz_ram_get(struct dfz_rt *rt)
{
	return rt ? &rt->ram : NULL;
}

const struct dfz_ram_req *dfz_ram_queue_head(const struct dfz_ram *dev)
{
	return dev ? dev->first : NULL;
}

const struct dfz_ram_req *dfz_ram_slot(const struct dfz_ram *dev, unsigned i)
{
	return dev && i < DFZ_RAM_SLOTS ? dev->slot[i].req : NULL;
}

/* ------------------------------------------------------------ engine ops */

/* A kernel descriptor onto the PMSIS calls: external side L3, local side
 * contiguous in L2/L1. */
static int ops_issue(struct dfz_rt *rt, void *req, const struct dfz_desc *d)
{
	void *addr;

	if (!rt || !d || d->ext_level != DFZ_L3 ||
	    (d->loc_level != DFZ_L2 && d->loc_level != DFZ_L1))
		return DFZ_EINVAL;
	if (d->is_2d && d->loc_stride != d->length)
		return DFZ_EINVAL;
	addr = dfz_mem_ptr(rt, (enum dfz_level)d->loc_level, d->loc_off);
	if (!addr)
		return DFZ_EFAULT;
	if (!d->is_2d)
		return dfz_ram_copy(&rt->ram, d->ext_off, addr, d->size,
				    d->ext2loc, req);
	return dfz_ram_copy_2d(&rt->ram, d->ext_off, addr, d->size,
			       d->ext_stride, d->length, d->ext2loc, req);
}

static int ops_wait(struct dfz_rt *rt, void *req)
{
	(void)rt;
	return dfz_ram_copy_wait(req);
}

static const struct dfz_engine_ops ops = {
	.name = "ram",
	.kernel_ranks = 1u << 2,
	.can_share = false,
	.req_size = sizeof(struct dfz_ram_req),
	.issue = ops_issue,
	.wait = ops_wait,
};

const struct dfz_engine_ops *dfz__ram_ops(void)
{
	return &ops;
}
