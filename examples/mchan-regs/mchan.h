/* SPDX-License-Identifier: MIT */
/*
 * Our own register-level MCHAN v7 header, in the shape of the one DORY
 * and Deeploy ship next to their GAP9 DMA library: the DMA is driven by
 * volatile loads and stores to its command and status registers, and
 * `#include "mchan.h"` finds this file before the drop-in's. The file
 * that includes it defines MCHAN_BASE_ADDR and MCHAN_EVENT or
 * MCHAN_POLLED first.
 */
#ifndef EXAMPLE_MCHAN_H
#define EXAMPLE_MCHAN_H

#ifndef MCHAN_BASE_ADDR
#error "define MCHAN_BASE_ADDR before including mchan.h"
#endif

#include "pmsis.h"

#define MCHAN_CMD_REG (MCHAN_BASE_ADDR + 0)
#define MCHAN_STATUS_REG (MCHAN_BASE_ADDR + 4)

#define REG_RD(a) (*(volatile int *)(a))
#define REG_WR(a, v) do { *(volatile int *)(a) = (int)(v); } while (0)

/* v7 command word: a 17-bit length, then the flags. */
#define MCHAN_LEN_BITS 17
#define MCHAN_DIR_EXT2LOC (1 << (MCHAN_LEN_BITS + 0))
#define MCHAN_INCREMENTAL (1 << (MCHAN_LEN_BITS + 1))
#define MCHAN_EXT_2D (1 << (MCHAN_LEN_BITS + 2))
#define MCHAN_EVENT_EN (1 << (MCHAN_LEN_BITS + 3))
#define MCHAN_LOC_2D (1 << (MCHAN_LEN_BITS + 6))

typedef struct {
	int cmd;
	void *loc;
	void *ext;
	int ext_line;      /* 2-D external: bytes per line */
	int ext_stride;    /* 2-D external: line start to next */
} mchan_cmd_t;

static inline int mchan_alloc(void)
{
	return REG_RD(MCHAN_CMD_REG);
}

static inline void mchan_push_1d(mchan_cmd_t c)
{
	REG_WR(MCHAN_CMD_REG, c.cmd);
	REG_WR(MCHAN_CMD_REG, c.loc);
	REG_WR(MCHAN_CMD_REG, c.ext);
}

static inline void mchan_push_2d(mchan_cmd_t c)
{
	REG_WR(MCHAN_CMD_REG, c.cmd);
	REG_WR(MCHAN_CMD_REG, c.loc);
	REG_WR(MCHAN_CMD_REG, c.ext);
	REG_WR(MCHAN_CMD_REG, c.ext_line);
	REG_WR(MCHAN_CMD_REG, c.ext_stride);
}

static inline int mchan_busy(int tid)
{
	return REG_RD(MCHAN_STATUS_REG) & (1 << tid);
}

static inline void mchan_release(int tid)
{
	REG_WR(MCHAN_STATUS_REG, 1 << tid);
}

static inline void mchan_barrier(int tid)
{
#if defined(MCHAN_EVENT)
	while (mchan_busy(tid))
		eu_evt_maskWaitAndClr(1 << MCHAN_EVENT_BIT);
#else
	while (mchan_busy(tid))
		;
#endif
}

#endif /* EXAMPLE_MCHAN_H */
