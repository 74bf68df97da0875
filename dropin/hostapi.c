// SPDX-License-Identifier: MIT
/*
 * The host-API session (include/dmafuzz/hostapi.h): the operations of a
 * host runtime's table (simpler's HostApiOps) by their member names, over
 * the host-API device and its judge, and the platform's state the table
 * keeps for the runtime (retained temporary buffers per pipeline slot,
 * the pooled regions per arena bank, the prebuilt-arena cache, the
 * graph-definition buffers).
 *
 * The line of the call: each operation captures its stack (glibc's
 * backtrace()) before the device sees the call, so a finding carries the
 * stack of the call that made it and a leak the stack that allocated the
 * block. Reports symbolize them with dropin/symbolize.c and name the
 * first frame outside dmafuzz and the table's own wrappers (HostApi::):
 * the user's line, unchanged sources, whatever the optimisation level.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__has_include)
#if __has_include(<execinfo.h>)
#include <execinfo.h>
#define HAVE_BACKTRACE 1
#endif
#endif

#include "crash.h"
#include "dmafuzz/hostapi.h"

#define SLOTS 8                     /* pipeline slots, arena banks */
#define CACHE 4
#define KEY_MAX 256

struct pooled {
	uint64_t size[DFZ_HAPI_POOLS];
	uint64_t addr[DFZ_HAPI_POOLS];
};

struct cached {
	bool used;
	uint32_t bank;
	uint64_t hash;
	size_t key_size;
	uint8_t key[KEY_MAX];
	void *heap, *sm, *arena;
	size_t off;
};

struct gdef {
	uint32_t slot;
	uint64_t key, addr, bytes;
};

struct dfz_hapi {
	struct dfz_hdev *dev;
	struct dfz_hjudge *judge;
	struct dfz_hapi_stack stack;
	uint64_t retained[SLOTS], retained_size[SLOTS];
	struct pooled pool[SLOTS];
	struct cached cache[CACHE];
	struct gdef gdef[SLOTS];
	uint32_t ngdef;
};

int dfz_hapi_create(struct dfz_hapi **out)
{
	struct dfz_hapi *s = calloc(1, sizeof(*s));

	if (!s || dfz_hdev_create(&s->dev) < 0 ||
	    dfz_hjudge_create(&s->judge) < 0) {
		dfz_hapi_destroy(s);
		return DFZ_ENOMEM;
	}
	dfz_hdev_observe(s->dev, dfz_hjudge_event, s->judge);
	dfz_hapi_begin(s, DFZ_HAPI_REPORT_UNWRITTEN, NULL, 0, 0,
		       DFZ_POISON_BYTE);
	*out = s;
	return 0;
}

void dfz_hapi_destroy(struct dfz_hapi *s)
{
	if (!s)
		return;
	dfz_hdev_destroy(s->dev);
	dfz_hjudge_destroy(s->judge);
	free(s);
}

struct dfz_hapi *dfz_hapi_default(void)
{
	static struct dfz_hapi *s;

	if (!s && dfz_hapi_create(&s) < 0)
		s = NULL;
	return s;
}

void dfz_hapi_begin(struct dfz_hapi *s, unsigned policy, const uint8_t *sched,
		    size_t n, uint64_t budget, uint8_t poison)
{
	dfz_hdev_reset(s->dev, budget, poison);
	dfz_hdev_schedule(s->dev, sched, n);
	dfz_hjudge_reset(s->judge, s->dev, policy);
	memset(s->retained, 0, sizeof(s->retained));
	memset(s->retained_size, 0, sizeof(s->retained_size));
	memset(s->pool, 0, sizeof(s->pool));
	memset(s->cache, 0, sizeof(s->cache));
	s->ngdef = 0;
}

const struct dfz_hapi_finding *dfz_hapi_finding(const struct dfz_hapi *s)
{
	return dfz_hjudge_finding(s->judge);
}

struct dfz_hdev *dfz_hapi_device(struct dfz_hapi *s)
{
	return s->dev;
}

/* The stack of the call under way, for the judge. */
static void enter(struct dfz_hapi *s)
{
#ifdef HAVE_BACKTRACE
	int n = backtrace(s->stack.pc, DFZ_HAPI_PCS);

	s->stack.n = n > 0 ? (uint32_t)n : 0;
#else
	s->stack.n = 0;
#endif
	dfz_hjudge_stack(s->judge, &s->stack);
}

void dfz_hapi_run_end(struct dfz_hapi *s)
{
	enter(s);
	dfz_hjudge_run_end(s->judge);
	dfz_hdev_next_run(s->dev);
}

void dfz_hapi_finalize(struct dfz_hapi *s)
{
	enter(s);
	dfz_hdev_note(s->dev, DFZ_HAPI_FINALIZE, 0, NULL, 0, 0);
	for (unsigned i = 0; i < SLOTS; i++) {
		dfz_hdev_free(s->dev, s->retained[i]);
		for (unsigned k = 0; k < DFZ_HAPI_POOLS; k++)
			dfz_hdev_free(s->dev, s->pool[i].addr[k]);
	}
	for (uint32_t i = 0; i < s->ngdef; i++)
		dfz_hdev_free(s->dev, s->gdef[i].addr);
	memset(s->retained, 0, sizeof(s->retained));
	memset(s->pool, 0, sizeof(s->pool));
	memset(s->cache, 0, sizeof(s->cache));
	s->ngdef = 0;
}

/* ------------------------------------------------------------ the table */

static uint64_t addr_of(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

static void *ptr_of(uint64_t a)
{
	return (void *)(uintptr_t)a;
}

void *dfz_hapi_device_malloc(struct dfz_hapi *s, size_t size)
{
	enter(s);
	return ptr_of(dfz_hdev_malloc(s->dev, size));
}

void dfz_hapi_device_free(struct dfz_hapi *s, void *dev)
{
	enter(s);
	dfz_hdev_free(s->dev, addr_of(dev));
}

int dfz_hapi_copy_to_device(struct dfz_hapi *s, void *dev, const void *host,
			    size_t size)
{
	enter(s);
	return dfz_hdev_copy_to(s->dev, addr_of(dev), host, size);
}

int dfz_hapi_copy_from_device(struct dfz_hapi *s, void *host, const void *dev,
			      size_t size)
{
	enter(s);
	return dfz_hdev_copy_from(s->dev, host, addr_of(dev), size);
}

int dfz_hapi_device_memset(struct dfz_hapi *s, void *dev, int value,
			   size_t size)
{
	enter(s);
	return dfz_hdev_memset(s->dev, addr_of(dev), value, size);
}

/* No host-map path (as a5 onboard): NULL, after judging the argument. */
void *dfz_hapi_register_device_memory_to_host(struct dfz_hapi *s, void *dev,
					      size_t bytes)
{
	enter(s);
	dfz_hdev_note(s->dev, DFZ_HAPI_MAP_HOST, addr_of(dev), NULL, bytes, 0);
	return NULL;
}

void dfz_hapi_unregister_device_memory_from_host(struct dfz_hapi *s,
						 void *dev)
{
	enter(s);
	if (dev)
		dfz_hdev_note(s->dev, DFZ_HAPI_UNMAP_HOST, addr_of(dev), NULL,
			      0, 0);
}

void dfz_hapi_get_retained_temp_buffer(struct dfz_hapi *s, uint32_t slot,
				       void **addr, size_t *size)
{
	if (addr)
		*addr = slot < SLOTS ? ptr_of(s->retained[slot]) : NULL;
	if (size)
		*size = slot < SLOTS ? (size_t)s->retained_size[slot] : 0;
}

void dfz_hapi_set_retained_temp_buffer(struct dfz_hapi *s, uint32_t slot,
				       void *addr, size_t size)
{
	enter(s);
	if (slot >= SLOTS) {
		dfz_hapi_unsupported(s, "set_retained_temp_buffer (slot >= 8)");
		return;
	}
	s->retained[slot] = addr_of(addr);
	s->retained_size[slot] = addr ? size : 0;
	dfz_hdev_note(s->dev, DFZ_HAPI_RETAIN, addr_of(addr), NULL, size, slot);
}

void dfz_hapi_unsupported(struct dfz_hapi *s, const char *member)
{
	enter(s);
	dfz_hjudge_unsupported(s->judge, member);
}

/* ------------------------------------------------------ the platform's */

/* The platform frees a block of its own (not judged as the runtime's). */
static void platform_free(struct dfz_hapi *s, uint64_t a)
{
	bool was = dfz_hjudge_platform(s->judge, true);

	dfz_hdev_free(s->dev, a);
	dfz_hjudge_platform(s->judge, was);
}

static void drop_bank(struct dfz_hapi *s, uint32_t bank)
{
	for (unsigned k = 0; k < DFZ_HAPI_POOLS; k++)
		platform_free(s, s->pool[bank].addr[k]);
	memset(&s->pool[bank], 0, sizeof(s->pool[bank]));
	for (unsigned i = 0; i < CACHE; i++)
		if (s->cache[i].bank == bank)
			s->cache[i].used = false;
}

int dfz_hapi_setup_static_arena(struct dfz_hapi *s, uint32_t bank,
				size_t heap, size_t sm, size_t rt_arena)
{
	const uint64_t want[DFZ_HAPI_POOLS] = { heap, sm, rt_arena };
	struct pooled *p;

	enter(s);
	if (bank >= SLOTS) {
		dfz_hjudge_unsupported(s->judge, "setup_static_arena (bank >= 8)");
		return -1;
	}
	p = &s->pool[bank];
	if (!memcmp(p->size, want, sizeof(want)) && p->addr[0])
		return 0;
	drop_bank(s, bank);
	for (unsigned k = 0; k < DFZ_HAPI_POOLS; k++) {
		if (!want[k])
			continue;
		p->addr[k] = dfz_hdev_pool(s->dev, k, want[k]);
		if (!p->addr[k]) {
			drop_bank(s, bank);
			return -1;
		}
		p->size[k] = want[k];
	}
	return 0;
}

void *dfz_hapi_acquire_pooled(struct dfz_hapi *s, uint32_t bank,
			      unsigned which)
{
	if (bank >= SLOTS || which >= DFZ_HAPI_POOLS)
		return NULL;
	return ptr_of(s->pool[bank].addr[which]);
}

static struct cached *cache_find(struct dfz_hapi *s, uint32_t bank,
				 uint64_t hash, const void *key, size_t n)
{
	for (unsigned i = 0; i < CACHE; i++) {
		struct cached *c = &s->cache[i];

		if (c->used && c->bank == bank && c->hash == hash &&
		    c->key_size == n && (!n || !memcmp(c->key, key, n)))
			return c;
	}
	return NULL;
}

bool dfz_hapi_lookup_cache(struct dfz_hapi *s, uint32_t bank, uint64_t hash,
			   const void *key, size_t key_size, void **heap,
			   void **sm, void **rt_arena, size_t *rt_off,
			   const void **image, size_t *image_size)
{
	struct cached *c = cache_find(s, bank, hash, key, key_size);

	if (!c)
		return false;
	*heap = c->heap;
	*sm = c->sm;
	*rt_arena = c->arena;
	*rt_off = c->off;
	*image = NULL;          /* the image bytes live on the device */
	*image_size = 0;
	return true;
}

void dfz_hapi_mark_cached(struct dfz_hapi *s, uint32_t bank, uint64_t hash,
			  const void *key, size_t key_size, void *heap,
			  void *sm, void *rt_arena, size_t rt_off)
{
	struct cached *c = cache_find(s, bank, hash, key, key_size);

	if (key_size > KEY_MAX)
		return;         /* not cached: a later run rebuilds */
	for (unsigned i = 0; !c && i < CACHE; i++)
		if (!s->cache[i].used)
			c = &s->cache[i];
	if (!c)
		c = &s->cache[hash % CACHE];
	*c = (struct cached){ true, bank, hash, key_size, { 0 }, heap, sm,
			      rt_arena, rt_off };
	if (key_size)
		memcpy(c->key, key, key_size);
}

void *dfz_hapi_acquire_graph_definition_buffer(struct dfz_hapi *s,
					       uint32_t slot, uint64_t key,
					       size_t bytes, size_t align)
{
	struct gdef *g = NULL;

	enter(s);
	if (align > 4096 || (align & (align - 1))) {
		dfz_hjudge_unsupported(s->judge, "acquire_graph_definition_"
				       "buffer (alignment above 4096)");
		return NULL;
	}
	for (uint32_t i = 0; i < s->ngdef; i++)
		if (s->gdef[i].slot == slot && s->gdef[i].key == key)
			g = &s->gdef[i];
	if (g && g->bytes >= bytes)
		return ptr_of(g->addr);
	if (!g && s->ngdef == SLOTS) {
		dfz_hjudge_unsupported(s->judge, "acquire_graph_definition_"
				       "buffer (more than 8 keys)");
		return NULL;
	}
	if (!g)
		g = &s->gdef[s->ngdef++];
	else
		platform_free(s, g->addr);
	*g = (struct gdef){ slot, key, dfz_hdev_pool(s->dev, DFZ_HAPI_POOLS,
						     bytes), bytes };
	return ptr_of(g->addr);
}

int dfz_hapi_kernel_write(struct dfz_hapi *s, void *dev, const void *src,
			  size_t n)
{
	enter(s);
	return dfz_hdev_kernel_write(s->dev, addr_of(dev), src, n);
}

int dfz_hapi_kernel_read(struct dfz_hapi *s, void *dst, const void *dev,
			 size_t n)
{
	enter(s);
	return dfz_hdev_kernel_read(s->dev, dst, addr_of(dev), n);
}

/* -------------------------------------------------------------- reports */

/* The table's own wrappers (HostApi::) and the adapter's forwarders
 * (dfz::hostapi::, inlined or tail-called into the user's file). */
static bool is_wrapper(const struct dfz__sym *y)
{
	return !strncmp(y->func, "_ZNK7HostApi", 12) ||
	       !strncmp(y->func, "_ZN7HostApi", 11) ||
	       !strncmp(y->func, "HostApi::", 9) ||
	       !strncmp(y->func, "_ZN3dfz", 7) || !strncmp(y->func, "dfz::", 5);
}

/* Symbolize @st; @first: out, the index of the user's frame (-1). */
static unsigned symbolize(const struct dfz_hapi_stack *st,
			  struct dfz__sym *out, unsigned max, int *first)
{
	uintptr_t pc[DFZ_HAPI_PCS];
	unsigned n;

	for (uint32_t i = 0; i < st->n; i++)
		pc[i] = (uintptr_t)st->pc[i] - (i > 0);
	n = st->n ? dfz__symbolize(pc, st->n, out, max) : 0;
	*first = -1;
	for (unsigned i = 0; i < n && *first < 0; i++)
		if (!out[i].ours && !is_wrapper(&out[i]) && out[i].line)
			*first = (int)i;
	return n;
}

static void print_stack(FILE *f, const char *what,
			const struct dfz_hapi_stack *st)
{
	static struct dfz__sym y[DFZ_HAPI_PCS * 4];
	int first;
	unsigned n = symbolize(st, y, DFZ_HAPI_PCS * 4, &first);

	if (!st->n)
		return;
	fprintf(f, "  %s:\n", what);
	for (unsigned i = first < 0 ? 0 : (unsigned)first, k = 0;
	     i < n && k < 6; i++, k++)
		fprintf(f, "    #%u %s:%d in %s\n", k, y[i].file, y[i].line,
			y[i].func);
}

char *dfz_hapi_site(const struct dfz_hapi *s, char *buf, size_t n)
{
	static struct dfz__sym y[DFZ_HAPI_PCS * 4];
	const struct dfz_hapi_finding *f = dfz_hapi_finding(s);
	const struct dfz_hapi_stack *st;
	int first = -1;

	snprintf(buf, n, "?");
	if (!f)
		return buf;
	/* A leak is at the line that allocated the block. */
	st = !strcmp(f->cls, "dev.leak") && f->alloc.n ? &f->alloc : &f->at;
	symbolize(st, y, DFZ_HAPI_PCS * 4, &first);
	if (first >= 0)
		snprintf(buf, n, "%s:%d", y[first].file, y[first].line);
	return buf;
}

int dfz_hapi_report(const struct dfz_hapi *s, void *out)
{
	const struct dfz_hapi_finding *f = dfz_hapi_finding(s);
	FILE *fp = out;
	char site[256];

	if (!f)
		return 0;
	fprintf(fp, "dmafuzz: %s at %s: %s (run %u)\n", f->cls,
		dfz_hapi_site(s, site, sizeof(site)), f->msg, f->run);
	print_stack(fp, "call", &f->at);
	print_stack(fp, "block allocated by", &f->alloc);
	print_stack(fp, "block freed by", &f->freed);
	return 1;
}
