// SPDX-License-Identifier: MIT
/*
 * Unit tests of the host runtime (runtime/host.c, runtime/host_prog.c):
 * the init / launch / validate / finalize contract and the order of its
 * checks, init's clean-up on failure, child pass-through, outputs and the
 * graph output copied back (against the naive kernel of check_dev.c),
 * finalize's frees, the nesting of API events, the init arguments of a
 * host program's call, names and tensor sizes, and each bug switch of
 * the host side: its faulty path shows, and the fixed path does not.
 */
#include <check.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_fast.h"
#include "rt_fixture.h"

/* The naive kernel, in check_dev.c. */
void ref_kernel(uint8_t *const buf[], const uint32_t bytes[],
		const uint8_t roles[], uint32_t nargs, uint32_t launch,
		uint8_t *graph);

#define TBYTES 4096u                  /* most bytes of a test tensor */
#define BIN 100u                      /* kernel binary bytes */

static struct dfz_dev *dev;
static struct dfz_host *h;

#define MAX_EVENTS 4096
#include "ev_seen.h"

/* The arguments under test, their host storage and the reference. */
static struct dfz_tensor_arg args[DFZ_HOST_MAX_ARGS];
static uint8_t roles[DFZ_HOST_MAX_ARGS];
static uint32_t bytes[DFZ_HOST_MAX_ARGS];
static uint32_t nargs;
static uint8_t host_mem[DFZ_HOST_MAX_ARGS][TBYTES];
static uint8_t ref[DFZ_HOST_MAX_ARGS][TBYTES];
static uint8_t gref[TBYTES];
static uint8_t bin[BIN];

/* A new run: device budget @budget, bug mask @bugs, no arguments. */
static void start(uint32_t budget, uint32_t bugs)
{
	struct dfz_rt_config cfg = { .dev_budget = budget, .bugs = bugs,
				     .obs = { .fn = record } };

	ck_assert_int_eq(dfz_rt_reset(rt, &cfg), 0);
	nevents = 0;
	nargs = 0;
	memset(args, 0, sizeof(args));
}

static void setup(void)
{
	rt_setup();
	dev = dfz_dev_get(rt);
	h = dfz_host_get(rt);
	ck_assert_ptr_nonnull(h);
	memset(bin, 0x90, sizeof(bin));
	start(DFZ_CAP_DEV_BUDGET, 0);
}

static uint8_t pat(uint32_t i, uint32_t seed)
{
	return (uint8_t)(i * 37u + seed * 71u + 11u);
}

static uint64_t live(void)
{
	return dfz__dev_live(dev);
}

/* Argument @nargs: @n int8 elements with role @role; a child gets a
 * device buffer holding its bytes, a host tensor host_mem. */
static uint32_t add_arg(uint32_t n, uint8_t role, bool child)
{
	uint32_t i = nargs++;

	CK_CHECK_UINT(n, <=, TBYTES);
	args[i] = (struct dfz_tensor_arg){ .shapes = { n }, .ndims = 1,
					   .dtype = DFZ_DT_INT8 };
	roles[i] = role;
	bytes[i] = n;
	for (uint32_t e = 0; e < n; e++)
		ref[i][e] = host_mem[i][e] = pat(e, i + 1);
	if (!child) {
		args[i].data = (uintptr_t)host_mem[i];
		return i;
	}
	args[i].child_memory = 1;
	ck_assert_int_eq(dfz_dev_malloc(dev, n, &args[i].data), 0);
	ck_assert_int_eq(dfz_dev_copy_to(dev, args[i].data, host_mem[i], n), 0);
	return i;
}

/* The reference after launches @from..@to (salts), graph output or not. */
static void ref_launches(uint32_t from, uint32_t to, bool graph)
{
	uint8_t *bufs[DFZ_HOST_MAX_ARGS];

	for (uint32_t i = 0; i < nargs; i++)
		bufs[i] = ref[i];
	for (uint32_t l = from; l <= to; l++)
		ref_kernel(bufs, bytes, roles, nargs, l, graph ? gref : NULL);
}

static void peek(uint64_t addr, uint8_t *dst, uint32_t n)
{
	ck_assert_int_eq(dfz_dev_peek(dev, addr, dst, n), 0);
}

static int init(int graph)
{
	return dfz_host_init(h, args, roles, nargs, graph);
}

static int launch(void)
{
	return dfz_host_launch(h, bin, BIN);
}

/* Init with @graph, @launches launches and validate, all succeeding. */
static void run_through(int graph, unsigned launches)
{
	ck_assert_int_eq(init(graph), 0);
	for (unsigned l = 0; l < launches; l++)
		ck_assert_int_eq(launch(), 0);
	ck_assert_int_eq(dfz_host_validate(h), 0);
}

/* Number of API_RET events of @call recorded. */
static unsigned count_ret(enum dfz_api call)
{
	unsigned n = 0;

	for (unsigned i = 0; i < nevents && i < MAX_EVENTS; i++)
		n += events[i].kind == DFZ_EV_API_RET && events[i].aux == call;
	return n;
}

/* A three-argument set: IN, OUT, INOUT host tensors. */
static void three_args(void)
{
	add_arg(40, DFZ_ROLE_IN, false);
	add_arg(64, DFZ_ROLE_OUT, false);
	add_arg(24, DFZ_ROLE_INOUT, false);
}

/* ------------------------------------------------------------------- init */

START_TEST(test_init_null_and_busy)
{
	three_args();
	ck_assert_int_eq(dfz_host_init(NULL, args, roles, nargs, 0), DFZ_EINVAL);
	ck_assert_uint_eq(nevents, 0);
	ck_assert_int_eq(dfz_host_init(h, NULL, roles, nargs, 0), DFZ_EINVAL);
	ck_assert_uint_eq(nevents, 2);
	ck_assert_uint_eq(events[0].kind, DFZ_EV_API_ENTER);
	ck_assert_int_eq(events[0].aux, DFZ_API_INIT);
	ck_assert_uint_eq(events[1].kind, DFZ_EV_API_RET);
	ck_assert_int_eq(events[1].id, DFZ_EINVAL);
	ck_assert_int_eq(dfz_host_init(h, args, NULL, nargs, 0), DFZ_EINVAL);
	ck_assert_int_eq(init(0), 0);
	/* 1 before 2 before 3. */
	ck_assert_int_eq(dfz_host_init(h, NULL, roles, nargs, 0), DFZ_EINVAL);
	ck_assert_int_eq(init(0), DFZ_EBUSY);
	ck_assert_int_eq(dfz_host_init(h, args, roles, 0, 0), DFZ_EBUSY);
	ck_assert_uint_eq(live(), 128);
}
END_TEST

START_TEST(test_init_nargs)
{
	three_args();
	ck_assert_int_eq(dfz_host_init(h, args, roles, 0, 0), DFZ_EINVAL);
	ck_assert_int_eq(dfz_host_init(h, args, roles, DFZ_HOST_MAX_ARGS + 1, 0),
			 DFZ_EINVAL);
	ck_assert_uint_eq(count_ret(DFZ_API_MALLOC), 0);
	ck_assert_int_eq(dfz_host_init(h, args, roles, 1, 0), 0);
	ck_assert_uint_eq(live(), 40);
}
END_TEST

/* The init argument faults of a host program's call, each on argument 1
 * (given as 1 + ntensors: the index is taken modulo), and their codes. */
static const struct {
	uint8_t fault;
	int rc;
} arg_faults[] = {
	{ DFZ_FAULT_NONE, 0 },
	{ DFZ_FAULT_NDIMS, DFZ_EINVAL },
	{ DFZ_FAULT_DTYPE, DFZ_EINVAL },
	{ DFZ_FAULT_SHAPE0, DFZ_EINVAL },
	{ DFZ_FAULT_HUGE, DFZ_ERANGE },
	{ DFZ_FAULT_DATA0, DFZ_EINVAL },
	{ DFZ_FAULT_ROLE, DFZ_EINVAL },
	{ DFZ_FAULT_NARGS, DFZ_EINVAL },
	{ DFZ_FAULT_NULL_PTR, 0 },
};

#define NARG_FAULTS (sizeof(arg_faults) / sizeof(arg_faults[0]))
_Static_assert(NARG_FAULTS == 9, "loop bound below");

START_TEST(test_init_arg_faults)
{
	static struct dfz_host_prog p;
	struct dfz_host_call c = { .op = DFZ_API_INIT,
				   .fault = arg_faults[_i].fault };
	struct dfz_tensor_arg a[DFZ_HOST_MAX_ARGS];
	uint8_t r[DFZ_HOST_MAX_ARGS];
	uint32_t n;

	three_args();
	memset(&p, 0, sizeof(p));
	p.ntensors = (uint8_t)nargs;
	for (uint32_t i = 0; i < nargs; i++) {
		p.t[i].arg = args[i];
		p.t[i].role = roles[i];
		p.t[i].bytes = bytes[i];
	}
	c.arg = (uint8_t)(1 + 2 * nargs);        /* odd, and 1 mod 3 */
	n = dfz_host_call_args(&p, &c, a, r);
	ck_assert_uint_eq(n, c.fault == DFZ_FAULT_NARGS ? DFZ_HOST_MAX_ARGS + 1 :
							  nargs);
	/* Arguments 0 and 2 are passed as the program has them. */
	ck_assert_mem_eq(&a[0], &args[0], sizeof(a[0]));
	ck_assert_mem_eq(&a[2], &args[2], sizeof(a[2]));
	ck_assert_uint_eq(r[2], roles[2]);
	ck_assert_int_eq(dfz_host_init(h, a, r, n, 0), arg_faults[_i].rc);
	ck_assert_uint_eq(live(), arg_faults[_i].rc ? 0 : 128);
	c.arg = 2;
	if (c.fault == DFZ_FAULT_NARGS)
		ck_assert_uint_eq(dfz_host_call_args(&p, &c, a, r), 0);
}
END_TEST

START_TEST(test_init_arg_order)
{
	add_arg(16, DFZ_ROLE_IN, false);
	add_arg(16, DFZ_ROLE_OUT, false);
	args[0].shapes[0] = DFZ_HOST_MAX_TENSOR + 1;
	args[1].data = 0;
	ck_assert_int_eq(init(0), DFZ_ERANGE);   /* argument 0 decides */
	args[0].shapes[0] = 16;
	args[0].ndims = 6;
	args[1].shapes[0] = DFZ_HOST_MAX_TENSOR + 1;
	ck_assert_int_eq(init(0), DFZ_EINVAL);
	args[0].ndims = 1;
	args[1].data = (uintptr_t)host_mem[1];
	ck_assert_int_eq(init(0), DFZ_ERANGE);
	/* Exactly the bound is fine, in any dtype. */
	args[1].shapes[0] = DFZ_HOST_MAX_TENSOR / 8;
	args[1].dtype = DFZ_DT_FP64;
	ck_assert_int_eq(init(0), 0);
	ck_assert_uint_eq(live(), 16 + DFZ_HOST_MAX_TENSOR);
}
END_TEST

START_TEST(test_init_pair_bound)
{
	for (unsigned i = 0; i < DFZ_HOST_MAX_PAIRS + 1; i++)
		add_arg(8, DFZ_ROLE_IN, false);
	ck_assert_int_eq(init(0), DFZ_ERANGE);
	args[DFZ_HOST_MAX_PAIRS].data = 0;        /* 4 before 5 */
	ck_assert_int_eq(init(0), DFZ_EINVAL);
	ck_assert_uint_eq(count_ret(DFZ_API_MALLOC), 0);
	nargs = 0;
	for (unsigned i = 0; i < DFZ_HOST_MAX_PAIRS + 1; i++)
		add_arg(8, DFZ_ROLE_IN, i == 4);
	ck_assert_int_eq(init(0), 0);
	ck_assert_uint_eq(h->npairs, DFZ_HOST_MAX_PAIRS);
}
END_TEST

/* Init failing at a malloc, then at the graph buffer: everything init
 * allocated is freed, the caller's child stays, and the context is idle. */
START_TEST(test_init_failure_frees)
{
	uint64_t before;

	start(8 + 100 + 200 + 250, 0);
	add_arg(8, DFZ_ROLE_IN, true);
	add_arg(100, DFZ_ROLE_IN, false);
	add_arg(200, DFZ_ROLE_OUT, false);
	add_arg(300, DFZ_ROLE_INOUT, false);
	before = live();
	ck_assert_int_eq(init(0), DFZ_ENOMEM);
	ck_assert_uint_eq(live(), before);
	ck_assert_uint_eq(count_ret(DFZ_API_FREE), 2);
	ck_assert(!h->inited);

	start(8 + 100 + 200 + 300 + 199, 0);
	add_arg(8, DFZ_ROLE_IN, true);
	add_arg(100, DFZ_ROLE_IN, false);
	add_arg(200, DFZ_ROLE_OUT, false);
	add_arg(300, DFZ_ROLE_INOUT, false);
	ck_assert_int_eq(init(1), DFZ_ENOMEM);
	ck_assert_uint_eq(live(), 8);
	ck_assert_uint_eq(count_ret(DFZ_API_FREE), 3);
	ck_assert_int_eq(init(0), 0);             /* idle, not busy */
	ck_assert_int_eq(dfz_host_finalize(h), 0);
	ck_assert_uint_eq(live(), 8);
	rt->cfg.dev_budget += 1;                 /* the graph fits exactly */
	ck_assert_int_eq(init(1), 0);
	ck_assert_uint_eq(live(), rt->cfg.dev_budget);
}
END_TEST

START_TEST(test_init_stages)
{
	/* ENTER, then malloc + copy for IN/INOUT, malloc only for OUT, nothing
	 * for the child, then the graph buffer. */
	static const uint8_t calls[] = {
		DFZ_API_INIT, DFZ_API_MALLOC, DFZ_API_COPY_TO, DFZ_API_MALLOC,
		DFZ_API_MALLOC, DFZ_API_COPY_TO, DFZ_API_MALLOC, DFZ_API_INIT,
	};
	static const uint32_t sizes[] = { 0, 100, 100, 64, 30, 30, 64, 0 };
	uint8_t probe[TBYTES];
	unsigned i, k = 0;
	uint32_t child;

	add_arg(100, DFZ_ROLE_IN, false);
	child = add_arg(50, DFZ_ROLE_INOUT, true);
	add_arg(64, DFZ_ROLE_OUT, false);
	add_arg(30, DFZ_ROLE_INOUT, false);
	nevents = 0;
	ck_assert_int_eq(init(1), 0);
	ck_assert_uint_eq(live(), 50 + 100 + 64 + 30 + 64);

	for (i = 0; i < nevents; i++) {
		if (events[i].kind != DFZ_EV_API_ENTER &&
		    events[i].kind != DFZ_EV_API_RET)
			continue;
		ck_assert_uint_lt(k, sizeof(calls));
		ck_assert_int_eq(events[i].aux, calls[k]);
		ck_assert_uint_eq(events[i].desc.size, sizes[k]);
		k++;
	}
	ck_assert_uint_eq(k, sizeof(calls));
	ck_assert_uint_eq(h->dev_of_arg[child], args[child].data);
	ck_assert_uint_eq(h->npairs, 3);
	ck_assert_uint_eq(h->pairs[1].host, args[2].data);
	ck_assert_uint_eq(h->pairs[1].dev, h->dev_of_arg[2]);
	ck_assert_uint_eq(h->pairs[1].size, 64);
	peek(h->dev_of_arg[0], probe, 100);
	ck_assert_mem_eq(probe, host_mem[0], 100);
	peek(h->dev_of_arg[3], probe, 30);
	ck_assert_mem_eq(probe, host_mem[3], 30);
	peek(h->dev_of_arg[2], probe, 64);   /* OUT: not copied */
	for (i = 0; i < 64; i++)
		ck_assert_uint_eq(probe[i], dfz_mem_fill_byte(DFZ_DEV_LEVEL,
				  (uint32_t)(h->dev_of_arg[2] - DFZ_DEV_BASE) + i));
}
END_TEST

/* ----------------------------------------------------------------- launch */

START_TEST(test_launch_order)
{
	three_args();
	ck_assert_int_eq(dfz_host_launch(NULL, bin, BIN), DFZ_EINVAL);
	ck_assert_uint_eq(nevents, 0);
	ck_assert_int_eq(dfz_host_launch(h, NULL, BIN), DFZ_EINVAL);
	ck_assert_int_eq(dfz_host_launch(h, bin, BIN), DFZ_ENOENT);
	ck_assert_int_eq(dfz_host_launch(h, bin, 0), DFZ_ENOENT);
	ck_assert_int_eq(init(0), 0);
	ck_assert_int_eq(dfz_host_launch(h, NULL, 0), DFZ_EINVAL);
	ck_assert_int_eq(dfz_host_launch(h, bin, 0), DFZ_EINVAL);
	ck_assert_uint_eq(count_ret(DFZ_API_REGISTER), 0);
	ck_assert_int_eq(launch(), 0);
	ck_assert_int_eq(events[nevents - 1].aux, DFZ_API_RUN);
	ck_assert_int_eq(events[nevents - 1].id, 0);
}
END_TEST

/* Registered once; launches are salted 1, 2, 3; INOUT accumulates. */
START_TEST(test_launch_outputs)
{
	three_args();
	run_through(0, 3);
	ck_assert_uint_eq(count_ret(DFZ_API_REGISTER), 1);
	ck_assert_uint_eq(count_ret(DFZ_API_LAUNCH), 3);
	ck_assert_uint_eq(live(), 128 + BIN);
	ref_launches(1, 3, false);
	for (uint32_t i = 0; i < nargs; i++)
		ck_assert_mem_eq(host_mem[i], ref[i], bytes[i]);
}
END_TEST

/* A failed registration launches nothing and does not cache a handle; a
 * failed driver launch still counts as a launch. */
START_TEST(test_launch_failures)
{
	uint64_t spacer, child_addr;
	uint32_t child;

	start(40 + 64 + 24 + 16 + BIN, 0);
	three_args();
	child = add_arg(16, DFZ_ROLE_INOUT, true);
	child_addr = args[child].data;
	ck_assert_int_eq(dfz_dev_malloc(dev, 1, &spacer), 0);
	ck_assert_int_eq(init(0), 0);
	ck_assert_int_eq(launch(), DFZ_ENOMEM);
	ck_assert_int_eq(dfz_host_validate(h), DFZ_ENOENT);
	ck_assert_int_eq(dfz_dev_free(dev, spacer), 0);
	/* The child's buffer freed by its owner: the driver refuses. */
	ck_assert_int_eq(dfz_dev_free(dev, child_addr), 0);
	ck_assert_int_eq(launch(), DFZ_EFAULT);
	ck_assert_int_eq(dfz_host_validate(h), DFZ_ENOENT);
	ck_assert_uint_eq(count_ret(DFZ_API_REGISTER), 2);
	ck_assert_uint_eq(dfz_dev_malloc(dev, 16, &child_addr), 0);
	ck_assert_uint_eq(child_addr, args[child].data);   /* first fit */
	ck_assert_int_eq(dfz_dev_copy_to(dev, child_addr, host_mem[child], 16), 0);
	ck_assert_int_eq(launch(), 0);
	ck_assert_uint_eq(count_ret(DFZ_API_REGISTER), 2);
	ck_assert_int_eq(dfz_host_validate(h), 0);
	ref_launches(2, 2, false);
	for (uint32_t i = 0; i < 3; i++)
		ck_assert_mem_eq(host_mem[i], ref[i], bytes[i]);
}
END_TEST

/* --------------------------------------------------------------- validate */

START_TEST(test_validate_order)
{
	three_args();
	ck_assert_int_eq(dfz_host_validate(NULL), DFZ_EINVAL);
	ck_assert_uint_eq(nevents, 0);
	ck_assert_int_eq(dfz_host_validate(h), DFZ_ENOENT);
	ck_assert_int_eq(init(0), 0);
	ck_assert_int_eq(dfz_host_validate(h), DFZ_ENOENT);
	ck_assert_int_eq(count_ret(DFZ_API_COPY_FROM), 0);
	ck_assert_int_eq(launch(), 0);
	ck_assert_int_eq(dfz_host_validate(h), 0);
	ck_assert_int_eq(count_ret(DFZ_API_COPY_FROM), 2);
	ck_assert_mem_eq(host_mem[0], ref[0], bytes[0]);    /* IN unchanged */
}
END_TEST

/* The graph output goes to the first OUT argument's host tensor; the OUT
 * argument after it gets its own result. */
START_TEST(test_validate_graph_host)
{
	add_arg(32, DFZ_ROLE_INOUT, false);
	add_arg(20, DFZ_ROLE_IN, false);
	add_arg(48, DFZ_ROLE_OUT, false);
	add_arg(16, DFZ_ROLE_OUT, false);
	run_through(1, 2);
	ref_launches(1, 2, true);
	ck_assert_mem_eq(host_mem[2], gref, 48);
	ck_assert_mem_eq(host_mem[0], ref[0], 32);
	ck_assert_mem_eq(host_mem[3], ref[3], 16);
}
END_TEST

/* A child first OUT: the graph output goes to its device buffer; a child
 * INOUT is updated in place on the device; a failing copy's code is
 * returned. */
START_TEST(test_validate_graph_child)
{
	uint8_t probe[TBYTES];
	uint32_t c_out, c_io;

	add_arg(24, DFZ_ROLE_IN, false);
	c_out = add_arg(32, DFZ_ROLE_OUT, true);
	c_io = add_arg(40, DFZ_ROLE_INOUT, true);
	add_arg(32, DFZ_ROLE_OUT, false);
	run_through(1, 1);
	ck_assert_uint_eq(count_ret(DFZ_API_COPY_DEV), 1);
	ref_launches(1, 1, true);
	peek(args[c_out].data, probe, 32);
	ck_assert_mem_eq(probe, gref, 32);
	peek(args[c_io].data, probe, 40);
	ck_assert_mem_eq(probe, ref[c_io], 40);
	ck_assert_mem_eq(host_mem[3], ref[3], 32);
	ck_assert_int_eq(dfz_dev_free(dev, args[c_out].data), 0);
	ck_assert_int_eq(dfz_host_validate(h), DFZ_EFAULT);
}
END_TEST

/* --------------------------------------------------------------- finalize */

START_TEST(test_finalize)
{
	uint64_t kernel;

	add_arg(16, DFZ_ROLE_IN, true);
	three_args();
	ck_assert_int_eq(dfz_host_finalize(NULL), DFZ_EINVAL);
	ck_assert_int_eq(dfz_host_finalize(h), DFZ_ENOENT);
	ck_assert_int_eq(init(1), 0);
	ck_assert_int_eq(launch(), 0);
	kernel = h->kernel;
	ck_assert_uint_eq(live(), 16 + 128 + 64 + BIN);
	ck_assert_int_eq(dfz_host_finalize(h), 0);
	ck_assert_uint_eq(count_ret(DFZ_API_FREE), 4);
	ck_assert_uint_eq(live(), 16 + BIN);        /* child and image stay */
	ck_assert(dfz__dev_is_image(dev, kernel));
	ck_assert_int_eq(dfz_host_validate(h), DFZ_ENOENT);
	ck_assert_int_eq(launch(), DFZ_ENOENT);
	ck_assert_int_eq(dfz_host_finalize(h), DFZ_ENOENT);
	/* The handle was forgotten: a new init registers again. */
	ck_assert_int_eq(init(0), 0);
	ck_assert_int_eq(launch(), 0);
	ck_assert_uint_eq(count_ret(DFZ_API_REGISTER), 2);
	ck_assert_uint_eq(live(), 16 + 128 + 2 * BIN);
}
END_TEST

/* Every host call is ENTER ... RET with the driver calls nested inside,
 * none of them a host call; RET carries the code; steps are the clock. */
START_TEST(test_event_nesting)
{
	int depth = 0;
	unsigned host_calls = 0;
	int64_t open = -1;

	add_arg(16, DFZ_ROLE_OUT, true);
	three_args();
	nevents = 0;
	ck_assert_int_eq(init(1), 0);
	ck_assert_int_eq(launch(), 0);
	ck_assert_int_eq(launch(), 0);
	ck_assert_int_eq(dfz_host_validate(h), 0);
	ck_assert_int_eq(dfz_host_finalize(h), 0);
	ck_assert_int_eq(dfz_host_finalize(h), DFZ_ENOENT);
	ck_assert_uint_le(nevents, MAX_EVENTS);
	for (unsigned i = 0; i < nevents; i++) {
		const struct dfz_event *ev = &events[i];
		bool host = DFZ_API_IS_HOST(ev->aux);

		ck_assert_uint_eq(ev->step, dfz_rt_now(rt));
		if (ev->kind == DFZ_EV_API_ENTER) {
			ck_assert(host);
			ck_assert_int_eq(depth++, 0);
			host_calls++;
			open = ev->aux;
		} else if (ev->kind == DFZ_EV_API_RET && host) {
			ck_assert_int_eq(--depth, 0);
			ck_assert_int_eq(ev->aux, open);
			ck_assert_uint_eq(ev->dst.level, DFZ_NOWHERE_LEVEL);
		} else {
			ck_assert_int_eq(depth, 1);
		}
	}
	ck_assert_int_eq(depth, 0);
	ck_assert_uint_eq(host_calls, 6);
	ck_assert_int_eq(events[nevents - 1].id, DFZ_ENOENT);
	ck_assert_int_eq(events[nevents - 1].aux, DFZ_API_FINALIZE);
}
END_TEST

START_TEST(test_reset_idles)
{
	three_args();
	ck_assert_int_eq(init(1), 0);
	ck_assert_int_eq(launch(), 0);
	start(DFZ_CAP_DEV_BUDGET, 0);
	ck_assert_ptr_eq(dfz_host_get(rt), h);
	ck_assert_int_eq(dfz_host_validate(h), DFZ_ENOENT);
	ck_assert_int_eq(dfz_host_finalize(h), DFZ_ENOENT);
	three_args();
	ck_assert_int_eq(init(0), 0);
	ck_assert_uint_eq(live(), 128);
	ck_assert_int_eq(launch(), 0);
	ck_assert_uint_eq(count_ret(DFZ_API_REGISTER), 1);
}
END_TEST

/* ----------------------------------------------------------- bug switches */

/* A child OUT first, a host OUT of the same size after it: the graph
 * output (the child's result) lands in the host tensor. */
START_TEST(test_child_misalign)
{
	uint8_t probe[32];
	uint32_t child;

	start(DFZ_CAP_DEV_BUDGET, DFZ_BUG_BIT(CHILD_MISALIGN));
	child = add_arg(32, DFZ_ROLE_OUT, true);
	add_arg(32, DFZ_ROLE_OUT, false);
	add_arg(16, DFZ_ROLE_IN, false);
	run_through(1, 1);
	ref_launches(1, 1, true);
	ck_assert_mem_eq(host_mem[1], gref, 32);
	ck_assert(memcmp(host_mem[1], ref[1], 32) != 0);
	peek(args[child].data, probe, 32);
	ck_assert(memcmp(probe, gref, 32) != 0);
	ck_assert_uint_eq(count_ret(DFZ_API_COPY_DEV), 0);
}
END_TEST

/* Without children the buggy loop is the fixed one: same host bytes, same
 * codes, same calls. */
START_TEST(test_child_misalign_no_child)
{
	static uint8_t seen[2][4][TBYTES];
	unsigned calls[2];

	for (unsigned run = 0; run < 2; run++) {
		start(DFZ_CAP_DEV_BUDGET, run ? DFZ_BUG_BIT(CHILD_MISALIGN) : 0);
		add_arg(32, DFZ_ROLE_INOUT, false);
		add_arg(20, DFZ_ROLE_OUT, false);
		add_arg(12, DFZ_ROLE_IN, false);
		add_arg(20, DFZ_ROLE_OUT, false);
		run_through(1, 1);
		memcpy(seen[run], host_mem, sizeof(seen[run]));
		calls[run] = count_ret(DFZ_API_COPY_FROM);
	}
	ck_assert_mem_eq(seen[0], seen[1], sizeof(seen[0]));
	ck_assert_uint_eq(calls[0], calls[1]);
	ck_assert_uint_eq(calls[0], 4);
	ref_launches(1, 1, true);
	ck_assert_mem_eq(seen[1][1], gref, 20);
}
END_TEST

START_TEST(test_pair_overflow)
{
	const unsigned n = DFZ_HOST_MAX_PAIRS + 2;

	for (unsigned i = 0; i < n; i++)
		add_arg(16 + i, DFZ_ROLE_OUT, false);
	ck_assert_int_eq(init(0), DFZ_ERANGE);
	ck_assert_uint_eq(live(), 0);
	start(DFZ_CAP_DEV_BUDGET, DFZ_BUG_BIT(PAIR_OVERFLOW));
	for (unsigned i = 0; i < n; i++)
		add_arg(16 + i, DFZ_ROLE_OUT, false);
	run_through(0, 1);
	ck_assert_uint_eq(count_ret(DFZ_API_MALLOC), n);
	ck_assert_uint_eq(count_ret(DFZ_API_COPY_FROM), DFZ_HOST_MAX_PAIRS);
	ref_launches(1, 1, false);
	for (unsigned i = 0; i < n; i++) {
		bool paired = i < DFZ_HOST_MAX_PAIRS;

		ck_assert_int_eq(memcmp(host_mem[i], ref[i], bytes[i]) == 0,
				 paired);
	}
	ck_assert_int_eq(dfz_host_finalize(h), 0);
	ck_assert_uint_eq(live(), BIN + bytes[n - 2] + bytes[n - 1]);
}
END_TEST

START_TEST(test_register_leak)
{
	const uint32_t tensors = 32 + 32;
	unsigned l;

	start(tensors + 3 * BIN, DFZ_BUG_BIT(REGISTER_LEAK));
	add_arg(32, DFZ_ROLE_IN, false);
	add_arg(32, DFZ_ROLE_OUT, false);
	ck_assert_int_eq(init(0), 0);
	for (l = 1; l <= 3; l++) {
		ck_assert_int_eq(launch(), 0);
		ck_assert_uint_eq(live(), tensors + l * BIN);
	}
	ck_assert_int_eq(launch(), DFZ_ENOMEM);
	ck_assert_uint_eq(count_ret(DFZ_API_REGISTER), 4);
	ck_assert_int_eq(dfz_host_validate(h), 0);
	ref_launches(3, 3, false);
	ck_assert_mem_eq(host_mem[1], ref[1], 32);

	start(tensors + BIN, 0);
	add_arg(32, DFZ_ROLE_IN, false);
	add_arg(32, DFZ_ROLE_OUT, false);
	ck_assert_int_eq(init(0), 0);
	for (l = 1; l <= 10; l++)
		ck_assert_int_eq(launch(), 0);
	ck_assert_uint_eq(live(), tensors + BIN);
}
END_TEST

/* In a forked child (explicitly: the suite also runs with CK_FORK=no),
 * init with NULL @which (0: args, 1: roles); returns the wait status. */
static int init_in_child(int which)
{
	pid_t pid;
	int status = 0;

	fflush(NULL);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int rc;

		signal(SIGSEGV, SIG_DFL);   /* no sanitizer report: the signal */
		rc = dfz_host_init(h, which ? args : NULL, which ? NULL : roles,
				   nargs, 0);
		_exit(rc == DFZ_EINVAL ? 3 : 4);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return status;
}

START_TEST(test_null_arg_crashes)
{
	int status;

	three_args();
	status = init_in_child(_i);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 3);
	start(DFZ_CAP_DEV_BUDGET, DFZ_BUG_BIT(NULL_ARG));
	three_args();
	status = init_in_child(_i);
	ck_assert_msg(WIFSIGNALED(status), "status 0x%x", status);
	ck_assert_int_eq(WTERMSIG(status), SIGSEGV);
}
END_TEST

/* What null-arg does not change: a NULL context (no runtime to read the
 * switch from), nargs 0 (refused before the tables are read), and the
 * driver's own check of the binary on the registering launch. */
START_TEST(test_null_arg_rest)
{
	start(DFZ_CAP_DEV_BUDGET, DFZ_BUG_BIT(NULL_ARG));
	three_args();
	ck_assert_int_eq(dfz_host_init(NULL, args, roles, nargs, 0), DFZ_EINVAL);
	ck_assert_int_eq(dfz_host_init(h, NULL, NULL, 0, 0), DFZ_EINVAL);
	ck_assert_int_eq(dfz_host_launch(h, NULL, BIN), DFZ_ENOENT);
	ck_assert_int_eq(init(0), 0);
	ck_assert_int_eq(dfz_host_launch(h, NULL, BIN), DFZ_EINVAL);
	ck_assert_int_eq(events[nevents - 2].aux, DFZ_API_REGISTER);
	ck_assert_int_eq(launch(), 0);
	ck_assert_int_eq(dfz_host_launch(h, NULL, BIN), 0);
	ck_assert_uint_eq(count_ret(DFZ_API_LAUNCH), 2);
}
END_TEST

/* ----------------------------------------------------------------- names */

START_TEST(test_names_and_sizes)
{
	struct dfz_tensor_arg t = { .shapes = { 2, 3, 4 }, .ndims = 3,
				    .dtype = DFZ_DT_FP16 };

	ck_assert_str_eq(dfz_api_name(DFZ_API_COPY_FROM), "copy-from");
	ck_assert_str_eq(dfz_api_name(DFZ_API_FINALIZE), "finalize");
	ck_assert_ptr_null(dfz_api_name(DFZ_API_COUNT));
	ck_assert_str_eq(dfz_role_name(DFZ_ROLE_INOUT), "inout");
	ck_assert_ptr_null(dfz_role_name(DFZ_ROLE_COUNT));
	ck_assert_str_eq(dfz_dtype_name(DFZ_DT_FP64), "fp64");
	ck_assert_ptr_null(dfz_dtype_name(DFZ_DT_COUNT));
	ck_assert_uint_eq(dfz_dtype_size(DFZ_DT_INT8), 1);
	ck_assert_uint_eq(dfz_dtype_size(DFZ_DT_FP16), 2);
	ck_assert_uint_eq(dfz_dtype_size(DFZ_DT_FP32), 4);
	ck_assert_uint_eq(dfz_dtype_size(DFZ_DT_INT32), 4);
	ck_assert_uint_eq(dfz_dtype_size(DFZ_DT_FP64), 8);
	ck_assert_uint_eq(dfz_dtype_size(DFZ_DT_COUNT), 0);
	ck_assert_uint_eq(dfz_tensor_bytes(&t), 48);
	t.ndims = 2;
	ck_assert_uint_eq(dfz_tensor_bytes(&t), 12);
	t.ndims = 6;
	ck_assert_uint_eq(dfz_tensor_bytes(&t), 0);
	t.ndims = 0;
	ck_assert_uint_eq(dfz_tensor_bytes(&t), 0);
	t.ndims = 5;  /* shapes 3 and 4 are 0 */
	ck_assert_uint_eq(dfz_tensor_bytes(&t), 0);
	t.shapes[3] = t.shapes[4] = 1u << 16;
	ck_assert_uint_eq(dfz_tensor_bytes(&t), 48ull << 32);
	t.shapes[0] = UINT32_MAX;
	ck_assert_uint_eq(dfz_tensor_bytes(&t), UINT64_MAX);
	t.shapes[1] = 0;  /* a zero wins over an overflow */
	ck_assert_uint_eq(dfz_tensor_bytes(&t), 0);
	t.shapes[1] = 3;
	t.dtype = DFZ_DT_COUNT;
	ck_assert_uint_eq(dfz_tensor_bytes(&t), 0);
}
END_TEST

/* Each call's fault lands on the argument it names, once for every code
 * that makes the call (dfz_host_act_of()). */
START_TEST(test_host_acts)
{
	struct dfz_host_prog p = { .ntensors = 1, .bin_size = 48, .ncalls = 7,
				   .graph = 1 };
	struct dfz_host_act a;

	p.t[0].arg = (struct dfz_tensor_arg){ .ndims = 1, .shapes = { 4 },
					      .dtype = DFZ_DT_FP32 };
	p.call[0] = (struct dfz_host_call){ .op = DFZ_API_MALLOC, .size = 64,
					    .fault = DFZ_FAULT_HUGE, .slot = 9 };
	p.call[1] = (struct dfz_host_call){ .op = DFZ_API_COPY_TO, .size = 8,
					    .offset = 4,
					    .fault = DFZ_FAULT_NULL_PTR };
	p.call[2] = (struct dfz_host_call){ .op = DFZ_API_RUN, .repeat = 3,
					    .fault = DFZ_FAULT_ZERO };
	p.call[3] = (struct dfz_host_call){ .op = DFZ_API_INIT,
					    .fault = DFZ_FAULT_NDIMS };
	p.call[4] = (struct dfz_host_call){ .op = DFZ_API_INIT,
					    .fault = DFZ_FAULT_NULL_ROLES };
	p.call[5] = (struct dfz_host_call){ .op = DFZ_API_COPY_DEV };
	p.call[6] = (struct dfz_host_call){ .op = DFZ_API_FINALIZE,
					    .fault = DFZ_FAULT_NULL_CTX };
	dfz_host_act_of(&p, 0, &a);
	ck_assert_uint_eq(a.size, DFZ_HOST_HUGE_SIZE);
	ck_assert_uint_eq(a.slot, 9 % DFZ_HOST_SLOTS);
	ck_assert(!a.null_ptr && a.times == 1);
	dfz_host_act_of(&p, 1, &a);
	ck_assert(a.null_ptr && a.size == 8 && a.offset == 4);
	dfz_host_act_of(&p, 2, &a);
	ck_assert_uint_eq(a.times, 3);
	ck_assert_uint_eq(a.size, 0);
	dfz_host_act_of(&p, 3, &a);
	ck_assert_uint_eq(a.nargs, 1);
	ck_assert_uint_eq(a.args[0].ndims, 0);
	ck_assert(!a.null_roles && a.graph == 1);
	dfz_host_act_of(&p, 4, &a);
	ck_assert(a.null_roles && a.args[0].ndims == 1);
	dfz_host_act_of(&p, 5, &a);
	ck_assert_uint_eq(a.times, 0);
	ck_assert_int_eq(dfz_host_act_perform(rt, &a, NULL), 0);
	dfz_host_act_of(&p, 6, &a);
	ck_assert(a.null_ctx);
	ck_assert_int_eq(dfz_host_act_perform(rt, &a, NULL), DFZ_EINVAL);
}
END_TEST

Suite *suite_host(void)
{
	Suite *s = suite_create("host");
	TCase *tc = tcase_create("host");

	tcase_add_checked_fixture(tc, setup, rt_teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_init_null_and_busy);
	tcase_add_test(tc, test_init_nargs);
	tcase_add_loop_test(tc, test_init_arg_faults, 0, NARG_FAULTS);
	tcase_add_test(tc, test_init_arg_order);
	tcase_add_test(tc, test_init_pair_bound);
	tcase_add_test(tc, test_init_failure_frees);
	tcase_add_test(tc, test_init_stages);
	tcase_add_test(tc, test_launch_order);
	tcase_add_test(tc, test_launch_outputs);
	tcase_add_test(tc, test_launch_failures);
	tcase_add_test(tc, test_validate_order);
	tcase_add_test(tc, test_validate_graph_host);
	tcase_add_test(tc, test_validate_graph_child);
	tcase_add_test(tc, test_finalize);
	tcase_add_test(tc, test_event_nesting);
	tcase_add_test(tc, test_reset_idles);
	tcase_add_test(tc, test_child_misalign);
	tcase_add_test(tc, test_child_misalign_no_child);
	tcase_add_test(tc, test_pair_overflow);
	tcase_add_test(tc, test_register_leak);
	tcase_add_loop_test(tc, test_null_arg_crashes, 0, 2);
	tcase_add_test(tc, test_null_arg_rest);
	tcase_add_test(tc, test_names_and_sizes);
	tcase_add_test(tc, test_host_acts);
	suite_add_tcase(s, tc);
	return s;
}
