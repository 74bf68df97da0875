/* SPDX-License-Identifier: MIT */
/*
 * The wrapper's two calls over the PMSIS cluster RAM API: one request per
 * job, a flag that says whether the job has a load to wait for.
 */
#include "dma_wrap.h"

void dw_load(dw_job_t *job, void *dst, uint32_t l3, uint32_t size)
{
	pi_cl_ram_read(get_ram_ptr(), l3, dst, size, &job->req); /* dfz-expect: AT */
	job->busy = 1;
}

void dw_wait(dw_job_t *job)
{
	if (job->busy)
		pi_cl_ram_read_wait(&job->req);
	job->busy = 0;
}
