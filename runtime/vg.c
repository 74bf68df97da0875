// SPDX-License-Identifier: MIT
/*
 * The memory model described to valgrind memcheck (vg.h): addressability
 * of blocks, redzones and free storage, in-flight destinations, engine
 * footprints, device blocks as malloc-like blocks, and the judged sections
 * outside which the arenas' addressability errors are not reported.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "vg.h"
#include "dmafuzz/runtime_idma.h"

#if defined(DFZ_VALGRIND) && DFZ_VALGRIND
#include <valgrind/memcheck.h> /* the memcheck build: required */
#elif defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#endif
#endif

#ifdef __MEMCHECK_H
#define VG_BUILT true
#else
/* No client requests: nothing runs under valgrind as far as we know. */
#define VG_BUILT false
#define RUNNING_ON_VALGRIND 0
#define VG_NOP2(a, b) ((void)(a), (void)(b))
#define VALGRIND_MAKE_MEM_NOACCESS(a, n) VG_NOP2(a, n)
#define VALGRIND_MAKE_MEM_DEFINED(a, n) VG_NOP2(a, n)
#define VALGRIND_MAKE_MEM_UNDEFINED(a, n) VG_NOP2(a, n)
#define VALGRIND_GET_VBITS(a, v, n) (VG_NOP2(a, v), (void)(n), 0)
#define VALGRIND_SET_VBITS(a, v, n) (VG_NOP2(a, v), (void)(n), 0)
#define VALGRIND_DISABLE_ADDR_ERROR_REPORTING_IN_RANGE(a, n) VG_NOP2(a, n)
#define VALGRIND_ENABLE_ADDR_ERROR_REPORTING_IN_RANGE(a, n) VG_NOP2(a, n)
#define VALGRIND_CHECK_MEM_IS_ADDRESSABLE(a, n) VG_NOP2(a, n)
#define VALGRIND_CREATE_BLOCK(a, n, d) (VG_NOP2(a, n), (void)(d), 0u)
#define VALGRIND_DISCARD(h) ((void)(h))
#define VALGRIND_MALLOCLIKE_BLOCK(a, n, rz, z) (VG_NOP2(a, n), VG_NOP2(rz, z))
#define VALGRIND_FREELIKE_BLOCK(a, rz) VG_NOP2(a, rz)
#define VALGRIND_DO_ADDED_LEAK_CHECK ((void)0)
#endif

/* cfg.sanitize: a fresh block's user bytes are undefined to memcheck. */
#ifndef VG_FRESH_UNDEFINED
#define VG_FRESH_UNDEFINED 1
#endif

/* In-flight destinations tracked at once; more are left unmarked (never a
 * false report, only a missed one). */
#define VG_MARKS 512
#define VG_DESC 160

/* One in-flight destination: the CPU's again once its bytes landed and a
 * wait on (engine, key) that covers it returned, whichever comes last (as
 * poison.c ends ASan's marks). */
struct vg_mark {
	uint8_t engine;
	uint8_t level;
	bool waited;          /* a covering wait returned */
	bool landed;          /* the engine completed the transfer */
	uint64_t key;         /* ram: request address; mchan: TID; idma: txid */
	uint64_t seq;         /* issue order */
	uint32_t off;
	uint32_t len;
	unsigned desc;        /* memcheck block description */
	uint8_t *vbits;       /* cfg.sanitize: the definedness the engine's
			       * copies brought (memcheck's V bits, 0 is
			       * defined), set when the wait returns; NULL:
			       * defined */
};

struct dfz__vg {
	struct dfz_rt *rt;
	unsigned depth;       /* judged sections entered */
	unsigned suspended;   /* the depth an observer callback put aside */
	bool dev_owner;       /* this runtime's device blocks are malloc-like */
	unsigned nmarks;
	uint64_t seq;         /* marks issued this run */
	char label[VG_DESC];  /* name of the transfers being issued */
	struct vg_mark mark[VG_MARKS];
};

#define NAME_OF(id, name) name,
static const char *const level_names[DFZ__NARENAS] = {
	DFZ_LEVEL_MAP(NAME_OF) "device"
};
#undef NAME_OF

/*
 * Device blocks are malloc-like blocks at their device addresses (what
 * the host holds), so the leak check sees a lost handle as a lost block.
 * Memcheck only counts a pointer into mapped memory, so the device range
 * is mapped once, read-only and never touched. One runtime at a time
 * registers its blocks: runtimes share the device addresses.
 */
static _Atomic int dev_space;            /* 0 untried, 1 mapped, -1 failed */
static _Atomic(struct dfz_rt *) dev_owner;

static bool map_dev_space(void)
{
	int expect = 0;
	void *want = (void *)(uintptr_t)DFZ_DEV_BASE, *got;

	if (!atomic_compare_exchange_strong(&dev_space, &expect, -1))
		return expect == 1;
	got = mmap(want, DFZ_CAP_DEV, PROT_READ,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (got == MAP_FAILED)
		return false;
	if (got != want) {
		munmap(got, DFZ_CAP_DEV);
		return false;
	}
	atomic_store(&dev_space, 1);
	return true;
}

static void *dev_addr(uint32_t off)
{
	return (void *)(uintptr_t)(DFZ_DEV_BASE + off);
}

/* -------------------------------------------------------------- helpers */

static uint8_t *arena_base(const struct dfz_rt *rt, unsigned level)
{
	return rt->arena[level].base;
}

/* The part of an arena the model owns: neither the program's statics
 * nor the stacks, which are the program's as the loader and the cores
 * left them. */
static uint8_t *heap_of(const struct dfz_rt *rt, unsigned level)
{
	return rt->arena[level].base + rt->arena[level].statics;
}

static uint32_t heap_bytes(const struct dfz_rt *rt, unsigned level)
{
	return rt->arena[level].stacks - rt->arena[level].statics;
}

/* Arenas' addressability errors reported (@on) or not. */
static void set_reporting(const struct dfz_rt *rt, bool on)
{
	for (unsigned l = 0; l < DFZ__NARENAS; l++) {
		const struct dfz_arena *a = &rt->arena[l];

		if (on)
			VALGRIND_ENABLE_ADDR_ERROR_REPORTING_IN_RANGE(a->base,
								      a->cap);
		else
			VALGRIND_DISABLE_ADDR_ERROR_REPORTING_IN_RANGE(a->base,
								       a->cap);
	}
}

static unsigned describe(const void *p, uint64_t n, const char *fmt,
			 va_list ap)
{
	char desc[VG_DESC];

	vsnprintf(desc, sizeof(desc), fmt, ap);
	return VALGRIND_CREATE_BLOCK(p, n, desc);
}

static unsigned describef(const void *p, uint64_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static unsigned describef(const void *p, uint64_t n, const char *fmt, ...)
{
	va_list ap;
	unsigned h;

	va_start(ap, fmt);
	h = describe(p, n, fmt, ap);
	va_end(ap);
	return h;
}

/* Block @b's description handle is stored plus one (0: none) in b->vg,
 * below VG_RETIRED: set on a device block the host handed back, no longer
 * a malloc-like block. */
#define VG_RETIRED (1u << 31)

static void forget_desc(struct dfz_block *b)
{
	if (b->vg & ~VG_RETIRED)
		VALGRIND_DISCARD((b->vg & ~VG_RETIRED) - 1);
	b->vg &= VG_RETIRED;
}

/* A device block of this runtime that is a malloc-like block. */
static bool is_malloclike(const struct dfz_rt *rt, unsigned level,
			  const struct dfz_block *b)
{
	return level == DFZ_DEV_LEVEL && rt->vg->dev_owner &&
	       !(b->vg & VG_RETIRED);
}

/* The whole block, redzones included, so a redzone hit names it. */
static void name_block(struct dfz_rt *rt, unsigned level, struct dfz_block *b,
		       const char *fmt, va_list ap)
{
	char what[VG_DESC];

	vsnprintf(what, sizeof(what), fmt, ap);
	forget_desc(b);
	b->vg |= 1 + describef(arena_base(rt, level) + b->off - DFZ_REDZONE,
			      (uint64_t)b->size + 2 * DFZ_REDZONE,
			      "%s (%s block +0x%x, %u bytes, %u-byte redzones)",
			      what, level_names[level], b->off, b->size,
			      DFZ_REDZONE);
}

static void name_blockf(struct dfz_rt *rt, unsigned level, struct dfz_block *b,
			const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void name_blockf(struct dfz_rt *rt, unsigned level, struct dfz_block *b,
			const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	name_block(rt, level, b, fmt, ap);
	va_end(ap);
}

/* The live block of @level holding @off (writable: its description). */
static struct dfz_block *block_at(struct dfz_rt *rt, unsigned level,
				  uint32_t off)
{
	return (struct dfz_block *)dfz__mem_block_at(rt, level, off);
}

/* ------------------------------------------------------------ lifecycle */

bool dfz__vg_built(void)
{
	return VG_BUILT;
}

struct dfz__vg *dfz__vg_create(struct dfz_rt *rt)
{
	struct dfz_rt *none = NULL;
	struct dfz__vg *vg;

	const char *off = getenv("DFZ_MEMCHECK_MODEL");

	if (!VG_BUILT || !RUNNING_ON_VALGRIND || (off && !strcmp(off, "off")))
		return NULL;
	vg = calloc(1, sizeof(*vg));
	if (!vg)
		return NULL;
	vg->rt = rt;
	vg->dev_owner = map_dev_space() &&
			atomic_compare_exchange_strong(&dev_owner, &none, rt);
	set_reporting(rt, false);
	for (unsigned l = 0; l < DFZ__NARENAS; l++)
		VALGRIND_MAKE_MEM_NOACCESS(heap_of(rt, l), heap_bytes(rt, l));
	return vg;
}

void dfz__vg_destroy(struct dfz_rt *rt)
{
	struct dfz__vg *vg = rt->vg;
	struct dfz_rt *me = rt;

	if (!vg)
		return;
	for (unsigned l = 0; l < DFZ__NARENAS; l++) {
		dfz__vg_arena_reset(rt, l);
		VALGRIND_MAKE_MEM_DEFINED(heap_of(rt, l), heap_bytes(rt, l));
	}
	set_reporting(rt, true);
	if (vg->dev_owner)
		atomic_compare_exchange_strong(&dev_owner, &me, NULL);
	free(vg);
	rt->vg = NULL;
}

/* ---------------------------------------------------------------- marks */

static void drop_mark(struct dfz__vg *vg, unsigned i)
{
	VALGRIND_DISCARD(vg->mark[i].desc);
	free(vg->mark[i].vbits);
	vg->mark[i] = vg->mark[--vg->nmarks];
}

/* Marks of @level inside [off, off + len) are dropped (their block goes). */
static void drop_marks_in(struct dfz__vg *vg, unsigned level, uint64_t off,
			  uint64_t len)
{
	for (unsigned i = vg->nmarks; i-- > 0;) {
		const struct vg_mark *m = &vg->mark[i];

		if (m->level == level && m->off >= off && m->off < off + len)
			drop_mark(vg, i);
	}
}

static void add_mark(struct dfz__vg *vg, const struct dfz_event *ev,
		     unsigned level, uint32_t off, uint32_t len)
{
	struct vg_mark *m;
	uint8_t *p = arena_base(vg->rt, level) + off;

	if (vg->nmarks == VG_MARKS)
		return;
	m = &vg->mark[vg->nmarks++];
	m->engine = ev->engine;
	m->level = (uint8_t)level;
	m->waited = m->landed = false;
	m->seq = vg->seq++;
	m->key = ev->engine == DFZ_ENGINE_RAM ? (uintptr_t)ev->handle :
						(uint64_t)ev->id;
	m->off = off;
	m->len = len;
	m->vbits = vg->rt->cfg.sanitize ? calloc(len, 1) : NULL;
	VALGRIND_MAKE_MEM_NOACCESS(p, len);
	m->desc = describef(p, len,
			    "in flight until landed and waited: %s (%s transfer issued at "
			    "step %llu into %s +0x%x, %u bytes)",
			    vg->label[0] ? vg->label : "a transfer",
			    dfz_engine_name(ev->engine) ?
				    dfz_engine_name(ev->engine) : "?",
			    (unsigned long long)ev->step, level_names[level],
			    off, len);
}

/* Bytes from the first to one past the last of a side of @d. */
static uint64_t side_extent(const struct dfz_desc *d, uint32_t stride)
{
	uint64_t lines, last, end;

	if (!d->is_2d || d->length == 0 || d->length >= d->size)
		return d->size;
	lines = (d->size + d->length - 1) / d->length;
	last = d->size - (lines - 1) * d->length;
	end = (lines - 1) * stride + last;
	return end > d->length ? end : d->length;
}

/* The end of the block, the statics (the program's loader's) or the
 * stacks that byte @off of @level lies in; 0 in none. */
static uint64_t owner_end(struct dfz_rt *rt, unsigned level, uint32_t off)
{
	const struct dfz_arena *a = &rt->arena[level];
	const struct dfz_block *b = dfz__mem_block_at(rt, level, off);

	if (b)
		return (uint64_t)b->off + b->size;
	if (off < a->statics)
		return a->statics;
	if (a->stacks < a->cap && off >= a->stacks && off < a->cap)
		return a->cap;
	return 0;
}

/* ISSUE: the CPU-visible destination, clipped to the block (or the
 * statics, or the stacks) it starts in, is in flight. A transfer nobody
 * waits for (an idma dummy) is not. */
static void on_issue(struct dfz__vg *vg, const struct dfz_event *ev)
{
	const struct dfz_desc *d = &ev->desc;
	unsigned level = d->ext2loc ? d->loc_level : d->ext_level;
	uint32_t off = d->ext2loc ? d->loc_off : d->ext_off;
	uint64_t len, end;

	if (ev->engine == DFZ_ENGINE_IDMA && ev->aux == DFZ_IDMA_UNOWED)
		return;
	if ((level != DFZ_L2 && level != DFZ_L1) || d->size == 0)
		return;
	len = side_extent(d, d->ext2loc ? d->loc_stride : d->ext_stride);
	end = owner_end(vg->rt, level, off);
	if (end <= off)
		return;
	if ((uint64_t)off + len < end)
		end = (uint64_t)off + len;
	add_mark(vg, ev, level, off, (uint32_t)(end - off));
}

static bool covers(const struct dfz_event *ev, const struct vg_mark *m)
{
	return dfz__wait_covers(ev, m->engine, m->key);
}

/* Mark @i is done: its bytes are the CPU's again, with the definedness
 * the engine's copies brought, except bytes that another transfer still in
 * flight writes. */
static void release(struct dfz__vg *vg, unsigned i)
{
	struct vg_mark m = vg->mark[i];
	uint8_t *base = arena_base(vg->rt, m.level);

	vg->mark[i].vbits = NULL; /* m's now */
	drop_mark(vg, i);
	VALGRIND_MAKE_MEM_DEFINED(base + m.off, m.len);
	if (m.vbits)
		(void)VALGRIND_SET_VBITS(base + m.off, m.vbits, m.len);
	free(m.vbits);
	for (unsigned k = 0; k < vg->nmarks; k++) {
		const struct vg_mark *o = &vg->mark[k];
		uint32_t lo = o->off > m.off ? o->off : m.off;
		uint64_t a = (uint64_t)o->off + o->len,
			 b = (uint64_t)m.off + m.len;

		if (o->level == m.level && lo < (a < b ? a : b))
			VALGRIND_MAKE_MEM_NOACCESS(base + lo,
						   (a < b ? a : b) - lo);
	}
}

/* WAITED: the marks it covers are waited; those whose bytes landed end. */
static void on_waited(struct dfz__vg *vg, const struct dfz_event *ev)
{
	if (ev->aux != 0)
		return; /* a hang: nothing was waited */
	for (unsigned i = vg->nmarks; i-- > 0;) {
		if (!covers(ev, &vg->mark[i]))
			continue;
		vg->mark[i].waited = true;
		if (vg->mark[i].landed)
			release(vg, i);
	}
}

/* COMPLETE: the oldest transfer of that request, TID or txid landed; it
 * ends if a covering wait already returned (an early wait). */
static void on_complete(struct dfz__vg *vg, const struct dfz_event *ev)
{
	uint64_t key = ev->engine == DFZ_ENGINE_RAM ? (uintptr_t)ev->handle :
						      (uint64_t)ev->id;
	unsigned best = vg->nmarks;

	for (unsigned i = 0; i < vg->nmarks; i++) {
		const struct vg_mark *m = &vg->mark[i];

		if (m->engine != ev->engine || m->key != key || m->landed)
			continue;
		if (best == vg->nmarks || m->seq < vg->mark[best].seq)
			best = i;
	}
	if (best == vg->nmarks)
		return;
	vg->mark[best].landed = true;
	if (vg->mark[best].waited)
		release(vg, best);
}

/* MOVE: the bytes of @s outside the block (statics, stacks) the copy
 * starts in must be addressable. */
static void check_span(struct dfz__vg *vg, const struct dfz_span *s)
{
	uint64_t lo = s->off, hi = (uint64_t)s->off + s->len, end;

	if (s->level >= DFZ_NLEVELS || s->len == 0)
		return;
	end = owner_end(vg->rt, s->level, s->off);
	if (end > lo) {
		if (hi <= end)
			return;
		lo = end;
	}
	(void)VALGRIND_CHECK_MEM_IS_ADDRESSABLE(
		arena_base(vg->rt, s->level) + lo, hi - lo);
}

void dfz__vg_event(struct dfz_rt *rt, const struct dfz_event *ev)
{
	struct dfz__vg *vg = rt->vg;

	switch (ev->kind) {
	case DFZ_EV_ISSUE:
		on_issue(vg, ev);
		break;
	case DFZ_EV_COMPLETE:
		on_complete(vg, ev);
		break;
	case DFZ_EV_WAITED:
		on_waited(vg, ev);
		break;
	case DFZ_EV_MOVE:
		for (uint32_t k = 0; k < dfz_move_lines(ev); k++) {
			struct dfz_span dst, src;

			dfz_move_line(ev, k, &dst, &src);
			check_span(vg, &dst);
			check_span(vg, &src);
		}
		break;
	default:
		break;
	}
}

/* ------------------------------------------------------ judged sections */

void dfz__vg_enter(struct dfz_rt *rt)
{
	if (rt->vg && rt->vg->depth++ == 0)
		set_reporting(rt, true);
}

void dfz__vg_leave(struct dfz_rt *rt)
{
	if (rt->vg && --rt->vg->depth == 0)
		set_reporting(rt, false);
}

/* A run cut short inside a judged section (a signal caught while the
 * runtime ran) never left it: the next run starts outside every one. */
void dfz__vg_reset(struct dfz_rt *rt)
{
	struct dfz__vg *vg = rt->vg;

	if (!vg)
		return;
	if (vg->depth > 0)
		set_reporting(rt, false);
	vg->depth = 0;
	vg->suspended = 0;
	vg->label[0] = '\0';
}

/* An observer runs at depth 0: were it to call into the runtime, that
 * call would be judged on its own. */

void dfz__vg_observe_begin(struct dfz_rt *rt)
{
	struct dfz__vg *vg = rt->vg;

	if (vg->depth > 0)
		set_reporting(rt, false);
	vg->suspended = vg->depth;
	vg->depth = 0;
}

void dfz__vg_observe_end(struct dfz_rt *rt)
{
	struct dfz__vg *vg = rt->vg;

	if (vg->depth > 0)
		set_reporting(rt, false);
	vg->depth = vg->suspended;
	if (vg->depth > 0)
		set_reporting(rt, true);
}

static inline void copy_judged(struct dfz_rt *rt, void *dst, const void *src,
			       size_t n)
{
	bool judged = rt->vg && rt->vg->depth > 0;

	if (judged) {
		VALGRIND_DISABLE_ADDR_ERROR_REPORTING_IN_RANGE(dst, n);
		VALGRIND_DISABLE_ADDR_ERROR_REPORTING_IN_RANGE(src, n);
	}
	dfz__poison_copy(rt, dst, src, n);
	if (judged) {
		VALGRIND_ENABLE_ADDR_ERROR_REPORTING_IN_RANGE(dst, n);
		VALGRIND_ENABLE_ADDR_ERROR_REPORTING_IN_RANGE(src, n);
	}
}

/* cfg.sanitize: the definedness of what an engine copied into an
 * in-flight destination (which memcheck holds unaddressable, so the copy
 * itself carries none there), kept for the wait. A source memcheck cannot
 * read (a redzone, another transfer in flight) counts as defined. */
static void carry_vbits(struct dfz__vg *vg, const uint8_t *dst,
			const uint8_t *src, size_t n)
{
	for (unsigned k = 0; k < vg->nmarks; k++) {
		const struct vg_mark *m = &vg->mark[k];
		const uint8_t *mp = arena_base(vg->rt, m->level) + m->off;
		const uint8_t *lo = dst > mp ? dst : mp;
		const uint8_t *hi = dst + n < mp + m->len ? dst + n :
							    mp + m->len;

		if (!m->vbits || lo >= hi)
			continue;
		if (VALGRIND_GET_VBITS(src + (lo - dst), m->vbits + (lo - mp),
				       hi - lo) != 1)
			memset(m->vbits + (lo - mp), 0, (size_t)(hi - lo));
	}
}

void dfz__vg_move_lines(struct dfz_rt *rt, uint8_t *dst, size_t dst_pitch,
			const uint8_t *src, size_t src_pitch, size_t len,
			uint32_t lines)
{
	bool carry = rt->vg && rt->cfg.sanitize && rt->vg->nmarks;

	if (lines == 0)
		return;
	dfz__mem_ready_copy(rt, dst, (lines - 1) * dst_pitch + len, src,
			    (lines - 1) * src_pitch + len);
	if (!rt->vg) { /* natively: nothing to judge, nothing to carry */
		dfz__poison_copy_lines(rt, dst, dst_pitch, src, src_pitch, len,
				       lines);
		return;
	}
	for (; lines > 0; lines--, dst += dst_pitch, src += src_pitch) {
		copy_judged(rt, dst, src, len);
		if (carry)
			carry_vbits(rt->vg, dst, src, len);
	}
}

void dfz__vg_move(struct dfz_rt *rt, void *dst, const void *src, size_t n)
{
	dfz__vg_move_lines(rt, dst, 0, src, 0, n, 1);
}

void dfz__vg_copy(struct dfz_rt *rt, void *dst, const void *src, size_t n)
{
	copy_judged(rt, dst, src, n);
}

/* ----------------------------------------------------------------- blocks */

void dfz__vg_fresh(struct dfz_rt *rt, const void *p, size_t n)
{
	if (rt->vg)
		VALGRIND_MAKE_MEM_NOACCESS(p, n);
}

void dfz__vg_arena_reset(struct dfz_rt *rt, unsigned level)
{
	struct dfz__vg *vg = rt->vg;
	struct dfz_arena *a = &rt->arena[level];

	if (!vg)
		return;
	/* Teardown of the device context: what the host lost is lost now. */
	if (level == DFZ_DEV_LEVEL && vg->dev_owner && a->nblocks > 0)
		VALGRIND_DO_ADDED_LEAK_CHECK;
	for (uint32_t i = 0; i < a->nblocks; i++) {
		if (is_malloclike(rt, level, &a->block[i]))
			VALGRIND_FREELIKE_BLOCK(dev_addr(a->block[i].off), 0);
		forget_desc(&a->block[i]);
		a->block[i].vg = 0;
	}
	for (uint32_t q = 0; q < a->nquar; q++)
		dfz__vg_reclaim(rt, &a->quar[q]);
	/* A destination still in flight in the statics or a stack is the
	 * program's again (the heap's all goes below). */
	for (unsigned i = vg->nmarks; i-- > 0;)
		if (vg->mark[i].level == level)
			VALGRIND_MAKE_MEM_DEFINED(a->base + vg->mark[i].off,
						  vg->mark[i].len);
	drop_marks_in(vg, level, 0, a->cap);
	VALGRIND_MAKE_MEM_NOACCESS(heap_of(rt, level), heap_bytes(rt, level));
}

void dfz__vg_block_open(struct dfz_rt *rt, unsigned level, uint32_t start,
			uint32_t len)
{
	if (rt->vg)
		VALGRIND_MAKE_MEM_DEFINED(arena_base(rt, level) + start, len);
}

void dfz__vg_alloc(struct dfz_rt *rt, unsigned level, struct dfz_block *b)
{
	uint8_t *p = arena_base(rt, level) + b->off;

	b->vg = 0;
	if (!rt->vg)
		return;
	VALGRIND_MAKE_MEM_NOACCESS(p - DFZ_REDZONE, DFZ_REDZONE);
	VALGRIND_MAKE_MEM_NOACCESS(p + b->size, DFZ_REDZONE);
	/* cfg.sanitize: never written is undefined (the fill pattern's
	 * bytes are there, but no program wrote them) */
	if (rt->cfg.sanitize && level < DFZ_NLEVELS && VG_FRESH_UNDEFINED)
		VALGRIND_MAKE_MEM_UNDEFINED(p, b->size);
	if (level == DFZ_DEV_LEVEL && rt->vg->dev_owner)
		VALGRIND_MALLOCLIKE_BLOCK(dev_addr(b->off), b->size, 0, 1);
	name_blockf(rt, level, b, "%s allocation",
		    level == DFZ_DEV_LEVEL ? "device" : "memory-model");
}

void dfz__vg_free(struct dfz_rt *rt, unsigned level, struct dfz_block *b)
{
	if (!rt->vg)
		return;
	if (is_malloclike(rt, level, b))
		VALGRIND_FREELIKE_BLOCK(dev_addr(b->off), 0);
	forget_desc(b);
	drop_marks_in(rt->vg, level, b->off, b->size);
	VALGRIND_MAKE_MEM_NOACCESS(arena_base(rt, level) + b->off, b->size);
}

void dfz__vg_quarantine(struct dfz_rt *rt, unsigned level,
			struct dfz__qblock *e)
{
	e->vg = 0;
	if (!rt->vg)
		return;
	e->vg = 1 + describef(arena_base(rt, level) + e->off - DFZ_REDZONE,
			      (uint64_t)e->size + 2 * DFZ_REDZONE,
			      "freed memory-model block (%s block +0x%x, %u "
			      "bytes, %u-byte redzones), in quarantine",
			      level_names[level], e->off, e->size, DFZ_REDZONE);
}

void dfz__vg_reclaim(struct dfz_rt *rt, struct dfz__qblock *e)
{
	if (rt->vg && e->vg)
		VALGRIND_DISCARD(e->vg - 1);
	e->vg = 0;
}

void dfz__vg_dev_retire(struct dfz_rt *rt, uint64_t addr)
{
	struct dfz_block *b;

	if (!rt->vg || addr < DFZ_DEV_BASE || addr - DFZ_DEV_BASE >= DFZ_CAP_DEV)
		return;
	b = block_at(rt, DFZ_DEV_LEVEL, (uint32_t)(addr - DFZ_DEV_BASE));
	if (!b || b->off != addr - DFZ_DEV_BASE ||
	    !is_malloclike(rt, DFZ_DEV_LEVEL, b))
		return;
	VALGRIND_FREELIKE_BLOCK(dev_addr(b->off), 0);
	b->vg |= VG_RETIRED;
}

void dfz__vg_describe(struct dfz_rt *rt, const void *ptr, const char *fmt,
		      ...)
{
	struct dfz_span s;
	struct dfz_block *b;
	va_list ap;

	if (!rt->vg || !dfz_mem_locate(rt, ptr, 1, &s))
		return;
	b = block_at(rt, s.level, s.off);
	if (!b)
		return;
	va_start(ap, fmt);
	name_block(rt, s.level, b, fmt, ap);
	va_end(ap);
}

void dfz__vg_label(struct dfz_rt *rt, const char *fmt, ...)
{
	va_list ap;

	if (!rt->vg)
		return;
	rt->vg->label[0] = '\0';
	if (!fmt)
		return;
	va_start(ap, fmt);
	vsnprintf(rt->vg->label, sizeof(rt->vg->label), fmt, ap);
	va_end(ap);
}
