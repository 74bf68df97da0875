// SPDX-License-Identifier: MIT
/*
 * The MCHAN register window (dropin/mmio.c, dropin/x86_decode.c): code in
 * the register-level shape (alloc by a read of the command register,
 * 1-D and 2-D pushes by writes, a busy loop on the status register, a
 * free by a write of it) runs on the mchan engine; a missing wait and a
 * wait for an event that never comes are findings; the decoder takes the
 * mov forms gcc and clang emit at -O0 and -O2 and refuses the rest.
 */
#include <check.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MCHAN_VERSION 7
#include "dropin_fixture.h"
#include "crash.h"
#include "mmio.h"
#include "x86_decode.h"
#include "dmafuzz/dropin/pmsis.h"
#include "dmafuzz/dropin/mchan.h"

/* Under ASan (make SAN=asan), ASan holds SIGSEGV below the window: its
 * report ends the process with exit status 1 instead of the signal. */
#if defined(__SANITIZE_ADDRESS__)
#define MMIO_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MMIO_ASAN 1
#endif
#endif
#ifdef MMIO_ASAN
static const bool asan_signals = true;
#else
static const bool asan_signals = false;
#endif

#define CMD_REG ((uintptr_t)ARCHI_MCHAN_DEMUX_ADDR)
#define STATUS_REG (CMD_REG + 4)
#define RD(a) (*(volatile uint32_t *)(a))
#define WR(a, v) (*(volatile uint32_t *)(a) = (uint32_t)(v))
#define N 64
#define IN ((uint32_t)(MCHAN_CMD_FLAG_DIRECTION_EXT2LOC |                   \
		       MCHAN_CMD_FLAG_INCREMENTAL))

static int want_line;

/* Whether the window is there to test. It always is, except under
 * `make memcheck` (DFZ_MEMCHECK set): valgrind loads this PIE test
 * binary at 0x108000, over the window's page (a user's program links
 * -no-pie and starts at 0x400000; its examples run under valgrind). */
static bool window(void)
{
	dfz__dropin_get();
	if (!dfz__mmio_mapped() && getenv("DFZ_MEMCHECK"))
		return false;
	ck_assert(dfz__mmio_mapped());
	return true;
}

/* The accessors at -O0 (the suite itself builds at -O2: the others). */
#if defined(__clang__)
#define AT_O0 __attribute__((noinline, optnone))
#else
#define AT_O0 __attribute__((noinline, optimize("O0")))
#endif
AT_O0 static uint32_t rd_o0(uintptr_t a) { return RD(a); }
AT_O0 static void wr_o0(uintptr_t a, uint32_t v) { WR(a, v); }
__attribute__((noinline)) static uint32_t rd_o2(uintptr_t a) { return RD(a); }
__attribute__((noinline)) static void wr_o2(uintptr_t a, uint32_t v) { WR(a, v); }

/* Alloc, a 1-D push at -O0, a 2-D push at -O2 (rows of 16 of a 32-byte
 * L2 matrix), a busy loop, the free: clean, bytes in place. */
static void body_clean(void *arg)
{
	uint8_t *l2 = pi_l2_malloc(4 * N), *l1 = pmsis_l1_malloc(2 * N);
	uint32_t tid = rd_o0(CMD_REG), spins = 0;

	(void)arg;
	fill(l2, 4 * N);
	ck_assert_uint_lt(tid, 16);
	wr_o0(CMD_REG, IN | N);
	wr_o0(CMD_REG, (uint32_t)(uintptr_t)l1);
	wr_o0(CMD_REG, (uint32_t)(uintptr_t)l2);
	wr_o2(CMD_REG, IN | MCHAN_CMD_FLAG_2D_TRANSFER_EXTERNAL | N);
	wr_o2(CMD_REG, (uint32_t)(uintptr_t)(l1 + N));
	wr_o2(CMD_REG, (uint32_t)(uintptr_t)(l2 + N));
	WR(CMD_REG, 16);
	WR(CMD_REG, 32);
	while (rd_o2(STATUS_REG) & (1u << tid))
		spins++;
	ck_assert_uint_lt(spins, 100);
	WR(STATUS_REG, 1u << tid);
	ck_assert_uint_eq(rd_o0(STATUS_REG), 0);
	ck_assert(same_bytes(l1, l2, N));
	for (unsigned r = 0; r < 4; r++)
		ck_assert(same_bytes(l1 + N + r * 16, l2 + N + r * 32, 16));
}

START_TEST(test_register_protocol)
{
	if (!window())
		return;
	ck_assert_int_eq(run_with(body_clean, "").finding.cls, DFZ_CLASS_NONE);
}
END_TEST

/* The event-driven wait of DORY's GAP9 library: clean. */
static void body_event(void *arg)
{
	uint8_t *l2 = pi_l2_malloc(N), *l1 = pmsis_l1_malloc(N);
	uint32_t tid = RD(CMD_REG);

	(void)arg;
	fill(l2, N);
	WR(CMD_REG, IN | MCHAN_CMD_FLAG_EVENT_ENABLE | N);
	WR(CMD_REG, (uint32_t)(uintptr_t)l1);
	WR(CMD_REG, (uint32_t)(uintptr_t)l2);
	while (RD(STATUS_REG) & (1u << tid))
		eu_evt_maskWaitAndClr(1u << CL_IRQ_DMA0);
	WR(STATUS_REG, 1u << tid);
	ck_assert(same_bytes(l1, l2, N));
}

START_TEST(test_event_wait)
{
	if (!window())
		return;
	ck_assert_int_eq(run_with(body_event, "").finding.cls, DFZ_CLASS_NONE);
}
END_TEST

/* The wait removed: the free of a busy counter is a finding at the line
 * of the register write (sabotage of the protocol's wait). */
static void body_no_wait(void *arg)
{
	uint8_t *l2 = pi_l2_malloc(N), *l1 = pmsis_l1_malloc(N);
	uint32_t tid = RD(CMD_REG);

	(void)arg;
	fill(l2, N);
	WR(CMD_REG, IN | N);
	WR(CMD_REG, (uint32_t)(uintptr_t)l1);
	WR(CMD_REG, (uint32_t)(uintptr_t)l2);
	want_line = __LINE__ + 1;
	WR(STATUS_REG, 1u << tid);
	ck_assert_uint_ne(l1[0], 0xFF);   /* keeps l1 live */
}

START_TEST(test_missing_wait)
{
	struct dfz__result r;

	if (!window())
		return;
	r = run_with(body_no_wait, "");
	ck_assert_int_ne(r.finding.cls, DFZ_CLASS_NONE);
	ck_assert_ptr_nonnull(r.site.file);
	ck_assert_ptr_nonnull(strstr(r.site.file, "check_dropin_mmio.c"));
	ck_assert_int_eq(r.site.line, want_line);
}
END_TEST

/* A wait for the DMA event with nothing in flight: it never comes. */
static void body_evt_hang(void *arg)
{
	(void)arg;
	want_line = __LINE__ + 1;
	eu_evt_maskWaitAndClr(1u << CL_IRQ_DMA0);
}

START_TEST(test_event_never_comes)
{
	struct dfz__result r = run_with(body_evt_hang, "");

	ck_assert_str_eq(dfz_class_name(r.finding.cls), "dma.hang");
	ck_assert_int_eq(r.site.line, want_line);
}
END_TEST

/* A command short of its 2-D words when the code reads the status (the
 * v6 layout's flags read as v7's): cmd.encoding. */
static void body_short(void *arg)
{
	uint8_t *l2 = pi_l2_malloc(N), *l1 = pmsis_l1_malloc(N);
	uint32_t tid = RD(CMD_REG);

	(void)arg;
	WR(CMD_REG, IN | MCHAN_CMD_FLAG_2D_TRANSFER_EXTERNAL | N);
	WR(CMD_REG, (uint32_t)(uintptr_t)l1);
	WR(CMD_REG, (uint32_t)(uintptr_t)l2);
	want_line = __LINE__ + 1;
	(void)RD(STATUS_REG);
	WR(STATUS_REG, 1u << tid);
}

START_TEST(test_short_command)
{
	struct dfz__result r;

	if (!window())
		return;
	r = run_with(body_short, "");
	ck_assert_str_eq(dfz_class_name(r.finding.cls), "cmd.encoding");
	ck_assert_int_eq(r.site.line, want_line);
}
END_TEST

/* A wild pointer in a body, outside the window. */
static void body_wild(void *arg)
{
	volatile uintptr_t wild = 0x10;

	(void)arg;
	want_line = __LINE__ + 1;
	(void)RD(wild);
}

/* Under the crash guard (dfz_dropin_main's runs): the guard asks the
 * window first, so register accesses still run on the model, and a
 * fault elsewhere is still the guard's crash at its line. */
START_TEST(test_under_crash_guard)
{
	struct dfz__result r;

	if (!window())
		return;
	ck_assert_int_eq(dfz__crash_install(0), 0);
	r = run_with(body_clean, "");
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
	if (asan_signals) { /* the wild access would be ASan's report */
		dfz__crash_uninstall();
		return;
	}
	r = run_with(body_wild, "");
	dfz__crash_uninstall();
	ck_assert_str_eq(dfz_class_name(r.finding.cls), "crash");
	ck_assert_int_eq(r.site.line, want_line);
}
END_TEST

/* ------------------------------------------------------------ decoder */

struct form {
	const char *what;
	uint8_t code[16];
	unsigned n;
	int store, has_imm;
	unsigned reg, len;
	uint64_t addr;     /* with the registers of decode_one() */
	uint32_t imm;
};

#define RIP 0x401000u

/* rax 0x201800, rcx 3, rdx 0x201700, rbp 0x201808, r12 1, r13 0x2017f8 */
static int decode_one(const struct form *f, struct dfz__x86_access *a)
{
	uint64_t regs[16] = { 0 };

	regs[0] = 0x201800;
	regs[1] = 3;
	regs[2] = 0x201700;
	regs[5] = 0x201808;
	regs[12] = 1;
	regs[13] = 0x2017f8;
	return dfz__x86_decode(f->code, f->n, RIP, regs, a);
}

static const struct form forms[] = {
	{ "mov 0x201800,%eax (gcc/clang -O2, absolute)",
	  { 0x8B, 0x04, 0x25, 0x00, 0x18, 0x20, 0x00 }, 7, 0, 0, 0, 7,
	  0x201800, 0 },
	{ "mov %ecx,0x201804", { 0x89, 0x0C, 0x25, 0x04, 0x18, 0x20, 0x00 },
	  7, 1, 0, 1, 7, 0x201804, 0 },
	{ "mov %edx,(%rax) (-O0)", { 0x89, 0x10 }, 2, 1, 0, 2, 2, 0x201800, 0 },
	{ "mov (%rax),%eax (-O0)", { 0x8B, 0x00 }, 2, 0, 0, 0, 2, 0x201800, 0 },
	{ "mov %r8d,(%rax)", { 0x44, 0x89, 0x00 }, 3, 1, 0, 8, 3, 0x201800, 0 },
	{ "mov 0x8(%r13),%eax", { 0x41, 0x8B, 0x45, 0x08 }, 4, 0, 0, 0, 4,
	  0x201800, 0 },
	{ "mov -0x8(%rbp),%eax (rbp, not rip)", { 0x8B, 0x45, 0xF8 }, 3, 0,
	  0, 0, 3, 0x201800, 0 },
	{ "mov 0x100(%rdx,%rcx,4),%esi (SIB, disp32)",
	  { 0x8B, 0xB4, 0x8A, 0xF4, 0x00, 0x00, 0x00 }, 7, 0, 0, 6, 7,
	  0x201800, 0 },
	{ "mov %eax,0x2017fc(,%r12,4) (REX.X, no base)",
	  { 0x42, 0x89, 0x04, 0xA5, 0xFC, 0x17, 0x20, 0x00 }, 8, 1, 0, 0, 8,
	  0x201800, 0 },
	{ "movl $0x12345678,(%rax)",
	  { 0xC7, 0x00, 0x78, 0x56, 0x34, 0x12 }, 6, 1, 1, 0, 6, 0x201800,
	  0x12345678 },
	{ "movl $0x4,0x201804 (absolute)",
	  { 0xC7, 0x04, 0x25, 0x04, 0x18, 0x20, 0x00, 4, 0, 0, 0 }, 11, 1, 1,
	  0, 11, 0x201804, 4 },
	{ "movl $1,0x10(%rip) (rip-relative: after the immediate)",
	  { 0xC7, 0x05, 0x10, 0x00, 0x00, 0x00, 1, 0, 0, 0 }, 10, 1, 1, 0,
	  10, RIP + 10 + 0x10, 1 },
	{ "mov 0x20(%rip),%r9d", { 0x44, 0x8B, 0x0D, 0x20, 0, 0, 0 }, 7, 0,
	  0, 9, 7, RIP + 7 + 0x20, 0 },
};

START_TEST(test_decode_forms)
{
	const struct form *f = &forms[_i];
	struct dfz__x86_access a;

	ck_assert_msg(decode_one(f, &a) == 0, "%s: refused", f->what);
	ck_assert_msg(a.len == f->len && a.store == f->store &&
		      a.has_imm == f->has_imm && a.reg == f->reg &&
		      a.addr == f->addr && (!f->has_imm || a.imm == f->imm),
		      "%s: len %u store %d imm %d reg %u addr %#lx", f->what,
		      a.len, a.store, a.has_imm, a.reg,
		      (unsigned long)a.addr);
}
END_TEST

static const struct form refused[] = {
	{ .what = "mov (%rax),%rax (REX.W: 64-bit)", .code = { 0x48, 0x8B, 0x00 }, .n = 3 },
	{ .what = "mov (%rax),%al (8-bit)", .code = { 0x8A, 0x00 }, .n = 2 },
	{ .what = "mov %ax,(%rax) (16-bit prefix)", .code = { 0x66, 0x89, 0x00 }, .n = 3 },
	{ .what = "mov %eax,%eax (no memory)", .code = { 0x8B, 0xC0 }, .n = 2 },
	{ .what = "C7 /1", .code = { 0xC7, 0x08, 1, 0, 0, 0 }, .n = 6 },
	{ .what = "add (%rax),%eax (read-modify)", .code = { 0x03, 0x00 }, .n = 2 },
	{ .what = "test %ecx,0x201804 (a folded load)", .code = { 0x85, 0x0C, 0x25, 0x04, 0x18, 0x20, 0x00 }, .n = 7 },
	{ .what = "cut off", .code = { 0x8B, 0x04, 0x25, 0x00, 0x18 }, .n = 5 },
	{ .what = "movl cut before its immediate", .code = { 0xC7, 0x00, 0x78 }, .n = 3 },
};

START_TEST(test_decode_refuses)
{
	struct dfz__x86_access a;

	ck_assert_msg(decode_one(&refused[_i], &a) < 0, "%s: decoded",
		      refused[_i].what);
}
END_TEST

/* --------------------------------------------------- the fault path */

/* In a child: @fn after the window is mapped; its exit status. */
static int child_status(void (*fn)(void))
{
	int st = 0;
	pid_t pid = fork();

	if (pid == 0) {
		dfz__mmio_init();
		fn();
		_exit(0);
	}
	ck_assert_int_gt(pid, 0);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	return st;
}

static void rmw_access(void)
{
	__asm__ volatile("addl $1, 0x201800" ::: "memory", "cc");
}

static void wild_access(void)
{
	volatile uintptr_t wild = 0x10;

	(void)RD(wild);
}

/* An instruction the decoder does not take: one line, exit 2, never a
 * wrong model access. */
START_TEST(test_refused_instruction_exits)
{
	int st;

	if (!window())
		return;
	st = child_status(rmw_access);
	ck_assert(WIFEXITED(st));
	ck_assert_int_eq(WEXITSTATUS(st), 2);
}
END_TEST

/* A fault outside the window goes to the action below (the default). */
START_TEST(test_other_faults_chain)
{
	int st;

	if (!window())
		return;
	st = child_status(wild_access);
#ifdef MMIO_ASAN
	ck_assert(WIFEXITED(st));
	ck_assert_int_eq(WEXITSTATUS(st), 1);
#else
	ck_assert(WIFSIGNALED(st));
	ck_assert_int_eq(WTERMSIG(st), SIGSEGV);
#endif
}
END_TEST

/* Outside a test body a read gives 0, a write is dropped. */
START_TEST(test_outside_a_body)
{
	if (!window())
		return;
	dfz__dropin_get();
	WR(CMD_REG, 5);
	ck_assert_uint_eq(RD(STATUS_REG), 0);
}
END_TEST

/* The crash guard's view: the window's handler stands for what it
 * passes other faults to. */
START_TEST(test_below)
{
	struct sigaction cur;

	if (!window())
		return;
	dfz__mmio_init();
	sigaction(SIGSEGV, NULL, &cur);
	ck_assert_ptr_ne(dfz__mmio_below(&cur), &cur);
	ck_assert_ptr_eq(dfz__mmio_below(dfz__mmio_below(&cur)),
			 dfz__mmio_below(&cur));
}
END_TEST

Suite *suite_dropin_mmio(void)
{
	Suite *s = suite_create("dropin_mmio");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_register_protocol);
	tcase_add_test(tc, test_event_wait);
	tcase_add_test(tc, test_missing_wait);
	tcase_add_test(tc, test_event_never_comes);
	tcase_add_test(tc, test_short_command);
	tcase_add_test(tc, test_under_crash_guard);
	tcase_add_loop_test(tc, test_decode_forms, 0,
			    sizeof(forms) / sizeof(forms[0]));
	tcase_add_loop_test(tc, test_decode_refuses, 0,
			    sizeof(refused) / sizeof(refused[0]));
	tcase_add_test(tc, test_refused_instruction_exits);
	tcase_add_test(tc, test_other_faults_chain);
	tcase_add_test(tc, test_outside_a_body);
	tcase_add_test(tc, test_below);
	suite_add_tcase(s, tc);
	return s;
}
