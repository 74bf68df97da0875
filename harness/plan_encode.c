// SPDX-License-Identifier: MIT
/*
 * The plan encoder: runs the decoder's own field walk with a writing choice
 * stream, so the bytes it produces decode back to the plan. A plan is first
 * normalised (its fields clamped to their ranges, undrawn fields made
 * canonical, the caps applied), then encoded; the stream is cut after its
 * last nonzero draw, since a missing draw reads back as its simplest value,
 * and a size the clamp raised (l2_size, l1_size, a host budget) is drawn
 * as its simplest value when the clamp raises it back. dfz_plan_encode_as()
 * writes the same stream without the family draw.
 * Also plan equality, strict and up to normalisation.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "plan_int.h"

/* One walk over @p with a writing stream, with or without the family
 * draw; never allocates. */
static void emit_plan(const struct dfz_plan *p, bool family,
		      struct dfz_choice *c)
{
	struct dfz_plan scratch;

	dfz__choice_writer(c);
	if (family)
		dfz__plan_visit(c, p, &scratch);
	else
		dfz__plan_visit_as(c, p->family, p, &scratch);
	assert(!c->overflow); /* DFZ_PLAN_MAX_STREAM bounds every plan */
}

int dfz_plan_normalise(struct dfz_plan *p)
{
	struct dfz_choice c;

	emit_plan(p, true, &c);
	dfz__plan_decode_caps(c.out, c.keep, p->caps, p);
	return 0;
}

/*
 * A size the clamp raised (a level size, a host budget) reads back from
 * its simplest draw too (the clamp raises it again): set @size (a field
 * of @stream) to @simplest when @stream still decodes to @target, so the
 * stream is shorter.
 */
static void simplify_size(const struct dfz_plan *target,
			  struct dfz_plan *stream, uint32_t *size,
			  uint32_t simplest)
{
	struct dfz_plan back;
	struct dfz_choice c;
	uint32_t keep = *size;

	if (keep == 0 || keep == simplest)
		return;
	*size = simplest;
	emit_plan(stream, true, &c);
	dfz_plan_decode(c.out, c.keep, &back);
	if (!dfz__plan_same(&back, target))
		*size = keep;
}

/* The stream of normalise(@p), shortened, in a buffer the caller owns. */
static int encode(const struct dfz_plan *p, bool family, uint8_t **buf,
		  size_t *n)
{
	struct dfz_plan q = *p, stream;
	struct dfz_choice c;
	uint8_t *out;

	dfz_plan_normalise(&q);
	stream = q;
	simplify_size(&q, &stream, &stream.xfer.l2_size, DFZ_PLAN_LOCAL_MIN);
	simplify_size(&q, &stream, &stream.xfer.l1_size, DFZ_PLAN_LOCAL_MIN);
	simplify_size(&q, &stream, &stream.host.budget, DFZ_HOST_BUDGET_MIN);
	emit_plan(&stream, family, &c);
	out = malloc(c.keep ? c.keep : 1);
	if (!out)
		return DFZ_ENOMEM;
	memcpy(out, c.out, c.keep);
	*buf = out;
	*n = c.keep;
	return 0;
}

int dfz_plan_encode(const struct dfz_plan *p, uint8_t **buf, size_t *n)
{
	return encode(p, true, buf, n);
}

int dfz_plan_encode_as(const struct dfz_plan *p, uint8_t **buf, size_t *n)
{
	return encode(p, false, buf, n);
}

/* Strict equality, derived from the field tables (plan_fields.c). The
 * caps are not a field: a choice stream does not hold them. */
bool dfz__plan_same(const struct dfz_plan *a, const struct dfz_plan *b)
{
	return a->family == b->family &&
	       dfz__part_same(dfz__part_xfer(), &a->xfer, &b->xfer) &&
	       dfz__plan_host_same(&a->host, &b->host);
}

bool dfz__plan_host_same(const struct dfz_plan_host *a,
			 const struct dfz_plan_host *b)
{
	return dfz__part_same(dfz__part_host(), a, b);
}

bool dfz_plan_equal(const struct dfz_plan *a, const struct dfz_plan *b)
{
	struct dfz_plan na = *a, nb = *b;

	dfz_plan_normalise(&na);
	dfz_plan_normalise(&nb);
	return dfz__plan_same(&na, &nb);
}
