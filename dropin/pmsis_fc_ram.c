// SPDX-License-Identifier: MIT
/*
 * The fabric controller's side of the PMSIS RAM API (bsp/ram.h) on the
 * ram engine: the device's conf and open, L3 allocation, the copies and
 * their _async forms (the task's own request is the driver's queue
 * node), the cluster's allocation requests (a free judged first:
 * blocks.c), and the call site of a
 * caller that reached the drop-in through a plain function (Deeploy's
 * helpers), symbolized from the binary's debug info.
 */
#define _GNU_SOURCE /* dladdr, popen */
#include <dlfcn.h>
#include <elf.h>
#include <stdio.h>

#include "pmsis_int.h"
#include "dmafuzz/dropin/bsp/ram.h"

#define REQ_MAGIC 0x52414d51u /* "RAMQ": a request the drop-in served */

int32_t dfz_dropin_ram_open(struct dfz_site s, struct pi_device *device,
			    int open)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	if (d && !dfz__dropin_usable(d, device, sizeof(*device), open ?
				     "the device of pi_ram_open" :
				     "the device of pi_ram_close"))
		return -1;
	return 0;
}

int dfz_dropin_ram_alloc(struct dfz_site s, struct pi_device *device,
			 uint32_t *addr, uint32_t size)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	(void)device;
	if (!d || !dfz__dropin_usable(d, addr, sizeof(*addr),
				      "the address out of pi_ram_alloc"))
		return -1;
	if (dfz_l3_alloc(d->rt, size, addr) < 0)
		return -1;
	dfz__blocks_user(d, DFZ_L3, *addr);
	return 0;
}

/* pi_ram_free or pi_cl_ram_free (@call) of @addr: judged (blocks.c),
 * then done. Return 0, or -1 when refused. */
static int dealloc(struct dfz_site s, const char *call, uint32_t addr,
		   uint32_t size)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);
	struct dfz__free_call c = { call, DFZ_L3, addr, addr, size, true };

	if (!d)
		return -1;
	if (!dfz__blocks_free(d, &c))
		return -1;
	if (dfz_l3_free(d->rt, addr) == 0)
		return 0;
	dfz__dropin_fail(d, DFZ_CLASS_DEV_MISUSE, "%s of 0x%x, which is not "
			 "a live L3 block (expected an address pi_ram_alloc "
			 "returned)", call, (unsigned)addr);
	return -1;
}

int dfz_dropin_ram_dealloc(struct dfz_site s, struct pi_device *device,
			   uint32_t addr, uint32_t size)
{
	(void)device;
	return dealloc(s, "pi_ram_free", addr, size);
}


int dfz_dropin_ram_ioctl(struct dfz_site s, struct pi_device *device,
			 uint32_t cmd, void *arg)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	(void)device;
	if (!d || cmd != PI_RAM_IOCTL_INFO)
		return 0;
	if (!dfz__dropin_usable(d, arg, sizeof(struct pi_ram_info),
				"the info of pi_ram_ioctl"))
		return -1;
	((struct pi_ram_info *)arg)->size = dfz_mem_size(d->rt, DFZ_L3);
	return 0;
}

/* A copy from the fabric controller: on @task's own request, ended by
 * the task's wait or the next yield; without a task, waited here. */
void dfz_dropin_fc_ram_copy(struct dfz_site s, struct pi_device *device,
			    uint32_t ram_addr, void *data, uint32_t size,
			    uint32_t stride, uint32_t length, int ext2loc,
			    int is_2d, int async, pi_task_t *task)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);
	struct dfz_ram_req own, *req = &own;

	if (!d || (async && !dfz__dropin_usable(d, task, sizeof(*task),
						"the task of pi_ram_copy_async")))
		return;
	if (async)
		req = &task->dfz_req;
	if (task && task->dfz_busy) {
		dfz__dropin_fail(d, DFZ_CLASS_HANDLE_REUSE, "a task is given "
				 "to a new copy while its last one has not "
				 "ended (expected pi_task_wait_on or its "
				 "callback first)");
		return;
	}
	dfz_dropin_ram_copy(s, device, ram_addr, data, size, stride, length,
			    ext2loc, is_2d, req);
	if (d->sited)
		return;
	if (task)
		dfz__pmsis_task_start(d, task, true);
	else
		dfz_dropin_ram_wait(s, req);
}

/* ------------------------------------------------ cluster allocations */

void dfz_dropin_cl_ram_alloc(struct dfz_site s, struct pi_device *device,
			     uint32_t size, pi_cl_ram_alloc_req_t *req)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	if (!d || !dfz__dropin_usable(d, req, sizeof(*req),
				      "the request of pi_cl_ram_alloc"))
		return;
	req->device = device;
	req->size = size;
	req->result = 0;
	req->error = dfz_l3_alloc(d->rt, size, &req->result) < 0 ? -1 : 0;
	if (!req->error)
		dfz__blocks_user(d, DFZ_L3, req->result);
	req->done = 1;
	req->dfz_magic = REQ_MAGIC;
}

void dfz_dropin_cl_ram_free(struct dfz_site s, struct pi_device *device,
			    uint32_t chunk, uint32_t size,
			    pi_cl_ram_free_req_t *req)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	if (!d || !dfz__dropin_usable(d, req, sizeof(*req),
				      "the request of pi_cl_ram_free"))
		return;
	req->device = device;
	req->chunk = chunk;
	req->size = size;
	req->done = 1;
	req->dfz_magic = REQ_MAGIC;
	req->error = (char)dealloc(s, "pi_cl_ram_free", chunk, size);
}

/* A wait on a request no call served is the user's bug: on the chip it
 * spins on a done flag nothing sets. */
static bool served(struct dfz__dropin *d, uint32_t *magic, const char *what)
{
	if (*magic == REQ_MAGIC) {
		*magic = 0;
		return true;
	}
	dfz__dropin_fail(d, DFZ_CLASS_HANDLE_STALE, "%s on a request no "
			 "call issued, or one already waited", what);
	return false;
}

int32_t dfz_dropin_cl_ram_alloc_wait(struct dfz_site s,
				     pi_cl_ram_alloc_req_t *req,
				     uint32_t *addr)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	if (!d || !dfz__dropin_usable(d, req, sizeof(*req),
				      "the request of pi_cl_ram_alloc_wait") ||
	    !dfz__dropin_usable(d, addr, sizeof(*addr),
				"the address out of pi_cl_ram_alloc_wait") ||
	    !served(d, &req->dfz_magic, "pi_cl_ram_alloc_wait"))
		return -1;
	*addr = req->result;
	return req->error;
}

int32_t dfz_dropin_cl_ram_free_wait(struct dfz_site s,
				    pi_cl_ram_free_req_t *req)
{
	struct dfz__dropin *d = dfz__dropin_enter(s);

	if (!d || !dfz__dropin_usable(d, req, sizeof(*req),
				      "the request of pi_cl_ram_free_wait") ||
	    !served(d, &req->dfz_magic, "pi_cl_ram_free_wait"))
		return -1;
	return req->error;
}

/* ------------------------------------------------------- caller sites */

#define MAX_CALLERS 64

/* The call sites seen, each symbolized once: file:line of the call
 * instruction before @ret, by addr2line on the binary's debug info. */
static struct caller {
	const void *ret;
	char file[256];
	char func[48];
	int line;
} callers[MAX_CALLERS];
static unsigned ncallers;

static void symbolize(struct caller *c)
{
	Dl_info info;
	char cmd[512], out[256];
	uintptr_t pc = (uintptr_t)c->ret - 1;
	FILE *p;

	snprintf(c->file, sizeof(c->file), "(a caller at %p)", c->ret);
	if (!dladdr(c->ret, &info) || !info.dli_fname)
		return;
	if (((const Elf64_Ehdr *)info.dli_fbase)->e_type == ET_DYN)
		pc -= (uintptr_t)info.dli_fbase;
	snprintf(cmd, sizeof(cmd), "addr2line -e '%s' 0x%lx 2>/dev/null",
		 info.dli_fname[0] ? info.dli_fname : "/proc/self/exe",
		 (unsigned long)pc);
	p = popen(cmd, "r");
	if (!p)
		return;
	if (fgets(out, sizeof(out), p) && out[0] != '?') {
		char *colon = strrchr(out, ':');

		if (colon) {
			*colon = 0;
			c->line = atoi(colon + 1);
			snprintf(c->file, sizeof(c->file), "%s", out);
		}
	}
	pclose(p);
}

struct dfz_site dfz_dropin_caller(const void *ret, const char *func)
{
	struct caller *c = NULL;

	for (unsigned i = 0; i < ncallers && !c; i++)
		if (callers[i].ret == ret)
			c = &callers[i];
	if (!c) {
		c = &callers[ncallers < MAX_CALLERS ? ncallers++ :
			     MAX_CALLERS - 1];
		*c = (struct caller){ .ret = ret };
		symbolize(c);
	}
	snprintf(c->func, sizeof(c->func), "%s", func);
	return (struct dfz_site){ c->file, c->line, c->func };
}
