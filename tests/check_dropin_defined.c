// SPDX-License-Identifier: MIT
/*
 * mem.undefined through the drop-in (oracles/defined.c, issue 24 item 3):
 * a transfer whose source row of 8 bytes or more still holds its level's
 * fill pattern moves bytes no one wrote, a finding at the transfer's line
 * naming the block (an L3 input the host never put there, an L1 output
 * the kernel never wrote). Each finding has its twin that writes the
 * bytes first and runs clean; a row under 8 bytes, or one a single
 * written byte breaks, is clean; a 2-D transfer is judged row by row, not
 * by its box. The sabotage: the run's oracle set without "defined" finds
 * nothing in the body the full set finds it in. Lines are taken with
 * __LINE__ on the calls themselves, each call on one line (a call over
 * several lines is at its first line for gcc, its last for clang).
 */
#define _DEFAULT_SOURCE /* open_memstream */
#include <check.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "dropin_fixture.h"
#include "dmafuzz/dropin/bsp/ram.h"
#include "dmafuzz/dropin/pmsis.h"

#define B 256                /* bytes of the L3 input */
#define O 64                 /* bytes of the L1 output */
#define RAM get_ram_ptr()
#define LOC2EXT PI_CL_DMA_DIR_LOC2EXT

static int line_alloc, line_xfer;
static int written;          /* how much of its source a body writes */
static unsigned nbytes;      /* a body's transfer size */
static uint32_t l3_addr;     /* the L3 block a body allocated */

static struct dfz__result run(void (*body)(void *), int w)
{
	struct dfz_dropin_test t = { body, NULL, __FILE__ };
	struct dfz__result r;

	written = w;
	dfz__dropin_run(&t, NULL, 0, &r);
	return r;
}

/* The finding is mem.undefined at line_xfer, about a block of @level and
 * @size bytes allocated at line_alloc. */
static void undefined_at(const struct dfz__result *r, unsigned level,
			 uint32_t size)
{
	ck_assert_msg(r->finding.cls == DFZ_CLASS_MEM_UNDEFINED, "%s: %s",
		      dfz_class_name(r->finding.cls), r->finding.msg);
	ck_assert_str_eq(r->finding.oracle, "defined");
	ck_assert_str_eq(r->site.file, __FILE__);
	ck_assert_int_eq(r->site.line, line_xfer);
	ck_assert_msg(strstr(r->finding.msg, "was never written"), "%s",
		      r->finding.msg);
	ck_assert(r->block.known && !r->block.freed);
	ck_assert_uint_eq(r->block.level, level);
	ck_assert_uint_eq(r->block.size, size);
	ck_assert_int_eq(r->block.alloc.line, line_alloc);
}

/* ----------------------------------------------- a load of an L3 input */

/* written 0: the input never put in L3; 1: the host wrote it; 2: the
 * host wrote one byte of it (at nbytes), unlike the fill byte there. */
static void body_load(void *arg)
{
	pi_cl_ram_req_t req;
	uint8_t *tile = pi_l2_malloc(B), one;

	(void)arg;
	line_alloc = __LINE__; l3_addr = (uint32_t)(uintptr_t)cl_ram_malloc(B);
	if (written == 1)
		l3_fill(l3_addr, B);
	one = (uint8_t)~dfz_mem_fill_byte(DFZ_L3, l3_addr + nbytes);
	if (written == 2)
		ck_assert_int_eq(dfz_dropin_l3_write(l3_addr + nbytes, &one, 1),
				 0);
	line_xfer = __LINE__; pi_cl_ram_read(RAM, l3_addr, tile, B, &req);
	pi_cl_ram_read_wait(&req);
	cl_ram_free((void *)(uintptr_t)l3_addr, B);
	pi_l2_free(tile, B);
}

/* The run's verdict as the JSON the CLI prints, parsed back. */
static json_t *as_json(const struct dfz__result *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	json_t *j;

	ck_assert_ptr_nonnull(f);
	dfz__dropin_print(r, "x", true, f);
	fclose(f);
	j = json_loads(text, 0, NULL);
	free(text);
	ck_assert_ptr_nonnull(j);
	return j;
}

START_TEST(test_load_never_written)
{
	struct dfz__result r = run(body_load, 0);
	json_t *j, *b;

	undefined_at(&r, DFZ_L3, B);
	ck_assert_uint_eq(r.block.addr, l3_addr);
	ck_assert_int_eq(r.finding.ev.level, DFZ_L3);
	ck_assert_int_eq(r.finding.ev.off, (int64_t)l3_addr);
	j = as_json(&r);
	ck_assert_str_eq(json_string_value(json_object_get(j, "class")),
			 "mem.undefined");
	b = json_object_get(j, "block");
	ck_assert_str_eq(json_string_value(json_object_get(b, "level")), "L3");
	ck_assert_int_eq(json_integer_value(json_object_get(b, "size")), B);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(
		b, "allocated_at"), "line")), line_alloc);
	json_decref(j);
	/* Its twin: the host put the input there first. */
	r = run(body_load, 1);
	ck_assert_msg(r.finding.cls == DFZ_CLASS_NONE, "%s", r.finding.msg);
}
END_TEST

/* Judged at the issue: every schedule finds it, at the same line. */
START_TEST(test_load_any_schedule)
{
	struct dfz_dropin_test t = { body_load, NULL, __FILE__ };
	uint8_t sched[16];
	struct dfz__result r;

	written = 0;
	for (unsigned k = 0; k < 16; k++) {
		for (unsigned i = 0; i < sizeof(sched); i++)
			sched[i] = (uint8_t)(i * 29 + k * 13);
		dfz__dropin_run(&t, sched, sizeof(sched), &r);
		undefined_at(&r, DFZ_L3, B);
	}
}
END_TEST

/* One byte the host wrote, first, inside or last, breaks the pattern. */
START_TEST(test_one_written_byte)
{
	static const unsigned at[] = { 0, 117, B - 1 };

	for (unsigned i = 0; i < 3; i++) {
		struct dfz__result r;

		nbytes = at[i];
		r = run(body_load, 2);
		ck_assert_msg(r.finding.cls == DFZ_CLASS_NONE, "byte %u: %s",
			      at[i], r.finding.msg);
	}
	nbytes = 0;
}
END_TEST

/* ------------------------------------------- a store of an L1 output */

/* The kernel writes its output (written 1) or not, then stores it to
 * L2 and from there to L3, and loads it back. */
static void body_store(void *arg)
{
	pi_cl_dma_cmd_t cmd;
	pi_cl_ram_req_t req;
	uint8_t *out, *l2 = pi_l2_malloc(O), *back = pi_l2_malloc(O);
	uint32_t l3 = (uint32_t)(uintptr_t)cl_ram_malloc(O);

	(void)arg;
	line_alloc = __LINE__; out = pmsis_l1_malloc(O);
	if (written)
		fill(out, O);
	line_xfer = __LINE__; pi_cl_dma_cmd(l2, out, O, LOC2EXT, &cmd);
	pi_cl_dma_cmd_wait(&cmd);
	pi_cl_ram_write(get_ram_ptr(), l3, l2, O, &req);
	pi_cl_ram_write_wait(&req);
	pi_cl_ram_read(get_ram_ptr(), l3, back, O, &req);
	pi_cl_ram_read_wait(&req);
	if (written)
		DFZ_DROPIN_CHECK(same_bytes(back, out, O));
}

START_TEST(test_store_unwritten_output)
{
	struct dfz__result r = run(body_store, 0);

	undefined_at(&r, DFZ_L1, O);
	ck_assert_int_eq(r.finding.ev.level, DFZ_L1);
	/* Written by the kernel: the bytes stay defined through L2 and L3
	 * and back. */
	r = run(body_store, 1);
	ck_assert_msg(r.finding.cls == DFZ_CLASS_NONE, "%s", r.finding.msg);
}
END_TEST

/* ------------------------------------------------------ the minimum */

static void body_short(void *arg)
{
	pi_cl_dma_cmd_t cmd;
	uint8_t *l2 = pi_l2_malloc(16), *out;

	(void)arg;
	line_alloc = __LINE__; out = pmsis_l1_malloc(16);
	line_xfer = __LINE__; pi_cl_dma_cmd(l2, out, nbytes, LOC2EXT, &cmd);
	pi_cl_dma_cmd_wait(&cmd);
}

/* 7 never-written bytes are clean (a chance match is too likely); 8 are
 * a finding, so the 7 are clean for their length alone. */
START_TEST(test_short_row)
{
	struct dfz__result r;

	nbytes = 7;
	r = run(body_short, 0);
	ck_assert_msg(r.finding.cls == DFZ_CLASS_NONE, "%s", r.finding.msg);
	nbytes = 8;
	r = run(body_short, 0);
	undefined_at(&r, DFZ_L1, 16);
	nbytes = 0;
}
END_TEST

/* ------------------------------------------------------- row by row */

#define ROW 32
#define STRIDE 64
#define ROWS 4

/* A 2-D load of ROWS rows of ROW bytes, STRIDE apart, from L3. The host
 * writes each row (written 1), or all but row 2 (written 0), or row 2
 * all but its first byte (2), or of row 2 only its first byte (3); the
 * gaps between rows it never writes. */
static void body_rows(void *arg)
{
	pi_cl_ram_req_t req;
	uint8_t *tile = pi_l2_malloc(ROW * ROWS), one;
	uint32_t l3;

	(void)arg;
	line_alloc = __LINE__; l3 = (uint32_t)(uintptr_t)cl_ram_malloc(STRIDE * ROWS);
	for (unsigned i = 0; i < ROWS; i++)
		if (written == 1 || i != 2)
			l3_fill(l3 + i * STRIDE, ROW);
	if (written == 2)
		l3_fill(l3 + 2 * STRIDE + 1, ROW - 1);
	one = (uint8_t)~dfz_mem_fill_byte(DFZ_L3, l3 + 2 * STRIDE);
	if (written == 3)
		ck_assert_int_eq(dfz_dropin_l3_write(l3 + 2 * STRIDE, &one, 1),
				 0);
	line_xfer = __LINE__; pi_cl_ram_read_2d(RAM, l3, tile, ROW * ROWS, STRIDE, ROW, &req);
	pi_cl_ram_read_wait(&req);
	l3_addr = l3;
}

START_TEST(test_rows)
{
	struct dfz__result r = run(body_rows, 0);

	undefined_at(&r, DFZ_L3, STRIDE * ROWS);
	ck_assert_int_eq(r.finding.ev.off, (int64_t)(l3_addr + 2 * STRIDE));
	ck_assert_msg(strstr(r.finding.msg, "its 32 bytes"), "%s",
		      r.finding.msg);
	r = run(body_rows, 1);
	ck_assert_msg(r.finding.cls == DFZ_CLASS_NONE, "%s", r.finding.msg);
	/* A row is written when any byte of it is: its first byte still
	 * the fill pattern, or its first byte alone written. */
	r = run(body_rows, 2);
	ck_assert_msg(r.finding.cls == DFZ_CLASS_NONE, "%s", r.finding.msg);
	r = run(body_rows, 3);
	ck_assert_msg(r.finding.cls == DFZ_CLASS_NONE, "%s", r.finding.msg);
}
END_TEST

/* ---------------------------------------------------------- sabotage */

/* @body run with the drop-in's oracle set replaced by one of @mask. */
static struct dfz__result run_set(void (*body)(void *), uint32_t mask)
{
	struct dfz__dropin *d = dfz__dropin_get();
	struct dfz_oracles *keep = d->set, *set;
	struct dfz_observer obs = d->oracles;
	struct dfz__result r;

	ck_assert_int_eq(dfz_oracles_create(mask, &set), 0);
	d->set = set;
	d->oracles = dfz_oracles_observer(set);
	r = run(body, 0);
	d->set = keep;
	d->oracles = obs;
	dfz_oracles_destroy(set);
	return r;
}

/* The drop-in's oracles (all but the model's reference, output and
 * error-code ones), with "defined" and without. */
START_TEST(test_sabotage_no_oracle)
{
	uint32_t with = DFZ_ORACLES_ALL & ~((1u << DFZ_ORACLE_REF) |
					   (1u << DFZ_ORACLE_OUTPUT) |
					   (1u << DFZ_ORACLE_ERRCODE));
	struct dfz__result r = run_set(body_load, with);

	undefined_at(&r, DFZ_L3, B);
	r = run_set(body_load, with & ~(1u << DFZ_ORACLE_DEFINED));
	ck_assert_msg(r.finding.cls == DFZ_CLASS_NONE, "%s", r.finding.msg);
	r = run_set(body_store, with & ~(1u << DFZ_ORACLE_DEFINED));
	ck_assert_msg(r.finding.cls == DFZ_CLASS_NONE, "%s", r.finding.msg);
	/* The drop-in's own set is back. */
	undefined_at((r = run(body_load, 0), &r), DFZ_L3, B);
}
END_TEST

Suite *suite_dropin_defined(void)
{
	Suite *s = suite_create("dropin_defined");
	TCase *tc = tcase_create("defined");

	tcase_add_test(tc, test_load_never_written);
	tcase_add_test(tc, test_load_any_schedule);
	tcase_add_test(tc, test_one_written_byte);
	tcase_add_test(tc, test_store_unwritten_output);
	tcase_add_test(tc, test_short_row);
	tcase_add_test(tc, test_rows);
	tcase_add_test(tc, test_sabotage_no_oracle);
	suite_add_tcase(s, tc);
	return s;
}
