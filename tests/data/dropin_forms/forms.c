/* SPDX-License-Identifier: MIT */
/*
 * Call forms that real PMSIS, GAP and Deeploy code uses, each written as
 * that code writes it, compiled against the drop-in's headers at
 * -std=c11 -Wall -Wextra -Werror with gcc and clang (make dropin-forms):
 * unprototyped SDK functions called with arguments, compound literals
 * with commas inside macro arguments, the PULP toolchain's types with no
 * include, libc through pmsis.h alone, the headers at the SDKs' paths,
 * the cluster's bring-up, tasks, the RAM API on both sides and the RAM
 * device confs. Our own writing; nothing here is run.
 */
#include "pmsis.h"
#include "bsp/bsp.h"
#include "bsp/ram.h"
#include "bsp/ram/hyperram.h"
#include "bsp/ram/spiram.h"
#include "bsp/ram/aps25xxxn.h"
#include "pmsis/cluster/cluster_team/cl_team.h"
#include "pmsis/cluster/cluster_sync/fc_to_cl_delegate.h"
#include "pmsis/cluster/dma/cl_dma.h"
#include "pmsis/task.h"
#include "pmsis/drivers/perf.h"
#include "pmsis/rtos/os_frontend_api/os.h"
#define MCHAN_VERSION 7
#include "mchan.h"
#include "dory_dma.h"

static PI_L2 float16alt weights[16];
static PI_CL_L1 float16 tile[16];
static struct pi_device ram_dev;
static pi_task_t fc_tasks[2];
static volatile int count;

static void end_of_copy(void *arg)
{
	printf("end of copy %d\n", (int)arg);   /* printf: pmsis.h alone */
	count++;
}

static void pe_entry(void *arg)
{
	int *var = (int *)arg;

	pi_cl_team_critical_enter();
	*var |= 1 << pi_core_id();
	pi_cl_team_critical_exit();
	pi_cl_team_barrier(0);                  /* unprototyped, an argument */
	eu_mutex_lock_from_id(0);
	eu_mutex_unlock_from_id(0);
}

static void cluster_entry(void *arg)
{
	pi_cl_ram_req_t req;
	pi_cl_ram_alloc_req_t areq;
	pi_cl_ram_free_req_t freq;
	pi_cl_dma_cmd_t cmd;
	uint32_t l3;
	int var = 0;

	*(int *)arg = 1;

	pi_cl_ram_alloc(&ram_dev, sizeof(tile), &areq);
	if (pi_cl_ram_alloc_wait(&areq, &l3))
		return;
	pi_cl_ram_write(&ram_dev, l3, tile, sizeof(tile), &req);
	pi_cl_ram_write_wait(&req);
	pi_cl_ram_read(&ram_dev, l3, tile, sizeof(tile), &req);
	pi_cl_ram_read_wait(&req);
	pi_cl_dma_cmd((uint32_t)weights, (uint32_t)tile, sizeof(tile),
		      PI_CL_DMA_DIR_EXT2LOC, &cmd);
	pi_cl_dma_cmd_wait(&cmd);
	pi_cl_team_fork(pi_cl_cluster_nb_cores(), pe_entry, &var);
	if (var != (1 << pi_cl_team_nb_cores()) - 1)
		return;
	var = 0;
	pi_cl_team_prepare_fork(4);
	pi_cl_team_preset_fork(pe_entry, &var);
	pi_cl_ram_free(&ram_dev, l3, sizeof(tile), &freq);
	pi_cl_ram_free_wait(&freq);
	*(int *)arg = var != (1 << pi_cl_team_nb_cores()) - 1;
}

static void gap9_push(void *loc, void *ext, int n)
{
	int c = MCHAN_CMD(n, MCHAN_DMA_TRANSFER_DIRECTION_EXT2LOC,
			  MCHAN_CMD_FLAG_INCREMENTAL, 0, 0, 0, 0, 0);
	int tid = mchan_transfer_get_id();

	/* A compound literal with commas, through the macro argument. */
	mchan_transfer_push_1d((mchan_transfer_t){ .cmd = c, .size = n,
						   .loc = loc, .ext = ext });
	mchan_transfer_wait(tid);
	mchan_transfer_free(tid);
}

/* Deeploy's dory_mem.c and pulp-trainlib open a file system on the
 * default flash; a missing file is NULL. */
static pi_gpio_e gpio_unused;

static void fs_forms(void)
{
	struct pi_device flash, fs;
	struct pi_default_flash_conf flash_conf;
	struct pi_readfs_conf conf;
	pi_fs_file_t *fd;
	pi_cl_fs_req_t req;
	char b[8];

	(void)gpio_unused;
	pi_default_flash_conf_init(&flash_conf);
	pi_open_from_conf(&flash, &flash_conf);
	if (pi_flash_open(&flash))
		return;
	pi_readfs_conf_init(&conf);
	conf.fs.flash = &flash;
	pi_open_from_conf(&fs, &conf);
	if (pi_fs_mount(&fs))
		return;
	fd = pi_fs_open(&fs, "no-such-file.bin", 0);
	if (fd == NULL)
		return;
	pi_cl_fs_read(fd, b, sizeof(b), &req);
	pi_cl_fs_wait(&req);
	pi_fs_close(fd);
}

/* DORY's copy struct as a compound literal through the macro. */
static void dory_forms(void *loc, void *ext)
{
	int tid = dory_dma_allocate();
	DMA_copy w = { .tid = tid };

	dory_dma_memcpy_async(&(DMA_copy){ .ext = ext, .loc = loc,
					   .number_of_2d_copies = 1,
					   .number_of_1d_copies = 1,
					   .length_1d_copy = 8, .dir = 1,
					   .tid = tid });
	dory_dma_barrier(&w);
	dory_dma_free(&w);
}

int test_entry()
{
	struct pi_device cluster_dev;
	struct pi_cluster_conf conf;
	struct pi_cluster_task task;
	struct pi_default_ram_conf ram_conf;
	struct pi_hyperram_conf hyper;
	struct pi_spiram_conf spi;
	struct pi_aps25xxxn_conf octo;
	struct pi_ram_info info;
	uint32_t l3[2];
	char *buf = pmsis_l2_malloc(64), *back = pmsis_l2_malloc(32);
	int errors = 0;
	pi_task_t blk;

	pi_hyperram_conf_init(&hyper);
	pi_spiram_conf_init(&spi);
	pi_aps25xxxn_conf_init(&octo);
	pi_default_ram_conf_init(&ram_conf);
	pi_open_from_conf(&ram_dev, &ram_conf);
	if (pi_ram_open(&ram_dev))
		return -1;
	pi_ram_ioctl(&ram_dev, PI_RAM_IOCTL_INFO, &info);
	if (pi_ram_alloc(&ram_dev, &l3[0], 64) ||
	    pi_ram_alloc(&ram_dev, &l3[1], 64))
		return -2;
	memset(buf, 0x5a, 64);          /* memset: pmsis.h alone */
	pi_ram_write(&ram_dev, l3[0], buf, 64);
	pi_ram_read_async(&ram_dev, l3[0], buf, 64,
			  pi_task_block(&blk));
	pi_task_wait_on(&blk);
	pi_ram_write_async(&ram_dev, l3[1], buf, 64,
			   pi_task_callback(&fc_tasks[0], end_of_copy, (void *)0));
	pi_ram_read_2d_async(&ram_dev, l3[0], back, 32, 16, 8,
			     pi_task_callback(&fc_tasks[1], end_of_copy, (void *)1));
	while (count != 2)
		pi_yield();
	pi_perf_conf(1 << PI_PERF_CYCLES | 1 << PI_PERF_INSTR);
	pi_perf_reset();
	pi_perf_start();
	pi_cluster_conf_init(&conf);
	conf.id = 0;
	pi_open_from_conf(&cluster_dev, &conf);
	if (pi_cluster_open(&cluster_dev))
		return -3;
	pi_cluster_send_task_to_cl(&cluster_dev,
		pi_cluster_task(&task, cluster_entry, &errors));
	pi_cluster_send_task_to_cl_async(&cluster_dev, &task,
					 pi_task_block(&blk));
	pi_task_wait_on(&blk);
	pi_cluster_close(&cluster_dev);
	pi_perf_stop();
	printf("cycles %u, instr %u\n", pi_perf_read(PI_PERF_CYCLES),
	       pi_perf_read(PI_PERF_INSTR));
	gap9_push(tile, weights, 8);
	dory_forms(tile, weights);
	pi_ram_free(&ram_dev, l3[0], 64);
	pi_ram_free(&ram_dev, l3[1], 64);
	pi_ram_close(&ram_dev);
	pmsis_l2_malloc_free(buf, 64);
	pmsis_l2_malloc_free(back, 32);
	pi_time_wait_us(10);
	fs_forms();
	return errors + (weights[0] != (float16alt)0.0f);
}

void test_kickoff(void *arg)
{
	int ret = test_entry();

	(void)arg;
	pmsis_exit(ret);
}

int main()
{
	return pmsis_kickoff((void *)test_kickoff);
}
