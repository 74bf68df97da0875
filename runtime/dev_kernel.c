// SPDX-License-Identifier: MIT
/*
 * The device's kernel launch (DESIGN 3.8): the checks of dfz_dev_launch()
 * and the one deterministic kernel every image runs, as its text in
 * runtime_host.h gives it. All checks come before the first write, so a
 * failing launch leaves device memory as it was.
 *
 * Where arguments alias, the text is read this way: the sums over the IN
 * arguments are taken from the bytes as they were when the launch began,
 * then the OUT and INOUT arguments are written in argument order (a later
 * argument sees, and may overwrite, what an earlier one wrote).
 */
#include <string.h>

#include "runtime_int.h"

/* A launch whose arguments passed every check: arena offsets. */
struct launch {
	uint32_t off[DFZ_HOST_MAX_ARGS];
	int first_out;                /* first OUT argument, or -1 */
	bool to_graph;                /* first_out's result goes to @graph */
	uint32_t graph;               /* arena offset of the graph buffer */
};

static bool is_out(uint8_t role)
{
	return role == DFZ_ROLE_OUT || role == DFZ_ROLE_INOUT;
}

static int check_kargs(const struct dfz_kargs *ka)
{
	if (!ka || ka->nargs == 0 || ka->nargs > DFZ_HOST_MAX_ARGS)
		return DFZ_EINVAL;
	for (uint32_t i = 0; i < ka->nargs; i++)
		if (ka->arg[i].role >= DFZ_ROLE_COUNT || ka->arg[i].bytes == 0)
			return DFZ_EINVAL;
	return 0;
}

/* Every argument, and the graph buffer when it is used, inside one live
 * user block. Return: 0 or DFZ_EFAULT. */
static int check_ranges(const struct dfz_dev *dev, const struct dfz_kargs *ka,
			struct launch *l)
{
	const struct dfz_karg *out;

	l->first_out = -1;
	for (uint32_t i = 0; i < ka->nargs; i++) {
		if (!dfz__dev_in_user(dev, ka->arg[i].dev, ka->arg[i].bytes,
				      &l->off[i]))
			return DFZ_EFAULT;
		if (l->first_out < 0 && ka->arg[i].role == DFZ_ROLE_OUT)
			l->first_out = (int)i;
	}
	l->to_graph = ka->graph != 0 && l->first_out >= 0;
	if (!l->to_graph)
		return 0;
	out = &ka->arg[l->first_out];
	return dfz__dev_in_user(dev, ka->graph, out->bytes, &l->graph) ?
		       0 : DFZ_EFAULT;
}

/* sum[e] = the IN arguments' bytes at e (mod their sizes), e < @n. */
static void sum_inputs(uint8_t *sum, uint32_t n, const uint8_t *mem,
		       const struct dfz_kargs *ka, const struct launch *l)
{
	memset(sum, 0, n);
	for (uint32_t i = 0; i < ka->nargs; i++) {
		const uint8_t *in = mem + l->off[i];
		uint32_t bytes = ka->arg[i].bytes, k = 0;

		if (ka->arg[i].role != DFZ_ROLE_IN)
			continue;
		for (uint32_t e = 0; e < n; e++) {
			sum[e] = (uint8_t)(sum[e] + in[k]);
			if (++k == bytes)
				k = 0;
		}
	}
}

static void run_kernel(struct dfz_dev *dev, const struct dfz_kargs *ka,
		       const struct launch *l)
{
	uint8_t *mem = dev->rt->arena[DFZ_DEV_LEVEL].base;
	uint32_t most = 0;

	for (uint32_t j = 0; j < ka->nargs; j++)
		if (is_out(ka->arg[j].role) && ka->arg[j].bytes > most)
			most = ka->arg[j].bytes;
	sum_inputs(dev->sum, most, mem, ka, l);
	for (uint32_t j = 0; j < ka->nargs; j++) {
		const struct dfz_karg *a = &ka->arg[j];
		bool graph = l->to_graph && (int)j == l->first_out;
		uint32_t off = graph ? l->graph : l->off[j];
		uint8_t salt = (uint8_t)(13u * ka->launch + 7u * j);
		uint8_t *dst = mem + off;

		if (!is_out(a->role))
			continue;
		for (uint32_t e = 0; e < a->bytes; e++) {
			uint8_t v = (uint8_t)(dev->sum[e] + salt + e);

			if (a->role == DFZ_ROLE_INOUT)
				v = (uint8_t)(v + dst[e]);
			dst[e] = v;
		}
		dfz__mem_touch(dev->rt, DFZ_DEV_LEVEL, off, a->bytes);
	}
}

int dfz_dev_launch(struct dfz_dev *dev, uint64_t handle,
		   const struct dfz_kargs *ka)
{
	struct dfz__api a;
	struct launch l;
	int rc;

	if (!dev)
		return DFZ_EINVAL;
	dfz__api_init(&a, DFZ_API_LAUNCH);
	a.dst = dfz__dev_span(handle, 0);
	rc = check_kargs(ka);
	if (rc == 0 && !dfz__dev_is_image(dev, handle))
		rc = DFZ_ENOENT;
	if (rc == 0)
		rc = check_ranges(dev, ka, &l);
	if (rc == 0)
		run_kernel(dev, ka, &l);
	return dfz__api_ret(dev->rt, &a, rc);
}
