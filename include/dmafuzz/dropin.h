/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz drop-in: the user-code harness (DROPIN.md 1, 7). The user's own
 * code, compiled against the SDK-named headers of include/dmafuzz/dropin/
 * (pmsis.h, bsp/ram.h), drives the runtime's engines; every oracle judges
 * the run, and every finding names the user's source lines.
 *
 * A test file holds a body and one DFZ_DROPIN_MAIN(body, arg) line, which
 * gives one binary that
 *   - run bare, tries N schedules (the empty one first) and exits 0 when
 *     all are clean, 1 at the first finding (its schedule saved), 2 on bad
 *     use;
 *   - given schedule files, replays each and prints its verdict;
 *   - built with -fsanitize=fuzzer (libFuzzer) or afl-clang-fast (AFL++),
 *     is a fuzz target whose input bytes are the schedule.
 *
 * A schedule is a choice stream: the engines' latency and bandwidth, the
 * engine steps at each yield point (every DMA call and wait), and the core
 * that runs next at each switch point. When the bytes run out every draw
 * takes its simplest value: no steps at yields (waits drain the engine),
 * one core at a time in core order.
 */
#ifndef DMAFUZZ_DROPIN_H
#define DMAFUZZ_DROPIN_H

#include <stddef.h>
#include <stdint.h>

#include "dmafuzz/runtime.h"

/* Where the drop-in maps the cluster's memories (the PULP memory map). */
#define DFZ_DROPIN_L1_BASE 0x10000000u
#define DFZ_DROPIN_L2_BASE 0x1C000000u
#define DFZ_DROPIN_L1_SIZE (256u << 10)  /* the defaults */
#define DFZ_DROPIN_L2_SIZE (1536u << 10)
#define DFZ_DROPIN_L1_MAX (DFZ_DROPIN_L2_BASE - DFZ_DROPIN_L1_BASE)
#define DFZ_DROPIN_L2_MAX (64u << 20)

/*
 * DFZ_DROPIN_MEMORY(l2, l1) - at file scope of a test file: its L2 and L1
 * sizes in bytes (0: the default), for code written for a part with more
 * memory than the defaults, up to DFZ_DROPIN_L2_MAX and DFZ_DROPIN_L1_MAX
 * (the windows of the memory map); a size outside is one line and exit 2
 * when the memories are set up.
 */
struct dfz_dropin_memory {
	uint32_t l2;
	uint32_t l1;
};
extern const struct dfz_dropin_memory dfz_dropin_memory;
#define DFZ_DROPIN_MEMORY(l2, l1)                                            \
	const struct dfz_dropin_memory dfz_dropin_memory = { (l2), (l1) };

/*
 * DFZ_DROPIN_SCHEDULE(latency, bandwidth, steps, n) - at file scope of a
 * test file: what its empty schedule (a bare run's first, an empty
 * schedule file or fuzz input) runs instead of the simplest values: the
 * engines' @latency (steps before a descriptor moves) and @bandwidth
 * (bytes per step, 0: the default), and at the k-th yield point
 * @steps[k % @n] engine steps (@n 0: none), as `dmafuzz run` runs a plan
 * (its latency, bandwidth and sched, cycled). `emit-c --dropin` writes the
 * plan's, so a program's first run is the harness's run. Cores are picked
 * in order. @steps: a static array of uint8_t (NULL when @n is 0).
 */
struct dfz_dropin_schedule {
	uint32_t latency;
	uint32_t bandwidth;
	const uint8_t *steps;
	uint32_t nsteps;
};
extern const struct dfz_dropin_schedule dfz_dropin_schedule;
#define DFZ_DROPIN_SCHEDULE(latency, bandwidth, steps, n)                    \
	const struct dfz_dropin_schedule dfz_dropin_schedule = {             \
		(latency), (bandwidth), (steps), (n) };

#define DFZ_DROPIN_CORES 8             /* cores of the cluster */

/* A call site of the user's code: every entry point receives its own. */
struct dfz_site {
	const char *file;
	int line;
	const char *func;
};

#define DFZ_SITE ((struct dfz_site){ __FILE__, __LINE__, __func__ })

/**
 * dfz_dropin_compute() - not an SDK name: a kernel's work the cores did
 * here, made visible as the harness's compute is: it read @n bytes at @in
 * (and at @aux when not NULL) and wrote @n bytes at @out (L2 or L1). The
 * oracles judge the reads and the write against the transfers in flight
 * (a read before the covering wait returned is hazard.read-before-wait,
 * one a transfer races hazard.race), then the engines run as many steps
 * as the schedule gives a yield point, as while the cores compute (the
 * harness's yield after each chunk). `emit-c --dropin` programs call it
 * after each chunk of their compute. Use via DFZ_DROPIN_COMPUTE().
 */
void dfz_dropin_compute(struct dfz_site s, const void *in, const void *aux,
			void *out, size_t n);
#define DFZ_DROPIN_COMPUTE(in, aux, out, n)                                  \
	dfz_dropin_compute(DFZ_SITE, (in), (aux), (out), (size_t)(n))

/*
 * Quirks (DROPIN 4): SDK and hardware behaviours that differ between
 * versions and decide whether code is correct, set per run. Each one's
 * default is the behaviour of the SDK code the headers follow (pulpos,
 * the Snitch runtime Deeploy pins) and of the design's engines. A quirk is
 * set by the DFZ_QUIRKS environment variable, the binary's --quirks
 * option (over the variable), or the body's own dfz_dropin_quirks() call
 * (over both, from that call on); one set "any" is drawn from each run's
 * schedule. X(NAME, "name", default, "what it restores").
 */
#define DFZ_QUIRK_MAP(X)                                                     \
	X(SNRT_HEAD, "snrt-head", 0,                                         \
	  "snrt_dma_wait(t) returns once completed >= t (snitch_cluster "    \
	  "#153) and a size-0 start is issued (#156); off, snrt-pinned (the "\
	  "commit Deeploy pins): completed > t, a size-0 start returns -1")  \
	X(IDMA_ZERO_RETIRES, "idma-zero-work-retires", 1,                   \
	  "a transfer without work (size 0, or a 2-D repeat of 0) retires "  \
	  "when accepted, counting ahead of older ones in flight (iDMA "     \
	  "nd_midend, GVSoC idma_fe_xdma); off: in order")                   \
	X(MCHAN_STALL_NO_TID, "mchan-stall-no-tid", 0,                      \
	  "mchan_channel_alloc or pi_cl_dma_cmd with all 16 counters taken " \
	  "stalls until another core frees one (a hang when none can; off, " \
	  "pi_cl_dma_cmd is a hang at once), and a core that "               \
	  "never allocated pushes on counter 0 (MCHAN RTL, GVSoC mchan_v7); "\
	  "off: the alloc fails, the push is handle.stale")                  \
	X(CLDMA_SIZE16, "cldma-size16", 1,                                  \
	  "pi_cl_dma_cmd truncates a 1-D size, pi_cl_dma_cmd_2d a line "     \
	  "length, to 16 bits (pulpos)")                                     \
	X(CLDMA_COPY_ALIASES, "cldma-copy-aliases", 1,                      \
	  "pi_cl_dma_memcpy stores the TID over copy->ext and "              \
	  "pi_cl_dma_wait reads it there (pulpos casts the copy to a "       \
	  "command)")                                                        \
	X(CLDMA_EMUL_64K, "cldma-emul-64k", 0,                              \
	  "a 1-D pi_cl_dma_cmd of 64 KiB or more runs as 64 KiB pieces from "\
	  "a FIFO that links the caller's command struct, and its wait "     \
	  "returns once the last piece is pushed (gap_sdk Vega, GAP9-class)")\
	X(IDMA_ID_AT_PUSH, "idma-id-at-push", 1,                            \
	  "snrt_dma_start_* returns the id counter as it stands at the "     \
	  "push, and the counter advances when the midend pops a request "   \
	  "(iDMA v0.6.0 on, idma_inst64_top): ids may repeat or lag; off: "  \
	  "exact ids (GVSoC, axi_dma_tc_snitch_fe)")                        \
	X(RAM_CONCURRENT, "ram-concurrent", 1,                              \
	  "the RAM driver runs two copies at once (pulp-sdk pulpos "         \
	  "hyperbus); off: one at a time (gap_sdk GAP8 HyperRAM)")

enum dfz_quirk {
#define DFZ__QUIRK_ENUM(id, name, def, doc) DFZ_QUIRK_##id,
	DFZ_QUIRK_MAP(DFZ__QUIRK_ENUM)
#undef DFZ__QUIRK_ENUM
	DFZ_NQUIRKS
};

/**
 * dfz_dropin_quirks() - set quirks for the rest of this run (from the
 * body) or for every run (before one): @list is comma-separated items
 * "NAME" (on), "no-NAME" (off) or "NAME=on|off|any"; "snrt-pinned" is
 * "no-snrt-head". Return: 0, or -1 (said on stderr) for an unknown name.
 */
int dfz_dropin_quirks(const char *list);

/**
 * dfz_dropin_leaks() - the leak check (docs/porting/allocators.md): with
 * @on, a block an SDK allocator handed out (pi_l2_malloc, pi_cl_l1_malloc,
 * cl_ram_malloc, pi_ram_alloc, AT_*_ALLOC) and still held when the body
 * ends is a finding (mem.leak) at the line that allocated it. Off by
 * default (firmware often never frees); the DFZ_LEAKS environment
 * variable (1: on) and the binary's --leaks option set it too; this call,
 * from the body or before a run, is over both.
 */
void dfz_dropin_leaks(int on);

/** dfz_dropin_quirk_on() - whether @q is on in the current run. */
int dfz_dropin_quirk_on(enum dfz_quirk q);

/* What DFZ_DROPIN_MAIN() registers: the body run once per schedule. */
struct dfz_dropin_test {
	void (*body)(void *arg);
	void *arg;
	const char *file;                /* the test file (__FILE__) */
};

/**
 * dfz_dropin_main() - the test binary's main: bare runs, schedule replay,
 * and the options (--help lists them). @t: borrowed.
 * Return: the exit status (0 clean, 1 finding, 2 bad use).
 */
int dfz_dropin_main(const struct dfz_dropin_test *t, int argc, char **argv);

/**
 * dfz_dropin_fuzz_one() - one fuzz execution: @data (@n bytes, borrowed)
 * is the schedule. A finding is printed to stderr and ends the process
 * with abort(), as the fuzzers expect. Return: 0.
 */
int dfz_dropin_fuzz_one(const struct dfz_dropin_test *t, const uint8_t *data,
			size_t n);

/**
 * dfz_dropin_fuzz_init() - the one-time set-up of fuzz target @t (the
 * memories mapped, the oracles made, and the ideal run that
 * dfz_dropin_output() compares with), before the fuzzer forks or loops:
 * LLVMFuzzerInitialize and AFL++'s deferred fork server call it. So
 * every run of a schedule covers the same code, the first one a forked
 * child makes too. @t may be NULL: the ideal run comes at the first run.
 */
void dfz_dropin_fuzz_init(const struct dfz_dropin_test *t);

/*
 * Test-body helpers (not SDK names): the host's view of L3, to put a
 * tensor there before the code under test runs and read it back after,
 * as a board's loader and debugger would. Return 0, or -1 when the range
 * is outside L3.
 */
int dfz_dropin_l3_write(uint32_t l3, const void *src, uint32_t n);
int dfz_dropin_l3_read(uint32_t l3, void *dst, uint32_t n);

/**
 * dfz_dropin_check() - the test body's own verdict: when @ok is false the
 * run is a finding of class data.mismatch at the caller's line, with
 * @what as its message (a golden check that failed). Use via
 * DFZ_DROPIN_CHECK(cond).
 */
void dfz_dropin_check(struct dfz_site s, int ok, const char *what);
#define DFZ_DROPIN_CHECK(cond) dfz_dropin_check(DFZ_SITE, !!(cond), #cond)

/**
 * dfz_dropin_output() - a reference for free: the @n bytes at @p (L2, L1
 * or host memory), as they are at this call, are an output of the body.
 * Before a test's first run the harness runs its body once in an ideal
 * world (every transfer done at its call, cores in order, nothing
 * poisoned) and keeps each output's bytes; every run after compares the
 * k-th output its body names with the ideal run's k-th, and the first
 * differing byte is a data.mismatch at this line, naming the byte, its
 * block and the last transfer that wrote it. Name outputs after the
 * body's last wait, where a golden check would go. Use via
 * DFZ_DROPIN_OUTPUT(ptr, size); DFZ_DROPIN_OUTPUT_L3(addr, size) for an
 * L3 range (an address cl_ram_malloc returned).
 */
void dfz_dropin_output(struct dfz_site s, const void *p, size_t n);
void dfz_dropin_output_l3(struct dfz_site s, uint32_t l3, size_t n);
#define DFZ_DROPIN_OUTPUT(p, n) dfz_dropin_output(DFZ_SITE, (p), (size_t)(n))
#define DFZ_DROPIN_OUTPUT_L3(a, n)                                           \
	dfz_dropin_output_l3(DFZ_SITE, (uint32_t)(a), (size_t)(n))

/*
 * DFZ_DROPIN_MAIN(body, arg) - the entry points of a test binary. Under
 * afl-clang-fast, main is AFL++'s persistent loop over the shared-memory
 * input; otherwise main is weak, so that libFuzzer's own main (linked in
 * with -fsanitize=fuzzer) takes its place.
 */
#define DFZ__DROPIN_TEST(body, arg)                                          \
	static const struct dfz_dropin_test dfz__dropin_test = {             \
		(body), (arg), __FILE__ };                                   \
	int LLVMFuzzerInitialize(int *dfz__argc, char ***dfz__argv);         \
	int LLVMFuzzerInitialize(int *dfz__argc, char ***dfz__argv)          \
	{                                                                    \
		(void)dfz__argc;                                             \
		(void)dfz__argv;                                             \
		dfz_dropin_fuzz_init(&dfz__dropin_test);                     \
		return 0;                                                    \
	}                                                                    \
	int LLVMFuzzerTestOneInput(const uint8_t *dfz__d, size_t dfz__n);    \
	int LLVMFuzzerTestOneInput(const uint8_t *dfz__d, size_t dfz__n)     \
	{                                                                    \
		return dfz_dropin_fuzz_one(&dfz__dropin_test, dfz__d, dfz__n); \
	}

#ifdef __AFL_COMPILER
#include <unistd.h> /* read(), in __AFL_FUZZ_TESTCASE_LEN */
/* AFL++'s input buffer for runs without shared memory (1 MiB) is host
 * memory, not one of the program's statics in L2 (dmafuzz-dropin.ld). */
#ifdef __clang__
#define DFZ__AFL_FUZZ_INIT()                                                 \
	_Pragma("clang section bss=\"dfz_host_bss\"")                      \
	__AFL_FUZZ_INIT();                                                   \
	_Pragma("clang section bss=\"\"")
#else
#define DFZ__AFL_FUZZ_INIT() __AFL_FUZZ_INIT();
#endif
#define DFZ_DROPIN_MAIN(body, arg)                                           \
	DFZ__DROPIN_TEST(body, arg)                                          \
	DFZ__AFL_FUZZ_INIT()                                                 \
	int main(int argc, char **argv)                                      \
	{                                                                    \
		unsigned char *dfz__buf;                                     \
		if (argc > 1)                                                \
			return dfz_dropin_main(&dfz__dropin_test, argc, argv); \
		dfz_dropin_fuzz_init(&dfz__dropin_test);                     \
		__AFL_INIT();                                                \
		dfz__buf = __AFL_FUZZ_TESTCASE_BUF;                          \
		while (__AFL_LOOP(10000))                                    \
			LLVMFuzzerTestOneInput(dfz__buf,                     \
				(size_t)__AFL_FUZZ_TESTCASE_LEN);            \
		return 0;                                                    \
	}
#else
#define DFZ_DROPIN_MAIN(body, arg)                                           \
	DFZ__DROPIN_TEST(body, arg)                                          \
	int main(int argc, char **argv) __attribute__((weak));               \
	int main(int argc, char **argv)                                      \
	{                                                                    \
		return dfz_dropin_main(&dfz__dropin_test, argc, argv);       \
	}
#endif

#endif /* DMAFUZZ_DROPIN_H */
