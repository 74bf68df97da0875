// SPDX-License-Identifier: MIT
/*
 * Tests of the field description (harness/plan_fields.c), from which
 * printing, parsing and strict equality are derived: the tables cover
 * every byte of the plan's structs (a member added without an entry
 * fails here), and every field, changed in a plan, is noticed by all
 * three: the plans differ, the printed texts differ, and the text parses
 * back to the changed plan.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check_fast.h"
#include "check_plan.h"

/* ------------------------------------------------------------- coverage */

struct range {
	size_t off;
	size_t end;
	size_t align;
};

static size_t part_align(const struct dfz__part *pt);

static size_t field_align(const struct dfz__field *fd)
{
	return fd->kind == DFZ_FK_PART ? part_align(fd->sub) : fd->width;
}

static size_t part_align(const struct dfz__part *pt)
{
	size_t a = 1;

	for (unsigned k = 0; k < pt->n; k++)
		if (field_align(&pt->f[k]) > a)
			a = field_align(&pt->f[k]);
	return a;
}

static int by_offset(const void *a, const void *b)
{
	const struct range *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

static size_t align_up(size_t v, size_t a)
{
	return (v + a - 1) / a * a;
}

/* The ranges of @pt's members: values, counts, arrays of parts. */
static unsigned part_ranges(const struct dfz__part *pt, struct range *r)
{
	unsigned n = 0;

	for (unsigned k = 0; k < pt->n; k++) {
		const struct dfz__field *fd = &pt->f[k];
		size_t one = fd->kind == DFZ_FK_PART ? fd->sub->size : fd->width;

		r[n++] = (struct range){ fd->off, fd->off + one * fd->cap,
					 field_align(fd) };
		if (fd->kind == DFZ_FK_PART || fd->len == DFZ_LEN_COUNT)
			r[n++] = (struct range){ fd->count_off,
						 fd->count_off + 1u, 1 };
	}
	return n;
}

/* Every member of @pt's struct is described: sorted by offset, each
 * range starts where the C layout puts the next member after the one
 * before (no room for an undescribed member), and the struct ends after
 * the last. A range given twice (a count that is also a key) is one. */
static void check_part_covers(const struct dfz__part *pt)
{
	struct range r[64];
	unsigned n = part_ranges(pt, r), k;
	size_t end = 0;

	qsort(r, n, sizeof(r[0]), by_offset);
	for (k = 0; k < n; k++) {
		if (k && r[k].off == r[k - 1].off && r[k].end == r[k - 1].end)
			continue;
		CK_CHECK_MSG(r[k].off == align_up(end, r[k].align),
			     "%s part: a member at %zu, expected at %zu",
			     pt->prefix, r[k].off, align_up(end, r[k].align));
		end = r[k].end;
	}
	CK_CHECK_MSG(pt->size == align_up(end, part_align(pt)),
		     "%s part: %zu bytes, the fields end at %zu", pt->prefix,
		     pt->size, end);
	for (k = 0; k < pt->n; k++)
		if (pt->f[k].kind == DFZ_FK_PART)
			check_part_covers(pt->f[k].sub);
}

START_TEST(test_fields_cover_structs)
{
	ck_assert_uint_eq(dfz__part_xfer()->size, sizeof(struct dfz_plan_xfer));
	ck_assert_uint_eq(dfz__part_host()->size, sizeof(struct dfz_plan_host));
	check_part_covers(dfz__part_xfer());
	check_part_covers(dfz__part_host());
}
END_TEST

/* The check itself can fail: a table without one of its fields does. */
START_TEST(test_fields_cover_sabotaged)
{
	const struct dfz__part *x = dfz__part_xfer();
	struct range r[64];
	struct dfz__part cut = *x;
	unsigned n, k;
	size_t end = 0;
	bool gap = false;

	cut.f = x->f + 1; /* without `rank` */
	cut.n = x->n - 1;
	n = part_ranges(&cut, r);
	qsort(r, n, sizeof(r[0]), by_offset);
	for (k = 0; k < n; k++) {
		gap |= r[k].off != align_up(end, r[k].align) &&
		       !(k && r[k].off == r[k - 1].off);
		end = r[k].end;
	}
	ck_assert(gap);
}
END_TEST

/* ------------------------------------------------------------- changes */

/* Plans that between them show every field. */
static const char *const base_plans[] = {
	"family xfer\nrank 3\nshape 8 8 6\nelem 2\ntensor_cap 8192\n"
	"in.order 2 0 1\nin.pad 1 0 2\nhops 2\nnodes 2\n"
	"node0.kernel add\nnode0.out.order 1 0 2\nnode0.out.pad 0 1 0\n"
	"node0.aux.order 0 2 1\nnode0.aux.pad 2 0 0\nnode0.tile 4 4 2\n"
	"node0.tile1 2 2 1\nnode1.kernel inc\nnode1.tile 2 4 3\n"
	"node1.tile1 1 2 3\n"
	"hop0.buffering double\nhop0.db_order eager\nhop0.policy pool\n"
	"hop0.pool 3\nhop0.strategy dir\n"
	"hop1.engine idma\nhop1.buffering double\nhop1.policy wait-each\n"
	"hop1.strategy barrier\n"
	"l2_size 60000\nl1_size 30000\ncompute_chunks 3\nlatency 5\n"
	"bandwidth 300\nsched 1 2 3\nseed 77\n",
	"family xfer\nrank 2\nshape 16 4\nhop0.engine mchan\n"
	"hop0.buffering double\nnode0.tile 4 2\nl1_size 20000\nsched 4\n",
	"family host\ntensors 3\n"
	"t0 shape 4 4 dtype fp16 role out child\n"
	"t1 shape 8 dtype int8 role in\nt2 shape 2 3 4 dtype fp32 role inout\n"
	"graph 1\nlaunches 3\nbudget 65536\nbin 100\nseed 9\n",
	"family api\ntensors 2\nt0 shape 4 dtype int32 role in child\n"
	"t1 shape 3 2 dtype fp64 role out\nbudget 8192\nbin 16\nseed 4\n"
	"call malloc slot 1 size 256\ncall copy_to slot 1 offset 8 size 16\n"
	"call run repeat 2\ncall init fault nargs arg 1\n"
	"call free slot 1 fault null_ptr\ncall validate\n",
};

/* Fields some plan changed: each must be, by the end. */
static const struct dfz__field *changed[128];
static unsigned nchanged;

static void mark_changed(const struct dfz__field *fd)
{
	for (unsigned i = 0; i < nchanged; i++)
		if (changed[i] == fd)
			return;
	ck_assert_uint_lt(nchanged, COUNT_OF(changed));
	changed[nchanged++] = fd;
}

/* The value an order's value @j swaps with: the next, or the one before
 * for the last. */
static unsigned partner(const struct dfz__field *fd, const struct dfz__fctx *c,
			unsigned j)
{
	return j + 1 < dfz__field_count(fd, c) ? j + 1 : j - 1;
}

/* Values to try for value @j of @fd at @c, other than its own; up to
 * 12 in @cand; returns how many. */
static unsigned candidates(const struct dfz__field *fd,
			   const struct dfz__fctx *c, unsigned j,
			   uint32_t *cand)
{
	uint32_t v = dfz__field_get(fd, c->part, j), hi = fd->hi, names;
	unsigned n = 0, k;

	switch (fd->kind) {
	case DFZ_FK_NAME:
		dfz__names(fd->names, &names);
		for (k = 0; k < names && n < 12; k++)
			cand[n++] = fd->lo + k;
		break;
	case DFZ_FK_OP:
		for (k = 0; k < DFZ_PLAN_HOST_OPS; k++)
			cand[n++] = dfz__plan_host_ops()[k];
		break;
	case DFZ_FK_POW2:
		for (k = fd->lo; k <= fd->hi; k++)
			cand[n++] = 1u << k;
		break;
	case DFZ_FK_ORDER: /* swapped with a neighbour */
		cand[n++] = dfz__field_get(fd, c->part, partner(fd, c, j));
		break;
	default:
		hi = hi ? hi : dfz__plan_dim_cap(&c->p->xfer);
		cand[n++] = fd->lo;
		cand[n++] = fd->lo + 1;
		cand[n++] = fd->lo + 2;
		cand[n++] = hi;
		cand[n++] = hi - 1;
		cand[n++] = v ^ 1u;
		break;
	}
	for (k = 0; k < n; k++)
		if (cand[k] == v)
			cand[k--] = cand[--n];
	return n;
}

/* A copy of @p with value @j of @fd (at byte @at of @p's part) set to @v
 * (an order: swapped with its partner) and then normalised: true when
 * the value survives. */
static bool change(const struct dfz__fctx *c, const struct dfz__field *fd,
		   size_t at, unsigned j, uint32_t v, struct dfz_plan *out)
{
	void *part;

	*out = *c->p;
	part = (uint8_t *)out + at;
	if (fd->kind == DFZ_FK_ORDER) /* keep a permutation: swap */
		dfz__field_set(fd, part, partner(fd, c, j),
			       dfz__field_get(fd, part, j));
	dfz__field_set(fd, part, j, v);
	dfz_plan_normalise(out);
	return dfz__field_get(fd, part, j) == v;
}

/* @q differs from @p in a field: all three notice it. */
static void check_noticed(const struct dfz_plan *p, const struct dfz_plan *q,
			  const char *what)
{
	char *a = print_to_string(p), *b = print_to_string(q), err[256];
	struct dfz_plan back;

	CK_CHECK_MSG(!dfz__plan_same(p, q), "%s: equality", what);
	CK_CHECK_MSG(strcmp(a, b) != 0, "%s: print", what);
	CK_CHECK_MSG(dfz_plan_parse(b, &back, err, sizeof(err)) == 0,
		     "%s: parse: %s", what, err);
	CK_CHECK_MSG(dfz__plan_same(&back, q), "%s: parse(print)\n%s", what,
		     b);
	free(a);
	free(b);
}

static void change_part(const struct dfz_plan *p, const struct dfz__part *pt,
			size_t at, unsigned i);

/* Change every value of field @fd of the part at byte @at of @p. */
static void change_field(const struct dfz_plan *p, const struct dfz__field *fd,
			 size_t at, unsigned i)
{
	struct dfz__fctx c = { .p = p, .part = (const uint8_t *)p + at,
			       .i = i };
	unsigned n = dfz__field_count(fd, &c), j, k, m;
	uint32_t cand[12];
	struct dfz_plan q;
	char what[64];

	if (fd->kind == DFZ_FK_PART) {
		for (j = 0; j < n; j++)
			change_part(p, fd->sub, at + fd->off + j * fd->sub->size,
				    j);
		return;
	}
	if (!dfz__field_is_shown(fd, &c) || (fd->flags & DFZ_FF_CHECKED))
		return; /* not drawn, or derived from the others */
	for (j = 0; j < n; j++) {
		m = candidates(fd, &c, j, cand);
		for (k = 0; k < m && !change(&c, fd, at, j, cand[k], &q); k++)
			;
		if (k == m)
			continue;
		snprintf(what, sizeof(what), "%s[%u] of %u", fd->key ?
			 fd->key : "op", j, i);
		check_noticed(p, &q, what);
		mark_changed(fd);
	}
}

static void change_part(const struct dfz_plan *p, const struct dfz__part *pt,
			size_t at, unsigned i)
{
	for (unsigned k = 0; k < pt->n; k++)
		change_field(p, &pt->f[k], at, i);
}

/* Every field of @pt (but derived ones and arrays) was changed. */
static void check_all_changed(const struct dfz__part *pt)
{
	for (unsigned k = 0; k < pt->n; k++) {
		const struct dfz__field *fd = &pt->f[k];
		unsigned i;

		if (fd->kind == DFZ_FK_PART) {
			check_all_changed(fd->sub);
			continue;
		}
		if (fd->flags & DFZ_FF_CHECKED)
			continue;
		for (i = 0; i < nchanged && changed[i] != fd; i++)
			;
		CK_CHECK_MSG(i < nchanged, "field '%s' of part '%s' was never "
			     "changed", fd->key ? fd->key : "op", pt->prefix);
	}
}

START_TEST(test_fields_changes_noticed)
{
	struct dfz_plan p, back;
	char err[256], *text;
	bool xfer;

	nchanged = 0;
	for (unsigned b = 0; b < COUNT_OF(base_plans); b++) {
		ck_assert_msg(dfz_plan_parse(base_plans[b], &p, err,
					     sizeof(err)) == 0, "%s", err);
		dfz_plan_normalise(&p);
		text = print_to_string(&p); /* the base plan round-trips */
		ck_assert_int_eq(dfz_plan_parse(text, &back, err, sizeof(err)),
				 0);
		ck_assert(dfz__plan_same(&p, &back));
		free(text);
		xfer = p.family == DFZ_FAMILY_XFER;
		change_part(&p, xfer ? dfz__part_xfer() : dfz__part_host(),
			    xfer ? offsetof(struct dfz_plan, xfer) :
				   offsetof(struct dfz_plan, host), 0);
	}
	check_all_changed(dfz__part_xfer());
	check_all_changed(dfz__part_host());
}
END_TEST

Suite *suite_plan_fields(void)
{
	Suite *s = suite_create("plan_fields");
	TCase *tc = tcase_create("fields");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_fields_cover_structs);
	tcase_add_test(tc, test_fields_cover_sabotaged);
	tcase_add_test(tc, test_fields_changes_noticed);
	suite_add_tcase(s, tc);
	return s;
}
