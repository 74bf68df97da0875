/* SPDX-License-Identifier: MIT */
/*
 * The fixture of the host oracle tests (check_oracle_host*.c): a runtime
 * and an oracle set per test file, synthetic API events, and a small
 * interpreter of host programs that performs them on the real driver and
 * host runtime as the harness does (child tensors staged, host tensors
 * filled, then the calls in order as dfz_host_act_of() makes them: a RUN
 * call's repeat as launches, slots for the user's device buffers, faults
 * applied). The tcase of
 * check_oracle_host_real.c joins suite_oracle_host().
 */
#ifndef DFZ_TEST_ORACLE_HOST_H
#define DFZ_TEST_ORACLE_HOST_H

#include <check.h>
#include <stdio.h>
#include <string.h>

#include "oracle_fixture.h"
#include "runtime_int.h"

#define M_DEV (1u << DFZ_ORACLE_DEV)
#define M_OUT (1u << DFZ_ORACLE_OUTPUT)
#define M_ERR (1u << DFZ_ORACLE_ERRCODE)
#define M_HOST (M_DEV | M_OUT | M_ERR)
#define NOSPAN UINT32_MAX
#define HBUF 1024                     /* host bytes of one test tensor */

static struct dfz_host_prog prog;
static uint8_t host[DFZ_HOST_MAX_ARGS][HBUF];
static uint8_t bin[4096];             /* kernel binary (bin_size used) */
static uint8_t scratch[DFZ_HOST_MAX_TENSOR];
static uint64_t slot[DFZ_HOST_SLOTS];
static int rcs[256];                  /* codes of the calls performed */
static unsigned nrcs;

/* A new run of the oracles in @mask with a device @budget and @bugs. */
static inline void configure(uint32_t mask, uint32_t budget, uint32_t bugs)
{
	struct dfz_rt_config cfg = { .dev_budget = budget, .bugs = bugs };

	oracles_run(mask, &cfg);
}

/* configure(), and an empty program with a 48-byte kernel binary. */
static inline void start(uint32_t mask, uint32_t budget, uint32_t bugs)
{
	configure(mask, budget, bugs);
	memset(&prog, 0, sizeof(prog));
	memset(slot, 0, sizeof(slot));
	memset(bin, 0x5a, sizeof(bin));
	prog.dev_budget = budget;
	prog.bin = bin;
	prog.bin_size = 48;
	nrcs = 0;
}

TCase *tcase_oracle_host_real(void);

/* ------------------------------------------------------ synthetic events */

static inline void api(unsigned kind, unsigned op, int64_t rc,
			uint32_t dst, uint32_t src, uint32_t size)
{
	struct dfz_event ev = { .kind = (uint8_t)kind, .aux = op, .id = rc };

	ev.dst.level = ev.src.level = DFZ_NOWHERE_LEVEL;
	if (dst != NOSPAN)
		ev.dst = (struct dfz_span){ DFZ_DEV_LEVEL, dst, size };
	if (src != NOSPAN)
		ev.src = (struct dfz_span){ DFZ_DEV_LEVEL, src, size };
	ev.desc.size = size;
	dfz_rt_emit(rt, &ev);
}

static inline void enter(unsigned op)
{
	api(DFZ_EV_API_ENTER, op, 0, NOSPAN, NOSPAN, 0);
}

static inline void leave(unsigned op, int rc)
{
	api(DFZ_EV_API_RET, op, rc, NOSPAN, NOSPAN, 0);
}

/* --------------------------------------------------------- host programs */

static inline unsigned add_tensor(unsigned dtype, unsigned role,
				  bool child, uint32_t s0, uint32_t s1)
{
	struct dfz_host_tensor *t = &prog.t[prog.ntensors];

	t->arg.dtype = (uint8_t)dtype;
	t->arg.ndims = 2;
	t->arg.shapes[0] = s0;
	t->arg.shapes[1] = s1;
	t->arg.child_memory = child;
	t->role = (uint8_t)role;
	t->bytes = (uint32_t)dfz_tensor_bytes(&t->arg);
	ck_assert_uint_le(t->bytes, HBUF);
	return prog.ntensors++;
}

static inline void add_call(unsigned op, unsigned fault, unsigned s,
			    uint32_t size, uint32_t offset)
{
	struct dfz_host_call *c = &prog.call[prog.ncalls++];

	c->op = (uint8_t)op;
	c->fault = (uint8_t)fault;
	c->slot = (uint8_t)s;
	c->size = size;
	c->offset = offset;
	c->repeat = 1;
}

static inline void add_op(unsigned op)
{
	add_call(op, DFZ_FAULT_NONE, 0, 0, 0);
}

/* Stage the child tensors on the device, fill the host ones, begin. */
static inline void stage(void)
{
	struct dfz_dev *dev = dfz_dev_get(rt);
	uint64_t addr;
	unsigned i, e;

	for (i = 0; i < prog.ntensors; i++) {
		struct dfz_host_tensor *t = &prog.t[i];

		for (e = 0; e < t->bytes; e++)
			host[i][e] = (uint8_t)(i * 31 + e * 7 + 1);
		t->arg.data = (uintptr_t)host[i];
		if (!t->arg.child_memory)
			continue;
		ck_assert_int_eq(dfz_dev_malloc(dev, t->bytes, &addr), 0);
		ck_assert_int_eq(dfz_dev_copy_to(dev, addr, host[i], t->bytes),
				 0);
		t->arg.data = addr;
	}
	dfz_oracles_begin_host(set, &prog);
}

/* Perform calls [from, to) of the program as the harness does: each as
 * dfz_host_act_of() makes it, a RUN call's repeat as launches. */
static inline void perform_range(unsigned from, unsigned to)
{
	struct dfz_host_io io = { .bin = prog.bin, .scratch = scratch,
				  .slot = slot };
	struct dfz_host_act a;

	for (unsigned k = from; k < to; k++) {
		dfz_host_act_of(&prog, k, &a);
		for (uint32_t r = 0; r < a.times; r++)
			rcs[nrcs++] = dfz_host_act_perform(rt, &a, &io);
	}
}

static inline void perform(void)
{
	perform_range(0, prog.ncalls);
}

#endif /* DFZ_TEST_ORACLE_HOST_H */
