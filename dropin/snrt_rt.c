// SPDX-License-Identifier: MIT
/*
 * The Snitch runtime around the DMA (include/dmafuzz/dropin/snrt.h): the
 * allocators of alloc.h and alloc_v2.h as the runtime's bump pointers over
 * one TCDM heap in L1 and one main-memory heap in L2, the cluster's zero
 * memory, snrt_mcycle() and the performance counters on the model's
 * virtual time, snrt_dma_memset(), the global DMA reduction of a lone
 * cluster, and the one-line refusal of what the host cannot do.
 *
 * The heaps are blocks of the model's arenas, made at a run's first use
 * and reclaimed with the run. Inside a heap the runtime's blocks are
 * contiguous, as on the chip (code lays out buffers from snrt_l1_next()
 * by hand): the heap's ends have redzones, its blocks have none between
 * them. A heap is reserved (dfz_local_reserve()) and in use up to what
 * its allocator handed out; code that reads the next pointer or the TCDM's
 * bounds lays buffers out by hand, and the whole heap is in use from then
 * on. What is in use gets the fill pattern back at the next run; the rest
 * of the heap is never written by correct code, so a run of a 512 KiB
 * main-memory heap that uses 8 KiB of it restores 8 KiB.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

#include "snrt_int.h"
#include "dmafuzz/dropin/snrt.h"

#define L1_HEAP_MAX (128u << 10)  /* the default cluster's TCDM */
#define L3_HEAP_MAX (512u << 10)
#define HEAP_MIN (4u << 10)
#define ZERO_MEM (64u << 10)      /* the default cluster's zero memory */
#define TCDM_ALIGN 4096u          /* the TCDM's base, aligned as on a chip */

struct heap {
	uintptr_t base;
	uintptr_t end;
};

struct perf {
	int metric;               /* enum snrt_perf_cnt_type */
	bool on;
	uint64_t since;           /* virtual time it was started at */
	uint64_t acc;             /* counted before that */
};

/* What the runtime keeps per cluster and per core, for the current run. */
static struct {
	struct heap l1, l3;
	uintptr_t l1_next;                    /* alloc.h: the cluster's */
	uintptr_t core_next[DFZ_SNRT_CORES];  /* alloc_v2.h: each core's */
	uintptr_t l3_next;
	uint8_t *zero;
	uint8_t *sink;                        /* where DMA writes to it go */
	struct perf perf[SNRT_NUM_PERF_CNTS];
} run;

void dfz__snrt_begin(struct dfz__dropin *d)
{
	if (d->apis & DFZ__API_SNRT)
		return;
	d->apis |= DFZ__API_SNRT;
	memset(&run, 0, sizeof(run));
}

/* A call that is no switch point (a query) begins. NULL outside a run. */
static struct dfz__dropin *query(struct dfz_site s)
{
	struct dfz__dropin *d = dfz__dropin_get();

	if (!d->in_run)
		return NULL;
	d->cur = s;
	dfz__snrt_begin(d);
	return d;
}

/*
 * The largest block up to @max (halving down to HEAP_MIN) of @level, its
 * base aligned to @align (the padding before it stays unused): code
 * aligns TCDM addresses absolutely, as the chip's TCDM base allows.
 */
static bool make_heap(struct dfz__dropin *d, enum dfz_level level,
		      uint32_t max, uint32_t align, struct heap *h)
{
	void *p;

	if (h->base)
		return true;
	for (uint32_t n = max; n >= HEAP_MIN; n /= 2)
		if (dfz_local_reserve(d->rt, level, n + align - 1, &p) == 0) {
			h->base = dfz__snrt_align((uintptr_t)p, align, 0);
			h->end = h->base + n;
			return true;
		}
	dfz__dropin_fail(d, DFZ_CLASS_RT_ERRCODE,
			 "no room for the Snitch runtime's %s heap in %s "
			 "(DFZ_DROPIN_MEMORY sets the sizes)",
			 level == DFZ_L1 ? "TCDM" : "main-memory",
			 dfz_level_name(level));
	return false;
}

/* Heap @h is in use up to @to (at most its end). */
static void use_upto(struct dfz__dropin *d, const struct heap *h, uintptr_t to)
{
	to = to < h->end ? to : h->end;
	if (to > h->base)
		dfz_local_use(d->rt, (const void *)h->base,
			      (uint32_t)(to - h->base));
}

/* The heap @heap names, made if needed, with its next pointer. */
static struct heap *heap_of(struct dfz__dropin *d, int heap,
			    uintptr_t **next)
{
	bool l3 = heap == DFZ_SNRT_HEAP_L3;
	struct heap *h = l3 ? &run.l3 : &run.l1;

	if (!h->base) {
		if (!make_heap(d, l3 ? DFZ_L2 : DFZ_L1,
			       l3 ? L3_HEAP_MAX : L1_HEAP_MAX,
			       l3 ? 8 : TCDM_ALIGN, h))
			return NULL;
		run.l3_next = l3 ? h->base : run.l3_next;
		if (!l3) {
			run.l1_next = h->base;
			for (unsigned i = 0; i < DFZ_SNRT_CORES; i++)
				run.core_next[i] = h->base;
		}
	}
	if (heap == DFZ_SNRT_HEAP_L1_CORE)
		*next = &run.core_next[dfz__cores_id(d->cores) %
				       DFZ_SNRT_CORES];
	else
		*next = l3 ? &run.l3_next : &run.l1_next;
	return h;
}

static const char *heap_name(int heap)
{
	return heap == DFZ_SNRT_HEAP_L3 ? "snrt_l3alloc" :
	       heap == DFZ_SNRT_HEAP_L1 ? "snrt_l1alloc" :
					  "snrt_l1_alloc_cluster_local";
}

/*
 * alloc.h rounds the size up to 8-byte chunks; alloc_v2.h aligns the
 * pointer to @align and, @per_core, hands each compute core its own slice
 * of size bytes. A heap that runs out is a finding at the call (alloc_v2
 * traps there; alloc.h hands out memory past the heap).
 */
void *dfz_dropin_snrt_alloc(struct dfz_site s, int heap, size_t size,
			    size_t align, size_t per_core)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);
	uintptr_t *next, ret;
	struct heap *h;
	uint64_t want;

	if (!d)
		return NULL;
	dfz__snrt_begin(d);
	h = heap_of(d, heap, &next);
	if (!h)
		return NULL;
	if (heap == DFZ_SNRT_HEAP_L1_CORE) {
		*next = dfz__snrt_align(*next, align, 0);
		want = (uint64_t)size * (per_core ? DFZ_SNRT_COMPUTE_CORES : 1);
		ret = *next + (per_core ? size * dfz_dropin_snrt_core_idx() : 0);
	} else {
		want = ((uint64_t)size + 7) & ~(uint64_t)7;
		ret = *next;
	}
	if (size > UINT32_MAX || *next < h->base || *next > h->end ||
	    want > h->end - *next) {
		dfz__dropin_fail(d, DFZ_CLASS_DEV_MISUSE,
				 "%s(%zu): the heap (%lu bytes at %#lx) has "
				 "%ld bytes left", heap_name(heap), size,
				 (unsigned long)(h->end - h->base),
				 (unsigned long)h->base,
				 (long)((intptr_t)h->end - (intptr_t)*next));
		return size > UINT32_MAX ? NULL : (void *)ret;
	}
	*next += (uintptr_t)want;
	use_upto(d, h, *next);
	return (void *)ret;
}

void *dfz_dropin_snrt_next(struct dfz_site s, int heap)
{
	struct dfz__dropin *d = query(s);
	uintptr_t *next;
	struct heap *h;

	h = d ? heap_of(d, heap, &next) : NULL;
	if (!h)
		return NULL;
	use_upto(d, h, h->end);
	return (void *)*next;
}

void dfz_dropin_snrt_set_next(struct dfz_site s, int heap, uintptr_t to)
{
	struct dfz__dropin *d = query(s);
	uintptr_t *next;
	struct heap *h;

	h = d ? heap_of(d, heap, &next) : NULL;
	if (h) {
		use_upto(d, h, h->end);
		*next = to;
	}
}

/* @what 0: the TCDM's (the heap's) first byte; 1: its size; 2: its end. */
uintptr_t dfz_dropin_snrt_tcdm(struct dfz_site s, int what)
{
	struct dfz__dropin *d = query(s);
	uintptr_t *next;

	if (!d || !heap_of(d, DFZ_SNRT_HEAP_L1, &next))
		return what == 0 ? DFZ_DROPIN_L1_BASE : 0;
	use_upto(d, &run.l1, run.l1.end);
	return what == 0 ? run.l1.base :
	       what == 1 ? run.l1.end - run.l1.base : run.l1.end;
}

/* A fresh block of @n bytes of L2, zeroed; NULL (a finding) when none. */
static uint8_t *zero_block(struct dfz__dropin *d, uint32_t n)
{
	void *p;

	if (dfz_local_alloc(d->rt, DFZ_L2, n, &p) < 0) {
		dfz__dropin_fail(d, DFZ_CLASS_RT_ERRCODE,
				 "no room for the zero memory (%u bytes) in L2",
				 n);
		return NULL;
	}
	memset(p, 0, n);
	return p;
}

/* The zero memory: a block of zeros in the cluster's main memory. */
void *dfz_dropin_snrt_zero_mem(struct dfz_site s)
{
	struct dfz__dropin *d = query(s);

	if (d && !run.zero)
		run.zero = zero_block(d, ZERO_MEM);
	return d ? run.zero : NULL;
}

uintptr_t dfz__snrt_dma_dst(struct dfz__dropin *d, uintptr_t dst,
			    uint64_t extent)
{
	uintptr_t zero = (uintptr_t)run.zero;

	if (!zero || dst < zero || dst - zero > ZERO_MEM ||
	    extent > ZERO_MEM - (dst - zero))
		return dst;
	if (!run.sink)
		run.sink = zero_block(d, ZERO_MEM);
	return run.sink ? (uintptr_t)run.sink + (dst - zero) : dst;
}

uint32_t dfz_dropin_snrt_mcycle(struct dfz_site s)
{
	struct dfz__dropin *d = query(s);

	return d ? (uint32_t)dfz_rt_now(d->rt) : 0;
}

/* What counter @p holds at virtual time @now. */
static uint64_t perf_value(const struct perf *p, uint64_t now)
{
	if (p->on && p->metric == SNRT_PERF_CNT_CYCLES)
		return p->acc + (now - p->since);
	return p->acc;
}

void dfz_dropin_snrt_perf(struct dfz_site s, int op, uint32_t cnt,
			  int metric)
{
	struct dfz__dropin *d = query(s);
	uint64_t now;
	struct perf *p;

	if (!d)
		return;
	if (cnt >= SNRT_NUM_PERF_CNTS) {
		dfz__dropin_fail(d, DFZ_CLASS_DEV_MISUSE,
				 "performance counter %u: the cluster has %u",
				 cnt, SNRT_NUM_PERF_CNTS);
		return;
	}
	p = &run.perf[cnt];
	now = dfz_rt_now(d->rt);
	if (op == DFZ__SNRT_PERF_CFG || (op == DFZ__SNRT_PERF_START &&
					 metric >= 0))
		p->metric = metric;
	if (op == DFZ__SNRT_PERF_START && !p->on)
		p->since = now;
	if (op == DFZ__SNRT_PERF_STOP)
		p->acc = perf_value(p, now);
	p->on = op == DFZ__SNRT_PERF_START ||
		(p->on && op != DFZ__SNRT_PERF_STOP);
	if (op == DFZ__SNRT_PERF_RESET) {
		/* The pin also disables the counter; HEAD clears its value. */
		p->acc = 0;
		p->since = now;
		p->on = p->on && dfz__quirk(d, DFZ_QUIRK_SNRT_HEAD);
	}
}

uint32_t dfz_dropin_snrt_perf_get(struct dfz_site s, uint32_t cnt)
{
	struct dfz__dropin *d = query(s);

	if (!d || cnt >= SNRT_NUM_PERF_CNTS)
		return 0;
	return (uint32_t)perf_value(&run.perf[cnt], dfz_rt_now(d->rt));
}

/*
 * The pinned snrt_dma_memset() writes the first 64 bytes, then replicates
 * them by DMA into len / 64 rows (so at least 64 bytes) and waits for
 * every transfer; HEAD writes len bytes, by DMA (and waits) only when len
 * is a multiple of 64 above 64. Here the CPU writes the same bytes, and
 * the wait of every transfer stays.
 */
void dfz_dropin_snrt_memset(struct dfz_site s, void *ptr, int value,
			    uint32_t len)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);
	bool head, dma;
	uint32_t n;

	if (!d || !dfz__dropin_usable(d, ptr, len, "the buffer of "
				      "snrt_dma_memset"))
		return;
	dfz__snrt_begin(d);
	head = dfz__quirk(d, DFZ_QUIRK_SNRT_HEAD);
	dma = head ? len % 64 == 0 && len > 64 : true;
	n = head ? len : (len / 64 > 1 ? len / 64 * 64 : 64);
	if (dma && !dfz_mem_locate(d->rt, ptr, n, &(struct dfz_span){ 0 })) {
		dfz__dropin_fail(d, DFZ_CLASS_DMA_BAD_ADDRESS,
				 "snrt_dma_memset(%p, %u bytes): expected "
				 "memory the DMA reaches (L1 or the cluster's "
				 "memory), %u bytes of it", ptr, len, n);
		return;
	}
	memset(ptr, value, n);
	if (dma)
		dfz_idma_wait_all(dfz_idma_get(d->rt));
}

void dfz_dropin_snrt_reduction(struct dfz_site s, void *dst,
			       const void *src, size_t bytes)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	if (!d)
		return;
	dfz__snrt_begin(d);
	if (dfz__quirk(d, DFZ_QUIRK_SNRT_HEAD))
		return; /* a communicator of one cluster: nothing to do */
	if (!snrt_is_compute_core()) {
		dfz_dropin_snrt_start(s, (uintptr_t)dst, (uintptr_t)src, bytes,
				      bytes, bytes, 1, 0, 0);
		dfz_dropin_snrt_wait_all(s);
	}
	dfz_dropin_snrt_barrier(s);
}

/* The program's main and each core's return code, for the cores. */
static int (*prog_main)(void);
static int prog_rc[DFZ_SNRT_CORES];

static void prog_core(void *arg)
{
	(void)arg;
	prog_rc[dfz_dropin_snrt_core_idx() % DFZ_SNRT_CORES] = prog_main();
}

int dfz_dropin_snrt_main(struct dfz_site s, int (*main_fn)(void))
{
	struct dfz__dropin *d;
	int rc = 0;

	prog_main = main_fn;
	memset(prog_rc, 0, sizeof(prog_rc));
	dfz_dropin_spmd(s, prog_core, NULL);
	for (unsigned i = 0; i < DFZ_SNRT_CORES; i++)
		rc |= prog_rc[i];
	d = dfz__dropin_get();
	if (rc && d->in_run) {
		d->cur = s;
		dfz__dropin_fail(d, DFZ_CLASS_DATA_MISMATCH,
				 "the program's main returned %d (the cores' "
				 "codes ORed, as the Snitch runtime's exit code)",
				 rc);
	}
	return rc;
}

uint32_t dfz_dropin_snrt_refuse(struct dfz_site s, const char *name,
				const char *why, ...)
{
	fprintf(stderr, "dmafuzz: %s:%d: %s: refused: %s\n", s.file, s.line,
		name, why);
	fflush(NULL);
	/* From the body's stack (a core's, the fabric controller's): no
	 * at-exit work there (LeakSanitizer's scan of a fiber's stack). */
	_exit(2);
}

void *dfz_dropin_snrt_refuse_ptr(struct dfz_site s, const char *name,
				 const char *why)
{
	dfz_dropin_snrt_refuse(s, name, why);
}
