/* SPDX-License-Identifier: MIT */
/*
 * A user's own definitions of Deeploy's memory helpers, in the shape of
 * Deeploy's dory_mem.c (GAP9): its header first, then the SDK's, a RAM
 * device of its own opened in mem_init(), the FC-side and cluster-side
 * RAM calls. It must compile against the drop-in's headers, and its
 * definitions must win over the drop-in's (user_mem_calls counts them).
 * Our own writing.
 */
#include "dory_mem.h"
#include "bsp/bsp.h"
#include "pmsis.h"

typedef struct pi_default_ram_conf ram_conf_t;

struct pi_device ram;
static ram_conf_t ram_conf;
int user_mem_calls;

void open_fs() {}

void mem_init()
{
	pi_default_ram_conf_init(&ram_conf);
	pi_open_from_conf(&ram, &ram_conf);
	if (pi_ram_open(&ram)) {
		printf("ERROR: Cannot open ram! Exiting...\n");
		pmsis_exit(-3);
	}
}

struct pi_device *get_ram_ptr() { return &ram; }

void *ram_malloc(size_t size)
{
	void *ptr = NULL;

	user_mem_calls++;
	pi_ram_alloc(&ram, (uint32_t *)&ptr, size);
	return ptr;
}

void ram_free(void *ptr, size_t size) { pi_ram_free(&ram, (uint32_t)ptr, size); }

void ram_read(void *dest, void *src, const size_t size)
{
	pi_ram_read(&ram, (uint32_t)src, dest, size);
}

void ram_write(void *dest, void *src, const size_t size)
{
	pi_ram_write(&ram, (uint32_t)dest, src, size);
}

void *cl_ram_malloc(size_t size)
{
	uint32_t addr;
	pi_cl_ram_alloc_req_t req;

	user_mem_calls++;
	pi_cl_ram_alloc(&ram, size, &req);
	pi_cl_ram_alloc_wait(&req, &addr);
	return (void *)addr;
}

void cl_ram_free(void *ptr, size_t size)
{
	pi_cl_ram_free_req_t req;

	pi_cl_ram_free(&ram, (uint32_t)ptr, size, &req);
	pi_cl_ram_free_wait(&req);
}

void cl_ram_read(void *dest, void *src, const size_t size)
{
	pi_cl_ram_req_t req;

	pi_cl_ram_read(&ram, (uint32_t)src, dest, size, &req);
	pi_cl_ram_read_wait(&req);
}

void cl_ram_write(void *dest, void *src, const size_t size)
{
	pi_cl_ram_req_t req;

	pi_cl_ram_write(&ram, (uint32_t)dest, src, size, &req);
	pi_cl_ram_write_wait(&req);
}
