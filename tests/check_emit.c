// SPDX-License-Identifier: MIT
/*
 * The C reproducer emitter (dfz_emit_c()) and `dmafuzz emit-c`: what an
 * emitted program holds (public headers only, the plan's calls written
 * out one by one, the faulty and the fixed code of a tiling switch, a
 * host call's fault as a concrete argument), its argument checks, and the
 * command's exit codes. That every emitted reproducer compiles against
 * the installed library and reproduces is `make emit-check`
 * (tools/emit-check.sh), part of `make check`.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dmafuzz/emit.h"
#include "../reports/emit/emit_dropin_int.h"

#include "cli_run.h"
#include "exec_fixture.h"
#include "scratch.h"

static char *text;

/* Emit plan @p with @bugs into `text` (--dropin when @dropin); return
 * dfz_emit_c()'s. */
static int emit_plan_as(const struct dfz_plan *p, uint32_t bugs, bool dropin)
{
	struct dfz_emit_config cfg = { .bugs = bugs, .name = "plan",
				       .dropin = dropin };
	size_t n;
	FILE *m;
	int rc;

	free(text);
	text = NULL;
	m = open_memstream(&text, &n);
	ck_assert_ptr_nonnull(m);
	rc = dfz_emit_c(p, &cfg, m);
	fclose(m);
	return rc;
}

/* Emit @path with @bugs and @expect into `text`; return dfz_emit_c()'s.
 * A drop-in program's calls are written one by one (not rolled into
 * loops: tests/check_emit_roll.c), so each can be counted. */
static int emit_as(const char *path, uint32_t bugs, const char *expect,
		   bool dropin)
{
	struct dfz_emit_config cfg = { .bugs = bugs, .expect = expect,
				       .name = path, .dropin = dropin };
	struct dfz_plan p;
	size_t n;
	FILE *m;
	int rc;

	load(path, &p);
	free(text);
	text = NULL;
	m = open_memstream(&text, &n);
	ck_assert_ptr_nonnull(m);
	rc = dfz_emit_c(&p, &cfg, m);
	fclose(m);
	if (rc == 0 && dropin) {
		ck_assert_int_eq(dfz_plan_normalise(&p), 0);
		free(text);
		m = open_memstream(&text, &n);
		ck_assert_ptr_nonnull(m);
		rc = dfz__emit_dropin_as(m, &p.xfer, bugs, false);
		fclose(m);
	}
	return rc;
}

static int emit(const char *path, uint32_t bugs, const char *expect)
{
	return emit_as(path, bugs, expect, false);
}

static unsigned count(const char *needle)
{
	unsigned k = 0;

	for (const char *s = text; (s = strstr(s, needle)); s++)
		k++;
	return k;
}

static void teardown(void)
{
	free(text);
	text = NULL;
}

/* The motivating plan: 2 tiles of a rank-4 copy, each a load, a wait, a
 * compute, a store and a wait, on handles 0 (input) and 2 (output) of
 * the tensor-dir strategy. */
START_TEST(test_xfer_calls)
{
	ck_assert_int_eq(emit("corpus/regress/shared-handle.plan",
			      DFZ_BUG_BIT(SHARED_HANDLE),
			      "handle.reuse|queue.corrupt"), 0);
	ck_assert_uint_eq(count("#include <dmafuzz/"), 1);
	ck_assert_uint_eq(count("_int.h"), 0);
	ck_assert_uint_eq(count("TRY(dfz_xfer_issue(&ad[0]"), 4);
	ck_assert_uint_eq(count("TRY(dfz_handle_wait(&ad[0], &h0[0]));"), 2);
	ck_assert_uint_eq(count("TRY(dfz_handle_wait(&ad[0], &h0[2]));"), 2);
	ck_assert_uint_eq(count("\tcompute(DFZ_ENGINE_RAM, DFZ_KERNEL_COPY"), 2);
	ck_assert_ptr_nonnull(strstr(text, ".shape = { 1, 4, 2, 8 }, "
				     ".ext_stride = { 256, 2, 64, 8 }"));
	ck_assert_ptr_nonnull(strstr(text, ".ext_off = prog.node[0].out.off + 128,"));
	ck_assert_ptr_nonnull(strstr(text, "#define EMITTED_BUGS (DFZ_BUG_BIT(SHARED_HANDLE))"));
	ck_assert_ptr_nonnull(strstr(text, "#define EXPECTED \"handle.reuse|queue.corrupt\""));
	/* The runtime switch needs no second program. */
	ck_assert_uint_eq(count("program_fixed"), 0);
}
END_TEST

/* A tiling switch changes the generated code: both programs are there,
 * the faulty one computes before it waits the load. */
START_TEST(test_tile_switch_two_programs)
{
	const char *faulty, *fixed, *wait, *comp;

	ck_assert_int_eq(emit("corpus/regress/early-compute.plan",
			      DFZ_BUG_BIT(EARLY_COMPUTE), NULL), 0);
	faulty = strstr(text, "static int program_faulty(void)");
	fixed = strstr(text, "static int program_fixed(void)");
	ck_assert_ptr_nonnull(faulty);
	ck_assert_ptr_nonnull(fixed);
	ck_assert(faulty < fixed);
	comp = strstr(faulty, "\tcompute(");
	wait = strstr(faulty, "TRY(dfz_handle_wait(");
	ck_assert(comp && wait && comp < wait);
	comp = strstr(fixed, "\tcompute(");
	wait = strstr(fixed, "TRY(dfz_handle_wait(");
	ck_assert(comp && wait && wait < comp);
}
END_TEST

/* A host call's fault is a concrete argument: a NULL table for null-arg,
 * and a signal becomes a crash finding. */
START_TEST(test_host_calls)
{
	ck_assert_int_eq(emit("corpus/regress/null-arg.plan",
			      DFZ_BUG_BIT(NULL_ARG), "crash"), 0);
	ck_assert_ptr_nonnull(strstr(text, "rc = dfz_host_init(host, NULL, roles, 1, 0);"));
	ck_assert_ptr_nonnull(strstr(text, "dfz_oracles_returned(set, 0, 0, rc);"));
	ck_assert_ptr_nonnull(strstr(text, "DFZ_CLASS_CRASH"));
	ck_assert_int_eq(emit("corpus/api/bad-args.plan", 0, NULL), 0);
	ck_assert_ptr_nonnull(strstr(text, "args[0].shapes[0] = 0u;"));
	ck_assert_ptr_nonnull(strstr(text, "args[2].data = 0;"));
	ck_assert_ptr_nonnull(strstr(text, "rc = dfz_dev_malloc(dev, DFZ_HOST_HUGE_SIZE, &got);"));
}
END_TEST

START_TEST(test_bad_arguments)
{
	struct dfz_emit_config cfg = { .expect = "nope" };
	struct dfz_plan p;

	ck_assert_int_eq(emit("corpus/regress/db-war.plan", 0, "nope"),
			 DFZ_EINVAL);
	ck_assert_int_eq(emit("corpus/regress/db-war.plan", 0,
			      "hazard.race|"), DFZ_EINVAL);
	ck_assert_int_eq(emit("corpus/regress/db-war.plan",
			      1u << DFZ_BUG_COUNT, NULL), DFZ_EINVAL);
	ck_assert_int_eq(emit("corpus/regress/db-war.plan", 0, "clean"), 0);
	load("corpus/regress/db-war.plan", &p);
	p.family = DFZ_FAMILY_COUNT;
	cfg.expect = NULL;
	ck_assert_int_eq(dfz_emit_c(&p, &cfg, stdout), DFZ_EINVAL);
	ck_assert_int_eq(dfz_emit_c(NULL, &cfg, stdout), DFZ_EINVAL);
}
END_TEST

/* A write that fails (a full disk: /dev/full, every write ENOSPC) is an
 * I/O error, not "address outside the memory model". */
START_TEST(test_emit_full_disk)
{
	struct dfz_emit_config cfg = { .name = "full" };
	struct dfz_plan p;
	FILE *f = fopen("/dev/full", "w");

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(setvbuf(f, NULL, _IONBF, 0), 0);
	load("corpus/regress/db-war.plan", &p);
	ck_assert_int_eq(dfz_emit_c(&p, &cfg, f), DFZ_EIO);
	fclose(f);
}
END_TEST

START_TEST(test_cli_exit_codes)
{
	ck_assert_int_eq(cli_quiet("emit-c --bug db-war corpus/regress/db-war.plan"), 0);
	/* Without a switch the program asserts a clean run. */
	ck_assert_int_eq(cli_quiet("emit-c corpus/regress/db-war.plan"), 0);
	/* The run does not give the class asked for: nothing written. */
	ck_assert_int_eq(cli_quiet("emit-c --bug db-war --expect dma.hang "
			     "-o $T/emit-never.c corpus/regress/db-war.plan"), 4);
	ck_assert_int_eq(cli_quiet("emit-c --bug shared-handle corpus/regress/db-war.plan"), 4);
	ck_assert_int_eq(access(at("emit-never.c"), F_OK), -1);
	ck_assert_int_eq(cli_quiet("emit-c --expect nope corpus/regress/db-war.plan"), 2);
	ck_assert_int_eq(cli_quiet("emit-c --bug nope corpus/regress/db-war.plan"), 2);
	ck_assert_int_eq(cli_quiet("emit-c no/such.plan"), 2);
	ck_assert_int_eq(cli_quiet("emit-c"), 2);
	ck_assert_int_eq(cli_quiet("emit-c --help"), 0);
}
END_TEST

/* --dropin: the motivating plan as SDK code. Its first tile's store is
 * four 2-D copies on the output's request; the fixed adapter waits the
 * request before re-issuing it, shared-handle does not. No call of the
 * library's API is left; a plan the printer does not write is refused. */
START_TEST(test_dropin_calls)
{
	const char *first, *second;

	ck_assert_int_eq(emit_as("corpus/regress/shared-handle.plan", 0, NULL,
				 true), 0);
	ck_assert_ptr_null(strstr(text, "dfz_xfer_issue"));
	ck_assert_ptr_nonnull(strstr(text, "#include <bsp/ram.h>"));
	ck_assert_ptr_nonnull(strstr(text, "DFZ_DROPIN_MAIN(body, NULL)"));
	first = strstr(text, "\tpi_cl_ram_copy_2d(ram, t[1] + 0, ");
	ck_assert_ptr_nonnull(first);
	second = strstr(first + 1, "\tpi_cl_ram_copy_2d(ram, t[1] + 2, ");
	ck_assert_ptr_nonnull(second);
	ck_assert_ptr_nonnull(strstr(first, "pi_cl_ram_copy_wait(&req0[0][2][0]);"));
	ck_assert(strstr(first, "pi_cl_ram_copy_wait(&req0[0][2][0]);") < second);
	ck_assert_int_eq(emit_as("corpus/regress/shared-handle.plan",
				 DFZ_BUG_BIT(SHARED_HANDLE), NULL, true), 0);
	first = strstr(text, "\tpi_cl_ram_copy_2d(ram, t[1] + 0, ");
	ck_assert_ptr_nonnull(first);
	second = strstr(first + 1, "\tpi_cl_ram_copy_2d(ram, t[1] + 2, ");
	ck_assert_ptr_nonnull(second);
	ck_assert(strstr(first, "pi_cl_ram_copy_wait(") > second);
	/* A host plan. */
	ck_assert_int_eq(emit_as("corpus/regress/register-leak.plan", 0, NULL,
				 true), DFZ_EINVAL);
}
END_TEST

/* --dropin on mchan (one L2<->L1 hop, 4 one-element tiles): a transfer
 * id taken for each group of pushes into the request's list, each id
 * waited and freed; mchan-tid-leak leaves the free out. A request whose id
 * is no longer the latest taken takes a fresh one (no refusal);
 * mchan-push-latest pushes on without, as the faulty code does. */
START_TEST(test_dropin_mchan)
{
	struct dfz_plan p;
	char why[200] = "";

	ck_assert_int_eq(emit_as("corpus/regress/mchan-tid-leak.plan", 0, NULL,
				 true), 0);
	ck_assert_ptr_nonnull(strstr(text, "#define MCHAN_VERSION 7\n#include <mchan.h>"));
	ck_assert_ptr_null(strstr(text, "pi_cl_ram"));
	ck_assert_uint_eq(count("\treq0[0][0][0].id[req0[0][0][0].n++] = "
				"mchan_transfer_get_id();"), 4);
	ck_assert_uint_eq(count("\ttrans = (mchan_transfer_t){ .cmd = "
				"MCHAN_CMD(4u, MCHAN_DMA_TRANSFER_DIRECTION_"
				"EXT2LOC, "), 4);
	ck_assert_uint_eq(count("\tmchan_transfer_push_1d(trans);"), 8);
	ck_assert_uint_eq(count("\t\tmchan_transfer_wait(req0["), 8);
	ck_assert_uint_eq(count("\t\tmchan_transfer_free(req0["), 8);
	ck_assert_int_eq(emit_as("corpus/regress/mchan-tid-leak.plan",
				 DFZ_BUG_BIT(MCHAN_TID_LEAK), NULL, true), 0);
	ck_assert_uint_eq(count("\t\tmchan_transfer_wait(req0["), 8);
	ck_assert_uint_eq(count("\tmchan_transfer_free("), 0);

	/* An empty shape: no push, and still no unused variable. */
	load("corpus/xfer/mchan-rank1.plan", &p);
	p.xfer.shape[0] = 0;
	ck_assert_int_eq(emit_plan_as(&p, 0, true), 0);
	ck_assert_uint_eq(count("\tmchan_transfer_t trans;\n\n\t(void)trans;\n"),
			  1);
	ck_assert_uint_eq(count("mchan_transfer_push_"), 0);

	load("tests/data/mchan-latest-tid.plan", &p);
	ck_assert(dfz_emit_dropin_supports(&p, 0, why, sizeof(why)));
	ck_assert_int_eq(emit_as("tests/data/mchan-latest-tid.plan", 0, NULL,
				 true), 0);
	ck_assert_uint_eq(count("mchan-push-latest"), 0);
	ck_assert_int_eq(emit_as("tests/data/mchan-latest-tid.plan",
				 DFZ_BUG_BIT(MCHAN_PUSH_LATEST), NULL, true), 0);
	ck_assert_uint_eq(count("\t/* mchan-push-latest: no "
				"mchan_transfer_get_id() for this group */"), 1);
	/* Two 2^17-byte L1 buffers: beyond the drop-in's default L1, so the
	 * program asks for the plan's (the plan's level always holds its
	 * buffers: the normaliser grows it). */
	ck_assert_int_eq(emit_as("corpus/regress/mchan-len-overflow.plan", 0,
				 NULL, true), 0);
	ck_assert_uint_eq(count("\nDFZ_DROPIN_MEMORY(0, 524288)\n"), 1);
	load("corpus/regress/mchan-len-overflow.plan", &p);
	ck_assert(dfz_emit_dropin_supports(&p, 0, why, sizeof(why)));
}
END_TEST

/* --dropin on idma: the Snitch calls, each copy followed by its dummy
 * unless idma-no-dummy; two hops nest mchan pushes from hop 0's L2
 * buffers inside the RAM copies. */
START_TEST(test_dropin_snitch_two_hop)
{
	ck_assert_int_eq(emit_as("corpus/regress/idma-no-dummy.plan", 0, NULL,
				 true), 0);
	ck_assert_ptr_nonnull(strstr(text, "#include <snrt.h>"));
	ck_assert_ptr_null(strstr(text, "#include <pmsis.h>"));
	ck_assert_uint_eq(count("\treq0[0][0][0] = snrt_dma_start_1d("), 4);
	ck_assert_uint_eq(count("\tsnrt_dma_start_1d(scr0["), 8);
	ck_assert_uint_eq(count("\tsnrt_dma_wait(req0["), 8);
	ck_assert_int_eq(emit_as("corpus/regress/idma-no-dummy.plan",
				 DFZ_BUG_BIT(IDMA_NO_DUMMY), NULL, true), 0);
	ck_assert_uint_eq(count("\tsnrt_dma_start_1d(scr0["), 0);
	ck_assert_uint_eq(count("\tsnrt_dma_wait(req0["), 8);

	ck_assert_int_eq(emit_as("corpus/xfer/two-hop-mchan-double.plan", 0,
				 NULL, true), 0);
	ck_assert_ptr_nonnull(strstr(text, "\tpi_cl_ram_copy_2d(ram, t[0] + "));
	ck_assert_ptr_nonnull(strstr(text, ".loc = buf[1][0][0] + 0, .ext = buf[0][0][0] + 0,"));
	ck_assert_ptr_nonnull(strstr(text, "buf[1][0][0] = pmsis_l1_malloc("));
}
END_TEST

Suite *suite_emit(void)
{
	Suite *s = suite_create("emit");
	TCase *tc = tcase_create("emit");

	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, NULL, teardown);
	scratch_add(tc);
	tcase_add_test(tc, test_xfer_calls);
	tcase_add_test(tc, test_dropin_calls);
	tcase_add_test(tc, test_dropin_mchan);
	tcase_add_test(tc, test_dropin_snitch_two_hop);
	tcase_add_test(tc, test_tile_switch_two_programs);
	tcase_add_test(tc, test_host_calls);
	tcase_add_test(tc, test_bad_arguments);
	tcase_add_test(tc, test_emit_full_disk);
	tcase_add_test(tc, test_cli_exit_codes);
	suite_add_tcase(s, tc);
	return s;
}
