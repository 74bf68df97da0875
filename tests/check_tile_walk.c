// SPDX-License-Identifier: MIT
/*
 * The walk of the tiling executor (dfz_prog_walk(), runtime/tile_walk.c)
 * and its two back ends: the order of a double-buffered program's
 * issues, waits and compute steps, for each double-buffering order, is
 * written here once, and asserted three times: of the walk itself (a
 * recording back end), of the executor's run on the runtime (its event
 * stream), of the C program `dmafuzz emit-c` prints (its calls) and of
 * the SDK program `emit-c --dropin` prints (its PMSIS calls). A change to
 * the walk's order is one edit, and fails all four.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmafuzz/emit.h"
#include "../reports/emit/emit_dropin_int.h"

#include "exec_fixture.h"
#include "rt_fixture.h"

#define PLAN "tests/data/walk-db.plan"

/*
 * 3 tiles, double buffered: I issue, W wait, C compute. The generator's
 * order waits the previous tile's store before each tile's work; the
 * eager order waits only tile i-2's, so two stores may be in flight.
 */
static const char *const golden[2] = {
	[DFZ_DB_GENERATOR] = "IWICIWIWCIWWCIW",
	[DFZ_DB_EAGER] = "IWICIWICIWWCIWW",
};

struct trace {
	char s[256];
	size_t n;
};

static void put(struct trace *t, char c)
{
	if (t->n + 1 < sizeof(t->s))
		t->s[t->n++] = c;
	t->s[t->n] = '\0';
}

/* ----------------------------------------------------- the walk itself */

static int rec_alloc(void *ctx, unsigned h, enum dfz_walk_role role,
		     unsigned slot, uint64_t bytes)
{
	(void)ctx, (void)h, (void)role, (void)slot, (void)bytes;
	return 0;
}

static void rec_free(void *ctx, unsigned h, enum dfz_walk_role role,
		     unsigned slot)
{
	(void)ctx, (void)h, (void)role, (void)slot;
}

static int rec_scope_init(void *ctx, unsigned h, unsigned scope, unsigned n)
{
	(void)ctx, (void)h, (void)scope, (void)n;
	return 0;
}

static void rec_scope_fini(void *ctx, unsigned h, unsigned scope,
			   unsigned n)
{
	(void)ctx, (void)h, (void)scope, (void)n;
}

static int rec_issue(void *ctx, const struct dfz_walk_xfer *x)
{
	(void)x;
	put(ctx, 'I');
	return 0;
}

static int rec_wait(void *ctx, unsigned h, struct dfz_walk_ref ref)
{
	(void)h, (void)ref;
	put(ctx, 'W');
	return 0;
}

static int rec_compute(void *ctx, unsigned h, unsigned slot, uint64_t n)
{
	(void)h, (void)slot, (void)n;
	put(ctx, 'C');
	return 0;
}

static int rec_enter(void *ctx, unsigned h, unsigned slot,
		     const struct dfz_walk_tile *t)
{
	(void)ctx, (void)h, (void)slot, (void)t;
	return 0;
}

static void rec_leave(void *ctx, unsigned h)
{
	(void)ctx, (void)h;
}

static const struct dfz_walk_ops rec_ops = {
	.alloc_buf = rec_alloc, .free_buf = rec_free,
	.scope_init = rec_scope_init, .scope_fini = rec_scope_fini,
	.issue = rec_issue, .wait = rec_wait, .compute = rec_compute,
	.enter = rec_enter, .leave = rec_leave,
};

/* The program of the plan file: rank 1, 12 elements in tiles of 4. */
static void prog_of(struct dfz_prog *p, uint8_t order)
{
	memset(p, 0, sizeof(*p));
	p->rank = 1;
	p->elem = 1;
	p->shape[0] = 12;
	p->nnodes = 1;
	p->nhops = 1;
	p->hop[0] = (struct dfz_hop){ .local_level = DFZ_L2, .buffering = 2,
				      .strategy = DFZ_STRAT_FRESH,
				      .db_order = order };
	p->node[0].kernel = DFZ_KERNEL_COPY;
	p->node[0].tile[0][0] = 4;
	p->node[0].in = (struct dfz_tensor){ .level = DFZ_L3,
					     .stride = { 1 }, .bytes = 12 };
	p->node[0].out = p->node[0].in;
}

START_TEST(test_walk_order)
{
	struct dfz_prog p;
	struct trace t = { 0 };

	prog_of(&p, (uint8_t)_i);
	ck_assert_int_eq(dfz_prog_walk(&p, 0, &rec_ops, &t), 0);
	ck_assert_str_eq(t.s, golden[_i]);
}
END_TEST

/* --------------------------------------------------- the runtime's run */

static struct trace run_trace;

static void observe(void *ctx, const struct dfz_event *ev)
{
	(void)ctx;
	if (ev->kind == DFZ_EV_ISSUE)
		put(&run_trace, 'I');
	else if (ev->kind == DFZ_EV_WAIT)
		put(&run_trace, 'W');
	else if (ev->kind == DFZ_EV_COMPUTE_WRITE)
		put(&run_trace, 'C');
}

START_TEST(test_runtime_order)
{
	struct dfz_rt_config cfg = { .bandwidth = 8, .sched = draw,
				     .obs = { .fn = observe } };
	struct dfz_adapter ad;
	struct dfz_prog p;

	rt_setup();
	ck_assert_int_eq(dfz_rt_reset(rt, &cfg), 0);
	prog_of(&p, (uint8_t)_i);
	ck_assert_int_eq(dfz_l3_alloc(rt, 12, &p.node[0].in.off), 0);
	ck_assert_int_eq(dfz_l3_alloc(rt, 12, &p.node[0].out.off), 0);
	ad = (struct dfz_adapter){ .rt = rt, .engine = DFZ_ENGINE_RAM,
				   .policy = DFZ_POLICY_ASYNC_SHARED,
				   .req_level = DFZ_L2 };
	memset(&run_trace, 0, sizeof(run_trace));
	ck_assert_int_eq(dfz_prog_run(&ad, &p), 0);
	rt_teardown();
	ck_assert_str_eq(run_trace.s, golden[_i]);
}
END_TEST

/* ------------------------------------------------- the printed program */

/* The calls of the emitted program's tiled function, in order: the
 * library's (emit-c) or the SDK's (--dropin; each tile transfer is one
 * copy here). */
static void calls_of(const char *text, struct trace *t)
{
	const char *fn = strstr(text, "static int program(void)");
	const char *end;

	if (!fn)
		fn = strstr(text, "static void program(void)");
	end = fn ? strstr(fn, "\n}\n") : NULL;
	ck_assert_ptr_nonnull(end);
	for (const char *l = fn; l && l < end; l = strchr(l + 1, '\n')) {
		l += strspn(l, "\n\t");
		if (!strncmp(l, "TRY(dfz_xfer_issue(", 19) ||
		    !strncmp(l, "pi_cl_ram_copy(", 15) ||
		    !strncmp(l, "pi_cl_ram_copy_2d(", 18))
			put(t, 'I');
		else if (!strncmp(l, "TRY(dfz_handle_wait(", 20) ||
			 !strncmp(l, "pi_cl_ram_copy_wait(", 20))
			put(t, 'W');
		else if (!strncmp(l, "compute(", 8))
			put(t, 'C');
	}
}

static void printed_order(bool dropin, int order)
{
	struct dfz_emit_config cfg = { .name = PLAN, .dropin = dropin };
	struct trace t = { 0 };
	struct dfz_plan p;
	char *text = NULL;
	size_t n;
	FILE *m;

	load(PLAN, &p);
	p.xfer.hop[0].db_order = (uint8_t)order;
	m = open_memstream(&text, &n);
	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(dfz_emit_c(&p, &cfg, m), 0);
	fclose(m);
	if (dropin) {
		/* The calls one by one, as the walk makes them (the program
		 * rolls them into loops: tests/check_emit_roll.c). */
		ck_assert_int_eq(dfz_plan_normalise(&p), 0);
		free(text);
		m = open_memstream(&text, &n);
		ck_assert_ptr_nonnull(m);
		ck_assert_int_eq(dfz__emit_dropin_as(m, &p.xfer, 0, false), 0);
		fclose(m);
	}
	calls_of(text, &t);
	free(text);
	ck_assert_str_eq(t.s, golden[order]);
}

START_TEST(test_printer_order)
{
	printed_order(false, _i);
}
END_TEST

START_TEST(test_dropin_order)
{
	printed_order(true, _i);
}
END_TEST

Suite *suite_tile_walk(void)
{
	Suite *s = suite_create("tile_walk");
	TCase *tc = tcase_create("order");

	tcase_add_loop_test(tc, test_walk_order, DFZ_DB_GENERATOR,
			    DFZ_DB_EAGER + 1);
	tcase_add_loop_test(tc, test_runtime_order, DFZ_DB_GENERATOR,
			    DFZ_DB_EAGER + 1);
	tcase_add_loop_test(tc, test_printer_order, DFZ_DB_GENERATOR,
			    DFZ_DB_EAGER + 1);
	tcase_add_loop_test(tc, test_dropin_order, DFZ_DB_GENERATOR,
			    DFZ_DB_EAGER + 1);
	suite_add_tcase(s, tc);
	return s;
}
