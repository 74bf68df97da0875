// SPDX-License-Identifier: MIT
/*
 * rt.errcode: a reference state machine of the driver and host-runtime
 * contract (runtime_host.h) that predicts the return code of every
 * top-level call of a host program from the program alone, and compares
 * it with the code the call returned (its API_RET event).
 *
 * The model keeps the live device blocks the user can reach (the staged
 * child tensors, the slots' buffers, init's buffers and graph buffer) and
 * the bytes of kernel images, and from them the live bytes the budget is
 * checked against; whether the host runtime is initialised, has launched
 * successfully, and holds a registered image. Addresses are the
 * allocator's choice, so the model takes them from the events (a
 * successful malloc's block, init's nested mallocs in order); sizes,
 * liveness and every code come from the contract. A copy or launch range
 * must lie inside one live block of the model, so a stale slot address
 * that the allocator handed out again is judged as the driver must judge
 * it. Calls with a NULL context publish nothing (there is no runtime to
 * publish through) and are skipped. Once the program and the events part
 * ways the oracle stops judging rather than guess.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_model.h"

#define EC_BLOCKS 256                /* live blocks the model can hold */
#define EC_HUGE (1ull << 40)         /* DFZ_FAULT_HUGE's size */

enum ec_owner { EC_CHILD, EC_SLOT, EC_INIT };

struct ec_block {
	uint64_t addr;
	uint32_t size;
	uint8_t owner;               /* enum ec_owner */
	int32_t call;                /* program call that allocated it */
};

/* One argument as init staged it. */
struct ec_arg {
	uint64_t addr;               /* device buffer */
	uint32_t bytes;
};

struct errcode {
	struct dfz_oracles *set;
	const struct dfz_host_prog *spec; /* NULL until begin_host */
	struct dfz__hnest nest;
	struct dfz__hcur cur;
	bool lost;                   /* stopped judging */
	struct ec_block *blk;        /* EC_BLOCKS */
	uint32_t nblk;
	uint64_t images;             /* bytes of kernel images */
	uint64_t budget;
	uint64_t slot[DFZ_HOST_SLOTS];     /* device address, 0: never set */
	int32_t slot_freed[DFZ_HOST_SLOTS]; /* call that freed it, or -1 */
	bool inited;
	bool ran;                    /* a launch succeeded since init */
	bool registered;             /* the image is cached */
	int32_t init_call;
	int32_t fini_call;           /* last successful finalize, or -1 */
	uint32_t nargs;              /* init's staged arguments */
	struct ec_arg arg[DFZ_HOST_MAX_ARGS];
	uint8_t role[DFZ_HOST_MAX_ARGS];
	bool child[DFZ_HOST_MAX_ARGS];
	struct ec_arg graph;         /* addr 0: no graph buffer */
	uint32_t staged;             /* init's mallocs, by the model */
	char why[160];               /* the reason of the last prediction */
};

static int ec_init(void *st)
{
	struct errcode *e = st;

	e->blk = calloc(EC_BLOCKS, sizeof(*e->blk));
	return e->blk ? 0 : DFZ_ENOMEM;
}

static void ec_fini(void *st)
{
	struct errcode *e = st;

	free(e->blk);
}

static void ec_reset(void *st, struct dfz_oracles *set, struct dfz_rt *rt)
{
	struct errcode *e = st;

	(void)rt;
	e->set = set;
	e->spec = NULL;
	memset(&e->nest, 0, sizeof(e->nest));
}

/* ------------------------------------------------------------ the blocks */

static uint64_t live_bytes(const struct errcode *e)
{
	uint64_t n = e->images;
	uint32_t i;

	for (i = 0; i < e->nblk; i++)
		n += e->blk[i].size;
	return n;
}

static uint64_t avail(const struct errcode *e)
{
	uint64_t live = live_bytes(e);

	return live >= e->budget ? 0 : e->budget - live;
}

static bool add_block(struct errcode *e, uint64_t addr, uint64_t size,
		      unsigned owner, int32_t call)
{
	if (e->nblk >= EC_BLOCKS) {
		e->lost = true;
		return false;
	}
	e->blk[e->nblk++] = (struct ec_block){ addr, (uint32_t)size,
					       (uint8_t)owner, call };
	return true;
}

static struct ec_block *block_at(struct errcode *e, uint64_t addr)
{
	uint32_t i;

	for (i = 0; i < e->nblk; i++)
		if (e->blk[i].addr == addr)
			return &e->blk[i];
	return NULL;
}

static void drop_block(struct errcode *e, struct ec_block *b)
{
	*b = e->blk[--e->nblk];
}

/* [addr, addr+n) inside one live block (images are not in the table). */
static bool inside(const struct errcode *e, uint64_t addr, uint64_t n)
{
	uint32_t i;

	for (i = 0; i < e->nblk; i++) {
		const struct ec_block *b = &e->blk[i];

		if (addr >= b->addr && addr - b->addr < b->size &&
		    n <= b->size - (addr - b->addr))
			return true;
	}
	return false;
}

/* ------------------------------------------------------------ predictions */

__attribute__((format(printf, 3, 4)))
static int because(struct errcode *e, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->why, sizeof(e->why), fmt, ap);
	va_end(ap);
	return rc;
}

static int no_room(struct errcode *e, const char *what, uint64_t size)
{
	return because(e, DFZ_ENOMEM, "%s of %llu bytes does not fit: %llu "
		       "of the %llu-byte budget live", what,
		       (unsigned long long)size,
		       (unsigned long long)live_bytes(e),
		       (unsigned long long)e->budget);
}

/* Why slot @s's address is not a live block's start. */
static int stale_slot(struct errcode *e, int rc, unsigned s, uint64_t addr)
{
	if (e->slot_freed[s] >= 0)
		return because(e, rc, "slot %u (dev+0x%llx) was freed by "
			       "call %d", s, dfz__dev_off(addr),
			       e->slot_freed[s]);
	return because(e, rc, "slot %u (dev+0x%llx) is not a live block", s,
		       dfz__dev_off(addr));
}

/* The size argument a malloc or copy call passes. */
static uint64_t call_size(const struct dfz_host_call *c)
{
	return c->fault == DFZ_FAULT_HUGE ? EC_HUGE :
	       c->fault == DFZ_FAULT_ZERO ? 0 : c->size;
}

static int do_malloc(struct errcode *e, const struct dfz_host_call *c,
		     int32_t k, const struct dfz_event *ev)
{
	uint64_t size = call_size(c), live = live_bytes(e);
	uint64_t addr = dfz__dev_addr(&ev->dst);
	unsigned s = dfz__hcall_slot(c);

	if (size == 0)
		return because(e, DFZ_EINVAL, "size is 0");
	if (c->fault == DFZ_FAULT_NULL_PTR)
		return because(e, DFZ_EINVAL, "the address out-pointer is "
			       "NULL");
	if (size > avail(e))
		return no_room(e, "malloc", size);
	if (ev->id == 0 && add_block(e, addr, size, EC_SLOT, k)) {
		e->slot[s] = addr;
		e->slot_freed[s] = -1;
	}
	return because(e, 0, "%llu bytes fit the budget (%llu of %llu "
		       "live)", (unsigned long long)size,
		       (unsigned long long)live,
		       (unsigned long long)e->budget);
}

static int do_free(struct errcode *e, const struct dfz_host_call *c,
		   int32_t k)
{
	unsigned s = dfz__hcall_slot(c), t;
	uint64_t addr = e->slot[s];
	struct ec_block *b;

	if (!addr)
		return because(e, DFZ_EINVAL, "slot %u was never allocated: "
			       "address 0", s);
	b = block_at(e, addr);
	if (!b)
		return stale_slot(e, DFZ_ENOENT, s, addr);
	drop_block(e, b);
	for (t = 0; t < DFZ_HOST_SLOTS; t++)
		if (e->slot[t] == addr)
			e->slot_freed[t] = k;
	return because(e, 0, "slot %u holds the live block dev+0x%llx", s,
		       dfz__dev_off(addr));
}

static int do_copy(struct errcode *e, const struct dfz_host_call *c)
{
	unsigned s = dfz__hcall_slot(c);
	uint64_t n = call_size(c), addr = e->slot[s] + c->offset;

	if (c->fault == DFZ_FAULT_NULL_PTR)
		return because(e, DFZ_EINVAL, "the host pointer is NULL");
	if (n == 0)
		return because(e, DFZ_EINVAL, "size is 0");
	if (!e->slot[s])
		return because(e, DFZ_EFAULT, "slot %u was never allocated",
			       s);
	if (inside(e, addr, n))
		return because(e, 0, "dev+0x%llx+%llu lies inside a live "
			       "block", dfz__dev_off(addr),
			       (unsigned long long)n);
	if (!block_at(e, e->slot[s]))
		return stale_slot(e, DFZ_EFAULT, s, e->slot[s]);
	return because(e, DFZ_EFAULT, "dev+0x%llx+%llu is not inside one "
		       "live block", dfz__dev_off(addr),
		       (unsigned long long)n);
}

/* Init's checks 1 to 5 over the arguments call @c passes. */
static int init_checks(struct errcode *e, const struct dfz_host_call *c,
		       struct dfz_tensor_arg *args, uint8_t *roles,
		       uint32_t *nargs)
{
	uint32_t i, nonchild = 0;
	uint64_t bytes;

	if (c->fault == DFZ_FAULT_NULL_PTR)
		return because(e, DFZ_EINVAL, "args is NULL");
	if (c->fault == DFZ_FAULT_NULL_ROLES)
		return because(e, DFZ_EINVAL, "roles is NULL");
	if (e->inited)
		return because(e, DFZ_EBUSY, "already initialised by call %d",
			       e->init_call);
	*nargs = dfz_host_call_args(e->spec, c, args, roles);
	if (*nargs == 0 || *nargs > DFZ_HOST_MAX_ARGS)
		return because(e, DFZ_EINVAL, "nargs is %u", *nargs);
	for (i = 0; i < *nargs; i++) {
		bytes = dfz__hbytes(&args[i]);
		if (roles[i] >= DFZ_ROLE_COUNT || bytes == 0 || !args[i].data)
			return because(e, DFZ_EINVAL, "arg %u has %s", i,
				       roles[i] >= DFZ_ROLE_COUNT ?
				       "a role out of range" :
				       bytes == 0 ? "0 bytes" : "data 0");
		if (bytes > DFZ_HOST_MAX_TENSOR)
			return because(e, DFZ_ERANGE, "arg %u has %llu bytes, "
				       "above %u", i,
				       (unsigned long long)bytes,
				       DFZ_HOST_MAX_TENSOR);
		nonchild += !args[i].child_memory;
	}
	if (nonchild > DFZ_HOST_MAX_PAIRS)
		return because(e, DFZ_ERANGE, "%u non-child args, above the "
			       "%u pairs", nonchild, DFZ_HOST_MAX_PAIRS);
	return 0;
}

/* One of init's allocations (step 6), at the next nested malloc's
 * address. */
static bool init_alloc(struct errcode *e, uint32_t *m, int32_t k,
		       uint32_t bytes, struct ec_arg *out)
{
	if (bytes > avail(e))
		return false;
	out->bytes = bytes;
	out->addr = *m < e->nest.nmalloc ? e->nest.malloc_addr[*m] : 0;
	(*m)++;
	add_block(e, out->addr, bytes, EC_INIT, k);
	return true;
}

/* A failing step 6 frees what init allocated. */
static void init_undo(struct errcode *e, int32_t k)
{
	uint32_t i = 0;

	while (i < e->nblk)
		if (e->blk[i].owner == EC_INIT && e->blk[i].call == k)
			drop_block(e, &e->blk[i]);
		else
			i++;
}

static int init_stage(struct errcode *e, int32_t k,
		      const struct dfz_tensor_arg *args, const uint8_t *roles,
		      uint32_t nargs)
{
	uint32_t i, m = 0;
	int32_t out = -1;
	char what[48];

	e->graph.addr = 0;
	for (i = 0; i < nargs; i++) {
		e->role[i] = roles[i];
		e->child[i] = args[i].child_memory != 0;
		e->arg[i].bytes = (uint32_t)dfz__hbytes(&args[i]);
		e->arg[i].addr = args[i].data;
		if (out < 0 && roles[i] == DFZ_ROLE_OUT)
			out = (int32_t)i;
		if (e->child[i] ||
		    init_alloc(e, &m, k, e->arg[i].bytes, &e->arg[i]))
			continue;
		init_undo(e, k);
		snprintf(what, sizeof(what), "init's buffer for arg %u", i);
		return no_room(e, what, e->arg[i].bytes);
	}
	if (e->spec->graph && out >= 0 &&
	    !init_alloc(e, &m, k, e->arg[out].bytes, &e->graph)) {
		init_undo(e, k);
		return no_room(e, "init's graph buffer", e->arg[out].bytes);
	}
	e->nargs = nargs;
	e->staged = m;
	return because(e, 0, "%u args staged within the budget", nargs);
}

static int do_init(struct errcode *e, const struct dfz_host_call *c,
		   int32_t k, const struct dfz_event *ev)
{
	struct dfz_tensor_arg args[DFZ_HOST_MAX_ARGS];
	uint8_t roles[DFZ_HOST_MAX_ARGS];
	uint32_t nargs = 0;
	int rc = init_checks(e, c, args, roles, &nargs);

	if (rc < 0)
		return rc;
	rc = init_stage(e, k, args, roles, nargs);
	if (rc < 0 || ev->id != 0) {
		init_undo(e, k);
		return rc;
	}
	if (e->staged != e->nest.nmalloc)
		e->lost = true;      /* staged otherwise: addresses unknown */
	e->inited = true;
	e->ran = false;
	e->registered = false;
	e->init_call = k;
	return rc;
}

static int not_inited(struct errcode *e)
{
	if (e->fini_call >= 0)
		return because(e, DFZ_ENOENT, "not initialised (finalized by "
			       "call %d)", e->fini_call);
	return because(e, DFZ_ENOENT, "not initialised");
}

/* The driver launch's range checks over what init staged. */
static int launch_ranges(struct errcode *e)
{
	int32_t out = -1;
	uint32_t i;

	for (i = 0; i < e->nargs; i++) {
		if (!inside(e, e->arg[i].addr, e->arg[i].bytes))
			return because(e, DFZ_EFAULT, "arg %u's buffer "
				       "dev+0x%llx is not a live block", i,
				       dfz__dev_off(e->arg[i].addr));
		if (out < 0 && e->role[i] == DFZ_ROLE_OUT)
			out = (int32_t)i;
	}
	if (e->graph.addr && out >= 0 &&
	    !inside(e, e->graph.addr, e->arg[out].bytes))
		return because(e, DFZ_EFAULT, "the graph buffer dev+0x%llx "
			       "is not a live block",
			       dfz__dev_off(e->graph.addr));
	return 0;
}

static int do_run(struct errcode *e, const struct dfz_host_call *c,
		  const struct dfz_event *ev)
{
	uint32_t size = c->fault == DFZ_FAULT_ZERO ? 0 : e->spec->bin_size;
	int rc;

	if (c->fault == DFZ_FAULT_NULL_PTR || !e->spec->bin)
		return because(e, DFZ_EINVAL, "bin is NULL");
	if (!e->inited)
		return not_inited(e);
	if (size == 0)
		return because(e, DFZ_EINVAL, "size is 0");
	if (!e->registered) {
		if (size > avail(e))
			return no_room(e, "registering the kernel image",
				       size);
		e->images += size;   /* no unregister: it stays */
		e->registered = true;
	}
	rc = launch_ranges(e);
	if (rc < 0)
		return rc;
	if (ev->id == 0)
		e->ran = true;
	return because(e, 0, "initialised by call %d, image registered",
		       e->init_call);
}

static int do_validate(struct errcode *e)
{
	int32_t out = -1;
	uint32_t i;

	if (!e->inited)
		return not_inited(e);
	if (!e->ran)
		return because(e, DFZ_ENOENT, "no launch succeeded since "
			       "init (call %d)", e->init_call);
	for (i = 0; i < e->nargs; i++) {
		if (out < 0 && e->role[i] == DFZ_ROLE_OUT)
			out = (int32_t)i;
		if (e->child[i] || e->role[i] == DFZ_ROLE_IN ||
		    inside(e, e->arg[i].addr, e->arg[i].bytes))
			continue;
		return because(e, DFZ_EFAULT, "arg %u's buffer dev+0x%llx "
			       "is not a live block", i,
			       dfz__dev_off(e->arg[i].addr));
	}
	if (e->graph.addr && out >= 0 &&
	    (!inside(e, e->graph.addr, e->arg[out].bytes) ||
	     (e->child[out] &&
	      !inside(e, e->arg[out].addr, e->arg[out].bytes))))
		return because(e, DFZ_EFAULT, "the graph output's copy to "
			       "arg %d has a range outside the live blocks",
			       out);
	return because(e, 0, "a launch succeeded since init (call %d)",
		       e->init_call);
}

static int do_finalize(struct errcode *e, int32_t k)
{
	struct ec_block *b;
	uint32_t i;

	if (!e->inited)
		return not_inited(e);
	for (i = 0; i < e->nargs; i++)
		if (!e->child[i] && (b = block_at(e, e->arg[i].addr)))
			drop_block(e, b);
	if (e->graph.addr && (b = block_at(e, e->graph.addr)))
		drop_block(e, b);
	e->inited = false;
	e->ran = false;
	e->registered = false;
	e->fini_call = k;
	return because(e, 0, "initialised by call %d", e->init_call);
}

/* The code call @k must return, its effects applied to the model. */
static int predict(struct errcode *e, int32_t k, const struct dfz_event *ev)
{
	const struct dfz_host_call *c = &e->spec->call[k];

	switch (c->op) {
	case DFZ_API_MALLOC:
		return do_malloc(e, c, k, ev);
	case DFZ_API_FREE:
		return do_free(e, c, k);
	case DFZ_API_COPY_TO:
	case DFZ_API_COPY_FROM:
		return do_copy(e, c);
	case DFZ_API_INIT:
		return do_init(e, c, k, ev);
	case DFZ_API_RUN:
		return do_run(e, c, ev);
	case DFZ_API_VALIDATE:
		return do_validate(e);
	case DFZ_API_FINALIZE:
		return do_finalize(e, k);
	default:
		e->lost = true;
		return 0;
	}
}

/* ------------------------------------------------------------ the oracle */

static void ec_begin_host(void *st, const struct dfz_host_prog *spec)
{
	struct errcode *e = st;
	uint32_t i, n = spec->ntensors <= DFZ_HOST_MAX_ARGS ?
			spec->ntensors : DFZ_HOST_MAX_ARGS;

	e->spec = spec;
	dfz__hcur_begin(&e->cur, spec);
	e->lost = false;
	e->nblk = 0;
	e->images = 0;
	e->budget = spec->dev_budget < DFZ_CAP_DEV_BUDGET ?
		    spec->dev_budget : DFZ_CAP_DEV_BUDGET;
	for (i = 0; i < DFZ_HOST_SLOTS; i++) {
		e->slot[i] = 0;
		e->slot_freed[i] = -1;
	}
	/* The staged child tensors: one block of exactly their bytes. */
	for (i = 0; i < n; i++)
		if (spec->t[i].arg.child_memory && spec->t[i].arg.data)
			add_block(e, spec->t[i].arg.data, spec->t[i].bytes,
				  EC_CHILD, -1);
	e->inited = false;
	e->ran = false;
	e->registered = false;
	e->init_call = -1;
	e->fini_call = -1;
	e->nargs = 0;
	e->graph.addr = 0;
}

static void on_top(struct errcode *e, const struct dfz_event *ev)
{
	char call[96];
	struct dfz_evidence x = dfz_evidence_none();
	uint32_t rep;
	int32_t k = dfz__hcur_take(&e->cur, (unsigned)ev->aux, &rep);
	int rc;

	if (k < 0 || e->lost) {
		e->lost = true;
		return;
	}
	rc = predict(e, k, ev);
	if (rc == ev->id || e->lost)
		return;
	dfz__hcall_name(call, sizeof(call), e->spec, (uint32_t)k, rep);
	x.step = (int64_t)ev->step;
	dfz_oracle_fail(e->set, "errcode", DFZ_CLASS_RT_ERRCODE, &x,
			"%s: returned %lld (%s), expected %d (%s): %s", call,
			(long long)ev->id, dfz_strerror((int)ev->id), rc,
			dfz_strerror(rc), e->why);
}

/*
 * A call with a NULL context reaches no runtime, so it publishes nothing:
 * its code is judged from what the caller saw. The contract: every call
 * refuses a NULL context (or device) with DFZ_EINVAL, before any other
 * check, and changes nothing.
 */
static void ec_returned(void *st, unsigned call, unsigned rep, int rc)
{
	struct errcode *e = st;
	struct dfz_evidence x = dfz_evidence_none();
	char name[96];

	if (!e->spec || e->lost || call >= e->spec->ncalls ||
	    e->spec->call[call].fault != DFZ_FAULT_NULL_CTX ||
	    rc == DFZ_EINVAL)
		return;
	dfz__hcall_name(name, sizeof(name), e->spec, call, rep);
	dfz_oracle_fail(e->set, "errcode", DFZ_CLASS_RT_ERRCODE, &x,
			"%s: returned %d (%s), expected %d (%s): a NULL "
			"context is refused", name, rc, dfz_strerror(rc),
			DFZ_EINVAL, dfz_strerror(DFZ_EINVAL));
}

static void ec_event(void *st, const struct dfz_event *ev)
{
	struct errcode *e = st;

	if (dfz__hnest_step(&e->nest, ev) == DFZ__H_TOP && e->spec &&
	    !e->lost)
		on_top(e, ev);
}

static const struct dfz_oracle_ops ops = {
	.name = "errcode",
	.size = sizeof(struct errcode),
	.events = DFZ_EV_BIT(DFZ_EV_API_ENTER) | DFZ_EV_BIT(DFZ_EV_API_RET),
	.init = ec_init,
	.fini = ec_fini,
	.reset = ec_reset,
	.event = ec_event,
	.begin_host = ec_begin_host,
	.returned = ec_returned,
};

const struct dfz_oracle_ops *dfz__oracle_errcode(void)
{
	return &ops;
}
