/* SPDX-License-Identifier: MIT */
/*
 * A tile job kept in one L2 block: the request of its load and the
 * tile's bytes. The test body issues the load, checks the tile after the
 * wait and frees the job. Clean as written.
 *
 * FREE_EARLY (test_freed.c): the job is freed as soon as its tile was
 * copied out, which comes before the wait on the request it holds; the
 * engine still holds that request (the driver's queue node), so dmafuzz
 * reports mem.use-after-free at the free's line, naming the block and
 * the read that issued the request. On the chip the wait would spin on
 * whatever the allocator wrote into the block.
 */
#include <pmsis.h>
#include <bsp/ram.h>
#include <dmafuzz/dropin.h>

#define N 256

struct job {
	pi_cl_ram_req_t req;        /* the load, the driver's queue node */
	uint8_t tile[N];
};

static void body(void *arg)
{
	uint8_t host[N], copy[N];
	uint32_t l3 = (uint32_t)cl_ram_malloc(N);
	struct job *job = pi_l2_malloc(sizeof(*job));
	pi_cl_ram_req_t *req = &job->req;
	unsigned bad = 0;

	(void)arg;
	for (unsigned i = 0; i < N; i++)
		host[i] = (uint8_t)(i * 13 + 5);
	dfz_dropin_l3_write(l3, host, N);
	pi_cl_ram_read(get_ram_ptr(), l3, job->tile, N, req); /* dfz-expect: AT */
#ifdef FREE_EARLY
	pi_l2_free(job, sizeof(*job)); /* dfz-expect: FREE */
	pi_cl_ram_read_wait(req);
	for (unsigned i = 0; i < N; i++)
		copy[i] = host[i];
#else
	pi_cl_ram_read_wait(req);
	for (unsigned i = 0; i < N; i++)
		copy[i] = job->tile[i];
	pi_l2_free(job, sizeof(*job));
#endif
	for (unsigned i = 0; i < N; i++)
		bad += copy[i] != host[i];
	DFZ_DROPIN_CHECK(bad == 0);
	cl_ram_free((void *)(uintptr_t)l3, N);
}

DFZ_DROPIN_MAIN(body, NULL)
