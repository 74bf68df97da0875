/* SPDX-License-Identifier: MIT */
/* The tile loader of loader.c and the test body's bookkeeping. */
#ifndef LOADER_H
#define LOADER_H

#include <pmsis.h>
#include <bsp/ram.h>

struct loader {
	pi_cl_ram_req_t *req;   /* the read in flight */
	pi_cl_ram_req_t slot;   /* where the request lives (fixed) */
};

void start_load(struct loader *ld, uint32_t ext, uint8_t *tile, uint32_t n);
void finish_load(struct loader *ld);
void remember(struct loader *ld, pi_cl_ram_req_t *r);

#endif
