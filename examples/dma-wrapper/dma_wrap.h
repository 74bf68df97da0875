/* SPDX-License-Identifier: MIT */
/*
 * A user's own DMA wrapper library, as runtimes keep one between their
 * kernels and the SDK: a job is one L3 -> L2 load on its own cluster RAM
 * request, started by dw_load() and finished by dw_wait(). The kernels
 * call the wrapper, never the SDK: a finding inside the wrapper names the
 * wrapper's line and the kernel's line that called it.
 */
#ifndef DMA_WRAP_H
#define DMA_WRAP_H

#include <stdint.h>
#include <pmsis.h>
#include <bsp/ram.h>

typedef struct dw_job {
	pi_cl_ram_req_t req;
	int busy;
} dw_job_t;

/* Start loading @size bytes from L3 address @l3 into @dst on @job. */
void dw_load(dw_job_t *job, void *dst, uint32_t l3, uint32_t size);
/* Wait for @job's load to land. */
void dw_wait(dw_job_t *job);

#endif
