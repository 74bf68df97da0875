// SPDX-License-Identifier: MIT
/*
 * The judge of a host runtime's device calls (include/dmafuzz/hostapi.h):
 * its own ledger of the device's blocks, kept from the device's events,
 * with who owns each (the runtime's device_malloc, a retained slot, the
 * platform's pooled regions and graph-definition buffers), the stacks
 * that allocated and freed it, and whether host code ever wrote it. It
 * reads the device's per-byte record (dfz_hdev_state) as other oracles
 * read memory, and never drives the device.
 *
 * dev.misuse     a free of anything but a live runtime block's start
 *                (double free, untracked, inside a block, a pooled
 *                region), a range outside one live block.
 * dev.child-memory  a host pointer where device memory is expected, or
 *                a device address where host memory is expected.
 * mem.undefined  device bytes read (copy back, or the kernel) that a
 *                previous run wrote (stale), that lie in a platform
 *                region no host code wrote, or (policy) never written.
 * dev.leak       runtime blocks growing from one run's end to the next,
 *                or live after the platform's finalize.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle_int.h"
#include "dmafuzz/hostapi.h"

enum own { OWN_RT, OWN_POOL, OWN_GDEF };

struct ent {
	uint64_t addr, size;
	uint8_t own;                 /* enum own */
	uint8_t pool;                /* OWN_POOL: enum dfz_hapi_pool */
	bool live;
	bool host_wrote;             /* a copy to the device or a memset */
	int32_t slot;                /* retained in this slot, or -1 */
	uint32_t run;
	uint64_t seq;
	struct dfz_hapi_stack alloc, freed;
};

struct dfz_hjudge {
	const struct dfz_hdev *dev;
	unsigned policy;
	struct ent *e;               /* by address */
	uint32_t ne, cap;
	const struct dfz_hapi_stack *cur;
	struct dfz_hapi_finding first;
	uint32_t nfound;
	bool platform;               /* the platform's finalize frees */
	bool has_base;
	uint64_t base_bytes, base_seq;
};

int dfz_hjudge_create(struct dfz_hjudge **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : DFZ_ENOMEM;
}

void dfz_hjudge_destroy(struct dfz_hjudge *j)
{
	if (j)
		free(j->e);
	free(j);
}

void dfz_hjudge_reset(struct dfz_hjudge *j, const struct dfz_hdev *d,
		      unsigned policy)
{
	j->dev = d;
	j->policy = policy;
	j->ne = 0;
	j->cur = NULL;
	j->nfound = 0;
	memset(&j->first, 0, sizeof(j->first));
	j->platform = false;
	j->has_base = false;
}

void dfz_hjudge_stack(struct dfz_hjudge *j, const struct dfz_hapi_stack *s)
{
	j->cur = s;
}

const struct dfz_hapi_finding *dfz_hjudge_finding(const struct dfz_hjudge *j)
{
	return j->nfound ? &j->first : NULL;
}

/* ---------------------------------------------------------------- findings */

static void fail(struct dfz_hjudge *j, const char *cls, const struct ent *e,
		 const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void fail(struct dfz_hjudge *j, const char *cls, const struct ent *e,
		 const char *fmt, ...)
{
	struct dfz_hapi_finding *f = &j->first;
	va_list ap;

	if (j->nfound++)
		return;
	snprintf(f->cls, sizeof(f->cls), "%s", cls);
	va_start(ap, fmt);
	vsnprintf(f->msg, sizeof(f->msg), fmt, ap);
	va_end(ap);
	f->run = dfz_hdev_run(j->dev);
	if (j->cur)
		f->at = *j->cur;
	if (e) {
		f->alloc = e->alloc;
		f->freed = e->freed;
	}
}

bool dfz_hjudge_platform(struct dfz_hjudge *j, bool on)
{
	bool was = j->platform;

	j->platform = on;
	return was;
}

void dfz_hjudge_unsupported(struct dfz_hjudge *j, const char *member)
{
	fail(j, "api.unsupported", NULL, "HostApiOps::%s is not modelled by "
	     "dmafuzz's device (expected only the members the adapter "
	     "models; see docs/host-runtime.md)", member);
}

/* ------------------------------------------------------------------ ledger */

/* The entry (live or freed) whose range holds @a, or NULL. */
static struct ent *find(const struct dfz_hjudge *j, uint64_t a)
{
	uint32_t lo = 0, hi = j->ne;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (j->e[mid].addr + j->e[mid].size <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < j->ne && j->e[lo].addr <= a &&
	    a - j->e[lo].addr < j->e[lo].size)
		return &j->e[lo];
	return NULL;
}

static void add(struct dfz_hjudge *j, const struct dfz_hdev_ev *ev,
		uint8_t own)
{
	struct ent *e;

	if (j->ne == j->cap) {
		uint32_t cap = j->cap ? j->cap * 2 : 64;
		struct ent *n = realloc(j->e, cap * sizeof(*n));

		if (!n)
			return;      /* untracked: a missed report at worst */
		j->e = n;
		j->cap = cap;
	}
	e = &j->e[j->ne++];
	memset(e, 0, sizeof(*e));
	e->addr = ev->dev;
	e->size = ev->n;
	e->own = own;
	e->pool = (uint8_t)ev->aux;
	e->live = true;
	e->slot = -1;
	e->run = dfz_hdev_run(j->dev);
	e->seq = ev->seq;
	if (j->cur)
		e->alloc = *j->cur;
}

static const char *own_name(const struct ent *e)
{
	static const char *const pool[] = { "pooled GM heap",
					    "pooled shared memory (gm_sm)",
					    "pooled runtime arena" };

	if (e->own == OWN_POOL)
		return e->pool < DFZ_HAPI_POOLS ? pool[e->pool] : "pool";
	if (e->own == OWN_GDEF)
		return "graph-definition buffer";
	return e->slot >= 0 ? "retained temp buffer" : "device_malloc block";
}

/* ------------------------------------------------------------------ frees */

static void judge_free(struct dfz_hjudge *j, const struct dfz_hdev_ev *ev)
{
	const char *want = "the start of a live block from device_malloc";
	struct ent *e = find(j, ev->dev);
	unsigned long long a = ev->dev;

	if (!dfz_hdev_is_dev(j->dev, ev->dev)) {
		fail(j, "dev.child-memory", NULL, "device_free(%#llx): a host "
		     "pointer, not device memory (expected %s)", a, want);
	} else if (!e) {
		fail(j, "dev.misuse", NULL, "device_free(%#llx): an untracked "
		     "pointer, never allocated (expected %s)", a, want);
	} else if (e->addr != ev->dev) {
		fail(j, "dev.misuse", e, "device_free(%#llx): an untracked "
		     "pointer, %llu bytes into a %s %llu-byte %s (expected %s)",
		     a, (unsigned long long)(ev->dev - e->addr),
		     e->live ? "live" : "freed", (unsigned long long)e->size,
		     own_name(e), want);
	} else if (!e->live) {
		fail(j, "dev.misuse", e, "device_free(%#llx): double free of a "
		     "%llu-byte %s (expected %s)", a,
		     (unsigned long long)e->size, own_name(e), want);
	} else if (e->own != OWN_RT && !j->platform) {
		fail(j, "dev.misuse", e, "device_free(%#llx): frees the %s the "
		     "platform owns and frees at finalize (expected %s)", a,
		     own_name(e), want);
	} else {
		e->live = false;
		e->slot = -1;
		if (j->cur)
			e->freed = *j->cur;
	}
}

/* --------------------------------------------------------------- accesses */

/* A device argument @dev of @n bytes: device memory inside one live
 * block. Return: its entry, or NULL after a finding. */
static struct ent *judge_dev(struct dfz_hjudge *j,
			     const struct dfz_hdev_ev *ev)
{
	const char *call = dfz_hapi_op_name(ev->op);
	unsigned long long a = ev->dev, n = ev->n;
	struct ent *e = find(j, ev->dev);

	if (!dfz_hdev_is_dev(j->dev, ev->dev)) {
		fail(j, "dev.child-memory", NULL, "%s: %#llx (%llu bytes) is "
		     "not device memory (expected a device address: a host "
		     "pointer labelled as device memory?)", call, a, n);
		return NULL;
	}
	if (e && e->live && n <= e->size - (a - e->addr))
		return e;
	if (!e)
		fail(j, "dev.misuse", NULL, "%s: %#llx+%llu lies in no block "
		     "ever allocated (expected a range inside one live block)",
		     call, a, n);
	else if (!e->live)
		fail(j, "dev.misuse", e, "%s: %#llx+%llu uses a %llu-byte %s "
		     "after it was freed (expected a live block)", call, a, n,
		     (unsigned long long)e->size, own_name(e));
	else
		fail(j, "dev.misuse", e, "%s: %#llx+%llu runs %llu bytes past "
		     "the end of a %llu-byte %s (expected a range inside it)",
		     call, a, n, a + n - e->addr - e->size,
		     (unsigned long long)e->size, own_name(e));
	return NULL;
}

static bool judge_host(struct dfz_hjudge *j, const struct dfz_hdev_ev *ev)
{
	if (!ev->host || !dfz_hdev_is_dev(j->dev, (uintptr_t)ev->host))
		return true;
	fail(j, "dev.child-memory", NULL, "%s: the host pointer %p is device "
	     "memory (expected host memory: device memory handed back as "
	     "host memory?)", dfz_hapi_op_name(ev->op), ev->host);
	return false;
}

/* Bytes read from the device: stale, in a region nothing wrote from the
 * host, or (policy) never written. */
static void judge_read(struct dfz_hjudge *j, const struct dfz_hdev_ev *ev,
		       const struct ent *e)
{
	const char *call = dfz_hapi_op_name(ev->op);
	struct dfz_hdev_bytes b;
	unsigned long long a = ev->dev, n = ev->n;

	if (dfz_hdev_state(j->dev, ev->dev, ev->n, &b) < 0)
		return;
	if (b.stale)
		fail(j, "mem.undefined", e, "%s: %#llx+%llu returns %llu bytes "
		     "(first at +%llu) that run %u left in the %s (written by "
		     "%s), not written in this run (expected bytes written by "
		     "this run)", call, a, n, (unsigned long long)b.stale,
		     (unsigned long long)b.first_stale, b.stale_run,
		     own_name(e), dfz_hapi_op_name(b.stale_op));
	else if (b.never && e->own != OWN_RT && !e->host_wrote)
		fail(j, "mem.undefined", e, "%s: %#llx+%llu reads %llu unwritten "
		     "bytes of the %s, a region no host code wrote (expected "
		     "the region written before it is read)", call, a, n,
		     (unsigned long long)b.never, own_name(e));
	else if (b.never && j->policy == DFZ_HAPI_REPORT_UNWRITTEN)
		fail(j, "mem.undefined", e, "%s: %#llx+%llu returns %llu bytes "
		     "(first at +%llu) never written: not copied in, not "
		     "cleared, not written by the kernel (expected every byte "
		     "read written first; policy report-unwritten)", call, a,
		     n, (unsigned long long)b.never,
		     (unsigned long long)b.first_never);
}

static void judge_retain(struct dfz_hjudge *j, const struct dfz_hdev_ev *ev)
{
	struct ent *e;

	for (uint32_t i = 0; i < j->ne; i++)
		if (j->e[i].slot == (int32_t)ev->aux)
			j->e[i].slot = -1;
	if (!ev->dev || !(e = judge_dev(j, ev)))
		return;
	if (e->addr != ev->dev || e->own != OWN_RT)
		fail(j, "dev.misuse", e, "set_retained_temp_buffer(%#llx): not "
		     "the start of a device_malloc block (expected one)",
		     (unsigned long long)ev->dev);
	else
		e->slot = (int32_t)ev->aux;
}

/* ------------------------------------------------------------------ leaks */

/* Live runtime bytes (device_malloc blocks in no retained slot); @young:
 * the newest of them allocated after @since. */
static uint64_t rt_bytes(const struct dfz_hjudge *j, uint64_t since,
			 const struct ent **young, uint32_t *n)
{
	uint64_t bytes = 0;

	*young = NULL;
	*n = 0;
	for (uint32_t i = 0; i < j->ne; i++) {
		const struct ent *e = &j->e[i];

		if (!e->live || e->own != OWN_RT || e->slot >= 0)
			continue;
		bytes += e->size;
		if (e->seq <= since)
			continue;
		++*n;
		if (!*young || e->seq > (*young)->seq)
			*young = e;
	}
	return bytes;
}

void dfz_hjudge_run_end(struct dfz_hjudge *j)
{
	const struct ent *e;
	uint32_t n;
	uint64_t bytes = rt_bytes(j, j->base_seq, &e, &n);

	if (j->has_base && bytes > j->base_bytes && e)
		fail(j, "dev.leak", e, "runtime device memory grew by %llu "
		     "bytes from the end of run %u to the end of run %u "
		     "(%llu -> %llu; expected no growth per run): %u block%s "
		     "from device_malloc still live, the newest %llu bytes "
		     "allocated in run %u",
		     (unsigned long long)(bytes - j->base_bytes),
		     dfz_hdev_run(j->dev) - 1, dfz_hdev_run(j->dev),
		     (unsigned long long)j->base_bytes,
		     (unsigned long long)bytes, n, n > 1 ? "s" : "",
		     (unsigned long long)e->size, e->run);
	j->has_base = true;
	j->base_bytes = bytes;
	for (uint32_t i = 0; i < j->ne; i++)
		if (j->e[i].seq > j->base_seq)
			j->base_seq = j->e[i].seq;
}

static void judge_finalize(struct dfz_hjudge *j)
{
	const struct ent *e;
	uint32_t n;
	uint64_t bytes = rt_bytes(j, 0, &e, &n);

	if (e)
		fail(j, "dev.leak", e, "%u block%s from device_malloc (%llu "
		     "bytes) still live at the platform's finalize, the newest "
		     "%llu bytes allocated in run %u (expected the runtime to "
		     "free them, or hand them to a retained slot)", n,
		     n > 1 ? "s" : "", (unsigned long long)bytes,
		     (unsigned long long)e->size, e->run);
	j->platform = true;
}

/* ------------------------------------------------------------------ events */

static void on_access(struct dfz_hjudge *j, const struct dfz_hdev_ev *ev)
{
	struct ent *e;

	if (!judge_host(j, ev) || !(e = judge_dev(j, ev)))
		return;
	switch (ev->op) {
	case DFZ_HAPI_COPY_TO:
	case DFZ_HAPI_MEMSET:
		e->host_wrote = true;
		break;
	case DFZ_HAPI_COPY_FROM:
	case DFZ_HAPI_KREAD:
		if (ev->rc == 0)
			judge_read(j, ev, e);
		break;
	default:
		break;
	}
}

void dfz_hjudge_event(void *ctx, const struct dfz_hdev_ev *ev)
{
	struct dfz_hjudge *j = ctx;

	switch (ev->op) {
	case DFZ_HAPI_MALLOC:
	case DFZ_HAPI_ARENA:
	case DFZ_HAPI_GRAPH_DEF:
		if (ev->rc == 0)
			add(j, ev, ev->op == DFZ_HAPI_MALLOC ? OWN_RT :
				   ev->op == DFZ_HAPI_ARENA ? OWN_POOL :
							      OWN_GDEF);
		break;
	case DFZ_HAPI_FREE:
		if (ev->dev)
			judge_free(j, ev);
		break;
	case DFZ_HAPI_RETAIN:
		judge_retain(j, ev);
		break;
	case DFZ_HAPI_FINALIZE:
		judge_finalize(j);
		break;
	default:
		on_access(j, ev);
		break;
	}
}
