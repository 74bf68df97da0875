/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz drop-in for the PMSIS cluster DMA (pulp-sdk pmsis_api
 * include/pmsis/cluster/dma/cl_dma.h, pulpos semantics): commands and
 * copies on dmafuzz's mchan engine, each command taking a TID of its own
 * which its wait frees. Included by pmsis.h; at the SDK's path for code
 * that includes it by name.
 */
#ifndef DMAFUZZ_DROPIN_PMSIS_CL_DMA_H
#define DMAFUZZ_DROPIN_PMSIS_CL_DMA_H

#include <stdint.h>

#include "dmafuzz/dropin.h"

/* ---------------------------------------------------------- cluster DMA */

typedef enum {
	PI_CL_DMA_DIR_LOC2EXT = 0,
	PI_CL_DMA_DIR_EXT2LOC = 1,
} pi_cl_dma_dir_e;

/* A command: the TID its push took (pulpos pos/implem/dma.h). The other
 * words are those of the SDKs that emulate large transfers (pulp-rt,
 * gap_sdk: cldma-emul-64k), which keep a command's progress in it and
 * link it into their FIFO by `next`. */
typedef struct pi_cl_dma_cmd_s {
	int id;
	uint32_t cmd;
	uint32_t size;
	uint32_t stride;
	uint32_t length;
	uint32_t loc_addr;
	uint32_t ext_addr;
	struct pi_cl_dma_cmd_s *next;
} pi_cl_dma_cmd_t;

/* A copy as pi_cl_dma_memcpy() takes it. */
typedef struct pi_cl_dma_copy_s {
	uint32_t ext;
	uint32_t loc;
	uint32_t id;
	uint16_t size;
	pi_cl_dma_dir_e dir;
	uint8_t merge;
	uint32_t stride;
	uint32_t length;
} pi_cl_dma_copy_t;

typedef pi_cl_dma_copy_t pi_cl_dma_copy_2d_t;

void dfz_dropin_cl_dma(struct dfz_site s, uint32_t ext, uint32_t loc,
		       uint32_t size, uint32_t stride, uint32_t length,
		       int is_2d, pi_cl_dma_dir_e dir, int *id);
void dfz_dropin_cl_dma_wait(struct dfz_site s, int id);
void dfz_dropin_cl_dma_cmd_wait(struct dfz_site s, pi_cl_dma_cmd_t *cmd);
void dfz_dropin_cl_dma_cmd(struct dfz_site s, uint32_t ext, uint32_t loc,
			   uint32_t size, pi_cl_dma_dir_e dir,
			   pi_cl_dma_cmd_t *cmd);
void dfz_dropin_cl_dma_cmd_2d(struct dfz_site s, uint32_t ext, uint32_t loc,
			      uint32_t size, uint32_t stride, uint32_t length,
			      pi_cl_dma_dir_e dir, pi_cl_dma_cmd_t *cmd);
void dfz_dropin_cl_dma_copy(struct dfz_site s, pi_cl_dma_copy_t *copy,
			    int is_2d);
void dfz_dropin_cl_dma_copy_wait(struct dfz_site s, void *copy);
void dfz_dropin_cl_dma_flush(struct dfz_site s);

/**
 * dfz_dropin_cl_dma_merge() - a cluster DMA command pushed on the TID the
 * calling core allocated last (the hardware's behaviour for a push
 * without an allocation; the SDKs' merge flag): no TID of its own, so the
 * wait of the command that allocated that TID covers it. A core that
 * allocated none, or whose last TID is free again, is handle.stale at the
 * call. Not an SDK name: what at_api.h's AT_L2_COPY_MERGED and a merged
 * pi_cl_dma_memcpy() run.
 */
void dfz_dropin_cl_dma_merge(struct dfz_site s, uint32_t ext, uint32_t loc,
			     uint32_t size, uint32_t stride, uint32_t length,
			     int is_2d, pi_cl_dma_dir_e dir);

#define DFZ__ADDR(a) ((uint32_t)(uintptr_t)(a))

#define pi_cl_dma_cmd(ext, loc, size, dir, cmd)                               \
	dfz_dropin_cl_dma_cmd(DFZ_SITE, DFZ__ADDR(ext), DFZ__ADDR(loc),       \
			      (size), (dir), (cmd))
/* As the GAP SDK's: the command's id, and its length cleared (a wait
 * reads a non-zero length as an emulated command's). */
#define pi_cl_dma_cmd_2d(ext, loc, size, stride, length, dir, cmd)            \
	dfz_dropin_cl_dma_cmd_2d(DFZ_SITE, DFZ__ADDR(ext), DFZ__ADDR(loc),    \
				 (size), (stride), (length), (dir), (cmd))
#define pi_cl_dma_cmd_wait(cmd) dfz_dropin_cl_dma_cmd_wait(DFZ_SITE, (cmd))
/* cldma-copy-aliases (pulpos, default on): the TID goes over copy->ext
 * and the wait reads it there; off: copy->id. A copy with merge set takes
 * no TID: it is pushed on the core's last one and its struct keeps its
 * words (pulpos). */
#define pi_cl_dma_memcpy(copy) dfz_dropin_cl_dma_copy(DFZ_SITE, (copy), 0)
#define pi_cl_dma_memcpy_2d(copy) dfz_dropin_cl_dma_copy(DFZ_SITE, (copy), 1)
#define pi_cl_dma_wait(copy) dfz_dropin_cl_dma_copy_wait(DFZ_SITE, (copy))
#define pi_cl_dma_flush() dfz_dropin_cl_dma_flush(DFZ_SITE)

#endif /* DMAFUZZ_DROPIN_PMSIS_CL_DMA_H */
