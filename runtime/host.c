// SPDX-License-Identifier: MIT
/*
 * The host runtime (DESIGN 3.8), modelled on an Ascend-style sample
 * runtime: init stages the tensor arguments on the device (child tensors
 * pass through) and records (host, device, size) pairs in a bounded table,
 * launch registers the kernel binary once and launches it, validate copies
 * the outputs back, finalize frees what init allocated. Every call goes
 * through the driver (dev.c) and is published as API_ENTER / API_RET.
 * The bug switches child-misalign, pair-overflow, register-leak and
 * null-arg restore the faulty code paths here.
 */
#include <string.h>

#include "runtime_int.h"
#include "vg.h"

/*
 * Under UBSan a NULL dereference is reported and the process exits before
 * the fault; the null-arg path must fault for real (SIGSEGV), as on the
 * target, so the two functions that read the caller's tables are left out
 * of UBSan (GCC honours only the whole "undefined" group here, not "null").
 * This adds no guard: it removes one.
 */
#if defined(__has_attribute)
#if __has_attribute(no_sanitize)
#define REAL_NULL_DEREF __attribute__((no_sanitize("undefined")))
#endif
#endif
#ifndef REAL_NULL_DEREF
#define REAL_NULL_DEREF
#endif

static bool has_bug(const struct dfz_host *h, uint32_t bit)
{
	return (dfz_rt_bugs(h->rt) & bit) != 0;
}

static bool is_out(uint8_t role)
{
	return role == DFZ_ROLE_OUT || role == DFZ_ROLE_INOUT;
}

static void *host_ptr(uint64_t data)
{
	return (void *)(uintptr_t)data;
}

static void enter(struct dfz_host *h, enum dfz_api call)
{
	struct dfz__api a;

	dfz__api_init(&a, call);
	dfz__api_emit(h->rt, DFZ_EV_API_ENTER, &a);
	dfz__vg_enter(h->rt);
}

static int leave(struct dfz_host *h, enum dfz_api call, int rc)
{
	struct dfz__api a;

	dfz__vg_leave(h->rt);
	dfz__api_init(&a, call);
	return dfz__api_ret(h->rt, &a, rc);
}

/* Index of the first OUT argument of the staged table, or -1. */
static int first_out(const struct dfz_host *h)
{
	for (uint32_t i = 0; i < h->nargs; i++)
		if (h->roles[i] == DFZ_ROLE_OUT)
			return (int)i;
	return -1;
}

/* Back to idle: nothing is freed (the caller frees first, or a reset takes
 * the device memory back). */
static void forget(struct dfz_host *h)
{
	struct dfz_rt *rt = h->rt;

	memset(h, 0, sizeof(*h));
	h->rt = rt;
}

void dfz__host_reset(struct dfz_host *h, struct dfz_rt *rt)
{
	h->rt = rt;
	forget(h);
}

struct dfz_host *dfz_host_get(struct dfz_rt *rt)
{
	return rt ? &rt->host : NULL;
}

/* Free every pair's buffer and the graph buffer; codes ignored (they are
 * init's own allocations). */
static void release(struct dfz_host *h)
{
	struct dfz_dev *dev = &h->rt->dev;

	for (uint32_t k = 0; k < h->npairs; k++)
		dfz_dev_free(dev, h->pairs[k].dev);
	if (h->graph)
		dfz_dev_free(dev, h->graph);
	h->npairs = 0;
	h->graph = 0;
}

/* ------------------------------------------------------------------- init */

/* Checks 2 to 5 of init over the caller's tables. With null-arg they may
 * be NULL here: the reads below fault. */
REAL_NULL_DEREF
static int check_init(const struct dfz_host *h,
		      const struct dfz_tensor_arg *args, const uint8_t *roles,
		      uint32_t nargs)
{
	uint32_t nonchild = 0;

	if (h->inited)
		return DFZ_EBUSY;
	if (nargs == 0 || nargs > DFZ_HOST_MAX_ARGS)
		return DFZ_EINVAL;
	for (uint32_t i = 0; i < nargs; i++) {
		struct dfz_tensor_arg a = args[i];
		uint64_t bytes = dfz_tensor_bytes(&a);

		if (roles[i] >= DFZ_ROLE_COUNT || bytes == 0 || a.data == 0)
			return DFZ_EINVAL;
		if (bytes > DFZ_HOST_MAX_TENSOR)
			return DFZ_ERANGE;
		nonchild += !a.child_memory;
	}
	if (nonchild > DFZ_HOST_MAX_PAIRS &&
	    !has_bug(h, DFZ_BUG_BIT(PAIR_OVERFLOW)))
		return DFZ_ERANGE;
	return 0;
}

/* Record a pair; with pair-overflow (no check 5) one beyond the table is
 * silently dropped, as in the real code. */
static void add_pair(struct dfz_host *h, uint64_t host, uint64_t dev,
		     uint32_t size)
{
	if (h->npairs == DFZ_HOST_MAX_PAIRS)
		return;
	h->pairs[h->npairs++] = (struct dfz_host_pair){ host, dev, size };
}

/* Step 6: device buffers for the non-child arguments, inputs copied, then
 * the graph buffer. Return: 0 or the first failing driver code. */
static int stage(struct dfz_host *h, int graph)
{
	struct dfz_dev *dev = &h->rt->dev;
	int out;
	int rc;

	for (uint32_t i = 0; i < h->nargs; i++) {
		const struct dfz_tensor_arg *a = &h->args[i];

		if (a->child_memory) {
			h->dev_of_arg[i] = a->data;
			continue;
		}
		rc = dfz_dev_malloc(dev, h->bytes[i], &h->dev_of_arg[i]);
		if (rc < 0)
			return rc;
		add_pair(h, a->data, h->dev_of_arg[i], h->bytes[i]);
		if (h->roles[i] == DFZ_ROLE_OUT)
			continue;
		rc = dfz_dev_copy_to(dev, h->dev_of_arg[i], host_ptr(a->data),
				     h->bytes[i]);
		if (rc < 0)
			return rc;
	}
	out = first_out(h);
	if (!graph || out < 0)
		return 0;
	return dfz_dev_malloc(dev, h->bytes[out], &h->graph);
}

REAL_NULL_DEREF
static int init(struct dfz_host *h, const struct dfz_tensor_arg *args,
		const uint8_t *roles, uint32_t nargs, int graph)
{
	int rc = check_init(h, args, roles, nargs);

	if (rc < 0)
		return rc;
	h->nargs = nargs;
	for (uint32_t i = 0; i < nargs; i++) {
		h->args[i] = args[i];
		h->roles[i] = roles[i];
		h->bytes[i] = (uint32_t)dfz_tensor_bytes(&h->args[i]);
	}
	rc = stage(h, graph);
	if (rc < 0) {
		release(h);
		forget(h);
		return rc;
	}
	h->inited = true;
	return 0;
}

/* A NULL @h leaves no runtime to read the switches from or to publish
 * through: it is refused, switch or not. */
int dfz_host_init(struct dfz_host *h, const struct dfz_tensor_arg *args,
		  const uint8_t *roles, uint32_t nargs, int graph)
{
	int rc;

	if (!h)
		return DFZ_EINVAL;
	enter(h, DFZ_API_INIT);
	if (!has_bug(h, DFZ_BUG_BIT(NULL_ARG)) && (!args || !roles))
		rc = DFZ_EINVAL;
	else
		rc = init(h, args, roles, nargs, graph);
	return leave(h, DFZ_API_INIT, rc);
}

/* ----------------------------------------------------------------- launch */

/* Step 4: register on the first launch (on every one with register-leak),
 * then launch with the arguments init staged. */
static int run(struct dfz_host *h, const void *bin, uint32_t size)
{
	struct dfz_dev *dev = &h->rt->dev;
	struct dfz_kargs ka;
	uint64_t kernel;
	int rc;

	if (!h->has_kernel || has_bug(h, DFZ_BUG_BIT(REGISTER_LEAK))) {
		rc = dfz_dev_register(dev, bin, size, &kernel);
		if (rc < 0)
			return rc;
		h->kernel = kernel;
		h->has_kernel = true;
	}
	memset(&ka, 0, sizeof(ka));
	ka.nargs = h->nargs;
	for (uint32_t i = 0; i < h->nargs; i++)
		ka.arg[i] = (struct dfz_karg){ h->dev_of_arg[i], h->bytes[i],
					       h->roles[i] };
	ka.graph = h->graph;
	ka.launch = ++h->launches;
	rc = dfz_dev_launch(dev, h->kernel, &ka);
	if (rc == 0)
		h->ran = true;
	return rc;
}

int dfz_host_launch(struct dfz_host *h, const void *bin, uint32_t size)
{
	int rc;

	if (!h)
		return DFZ_EINVAL;
	enter(h, DFZ_API_RUN);
	if (!bin && !has_bug(h, DFZ_BUG_BIT(NULL_ARG)))
		rc = DFZ_EINVAL;
	else if (!h->inited)
		rc = DFZ_ENOENT;
	else if (size == 0)
		rc = DFZ_EINVAL;
	else
		rc = run(h, bin, size);
	return leave(h, DFZ_API_RUN, rc);
}

/* --------------------------------------------------------------- validate */

/* The fixed path: outputs paired through the pair cursor of the argument,
 * the graph output to the first OUT argument. The first failing copy's
 * code is returned (later copies are not made). */
static int copy_back(struct dfz_host *h)
{
	struct dfz_dev *dev = &h->rt->dev;
	int out = first_out(h);
	uint32_t k = 0, out_pair = DFZ_HOST_MAX_PAIRS;
	int rc;

	for (uint32_t i = 0; i < h->nargs; i++) {
		if (h->args[i].child_memory)
			continue;
		if (k < h->npairs && is_out(h->roles[i])) {
			const struct dfz_host_pair *p = &h->pairs[k];

			rc = dfz_dev_copy_from(dev, host_ptr(p->host), p->dev,
					       p->size);
			if (rc < 0)
				return rc;
		}
		if ((int)i == out)
			out_pair = k;
		k++;
	}
	if (!h->graph)
		return 0;
	if (h->args[out].child_memory)
		return dfz_dev_copy_dev(dev, h->args[out].data, h->graph,
					h->bytes[out]);
	if (out_pair >= h->npairs)
		return 0;
	return dfz_dev_copy_from(dev, host_ptr(h->pairs[out_pair].host),
				 h->graph, h->pairs[out_pair].size);
}

/* child-misalign: pairs indexed by argument index, codes ignored. */
static int copy_back_misaligned(struct dfz_host *h)
{
	struct dfz_dev *dev = &h->rt->dev;
	int out = first_out(h);

	for (uint32_t i = 0; i < h->nargs && i < h->npairs; i++) {
		const struct dfz_host_pair *p = &h->pairs[i];

		if (is_out(h->roles[i]))
			dfz_dev_copy_from(dev, host_ptr(p->host), p->dev,
					  p->size);
	}
	if (h->graph && (uint32_t)out < h->npairs)
		dfz_dev_copy_from(dev, host_ptr(h->pairs[out].host), h->graph,
				  h->pairs[out].size);
	return 0;
}

int dfz_host_validate(struct dfz_host *h)
{
	int rc;

	if (!h)
		return DFZ_EINVAL;
	enter(h, DFZ_API_VALIDATE);
	if (!h->inited || !h->ran)
		rc = DFZ_ENOENT;
	else if (has_bug(h, DFZ_BUG_BIT(CHILD_MISALIGN)))
		rc = copy_back_misaligned(h);
	else
		rc = copy_back(h);
	return leave(h, DFZ_API_VALIDATE, rc);
}

/* --------------------------------------------------------------- finalize */

int dfz_host_finalize(struct dfz_host *h)
{
	int rc = 0;

	if (!h)
		return DFZ_EINVAL;
	enter(h, DFZ_API_FINALIZE);
	if (!h->inited) {
		rc = DFZ_ENOENT;
	} else {
		release(h);
		/* The cached image goes back to the device context, which
		 * holds it until teardown. */
		if (h->has_kernel)
			dfz__vg_dev_retire(h->rt, h->kernel);
		forget(h);
	}
	return leave(h, DFZ_API_FINALIZE, rc);
}
