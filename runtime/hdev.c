// SPDX-License-Identifier: MIT
/*
 * The host-API device (include/dmafuzz/hostapi.h): device memory behind a
 * host runtime's table of operations. Addresses come from a reserved
 * range mapped PROT_NONE, so host code that dereferences a device address
 * faults at its own line, and are handed out in increasing order with a
 * gap between blocks, never reused within a session: a stale or wild
 * address names no live block. A block's bytes live elsewhere (allocated
 * at its first write). Each block keeps, as sorted intervals, the run
 * that last wrote each byte; a byte in no interval was never written and
 * reads as the poison byte. The schedule's failures are looked up by
 * (call, ordinal). Every call is published to the observer.
 */
#define _DEFAULT_SOURCE /* MAP_NORESERVE, MAP_ANONYMOUS */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "runtime_int.h"
#include "dmafuzz/hostapi.h"

#define RANGE (1ull << 34)          /* device addresses reserved: 16 GiB */
#define GAP 4096u                   /* between two blocks, and alignment */
#define DEFAULT_BUDGET (1ull << 30)
#define FAILS 16

struct ivl {
	uint64_t lo, hi;            /* [lo, hi) offsets into the block */
	uint32_t run;
	uint8_t op;                 /* the call that wrote it */
};

struct blk {
	uint64_t addr, size;
	bool live;
	uint8_t *bytes;             /* NULL until written */
	struct ivl *iv;
	uint32_t niv, cap;
};

struct fail {
	uint8_t op;
	bool partial;
	uint32_t ordinal;
	int rc;
};

struct dfz_hdev {
	uint8_t *range;
	uint64_t next;              /* offset of the next block */
	struct blk *b;              /* by address */
	uint32_t nb, capb;
	uint64_t live, budget;
	uint32_t run;
	uint8_t poison;
	uint64_t seq;
	uint32_t count[DFZ_HAPI_FALLIBLE];
	struct fail fail[FAILS];
	uint32_t nfail;
	dfz_hdev_observer fn;
	void *ctx;
};

static const char *const op_names[] = {
#define DFZ_HAPI_OP_NAME(id, name) name,
	DFZ_HAPI_OP_MAP(DFZ_HAPI_OP_NAME)
#undef DFZ_HAPI_OP_NAME
};

const char *dfz_hapi_op_name(unsigned op)
{
	return op < DFZ_HAPI_OP_COUNT ? op_names[op] : "call?";
}

/* --------------------------------------------------------------- lifecycle */

int dfz_hdev_create(struct dfz_hdev **out)
{
	struct dfz_hdev *d = calloc(1, sizeof(*d));
	void *r;

	if (!d)
		return DFZ_ENOMEM;
	r = mmap(NULL, RANGE, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (r == MAP_FAILED) {
		free(d);
		return DFZ_ENOMEM;
	}
	d->range = r;
	dfz_hdev_reset(d, 0, DFZ_POISON_BYTE);
	*out = d;
	return 0;
}

static void drop_blocks(struct dfz_hdev *d)
{
	for (uint32_t i = 0; i < d->nb; i++) {
		free(d->b[i].bytes);
		free(d->b[i].iv);
	}
	d->nb = 0;
}

void dfz_hdev_destroy(struct dfz_hdev *d)
{
	if (!d)
		return;
	drop_blocks(d);
	free(d->b);
	munmap(d->range, RANGE);
	free(d);
}

void dfz_hdev_observe(struct dfz_hdev *d, dfz_hdev_observer fn, void *ctx)
{
	d->fn = fn;
	d->ctx = ctx;
}

void dfz_hdev_reset(struct dfz_hdev *d, uint64_t budget, uint8_t poison)
{
	drop_blocks(d);
	d->next = GAP;
	d->live = 0;
	d->budget = budget ? budget : DEFAULT_BUDGET;
	d->run = 1;
	d->poison = poison;
	d->seq = 0;
	d->nfail = 0;
	memset(d->count, 0, sizeof(d->count));
}

void dfz_hdev_next_run(struct dfz_hdev *d)
{
	d->run++;
}

uint32_t dfz_hdev_run(const struct dfz_hdev *d)
{
	return d->run;
}

/* ---------------------------------------------------------------- failures */

int dfz_hdev_fail(struct dfz_hdev *d, unsigned op, uint32_t ordinal, int rc,
		  bool partial)
{
	if (op >= DFZ_HAPI_FALLIBLE || rc == 0 || d->nfail >= FAILS)
		return DFZ_EINVAL;
	d->fail[d->nfail++] = (struct fail){ (uint8_t)op, partial, ordinal,
					     rc };
	return 0;
}

unsigned dfz_hdev_schedule(struct dfz_hdev *d, const uint8_t *s, size_t n)
{
	unsigned k = 0;

	for (size_t i = 0; s && i + 3 <= n; i += 3)
		if (dfz_hdev_fail(d, s[i] % DFZ_HAPI_FALLIBLE, s[i + 1],
				  -(1 + (s[i + 2] >> 1) % 8),
				  s[i + 2] & 1) == 0)
			k++;
	return k;
}

/* The failure scheduled for this call of @op, or NULL; counts the call. */
static const struct fail *take_fail(struct dfz_hdev *d, unsigned op)
{
	uint32_t ord = d->count[op]++;

	for (uint32_t i = 0; i < d->nfail; i++)
		if (d->fail[i].op == op && d->fail[i].ordinal == ord)
			return &d->fail[i];
	return NULL;
}

/* ------------------------------------------------------------------ events */

static void publish(struct dfz_hdev *d, unsigned op, int rc, bool injected,
		    uint64_t dev, const void *host, uint64_t n, uint32_t aux)
{
	struct dfz_hdev_ev ev = { (uint8_t)op, rc, injected, dev, host, n,
				  aux, ++d->seq };

	if (d->fn)
		d->fn(d->ctx, &ev);
}

void dfz_hdev_note(struct dfz_hdev *d, unsigned op, uint64_t dev,
		   const void *host, uint64_t n, uint32_t aux)
{
	publish(d, op, 0, false, dev, host, n, aux);
}

/* ------------------------------------------------------------------ blocks */

bool dfz_hdev_is_dev(const struct dfz_hdev *d, uint64_t p)
{
	uint64_t base = (uintptr_t)d->range;

	return p >= base && p - base < RANGE;
}

/* The block (live or freed) whose address range holds @a, or NULL. */
static struct blk *find(const struct dfz_hdev *d, uint64_t a)
{
	uint32_t lo = 0, hi = d->nb;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (d->b[mid].addr + d->b[mid].size <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < d->nb && d->b[lo].addr <= a &&
	    a - d->b[lo].addr < d->b[lo].size)
		return &d->b[lo];
	return NULL;
}

/* The live block holding all of [a, a+n), or NULL. */
static struct blk *live_range(const struct dfz_hdev *d, uint64_t a,
			      uint64_t n)
{
	struct blk *b = find(d, a);

	if (!b || !b->live || n > b->size - (a - b->addr))
		return NULL;
	return b;
}

static uint64_t new_block(struct dfz_hdev *d, uint64_t size)
{
	struct blk *b;
	uint64_t span = (size + GAP - 1) / GAP * GAP + GAP;

	if (size == 0 || size > d->budget || d->live > d->budget - size ||
	    span > RANGE - d->next)
		return 0;
	if (d->nb == d->capb) {
		uint32_t cap = d->capb ? d->capb * 2 : 64;
		struct blk *nb = realloc(d->b, cap * sizeof(*nb));

		if (!nb)
			return 0;
		d->b = nb;
		d->capb = cap;
	}
	b = &d->b[d->nb++];
	memset(b, 0, sizeof(*b));
	b->addr = (uintptr_t)d->range + d->next;
	b->size = size;
	b->live = true;
	d->next += span;
	d->live += size;
	return b->addr;
}

uint64_t dfz_hdev_live(const struct dfz_hdev *d, uint32_t *blocks)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < d->nb; i++)
		k += d->b[i].live;
	if (blocks)
		*blocks = k;
	return d->live;
}

/* ------------------------------------------------------------ byte record */

static int reserve_iv(struct blk *b, uint32_t more)
{
	struct ivl *iv;
	uint32_t cap;

	if (b->niv + more <= b->cap)
		return 0;
	cap = (b->niv + more) * 2;
	iv = realloc(b->iv, cap * sizeof(*iv));
	if (!iv)
		return DFZ_ENOMEM;
	b->iv = iv;
	b->cap = cap;
	return 0;
}

/* [lo, hi) of @b was written in @run: cut what it covers, insert it. */
static int mark(struct blk *b, uint64_t lo, uint64_t hi, uint32_t run,
		uint8_t op)
{
	uint32_t i, w = 0, at;

	if (reserve_iv(b, 2) < 0)
		return DFZ_ENOMEM;
	for (i = 0; i < b->niv && b->iv[i].hi <= lo; i++)
		;
	at = i;
	if (i < b->niv && b->iv[i].lo < lo) {
		struct ivl left = b->iv[i];

		left.hi = lo;
		memmove(&b->iv[i + 1], &b->iv[i],
			(b->niv - i) * sizeof(*b->iv));
		b->iv[i] = left;
		b->iv[i + 1].lo = lo;
		b->niv++;
		at = ++i;
	}
	for (w = i; i < b->niv && b->iv[i].lo < hi; i++)
		if (b->iv[i].hi > hi) {
			b->iv[i].lo = hi;
			break;
		}
	memmove(&b->iv[w + 1], &b->iv[i], (b->niv - i) * sizeof(*b->iv));
	b->niv = w + 1 + (b->niv - i);
	b->iv[at] = (struct ivl){ lo, hi, run, op };
	return 0;
}

static int bytes_of(struct blk *b)
{
	if (!b->bytes)
		b->bytes = calloc(1, (size_t)b->size);
	return b->bytes ? 0 : DFZ_ENOMEM;
}

/* Write @n bytes at @a from @src (NULL: @value), marked this run and
 * call @op. */
static int dev_write(struct dfz_hdev *d, struct blk *b, uint64_t a,
		     const void *src, int value, uint64_t n, unsigned op)
{
	uint64_t off = a - b->addr;

	if (n == 0)
		return 0;
	if (bytes_of(b) < 0)
		return DFZ_ENOMEM;
	if (src)
		memmove(b->bytes + off, src, (size_t)n);
	else
		memset(b->bytes + off, value, (size_t)n);
	return mark(b, off, off + n, d->run, (uint8_t)op);
}

/* Read @n bytes at @a: the bytes written, the poison byte elsewhere. */
static void dev_read(const struct dfz_hdev *d, const struct blk *b,
		     uint64_t a, void *dst, uint64_t n)
{
	uint64_t lo = a - b->addr, hi = lo + n;

	memset(dst, d->poison, (size_t)n);
	for (uint32_t i = 0; i < b->niv; i++) {
		uint64_t s = b->iv[i].lo > lo ? b->iv[i].lo : lo;
		uint64_t e = b->iv[i].hi < hi ? b->iv[i].hi : hi;

		if (s < e)
			memcpy((uint8_t *)dst + (s - lo), b->bytes + s,
			       (size_t)(e - s));
	}
}

/* Count [at, s) as never written. */
static void count_never(struct dfz_hdev_bytes *out, uint64_t at, uint64_t s,
			uint64_t lo)
{
	if (s <= at)
		return;
	if (!out->never)
		out->first_never = at - lo;
	out->never += s - at;
}

int dfz_hdev_state(const struct dfz_hdev *d, uint64_t dev, uint64_t n,
		   struct dfz_hdev_bytes *out)
{
	const struct blk *b = live_range(d, dev, n);
	uint64_t lo, at, end;

	memset(out, 0, sizeof(*out));
	if (!b)
		return DFZ_EFAULT;
	lo = at = dev - b->addr;
	end = lo + n;
	for (uint32_t i = 0; i < b->niv && at < end; i++) {
		const struct ivl *v = &b->iv[i];
		uint64_t s = v->lo > at ? v->lo : at;
		uint64_t e = v->hi < end ? v->hi : end;

		if (v->hi <= at)
			continue;
		if (s >= end)
			break;
		count_never(out, at, s, lo);
		if (v->run < d->run) {
			if (!out->stale) {
				out->first_stale = s - lo;
				out->stale_run = v->run;
				out->stale_op = v->op;
			}
			out->stale += e - s;
		}
		at = e;
	}
	count_never(out, at, end, lo);
	return 0;
}

/* ------------------------------------------------------------------ calls */

uint64_t dfz_hdev_malloc(struct dfz_hdev *d, uint64_t size)
{
	const struct fail *f = take_fail(d, DFZ_HAPI_MALLOC);
	uint64_t a = f ? 0 : new_block(d, size);

	publish(d, DFZ_HAPI_MALLOC, a ? 0 : (f ? f->rc : DFZ_ENOMEM), f != NULL,
		a, NULL, size, 0);
	return a;
}

uint64_t dfz_hdev_pool(struct dfz_hdev *d, unsigned which, uint64_t size)
{
	unsigned op = which < DFZ_HAPI_POOLS ? DFZ_HAPI_ARENA :
					       DFZ_HAPI_GRAPH_DEF;
	const struct fail *f = take_fail(d, op);
	uint64_t a = f ? 0 : new_block(d, size);

	publish(d, op, a ? 0 : (f ? f->rc : DFZ_ENOMEM), f != NULL, a, NULL,
		size, which);
	return a;
}

int dfz_hdev_free(struct dfz_hdev *d, uint64_t dev)
{
	struct blk *b = dev ? find(d, dev) : NULL;
	int rc = 0;

	if (dev && (!b || !b->live || b->addr != dev)) {
		rc = DFZ_ENOENT;
	} else if (b) {
		b->live = false;
		d->live -= b->size;
		free(b->bytes);
		b->bytes = NULL;
		b->niv = 0;
	}
	publish(d, DFZ_HAPI_FREE, rc, false, dev, NULL, b ? b->size : 0, 0);
	return rc;
}

/* A copy or memset of @n bytes at @dev: EFAULT outside one live block;
 * a scheduled failure moves half (partial) or nothing. @src NULL: set. */
static int put(struct dfz_hdev *d, unsigned op, uint64_t dev,
	       const void *src, int value, uint64_t n)
{
	const struct fail *f = take_fail(d, op);
	bool hostdev = src && dfz_hdev_is_dev(d, (uintptr_t)src);
	struct blk *b = hostdev ? NULL : live_range(d, dev, n);
	int rc = b ? 0 : DFZ_EFAULT;

	if (b && f)
		rc = f->partial ? dev_write(d, b, dev, src, value, n / 2, op) :
				  0;
	else if (b)
		rc = dev_write(d, b, dev, src, value, n, op);
	if (b && f && rc == 0)
		rc = f->rc;
	publish(d, op, rc, b && f, dev, op == DFZ_HAPI_COPY_TO ? src : NULL, n,
		0);
	return rc;
}

int dfz_hdev_copy_to(struct dfz_hdev *d, uint64_t dev, const void *host,
		     uint64_t n)
{
	if (!host) {
		publish(d, DFZ_HAPI_COPY_TO, DFZ_EINVAL, false, dev, NULL, n, 0);
		return DFZ_EINVAL;
	}
	return put(d, DFZ_HAPI_COPY_TO, dev, host, 0, n);
}

int dfz_hdev_memset(struct dfz_hdev *d, uint64_t dev, int value, uint64_t n)
{
	return put(d, DFZ_HAPI_MEMSET, dev, NULL, value, n);
}

int dfz_hdev_copy_from(struct dfz_hdev *d, void *host, uint64_t dev,
		       uint64_t n)
{
	const struct fail *f = take_fail(d, DFZ_HAPI_COPY_FROM);
	struct blk *b = live_range(d, dev, n);
	bool hostdev = dfz_hdev_is_dev(d, (uintptr_t)host);
	int rc = b && host && !hostdev ? 0 : DFZ_EFAULT;

	if (rc == 0)
		dev_read(d, b, dev, host, f && f->partial ? n / 2 :
					  f ? 0 : n);
	if (rc == 0 && f)
		rc = f->rc;
	publish(d, DFZ_HAPI_COPY_FROM, rc, f != NULL && rc == (f ? f->rc : 0), dev, host, n,
		0);
	return rc;
}

int dfz_hdev_kernel_write(struct dfz_hdev *d, uint64_t dev, const void *src,
			  uint64_t n)
{
	struct blk *b = live_range(d, dev, n);
	int rc = b ? dev_write(d, b, dev, src, 0, n, DFZ_HAPI_KWRITE) :
		     DFZ_EFAULT;

	publish(d, DFZ_HAPI_KWRITE, rc, false, dev, NULL, n, 0);
	return rc;
}

int dfz_hdev_kernel_read(struct dfz_hdev *d, void *dst, uint64_t dev,
			 uint64_t n)
{
	struct blk *b = live_range(d, dev, n);

	if (b)
		dev_read(d, b, dev, dst, n);
	publish(d, DFZ_HAPI_KREAD, b ? 0 : DFZ_EFAULT, false, dev, NULL, n, 0);
	return b ? 0 : DFZ_EFAULT;
}
