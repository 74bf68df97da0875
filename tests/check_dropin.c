// SPDX-License-Identifier: MIT
/*
 * The drop-in (dropin/): user code written against the PMSIS names, run
 * in-process on the runtime at the PULP addresses, judged by the oracles,
 * its findings naming the calling line. Each test body is a small program
 * of the kind the examples hold; the lines they expect are taken with
 * __LINE__ on the call itself.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, open_memstream */
#include <check.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dropin_fixture.h"
#include "dmafuzz/dropin/bsp/ram.h"

#define N 256

static int want_line;            /* the line a body expects the finding at */
static int prior_line;           /* ... and the earlier call's */
static pi_cl_ram_req_t static_req;

static struct dfz__result run(void (*body)(void *), const uint8_t *buf,
			      size_t n)
{
	struct dfz_dropin_test t = { body, NULL, __FILE__ };
	struct dfz__result r;

	dfz__dropin_run(&t, buf, n, &r);
	return r;
}

static uint32_t l3_pattern(uint32_t n)
{
	uint8_t host[N];
	uint32_t l3 = (uint32_t)(uintptr_t)cl_ram_malloc(n);

	for (uint32_t i = 0; i < n; i++)
		host[i] = (uint8_t)(i * 31 + 7);
	dfz_dropin_l3_write(l3, host, n);
	return l3;
}

/* ------------------------------------------------------------- memory */

static void body_addresses(void *arg)
{
	uint8_t *l2 = pi_l2_malloc(64), *l1 = pmsis_l1_malloc(64);

	(void)arg;
	ck_assert_uint_ge((uintptr_t)l2, DFZ_DROPIN_L2_BASE);
	ck_assert_uint_lt((uintptr_t)l2, DFZ_DROPIN_L2_BASE + DFZ_DROPIN_L2_SIZE);
	ck_assert_uint_ge((uintptr_t)l1, DFZ_DROPIN_L1_BASE);
	ck_assert_uint_lt((uintptr_t)l1, DFZ_DROPIN_L1_BASE + DFZ_DROPIN_L1_SIZE);
	/* The 32-bit casts of target code round-trip. */
	ck_assert_ptr_eq((void *)(uintptr_t)(uint32_t)(uintptr_t)l2, l2);
	pi_l2_free(l2, 64);
	pmsis_l1_malloc_free(l1, 64);
}

START_TEST(test_pulp_addresses)
{
	ck_assert_int_eq(run(body_addresses, NULL, 0).finding.cls,
			 DFZ_CLASS_NONE);
}
END_TEST

/* A mapping that cannot be made is one line and exit status 2. */
START_TEST(test_mapping_taken)
{
	int fd[2], status;
	char msg[256] = "";
	pid_t pid;

	ck_assert_int_eq(pipe(fd), 0);
	pid = fork();
	if (pid == 0) {
		dup2(fd[1], STDERR_FILENO);
		dfz__dropin_teardown();
		mmap((void *)(uintptr_t)DFZ_DROPIN_L2_BASE, 4096,
		     PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS |
		     MAP_FIXED, -1, 0);
		dfz__dropin_get();
		_exit(0);
	}
	close(fd[1]);
	ck_assert_int_gt(read(fd[0], msg, sizeof(msg) - 1), 0);
	close(fd[0]);
	waitpid(pid, &status, 0);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 2);
	ck_assert_ptr_nonnull(strstr(msg, "cannot map L2 at 0x1c000000"));
	ck_assert_ptr_eq(strchr(msg, '\n'), msg + strlen(msg) - 1);
}
END_TEST

/* Deeploy's blocking helpers: ram_write then ram_read round-trip; a read
 * past L3 is dma.bad-address at its line. */
static void body_ram_helpers(void *arg)
{
	uint8_t out[64], back[64];
	void *l3 = ram_malloc(64);

	(void)arg;
	for (int i = 0; i < 64; i++)
		out[i] = (uint8_t)(i * 3 + 1);
	ram_write(l3, out, 64);
	ram_read(back, l3, 64);
	ck_assert_mem_eq(out, back, 64);
	want_line = __LINE__ + 1;
	cl_ram_read(back, (void *)(uintptr_t)0xfffffff0u, 64);
	ram_free(l3, 64);
}

START_TEST(test_ram_helpers)
{
	struct dfz__result r = run(body_ram_helpers, NULL, 0);

	ck_assert_str_eq(dfz_class_name(r.finding.cls), "dma.bad-address");
	ck_assert_int_eq(r.site.line, want_line);
}
END_TEST

/* ----------------------------------------------- requests in user memory */

/* One request per copy, on the stack, the heap and in a static: clean,
 * and the tile holds L3's bytes. */
static void body_req_places(void *arg)
{
	uint32_t l3 = l3_pattern(N);
	uint8_t *tile = pi_l2_malloc(N), host[N];
	pi_cl_ram_req_t stack_req;
	pi_cl_ram_req_t *heap_req = malloc(sizeof(*heap_req));

	(void)arg;
	pi_cl_ram_copy(get_ram_ptr(), l3, tile, 64, 1, &stack_req);
	pi_cl_ram_copy(get_ram_ptr(), l3 + 64, tile + 64, 64, 1, heap_req);
	pi_cl_ram_copy_2d(get_ram_ptr(), l3 + 128, tile + 128, 128, 32, 32, 1,
			  &static_req);
	pi_cl_ram_copy_wait(&stack_req);
	pi_cl_ram_copy_wait(heap_req);
	pi_cl_ram_copy_wait(&static_req);
	dfz_dropin_l3_read(l3, host, N);
	ck_assert_mem_eq(tile, host, N);
	free(heap_req);
}

START_TEST(test_requests_anywhere)
{
	uint8_t sched[64];

	ck_assert_int_eq(run(body_req_places, NULL, 0).finding.cls,
			 DFZ_CLASS_NONE);
	for (unsigned k = 0; k < 50; k++) {
		for (unsigned i = 0; i < sizeof(sched); i++)
			sched[i] = (uint8_t)(i * 37 + k * 101);
		ck_assert_int_eq(run(body_req_places, sched, sizeof(sched))
					 .finding.cls, DFZ_CLASS_NONE);
	}
}
END_TEST

/* Seed 000's loop: the finding names the copy's line, twice. */
static void body_shared(void *arg)
{
	uint32_t l3 = l3_pattern(N);
	uint8_t *tile = pi_l2_malloc(N);
	pi_cl_ram_req_t req;

	(void)arg;
	for (int i = 0; i < 4; i++) {
		want_line = __LINE__ + 1;
		pi_cl_ram_copy_2d(get_ram_ptr(), l3 + i * 64, tile + i * 64, 64, 16, 16, 1, &req);
	}
	pi_cl_ram_copy_wait(&req);
}

START_TEST(test_shared_request_site)
{
	struct dfz__result r = run(body_shared, NULL, 0);

	ck_assert_str_eq(dfz_class_name(r.finding.cls), "handle.reuse");
	ck_assert_str_eq(r.site.file, __FILE__);
	ck_assert_int_eq(r.site.line, want_line);
	ck_assert_str_eq(r.site.func, "body_shared");
	ck_assert_int_eq(r.prior.line, want_line);
	/* On the fabric controller's stack, in L2: named by its place, the
	 * same in every run. */
	ck_assert_ptr_nonnull(strstr(r.finding.msg, "request L2+0x"));
}
END_TEST

/* A queued request the code clobbers: a finding, never a harness crash. */
static void body_clobber(void *arg)
{
	uint32_t l3 = l3_pattern(N);
	uint8_t *tile = pi_l2_malloc(N);
	pi_cl_ram_req_t a, b, c;

	(void)arg;
	pi_cl_ram_copy(get_ram_ptr(), l3, tile, 64, 1, &a);
	pi_cl_ram_copy(get_ram_ptr(), l3, tile + 64, 64, 1, &b);
	pi_cl_ram_copy(get_ram_ptr(), l3, tile + 128, 64, 1, &c);
	memset(&b, 0xA5, sizeof(b));
	pi_cl_ram_copy_wait(&a);
	pi_cl_ram_copy_wait(&c);
}

START_TEST(test_clobbered_request)
{
	struct dfz__result r = run(body_clobber, NULL, 0);

	ck_assert_int_ne(r.finding.cls, DFZ_CLASS_NONE);
}
END_TEST

/* ----------------------------------------------------- bad addresses */

/* The host's heap: no chip memory holds it (a stack array is L2 now). */
static void body_host_buffer(void *arg)
{
	uint8_t *host_tile = malloc(64);
	pi_cl_ram_req_t req;

	(void)arg;
	ck_assert_ptr_nonnull(host_tile);
	want_line = __LINE__ + 1;
	pi_cl_ram_copy(get_ram_ptr(), l3_pattern(64), host_tile, 64, 1, &req);
	free(host_tile);
}

START_TEST(test_bad_address)
{
	struct dfz__result r = run(body_host_buffer, NULL, 0);

	ck_assert_str_eq(dfz_class_name(r.finding.cls), "dma.bad-address");
	ck_assert_int_eq(r.site.line, want_line);
}
END_TEST

/* ------------------------------------------------ in-flight destinations */

static uint8_t seen_before, seen_after, want_after;

/* The byte at @p, read past ASan's poisoning (an ASan build of the tests
 * would stop at the read this test makes on purpose). */
DFZ__NO_ASAN static uint8_t peek(const volatile uint8_t *p)
{
	return *p;
}

/* Read the tile between issue and wait: the poison pattern, whatever the
 * schedule ran; then the bytes of L3 after the wait. */
static void body_peek(void *arg)
{
	uint32_t l3 = l3_pattern(N);
	volatile uint8_t *tile = pi_l2_malloc(N);
	pi_cl_ram_req_t req;
	uint8_t host[N];

	(void)arg;
	pi_cl_ram_copy(get_ram_ptr(), l3, (void *)tile, N, 1, &req);
	seen_before = peek(&tile[N - 1]);
	pi_cl_ram_copy_wait(&req);
	seen_after = tile[N - 1];
	dfz_dropin_l3_read(l3, host, N);
	want_after = host[N - 1];
}

START_TEST(test_inflight_poison_fill)
{
	/* Empty schedule: nothing ran before the read. */
	ck_assert_int_eq(run(body_peek, NULL, 0).finding.cls, DFZ_CLASS_NONE);
	ck_assert_uint_eq(seen_before, DFZ_POISON_BYTE);
	ck_assert_uint_eq(seen_after, want_after);
	ck_assert_uint_ne(want_after, DFZ_POISON_BYTE);
}
END_TEST

/* The CPU writes the source of a store still in flight: hazard.race,
 * naming the wait (where the engine finished) and the store. */
static void body_source_race(void *arg)
{
	uint32_t l3 = (uint32_t)(uintptr_t)cl_ram_malloc(N);
	uint8_t *tile = pi_l2_malloc(N);
	pi_cl_ram_req_t req;

	(void)arg;
	memset(tile, 1, N);
	prior_line = __LINE__ + 1;
	pi_cl_ram_copy(get_ram_ptr(), l3, tile, N, 0, &req);
	tile[7] = 2;
	want_line = __LINE__ + 1;
	pi_cl_ram_copy_wait(&req);
}

START_TEST(test_source_race)
{
	struct dfz__result r = run(body_source_race, NULL, 0);

	ck_assert_str_eq(dfz_class_name(r.finding.cls), "hazard.race");
	ck_assert_int_eq(r.site.line, want_line);
	ck_assert_int_eq(r.prior.line, prior_line);
}
END_TEST

/* A request issued and never waited: handle.leak at its issuing line. */
static void body_leak(void *arg)
{
	uint8_t *tile = pi_l2_malloc(N);
	static pi_cl_ram_req_t req;

	(void)arg;
	want_line = __LINE__ + 1;
	pi_cl_ram_copy(get_ram_ptr(), l3_pattern(N), tile, N, 1, &req);
}

START_TEST(test_leak_at_issue)
{
	struct dfz__result r = run(body_leak, NULL, 0);

	ck_assert_str_eq(dfz_class_name(r.finding.cls), "handle.leak");
	ck_assert_int_eq(r.site.line, want_line);
}
END_TEST

/* -------------------------------------------------------- cluster DMA */

static void body_cldma(void *arg)
{
	uint8_t *l2 = pi_l2_malloc(N), *l1 = pmsis_l1_malloc(N);
	pi_cl_dma_cmd_t cmd;
	pi_cl_dma_copy_t copy = { 0 };

	(void)arg;
	for (int i = 0; i < N; i++)
		l2[i] = (uint8_t)(i ^ 0x5a);
	pi_cl_dma_cmd((uint32_t)(uintptr_t)l2, (uint32_t)(uintptr_t)l1, 128,
		      PI_CL_DMA_DIR_EXT2LOC, &cmd);
	pi_cl_dma_cmd_wait(&cmd);
	copy.ext = (uint32_t)(uintptr_t)(l2 + 128);
	copy.loc = (uint32_t)(uintptr_t)(l1 + 128);
	copy.size = 128;
	copy.dir = PI_CL_DMA_DIR_EXT2LOC;
	pi_cl_dma_memcpy(&copy);
	pi_cl_dma_wait(&copy);
	ck_assert_mem_eq(l1, l2, N);
}

START_TEST(test_cldma_clean)
{
	uint8_t sched[32];

	ck_assert_int_eq(run(body_cldma, NULL, 0).finding.cls, DFZ_CLASS_NONE);
	memset(sched, 0x41, sizeof(sched));
	ck_assert_int_eq(run(body_cldma, sched, sizeof(sched)).finding.cls,
			 DFZ_CLASS_NONE);
}
END_TEST

/* -------------------------------------------------------------- reports */

/* SARIF: the user's lines relative to the source root, through SRCROOT. */
START_TEST(test_sarif_locations)
{
	struct dfz__result r = run(body_shared, NULL, 0);
	char *text = NULL, want[64];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	r.site.file = "/src/proj/tiles/loop.c";
	r.prior.file = "tiles/loop.c";
	ck_assert_int_eq(dfz__dropin_sarif(&r, "/", f), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "\"version\":\"2.1.0\""));
	ck_assert_ptr_nonnull(strstr(text, "\"ruleId\":\"handle.reuse\""));
	ck_assert_ptr_nonnull(strstr(text,
		"\"uri\":\"src/proj/tiles/loop.c\",\"uriBaseId\":\"SRCROOT\""));
	snprintf(want, sizeof(want), "\"region\":{\"startLine\":%d}", want_line);
	ck_assert_ptr_nonnull(strstr(text, want));
	ck_assert_ptr_nonnull(strstr(text, "\"relatedLocations\":[{"));
	ck_assert_ptr_nonnull(strstr(text,
		"\"originalUriBaseIds\":{\"SRCROOT\":{\"uri\":\"file:///\"}}"));
	free(text);
}
END_TEST

/* JSON: class, site and prior for a machine. */
START_TEST(test_json_sites)
{
	struct dfz__result r = run(body_shared, NULL, 0);
	char *text = NULL, want[128];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	dfz__dropin_print(&r, "x", true, f);
	fclose(f);
	snprintf(want, sizeof(want), "\"site\":{\"file\":\"%s\",\"line\":%d,"
		 "\"function\":\"body_shared\",\"stack\":[", __FILE__,
		 want_line);
	ck_assert_ptr_nonnull(strstr(text, want));
	ck_assert_ptr_nonnull(strstr(text, "\"class\":\"handle.reuse\""));
	free(text);
}
END_TEST

/* ------------------------------------------------------------ the team */

static uint8_t *team_tile;
static uint32_t team_l3;
static int order[64], norder;

/* Each core loads its eighth of the tile on its own request, waits, and
 * meets the others at the barrier; core 0 then checks the whole tile. */
static void team_kernel(void *arg)
{
	int id = pi_core_id();
	pi_cl_ram_req_t req;
	uint8_t host[N];

	(void)arg;
	if (norder < 64)
		order[norder++] = id;
	pi_cl_ram_copy(get_ram_ptr(), team_l3 + id * (N / 8),
		       team_tile + id * (N / 8), N / 8, 1, &req);
	if (norder < 64)
		order[norder++] = id;
	pi_cl_ram_copy_wait(&req);
	pi_cl_team_barrier();
	if (id == 0) {
		dfz_dropin_l3_read(team_l3, host, N);
		DFZ_DROPIN_CHECK(memcmp(team_tile, host, N) == 0);
	}
}

static void body_team(void *arg)
{
	(void)arg;
	team_l3 = l3_pattern(N);
	team_tile = pi_l2_malloc(N);
	norder = 0;
	pi_cl_team_fork(pi_cl_cluster_nb_cores(), team_kernel, NULL);
}

START_TEST(test_team_fork)
{
	uint8_t sched[64];
	int first[64], nfirst;
	bool differs = false;

	ck_assert_int_eq(run(body_team, NULL, 0).finding.cls, DFZ_CLASS_NONE);
	/* The empty schedule: one core at a time, in core order. */
	for (int i = 0; i < 16; i++)
		ck_assert_int_eq(order[i], i / 2);
	memcpy(first, order, sizeof(first));
	nfirst = norder;
	for (unsigned k = 1; k < 40; k++) {
		for (unsigned i = 0; i < sizeof(sched); i++)
			sched[i] = (uint8_t)(i * 59 + k * 17);
		ck_assert_int_eq(run(body_team, sched, sizeof(sched))
					 .finding.cls, DFZ_CLASS_NONE);
		differs |= norder != nfirst ||
			   memcmp(order, first, sizeof(first)) != 0;
	}
	ck_assert_msg(differs, "no schedule changed the interleaving");
}
END_TEST

/* pulpos: a fork of 0 cores keeps the last team's size; all 8 before. */
static unsigned team_seen;

static void count_core(void *arg)
{
	(void)arg;
	team_seen++;
}

static void body_team_zero(void *arg)
{
	(void)arg;
	team_seen = 0;
	pi_cl_team_fork(0, count_core, NULL);
	ck_assert_uint_eq(team_seen, 8);
	pi_cl_team_fork(3, count_core, NULL);
	pi_cl_team_fork(0, count_core, NULL);
	ck_assert_uint_eq(team_seen, 8 + 3 + 3);
}

START_TEST(test_team_zero_keeps_size)
{
	ck_assert_int_eq(run(body_team_zero, NULL, 0).finding.cls,
			 DFZ_CLASS_NONE);
	ck_assert_uint_eq(team_seen, 14);
}
END_TEST

/* A core that leaves the team before the barrier: a hang, at the fork. */
static void team_deserter(void *arg)
{
	(void)arg;
	if (pi_core_id() != 3)
		pi_cl_team_barrier();
}

static void body_deserter(void *arg)
{
	(void)arg;
	want_line = __LINE__ + 1;
	pi_cl_team_fork(8, team_deserter, NULL);
}

START_TEST(test_team_barrier_hang)
{
	struct dfz__result r = run(body_deserter, NULL, 0);

	ck_assert_str_eq(dfz_class_name(r.finding.cls), "dma.hang");
	ck_assert_int_eq(r.site.line, want_line);
}
END_TEST

/* --------------------------------------------------------- determinism */

/* A draw from one schedule byte is the byte mod the range, for every
 * byte and range (the decoder divides by a reciprocal there); a wider
 * range takes two bytes, little-endian. */
START_TEST(test_take_mod)
{
	static uint8_t bytes[258];
	static struct dfz__dropin d;

	for (unsigned v = 0; v < 256; v++)
		bytes[v] = (uint8_t)v;
	bytes[256] = 0x34;
	bytes[257] = 0x12;
	for (uint32_t m = 1; m <= 256; m++) {
		d.sched = (struct dfz__sched){ .buf = bytes, .n = 256 };
		for (uint32_t v = 0; v < 256; v++)
			ck_assert_uint_eq(dfz__dropin_take(&d, 7, 7 + m - 1),
					  7 + v % m);
	}
	d.sched = (struct dfz__sched){ .buf = bytes, .n = 258, .at = 256 };
	ck_assert_uint_eq(dfz__dropin_take(&d, 0, 999), 0x1234 % 1000);
	ck_assert_uint_eq(dfz__dropin_take(&d, 5, 9), 5); /* ran out */
	/* three and four bytes for wider ranges, as few as they need */
	d.sched = (struct dfz__sched){ .buf = bytes + 1, .n = 7 };
	ck_assert_uint_eq(dfz__dropin_take(&d, 0, 0xffffffu), 0x030201u);
	ck_assert_uint_eq(dfz__dropin_take(&d, 0, 0x1000000u),
			  0x07060504u % 0x1000001u);
	ck_assert_uint_eq(d.sched.at, 7);
	d.sched = (struct dfz__sched){ .buf = bytes + 1, .n = 4 };
	ck_assert_uint_eq(dfz__dropin_take(&d, 1, 0), 1); /* empty range */
	ck_assert_uint_eq(dfz__dropin_take(&d, 0, UINT32_MAX), 0x04030201u);
	ck_assert_uint_eq(dfz__dropin_take(&d, 0, 0x100), 0);  /* ran out */
}
END_TEST

START_TEST(test_same_bytes_same_verdict)
{
	uint8_t sched[48];
	struct dfz__result a, b;

	for (unsigned i = 0; i < sizeof(sched); i++)
		sched[i] = (uint8_t)(i * 13 + 1);
	a = run(body_shared, sched, sizeof(sched));
	b = run(body_shared, sched, sizeof(sched));
	ck_assert_int_eq(a.finding.cls, b.finding.cls);
	ck_assert_str_eq(a.finding.msg, b.finding.msg);
	ck_assert_uint_eq(a.steps, b.steps);
}
END_TEST

Suite *suite_dropin(void)
{
	Suite *s = suite_create("dropin");
	TCase *tc = tcase_create("pmsis");

	tcase_add_test(tc, test_pulp_addresses);
	tcase_add_test(tc, test_mapping_taken);
	tcase_add_test(tc, test_ram_helpers);
	tcase_add_test(tc, test_requests_anywhere);
	tcase_add_test(tc, test_shared_request_site);
	tcase_add_test(tc, test_clobbered_request);
	tcase_add_test(tc, test_bad_address);
	tcase_add_test(tc, test_inflight_poison_fill);
	tcase_add_test(tc, test_source_race);
	tcase_add_test(tc, test_leak_at_issue);
	tcase_add_test(tc, test_cldma_clean);
	tcase_add_test(tc, test_take_mod);
	tcase_add_test(tc, test_same_bytes_same_verdict);
	tcase_add_test(tc, test_sarif_locations);
	tcase_add_test(tc, test_team_fork);
	tcase_add_test(tc, test_team_barrier_hang);
	tcase_add_test(tc, test_team_zero_keeps_size);
	tcase_add_test(tc, test_json_sites);
	suite_add_tcase(s, tc);
	return s;
}
