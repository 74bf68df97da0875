// SPDX-License-Identifier: MIT
/*
 * The host oracles on the real driver and host runtime: a program using
 * every kind of tensor runs clean and computes what the kernel's text
 * says; each host bug switch is caught (register-leak: dev.leak and
 * rt.errcode; pair-overflow: dev.leak and rt.errcode; child-misalign:
 * rt.output); rt.output fires on a host or device byte changed behind the
 * runtime's back; rt.errcode predicts every code of long api programs and
 * fires on a code the contract does not allow; and random api programs
 * run clean under all three. A tcase of suite_oracle_host().
 */
#include "check_fast.h"
#include "oracle_host.h"

#ifndef RANDOM_PROGS
#define RANDOM_PROGS 1000u            /* random programs judged clean */
#endif

/* ---------------------------------------------- the real host runtime */

/* child IN, IN, OUT (first: the graph's), INOUT, child INOUT, child OUT */
static void mixed_prog(uint32_t launches)
{
	add_tensor(DFZ_DT_FP16, DFZ_ROLE_IN, true, 4, 5);
	add_tensor(DFZ_DT_INT8, DFZ_ROLE_IN, false, 3, 7);
	add_tensor(DFZ_DT_FP32, DFZ_ROLE_OUT, false, 2, 9);
	add_tensor(DFZ_DT_INT8, DFZ_ROLE_INOUT, false, 5, 5);
	add_tensor(DFZ_DT_INT32, DFZ_ROLE_INOUT, true, 3, 3);
	add_tensor(DFZ_DT_INT8, DFZ_ROLE_OUT, true, 6, 1);
	prog.graph = 1;
	add_op(DFZ_API_INIT);
	add_op(DFZ_API_RUN);
	prog.call[1].repeat = launches;
	add_op(DFZ_API_VALIDATE);
	add_op(DFZ_API_FINALIZE);
}

/* The kernel's OUT value of argument @j at byte @e, from the inputs. */
static uint8_t naive_v(unsigned j, uint32_t e, uint32_t launch)
{
	uint32_t s = 0, i;

	for (i = 0; i < prog.ntensors; i++)
		if (prog.t[i].role == DFZ_ROLE_IN)
			s += (uint8_t)(i * 31 + (e % prog.t[i].bytes) * 7 + 1);
	return (uint8_t)(s + 13 * launch + 7 * j + e);
}

START_TEST(test_host_real_clean)
{
	uint32_t e;

	start(M_HOST, 1u << 20, 0);
	mixed_prog(3);
	stage();
	perform();
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);
	for (e = 0; e < prog.t[2].bytes; e++)   /* the graph, launch 3 */
		ck_assert_uint_eq(host[2][e], naive_v(2, e, 3));
}
END_TEST

/* Every switch restores a faulty path that some host oracle must catch. */
START_TEST(test_host_real_switches)
{
	static const struct {
		uint32_t mask, bug;
		unsigned cls;
		const char *want;
	} t[] = {
		{ M_DEV, DFZ_BUG_BIT(REGISTER_LEAK), DFZ_CLASS_DEV_LEAK,
		  "from launch 1 to launch 2" },
		{ M_ERR, DFZ_BUG_BIT(REGISTER_LEAK), DFZ_CLASS_RT_ERRCODE,
		  "expected 0 (ok)" },
		{ M_DEV, DFZ_BUG_BIT(PAIR_OVERFLOW), DFZ_CLASS_DEV_LEAK,
		  "still live after finalize" },
		{ M_ERR, DFZ_BUG_BIT(PAIR_OVERFLOW), DFZ_CLASS_RT_ERRCODE,
		  "call 0 (init): returned 0 (ok), expected -3" },
		{ M_OUT, DFZ_BUG_BIT(CHILD_MISALIGN), DFZ_CLASS_RT_OUTPUT,
		  "after validate (call 2)" },
	};
	unsigned i;

	start(t[_i].mask, 4096, t[_i].bug);
	prog.bin_size = 1000;          /* four images fit, not five */
	if (t[_i].bug == DFZ_BUG_BIT(PAIR_OVERFLOW))
		for (i = 0; i < 9; i++)
			add_tensor(DFZ_DT_INT8, i == 8 ? DFZ_ROLE_OUT :
				   DFZ_ROLE_IN, false, 2, 2);
	else
		mixed_prog(8);
	if (t[_i].bug == DFZ_BUG_BIT(PAIR_OVERFLOW)) {
		add_op(DFZ_API_INIT);
		add_op(DFZ_API_RUN);
		add_op(DFZ_API_FINALIZE);
	}
	stage();
	perform();
	dfz_oracles_end(set);
	ck_class(t[_i].cls);
	ck_msg_has(t[_i].want);
}
END_TEST

/* ------------------------------------------------------------- output */

START_TEST(test_output_sabotage)
{
	static const struct {
		unsigned arg;
		uint32_t byte;
		const char *want;
	} t[] = {
		{ 2, 3, "arg 2 (out, fp32[2x9]) host buffer byte 3 at the "
			"end of the run" },
		{ 1, 20, "arg 1 (in, int8[3x7]) host buffer byte 20" },
		{ 3, 0, "copied back by call 2" },
		{ 4, 35, "arg 4 (inout, int32[3x3]) device buffer dev+0x" },
		{ 0, 0, "its input, which must stay untouched" },
		{ 5, 5, "arg 5 (out, int8[6x1]) device buffer" },
	};
	struct dfz_host_tensor *t0;
	char first[DFZ_MSG_MAX];
	unsigned run;

	for (run = 0; run < 2; run++) {
		start(M_HOST, 1u << 20, 0);
		mixed_prog(2);
		stage();
		perform();
		ck_class(DFZ_CLASS_NONE);
		t0 = &prog.t[t[_i].arg];
		if (t0->arg.child_memory)   /* behind the driver's back */
			rt->arena[DFZ_DEV_LEVEL].base[t0->arg.data -
				DFZ_DEV_BASE + t[_i].byte] ^= 0x10;
		else
			host[t[_i].arg][t[_i].byte] ^= 0x10;
		dfz_oracles_end(set);
		ck_class(DFZ_CLASS_RT_OUTPUT);
		ck_msg_has(t[_i].want);
		if (run == 0)
			strcpy(first, set->finding.msg);
	}
	ck_assert_str_eq(set->finding.msg, first);
}
END_TEST

/* A graph output to a child first OUT; validate twice, finalize, again. */
START_TEST(test_output_graph_child_clean)
{
	start(M_HOST, 1u << 20, 0);
	add_tensor(DFZ_DT_INT8, DFZ_ROLE_OUT, true, 4, 4);
	add_tensor(DFZ_DT_FP16, DFZ_ROLE_IN, false, 3, 3);
	add_tensor(DFZ_DT_INT8, DFZ_ROLE_OUT, false, 2, 8);
	prog.graph = 1;
	add_op(DFZ_API_INIT);
	add_op(DFZ_API_RUN);
	add_op(DFZ_API_VALIDATE);
	add_op(DFZ_API_RUN);
	add_op(DFZ_API_VALIDATE);
	add_op(DFZ_API_FINALIZE);
	add_op(DFZ_API_INIT);
	add_op(DFZ_API_RUN);
	add_op(DFZ_API_VALIDATE);
	stage();
	perform();
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);
}
END_TEST

/* A stale slot address lands in init's input buffer: the model gives up on
 * what it cannot follow instead of flagging the runtime. */
START_TEST(test_output_stale_slot_alias)
{
	start(M_HOST, 1u << 20, 0);
	add_tensor(DFZ_DT_INT8, DFZ_ROLE_IN, false, 8, 8);
	add_tensor(DFZ_DT_INT8, DFZ_ROLE_OUT, false, 8, 8);
	add_call(DFZ_API_MALLOC, 0, 0, 64, 0);
	add_call(DFZ_API_FREE, 0, 0, 0, 0);
	add_op(DFZ_API_INIT);                  /* reuses slot 0's block */
	add_call(DFZ_API_COPY_TO, 0, 0, 16, 8);
	add_op(DFZ_API_RUN);
	add_op(DFZ_API_VALIDATE);
	add_call(DFZ_API_FREE, 0, 0, 0, 0);    /* frees init's buffer */
	add_op(DFZ_API_RUN);
	add_op(DFZ_API_VALIDATE);
	add_op(DFZ_API_FINALIZE);
	stage();
	perform();
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);
	ck_assert_int_eq(rcs[3], 0);           /* the copy hit init's buffer */
	ck_assert_int_eq(rcs[6], 0);
	ck_assert_int_eq(rcs[7], DFZ_EFAULT);  /* the launch saw it gone */
}
END_TEST

/* ------------------------------------------------------------ errcode */

/* An api program through most codes of the contract, all oracles clean,
 * every code as the contract says. */
START_TEST(test_errcode_program_clean)
{
	static const int want[] = {
		0, DFZ_EINVAL, DFZ_EINVAL, DFZ_ENOMEM, DFZ_ENOMEM, 0, 0,
		DFZ_EFAULT, DFZ_EFAULT, 0, DFZ_ENOENT, DFZ_EINVAL, DFZ_EFAULT,
		DFZ_ENOENT, DFZ_ENOENT, DFZ_EINVAL, DFZ_EINVAL, DFZ_EINVAL,
		DFZ_EINVAL, DFZ_ERANGE, DFZ_EINVAL, DFZ_EINVAL, DFZ_EINVAL, 0,
		DFZ_EBUSY, DFZ_ENOENT, DFZ_EINVAL, DFZ_EINVAL, 0, 0, 0, 0, 0,
		0, DFZ_ENOENT, DFZ_ENOENT, DFZ_ENOENT,
	};
	unsigned k;

	start(M_HOST, 8192, 0);
	add_tensor(DFZ_DT_INT8, DFZ_ROLE_IN, true, 4, 4);
	add_tensor(DFZ_DT_FP16, DFZ_ROLE_INOUT, false, 8, 8);
	add_tensor(DFZ_DT_INT8, DFZ_ROLE_OUT, false, 4, 8);
	prog.graph = 1;
	add_call(DFZ_API_MALLOC, 0, 0, 100, 0);
	add_call(DFZ_API_MALLOC, DFZ_FAULT_ZERO, 1, 100, 0);
	add_call(DFZ_API_MALLOC, DFZ_FAULT_NULL_PTR, 1, 100, 0);
	add_call(DFZ_API_MALLOC, DFZ_FAULT_HUGE, 1, 100, 0);
	add_call(DFZ_API_MALLOC, 0, 1, 8192 - 16 - 100 + 1, 0);
	add_call(DFZ_API_COPY_TO, 0, 0, 100, 0);
	add_call(DFZ_API_COPY_FROM, 0, 0, 1, 99);
	add_call(DFZ_API_COPY_FROM, 0, 0, 2, 99);      /* one past */
	add_call(DFZ_API_COPY_TO, DFZ_FAULT_HUGE, 0, 1, 0);
	add_call(DFZ_API_FREE, 0, 0, 0, 0);
	add_call(DFZ_API_FREE, 0, 0, 0, 0);
	add_call(DFZ_API_FREE, 0, 5, 0, 0);            /* never allocated */
	add_call(DFZ_API_COPY_TO, 0, 0, 4, 0);         /* freed */
	add_op(DFZ_API_VALIDATE);
	add_op(DFZ_API_RUN);
	add_call(DFZ_API_INIT, DFZ_FAULT_NULL_PTR, 0, 0, 0);
	add_call(DFZ_API_INIT, DFZ_FAULT_NULL_ROLES, 0, 0, 0);
	add_call(DFZ_API_INIT, DFZ_FAULT_DATA0, 0, 0, 0);
	add_call(DFZ_API_INIT, DFZ_FAULT_SHAPE0, 0, 0, 0);
	add_call(DFZ_API_INIT, DFZ_FAULT_HUGE, 0, 0, 0);
	add_call(DFZ_API_INIT, DFZ_FAULT_ROLE, 0, 0, 0);
	add_call(DFZ_API_INIT, DFZ_FAULT_NARGS, 0, 0, 0);
	add_call(DFZ_API_INIT, DFZ_FAULT_NULL_CTX, 0, 0, 0);  /* no event */
	add_op(DFZ_API_INIT);
	add_op(DFZ_API_INIT);
	add_op(DFZ_API_VALIDATE);
	add_call(DFZ_API_RUN, DFZ_FAULT_ZERO, 0, 0, 0);
	add_call(DFZ_API_RUN, DFZ_FAULT_NULL_PTR, 0, 0, 0);
	add_op(DFZ_API_RUN);
	prog.call[prog.ncalls - 1].repeat = 3;
	add_op(DFZ_API_VALIDATE);
	add_op(DFZ_API_VALIDATE);
	add_op(DFZ_API_FINALIZE);
	add_op(DFZ_API_FINALIZE);
	add_op(DFZ_API_RUN);
	add_op(DFZ_API_VALIDATE);
	for (k = 0; k < prog.ncalls; k++)
		prog.call[k].arg = 1;
	prog.call[21].arg = 0;         /* NARGS with an even arg: 0 args */
	stage();
	perform();
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);
	ck_assert_uint_eq(nrcs, sizeof(want) / sizeof(want[0]));
	for (k = 0; k < nrcs; k++)
		ck_assert_msg(rcs[k] == want[k], "call result %u: %d, want %d",
			      k, rcs[k], want[k]);
}
END_TEST

/* Budget pressure: init fails half-way and gives back what it took; an
 * image outlives finalize. */
START_TEST(test_errcode_budget_clean)
{
	static const int want[] = {
		0, DFZ_ENOMEM, 0, 0, DFZ_ENOMEM, DFZ_ENOENT, 0, 0, 0, 0,
		DFZ_ENOMEM, 0, DFZ_ENOMEM,
	};
	unsigned k;

	start(M_HOST, 4096, 0);
	add_tensor(DFZ_DT_FP32, DFZ_ROLE_IN, false, 16, 16);  /* 1024 */
	add_tensor(DFZ_DT_FP32, DFZ_ROLE_OUT, false, 16, 16); /* 1024 */
	prog.bin_size = 1024;
	add_call(DFZ_API_MALLOC, 0, 0, 2049, 0);
	add_op(DFZ_API_INIT);          /* the OUT buffer does not fit */
	add_call(DFZ_API_MALLOC, 0, 1, 1024, 0);  /* init gave it back */
	add_call(DFZ_API_FREE, 0, 1, 0, 0);
	add_call(DFZ_API_MALLOC, 0, 2, 2048, 0);
	add_op(DFZ_API_RUN);           /* not initialised */
	add_call(DFZ_API_FREE, 0, 0, 0, 0);
	add_op(DFZ_API_INIT);
	add_op(DFZ_API_RUN);           /* registers 1024 bytes */
	add_op(DFZ_API_FINALIZE);
	add_call(DFZ_API_MALLOC, 0, 3, 3073, 0);  /* the image stays */
	add_call(DFZ_API_MALLOC, 0, 3, 3072, 0);
	add_op(DFZ_API_INIT);
	stage();
	perform();
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);
	ck_assert_uint_eq(nrcs, sizeof(want) / sizeof(want[0]));
	for (k = 0; k < nrcs; k++)
		ck_assert_msg(rcs[k] == want[k], "call %u: %d, want %d", k,
			      rcs[k], want[k]);
}
END_TEST

/* A return code the model does not predict, for each kind of call. */
START_TEST(test_errcode_sabotage)
{
	static const struct {
		unsigned op;
		int rc;
		const char *want;
	} t[] = {
		{ DFZ_API_FREE, 0, "call 2 (free slot 0): returned 0 (ok), "
			"expected -7 (no such object): slot 0 (dev+0x" },
		{ DFZ_API_RUN, DFZ_EFAULT, "call 4 (run, launch 1 of 1): "
			"returned -6 (address outside the memory model), "
			"expected 0 (ok)" },
		{ DFZ_API_VALIDATE, 0, "call 4 (validate): returned 0 (ok), "
			"expected -7 (no such object): no launch succeeded "
			"since init (call 3)" },
	};

	start(M_ERR, 1u << 20, 0);
	add_tensor(DFZ_DT_INT8, DFZ_ROLE_INOUT, false, 4, 4);
	add_call(DFZ_API_MALLOC, 0, 0, 64, 0);
	add_call(DFZ_API_FREE, 0, 0, 0, 0);
	add_call(DFZ_API_FREE, 0, 0, 0, 0);
	add_op(DFZ_API_INIT);
	add_op(t[_i].op == DFZ_API_FREE ? DFZ_API_RUN : t[_i].op);
	stage();
	if (t[_i].op == DFZ_API_FREE) {
		perform_range(0, 2);
		api(DFZ_EV_API_RET, DFZ_API_FREE, t[_i].rc, NOSPAN, NOSPAN, 0);
	} else {
		perform_range(0, 4);
		ck_class(DFZ_CLASS_NONE);
		enter(t[_i].op);
		leave(t[_i].op, t[_i].rc);
	}
	ck_class(DFZ_CLASS_RT_ERRCODE);
	ck_msg_has(t[_i].want);
}
END_TEST

/* ------------------------------------------------- random programs */

static uint32_t rng;

static uint32_t draw(uint32_t n)
{
	rng = rng * 1103515245u + 12345u;
	return (rng >> 8) % n;
}

/* A random api program: tensors, budget, and calls valid and not. */
static void random_prog(void)
{
	static const uint32_t sizes[] = { 1, 7, 8, 16, 63, 64, 100, 255 };
	uint32_t i, nt = 1 + draw(draw(4) ? 5 : 10), kids = 0;
	struct dfz_host_call *c;

	for (i = 0; i < nt; i++) {
		add_tensor(draw(DFZ_DT_COUNT), draw(DFZ_ROLE_COUNT),
			   draw(4) == 0, 1 + draw(8), 1 + draw(6));
		if (prog.t[i].arg.child_memory)
			kids += prog.t[i].bytes;
	}
	prog.graph = (uint8_t)draw(2);
	prog.dev_budget = kids + 64 + draw(draw(2) ? 1500 : 6000);
	prog.bin_size = 1 + draw(draw(2) ? 64 : 1200);
	while (prog.ncalls < 40) {
		c = &prog.call[prog.ncalls++];
		c->op = (uint8_t)(draw(3) ? DFZ_API_INIT + draw(4) :
					    DFZ_API_MALLOC + draw(4));
		c->fault = (uint8_t)(draw(4) ? 0 : 1 + draw(DFZ_FAULT_COUNT - 1));
		c->arg = (uint8_t)draw(DFZ_HOST_MAX_ARGS);
		c->slot = (uint8_t)draw(draw(3) ? 3 : DFZ_HOST_SLOTS);
		c->size = draw(2) ? sizes[draw(8)] : 1 + draw(prog.dev_budget);
		c->offset = draw(2) ? 0 : draw(300);
		c->repeat = draw(5);          /* 0: a RUN of no launch */
	}
}

/* The fixed runtime is clean under every host oracle on any program (in
 * one process: a fork per program costs more than the program). */
/* A NULL-context call publishes no event: rt.errcode judges the code
 * the caller reports, EINVAL expected. Sabotage: report success. */
START_TEST(test_errcode_null_ctx_returned)
{
	start(M_ERR, 4096, 0);
	prog.ntensors = 0;
	prog.ncalls = 2;
	prog.call[0] = (struct dfz_host_call){ .op = DFZ_API_FINALIZE,
					       .fault = DFZ_FAULT_NULL_CTX };
	prog.call[1] = (struct dfz_host_call){ .op = DFZ_API_MALLOC,
					       .fault = DFZ_FAULT_NULL_CTX,
					       .size = 64 };
	dfz_oracles_begin_host(set, &prog);
	dfz_oracles_returned(set, 0, 0, DFZ_EINVAL);
	ck_class(DFZ_CLASS_NONE);
	dfz_oracles_returned(set, 1, 0, 0);
	ck_class(DFZ_CLASS_RT_ERRCODE);
	ck_msg_has("call 1 (malloc");
	ck_msg_has("a NULL context is refused");
}
END_TEST

START_TEST(test_host_random_clean)
{
	unsigned n;

	for (n = 0; n < RANDOM_PROGS; n++) {
		rng = 0x9e3779b9u * (n + 1);
		start(M_HOST, 0, 0);
		random_prog();
		configure(M_HOST, prog.dev_budget, 0);  /* the device's */
		stage();
		perform();
		dfz_oracles_end(set);
		CK_CHECK_MSG(verdict() == DFZ_CLASS_NONE, "program %u: %s: %s",
			     n, dfz_class_name(verdict()),
			     verdict() ? set->finding.msg : "");
	}
}
END_TEST

TCase *tcase_oracle_host_real(void)
{
	TCase *tc = tcase_create("real");

	tcase_add_unchecked_fixture(tc, rt_setup, rt_teardown);
	tcase_add_test(tc, test_host_real_clean);
	tcase_add_loop_test(tc, test_host_real_switches, 0, 5);
	tcase_add_loop_test(tc, test_output_sabotage, 0, 6);
	tcase_add_test(tc, test_output_graph_child_clean);
	tcase_add_test(tc, test_output_stale_slot_alias);
	tcase_add_test(tc, test_errcode_program_clean);
	tcase_add_test(tc, test_errcode_budget_clean);
	tcase_add_loop_test(tc, test_errcode_sabotage, 0, 3);
	tcase_add_test(tc, test_errcode_null_ctx_returned);
	tcase_add_test(tc, test_host_random_clean);
	return tc;
}
