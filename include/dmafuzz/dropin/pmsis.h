/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz drop-in for PMSIS (pulp-sdk pmsis_api): the cluster DMA
 * (pi_cl_dma_*, pulpos semantics on dmafuzz's mchan engine: each command
 * takes a TID of its own, which its wait frees), memory (pi_l2_malloc,
 * pmsis_l1_malloc, pi_cl_l1_malloc and the PI_L2 / PI_CL_L1 / PI_L1
 * placement attributes) and the cluster (pi_core_id, pi_cl_team_fork,
 * pi_cl_team_barrier, pi_cluster_task, pi_cluster_send_task_to_cl).
 *
 * Each SDK name is a macro over a dfz_dropin_* function that also gets the
 * caller's file, line and function (struct dfz_site), so that a finding
 * names the user's line. Addresses the SDK carries as uint32_t stay
 * uint32_t: L1 and L2 live at the PULP addresses (0x10000000,
 * 0x1C000000), so the (uint32_t) casts of 32-bit code round-trip. Build
 * with `pkg-config --cflags dmafuzz-dropin`: it also silences the
 * pointer/int size warnings that such casts raise on a 64-bit host.
 */
#ifndef DMAFUZZ_DROPIN_PMSIS_H
#define DMAFUZZ_DROPIN_PMSIS_H

#include <stddef.h>
#include <stdint.h>

#include "dmafuzz/dropin.h"

/* --------------------------------------------------------------- device */

struct pi_device {
	void *api;
	void *config;
	void *data;
};

/* --------------------------------------------------------------- memory */

/* Placement of statics, as the SDK's linker script does: sections that
 * the drop-in's link flags (pkg-config --libs dmafuzz-dropin) put at the
 * start of L2 and of the cluster's L1, so that the engines move them and
 * the oracles see them like any L2/L1 byte. The fabric controller's own
 * L1 is SoC-side memory: the model keeps it in L2. */
#define PI_L2 __attribute__((section("dfz_l2"), aligned(8)))
#define PI_FC_L1 __attribute__((section("dfz_l2"), aligned(8)))
#define PI_L1 __attribute__((section("dfz_l1"), aligned(8)))
#define PI_CL_L1 __attribute__((section("dfz_l1"), aligned(8)))

void *dfz_dropin_malloc(struct dfz_site s, int level, uint32_t size);
void dfz_dropin_free(struct dfz_site s, int level, void *ptr, uint32_t size);

#define pi_l2_malloc(size) dfz_dropin_malloc(DFZ_SITE, DFZ_L2, (uint32_t)(size))
#define pi_l2_free(ptr, size)                                                 \
	dfz_dropin_free(DFZ_SITE, DFZ_L2, (ptr), (uint32_t)(size))
#define pmsis_l2_malloc(size) pi_l2_malloc(size)
#define pmsis_l2_malloc_free(ptr, size) pi_l2_free((ptr), (size))
#define pmsis_l1_malloc(size)                                                 \
	dfz_dropin_malloc(DFZ_SITE, DFZ_L1, (uint32_t)(size))
#define pmsis_l1_malloc_free(ptr, size)                                       \
	dfz_dropin_free(DFZ_SITE, DFZ_L1, (ptr), (uint32_t)(size))
#define pi_cl_l1_malloc(dev, size)                                            \
	((void)(dev), dfz_dropin_malloc(DFZ_SITE, DFZ_L1, (uint32_t)(size)))
#define pi_cl_l1_free(dev, ptr, size)                                         \
	((void)(dev), dfz_dropin_free(DFZ_SITE, DFZ_L1, (ptr), (uint32_t)(size)))

/* -------------------------------------------------------------- cluster */

struct pi_task;

/* As pulpos declares it; only entry and arg are used here. */
struct pi_cluster_task {
	void (*entry)(void *arg);
	void *arg;
	void *stacks;
	uint32_t stack_size;
	uint32_t slave_stack_size;
	int nb_cores;
	struct pi_task *completion_callback;
	int stack_allocated;
	struct pi_cluster_task *next;
	int core_mask;
};

int dfz_dropin_core_id(void);
int dfz_dropin_nb_cores(void);
void dfz_dropin_team_fork(struct dfz_site s, int nb_cores,
			  void (*entry)(void *), void *arg);
void dfz_dropin_team_barrier(struct dfz_site s);
int dfz_dropin_send_task(struct dfz_site s, struct pi_device *device,
			 struct pi_cluster_task *task);

static inline int pi_core_id(void) { return dfz_dropin_core_id(); }
static inline int pi_cl_cluster_nb_cores(void) { return dfz_dropin_nb_cores(); }

static inline struct pi_cluster_task *
pi_cluster_task(struct pi_cluster_task *task, void (*entry)(void *), void *arg)
{
	*task = (struct pi_cluster_task){ .entry = entry, .arg = arg };
	return task;
}

#define pi_cl_team_fork(nb_cores, entry, arg)                                 \
	dfz_dropin_team_fork(DFZ_SITE, (nb_cores), (entry), (arg))
#define pi_cl_team_barrier() dfz_dropin_team_barrier(DFZ_SITE)
#define pi_cluster_send_task_to_cl(dev, task)                                 \
	dfz_dropin_send_task(DFZ_SITE, (dev), (task))
#define pi_cluster_send_task(dev, task) pi_cluster_send_task_to_cl(dev, task)

/* The cluster DMA, at the SDK's own path. */
#include "dmafuzz/dropin/pmsis/cluster/dma/cl_dma.h"

/* The cluster RAM API too: generated code that calls pi_cl_ram_* (and
 * Deeploy's get_ram_ptr) compiles with pmsis.h as its one include. */
#include "dmafuzz/dropin/bsp/ram.h"

#endif /* DMAFUZZ_DROPIN_PMSIS_H */
