// SPDX-License-Identifier: MIT
/*
 * rt.output: what every tensor of a host program must hold, host side and
 * device side, by the host runtime's contract and the kernel's text
 * (runtime_host.h), computed on the oracle's own. At begin_host it copies
 * the host tensors and reads the staged child buffers; then it follows the
 * top-level calls: a successful init puts the inputs on the device, every
 * successful launch applies the kernel to its device model (the first
 * output's result into the packed graph buffer when there is one), and a
 * successful validate copies the outputs back and the graph to the first
 * output. After every successful validate, and at the end of the run, each
 * host tensor is compared with what it must hold (inputs untouched), then
 * each child tensor's device buffer through dfz_dev_peek().
 *
 * The model never guesses: what it cannot follow (a failed validate that
 * copied part of the outputs, a failed launch that may have counted, a
 * user's copy or free over a tensor's device buffer, init arguments that
 * are not the program's) becomes unknown and is not judged until a
 * successful init or launch rewrites it. Launches are applied lazily (an
 * OUT result depends only on the last launch, an INOUT one on how many and
 * their sum), so a run of thousands of launches costs one pass per check.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_model.h"

#define OUT_N DFZ_HOST_MAX_ARGS
#define OUT_CAP DFZ_HOST_MAX_TENSOR

struct output {
	struct dfz_oracles *set;
	struct dfz_rt *rt;
	const struct dfz_host_prog *spec; /* NULL until begin_host */
	struct dfz__hnest nest;
	struct dfz__hcur cur;
	uint8_t *host;               /* OUT_N x OUT_CAP: expected host bytes */
	uint8_t *dev;                /* OUT_N x OUT_CAP: device models */
	uint8_t *graph;              /* OUT_CAP: the packed graph output */
	uint8_t *sum;                /* OUT_CAP: the kernel's sum of inputs */
	uint8_t *seen;               /* OUT_CAP: a peek at device memory */
	uint32_t nt;                 /* tensors of the program */
	int32_t first_out;           /* first OUT argument, or -1 */
	bool graph_on;               /* init allocates the graph buffer */
	bool modelled[OUT_N];        /* 1..OUT_CAP bytes, role in range */
	bool host_known[OUT_N];
	int32_t host_by[OUT_N];      /* validate call that set it, or -1 */
	bool dev_known[OUT_N];
	uint64_t addr[OUT_N];        /* device buffer, or 0 */
	uint32_t out_launch[OUT_N];  /* OUT: holds this launch's result */
	uint32_t io_k[OUT_N];        /* INOUT: launches not yet applied */
	uint64_t io_sum[OUT_N];      /* ... and the sum of their numbers */
	bool graph_known;
	uint32_t graph_launch;
	uint64_t graph_addr;
	bool inited;                 /* an init of the model is live */
	bool counting;               /* launch numbers and inputs known */
	uint32_t launch;             /* successful launches since init */
};

static int out_init(void *st)
{
	struct output *o = st;

	o->host = malloc((size_t)OUT_N * OUT_CAP);
	o->dev = malloc((size_t)OUT_N * OUT_CAP);
	o->graph = malloc(OUT_CAP);
	o->sum = malloc(OUT_CAP);
	o->seen = malloc(OUT_CAP);
	return o->host && o->dev && o->graph && o->sum && o->seen ?
	       0 : DFZ_ENOMEM;
}

static void out_fini(void *st)
{
	struct output *o = st;

	free(o->host);
	free(o->dev);
	free(o->graph);
	free(o->sum);
	free(o->seen);
}

static void out_reset(void *st, struct dfz_oracles *set, struct dfz_rt *rt)
{
	struct output *o = st;

	o->set = set;
	o->rt = rt;
	o->spec = NULL;
	memset(&o->nest, 0, sizeof(o->nest));
	o->nt = 0;
	o->inited = false;
	o->counting = false;
}

static const struct dfz_host_tensor *tensor(const struct output *o,
					    uint32_t i)
{
	return &o->spec->t[i];
}

static uint8_t *host_of(struct output *o, uint32_t i)
{
	return o->host + (size_t)i * OUT_CAP;
}

static uint8_t *dev_of(struct output *o, uint32_t i)
{
	return o->dev + (size_t)i * OUT_CAP;
}

static bool is_child(const struct output *o, uint32_t i)
{
	return tensor(o, i)->arg.child_memory != 0;
}

static bool writes(const struct output *o, uint32_t i)
{
	return o->modelled[i] && tensor(o, i)->role != DFZ_ROLE_IN;
}

/* ------------------------------------------------------------ the kernel */

/* The kernel's value v for argument @j at byte @e of launch @l, without
 * the launch term when @l is 0. */
static uint8_t kernel_v(const struct output *o, uint32_t j, uint32_t e,
			uint32_t l)
{
	return (uint8_t)(o->sum[e] + 13u * l + 7u * j + e);
}

/* Apply the launches @dst has pending: an OUT result, or INOUT additions. */
static void settle(struct output *o, uint32_t j)
{
	uint32_t e, n = tensor(o, j)->bytes;
	uint8_t *d = dev_of(o, j);
	uint32_t k = o->io_k[j] & 0xff, s = (uint32_t)(o->io_sum[j] & 0xff);

	if (o->out_launch[j])
		for (e = 0; e < n; e++)
			d[e] = kernel_v(o, j, e, o->out_launch[j]);
	if (o->io_k[j])
		for (e = 0; e < n; e++)
			d[e] = (uint8_t)(d[e] + k * kernel_v(o, j, e, 0) +
					 13u * s);
	o->out_launch[j] = 0;
	o->io_k[j] = 0;
	o->io_sum[j] = 0;
}

static void settle_all(struct output *o)
{
	uint32_t j, e;

	for (j = 0; j < o->nt; j++)
		if (writes(o, j))
			settle(o, j);
	if (o->graph_launch)
		for (e = 0; e < tensor(o, (uint32_t)o->first_out)->bytes; e++)
			o->graph[e] = kernel_v(o, (uint32_t)o->first_out, e,
					       o->graph_launch);
	o->graph_launch = 0;
}

/* The device side of every written argument and the graph: unknown. */
static void forget_results(struct output *o)
{
	uint32_t j;

	for (j = 0; j < o->nt; j++) {
		if (!writes(o, j))
			continue;
		o->dev_known[j] = false;
		o->out_launch[j] = 0;
		o->io_k[j] = 0;
		o->io_sum[j] = 0;
	}
	o->graph_known = false;
	o->graph_launch = 0;
}

/* sum[e] over the IN arguments, for every byte an output can have. */
static bool compute_sum(struct output *o)
{
	uint32_t i, e, k, n = 0;

	for (i = 0; i < o->nt; i++)
		if (writes(o, i) && tensor(o, i)->bytes > n)
			n = tensor(o, i)->bytes;
	memset(o->sum, 0, n);
	for (i = 0; i < o->nt; i++) {
		const uint8_t *in = dev_of(o, i);
		uint32_t b = tensor(o, i)->bytes;

		if (tensor(o, i)->role != DFZ_ROLE_IN)
			continue;
		if (!o->modelled[i] || !o->dev_known[i])
			return false;
		for (e = 0, k = 0; e < n; e++, k = k + 1 == b ? 0 : k + 1)
			o->sum[e] = (uint8_t)(o->sum[e] + in[k]);
	}
	return true;
}

/* ------------------------------------------------------------ the check */

static void mismatch(struct output *o, uint32_t i, bool host, uint32_t e,
		     uint8_t seen, uint8_t want, const char *when)
{
	const struct dfz_host_tensor *t = tensor(o, i);
	struct dfz_evidence x = dfz_evidence_none();
	char name[64], side[48], why[64];

	dfz__htensor_name(name, sizeof(name), i, t->role, &t->arg);
	if (host)
		snprintf(side, sizeof(side), "host buffer");
	else
		snprintf(side, sizeof(side), "device buffer dev+0x%llx",
			 dfz__dev_off(o->addr[i]));
	if (t->role == DFZ_ROLE_IN)
		snprintf(why, sizeof(why), "its input, which must stay "
			 "untouched");
	else if (host && o->host_by[i] >= 0)
		snprintf(why, sizeof(why), "copied back by call %d",
			 o->host_by[i]);
	else if (host)
		snprintf(why, sizeof(why), "as before the program");
	else
		snprintf(why, sizeof(why), "the kernel's output");
	x.elem = e;
	if (!host) {
		x.level = DFZ_DEV_LEVEL;
		x.off = (int64_t)(o->addr[i] - DFZ_DEV_BASE + e);
	}
	dfz_oracle_fail(o->set, "output", DFZ_CLASS_RT_OUTPUT, &x,
			"%s %s byte %u %s: seen 0x%02x, expected 0x%02x (%s)",
			name, side, e, when, seen, want, why);
}

static bool differs(const uint8_t *seen, const uint8_t *want, uint32_t n,
		    uint32_t *at)
{
	uint32_t e;

	if (memcmp(seen, want, n) == 0)
		return false;
	for (e = 0; seen[e] == want[e]; e++)
		;
	*at = e;
	return true;
}

/* Host tensors in argument order, then child tensors' device buffers. */
static void check(struct output *o, const char *when)
{
	const struct dfz_dev *dev = dfz_dev_get(o->rt);
	uint32_t i, e, n;
	const uint8_t *p;

	for (i = 0; i < o->nt; i++) {
		if (is_child(o, i) || !o->modelled[i] || !o->host_known[i])
			continue;
		p = (const uint8_t *)(uintptr_t)tensor(o, i)->arg.data;
		if (differs(p, host_of(o, i), tensor(o, i)->bytes, &e)) {
			mismatch(o, i, true, e, p[e], host_of(o, i)[e], when);
			return;
		}
	}
	for (i = 0; i < o->nt; i++) {
		if (!is_child(o, i) || !o->modelled[i] || !o->dev_known[i])
			continue;
		n = tensor(o, i)->bytes;
		if (dfz_dev_peek(dev, o->addr[i], o->seen, n) != 0)
			continue;
		if (differs(o->seen, dev_of(o, i), n, &e)) {
			mismatch(o, i, false, e, o->seen[e], dev_of(o, i)[e],
				 when);
			return;
		}
	}
}

/* ------------------------------------------------------------ begin */

/* Tensor @i as the program begins: its host bytes, or a child's device
 * bytes; a tensor the model cannot hold is not judged. */
static void snapshot(struct output *o, uint32_t i)
{
	const struct dfz_host_tensor *t = tensor(o, i);

	o->modelled[i] = t->bytes >= 1 && t->bytes <= OUT_CAP &&
			 t->role < DFZ_ROLE_COUNT && t->arg.data;
	o->host_known[i] = false;
	o->host_by[i] = -1;
	o->dev_known[i] = false;
	o->addr[i] = is_child(o, i) ? t->arg.data : 0;
	o->out_launch[i] = 0;
	o->io_k[i] = 0;
	o->io_sum[i] = 0;
	if (!o->modelled[i])
		return;
	if (!is_child(o, i)) {
		memcpy(host_of(o, i), (const void *)(uintptr_t)t->arg.data,
		       t->bytes);
		o->host_known[i] = true;
	} else {
		o->dev_known[i] = dfz_dev_peek(dfz_dev_get(o->rt), t->arg.data,
					       dev_of(o, i), t->bytes) == 0;
	}
}

static void out_begin_host(void *st, const struct dfz_host_prog *spec)
{
	struct output *o = st;
	uint32_t i;

	o->spec = spec;
	dfz__hcur_begin(&o->cur, spec);
	o->nt = spec->ntensors <= OUT_N ? spec->ntensors : OUT_N;
	o->first_out = -1;
	for (i = 0; i < o->nt; i++) {
		if (tensor(o, i)->role == DFZ_ROLE_OUT && o->first_out < 0)
			o->first_out = (int32_t)i;
		snapshot(o, i);
	}
	o->graph_on = spec->graph && o->first_out >= 0;
	o->graph_known = false;
	o->graph_launch = 0;
	o->graph_addr = 0;
	o->inited = false;
	o->counting = false;
	o->launch = 0;
}

/* ------------------------------------------------------------ the calls */

/* Init call @k passes the program's tensors as they are. */
static bool args_are_spec(const struct output *o, int32_t k)
{
	struct dfz_tensor_arg args[DFZ_HOST_MAX_ARGS];
	uint8_t roles[DFZ_HOST_MAX_ARGS];
	uint32_t i, n;

	if (k < 0)
		return false;
	n = dfz_host_call_args(o->spec, &o->spec->call[k], args, roles);
	if (n != o->nt)
		return false;
	for (i = 0; i < n; i++) {
		const struct dfz_host_tensor *t = tensor(o, i);

		if (roles[i] != t->role || args[i].data != t->arg.data ||
		    args[i].child_memory != t->arg.child_memory ||
		    dfz__hbytes(&args[i]) != t->bytes || !o->modelled[i])
			return false;
	}
	return true;
}

static void on_init(struct output *o, int32_t k)
{
	uint32_t i, m = 0, nonchild = 0;
	bool ok;

	settle_all(o);
	for (i = 0; i < o->nt; i++)
		nonchild += !is_child(o, i);
	ok = args_are_spec(o, k) &&
	     o->nest.nmalloc == nonchild + (o->graph_on ? 1u : 0u);
	for (i = 0; i < o->nt; i++) {
		if (is_child(o, i))
			continue;
		o->addr[i] = ok ? o->nest.malloc_addr[m++] : 0;
		o->dev_known[i] = ok && tensor(o, i)->role != DFZ_ROLE_OUT &&
				  o->host_known[i];
		if (o->dev_known[i])
			memcpy(dev_of(o, i), host_of(o, i),
			       tensor(o, i)->bytes);
	}
	o->graph_addr = ok && o->graph_on ? o->nest.malloc_addr[m] : 0;
	o->graph_known = false;
	o->inited = true;
	o->launch = 0;
	o->counting = ok && compute_sum(o);
}

static void on_run(struct output *o)
{
	uint32_t j;

	if (!o->inited || !o->counting) {
		forget_results(o);
		return;
	}
	o->launch++;
	for (j = 0; j < o->nt; j++) {
		if (!writes(o, j))
			continue;
		if (o->graph_on && (int32_t)j == o->first_out) {
			o->graph_launch = o->launch;
			o->graph_known = true;
		} else if (tensor(o, j)->role == DFZ_ROLE_OUT) {
			o->out_launch[j] = o->launch;
			o->io_k[j] = 0;
			o->dev_known[j] = true;
		} else if (o->dev_known[j]) {
			o->io_k[j]++;
			o->io_sum[j] += o->launch;
		}
	}
}

/* Validate copied back what it could: the outputs' host side is unknown. */
static void forget_copied(struct output *o)
{
	uint32_t j;

	for (j = 0; j < o->nt; j++)
		if (writes(o, j) && !is_child(o, j))
			o->host_known[j] = false;
	if (o->graph_on && is_child(o, (uint32_t)o->first_out))
		o->dev_known[o->first_out] = false;
}

static void on_validate(struct output *o, int32_t k)
{
	uint32_t j, fo = (uint32_t)o->first_out;
	char when[48];

	settle_all(o);
	if (!o->inited) {
		forget_copied(o);
	} else {
		for (j = 0; j < o->nt; j++) {
			if (!writes(o, j) || is_child(o, j))
				continue;
			o->host_known[j] = o->dev_known[j];
			o->host_by[j] = k;
			memcpy(host_of(o, j), dev_of(o, j), tensor(o, j)->bytes);
		}
		if (o->graph_on && o->modelled[fo]) {
			uint8_t *to = is_child(o, fo) ? dev_of(o, fo) :
							 host_of(o, fo);

			memcpy(to, o->graph, tensor(o, fo)->bytes);
			if (is_child(o, fo))
				o->dev_known[fo] = o->graph_known;
			else
				o->host_known[fo] = o->graph_known;
		}
	}
	snprintf(when, sizeof(when), "after validate (call %d)", k);
	check(o, when);
}

static void on_finalize(struct output *o)
{
	uint32_t i;

	settle_all(o);
	for (i = 0; i < o->nt; i++) {
		if (is_child(o, i))
			continue;
		o->dev_known[i] = false;
		o->addr[i] = 0;
	}
	o->graph_known = false;
	o->graph_addr = 0;
	o->inited = false;
	o->counting = false;
}

static bool in_range(uint64_t a, uint32_t n, uint64_t lo, uint64_t len)
{
	return a && lo < a + n && a < lo + len;
}

/* A top-level malloc, free or copy over a tensor's device buffer (a stale
 * address the user kept): that buffer is no longer the model's. */
static void on_user(struct output *o, const struct dfz_event *ev)
{
	uint64_t lo = dfz__dev_addr(&ev->dst), len;
	uint32_t i;

	if (!lo || ev->aux == DFZ_API_COPY_FROM)
		return;
	len = ev->aux == DFZ_API_FREE ? 1 : ev->desc.size;
	settle_all(o);
	for (i = 0; i < o->nt; i++) {
		if (!o->modelled[i] ||
		    !in_range(o->addr[i], tensor(o, i)->bytes, lo, len))
			continue;
		o->dev_known[i] = false;
		if (tensor(o, i)->role == DFZ_ROLE_IN)
			o->counting = false;
	}
	if (o->graph_on &&
	    in_range(o->graph_addr, tensor(o, (uint32_t)o->first_out)->bytes,
		     lo, len))
		o->graph_known = false;
}

static void on_top(struct output *o, const struct dfz_event *ev)
{
	uint32_t rep;
	int32_t k = dfz__hcur_take(&o->cur, (unsigned)ev->aux, &rep);
	bool ok = ev->id == 0;

	switch (ev->aux) {
	case DFZ_API_INIT:
		if (ok)
			on_init(o, k);
		break;
	case DFZ_API_RUN:
		if (ok)
			on_run(o);
		else if (o->nest.nested)  /* may have counted a launch */
			o->counting = false;
		break;
	case DFZ_API_VALIDATE:
		if (ok)
			on_validate(o, k);
		else if (o->nest.nested)
			forget_copied(o);
		break;
	case DFZ_API_FINALIZE:
		if (ok)
			on_finalize(o);
		break;
	default:
		if (ok)
			on_user(o, ev);
		break;
	}
}

static void out_event(void *st, const struct dfz_event *ev)
{
	struct output *o = st;

	if (dfz__hnest_step(&o->nest, ev) == DFZ__H_TOP && o->spec)
		on_top(o, ev);
}

static void out_end(void *st)
{
	struct output *o = st;

	if (!o->spec)
		return;
	settle_all(o);
	check(o, "at the end of the run");
}

static const struct dfz_oracle_ops ops = {
	.name = "output",
	.size = sizeof(struct output),
	.events = DFZ_EV_BIT(DFZ_EV_API_ENTER) | DFZ_EV_BIT(DFZ_EV_API_RET),
	.init = out_init,
	.fini = out_fini,
	.reset = out_reset,
	.event = out_event,
	.begin_host = out_begin_host,
	.end = out_end,
};

const struct dfz_oracle_ops *dfz__oracle_output(void)
{
	return &ops;
}
