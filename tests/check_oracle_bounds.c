// SPDX-License-Identifier: MIT
/*
 * The bounds oracle (oracles/bounds.c): every row of every transfer lies
 * in one block, static object or stack (mem.oob otherwise) and touches no
 * freed block (mem.use-after-free); a freed block holding the freed byte
 * still holds it when reclaimed and at the end of the run. Driven through
 * a real runtime with a memory map (statics and stacks, as the drop-in
 * lays it out, at addresses of its own) and the ram engine's real
 * transfers; synthetic ISSUE and RECLAIM events where no engine reaches
 * (L1 stacks, guard pages) or the runtime does not emit them yet. Each
 * finding is shown gone with the oracle masked out (sabotage).
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_FIXED_NOREPLACE */
#include <check.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "oracle_fixture.h"

#define T_L2 0x2C000000u             /* away from the drop-in's windows */
#define T_L1 0x28000000u
#define T_CAP (256u << 10)
#define T_STATICS 4096u

/* Every oracle but defined: these transfers move fresh L3 on purpose
 * (oracles/defined.c would call each one mem.undefined first). */
#define ALL (DFZ_ORACLES_ALL & ~(1u << DFZ_ORACLE_DEFINED))
#define NO_BOUNDS (ALL & ~(1u << DFZ_ORACLE_BOUNDS))

static void *statics;                 /* the "loader's" statics of L2 */

static void map_setup(void)
{
	struct dfz_rt_layout lay = {
		.base = { [DFZ_L2] = T_L2, [DFZ_L1] = T_L1 },
		.cap = { [DFZ_L2] = T_CAP, [DFZ_L1] = T_CAP },
		.statics = { [DFZ_L2] = T_STATICS },
		.nstacks = { [DFZ_L2] = 1, [DFZ_L1] = 2 },
		.stack = { [DFZ_L2] = 16u << 10, [DFZ_L1] = 8u << 10 },
	};

	statics = mmap((void *)(uintptr_t)T_L2, T_STATICS,
		       PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	ck_assert_ptr_eq(statics, (void *)(uintptr_t)T_L2);
	ck_assert_int_eq(dfz_rt_create_at(&lay, &rt), 0);
}

static void map_teardown(void)
{
	rt_teardown();
	munmap(statics, T_STATICS);
}

#define T_REQS 16

static struct dfz_ram_req *reqs[T_REQS]; /* allocated first in each run */
static unsigned nreq;
static int64_t txid;                  /* synthetic idma ids, from 1 */

/* A new run observed by the oracles of @mask, with its ram requests
 * allocated before any block of the test (a freed block's storage is
 * then not handed to a request). */
static void start(uint32_t mask)
{
	struct dfz_rt_config cfg = { .latency = 1, .bandwidth = 64,
				     .wait_bound = 10000 };
	void *p;

	oracles_run(mask, &cfg);
	for (nreq = 0; nreq < T_REQS; nreq++) {
		ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L2, sizeof(*reqs[0]),
						 &p), 0);
		reqs[nreq] = p;
	}
	nreq = 0;
	txid = 0;
}

static struct dfz_ram_req *next_req(void)
{
	ck_assert_uint_lt(nreq, T_REQS);
	return reqs[nreq++];
}

static uint32_t l3(uint32_t size)
{
	uint32_t off;

	ck_assert_int_eq(dfz_l3_alloc(rt, size, &off), 0);
	return off;
}

static uint8_t *local(enum dfz_level level, uint32_t size)
{
	void *p;

	ck_assert_int_eq(dfz_local_alloc(rt, level, size, &p), 0);
	return p;
}

/* The level offset of @p (L2/L1). */
static uint32_t off_of(const void *p)
{
	struct dfz_span s;

	ck_assert(dfz_mem_locate(rt, p, 1, &s));
	return s.off;
}

/* A real ram transfer (waited when the run is still clean). */
static int ram(uint32_t ext, void *addr, uint32_t size, int ext2loc)
{
	struct dfz_ram_req *req = next_req();
	int rc = dfz_ram_copy(dfz_ram_get(rt), ext, addr, size, ext2loc, req);

	if (rc == 0 && verdict() == DFZ_CLASS_NONE)
		rc = dfz_ram_copy_wait(req);
	return rc;
}

static int ram_2d(uint32_t ext, void *addr, uint32_t size, uint32_t stride,
		  uint32_t length, int ext2loc)
{
	struct dfz_ram_req *req = next_req();
	int rc = dfz_ram_copy_2d(dfz_ram_get(rt), ext, addr, size, stride,
				 length, ext2loc, req);

	if (rc == 0 && verdict() == DFZ_CLASS_NONE)
		rc = dfz_ram_copy_wait(req);
	return rc;
}

/* A synthetic ISSUE: @size bytes from @src_off of @src to @dst_off of
 * @dst, 1-D (@length 0) or 2-D rows of @length every @stride on both. */
static void issue(unsigned src, uint32_t src_off, unsigned dst,
		  uint32_t dst_off, uint32_t size, uint32_t length,
		  uint32_t stride)
{
	struct dfz_event ev = {
		.kind = DFZ_EV_ISSUE, .engine = DFZ_ENGINE_IDMA, .id = ++txid,
		.desc = { .ext_level = (uint8_t)src,
			  .loc_level = (uint8_t)dst, .ext2loc = 1,
			  .is_2d = length != 0, .ext_off = src_off,
			  .loc_off = dst_off, .size = size,
			  .length = length ? length : size,
			  .ext_stride = length ? stride : size,
			  .loc_stride = length ? stride : size },
	};

	feed(&ev);
}

/* ------------------------------------------------------------ 1-D */

/* The issue's first fault: a 4096-byte block read from offset 100. */
START_TEST(test_past_end_l2)
{
	uint8_t *p;
	uint32_t o, dst;

	start(ALL);
	p = local(DFZ_L2, 4096);
	o = off_of(p);
	dst = l3(8192);
	ck_assert_int_eq(ram(dst, p + 100, 4096, 0), 0);
	ck_class(DFZ_CLASS_MEM_OOB);
	ck_assert_str_eq(set->finding.oracle, "bounds");
	ck_msg_has("source [0x");
	ck_msg_has("runs 100 bytes past the end of L2 block 0x2c");
	ck_msg_has("+4096");
	ck_assert_int_eq(set->finding.ev.level, DFZ_L2);
	ck_assert_int_eq(set->finding.ev.off, o + 4096);
	ck_assert_int_eq(set->finding.ev.block, o);
	ck_assert_int_eq(set->finding.ev.xfer, 0);
}
END_TEST

/* Sabotage: the same transfer with the oracle masked out is clean at its
 * issue (a read leaves every redzone as it was). */
START_TEST(test_past_end_masked)
{
	uint8_t *p;

	start(NO_BOUNDS);
	p = local(DFZ_L2, 4096);
	ck_assert_int_eq(ram(l3(8192), p + 100, 4096, 0), 0);
	ck_class(DFZ_CLASS_NONE);
}
END_TEST

/* The second: an L3 block of 4096 read from offset 4000 into L2. */
START_TEST(test_past_end_l3)
{
	uint32_t a;

	start(ALL);
	a = l3(4096);
	ram(a + 4000, local(DFZ_L2, 4096), 4096, 1);
	ck_class(DFZ_CLASS_MEM_OOB);
	ck_msg_has("runs 4000 bytes past the end of L3 block");
	ck_assert_int_eq(set->finding.ev.level, DFZ_L3);
	ck_assert_int_eq(set->finding.ev.off, a + 4096);
	ck_assert_int_eq(set->finding.ev.block, a);
}
END_TEST

START_TEST(test_before_start)
{
	uint32_t a;

	start(ALL);
	a = l3(256);
	ram(a - 8, local(DFZ_L2, 64), 64, 1);
	ck_class(DFZ_CLASS_MEM_OOB);
	ck_msg_has("starts 8 bytes before the start of L3 block");
	ck_assert_int_eq(set->finding.ev.off, a - 8);
	ck_assert_int_eq(set->finding.ev.block, a);
}
END_TEST

/* A destination that spans two blocks (and the redzones between). */
START_TEST(test_spans_two_blocks)
{
	uint32_t a, b;
	uint8_t *src;

	start(ALL);
	a = l3(64);
	b = l3(64);
	src = local(DFZ_L2, 4096);
	ck_assert_uint_gt(b, a + 64);
	ram(a + 32, src, b + 32 - (a + 32), 0);
	ck_class(DFZ_CLASS_MEM_OOB);
	ck_msg_has("destination [");
	ck_msg_has("past the end of L3 block");
	ck_msg_has(" into L3 block");
	ck_assert_int_eq(set->finding.ev.off, a + 64);
	ck_assert_int_eq(set->finding.ev.block, a);
}
END_TEST

/* In-block transfers of every kind are clean, and so are zero bytes
 * anywhere. */
START_TEST(test_clean_and_zero_size)
{
	uint32_t a;
	uint8_t *p;

	start(ALL);
	a = l3(4096);
	p = local(DFZ_L2, 4096);
	ck_assert_int_eq(ram(a, p, 4096, 1), 0);
	ck_assert_int_eq(ram(a + 96, p + 4000, 96, 0), 0);
	issue(DFZ_L3, a + 1000000, DFZ_L2, 1, 0, 0, 0);     /* no bytes */
	issue(DFZ_L3, a + 1000000, DFZ_L2, 1, 64, 0, 0);    /* still 1-D */
	ck_class(DFZ_CLASS_MEM_OOB);                        /* ... judged */
	start(ALL);
	a = l3(64);
	issue(DFZ_L3, a + 1000000, DFZ_L2, 1, 0, 0, 0);
	{
		struct dfz_event ev = {                      /* 2-D, no line */
			.kind = DFZ_EV_ISSUE,
			.desc = { .ext_level = DFZ_L3, .loc_level = DFZ_L2,
				  .ext2loc = 1, .is_2d = 1,
				  .ext_off = a + 5000, .loc_off = 7,
				  .size = 64, .length = 0 },
		};

		feed(&ev);
	}
	ck_class(DFZ_CLASS_NONE);
}
END_TEST

/* ------------------------------------------------------------ 2-D */

/* Rows of 32 every 96: the naive extent [base, base + size) lies in the
 * block, the last row does not. */
START_TEST(test_2d_row_outside)
{
	uint32_t a;

	start(ALL);
	a = l3(256);
	ram_2d(a, local(DFZ_L2, 128), 128, 96, 32, 1);
	ck_class(DFZ_CLASS_MEM_OOB);
	ck_msg_has("source row 3 [");
	ck_msg_has("runs 64 bytes past the end of L3 block");
	ck_assert_int_eq(set->finding.ev.off, a + 288);
	ck_assert_int_eq(set->finding.ev.block, a);
}
END_TEST

/* Two blocks, one row in each: the bounding box crosses both and the
 * redzones between, every row lies in one block: clean. */
START_TEST(test_2d_rows_in_two_blocks)
{
	uint32_t a, b;
	uint8_t *p;

	start(ALL);
	a = l3(64);
	b = l3(64);
	p = local(DFZ_L2, 128);
	ck_assert_int_eq(ram_2d(a, p, 128, b - a, 64, 1), 0);
	ck_assert_int_eq(ram_2d(a, p, 128, b - a, 64, 0), 0);
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);
	/* One byte more per row: row 0 runs into a's redzone. */
	start(ALL);
	a = l3(64);
	b = l3(64);
	p = local(DFZ_L2, 130);
	ram_2d(a, p, 130, b - a, 65, 1);
	ck_class(DFZ_CLASS_MEM_OOB);
	ck_msg_has("source row 0 [");
}
END_TEST

/* Many rows, all in one block (one lookup), the last partial. */
START_TEST(test_2d_many_rows)
{
	uint32_t a, d1, d2;

	start(ALL);
	a = l3(1u << 20);
	ck_assert_int_eq(ram_2d(a, local(DFZ_L2, 4000), 4000, 256, 3, 1), 0);
	issue(DFZ_L3, a + (1u << 20) - 7, DFZ_L3, a, 100, 7, 0); /* stride 0 */
	ck_class(DFZ_CLASS_NONE);
	start(ALL);
	d1 = l3(1000);
	d2 = l3(1300);
	a = l3(1000);                         /* free space after it */
	issue(DFZ_L3, a, DFZ_L3, d1, 1000, 10, 10); /* contiguous */
	ck_class(DFZ_CLASS_NONE);
	issue(DFZ_L3, a + 1, DFZ_L3, d2, 999, 9, 11); /* row 91: 1002 */
	ck_class(DFZ_CLASS_MEM_OOB);
	ck_msg_has("source row 91 [");
	ck_msg_has("runs 11 bytes past the end of L3 block");
}
END_TEST

/* ------------------------------------------------------- use after free */

START_TEST(test_freed_read)
{
	uint32_t a;

	start(ALL);
	a = l3(512);
	ck_assert_int_eq(dfz_l3_free(rt, a), 0);
	ram(a + 64, local(DFZ_L2, 64), 64, 1);
	ck_class(DFZ_CLASS_MEM_UAF);
	ck_msg_has("reads L3 block");
	ck_msg_has("+512, freed at step");
	ck_assert_int_eq(set->finding.ev.off, a + 64);
	ck_assert_int_eq(set->finding.ev.block, a);
	/* Sabotage: masked out, the read is clean. */
	start(NO_BOUNDS);
	a = l3(512);
	ck_assert_int_eq(dfz_l3_free(rt, a), 0);
	ck_assert_int_eq(ram(a + 64, local(DFZ_L2, 64), 64, 1), 0);
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);
}
END_TEST

/* A freed L2 block written by a DMA. */
START_TEST(test_freed_write)
{
	uint8_t *p;

	start(ALL);
	p = local(DFZ_L2, 256);
	ck_assert_int_eq(dfz_local_free(rt, p), 0);
	ram(l3(256), p, 256, 1);
	ck_class(DFZ_CLASS_MEM_UAF);
	ck_msg_has("destination [");
	ck_msg_has("writes L2 block");
}
END_TEST

/* The freed byte written over the block, as cfg.sanitize's allocator
 * does. */
static void poison(unsigned level, uint32_t off, uint32_t len)
{
	uint8_t *p = dfz_mem_ptr(rt, (enum dfz_level)level, off);

	for (uint32_t i = 0; i < len; i++)
		p[i] = dfz_mem_freed_byte((enum dfz_level)level, off + i);
}

static void reclaim(unsigned level, uint32_t off, uint32_t len)
{
	struct dfz_event ev = {
		.kind = DFZ_EV_RECLAIM,
		.dst = { .level = (uint8_t)level, .off = off, .len = len },
	};

	feed(&ev);
}

/* Reclaimed (or overlapped by a new allocation), then allocated again: a
 * transfer into the new block is clean. */
START_TEST(test_reclaimed_realloc)
{
	uint32_t a, b;

	start(ALL);
	a = l3(128);
	ck_assert_int_eq(dfz_l3_free(rt, a), 0);
	poison(DFZ_L3, a, 128);
	reclaim(DFZ_L3, a, 128);
	ck_class(DFZ_CLASS_NONE);
	b = l3(128);
	ck_assert_uint_eq(b, a);              /* first fit: the same storage */
	ck_assert_int_eq(ram(b, local(DFZ_L2, 128), 128, 1), 0);
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);
	/* No reclaim: the new allocation's overlap forgets the freed block. */
	start(ALL);
	a = l3(128);
	ck_assert_int_eq(dfz_l3_free(rt, a), 0);
	ck_assert_uint_eq(l3(64), a);
	ck_assert_int_eq(ram(a, local(DFZ_L2, 64), 64, 1), 0);
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);
}
END_TEST

START_TEST(test_written_after_free_at_reclaim)
{
	uint8_t *p;
	uint32_t o;

	start(ALL);
	p = local(DFZ_L2, 200);
	o = off_of(p);
	ck_assert_int_eq(dfz_local_free(rt, p), 0);
	poison(DFZ_L2, o, 200);
	p[150] ^= 0x5a;                       /* a CPU store after the free */
	reclaim(DFZ_L2, o, 200);
	ck_class(DFZ_CLASS_MEM_UAF);
	ck_msg_has("was written after free");
	ck_msg_has("(offset 150)");
	ck_msg_has("when it was reclaimed");
	ck_assert_int_eq(set->finding.ev.off, o + 150);
	ck_assert_int_eq(set->finding.ev.block, o);
	/* Sabotage: masked out, the reclaim passes. */
	start(NO_BOUNDS);
	p = local(DFZ_L2, 200);
	ck_assert_int_eq(dfz_local_free(rt, p), 0);
	poison(DFZ_L2, o, 200);
	p[150] ^= 0x5a;
	reclaim(DFZ_L2, o, 200);
	ck_class(DFZ_CLASS_NONE);
}
END_TEST

/* At the end: judged only once the run is seen filling freed blocks. */
START_TEST(test_written_after_free_at_end)
{
	uint8_t *p, *q;

	start(ALL);
	p = local(DFZ_L2, 64);
	ck_assert_int_eq(dfz_local_free(rt, p), 0);
	poison(DFZ_L2, off_of(p), 64);
	q = local(DFZ_L1, 16);                /* the next event probes p */
	p[3] = (uint8_t)~p[3];
	(void)q;
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_MEM_UAF);
	ck_msg_has("at the end of the run");
	ck_assert_int_eq(set->finding.ev.off, off_of(p) + 3);
	/* A run whose freed blocks keep their bytes (no cfg.sanitize): a
	 * freed block's data is no finding. */
	start(ALL);
	p = local(DFZ_L2, 64);
	memset(p, 0x11, 64);
	ck_assert_int_eq(dfz_local_free(rt, p), 0);
	local(DFZ_L1, 16);
	p[3] = 0x22;
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);
}
END_TEST

/* ------------------------------------------------- statics and stacks */

START_TEST(test_statics)
{
	static const struct dfz_span obj[] = {
		{ .level = DFZ_L2, .off = 0x100, .len = 256 },
		{ .level = DFZ_L2, .off = 0x400, .len = 512 },
	};
	uint8_t *base = dfz_mem_ptr(rt, DFZ_L2, 0);
	uint32_t a;

	start(ALL);                           /* no object: the statics */
	a = l3(8192);
	ck_assert_int_eq(ram(a, base + 0x180, 0x200, 1), 0);
	ck_class(DFZ_CLASS_NONE);
	ck_assert_int_eq(dfz_mem_declare_statics(rt, DFZ_L2, obj, 2), 0);
	start(ALL);
	a = l3(8192);
	ck_assert_int_eq(ram(a, base + 0x400, 512, 0), 0);
	ck_assert_int_eq(ram(a, base + 0x100, 256, 1), 0);
	ck_class(DFZ_CLASS_NONE);
	ram(a, base + 0x180, 0x100, 0);
	ck_class(DFZ_CLASS_MEM_OOB);
	ck_msg_has("runs 128 bytes past the end of L2 static object "
		   "0x2c000100+256");
	ck_assert_int_eq(set->finding.ev.block, 0x100);
	start(ALL);
	a = l3(8192);
	ram(a, base + 0x300, 16, 0);          /* bytes no symbol names */
	ck_class(DFZ_CLASS_NONE);
	ram(a, base + 0x3f8, 16, 0);          /* from those into an object */
	ck_class(DFZ_CLASS_MEM_OOB);
	ck_msg_has("L2 statics 0x2c000200+512");
	ck_assert_int_eq(dfz_mem_declare_statics(rt, DFZ_L2, NULL, 0), 0);
}
END_TEST

START_TEST(test_stacks)
{
	size_t n0 = 0, n1 = 0;
	uint8_t *fc = dfz_mem_stack(rt, DFZ_L2, 0, &n0);
	uint8_t *c0 = dfz_mem_stack(rt, DFZ_L1, 0, &n1);
	uint32_t a, s2 = off_of(fc), s1 = off_of(c0);

	start(ALL);
	a = l3(4096);
	ck_assert_int_eq(ram(a, fc + n0 - 64, 64, 1), 0);   /* top of stack */
	issue(DFZ_L2, s2 + 100, DFZ_L1, s1 + (uint32_t)n1 - 32, 32, 0, 0);
	ck_class(DFZ_CLASS_NONE);
	/* Past the end of core 0's stack, into the guard of core 1's. */
	issue(DFZ_L2, s2 + 100, DFZ_L1, s1 + (uint32_t)n1 - 32, 64, 0, 0);
	ck_class(DFZ_CLASS_MEM_OOB);
	ck_msg_has("runs 32 bytes past the end of L1 stack 0 0x28");
	start(ALL);
	issue(DFZ_L1, s1, DFZ_L2, s2 - 16, 32, 0, 0); /* into the guard */
	ck_class(DFZ_CLASS_MEM_OOB);
	ck_msg_has("destination [");
	ck_msg_has("starts 16 bytes before the start of L2 stack 0");
}
END_TEST

/* ---------------------------------------------------------- which runs */

/* Raw offsets into a level that had no allocation this run are not
 * judged; after one, a row in no block at all is. */
START_TEST(test_unallocated_level)
{
	uint32_t a;

	start(ALL);
	issue(DFZ_L3, 0x40000, DFZ_L2, off_of(local(DFZ_L2, 64)), 64, 0, 0);
	ck_class(DFZ_CLASS_NONE);
	a = l3(64);
	issue(DFZ_L3, a + 0x40000, DFZ_L2, off_of(local(DFZ_L2, 64)), 64, 0,
	      0);
	ck_class(DFZ_CLASS_MEM_OOB);
	ck_msg_has("lies in no block, static object or stack of L3");
	ck_assert_int_eq(set->finding.ev.block, -1);
}
END_TEST

/* The model's runs (no memory map) are left to the other oracles. */
START_TEST(test_model_runs_not_judged)
{
	struct dfz_rt *mapped = rt;
	uint32_t a;

	ck_assert_int_eq(dfz_rt_create(&rt), 0);
	start(ALL);
	a = l3(4096);
	ck_assert_int_eq(ram(a + 4000, local(DFZ_L2, 4096), 4096, 1), 0);
	ck_class(DFZ_CLASS_NONE);
	dfz_oracles_destroy(set);
	set = NULL;
	dfz_rt_destroy(rt);
	rt = mapped;
}
END_TEST

Suite *suite_oracle_bounds(void)
{
	Suite *s = suite_create("oracle_bounds");
	TCase *tc = tcase_create("bounds");

	tcase_add_unchecked_fixture(tc, map_setup, map_teardown);
	tcase_add_test(tc, test_past_end_l2);
	tcase_add_test(tc, test_past_end_masked);
	tcase_add_test(tc, test_past_end_l3);
	tcase_add_test(tc, test_before_start);
	tcase_add_test(tc, test_spans_two_blocks);
	tcase_add_test(tc, test_clean_and_zero_size);
	tcase_add_test(tc, test_2d_row_outside);
	tcase_add_test(tc, test_2d_rows_in_two_blocks);
	tcase_add_test(tc, test_2d_many_rows);
	tcase_add_test(tc, test_freed_read);
	tcase_add_test(tc, test_freed_write);
	tcase_add_test(tc, test_reclaimed_realloc);
	tcase_add_test(tc, test_written_after_free_at_reclaim);
	tcase_add_test(tc, test_written_after_free_at_end);
	tcase_add_test(tc, test_statics);
	tcase_add_test(tc, test_stacks);
	tcase_add_test(tc, test_unallocated_level);
	tcase_add_test(tc, test_model_runs_not_judged);
	suite_add_tcase(s, tc);
	return s;
}
