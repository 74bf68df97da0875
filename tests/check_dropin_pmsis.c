// SPDX-License-Identifier: MIT
/*
 * The PMSIS program around the DMA calls (dropin/pmsis_task.c,
 * pmsis_cluster.c, pmsis_fc_ram.c): pmsis_kickoff / pmsis_exit, tasks and
 * the fabric controller's event loop, the FC side of the RAM API, the
 * cluster's allocation requests, cluster tasks, the critical section and
 * the performance counters. Each body is a small program of the shape
 * the SDK tests have; the lines findings must name are taken with
 * __LINE__ on the call itself. Every guard has a body that trips it.
 */
#define _DEFAULT_SOURCE /* mkdtemp, setenv */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dropin_fixture.h"
#include "dmafuzz/dropin/pmsis.h"
#include "dmafuzz/dropin/bsp/bsp.h"

static int want_line;
static int kickoff_rc;
static int after_exit;

static struct dfz__result run(void (*body)(void *), const uint8_t *buf,
			      size_t n)
{
	struct dfz_dropin_test t = { body, NULL, __FILE__ };
	struct dfz__result r;

	dfz__dropin_run(&t, buf, n, &r);
	return r;
}

static void check_at(struct dfz__result r, const char *cls)
{
	ck_assert_str_eq(dfz_class_name(r.finding.cls), cls);
	ck_assert_int_eq(r.site.line, want_line);
	ck_assert_str_eq(r.site.file, __FILE__);
}

/* ------------------------------------------------------ kickoff, exit */

static int exit_with;

static void entry_exit(void *arg)
{
	(void)arg;
	want_line = __LINE__ + 1;
	pmsis_exit(exit_with);
	after_exit = 1;
}

static void body_kickoff(void *arg)
{
	(void)arg;
	after_exit = 0;
	kickoff_rc = pmsis_kickoff((void *)entry_exit);
}

START_TEST(test_exit_status)
{
	struct dfz__result r;

	exit_with = 0;
	r = run(body_kickoff, NULL, 0);
	ck_assert_int_eq(r.finding.cls, DFZ_CLASS_NONE);
	ck_assert_int_eq(kickoff_rc, 0);
	ck_assert_int_eq(after_exit, 0);
	exit_with = 3;
	r = run(body_kickoff, NULL, 0);
	check_at(r, "data.mismatch");
	ck_assert_int_eq(kickoff_rc, 3);
	ck_assert_int_eq(after_exit, 0);
}
END_TEST

/* pmsis_exit on core 2 of a team: the fork is left, the next run's team
 * forks again. */
static void pe_exit(void *arg)
{
	(void)arg;
	pi_cl_team_barrier();
	if (pi_core_id() == 2) {
		want_line = __LINE__ + 1;
		pmsis_exit(7);
	}
	pi_cl_team_barrier();
}

static void entry_fork_exit(void *arg)
{
	(void)arg;
	pi_cl_team_fork(8, pe_exit, NULL);
	after_exit = 1;
}

static void body_fork_exit(void *arg)
{
	(void)arg;
	after_exit = 0;
	kickoff_rc = pmsis_kickoff((void *)entry_fork_exit);
}

static void pe_nothing(void *arg)
{
	(void)arg;
	pi_cl_team_barrier();
}

static void body_fork_after(void *arg)
{
	(void)arg;
	pi_cl_team_fork(8, pe_nothing, NULL);
}

START_TEST(test_exit_in_fork)
{
	check_at(run(body_fork_exit, NULL, 0), "data.mismatch");
	ck_assert_int_eq(kickoff_rc, 7);
	ck_assert_int_eq(after_exit, 0);
	ck_assert_int_eq(run(body_fork_after, NULL, 0).finding.cls,
			 DFZ_CLASS_NONE);
}
END_TEST

/* ------------------------------------------------------ FC side, tasks */

static struct pi_device ram;
static pi_task_t tasks[2];
static int ncallbacks;
static uint8_t seen[2][64];

static void end_of_rx(void *arg)
{
	ncallbacks++;
	(void)arg;
}

/* The SDK's ram test, small: two async writes, reads from their
 * callbacks' loop, the data round-trips. */
static void body_fc_async(void *arg)
{
	struct pi_hyperram_conf conf;
	uint8_t *buf = pi_l2_malloc(128), *back = pi_l2_malloc(128);
	uint32_t l3[2];
	pi_task_t blk;

	(void)arg;
	ncallbacks = 0;
	pi_hyperram_conf_init(&conf);
	pi_open_from_conf(&ram, &conf);
	ck_assert_int_eq(pi_ram_open(&ram), 0);
	ck_assert_int_eq(pi_ram_alloc(&ram, &l3[0], 64), 0);
	ck_assert_int_eq(pi_ram_alloc(&ram, &l3[1], 64), 0);
	fill(buf, 128);
	pi_ram_write_async(&ram, l3[0], buf, 64, pi_task_block(&blk));
	pi_task_wait_on(&blk);
	ck_assert_int_eq(blk.done, 1);
	pi_ram_write(&ram, l3[1], buf + 64, 64);
	for (int i = 0; i < 2; i++)
		pi_ram_read_async(&ram, l3[i], back + 64 * i, 64,
				  pi_task_callback(&tasks[i], end_of_rx, NULL));
	while (ncallbacks != 2)
		pi_yield();
	memcpy(seen, back, sizeof(seen));
	ck_assert_int_eq(pi_ram_free(&ram, l3[0], 64), 0);
	ck_assert_int_eq(pi_ram_free(&ram, l3[1], 64), 0);
	pi_ram_close(&ram);
	pi_l2_free(back, 128);
	pi_l2_free(buf, 128);
}

START_TEST(test_fc_async)
{
	uint8_t want[128], sched[32];

	fill(want, 128);
	ck_assert_int_eq(run(body_fc_async, NULL, 0).finding.cls,
			 DFZ_CLASS_NONE);
	ck_assert_int_eq(ncallbacks, 2);
	ck_assert_mem_eq(seen, want, 128);
	for (unsigned k = 1; k < 20; k++) {
		for (unsigned i = 0; i < sizeof(sched); i++)
			sched[i] = (uint8_t)(i * 37 + k * 11);
		ck_assert_int_eq(run(body_fc_async, sched, sizeof(sched))
					 .finding.cls, DFZ_CLASS_NONE);
		ck_assert_mem_eq(seen, want, 128);
	}
}
END_TEST

/* A task given to a second copy before its first ended. */
static void body_task_reuse(void *arg)
{
	uint8_t *buf = pi_l2_malloc(64);
	uint32_t l3;
	pi_task_t t;

	(void)arg;
	pi_ram_alloc(&ram, &l3, 64);
	fill(buf, 64);
	pi_ram_write(&ram, l3, buf, 64);
	pi_ram_read_async(&ram, l3, buf, 32, pi_task_block(&t));
	want_line = __LINE__ + 1;
	pi_ram_read_async(&ram, l3 + 32, buf + 32, 32, &t);
	pi_task_wait_on(&t);
}

/* A wait on a task nothing ends. */
static void body_task_never(void *arg)
{
	pi_task_t t;

	(void)arg;
	pi_task_block(&t);
	want_line = __LINE__ + 1;
	pi_task_wait_on(&t);
}

/* A NULL task handed to an async copy. */
static void body_task_null(void *arg)
{
	uint8_t *buf = pi_l2_malloc(64);
	uint32_t l3;

	(void)arg;
	pi_ram_alloc(&ram, &l3, 64);
	fill(buf, 64);
	pi_ram_write(&ram, l3, buf, 64);
	want_line = __LINE__ + 1;
	pi_ram_read_async(&ram, l3, buf, 64, NULL);
}

START_TEST(test_task_guards)
{
	check_at(run(body_task_reuse, NULL, 0), "handle.reuse");
	check_at(run(body_task_never, NULL, 0), "dma.hang");
	check_at(run(body_task_null, NULL, 0), "dma.bad-address");
}
END_TEST

static void entry_spin(void *arg)
{
	(void)arg;
	for (;;) {
		want_line = __LINE__ + 1;
		pi_yield();
	}
}

static void body_spin(void *arg)
{
	(void)arg;
	kickoff_rc = pmsis_kickoff((void *)entry_spin);
}

START_TEST(test_yield_nothing)
{
	check_at(run(body_spin, NULL, 0), "dma.hang");
}
END_TEST

/* ------------------------------------------- cluster-side allocations */

static void body_cl_alloc(void *arg)
{
	pi_cl_ram_alloc_req_t a;
	pi_cl_ram_free_req_t f;
	pi_cl_ram_req_t req;
	uint8_t *tile = pi_l2_malloc(64), host[64];
	uint32_t l3 = 0;

	(void)arg;
	pi_cl_ram_alloc(&ram, 64, &a);
	ck_assert_int_eq(pi_cl_ram_alloc_wait(&a, &l3), 0);
	fill(host, 64);
	dfz_dropin_l3_write(l3, host, 64);
	pi_cl_ram_read(&ram, l3, tile, 64, &req);
	pi_cl_ram_read_wait(&req);
	ck_assert(same_bytes(tile, host, 64));
	pi_cl_ram_free(&ram, l3, 64, &f);
	ck_assert_int_eq(pi_cl_ram_free_wait(&f), 0);
	want_line = __LINE__ + 1;
	pi_cl_ram_free_wait(&f);
}

static void body_cl_free_bad(void *arg)
{
	pi_cl_ram_free_req_t f;

	(void)arg;
	want_line = __LINE__ + 1;
	pi_cl_ram_free(&ram, 0x12345u, 64, &f);
}

START_TEST(test_cl_alloc)
{
	check_at(run(body_cl_alloc, NULL, 0), "handle.stale");
	check_at(run(body_cl_free_bad, NULL, 0), "dev.misuse");
}
END_TEST

/* ------------------------------------------------- cluster, critical */

static int shared_sum, ncluster_cb;

/* Each core adds its id under the critical section, with an SDK call
 * (a switch point) between the read and the write. */
static void pe_sum(void *arg)
{
	int v;

	(void)arg;
	pi_cl_team_critical_enter();
	v = shared_sum;
	pi_time_wait_us(1);
	shared_sum = v + pi_core_id();
	pi_cl_team_critical_exit();
	pi_cl_team_barrier(0);
}

static void cluster_entry(void *arg)
{
	(void)arg;
	pi_cl_team_fork(pi_cl_cluster_nb_cores(), pe_sum, NULL);
}

static void cluster_done(void *arg)
{
	(void)arg;
	ncluster_cb++;
}

static void body_cluster(void *arg)
{
	struct pi_cluster_conf conf;
	struct pi_device dev;
	struct pi_cluster_task task;
	pi_task_t done;

	(void)arg;
	shared_sum = 0;
	ncluster_cb = 0;
	pi_cluster_conf_init(&conf);
	ck_assert_int_eq(conf.device_type, PI_DEVICE_CLUSTER_TYPE);
	pi_open_from_conf(&dev, &conf);
	ck_assert_ptr_eq(dev.config, &conf);
	ck_assert_int_eq(pi_cluster_open(&dev), 0);
	pi_cluster_send_task_to_cl_async(&dev,
		pi_cluster_task(&task, cluster_entry, NULL),
		pi_task_callback(&done, cluster_done, NULL));
	while (ncluster_cb == 0)
		pi_yield();
	pi_cluster_close(&dev);
}

START_TEST(test_cluster_critical)
{
	uint8_t sched[48];

	ck_assert_int_eq(run(body_cluster, NULL, 0).finding.cls,
			 DFZ_CLASS_NONE);
	ck_assert_int_eq(shared_sum, 28);
	ck_assert_int_eq(ncluster_cb, 1);
	for (unsigned k = 1; k < 30; k++) {
		for (unsigned i = 0; i < sizeof(sched); i++)
			sched[i] = (uint8_t)(i * 53 + k * 29);
		ck_assert_int_eq(run(body_cluster, sched, sizeof(sched))
					 .finding.cls, DFZ_CLASS_NONE);
		ck_assert_int_eq(shared_sum, 28);
	}
}
END_TEST

static void pe_unlock(void *arg)
{
	(void)arg;
	if (pi_core_id() == 1) {
		want_line = __LINE__ + 1;
		pi_cl_team_critical_exit();
	}
}

static void body_unlock(void *arg)
{
	(void)arg;
	pi_cl_team_fork(2, pe_unlock, NULL);
}

static void body_no_entry(void *arg)
{
	struct pi_cluster_task task = { 0 };

	(void)arg;
	want_line = __LINE__ + 1;
	pi_cluster_send_task_to_cl(NULL, &task);
}

START_TEST(test_cluster_guards)
{
	check_at(run(body_unlock, NULL, 0), "dev.misuse");
	check_at(run(body_no_entry, NULL, 0), "dev.misuse");
}
END_TEST

/* --------------------------------------------------------------- perf */

static unsigned perf_cycles, perf_instr;

static void body_perf(void *arg)
{
	uint8_t *buf = pi_l2_malloc(4096);
	uint32_t l3;

	(void)arg;
	pi_ram_alloc(&ram, &l3, 4096);
	fill(buf, 4096);
	pi_ram_write(&ram, l3, buf, 4096);
	pi_perf_conf(1 << PI_PERF_CYCLES | 1 << PI_PERF_INSTR);
	pi_perf_reset();
	pi_perf_start();
	pi_ram_read(&ram, l3, buf, 4096);
	pi_perf_stop();
	perf_cycles = pi_perf_read(PI_PERF_CYCLES);
	perf_instr = pi_perf_read(PI_PERF_INSTR);
}

START_TEST(test_perf)
{
	ck_assert_int_eq(run(body_perf, NULL, 0).finding.cls, DFZ_CLASS_NONE);
	ck_assert_uint_gt(perf_cycles, 0);
	ck_assert_uint_eq(perf_instr, 0);
}
END_TEST

/* -------------------------------------------------------- file system */

static uint8_t fs_got[16];
static unsigned fs_size;

static void body_fs(void *arg)
{
	struct pi_readfs_conf conf;
	struct pi_device fs;
	pi_fs_file_t *f;
	pi_cl_fs_req_t req;
	uint8_t *buf = pi_l2_malloc(16);

	(void)arg;
	pi_readfs_conf_init(&conf);
	pi_open_from_conf(&fs, &conf);
	ck_assert_int_eq(pi_fs_mount(&fs), 0);
	ck_assert_ptr_null(pi_fs_open(&fs, "no-such-file", 0));
	f = pi_fs_open(&fs, "dfz-fs-test.bin", 0);
	ck_assert_ptr_nonnull(f);
	fs_size = f->size;
	pi_fs_seek(f, 4);
	pi_cl_fs_read(f, buf, 16, &req);
	ck_assert_int_eq(pi_cl_fs_wait(&req), 16);
	memcpy(fs_got, buf, 16);
	want_line = __LINE__ + 1;
	pi_fs_write(f, buf, 16);
	pi_fs_close(f);
}

START_TEST(test_fs)
{
	char dir[] = "/tmp/dfz-fs-XXXXXX", path[64];
	uint8_t data[32];
	FILE *h;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/dfz-fs-test.bin", dir);
	fill(data, 32);
	h = fopen(path, "wb");
	ck_assert_ptr_nonnull(h);
	ck_assert_uint_eq(fwrite(data, 1, 32, h), 32);
	fclose(h);
	setenv("DFZ_FS_ROOT", dir, 1);
	check_at(run(body_fs, NULL, 0), "rt.refused");
	unsetenv("DFZ_FS_ROOT");
	remove(path);
	rmdir(dir);
	ck_assert_uint_eq(fs_size, 32);
	ck_assert_mem_eq(fs_got, data + 4, 16);
}
END_TEST

Suite *suite_dropin_pmsis(void)
{
	Suite *s = suite_create("dropin_pmsis");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_exit_status);
	tcase_add_test(tc, test_exit_in_fork);
	tcase_add_test(tc, test_fc_async);
	tcase_add_test(tc, test_task_guards);
	tcase_add_test(tc, test_yield_nothing);
	tcase_add_test(tc, test_cl_alloc);
	tcase_add_test(tc, test_cluster_critical);
	tcase_add_test(tc, test_cluster_guards);
	tcase_add_test(tc, test_perf);
	tcase_add_test(tc, test_fs);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}
