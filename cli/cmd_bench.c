// SPDX-License-Identifier: MIT
/*
 * `dmafuzz bench`: measured ratios, never timed tests. Plans executed per
 * second in-process on a corpus (all oracles on), and the ram engine's copy
 * throughput for a large contiguous transfer beside plain memcpy of the
 * same bytes in the same process. `dmafuzz bench --startup PLAN...`: the
 * CPU time of a `dmafuzz run` process on one plan beside the same binary
 * doing nothing and an empty C program.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "common_int.h"
#include "dmafuzz/plan.h"

#define BENCH_PLANS_MAX 512
#define BENCH_COPY_BYTES (512u << 10)

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The plans load_dir() has loaded. */
struct loaded {
	struct dfz_plan *plans;
	unsigned n;
};

/* A file of the dir (dotfiles skipped): one more plan when it loads. */
static int load_plan(const char *path, const char *name, void *arg)
{
	struct loaded *l = arg;
	char err[300];

	if (name[0] != '.' && l->n < BENCH_PLANS_MAX &&
	    dfz_plan_load(path, &l->plans[l->n], err, sizeof(err)) == 0)
		l->n++;
	return 0;
}

static int load_dir(const char *dir, struct dfz_plan *plans, unsigned *n)
{
	struct loaded l = { plans, 0 };
	bool opened;

	dfz__dir_each_sorted(dir, load_plan, &l, &opened);
	if (!opened) {
		cli_error("bench", "cannot read directory '%s': %m", dir);
		return -1;
	}
	*n = l.n;
	return 0;
}

static double bench_plans(const struct dfz_plan *plans, unsigned n)
{
	struct dfz_exec *ex;
	struct dfz_verdict v;
	uint64_t runs = 0;
	double t0, t;

	if (n == 0 || dfz_exec_create(DFZ_ORACLES_ALL, &ex) < 0)
		return 0;
	t0 = now_s();
	do {
		for (unsigned i = 0; i < n; i++)
			dfz_exec_run(ex, &plans[i], 0, &v);
		runs += n;
		t = now_s() - t0;
	} while (t < 2.0);
	dfz_exec_destroy(ex);
	return runs / t;
}

/* One engine copy L3 -> L2 of @n bytes at full bandwidth, and its wait. */
static double engine_copy_s(struct dfz_rt *rt, uint32_t l3, void *l2,
			    struct dfz_ram_req *req, uint32_t n)
{
	double t0 = now_s();

	if (dfz_ram_copy(dfz_ram_get(rt), l3, l2, n, 1, req) < 0 ||
	    dfz_ram_copy_wait(req) < 0)
		return -1;
	return now_s() - t0;
}

static double memcpy_s(void *dst, const void *src, uint32_t n)
{
	double t0 = now_s();

	memcpy(dst, src, n);
	__asm__ __volatile__("" : : "r"(dst) : "memory");
	return now_s() - t0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double bench_copy(uint32_t bandwidth)
{
	struct dfz_rt_config cfg = { .bandwidth = bandwidth };
	double eng[31], mc[31];
	struct dfz_ram_req *req;
	struct dfz_rt *rt;
	void *l2;
	const uint8_t *src;
	uint32_t l3;
	double ratio = -1;

	if (dfz_rt_create(&rt) < 0)
		return -1;
	if (dfz_rt_reset(rt, &cfg) < 0 ||
	    dfz_l3_alloc(rt, BENCH_COPY_BYTES, &l3) < 0 ||
	    dfz_local_alloc(rt, DFZ_L2, BENCH_COPY_BYTES, &l2) < 0 ||
	    dfz_local_alloc(rt, DFZ_L2, sizeof(*req), (void **)&req) < 0)
		goto out;
	/* memcpy moves the very bytes the engine moves: L3 to the L2 buffer. */
	src = dfz_mem_ptr(rt, DFZ_L3, l3);
	for (int i = 0; i < 31; i++) {
		eng[i] = engine_copy_s(rt, l3, l2, req, BENCH_COPY_BYTES);
		mc[i] = memcpy_s(l2, src, BENCH_COPY_BYTES);
	}
	qsort(eng, 31, sizeof(double), cmp_double);
	qsort(mc, 31, sizeof(double), cmp_double);
	if (eng[0] > 0)
		ratio = mc[15] / eng[15];
out:
	dfz_rt_destroy(rt);
	return ratio;
}

/* ---------------------------------------------------------- start-up */

#define STARTUP_RUNS 21
#define STARTUP_PLANS 8
/* The commands: a run per plan, then the binary alone, an empty program. */
#define STARTUP_CMDS (STARTUP_PLANS + 2)

static double tv_s(struct timeval t)
{
	return t.tv_sec + t.tv_usec * 1e-6;
}

/* CPU seconds (user + system) of one process running @argv, its output
 * discarded; -1 when it did not exit 0. */
static double child_cpu_s(char *const argv[])
{
	struct rusage ru;
	int st;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	if (wait4(pid, &st, 0, &ru) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 0)
		return -1;
	return tv_s(ru.ru_utime) + tv_s(ru.ru_stime);
}

/* The median CPU milliseconds of each of the @n commands over STARTUP_RUNS
 * rounds (the commands take turns, so they share the machine's load); -1,
 * or the index of a command that failed. */
static int startup_ms(char **const cmds[], unsigned n, double *ms)
{
	static double t[STARTUP_CMDS][STARTUP_RUNS];

	for (unsigned r = 0; r < STARTUP_RUNS; r++)
		for (unsigned c = 0; c < n; c++)
			if ((t[c][r] = child_cpu_s(cmds[c])) < 0)
				return (int)c;
	for (unsigned c = 0; c < n; c++) {
		qsort(t[c], STARTUP_RUNS, sizeof(double), cmp_double);
		ms[c] = t[c][STARTUP_RUNS / 2] * 1e3;
	}
	return -1;
}

/* `dmafuzz bench --startup PLAN...`: the rows of the table. */
static int bench_startup(int argc, char **argv)
{
	char self[4096], *quiet = "--quiet", *run = "run";
	char *argvs[STARTUP_CMDS][5] = { { 0 } }, **cmds[STARTUP_CMDS];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	unsigned np = (unsigned)argc - 1, bad;
	double ms[STARTUP_CMDS];

	if (len <= 0 || argc < 2 || np > STARTUP_PLANS) {
		cli_error("bench", len <= 0 ? "cannot find its own binary: %m" :
			  "--startup takes 1 to %d plan files", STARTUP_PLANS);
		return EXIT_BAD_INPUT;
	}
	self[len] = 0;
	for (unsigned i = 0; i < np; i++) {
		char *a[] = { self, run, quiet, argv[i + 1], NULL };

		memcpy(argvs[i], a, sizeof(a));
	}
	argvs[np][0] = self;
	argvs[np][1] = "--version";
	argvs[np + 1][0] = "true";
	for (unsigned c = 0; c < np + 2; c++)
		cmds[c] = argvs[c];
	bad = (unsigned)startup_ms(cmds, np + 2, ms);
	if (bad < np + 2) {
		cli_error("bench", "`%s` did not exit 0%s",
			  bad < np ? argv[bad + 1] : argvs[bad][bad == np],
			  bad < np ? " (a plan that runs clean)" : "");
		return EXIT_BAD_INPUT;
	}
	printf("| measure | value |\n|---|---|\n");
	for (unsigned i = 0; i < np; i++)
		printf("| start-up: `dmafuzz run` of %s, CPU ms a process (user+sys, median of %u) | %.2f |\n",
		       argv[i + 1], STARTUP_RUNS, ms[i]);
	printf("| start-up: `dmafuzz --version` (the same binary, no run), CPU ms | %.2f |\n", ms[np]);
	printf("| start-up: `true` (an empty C program), CPU ms | %.2f |\n", ms[np + 1]);
	for (unsigned i = 0; i < np; i++)
		printf("| start-up: run of %s / `true` | %.2f |\n", argv[i + 1],
		       ms[i] / ms[np + 1]);
	for (unsigned i = 0; i < np; i++)
		printf("| start-up: run of %s / `--version` | %.2f |\n", argv[i + 1],
		       ms[i] / ms[np]);
	return EXIT_CLEAN;
}

int cli_bench(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "corpus/xfer";
	struct dfz_plan *plans;
	unsigned n;
	double pps, full, capped;

	if (argc > 1 && !strcmp(argv[1], "--startup"))
		return bench_startup(argc - 1, argv + 1);
	if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
		fputs("usage: dmafuzz bench [DIR]\n"
		      "       dmafuzz bench --startup PLAN...\n", argc == 2 &&
		      !strcmp(argv[1], "--help") ? stdout : stderr);
		return argc == 2 && !strcmp(argv[1], "--help") ? EXIT_CLEAN
							      : EXIT_BAD_INPUT;
	}
	plans = calloc(BENCH_PLANS_MAX, sizeof(*plans));
	if (!plans || load_dir(dir, plans, &n) < 0) {
		free(plans);
		return EXIT_BAD_INPUT;
	}
	pps = bench_plans(plans, n);
	full = bench_copy(BENCH_COPY_BYTES);
	capped = bench_copy(DFZ_CAP_BANDWIDTH);
	printf("| measure | value |\n|---|---|\n");
	printf("| plans executed in-process, all oracles (%u seeds of %s) | %.0f plans/s |\n",
	       n, dir, pps);
	printf("| ram engine copy throughput / memcpy, %u KiB contiguous, one step (median of 31) | %.2f |\n",
	       BENCH_COPY_BYTES >> 10, full);
	printf("| same, at the plans' largest bandwidth (%u B/step: %u steps) | %.2f |\n",
	       DFZ_CAP_BANDWIDTH, BENCH_COPY_BYTES / DFZ_CAP_BANDWIDTH, capped);
	free(plans);
	return EXIT_CLEAN;
}
