/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz drop-in for PMSIS (pulp-sdk pmsis_api and pulpos, gap_sdk
 * pmsis/api and pulpos-2): the program around the DMA calls. Devices and
 * the cluster's bring-up (struct pi_cluster_conf, pi_open_from_conf,
 * pi_cluster_open / _close), tasks (pi_task_t, blocking and callback
 * tasks, pi_yield), pmsis_kickoff / pmsis_exit, the core queries, the
 * team fork, barrier and critical section (the event unit's mutex), the
 * performance counters, memory (pi_l2_malloc, pmsis_l1_malloc,
 * pi_cl_l1_malloc and the PI_L2 / PI_CL_L1 / PI_L1 placements), then the
 * cluster DMA (pmsis/cluster/dma/cl_dma.h) and the RAM API (bsp/ram.h).
 *
 * Each name that acts is a macro over a dfz_dropin_* function that also
 * gets the caller's file, line and function (struct dfz_site), so that a
 * finding names the user's line. The SDKs declare some functions without
 * a prototype (`void pi_cl_team_barrier();`) and code passes arguments to
 * them: those names are variadic macros that accept and ignore them.
 * Addresses the SDK carries as uint32_t stay uint32_t: L1 and L2 live at
 * the PULP addresses (0x10000000, 0x1C000000), so the (uint32_t) casts of
 * 32-bit code round-trip. Build with `pkg-config --cflags dmafuzz-dropin`.
 * What each name means on the host: docs/porting/pmsis.md.
 */
#ifndef DMAFUZZ_DROPIN_PMSIS_H
#define DMAFUZZ_DROPIN_PMSIS_H

/* What the SDKs' pmsis.h brings: real code calls memcpy, printf and
 * exit with nothing else included (and DORY's layers log2). */
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "dmafuzz/dropin.h"
#include "dmafuzz/dropin/pulp_types.h"

/* ------------------------------------------------------ devices, errors */

typedef enum {
	PI_OK = 0,
	PI_FAIL = -1,
} pi_err_e;

typedef enum {
	PI_DEVICE_UNKWN_TYPE,
	PI_DEVICE_CLUSTER_TYPE,
	PI_DEVICE_HYPERBUS_TYPE,
	PI_DEVICE_SPI_TYPE,
	PI_DEVICE_CPI_TYPE,
	PI_DEVICE_I2C_TYPE,
	PI_DEVICE_GPIO_TYPE,
	PI_DEVICE_PWM_TYPE
} pi_device_e;

struct pi_device_api;

/* As pmsis_types.h: the driver's methods, its configuration (what
 * pi_open_from_conf() stores) and its data. */
typedef struct pi_device {
	struct pi_device_api *api;
	void *config;
	void *data;
} pi_device_t;

void dfz_dropin_open_from_conf(struct dfz_site s, struct pi_device *device,
			       void *conf);
#define pi_open_from_conf(device, conf)                                       \
	dfz_dropin_open_from_conf(DFZ_SITE, (device), (void *)(conf))

/* What the device headers (bsp/) share: a conf_init (the conf zeroed),
 * an open or close with nothing to set up on the host, and a call the
 * host cannot give a meaning, refused at its line (rt.refused; -1). */
void dfz_dropin_conf_init(struct dfz_site s, void *conf, size_t size);
int dfz_dropin_dev_open(struct dfz_site s, struct pi_device *device,
			const char *what);
int dfz_dropin_refuse(struct dfz_site s, const char *name);

/* The GPIO and pad names, as types only (a program's declarations). */
typedef enum { PI_GPIO_NONE } pi_gpio_e;
typedef enum { PI_PAD_NONE } pi_pad_e;

/* ---------------------------------------------------------------- tasks */

typedef void (*pi_callback_func_t)(void *arg);

/* As pulpos: the link, the callback and its argument, the done flag the
 * waits poll. The drop-in's own words follow (the request of the RAM
 * copy the task completes, which the ram engine links as the driver
 * does, and how the task ends). */
typedef struct pi_task {
	struct pi_task *next;
	uintptr_t arg[4];
	int8_t done;
	int id;
	uint32_t data[8];
	struct dfz_ram_req dfz_req;
	uint8_t dfz_kind;             /* 0 blocking, 1 callback */
	uint8_t dfz_busy;             /* a RAM copy or a cluster task */
} pi_task_t;

typedef struct pi_callback_s {
	struct pi_task *next;
	pi_callback_func_t entry;
	void *arg;
} pi_callback_t;

pi_task_t *dfz_dropin_task_init(struct dfz_site s, pi_task_t *task, int kind,
				pi_callback_func_t fn, void *arg);
void dfz_dropin_task_wait(struct dfz_site s, pi_task_t *task);
void dfz_dropin_task_push(struct dfz_site s, pi_task_t *task);
void dfz_dropin_yield(struct dfz_site s);

#define pi_task_block(task)                                                   \
	dfz_dropin_task_init(DFZ_SITE, (task), 0, NULL, NULL)
#define pi_task_callback(task, fn, arg)                                       \
	dfz_dropin_task_init(DFZ_SITE, (task), 1, (fn), (void *)(arg))
#define pi_task_wait_on(task) dfz_dropin_task_wait(DFZ_SITE, (task))
#define pi_task_push(task) dfz_dropin_task_push(DFZ_SITE, (task))
#define pi_task_destroy(task) ((void)(task))
#define pi_task_block_no_mutex(task) pi_task_block(task)
#define pi_task_callback_no_mutex(task, fn, arg) pi_task_callback(task, fn, arg)
#define pi_task_wait_on_no_mutex(task) pi_task_wait_on(task)
#define pi_yield(...) dfz_dropin_yield(DFZ_SITE)
#define pi_yield_polling(...) dfz_dropin_yield(DFZ_SITE)

static inline pi_callback_t *pi_callback_init(pi_callback_t *cb,
					      pi_callback_func_t fn, void *arg)
{
	cb->entry = fn;
	cb->arg = arg;
	cb->next = NULL;
	return cb;
}

/* --------------------------------------------------- kickoff, exit, time */

int dfz_dropin_kickoff(struct dfz_site s, void *entry);
void dfz_dropin_pmsis_exit(struct dfz_site s, int err)
	__attribute__((noreturn));
void dfz_dropin_wait_us(struct dfz_site s, int us);

#define pmsis_kickoff(arg) dfz_dropin_kickoff(DFZ_SITE, (void *)(arg))
#define pmsis_exit(err) dfz_dropin_pmsis_exit(DFZ_SITE, (int)(err))
#define pi_time_wait_us(us) dfz_dropin_wait_us(DFZ_SITE, (int)(us))
#define disable_irq(...) 0
#define restore_irq(...) ((void)0)

#define PI_PLATFORM_OTHER 0
#define PI_PLATFORM_FPGA 1
#define PI_PLATFORM_RTL 2
#define PI_PLATFORM_GVSOC 3
#define PI_PLATFORM_BOARD 4
#define pi_platform(...) PI_PLATFORM_OTHER

/* --------------------------------------------------------------- memory */

/* Placement of statics, as the SDK's linker script does: sections that
 * the drop-in's link flags (pkg-config --libs dmafuzz-dropin) put at the
 * start of L2 and of the cluster's L1, so that the engines move them and
 * the oracles see them like any L2/L1 byte. The fabric controller's own
 * L1 is SoC-side memory: the model keeps it in L2. */
#define PI_L2 __attribute__((section("dfz_l2"), aligned(8)))
#define PI_FC_L1 __attribute__((section("dfz_l2"), aligned(8)))
#define PI_FC_L1_TINY PI_FC_L1
#define PI_FC_TINY PI_FC_L1
#define PI_L1 __attribute__((section("dfz_l1"), aligned(8)))
#define PI_CL_L1 __attribute__((section("dfz_l1"), aligned(8)))
#define PI_CL_L1_TINY PI_CL_L1

void *dfz_dropin_malloc(struct dfz_site s, int level, uint32_t size);
void dfz_dropin_free(struct dfz_site s, int level, void *ptr, uint32_t size);

#define pi_l2_malloc(size) dfz_dropin_malloc(DFZ_SITE, DFZ_L2, (uint32_t)(size))
#define pi_l2_free(ptr, size)                                                 \
	dfz_dropin_free(DFZ_SITE, DFZ_L2, (void *)(ptr), (uint32_t)(size))
#define pi_l2_malloc_align(size, align) ((void)(align), pi_l2_malloc(size))
#define pmsis_l2_malloc(size) pi_l2_malloc(size)
#define pmsis_l2_malloc_align(size, align) pi_l2_malloc_align(size, align)
#define pmsis_l2_malloc_free(ptr, size) pi_l2_free((ptr), (size))
#define pi_fc_l1_malloc(size) pi_l2_malloc(size)
#define pi_fc_l1_free(ptr, size) pi_l2_free((ptr), (size))
#define pi_fc_tcdm_malloc(size) pi_l2_malloc(size)
#define pi_fc_tcdm_free(ptr, size) pi_l2_free((ptr), (size))
#define pmsis_fc_tcdm_malloc(size) pi_l2_malloc(size)
#define pi_cl_l1_malloc(dev, size)                                            \
	((void)(dev), dfz_dropin_malloc(DFZ_SITE, DFZ_L1, (uint32_t)(size)))
#define pi_cl_l1_free(dev, ptr, size)                                         \
	((void)(dev), dfz_dropin_free(DFZ_SITE, DFZ_L1, (void *)(ptr),       \
				      (uint32_t)(size)))
#define pi_cl_l1_malloc_align(dev, size, align)                               \
	((void)(align), pi_cl_l1_malloc((dev), (size)))
#define pmsis_l1_malloc(size) pi_cl_l1_malloc(NULL, (size))
#define pmsis_l1_malloc_align(size, align)                                    \
	pi_cl_l1_malloc_align(NULL, (size), (align))
#define pmsis_l1_malloc_free(ptr, size) pi_cl_l1_free(NULL, (ptr), (size))
#define pi_l1_malloc(dev, size) pi_cl_l1_malloc((dev), (size))
#define pi_l1_free(dev, ptr, size) pi_cl_l1_free((dev), (ptr), (size))
#define pi_l2_malloc_dump(...) ((void)0)
#define pi_cl_l1_malloc_dump(...) ((void)0)

/* ------------------------------------------------------------- cluster */

typedef enum {
	PI_CLUSTER_FLAGS_FORK_BASED = (0 << 0),
	PI_CLUSTER_FLAGS_TASK_BASED = (1 << 0),
} pi_cluster_flags_e;

#define PI_CL_CC_STACK_SIZE 0x800

/* pulp-sdk's members, then gap_sdk's (GAP9). */
struct pi_cluster_conf {
	pi_device_e device_type;
	int id;
	void *heap_start;
	uint32_t heap_size;
	struct pmsis_event_kernel_wrap *event_kernel;
	pi_cluster_flags_e flags;
	uint32_t cc_stack_size;
	uint32_t scratch_size;
};

/* pulpos's members (pulp-sdk), then gap_sdk's. */
typedef struct pi_cluster_task {
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
	uint32_t scratch_size;
	uint8_t priority;
} pi_cluster_task_t;

struct pi_cl_team_task {
	void *stacks;
	uint32_t stack_size;
	int core_mask;
	int nb_cores;
};

void dfz_dropin_cluster_conf_init(struct dfz_site s,
				  struct pi_cluster_conf *conf);
int dfz_dropin_cluster_open(struct dfz_site s, struct pi_device *device,
			    int open);
int dfz_dropin_core_id(void);
int dfz_dropin_nb_cores(void);
int dfz_dropin_team_nb_cores(void);
void dfz_dropin_team_fork(struct dfz_site s, int nb_cores,
			  void (*entry)(void *), void *arg);
void dfz_dropin_team_barrier(struct dfz_site s);
void dfz_dropin_team_critical(struct dfz_site s, int enter);
int dfz_dropin_send_task(struct dfz_site s, struct pi_device *device,
			 struct pi_cluster_task *task, pi_task_t *done);
struct pi_cluster_task *dfz_dropin_cluster_task(struct dfz_site s,
						struct pi_cluster_task *task,
						void (*entry)(void *),
						void *arg);

#define pi_cluster_conf_init(conf)                                            \
	dfz_dropin_cluster_conf_init(DFZ_SITE, (conf))
#define pi_cluster_open(dev) dfz_dropin_cluster_open(DFZ_SITE, (dev), 1)
#define pi_cluster_close(dev) dfz_dropin_cluster_open(DFZ_SITE, (dev), 0)
#define pi_cluster_open_async(dev, task)                                      \
	(pi_task_push(task), pi_cluster_open(dev))
#define pi_cluster_close_async(dev, task)                                     \
	(pi_task_push(task), pi_cluster_close(dev))
#define pi_cluster_is_on(...) 1
#define pi_cluster_wait_free(dev) ((void)(dev))
#define pi_cluster_task(task, entry, arg)                                     \
	dfz_dropin_cluster_task(DFZ_SITE, (task), (entry), (void *)(arg))
#define pi_cluster_task_stacks(task, stacks, size)                            \
	((void)(stacks), (void)(size), (task))
#define pi_cluster_task_priority(task, prio) ((void)(task), (void)(prio))
#define pi_cluster_send_task_to_cl(dev, task)                                 \
	dfz_dropin_send_task(DFZ_SITE, (dev), (task), NULL)
#define pi_cluster_send_task(dev, task)                                       \
	dfz_dropin_send_task(DFZ_SITE, (dev), (task), NULL)
#define pi_cluster_enqueue_task(dev, task)                                    \
	dfz_dropin_send_task(DFZ_SITE, (dev), (task), NULL)
#define pi_cluster_send_task_to_cl_async(dev, task, done)                     \
	dfz_dropin_send_task(DFZ_SITE, (dev), (task), (done))
#define pi_cluster_send_task_async(dev, task, done)                           \
	dfz_dropin_send_task(DFZ_SITE, (dev), (task), (done))
#define pi_cluster_enqueue_task_async(dev, task, done)                        \
	dfz_dropin_send_task(DFZ_SITE, (dev), (task), (done))

/* The core queries. pulpos declares them without a prototype: any
 * arguments are accepted. pi_cl_cluster_nb_cores() counts the cluster's
 * processing elements (DFZ_DROPIN_CORES), pi_cl_team_nb_cores() the cores
 * of the last fork. The fabric controller is cluster 0's core 0 here
 * (the body runs as core 0, outside any fork). */
#define pi_core_id(...) dfz_dropin_core_id()
#define pi_cluster_id(...) 0
#define pi_is_fc(...) 0
#define pi_cl_cluster_nb_cores(...) dfz_dropin_nb_cores()
#define pi_cl_cluster_nb_pe_cores(...) dfz_dropin_nb_cores()
#define pi_cl_team_nb_cores(...) dfz_dropin_team_nb_cores()

#define pi_cl_team_fork(nb_cores, entry, arg)                                 \
	dfz_dropin_team_fork(DFZ_SITE, (nb_cores), (entry), (void *)(arg))
#define pi_cl_team_barrier(...) dfz_dropin_team_barrier(DFZ_SITE)
#define pi_cl_team_critical_enter(...) dfz_dropin_team_critical(DFZ_SITE, 1)
#define pi_cl_team_critical_exit(...) dfz_dropin_team_critical(DFZ_SITE, 0)
/* pi_cl_team_prepare_fork(n) sets the team of the forks that
 * pi_cl_team_preset_fork() starts. */
void dfz_dropin_team_prepare(struct dfz_site s, int nb_cores);
#define pi_cl_team_prepare_fork(nb_cores)                                     \
	dfz_dropin_team_prepare(DFZ_SITE, (nb_cores))
#define pi_cl_team_preset_fork(entry, arg)                                    \
	dfz_dropin_team_fork(DFZ_SITE, 0, (entry), (void *)(arg))
/* The event unit's mutexes (gap_archi hal/eu): the cluster's one lock,
 * whatever the id. */
#define eu_mutex_lock_from_id(id) ((void)(id), pi_cl_team_critical_enter())
#define eu_mutex_unlock_from_id(id) ((void)(id), pi_cl_team_critical_exit())
#define eu_mutex_addr(id) ((uint32_t)(id))
#define eu_mutex_lock(addr) eu_mutex_lock_from_id(addr)
#define eu_mutex_unlock(addr) eu_mutex_unlock_from_id(addr)
#define EU_MutexLock(id) eu_mutex_lock_from_id(id)
#define EU_MutexUnlock(id) eu_mutex_unlock_from_id(id)

/* ------------------------------------------------ performance counters */

/* The event ids of pulp-sdk's default chip (GAP8's are one lower from
 * PI_PERF_LD_EXT on, and PI_PERF_CYCLES 16). On the host, PI_PERF_CYCLES
 * and PI_PERF_ACTIVE_CYCLES count the model's virtual steps while the
 * counters run; every other event reads 0 (docs/porting/pmsis.md). */
typedef enum {
	PI_PERF_ACTIVE_CYCLES = 0,
	PI_PERF_INSTR = 1,
	PI_PERF_LD_STALL = 2,
	PI_PERF_JR_STALL = 3,
	PI_PERF_IMISS = 4,
	PI_PERF_LD = 5,
	PI_PERF_ST = 6,
	PI_PERF_JUMP = 7,
	PI_PERF_BRANCH = 8,
	PI_PERF_BTAKEN = 9,
	PI_PERF_RVC = 10,
	PI_PERF_LD_EXT = 12,
	PI_PERF_ST_EXT = 13,
	PI_PERF_LD_EXT_CYC = 14,
	PI_PERF_ST_EXT_CYC = 15,
	PI_PERF_TCDM_CONT = 16,
	PI_PERF_CYCLES = 17,
} pi_perf_event_e;

enum dfz_perf_op { DFZ_PERF_CONF, DFZ_PERF_RESET, DFZ_PERF_START,
		   DFZ_PERF_STOP };
void dfz_dropin_perf(enum dfz_perf_op op, unsigned events);
unsigned int dfz_dropin_perf_read(int event);

#define pi_perf_conf(events) dfz_dropin_perf(DFZ_PERF_CONF, (unsigned)(events))
#define pi_perf_reset(...) dfz_dropin_perf(DFZ_PERF_RESET, 0)
#define pi_perf_start(...) dfz_dropin_perf(DFZ_PERF_START, 0)
#define pi_perf_stop(...) dfz_dropin_perf(DFZ_PERF_STOP, 0)
#define pi_perf_read(event) dfz_dropin_perf_read((int)(event))
#define pi_perf_cl_reset(...) pi_perf_reset()
#define pi_perf_cl_start(...) pi_perf_start()
#define pi_perf_cl_stop(...) pi_perf_stop()
#define pi_perf_cl_read(event) pi_perf_read(event)
#define pi_perf_fc_reset(...) pi_perf_reset()
#define pi_perf_fc_start(...) pi_perf_start()
#define pi_perf_fc_stop(...) pi_perf_stop()
#define pi_perf_fc_read(event) pi_perf_read(event)

/* The cluster DMA, at the SDK's own path. */
#include "dmafuzz/dropin/pmsis/cluster/dma/cl_dma.h"

/* The RAM API too: generated code that calls pi_cl_ram_* (and Deeploy's
 * helpers) compiles with pmsis.h as its one include. */
#include "dmafuzz/dropin/bsp/ram.h"

/* The register-level names (ARCHI_MCHAN_DEMUX_ADDR, CL_IRQ_DMA0,
 * eu_evt_maskWaitAndClr) of code that ships its own mchan.h. */
#include "dmafuzz/dropin/archi/dfz_cluster_regs.h"

#endif /* DMAFUZZ_DROPIN_PMSIS_H */
