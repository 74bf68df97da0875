// SPDX-License-Identifier: MIT
/*
 * Unit tests of the host oracles: dev.leak and dev.misuse (oracles/dev.c)
 * on synthetic API events, for the ledger's corner cases: each kind of
 * misuse inside a host call, leaks at finalize, after a failed init and
 * per launch, the user's own misuse at the top level left alone, and
 * stable messages. rt.output and rt.errcode, and all three on the real
 * runtime, are in check_oracle_host_real.c.
 */
#include "oracle_host.h"

static void mem_ev(unsigned kind, uint32_t off, uint32_t n)
{
	struct dfz_event ev = { .kind = (uint8_t)kind,
				.dst = { DFZ_DEV_LEVEL, off, n } };

	dfz_rt_emit(rt, &ev);
}

/* A malloc (or register) of @n bytes at @off that succeeded. */
static void s_alloc(unsigned op, uint32_t off, uint32_t n)
{
	mem_ev(DFZ_EV_ALLOC, off, n);
	api(DFZ_EV_API_RET, op, 0, off, NOSPAN, n);
}

static void s_free(uint32_t off, int rc)
{
	if (rc == 0)
		mem_ev(DFZ_EV_FREE, off, 0);
	api(DFZ_EV_API_RET, DFZ_API_FREE, rc, off, NOSPAN, 0);
}

/* A user block at 0x40, then init: a 64-byte input at 0x100 and a 16-byte
 * graph buffer at 0x180. */
static void s_init(void)
{
	s_alloc(DFZ_API_MALLOC, 0x40, 32);
	enter(DFZ_API_INIT);
	s_alloc(DFZ_API_MALLOC, 0x100, 64);
	api(DFZ_EV_API_RET, DFZ_API_COPY_TO, 0, 0x100, NOSPAN, 64);
	s_alloc(DFZ_API_MALLOC, 0x180, 16);
	leave(DFZ_API_INIT, 0);
}

/* A launch, registering an image at @image first when @reg. */
static void s_launch(uint32_t image, bool reg)
{
	enter(DFZ_API_RUN);
	if (reg)
		s_alloc(DFZ_API_REGISTER, image, 32);
	api(DFZ_EV_API_RET, DFZ_API_LAUNCH, 0, image, NOSPAN, 0);
	leave(DFZ_API_RUN, 0);
}

static void s_finalize(void)
{
	enter(DFZ_API_FINALIZE);
	s_free(0x100, 0);
	s_free(0x180, 0);
	leave(DFZ_API_FINALIZE, 0);
}

/* ------------------------------------------------------------- dev */

START_TEST(test_dev_clean)
{
	start(M_HOST, 0, 0);
	s_init();
	s_launch(0x200, true);
	s_launch(0x200, false);
	enter(DFZ_API_VALIDATE);
	api(DFZ_EV_API_RET, DFZ_API_COPY_FROM, 0, NOSPAN, 0x100, 64);
	leave(DFZ_API_VALIDATE, 0);
	s_finalize();
	s_init();                      /* a second init registers again */
	s_launch(0x300, true);
	s_finalize();
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);
}
END_TEST

START_TEST(test_dev_double_free)
{
	start(M_DEV, 0, 0);
	s_init();
	enter(DFZ_API_FINALIZE);
	s_free(0x100, 0);
	s_free(0x100, DFZ_ENOENT);     /* rejected, still a misuse */
	ck_class(DFZ_CLASS_DEV_MISUSE);
	ck_msg_has("double free");
	ck_msg_has("dev+0x100");
	ck_assert_int_eq(set->finding.ev.off, 0x100);
}
END_TEST

START_TEST(test_dev_misuse_table)
{
	static const struct {
		unsigned op;
		uint32_t dst, src, size;
		const char *want;
	} t[] = {
		{ DFZ_API_COPY_TO, 0x100, NOSPAN, 80, "runs 16 bytes past" },
		{ DFZ_API_COPY_FROM, NOSPAN, 0x0f8, 16, "starts 8 bytes" },
		{ DFZ_API_COPY_DEV, 0x180, 0x100, 64, "runs 48 bytes past" },
		{ DFZ_API_COPY_TO, 0x800, NOSPAN, 4, "no block ever" },
		{ DFZ_API_COPY_TO, 0x200, NOSPAN, 4, "kernel image" },
		{ DFZ_API_FREE, 0x40, NOSPAN, 0, "the caller owns" },
		{ DFZ_API_FREE, 0x200, NOSPAN, 0, "no unregister" },
		{ DFZ_API_FREE, 0x108, NOSPAN, 0, "8 bytes into" },
		{ DFZ_API_FREE, 0x900, NOSPAN, 0, "never allocated" },
		{ DFZ_API_LAUNCH, 0x100, NOSPAN, 0, "not a live kernel" },
	};

	start(M_DEV, 0, 0);
	s_init();
	s_launch(0x200, true);
	enter(DFZ_API_VALIDATE);
	api(DFZ_EV_API_RET, t[_i].op, DFZ_EINVAL, t[_i].dst, t[_i].src,
	    t[_i].size);
	ck_class(DFZ_CLASS_DEV_MISUSE);
	ck_msg_has(t[_i].want);
	ck_msg_has("(in validate)");
}
END_TEST

START_TEST(test_dev_use_after_free)
{
	start(M_DEV, 0, 0);
	enter(DFZ_API_INIT);
	s_alloc(DFZ_API_MALLOC, 0x100, 64);
	s_free(0x100, 0);              /* its own block: fine */
	ck_class(DFZ_CLASS_NONE);
	api(DFZ_EV_API_RET, DFZ_API_COPY_TO, 0, 0x110, NOSPAN, 8);
	ck_class(DFZ_CLASS_DEV_MISUSE);
	ck_msg_has("after init freed it");
}
END_TEST

/* The user's own misuse at the top level is not the runtime's. */
START_TEST(test_dev_top_level_is_not_misuse)
{
	start(M_DEV, 0, 0);
	s_alloc(DFZ_API_MALLOC, 0x40, 32);
	api(DFZ_EV_API_RET, DFZ_API_COPY_TO, DFZ_EFAULT, 0x40, NOSPAN, 64);
	s_free(0x40, 0);
	s_free(0x40, DFZ_ENOENT);
	s_free(0x900, DFZ_ENOENT);
	api(DFZ_EV_API_RET, DFZ_API_COPY_FROM, DFZ_EFAULT, NOSPAN, 0x40, 8);
	s_init();
	s_free(0x100, 0);              /* the user takes init's buffer */
	enter(DFZ_API_FINALIZE);
	s_free(0x100, DFZ_ENOENT);     /* ... so this is not a double free */
	s_free(0x180, 0);
	leave(DFZ_API_FINALIZE, 0);
	dfz_oracles_end(set);
	ck_class(DFZ_CLASS_NONE);
}
END_TEST

START_TEST(test_dev_growth)
{
	start(M_DEV, 0, 0);
	s_init();
	s_launch(0x200, true);
	s_launch(0x300, true);         /* a second image: register-leak */
	ck_class(DFZ_CLASS_DEV_LEAK);
	ck_msg_has("grew by 32 bytes from launch 1 to launch 2");
	ck_msg_has("kernel image dev+0x300");
}
END_TEST

START_TEST(test_dev_leak_at_finalize)
{
	start(M_DEV, 0, 0);
	s_init();
	s_launch(0x200, true);
	enter(DFZ_API_FINALIZE);
	s_free(0x100, 0);
	leave(DFZ_API_FINALIZE, 0);
	ck_class(DFZ_CLASS_DEV_LEAK);
	ck_assert_str_eq(set->finding.msg,
			 "16 bytes at dev+0x180 allocated by init still live "
			 "after finalize (1 runtime block, 16 bytes in all; "
			 "expected the runtime to free them)");
}
END_TEST

START_TEST(test_dev_leak_failed_init)
{
	start(M_DEV, 0, 0);
	enter(DFZ_API_INIT);
	s_alloc(DFZ_API_MALLOC, 0x100, 64);
	api(DFZ_EV_API_RET, DFZ_API_MALLOC, DFZ_ENOMEM, NOSPAN, NOSPAN, 9999);
	leave(DFZ_API_INIT, DFZ_ENOMEM);
	ck_class(DFZ_CLASS_DEV_LEAK);
	ck_msg_has("after a failed init");
}
END_TEST

START_TEST(test_dev_deterministic)
{
	char first[DFZ_MSG_MAX];

	start(M_DEV, 0, 0);
	s_init();
	enter(DFZ_API_FINALIZE);
	s_free(0x100, 0);
	s_free(0x100, DFZ_ENOENT);
	ck_class(DFZ_CLASS_DEV_MISUSE);
	strcpy(first, set->finding.msg);
	start(M_DEV, 0, 0);
	enter(DFZ_API_VALIDATE);       /* nothing of the last run is left */
	s_free(0x100, DFZ_ENOENT);
	ck_msg_has("never allocated");
	start(M_DEV, 0, 0);
	s_init();
	enter(DFZ_API_FINALIZE);
	s_free(0x100, 0);
	s_free(0x100, DFZ_ENOENT);
	ck_assert_str_eq(set->finding.msg, first);
}
END_TEST

Suite *suite_oracle_host(void)
{
	Suite *s = suite_create("oracle_host");
	TCase *tc = tcase_create("synthetic");

	tcase_add_unchecked_fixture(tc, rt_setup, rt_teardown);
	tcase_add_test(tc, test_dev_clean);
	tcase_add_test(tc, test_dev_double_free);
	tcase_add_loop_test(tc, test_dev_misuse_table, 0, 10);
	tcase_add_test(tc, test_dev_use_after_free);
	tcase_add_test(tc, test_dev_top_level_is_not_misuse);
	tcase_add_test(tc, test_dev_growth);
	tcase_add_test(tc, test_dev_leak_at_finalize);
	tcase_add_test(tc, test_dev_leak_failed_init);
	tcase_add_test(tc, test_dev_deterministic);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, tcase_oracle_host_real());
	return s;
}
