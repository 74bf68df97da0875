// SPDX-License-Identifier: MIT
/*
 * Unit tests of the oracle set (oracles/set.c) and of the oracles that
 * judge memory and data: class names, first-violation-wins, per-run reset,
 * mem.redzone, the reference oracle (data.mismatch, data.clobber, with a
 * sabotaged reference), dma.hang and crash. Every oracle is shown clean on
 * a correct run and firing on a sabotaged one, against the real runtime.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dmafuzz/plan.h"
#include "oracle_fixture.h"

_Static_assert(DFZ__REF_CAP_BYTES >= DFZ_CAP_TENSOR_BYTES,
	       "the reference oracle judges every tensor a plan can hold");

/* A new run with the oracles of @mask: latency, wait bound; no steps at
 * yield points. */
static void start(uint32_t mask, uint32_t latency, uint32_t bound)
{
	struct dfz_rt_config cfg = {
		.latency = latency, .bandwidth = 64, .wait_bound = bound,
	};

	oracles_run(mask, &cfg);
}

/* ------------------------------------------------------ classes and set */

START_TEST(test_class_names)
{
	unsigned c;

	ck_assert_str_eq(dfz_class_name(DFZ_CLASS_NONE), "none");
	ck_assert_ptr_null(dfz_class_name(DFZ_CLASS_COUNT));
	for (c = 1; c < DFZ_CLASS_COUNT; c++)
		ck_assert_uint_eq(dfz_class_parse(dfz_class_name(c)), c);
	ck_assert_str_eq(dfz_class_name(DFZ_CLASS_HAZARD_RBW),
			 "hazard.read-before-wait");
	ck_assert_uint_eq(dfz_class_parse("queue.corrupt"),
			  DFZ_CLASS_QUEUE_CORRUPT);
	ck_assert_uint_eq(dfz_class_parse("none"), DFZ_CLASS_NONE);
	ck_assert_uint_eq(dfz_class_parse("data"), DFZ_CLASS_NONE);
	ck_assert_uint_eq(dfz_class_parse(NULL), DFZ_CLASS_NONE);
}
END_TEST

START_TEST(test_evidence_none)
{
	struct dfz_evidence ev = dfz_evidence_none();

	ck_assert_ptr_null(ev.handle);
	ck_assert_int_eq(ev.step, -1);
	ck_assert_int_eq(ev.xfer, -1);
	ck_assert_int_eq(ev.elem, -1);
	ck_assert_int_eq(ev.level, -1);
	ck_assert_int_eq(ev.off, -1);
}
END_TEST

START_TEST(test_first_violation_wins)
{
	struct dfz_evidence ev = dfz_evidence_none();
	struct dfz_event fault = { .kind = DFZ_EV_FAULT, .aux = 0x40 };

	start(DFZ_ORACLES_ALL, 0, 0);
	ck_assert_ptr_null(dfz_oracles_finding(set));
	ev.off = 7;
	dfz_oracle_fail(set, "test", DFZ_CLASS_HANDLE_LEAK, &ev, "first %d", 1);
	dfz_oracle_fail(set, "test", DFZ_CLASS_DMA_HANG, NULL, "second");
	feed(&fault);                  /* decided runs see no more events */
	ck_class(DFZ_CLASS_HANDLE_LEAK);
	ck_assert_str_eq(set->finding.msg, "first 1");
	ck_assert_str_eq(set->finding.oracle, "test");
	ck_assert_int_eq(set->finding.ev.off, 7);
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_HANDLE_LEAK);
}
END_TEST

START_TEST(test_reset_clears_finding)
{
	struct dfz_event fault = { .kind = DFZ_EV_FAULT, .aux = 0x40 };

	start(DFZ_ORACLES_ALL, 0, 0);
	feed(&fault);
	ck_class(DFZ_CLASS_CRASH);
	start(DFZ_ORACLES_ALL, 0, 0);
	ck_assert_ptr_null(dfz_oracles_finding(set));
	dfz_oracles_end(set);
	ck_assert_ptr_null(dfz_oracles_finding(set));
	feed(&fault);                  /* after end: not part of the run */
	ck_assert_ptr_null(dfz_oracles_finding(set));
}
END_TEST

START_TEST(test_mask_selects_oracles)
{
	struct dfz_event fault = { .kind = DFZ_EV_FAULT, .aux = 0x40 };

	start(1u << DFZ_ORACLE_REDZONE, 0, 0);
	ck_assert_uint_eq(set->mask, 1u << DFZ_ORACLE_REDZONE);
	feed(&fault);
	ck_class(DFZ_CLASS_NONE);
	start(1u << DFZ_ORACLE_HANG, 0, 0);
	feed(&fault);
	ck_class(DFZ_CLASS_CRASH);
	ck_assert_str_eq(set->finding.oracle, "hang");
	dfz_oracles_destroy(NULL);
}
END_TEST

/* ------------------------------------------------------------ redzone */

START_TEST(test_redzone_clean)
{
	uint32_t a, b;
	void *p, *q;

	start(DFZ_ORACLES_ALL, 0, 0);
	ck_assert_int_eq(dfz_l3_alloc(rt, 100, &a), 0);
	ck_assert_int_eq(dfz_l3_alloc(rt, 7, &b), 0);
	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L2, 33, &p), 0);
	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L1, 64, &q), 0);
	memset(dfz_mem_ptr(rt, DFZ_L3, a), 0xee, 100);
	memset(dfz_mem_ptr(rt, DFZ_L3, b), 0xee, 7);
	memset(p, 0, 33);
	memset(q, 0, 64);
	ck_assert_int_eq(dfz_local_free(rt, p), 0);
	ck_assert_int_eq(dfz_l3_free(rt, a), 0);
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);
}
END_TEST

/* Sabotage: one byte past an L3 allocation, seen at the end of the run. */
START_TEST(test_redzone_overflow_l3)
{
	uint32_t a;
	uint8_t *p;

	start(DFZ_ORACLES_ALL, 0, 0);
	ck_assert_int_eq(dfz_l3_alloc(rt, 40, &a), 0);
	p = dfz_mem_ptr(rt, DFZ_L3, a + 40);
	*p = (uint8_t)~*p;
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_MEM_REDZONE);
	ck_assert_int_eq(set->finding.ev.level, DFZ_L3);
	ck_assert_int_eq(set->finding.ev.off, a + 40);
	ck_msg_has("trailing");
	ck_msg_has("expected 0x");
}
END_TEST

/* Sabotage: one byte before an L2 buffer, seen when it is freed. */
START_TEST(test_redzone_underflow_on_free)
{
	struct dfz_span s;
	uint8_t *p;

	start(DFZ_ORACLES_ALL, 0, 0);
	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L2, 16, (void **)&p), 0);
	ck_assert(dfz_mem_locate(rt, p, 1, &s));
	p[-1] ^= 0x01;
	ck_assert_int_eq(dfz_local_free(rt, p), 0);
	ck_class(DFZ_CLASS_MEM_REDZONE);
	ck_assert_int_eq(set->finding.ev.level, DFZ_L2);
	ck_assert_int_eq(set->finding.ev.off, s.off - 1);
	ck_msg_has("leading");
	ck_msg_has("offset -1");
}
END_TEST

/* A freed block is forgotten; a new run forgets every block. */
START_TEST(test_redzone_forgets)
{
	uint32_t a;
	uint8_t *p;

	start(DFZ_ORACLES_ALL, 0, 0);
	ck_assert_int_eq(dfz_l3_alloc(rt, 24, &a), 0);
	ck_assert_int_eq(dfz_l3_free(rt, a), 0);
	p = dfz_mem_ptr(rt, DFZ_L3, a + 24);
	*p = (uint8_t)~*p;
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);

	start(DFZ_ORACLES_ALL, 0, 0);
	ck_assert_int_eq(dfz_l3_alloc(rt, 24, &a), 0);
	start(DFZ_ORACLES_ALL, 0, 0);  /* the block died with the run */
	p = dfz_mem_ptr(rt, DFZ_L3, a + 24);
	*p = (uint8_t)~*p;
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);
}
END_TEST

/* ---------------------------------------------------------------- ref */

/*
 * A rank-2 program over shape 3x4: the input row-major with one padding
 * element per row, the outputs with their own padding. Inputs filled with
 * elem-byte values; outputs left as allocated.
 */
static struct dfz_prog prog;

static void tensor(struct dfz_tensor *t, const uint32_t *stride,
		   uint32_t bytes)
{
	memset(t, 0, sizeof(*t));
	t->level = DFZ_L3;
	t->bytes = bytes;
	memcpy(t->stride, stride, sizeof(t->stride));
	ck_assert_int_eq(dfz_l3_alloc(rt, bytes ? bytes : 1, &t->off), 0);
}

static uint64_t get(const struct dfz_tensor *t, const uint32_t *idx)
{
	const uint8_t *p = dfz_mem_ptr(rt, t->level, t->off);
	uint64_t v = 0, off = 0;
	unsigned d;

	for (d = 0; d < prog.rank; d++)
		off += (uint64_t)idx[d] * t->stride[d];
	for (d = prog.elem; d-- > 0;)
		v = v << 8 | p[off + d];
	return v;
}

static void put(const struct dfz_tensor *t, const uint32_t *idx, uint64_t v)
{
	uint8_t *p = dfz_mem_ptr(rt, t->level, t->off);
	uint64_t off = 0;
	unsigned d;

	for (d = 0; d < prog.rank; d++)
		off += (uint64_t)idx[d] * t->stride[d];
	for (d = 0; d < prog.elem; d++)
		p[off + d] = (uint8_t)(v >> (8 * d));
}

/* Set every element of @t through @fn; idx is rank 2 or 3. */
static void each(void (*fn)(unsigned k, const uint32_t *idx), unsigned k)
{
	uint32_t idx[DFZ_MAX_RANK] = { 0 };
	uint32_t s2 = prog.rank > 2 ? prog.shape[2] : 1;

	for (idx[0] = 0; idx[0] < prog.shape[0]; idx[0]++)
		for (idx[1] = 0; idx[1] < prog.shape[1]; idx[1]++)
			for (idx[2] = 0; idx[2] < s2; idx[2]++)
				fn(k, idx);
}

static uint64_t mask_of(void)
{
	return prog.elem == 8 ? ~0ull : (1ull << (8 * prog.elem)) - 1;
}

static void fill_input(unsigned k, const uint32_t *idx)
{
	uint64_t v = (idx[0] * 37u + idx[1] * 11u + idx[2] * 5u + k) *
		     0x0101010101010101ull;

	put(k ? &prog.node[k - 1].aux : &prog.node[0].in, idx,
	    (v + 0xfcull) & mask_of());
}

/* What a correct runtime writes: node k's output from node k's input. */
static void compute(unsigned k, const uint32_t *idx)
{
	const struct dfz_node *n = &prog.node[k];
	uint64_t v = get(&n->in, idx);

	if (n->kernel == DFZ_KERNEL_INC)
		v += 1;
	else if (n->kernel == DFZ_KERNEL_ADD)
		v += get(&n->aux, idx);
	put(&n->out, idx, v & mask_of());
}

/* Build prog with @nnodes nodes of @kernels; strides padded per row. */
static void prog_setup(unsigned elem, unsigned nnodes, const uint8_t *kernels)
{
	uint32_t s[DFZ_MAX_RANK] = { 5 * elem, elem };
	unsigned k;

	memset(&prog, 0, sizeof(prog));
	prog.rank = 2;
	prog.elem = (uint8_t)elem;
	prog.shape[0] = 3;
	prog.shape[1] = 4;
	prog.nnodes = (uint8_t)nnodes;
	tensor(&prog.node[0].in, s, 15 * elem);
	each(fill_input, 0);
	for (k = 0; k < nnodes; k++) {
		prog.node[k].kernel = kernels[k];
		if (k > 0)
			prog.node[k].in = prog.node[k - 1].out;
		if (kernels[k] == DFZ_KERNEL_ADD) {
			tensor(&prog.node[k].aux, s, 15 * elem);
			each(fill_input, k + 1);
		}
		tensor(&prog.node[k].out, s, 15 * elem);
	}
}

/* Run the "program": every node computed correctly. */
static void prog_compute(void)
{
	unsigned k;

	for (k = 0; k < prog.nnodes; k++)
		each(compute, k);
}

static const uint8_t k_copy[] = { DFZ_KERNEL_COPY };
static const uint8_t k_chain[] = { DFZ_KERNEL_INC, DFZ_KERNEL_ADD,
				   DFZ_KERNEL_COPY };

START_TEST(test_ref_clean)
{
	static const unsigned elems[] = { 1, 2, 4, 8 };
	unsigned e = elems[_i];

	start(DFZ_ORACLES_ALL, 0, 0);
	prog_setup(e, 1, k_copy);
	dfz_oracles_begin(set, &prog);
	prog_compute();
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);

	start(DFZ_ORACLES_ALL, 0, 0);
	prog_setup(e, 3, k_chain);
	dfz_oracles_begin(set, &prog);
	prog_compute();
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);
}
END_TEST

/* Sabotage: one output element wrong. */
START_TEST(test_ref_mismatch)
{
	uint32_t idx[DFZ_MAX_RANK] = { 2, 1 };

	start(DFZ_ORACLES_ALL, 0, 0);
	prog_setup(2, 1, k_copy);
	dfz_oracles_begin(set, &prog);
	prog_compute();
	put(&prog.node[0].out, idx, get(&prog.node[0].out, idx) ^ 0x100);
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_DATA_MISMATCH);
	ck_assert_int_eq(set->finding.ev.elem, 2 * 4 + 1);
	ck_assert_int_eq(set->finding.ev.off, prog.node[0].out.off + 22);
	ck_msg_has("[2,1]");
	ck_msg_has("node 0");
}
END_TEST

/* The lowest node with a mismatch is named, whatever the element order. */
START_TEST(test_ref_mismatch_lowest_node)
{
	uint32_t late[DFZ_MAX_RANK] = { 2, 3 }, early[DFZ_MAX_RANK] = { 0, 0 };

	start(DFZ_ORACLES_ALL, 0, 0);
	prog_setup(1, 3, k_chain);
	dfz_oracles_begin(set, &prog);
	prog_compute();
	put(&prog.node[2].out, early, get(&prog.node[2].out, early) + 1);
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_DATA_MISMATCH);
	ck_msg_has("node 2");

	start(DFZ_ORACLES_ALL, 0, 0);
	prog_setup(1, 3, k_chain);
	dfz_oracles_begin(set, &prog);
	prog_compute();
	put(&prog.node[2].out, early, get(&prog.node[2].out, early) + 1);
	put(&prog.node[1].out, late, get(&prog.node[1].out, late) + 1);
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_DATA_MISMATCH);
	ck_msg_has("node 1 (add)");
	ck_assert_int_eq(set->finding.ev.elem, 11);
}
END_TEST

/* Sabotage: a padding byte of an output changes. */
START_TEST(test_ref_clobber_padding)
{
	uint8_t *p;

	start(DFZ_ORACLES_ALL, 0, 0);
	prog_setup(1, 2, k_chain);
	dfz_oracles_begin(set, &prog);
	prog_compute();
	p = dfz_mem_ptr(rt, DFZ_L3, prog.node[1].out.off + 9);
	*p = (uint8_t)~*p;
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_DATA_CLOBBER);
	ck_assert_int_eq(set->finding.ev.off, prog.node[1].out.off + 9);
	ck_msg_has("node 1 output");
	ck_msg_has("outside the footprint");
}
END_TEST

/* Sabotage: a pure input (the program input, an aux tensor) changes. */
START_TEST(test_ref_clobber_input)
{
	const struct dfz_tensor *t;
	uint8_t *p;

	start(DFZ_ORACLES_ALL, 0, 0);
	prog_setup(1, 2, k_chain);
	dfz_oracles_begin(set, &prog);
	prog_compute();
	t = _i ? &prog.node[1].aux : &prog.node[0].in;
	p = dfz_mem_ptr(rt, DFZ_L3, t->off + 6);   /* element [1,1] */
	*p = (uint8_t)(*p + 1);
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_DATA_CLOBBER);
	ck_msg_has(_i ? "node 1 aux input" : "program input");
	ck_assert_int_eq(set->finding.ev.off, t->off + 6);
}
END_TEST

/* Sabotage the reference itself: a corrupt snapshot must be caught. */
START_TEST(test_ref_sabotage_snapshot)
{
	uint8_t *snap;

	start(DFZ_ORACLES_ALL, 0, 0);
	prog_setup(1, 1, k_copy);
	dfz_oracles_begin(set, &prog);
	prog_compute();
	snap = dfz__ref_snapshot(dfz__oracles_state(set, DFZ_ORACLE_REF), 0);
	ck_assert_ptr_nonnull(snap);
	snap[5 + 2] ^= 0x80;                       /* element [1,2] */
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_DATA_MISMATCH);
	ck_msg_has("[1,2]");
	ck_assert_ptr_null(dfz__ref_snapshot(
		dfz__oracles_state(set, DFZ_ORACLE_REF), 99));
}
END_TEST

/* Values wrap modulo 2^(8 elem), and only the footprint is compared. */
START_TEST(test_ref_wraps)
{
	static const uint8_t inc[] = { DFZ_KERNEL_INC };
	uint32_t idx[DFZ_MAX_RANK] = { 0, 3 };

	start(DFZ_ORACLES_ALL, 0, 0);
	prog_setup(8, 1, inc);
	put(&prog.node[0].in, idx, ~0ull);
	dfz_oracles_begin(set, &prog);
	prog_compute();
	ck_assert_uint_eq(get(&prog.node[0].out, idx), 0);
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);
}
END_TEST

/* A permuted (column-major) output layout, rank 3. */
static void rank3_setup(void)
{
	static const uint32_t in_s[DFZ_MAX_RANK] = { 24, 6, 1 };
	static const uint32_t out_s[DFZ_MAX_RANK] = { 1, 2, 8 };

	memset(&prog, 0, sizeof(prog));
	prog.rank = 3;
	prog.elem = 1;
	prog.shape[0] = 2;
	prog.shape[1] = 3;
	prog.shape[2] = 5;
	prog.nnodes = 1;
	prog.node[0].kernel = DFZ_KERNEL_INC;
	tensor(&prog.node[0].in, in_s, 48);
	tensor(&prog.node[0].out, out_s, 40);
	each(fill_input, 0);
}

START_TEST(test_ref_rank3_permuted)
{
	uint32_t idx[DFZ_MAX_RANK] = { 1, 2, 4 };

	start(DFZ_ORACLES_ALL, 0, 0);
	rank3_setup();
	dfz_oracles_begin(set, &prog);
	prog_compute();
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);

	start(DFZ_ORACLES_ALL, 0, 0);
	rank3_setup();
	dfz_oracles_begin(set, &prog);
	prog_compute();
	put(&prog.node[0].out, idx, get(&prog.node[0].out, idx) - 1);
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_DATA_MISMATCH);
	ck_assert_int_eq(set->finding.ev.elem, 29);
	ck_msg_has("[1,2,4]");
}
END_TEST

/* A zero-sized dim: no elements, so every output byte is outside. */
START_TEST(test_ref_empty_shape)
{
	uint8_t *p;

	start(DFZ_ORACLES_ALL, 0, 0);
	prog_setup(1, 1, k_copy);
	prog.shape[1] = 0;
	dfz_oracles_begin(set, &prog);
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);

	start(DFZ_ORACLES_ALL, 0, 0);
	prog_setup(1, 1, k_copy);
	prog.shape[0] = 0;
	dfz_oracles_begin(set, &prog);
	p = dfz_mem_ptr(rt, DFZ_L3, prog.node[0].out.off);
	*p = (uint8_t)~*p;
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_DATA_CLOBBER);
}
END_TEST

/* A spec the oracle cannot judge (tensor outside its allocation, bad
 * fields) is left alone rather than misjudged. */
START_TEST(test_ref_unjudgeable_spec)
{
	start(DFZ_ORACLES_ALL, 0, 0);
	prog_setup(1, 1, k_copy);
	prog.node[0].out.bytes = 10;              /* extent is 15 */
	dfz_oracles_begin(set, &prog);
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);

	start(DFZ_ORACLES_ALL, 0, 0);
	prog_setup(1, 1, k_copy);
	prog.elem = 3;
	dfz_oracles_begin(set, &prog);
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);

	start(DFZ_ORACLES_ALL, 0, 0);
	dfz_oracles_begin(set, NULL);
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);
}
END_TEST

/* -------------------------------------------------------- hang, crash */

static struct dfz_ram_req *new_req(void)
{
	void *p;

	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L2, sizeof(struct dfz_ram_req),
					 &p), 0);
	return p;
}

/* A copy with @latency under a wait bound of 20 steps. */
static int copy_and_wait(uint32_t latency)
{
	struct dfz_ram_req *req;
	uint32_t src;
	void *dst;

	start(DFZ_ORACLES_ALL, latency, 20);
	req = new_req();
	ck_assert_int_eq(dfz_l3_alloc(rt, 64, &src), 0);
	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L2, 64, &dst), 0);
	ck_assert_int_eq(dfz_ram_copy(dfz_ram_get(rt), src, dst, 64, 1, req),
			 0);
	return dfz_ram_copy_wait(req);
}

START_TEST(test_hang)
{
	ck_assert_int_eq(copy_and_wait(5), 0);
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);

	ck_assert_int_eq(copy_and_wait(50), DFZ_EHANG);  /* sabotage */
	ck_class(DFZ_CLASS_DMA_HANG);
	ck_msg_has("did not complete within 20 steps");
	ck_assert_ptr_nonnull(set->finding.ev.handle);
}
END_TEST

START_TEST(test_crash_synthetic)
{
	struct dfz_event ev = { .kind = DFZ_EV_FAULT, .step = 9,
				.aux = 0x123456 };

	start(DFZ_ORACLES_ALL, 0, 0);
	feed(&ev);
	ck_class(DFZ_CLASS_CRASH);
	ck_msg_has("bus fault at 0x123456");
	ck_assert_int_eq(set->finding.ev.step, 9);
}
END_TEST

/* The real engine meets an L3 line outside memory. */
START_TEST(test_crash_real)
{
	struct dfz_rt_config cfg = { .wait_bound = 1000 };
	struct dfz_ram_req *req;
	void *dst;

	start(DFZ_ORACLES_ALL, 0, 0);
	cfg.mem_size[DFZ_L3] = 4096;
	cfg.obs = dfz_oracles_observer(set);
	ck_assert_int_eq(dfz_rt_reset(rt, &cfg), 0);
	dfz_oracles_reset(set, rt);
	req = new_req();
	ck_assert_int_eq(dfz_local_alloc(rt, DFZ_L2, 256, &dst), 0);
	ck_assert_int_eq(dfz_ram_copy_2d(dfz_ram_get(rt), 3900, dst, 256, 128,
					 64, 1, req), 0);
	dfz_ram_copy_wait(req);
	ck_class(DFZ_CLASS_CRASH);
}
END_TEST

/* Oracle selections by name: all, none, lists; junk rejected whole. */
START_TEST(test_oracles_parse)
{
	uint32_t m = 7;

	ck_assert_int_eq(dfz_oracles_parse(NULL, &m), 0);
	ck_assert_uint_eq(m, DFZ_ORACLES_ALL);
	ck_assert_int_eq(dfz_oracles_parse("none", &m), 0);
	ck_assert_uint_eq(m, 0);
	ck_assert_int_eq(dfz_oracles_parse("ref,hazard", &m), 0);
	ck_assert_uint_eq(m, (1u << DFZ_ORACLE_REF) | (1u << DFZ_ORACLE_HAZARD));
	m = 7;
	ck_assert_int_eq(dfz_oracles_parse("ref,haz", &m), DFZ_EINVAL);
	ck_assert_int_eq(dfz_oracles_parse("", &m), DFZ_EINVAL);
	ck_assert_int_eq(dfz_oracles_parse("ref,", &m), DFZ_EINVAL);
	ck_assert_uint_eq(m, 7); /* untouched on error */
	ck_assert_str_eq(dfz_oracle_name(DFZ_ORACLE_ERRCODE), "errcode");
	ck_assert_ptr_null(dfz_oracle_name(DFZ_ORACLE_COUNT));
}
END_TEST

/* The footprint arithmetic the oracles share: dfz__div() is the division
 * (a shift for a power of two), and dfz__fp_end() ends a footprint where
 * its last, maybe partial, line ends. */
START_TEST(test_fp_end_div)
{
	static const uint32_t lens[] = { 1, 3, 8, 10, 16, 32, 100, 4096 };

	for (uint64_t d = 1; d <= 300; d++)
		for (uint64_t n = 0; n < 5000; n += 37)
			ck_assert_uint_eq(dfz__div(n, d), n / d);
	ck_assert_uint_eq(dfz__div(UINT64_MAX, 1u << 20), UINT64_MAX >> 20);
	for (unsigned i = 0; i < sizeof(lens) / sizeof(lens[0]); i++)
		for (uint32_t lines = 1; lines <= 9; lines++) {
			struct dfz_desc d = { .is_2d = 1, .ext_level = DFZ_L2,
				.ext_off = 0x40, .length = lens[i],
				.ext_stride = 2 * lens[i] + 8,
				.size = lens[i] * lines - (lens[i] > 1) };
			struct dfz__fp fp;
			uint64_t n = (d.size + d.length - 1) / d.length;

			dfz__fp_init(&fp, &d, true);
			ck_assert_uint_eq(dfz__fp_end(&fp),
				fp.stride ? 0x40 + (n - 1) * d.ext_stride +
					    (d.size - (n - 1) * d.length) :
					    0x40 + d.size);
		}
}
END_TEST

Suite *suite_oracles(void)
{
	Suite *s = suite_create("oracles");
	TCase *tc = tcase_create("core");

	tcase_add_unchecked_fixture(tc, rt_setup, rt_teardown);
	tcase_add_test(tc, test_class_names);
	tcase_add_test(tc, test_oracles_parse);
	tcase_add_test(tc, test_fp_end_div);
	tcase_add_test(tc, test_evidence_none);
	tcase_add_test(tc, test_first_violation_wins);
	tcase_add_test(tc, test_reset_clears_finding);
	tcase_add_test(tc, test_mask_selects_oracles);
	tcase_add_test(tc, test_redzone_clean);
	tcase_add_test(tc, test_redzone_overflow_l3);
	tcase_add_test(tc, test_redzone_underflow_on_free);
	tcase_add_test(tc, test_redzone_forgets);
	tcase_add_loop_test(tc, test_ref_clean, 0, 4);
	tcase_add_test(tc, test_ref_mismatch);
	tcase_add_test(tc, test_ref_mismatch_lowest_node);
	tcase_add_test(tc, test_ref_clobber_padding);
	tcase_add_loop_test(tc, test_ref_clobber_input, 0, 2);
	tcase_add_test(tc, test_ref_sabotage_snapshot);
	tcase_add_test(tc, test_ref_wraps);
	tcase_add_test(tc, test_ref_rank3_permuted);
	tcase_add_test(tc, test_ref_empty_shape);
	tcase_add_test(tc, test_ref_unjudgeable_spec);
	tcase_add_test(tc, test_hang);
	tcase_add_test(tc, test_crash_synthetic);
	tcase_add_test(tc, test_crash_real);
	suite_add_tcase(s, tc);
	return s;
}
